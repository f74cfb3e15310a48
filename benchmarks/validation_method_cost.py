"""What choosing a method costs in a case validation: TAVeer alone, LambdaG alone and the
fusion, validated on the shipped demo population at the demo case's lengths (the wizard's
"what it costs" sentence quotes these figures).

The population is resources/demo/population (6 authors, 60 public-domain documents); the
lengths are those of demo case DEMO-001 (its questioned document, its known documents
together), the settings the wizard's defaults (5 folds, LambdaG order up to 10, 30 reference
samples). Each run is what the wizard's Run button does: ``store/case_validation.validate_case``
on a real project file (population read back from the store and re-hashed, the validation, the
model and record stored). Each method is run ``--runs`` times in the same process, in turn, and
the median wall time of each is reported with its ratio to TAVeer's median from the same
session.

    taskset -c 0,1 .venv/bin/python benchmarks/validation_method_cost.py [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from taveer_desktop import paths  # noqa: E402
from taveer_desktop.core.validation.validation import METHODS, ValidationSettings  # noqa: E402
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore  # noqa: E402
from taveer_desktop.store.case_validation import case_lengths, validate_case  # noqa: E402


def demo_case_project(folder: Path) -> Path:
    """A project holding demo case DEMO-001's documents and the shipped demo population."""
    demo = paths.resource("demo")
    entry = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))["cases"][0]
    project = folder / "cost.taveer"
    with ProjectStore.create(project) as store:
        case = store.cases.create("COST-1", entry["title"], "Benchmark", "Benchmark")
        store.documents.add(case.id, KNOWN, [demo / name for name in entry["known"]])
        store.documents.add(case.id, QUESTIONED, [demo / entry["questioned"]])
        store.populations.add_folder("demo", demo / "population", "the shipped demo texts")
    return project


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    times: dict[str, list[float]] = {m: [] for m in METHODS}
    trials: dict[str, int] = {}
    lambdag: dict[str, float] = {}
    with (
        tempfile.TemporaryDirectory() as folder,
        ProjectStore.open(demo_case_project(Path(folder))) as store,
    ):
        case = store.cases.list_all()[0]
        questioned, known = case_lengths(store, case.id)
        authors = store.populations.find("demo").author_count
        documents = store.populations.find("demo").document_count
        for run in range(args.runs):
            for method in METHODS:
                settings = ValidationSettings(method=method)
                started = time.perf_counter()
                done = validate_case(store, case.id, "demo", settings, f"{method} {run}")
                times[method].append(time.perf_counter() - started)
                trials[method] = len(done.result.trials)
                if "lambdag" in done.result.record:
                    lambdag[method] = done.result.record["lambdag"]["seconds"]
    medians = {m: sorted(t)[len(t) // 2] for m, t in times.items()}
    print(
        json.dumps(
            {
                "population": "demo",
                "authors": authors,
                "documents": documents,
                "questioned_chars": questioned,
                "known_chars": known,
                "trials": trials,
                "cpus": len(os.sched_getaffinity(0)),
                "load_average": os.getloadavg(),
                "seconds": {m: [round(t, 2) for t in times[m]] for m in METHODS},
                "median_seconds": {m: round(v, 2) for m, v in medians.items()},
                "ratio_to_taveer": {m: round(v / medians["taveer"], 1) for m, v in medians.items()},
                "lambdag_seconds_last_run": lambdag,
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
