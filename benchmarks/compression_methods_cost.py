"""Seconds per case of COAV, OCCAV, NNCD and DynamicAV on realistic lengths, and PPMd's speed.

For each shared corpus (test split: Stack Exchange, known ~4,300 / questioned ~2,000
characters; Reuters C50, ~6,200 / ~3,100) every case's feature vector is computed, with the
documents of the other authors of the split as NNCD's impostors. Two figures per method, each
the median of ``--runs`` passes over all cases, divided by the number of cases:

* ``single``: the process's remembered compressed lengths emptied before every case — what
  one case costs on its own (``taveer verify``);
* ``validation``: emptied once before the pass — what a validation pays per trial once the
  texts recurring across trials (NNCD's impostors, a text that is known in one trial and
  questioned or impostor in another) are remembered.

Each figure is given as wall time and as the process's CPU time (less disturbed when other
work shares the cores; the 1-minute load average after the corpus is printed too). Also PPMd
alone: milliseconds per 1,000 characters compressing each case's questioned text.

    .venv/bin/python benchmarks/compression_methods_cost.py [--shared ../shared] [--runs 5]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import time
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from timing import median_seconds  # noqa: E402

from taveer_desktop.core.features.feature_stream import prepare_text  # noqa: E402
from taveer_desktop.core.intake.corpus import open_corpus  # noqa: E402
from taveer_desktop.core.methods.systems import ppmd_compression  # noqa: E402
from taveer_desktop.core.methods.systems.coav import Coav  # noqa: E402
from taveer_desktop.core.methods.systems.comparison import CaseTexts, ComparisonMethod  # noqa: E402
from taveer_desktop.core.methods.systems.dynamicav import DynamicAv  # noqa: E402
from taveer_desktop.core.methods.systems.nncd import Nncd  # noqa: E402
from taveer_desktop.core.methods.systems.occav import Occav  # noqa: E402

CORPORA = ("stackexchange", "reuters-c50")


def trials(root: Path) -> list[tuple[CaseTexts, tuple[str, ...]]]:
    """Every test case's prepared texts with the other authors' documents as impostors."""
    with open(root / "cases.csv", encoding="utf-8") as handle:
        authors = {
            r["id"]: (r["known_author"], r["unknown_author"]) for r in csv.DictReader(handle)
        }
    cases = list(open_corpus(root / "test").iter_cases())
    documents = []
    for case in cases:
        known_author, questioned_author = authors[case.case_id]
        documents += [(known_author, prepare_text(t)) for t in case.known_texts]
        documents.append((questioned_author, prepare_text(case.unknown_text)))
    return [
        (
            CaseTexts(
                tuple(prepare_text(t) for t in case.known_texts), prepare_text(case.unknown_text)
            ),
            tuple(text for author, text in documents if author not in authors[case.case_id]),
        )
        for case in cases
    ]


def per_case(
    method: ComparisonMethod, cases: list, runs: int, remember: bool
) -> tuple[float, float]:
    """Median (wall, CPU) seconds per case of a pass over all cases; the remembered compressed
    lengths are emptied before every case (``remember`` False) or once before the pass."""
    walls, cpus = [], []
    for _ in range(runs):
        ppmd_compression._BY_ORDER.clear()
        wall, cpu = time.perf_counter(), time.process_time()
        for texts, impostors in cases:
            if not remember:
                ppmd_compression._BY_ORDER.clear()
            method.features(texts, impostors, np.random.default_rng(0))
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls) / len(cases), statistics.median(cpus) / len(cases)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for name in CORPORA:
        root = Path(args.shared) / "corpora" / name
        if not root.exists():
            print(json.dumps({"corpus": name, "skipped": f"{root} is not available"}))
            continue
        cases = trials(root)
        questioned = [texts.questioned for texts, _ in cases]
        chars = sum(len(t) for t in questioned)
        ppmd, _ = median_seconds(
            lambda texts=questioned: [ppmd_compression.compressed_length(t) for t in texts],
            args.runs,
        )
        row: dict[str, object] = {
            "corpus": name,
            "cases": len(cases),
            "avg_chars_known": round(np.mean([len(t.known_joined) for t, _ in cases])),
            "avg_chars_questioned": round(chars / len(cases)),
            "impostors_available": len(cases[0][1]),
            "ppmd_ms_per_1000_chars": round(1000 * ppmd / chars * 1000, 3),
        }
        for method in (Coav(), Occav(), Nncd(), DynamicAv()):
            for remember in (False, True):
                key = f"{method.info.id}_{'validation' if remember else 'single'}"
                wall, cpu = per_case(method, cases, args.runs, remember)
                row[f"{key}_s_per_case"] = round(wall, 5)
                row[f"{key}_cpu_s_per_case"] = round(cpu, 5)
        row["load_average_1min_after"] = round(os.getloadavg()[0], 2)
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
