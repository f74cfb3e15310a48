"""Time of seeding the demo project (``store/demo_project.py``), phase by phase.

Seeds a fresh project several times and splits each seeding at its progress messages: the
bundled models and demo cases (what seeding did before the demo validation), the import of the
demo population, and the validation of the demo case on it. Prints the median and spread of
each phase and the whole seeding's ratio to the first phase.

    .venv/bin/python benchmarks/demo_seeding.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from taveer_desktop.core.ground.progress import Progress  # noqa: E402
from taveer_desktop.store import ProjectStore, demo_project  # noqa: E402

PHASES = ("models and cases", "population import", "validation", "whole seeding")


def seed_once(folder: Path) -> dict[str, float]:
    marks: dict[str, float] = {}

    def progress(done: int, total: int, message: str) -> None:
        for key in ("adding the demo population", "validating demo case", "demo ready"):
            if message.startswith(key) and key not in marks:
                marks[key] = time.perf_counter()

    with ProjectStore.create(folder / "demo.taveer") as store:
        started = time.perf_counter()
        demo_project.seed_demo_project(store, Progress(progress))
        ended = time.perf_counter()
    return {
        "models and cases": marks["adding the demo population"] - started,
        "population import": marks["validating demo case"] - marks["adding the demo population"],
        "validation": marks["demo ready"] - marks["validating demo case"],
        "whole seeding": ended - started,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    runs = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            runs.append(seed_once(Path(tmp)))
    for phase in PHASES:
        values = [r[phase] for r in runs]
        print(
            f"{phase:18s} median {statistics.median(values):6.2f} s "
            f"(spread {min(values):.2f}–{max(values):.2f})"
        )
    ratio = [r["whole seeding"] / r["models and cases"] for r in runs]
    print(f"whole seeding / models and cases: median {statistics.median(ratio):.1f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
