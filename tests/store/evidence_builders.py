"""Builders of evidence files and models for the store tests (real files, no stubs).

``docx_bytes`` writes a genuine Office Open XML package with ``zipfile``; ``model_bytes`` takes
the shipped default model (real ``taveer train`` output) and optionally renames it.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

from taveer_desktop.paths import resource

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
DEMO_DIR = resource("demo", "federalist")

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    "</Types>"
)


def rels_xml(target: str = "word/document.xml") -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        f'relationships/officeDocument" Target="{target}"/>'
        "</Relationships>"
    )


def document_xml(body: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<w:document xmlns:w="{W_NS}" xmlns:mc="{MC_NS}"><w:body>{body}</w:body></w:document>'
    )


def paragraph(*runs: str) -> str:
    return (
        "<w:p>"
        + "".join(f'<w:r><w:t xml:space="preserve">{r}</w:t></w:r>' for r in runs)
        + "</w:p>"
    )


CORE_XML = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/'
    'core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns:dcterms="http://purl.org/dc/terms/">'
    "<dc:creator>Jane Writer</dc:creator><cp:lastModifiedBy>John Editor</cp:lastModifiedBy>"
    "<cp:revision>3</cp:revision><dcterms:created>2024-03-01T10:00:00Z</dcterms:created>"
    "</cp:coreProperties>"
)


def docx_bytes(
    body_xml: str | bytes,
    part: str = "word/document.xml",
    core_xml: str | None = CORE_XML,
    extra: dict[str, bytes] | None = None,
) -> bytes:
    """A .docx package whose main part holds ``body_xml`` (a full XML document or raw bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", rels_xml(part))
        archive.writestr(part, body_xml)
        if core_xml is not None:
            archive.writestr("docProps/core.xml", core_xml)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def model_bytes(name: str | None = None) -> bytes:
    """The shipped default model's JSON bytes, renamed to ``name`` if given."""
    data = resource("models", "default.json").read_bytes()
    if name is None:
        return data
    model = json.loads(data)
    model["name"] = name
    return (json.dumps(model, indent=2) + "\n").encode("utf-8")


def default_model_name() -> str:
    return json.loads(model_bytes())["name"]


def write(path: Path, data: bytes | str, encoding: str = "utf-8") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode(encoding))
    return path


def demo_text_paths() -> tuple[list[Path], Path]:
    """(known Federalist papers by Hamilton, the questioned paper) shipped as the demo case."""
    known = [DEMO_DIR / f"federalist_{n:02d}.txt" for n in (1, 6, 15, 23)]
    return known, DEMO_DIR / "federalist_51_questioned.txt"


_ENGINE_RESULT: dict | None = None


def engine_result() -> dict:
    """A real verification result (the engine's ``to_dict()``) of the shipped demo texts with
    the default model: what ``store.runs.store`` keeps, built once per test session."""
    global _ENGINE_RESULT
    if _ENGINE_RESULT is None:
        from taveer_desktop.core.methods.taveer.model import parse_model
        from taveer_desktop.core.methods.taveer.verify import verify

        model = parse_model(model_bytes().decode("utf-8"), "default.json")
        known, questioned = demo_text_paths()
        _ENGINE_RESULT = verify(
            model, [known[0].read_text(encoding="utf-8")], questioned.read_text(encoding="utf-8")
        ).to_dict()
    return json.loads(json.dumps(_ENGINE_RESULT))
