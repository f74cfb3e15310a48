"""What reading a file as a reader sees it costs at intake (a script, not a test).

Writes, in a temporary folder, large evidence files made of the shipped Federalist papers
repeated: a plain UTF-8 text of ``--chars`` characters (nothing hidden: the common case), the
same text with one zero-width space every 100 characters, an HTML e-mail of a fifth of that
size with a plain-text alternative, the same HTML e-mail without it, and a Word document of a
fifth of it. Each file goes
through ``store.intake.prepare_document`` (reading, hashing, decoding, extraction, sentence
counting; no store) ``--runs`` times, in a fresh process per tree, and the median is printed for
this tree and, with ``--baseline``, for another checkout of the package (the code before).

    .venv/bin/python benchmarks/intake_reading_benchmark.py [--chars 4000000] [--runs 7] \\
        [--baseline /path/to/old/checkout]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import zipfile
from email.message import EmailMessage
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "resources" / "demo" / "federalist"
W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
TIMER = """
import json, statistics, sys, time
from pathlib import Path
from taveer_desktop.store.intake import prepare_document
result = {}
for path in sys.argv[2:]:
    times = []
    for _ in range(int(sys.argv[1])):
        started = time.perf_counter()
        prepare_document(Path(path))
        times.append(time.perf_counter() - started)
    result[Path(path).name] = times
print(json.dumps(result))
"""


def _text(chars: int) -> str:
    papers = [p.read_text("utf-8") for p in sorted(DEMO.glob("federalist_*.txt"))]
    parts, size, copy = [], 0, 0
    while size < chars:
        for paper in papers:
            piece = f"Copy {copy}.\n\n{paper}\n\n"
            parts.append(piece)
            size += len(piece)
        copy += 1
    return "".join(parts)[:chars]


def _docx(text: str) -> bytes:
    body = "".join(
        f'<w:p><w:r><w:t xml:space="preserve">{escape(p)}</w:t></w:r></w:p>'
        for p in text.split("\n\n")
    )
    document = f'<w:document xmlns:w="{W_NS}"><w:body>{body}</w:body></w:document>'
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            "_rels/.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            'relationships/officeDocument" Target="word/document.xml"/></Relationships>',
        )
        archive.writestr("word/document.xml", document)
    return buffer.getvalue()


def write_files(folder: Path, chars: int) -> list[Path]:
    text = _text(chars)
    spoiled = "".join(
        text[i : i + 100] + "\u200b" for i in range(0, len(text), 100)
    )  # one invisible character every 100
    fifth = text[: chars // 5]
    message = EmailMessage()
    message["From"] = "a@example.org"
    message["Subject"] = "benchmark"
    message.set_content(fifth)
    html = "".join(f"<p>{escape(p)}</p>" for p in fifth.split("\n\n"))
    message.add_alternative(f"<html><body>{html}</body></html>", subtype="html")
    html_only = EmailMessage()
    html_only["From"] = "a@example.org"
    html_only["Subject"] = "benchmark"
    html_only.set_content(f"<html><body>{html}</body></html>", subtype="html")
    files = {
        "plain.txt": text.encode("utf-8"),
        "invisible.txt": spoiled.encode("utf-8"),
        "mail.eml": bytes(message),
        "html-only.eml": bytes(html_only),
        "letter.docx": _docx(fifth),
    }
    paths = []
    for name, data in files.items():
        path = folder / name
        path.write_bytes(data)
        os.utime(path, (1_000_000_000, 1_000_000_000))  # not "just written": no settling wait
        paths.append(path)
    return paths


def time_tree(tree: Path, paths: list[Path], runs: int) -> dict[str, list[float]]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", TIMER, str(runs), *map(str, paths)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=4_000_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--baseline", type=Path, help="a checkout of the code before")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paths = write_files(Path(folder), args.chars)
        sizes = {path.name: path.stat().st_size for path in paths}
        trees = {"this tree": ROOT}
        if args.baseline:
            trees = {"before": args.baseline, **trees}
        results = {name: time_tree(tree, paths, args.runs) for name, tree in trees.items()}
    print(f"median of {args.runs} runs (min–max), seconds")
    for path in paths:
        cells = []
        for name, result in results.items():
            times = result[path.name]
            cells.append(
                f"{name}: {statistics.median(times):.3f} ({min(times):.3f}–{max(times):.3f})"
            )
        if args.baseline:
            ratio = statistics.median(results["this tree"][path.name]) / statistics.median(
                results["before"][path.name]
            )
            cells.append(f"ratio {ratio:.2f}")
        print(f"{path.name} ({sizes[path.name]:,} bytes): " + "; ".join(cells))


if __name__ == "__main__":
    main()
