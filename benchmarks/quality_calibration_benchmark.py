"""Length-aware (quality-measure) calibration against the plain logistic map, cross-validated.

For each shared corpus the population is its train split's authors; one validation over a wide
declared range of lengths is run with the calibration taking in no length (plain logistic), the
questioned length, or the questioned and the known lengths
(``core/calibration/quality_measures.py``). The same trials, folds and repeats for each (same
seed): only the calibration differs. Printed: the pooled cross-validated Cllr, Cllr_min and
Cllr_cal, and each questioned-length band's Cllr.

    .venv/bin/python benchmarks/quality_calibration_benchmark.py [--seeds 0 1 2]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.trials.population import population_from_corpus
from taveer_desktop.core.validation.validation import ValidationSettings, validate

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
# wide declared ranges, within what each train split's documents can give
RANGES = {
    "stackexchange": ((500, 3000), (2000, 8000)),
    "reuters-c50": ((800, 4000), (2000, 12000)),
}
VARIANTS = {
    "plain": (),
    "questioned": ("questioned_chars",),
    "questioned+known": ("questioned_chars", "known_chars"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--method", default="taveer")
    args = parser.parse_args()
    rows = []
    for corpus, (questioned, known) in RANGES.items():
        folder = CORPORA / corpus / "train"
        if not folder.is_dir():
            print(f"skipped {corpus}: {folder} is absent", file=sys.stderr)
            continue
        population = population_from_corpus(open_corpus(str(folder)), corpus)
        for seed in args.seeds:
            settings = ValidationSettings(
                questioned_chars=questioned,
                known_chars=known,
                seed=seed,
                bootstrap=50,
                method=args.method,
            )
            for variant, measures in VARIANTS.items():
                started = time.perf_counter()
                record = validate(population, settings, quality_measures=measures).record
                rows.append(
                    {
                        "corpus": corpus,
                        "seed": seed,
                        "calibration": variant,
                        "trials": len(record["trials"]),
                        "cllr": record["figures"]["cllr"],
                        "cllr_min": record["figures"]["cllr_min"],
                        "cllr_cal": record["figures"]["cllr_cal"],
                        "interval_cllr": record["intervals"]["cllr"],
                        "bands": [
                            {
                                "questioned_chars": b["questioned_chars"],
                                "trials": b["trials_same"] + b["trials_different"],
                                "cllr": (b["figures"] or {}).get("cllr"),
                                "cllr_cal": (b["figures"] or {}).get("cllr_cal"),
                                "bound": b["bound"],
                            }
                            for b in record["bands"]
                        ],
                        "seconds": round(time.perf_counter() - started, 1),
                    }
                )
                print(json.dumps(rows[-1]), flush=True)


if __name__ == "__main__":
    main()
