"""Time and peak memory of a report whose questioned document is huge (a script, not a test).

Builds a project in a temporary folder with three known Federalist papers (shipped demo texts)
and one questioned document of ``--chars`` characters (the demo papers repeated, each copy with
its own paragraph numbers so no two paragraphs are equal), verifies it with the demo
formal-prose model, then writes the report in a fresh process and prints that process's wall
time and peak resident memory (``ru_maxrss``). The target of issue 12: a 5-million-character
document reports in seconds, under 500 MB.

    .venv/bin/python benchmarks/huge_document_report.py [--chars 5000000] [--questioned 1]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from taveer_desktop.paths import resource  # noqa: E402
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore  # noqa: E402
from taveer_desktop.store.case_verification import verify_case  # noqa: E402

DEMO = resource("demo", "federalist")
MODEL = resource("models", "demo-formal-prose.json")


def huge_text(chars: int) -> str:
    sources = [p.read_text(encoding="utf-8") for p in sorted(DEMO.glob("*.txt"))]
    parts, total, copy = [], 0, 0
    while total < chars:
        for text in sources:
            for number, paragraph in enumerate(text.split("\n\n")):
                piece = f"[{copy}.{number}] {paragraph}\n\n"
                parts.append(piece)
                total += len(piece)
        copy += 1
    return "".join(parts)[:chars]


def build(folder: Path, chars: int, questioned: int) -> Path:
    project = folder / "huge.taveer"
    known = sorted(DEMO.glob("federalist_0*.txt"))[:3]
    with ProjectStore.create(project) as store:
        case = store.cases.create("HUGE-1", "A huge questioned document")
        store.documents.add(case.id, KNOWN, known)
        for index in range(questioned):
            path = folder / f"questioned-{index}.txt"
            path.write_text(huge_text(chars - index), encoding="utf-8")
            store.documents.add(case.id, QUESTIONED, [path])
        model = store.models.add_file(MODEL)
        verify_case(store, case.id, model.name)
    return project


REPORT_CHILD = """
import resource, sys, time
from taveer_desktop.report.export import export_report
from taveer_desktop.report.pdf import ensure_application
from taveer_desktop.store import ProjectStore
ensure_application()
started = time.perf_counter()
with ProjectStore.open(sys.argv[1]) as store:
    runs = store.runs.list_for_case(store.cases.find("HUGE-1").id)
    for run in runs:
        report = export_report(store, "HUGE-1", sys.argv[2] + f"-{run.id}.pdf", run_id=run.id)
        print(f"run {run.id}: {report.page_count} pages", file=sys.stderr)
print(f"{time.perf_counter() - started:.2f} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=5_000_000)
    parser.add_argument("--questioned", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        project = build(Path(folder), args.chars, args.questioned)
        print(f"project built and verified in {time.perf_counter() - started:.1f} s")
        done = subprocess.run(
            [sys.executable, "-c", REPORT_CHILD, str(project), str(Path(folder) / "report")],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        if done.returncode:
            raise SystemExit(done.stderr)
        seconds, peak_kib = done.stdout.split()
        print(done.stderr.strip())
        print(
            f"{args.questioned} questioned document(s) of {args.chars:,} characters: report(s) "
            f"written in {float(seconds):.2f} s, peak memory {int(peak_kib) / 1024:.0f} MB"
        )


if __name__ == "__main__":
    main()
