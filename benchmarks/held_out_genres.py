"""Held-out genres for the fit check's power (``benchmarks/fit_power.py --held-out``): texts of
this machine that no design choice of the check looked at.

Measurement only: every text is read at run time from the operating system's own files and never
stored, shipped or committed. Four genres, each a list of texts in sorted order (deterministic on
one machine; another machine's packages give other texts):

- **licence texts**: ``/usr/share/common-licenses`` (each distinct file once), each cut at
  paragraph ends into pieces of about ``PIECE`` characters;
- **package documentation**: ``README*`` files under ``/usr/share/doc`` (gzipped or plain);
- **manual pages**: section 1 pages rendered to plain text by ``man`` (``col -b`` removes the
  overstrike); the ``gcloud_*`` pages, one product's generated pages that would otherwise be
  most of the sample, are left out, and every ``step``-th of the rest is taken;
- **Python docstrings**: the docstrings of each module of Python's own standard library
  (``/usr/lib/python3*/*.py``: the module's, its classes' and functions', in file order), one
  text per module.

A text shorter than ``MIN_CHARS`` is not used (it could not be cut to a population's lengths).
"""

from __future__ import annotations

import ast
import gzip
import os
import subprocess
from pathlib import Path

PIECE = 4000
MIN_CHARS = 3500
LIMIT = 150  # texts per genre, at most


def _pieces(text: str, size: int = PIECE) -> list[str]:
    """A long text cut at paragraph ends into pieces of at least ``size`` characters."""
    pieces, current = [], ""
    for paragraph in text.split("\n\n"):
        current = f"{current}\n\n{paragraph}" if current else paragraph
        if len(current) >= size:
            pieces.append(current)
            current = ""
    return pieces


def licences() -> list[str]:
    seen: set[str] = set()
    texts: list[str] = []
    for path in sorted(Path("/usr/share/common-licenses").iterdir()):
        text = path.read_text(encoding="utf-8", errors="replace")
        if text in seen:
            continue
        seen.add(text)
        texts.extend(_pieces(text))
    return texts[:LIMIT]


def _read(path: Path) -> str:
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    return data.decode("utf-8", errors="replace")


def readmes() -> list[str]:
    texts = []
    for path in sorted(Path("/usr/share/doc").glob("*/README*")):
        if path.is_file():
            text = _read(path)
            if len(text) >= MIN_CHARS and text not in texts:
                texts.append(text)
    return texts[:LIMIT]


def man_pages(step: int = 7) -> list[str]:
    pages = sorted(
        p for p in Path("/usr/share/man/man1").iterdir() if not p.name.startswith("gcloud")
    )
    texts: list[str] = []
    environment = {**os.environ, "MANWIDTH": "100", "LC_ALL": "C.UTF-8"}
    for path in pages[::step]:
        rendered = subprocess.run(
            ["man", "--nh", "--nj", "-P", "cat", "-l", str(path)],
            capture_output=True, env=environment, timeout=30,
        )  # fmt: skip
        plain = subprocess.run(["col", "-bx"], input=rendered.stdout, capture_output=True)
        text = plain.stdout.decode("utf-8", errors="replace")
        if len(text) >= MIN_CHARS:
            texts.append(text)
        if len(texts) >= LIMIT:
            break
    return texts


def docstrings() -> list[str]:
    texts = []
    for path in sorted(Path("/usr/lib").glob("python3*/*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        nodes = [tree] + [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        ]
        strings = [d for n in nodes if (d := ast.get_docstring(n))]
        text = "\n\n".join(strings)
        if len(text) >= MIN_CHARS:
            texts.append(text)
    return texts[:LIMIT]


GENRES = {
    "licence texts": licences,
    "package documentation (README)": readmes,
    "manual pages": man_pages,
    "Python docstrings": docstrings,
}
