"""Hostile training/evaluation corpora built on disk from the bundled demo texts.

``build(kind, folder)`` writes one small PAN-layout corpus spoiled in the way ``kind`` names
and returns its path; ``KINDS`` lists them. FIFOs are made with ``os.mkfifo`` (POSIX only).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from taveer_desktop.paths import resource

DEMO = resource("demo", "federalist")


def _texts() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(DEMO.glob("*.txt"))]


def good_folder_corpus(root: Path, problems: int = 6) -> Path:
    texts = _texts()
    root.mkdir(parents=True, exist_ok=True)
    truth = []
    for index in range(problems):
        folder = root / f"EN{index + 1:03d}"
        folder.mkdir()
        known = texts[index % len(texts)]
        unknown = texts[(index + index % 2) % len(texts)]
        (folder / "known01.txt").write_text(known[: len(known) // 2], encoding="utf-8")
        (folder / "unknown.txt").write_text(unknown[len(unknown) // 2 :], encoding="utf-8")
        truth.append(f"{folder.name} {'Y' if index % 2 == 0 else 'N'}")
    (root / "truth.txt").write_text("\n".join(truth) + "\n", encoding="utf-8")
    return root


def good_jsonl_corpus(root: Path, problems: int = 6) -> Path:
    texts = _texts()
    root.mkdir(parents=True, exist_ok=True)
    pairs, truth = [], []
    for index in range(problems):
        known = texts[index % len(texts)]
        unknown = texts[(index + index % 2) % len(texts)]
        pairs.append({"id": f"p{index}", "pair": [known[:3000], unknown[-3000:]]})
        truth.append({"id": f"p{index}", "same": index % 2 == 0})
    (root / "pairs.jsonl").write_text("\n".join(json.dumps(p) for p in pairs) + "\n")
    (root / "truth.jsonl").write_text("\n".join(json.dumps(t) for t in truth) + "\n")
    return root


def _replace_with_fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def build(kind: str, root: Path) -> Path:
    make = good_jsonl_corpus if kind.startswith("jsonl") else good_folder_corpus
    corpus = make(root)
    if kind == "fifo-known":
        _replace_with_fifo(corpus / "EN002" / "known01.txt")
    elif kind == "fifo-unknown":
        _replace_with_fifo(corpus / "EN003" / "unknown.txt")
    elif kind == "fifo-truth":
        _replace_with_fifo(corpus / "truth.txt")
    elif kind == "truth-names-missing-folder":
        with open(corpus / "truth.txt", "a", encoding="utf-8") as handle:
            handle.write("EN999 Y\n")
    elif kind == "folder-without-unknown":
        (corpus / "EN004" / "unknown.txt").unlink()
    elif kind == "known-is-a-folder":
        (corpus / "EN002" / "known01.txt").unlink()
        (corpus / "EN002" / "known01.txt").mkdir()
    elif kind == "not-utf8-names":
        os.rename(corpus / "EN002", corpus / os.fsdecode(b"EN\xff02"))
        with open(corpus / "truth.txt", "ab") as handle:
            handle.write(b"EN\xff02 Y\n")
    elif kind == "jsonl-deep":
        with open(corpus / "pairs.jsonl", "a", encoding="utf-8") as handle:
            handle.write('{"id": "deep", "pair": ' + "[" * 50_000 + "]" * 50_000 + "}\n")
    elif kind == "jsonl-huge-number":
        with open(corpus / "truth.jsonl", "a", encoding="utf-8") as handle:
            handle.write('{"id": "p0", "same": ' + "9" * 6000 + "}\n")
    elif kind == "jsonl-fifo":
        _replace_with_fifo(corpus / "pairs.jsonl")
    elif kind == "jsonl-truth-fifo":
        _replace_with_fifo(corpus / "truth.jsonl")
    else:
        raise ValueError(kind)
    return corpus


KINDS = [
    "fifo-known",
    "fifo-unknown",
    "fifo-truth",
    "truth-names-missing-folder",
    "folder-without-unknown",
    "known-is-a-folder",
    "not-utf8-names",
    "jsonl-deep",
    "jsonl-huge-number",
    "jsonl-fifo",
    "jsonl-truth-fifo",
]
