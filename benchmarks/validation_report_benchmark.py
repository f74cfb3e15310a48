"""Export time and size of the validation report PDF for a 5,000-trial record, against a small
record in the same run (the baseline).

The large record is a real validation (``core/validation.validate``) of the timing-only
synthetic population of ``validation_speed.py`` (200 "authors" × 14 documents, questioned
1,500 and known 4,000 characters, 5,000 trials); the baseline is the same population cut to
12 authors (a few hundred trials). Each record's report is exported ``--runs`` times
(``export_validation_report``: curves, layout, painting, the PDF read back and checked, the
atomic rename); the medians, the spread, the ratio large / small, the page count and the file
size are printed as JSON. The Qt application is started before the first timed run.

    taskset -c 0,1 .venv/bin/python benchmarks/validation_report_benchmark.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "benchmarks")]

from validation_speed import paragraphs, synthetic_texts  # noqa: E402

from taveer_desktop.core.trials.population import population_from_texts  # noqa: E402
from taveer_desktop.core.validation.validation import ValidationSettings, validate  # noqa: E402
from taveer_desktop.report.pdf import ensure_application  # noqa: E402
from taveer_desktop.report.validation_export import export_validation_report  # noqa: E402


def _record(texts: dict, max_trials: int) -> dict:
    population = population_from_texts(texts, "synthetic", "synthetic", "timing only")
    settings = ValidationSettings(questioned_chars=1500, known_chars=4000, max_trials=max_trials)
    return validate(population, settings).record


def _time_exports(record: dict, folder: Path, runs: int) -> dict:
    seconds, exported = [], None
    for run in range(runs):
        target = folder / f"report-{len(record['trials'])}-{run}.pdf"
        started = time.perf_counter()
        exported = export_validation_report(record, target, "benchmark record")
        seconds.append(time.perf_counter() - started)
    assert exported is not None
    return {
        "trials": len(record["trials"]),
        "median_seconds": round(statistics.median(seconds), 3),
        "spread_seconds": [round(min(seconds), 3), round(max(seconds), 3)],
        "pages": exported.page_count,
        "pdf_bytes": exported.path.stat().st_size,
        "record_json_bytes": len(json.dumps(record)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--trials", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    pool = paragraphs(Path(args.shared))
    if not pool:
        print("no texts found under --shared", file=sys.stderr)
        return 2
    texts = synthetic_texts(pool, 200, 14)
    large = _record(texts, args.trials)
    small = _record(dict(list(texts.items())[:12]), args.trials)
    ensure_application()
    with tempfile.TemporaryDirectory() as tmp:
        export_validation_report(small, Path(tmp) / "warm-up.pdf", "warm-up")
        baseline = _time_exports(small, Path(tmp), args.runs)
        measured = _time_exports(large, Path(tmp), args.runs)
    print(
        json.dumps(
            {
                "runs": args.runs,
                "baseline": baseline,
                "large": measured,
                "time_ratio": round(measured["median_seconds"] / baseline["median_seconds"], 2),
                "size_ratio": round(measured["pdf_bytes"] / baseline["pdf_bytes"], 2),
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
