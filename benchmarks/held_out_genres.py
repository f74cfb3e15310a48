"""Genres of this machine's own files for the fit check's power (``benchmarks/fit_power.py``).

Measurement only: every text is read at run time from the operating system's own files and never
stored, shipped or committed. Each genre is a list of texts in sorted order (deterministic on one
machine; another machine's packages give other texts). ``ROUND_2`` were held out from the second
design round and designed on in the third; ``ROUND_3`` are held out from the third (the one
shipped), named before they were read (``fit_power.py``'s docstring).

Round 2:

- **licence texts**: ``/usr/share/common-licenses`` (each distinct file once), each cut at
  paragraph ends into pieces of about ``PIECE`` characters;
- **package documentation**: ``README*`` files under ``/usr/share/doc`` (gzipped or plain);
- **manual pages**: section 1 pages rendered to plain text by ``man`` (``col -b`` removes the
  overstrike); the ``gcloud_*`` pages, one product's generated pages that would otherwise be
  most of the sample, are left out, and every ``step``-th of the rest is taken;
- **Python docstrings**: the docstrings of each module of Python's own standard library
  (``/usr/lib/python3*/*.py``: the module's, its classes' and functions', in file order), one
  text per module.

Round 3:

- **Debian changelogs**: ``changelog.Debian.gz`` under ``/usr/share/doc`` (release notes of the
  packages' maintainers);
- **copyright files**: ``/usr/share/doc/*/copyright`` (machine-readable copyright notices and
  the licence texts they quote);
- **package descriptions**: the ``Description`` fields of ``/var/lib/dpkg/status``, joined in
  file order into texts of about ``PIECE`` characters;
- **GNU info manuals**: ``/usr/share/info/*.info*.gz``, each cut at paragraph ends into pieces
  of about ``PIECE`` characters.

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


def _files(pattern: str, root: str = "/usr/share/doc") -> list[str]:
    texts = []
    for path in sorted(Path(root).glob(pattern)):
        if path.is_file():
            text = _read(path)
            if len(text) >= MIN_CHARS and text not in texts:
                texts.append(text)
    return texts


def changelogs() -> list[str]:
    return _files("*/changelog.Debian.gz")[:LIMIT]


def copyrights() -> list[str]:
    return _files("*/copyright")[:LIMIT]


def descriptions() -> list[str]:
    status = Path("/var/lib/dpkg/status").read_text(encoding="utf-8", errors="replace")
    paragraphs = []
    for package in status.split("\n\n"):
        lines = package.splitlines()
        for index, line in enumerate(lines):
            if line.startswith("Description:"):
                body = [line[len("Description:") :].strip()]
                for more in lines[index + 1 :]:
                    if not more.startswith(" "):
                        break
                    body.append("" if more.strip() == "." else more.strip())
                paragraphs.append("\n".join(body))
    return [p for p in _pieces("\n\n".join(paragraphs)) if len(p) >= MIN_CHARS][:LIMIT]


def info_manuals() -> list[str]:
    texts: list[str] = []
    for path in sorted(Path("/usr/share/info").glob("*.info*.gz")):
        texts.extend(p for p in _pieces(_read(path)) if len(p) >= MIN_CHARS)
    return texts[:LIMIT]


ROUND_2 = {
    "licence texts": licences,
    "package documentation (README)": readmes,
    "manual pages": man_pages,
    "Python docstrings": docstrings,
}
ROUND_3 = {
    "Debian changelogs": changelogs,
    "copyright files": copyrights,
    "package descriptions": descriptions,
    "GNU info manuals": info_manuals,
}
