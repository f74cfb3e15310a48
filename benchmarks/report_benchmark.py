"""Speed of the PDF case report (a script, not a timed test).

Builds, in a temporary folder, a project with one case of 20 known documents and one
questioned document (public-domain Federalist papers from ``../shared/demo-texts``, or the
demo papers shipped in ``resources/demo`` repeated under other names where those are absent),
verifies it with the demo formal-prose model, then measures as medians over ``--repeat`` runs:

1. ``export_report`` end to end (integrity check, reading and re-hashing the evidence,
   per-document feature counts, excerpts, layout, PDF writing, audit entry) — target < 3 s;
2. its parts: content only (``prepare_report``) and layout + PDF writing.

Prints the page count and the PDF size. Usage:

    .venv/bin/python benchmarks/report_benchmark.py [--repeat 5] [--known 20]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from timing import median_seconds

from taveer_desktop.paths import resource
from taveer_desktop.report.export import export_report, prepare_report
from taveer_desktop.report.pdf import RenderedReport, ensure_application
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.store.case_verification import verify_case

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "demo-texts" / "federalist"


def evidence(folder: Path, known: int) -> tuple[list[Path], Path]:
    questioned = resource("demo", "federalist", "federalist_51_questioned.txt")
    if SHARED.is_dir():
        sources = sorted(p for p in SHARED.glob("federalist_*.txt") if "51" not in p.name)
    else:
        sources = sorted(resource("demo", "federalist").glob("federalist_[0-4]*.txt"))
    paths = []
    for i in range(known):
        source = sources[i % len(sources)]
        target = folder / f"known_{i:02d}_{source.name}"
        # a distinct suffix keeps repeated sources from being refused as duplicates
        target.write_bytes(source.read_bytes() + f"\n\n(copy {i})\n".encode())
        paths.append(target)
    return paths, questioned


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--known", type=int, default=20)
    args = parser.parse_args()
    ensure_application()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        known, questioned = evidence(folder, args.known)
        project = folder / "bench.taveer"
        with ProjectStore.create(project) as store:
            case = store.cases.create("BENCH-1", "Report benchmark", "Benchmark")
            store.documents.add(case.id, KNOWN, known)
            store.documents.add(case.id, QUESTIONED, [questioned])
            model = store.models.add_file(resource("models", "demo-formal-prose.json"))
            verify_case(store, case.id, model.name)
            characters = sum(d.char_count for d in store.documents.list_for_case(case.id))
            results = {}

            def export():
                results["last"] = export_report(store, "BENCH-1", folder / "report.pdf")

            export()  # warm up (fonts, lexicon)
            total, runs = median_seconds(export, args.repeat)
            content, _ = median_seconds(lambda: prepare_report(store, "BENCH-1"), args.repeat)
            _, built = prepare_report(store, "BENCH-1")
            writing, _ = median_seconds(
                lambda: RenderedReport.layout(built).write_pdf(folder / "layout.pdf"), args.repeat
            )
        last = results["last"]
        size = (folder / "report.pdf").stat().st_size
    print(f"case: {args.known} known + 1 questioned documents, {characters:,} characters")
    print(f"export_report: median {total:.2f} s (runs {', '.join(f'{t:.2f}' for t in runs)})")
    print(f"  content (integrity check, evidence, counts, excerpts): {content:.2f} s")
    print(f"  layout and PDF writing: {writing:.2f} s")
    print(f"pages: {last.page_count}, PDF size: {size / 1024:.0f} KiB")
    print("target < 3 s:", "met" if total < 3 else "NOT met")


if __name__ == "__main__":
    main()
