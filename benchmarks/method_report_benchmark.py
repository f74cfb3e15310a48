"""Time and size of the case report of a fused run against a TAVeer-only run of the same case
(a script, not a timed test).

Builds, in a temporary folder, the project of ``tests/method_fixtures.method_project`` (the
demo case DEMO-001 — four Madison papers known, Federalist No. 51 questioned — validated on the
shipped demo population with the fusion, quick settings, and verified with the fused model,
explained), then validates the same case with ``--method taveer`` under the same settings and
verifies it again with that TAVeer model. Both runs are of the same documents. Measures, as
medians over ``--repeat`` rounds, in the same process, each round timing the two runs one
after the other (so a load that changes during the benchmark weighs on both alike):

1. ``export_report`` end to end (integrity check, reading, counts, excerpts, LambdaG's evidence
   and the sentence leanings for the fused run, layout, PDF, audit entry);
2. its parts: content only (``prepare_report``) and layout + PDF writing;

and prints the page counts, the PDF sizes and the ratios fused / TAVeer-only. Usage:

    .venv/bin/python benchmarks/method_report_benchmark.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from taveer_desktop.report.export import export_report, prepare_report
from taveer_desktop.report.pdf import RenderedReport, ensure_application
from taveer_desktop.store import ProjectStore
from taveer_desktop.store.case_validation import validate_case
from taveer_desktop.store.case_verification import verify_case
from tests.method_fixtures import method_project, quick_settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    ensure_application()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        project = method_project(folder, "fusion")
        with ProjectStore.open(project) as store:
            case = store.cases.find("M-1")
            fused_run = store.runs.list_for_case(case.id)[-1].id
            validate_case(
                store,
                case.id,
                "demo",
                quick_settings("taveer"),
                "TAVeer only",
                genre="formal prose",
            )
            verify_case(store, case.id, stability_resamples=20)
            taveer_run = store.runs.list_for_case(case.id)[-1].id
            runs = {"fused": fused_run, "TAVeer-only": taveer_run}
            figures = {}
            for name, run_id in runs.items():
                target = folder / f"{name}.pdf"
                exported = export_report(store, "M-1", target, run_id=run_id)  # warm up
                figures[name] = {"pages": exported.page_count}
            parts = {
                "total": lambda name, run_id: export_report(
                    store, "M-1", folder / f"{name}.pdf", run_id=run_id
                ),
                "content": lambda name, run_id: prepare_report(store, "M-1", run_id),
                "writing": lambda name, run_id: RenderedReport.layout(built[name]).write_pdf(
                    folder / "layout.pdf"
                ),
            }
            built = {name: prepare_report(store, "M-1", run_id)[1] for name, run_id in runs.items()}
            times: dict[tuple[str, str], list[float]] = {}
            for _ in range(args.repeat):  # alternating the two runs keeps a changing load fair
                for part, function in parts.items():
                    for name, run_id in runs.items():
                        started = time.perf_counter()
                        function(name, run_id)
                        times.setdefault((name, part), []).append(time.perf_counter() - started)
            for name in runs:
                figures[name].update(
                    times=times[(name, "total")],
                    size=(folder / f"{name}.pdf").stat().st_size,
                    **{part: statistics.median(times[(name, part)]) for part in parts},
                )
    for name, f in figures.items():
        runs_text = ", ".join(f"{t:.2f}" for t in f["times"])
        print(
            f"{name}: export_report median {f['total']:.2f} s (runs {runs_text}); content "
            f"{f['content']:.2f} s; layout and PDF {f['writing']:.2f} s; {f['pages']} pages, "
            f"{f['size'] / 1024:.0f} KiB"
        )
    fused, alone = figures["fused"], figures["TAVeer-only"]
    print(
        f"fused / TAVeer-only: time {fused['total'] / alone['total']:.2f}x, content "
        f"{fused['content'] / alone['content']:.2f}x, layout and PDF "
        f"{fused['writing'] / alone['writing']:.2f}x, size {fused['size'] / alone['size']:.2f}x, "
        f"pages +{fused['pages'] - alone['pages']}"
    )


if __name__ == "__main__":
    main()
