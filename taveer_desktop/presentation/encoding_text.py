"""What the examiner is told about a document's encoding: which, how it was found, how sure.

Qt-free wording over a document's ``encoding`` and ``metadata["encoding_detection"]`` (``name``,
``method``, ``confidence``, ``alternative``; see docs/store.md), used by the Documents tab, its
preview, the encoding step of adding documents and the command line's ``case add`` and
``case show``. A detection is *uncertain* when another reading scored almost as well or its
confidence is below ``LOW_CONFIDENCE``; it is flagged in words, not by colour alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taveer_desktop.presentation import numbers

LOW_CONFIDENCE = 0.8

UNCERTAIN_ADVICE = (
    "Uncertain: check that the text reads correctly. If it does not, exclude the document with "
    "that reason (an encoding can only be chosen when a file is added; the same file cannot be "
    "stored twice in one case)."
)
METHOD_WORDS = {
    "bom": "byte-order mark",
    "utf-8": "valid UTF-8",
    "utf-16-pattern": "UTF-16 pattern",
    "detected": "detected",
    "examiner": "examiner's choice",
}
METHOD_SENTENCES = {
    "bom": "Declared by the file itself: it starts with a byte-order mark.",
    "utf-8": (
        "The file is valid UTF-8 throughout; text in another encoding is practically never "
        "valid UTF-8."
    ),
    "utf-16-pattern": (
        "UTF-16 without a byte-order mark, recognised by the pattern of its zero bytes."
    ),
    "detected": (
        "Detected: the file declares no encoding, so the program compared the readings of "
        "33 common encodings (charset-normalizer) and chose the most coherent one."
    ),
    "examiner": (
        "Chosen by the examiner when the file was added (detection skipped); the choice is "
        "recorded in the audit log."
    ),
}


def detection_of(metadata: Mapping[str, Any] | None) -> dict[str, Any]:
    """The ``encoding_detection`` record of a document's metadata ({} when there is none)."""
    detection = (metadata or {}).get("encoding_detection")
    return detection if isinstance(detection, dict) else {}


def _confidence(detection: Mapping[str, Any]) -> float | None:
    value = detection.get("confidence")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def is_uncertain(detection: Mapping[str, Any]) -> bool:
    """A detected encoding that another reading nearly matched, or of low confidence."""
    if detection.get("method") != "detected":
        return False
    confidence = _confidence(detection)
    return bool(detection.get("alternative")) or (
        confidence is not None and confidence < LOW_CONFIDENCE
    )


def encoding_summary(
    encoding: str, metadata: Mapping[str, Any] | None, file_format: str = "txt"
) -> str:
    """One cell: ``Windows-1251 · detected 0.97``; ``… · uncertain`` when it is."""
    if file_format in ("eml", "docx"):
        return f"{encoding} · declared"
    detection = detection_of(metadata)
    method = detection.get("method")
    if method == "detected":
        confidence = _confidence(detection)
        shown = f"{encoding} · detected" + (
            f" {numbers.decimal(confidence, 2)}" if confidence is not None else ""
        )
        return shown + (" · uncertain" if is_uncertain(detection) else "")
    if method in METHOD_WORDS and method != "utf-8":
        return f"{encoding} · {METHOD_WORDS[method]}"
    return encoding


def encoding_explanation(
    encoding: str, metadata: Mapping[str, Any] | None, file_format: str = "txt"
) -> str:
    """The whole story, for a tooltip or the preview: which, how found, how sure, what to do."""
    detection = detection_of(metadata)
    method = detection.get("method")
    lines = [f"Encoding: {encoding}"]
    if file_format == "eml":
        lines.append(
            "Declared by the e-mail's MIME headers (one charset per text part); "
            "'(detected)' marks a part whose declared charset was unknown."
        )
    elif file_format == "docx":
        lines.append("Word documents are always UTF-8 XML; nothing was guessed.")
    elif method in METHOD_SENTENCES:
        lines.append(METHOD_SENTENCES[method])
    else:
        lines.append("How the encoding was found was not recorded (imported by an older version).")
    confidence = _confidence(detection)
    if method == "detected" and confidence is not None:
        lines.append(f"Confidence: {numbers.decimal(confidence, 2)} (1 = no doubt).")
    if detection.get("alternative"):
        lines.append(f"{detection['alternative']} reads the file almost as well.")
    if is_uncertain(detection):
        lines.append(UNCERTAIN_ADVICE)
    return "\n".join(lines)


def encoding_preview_line(
    encoding: str, metadata: Mapping[str, Any] | None, file_format: str = "txt"
) -> str:
    """One or two sentences for the preview heading (plain text; the warning last)."""
    detection = detection_of(metadata)
    method = str(detection.get("method", ""))
    confidence = _confidence(detection)
    if file_format == "eml":
        return f"Encoding {encoding}, as declared by the e-mail's MIME headers."
    if file_format == "docx":
        return f"Encoding {encoding} (Word XML)."
    if method == "detected":
        text = f"Encoding {encoding}, detected" + (
            f" with confidence {numbers.decimal(confidence, 2)} (1 = no doubt)."
            if confidence is not None
            else "."
        )
        if detection.get("alternative"):
            text += f" {detection['alternative']} reads the file almost as well."
        return text
    how = {
        "bom": "declared by its byte-order mark",
        "utf-8": "valid UTF-8 throughout",
        "utf-16-pattern": "recognised by the pattern of its zero bytes",
        "examiner": "chosen by the examiner when it was added (audited)",
    }.get(method, "how it was found was not recorded")
    return f"Encoding {encoding}, {how}."
