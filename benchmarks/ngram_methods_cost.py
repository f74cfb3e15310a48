"""Seconds per case of the four character n-gram comparison methods (ProfAV, IM, SPATIUM-L1,
BAFF) at realistic lengths and impostor counts (a script, not a product feature).

A case is one call of ``features`` (what a validation trial or a verification costs); the
figure is the median of ``--runs`` calls on the same case with a warm impostor index, because a
validation fold or a model passes the same impostor pool case after case and the pool is
counted and indexed once; ``first_call_s`` is the median cost of a first call with every cache
cleared (counting and indexing the pool and the case's texts included). Texts are prepared
public texts: the questioned text and the known documents are cut from the demo texts (Brontë
chapters, Federalist papers) to the stated lengths; impostors are documents of the Stack
Exchange train split (or 2,000-character pieces of the demo texts where the corpora are
absent).

BLAS threads are set to one before numpy loads (``--blas-threads``): validation runs one worker
process per core, and on a busy two-core machine a multi-threaded BLAS makes IM's small matrix
products 20-30 times slower than a single thread.

    .venv/bin/python benchmarks/ngram_methods_cost.py [--shared ../shared] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--blas-threads", default="1")
    args = parser.parse_args()
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = args.blas_threads
    sys.path.insert(0, str(REPO))

    import numpy as np

    from taveer_desktop.core.features.feature_stream import prepare_text
    from taveer_desktop.core.methods.systems import baff, char_ngrams, im, profav, spatium
    from taveer_desktop.core.methods.systems.comparison import CaseTexts

    shared = Path(args.shared)
    demo = "".join(
        prepare_text(p.read_text(encoding="utf-8"))
        for p in sorted((shared / "demo-texts").rglob("*.txt"))
    )
    pool_files = sorted((shared / "corpora/stackexchange/train").glob("*/*.txt"))
    pool = [prepare_text(p.read_text(encoding="utf-8")) for p in pool_files] or [
        demo[i : i + 2000] for i in range(0, len(demo), 2000)
    ]
    methods = {"profav": profav, "im": im, "spatium": spatium, "baff": baff}
    for questioned_chars, known_chars in ((2_000, 4_300), (20_000, 40_000), (100_000, 100_000)):
        case = CaseTexts((demo[:known_chars],), demo[known_chars : known_chars + questioned_chars])
        for impostor_count in (100, 400):
            impostors = pool[:impostor_count]
            for name, module in methods.items():
                reads_impostors = module.METHOD.info.needs_impostors
                if not reads_impostors and impostor_count != 100:
                    continue  # reads no impostors: one row per length
                method = module.METHOD()
                cold, warm = [], []
                for run in range(args.runs):
                    char_ngrams._counted.cache_clear()
                    char_ngrams._population.cache_clear()
                    start = time.perf_counter()
                    method.features(case, impostors, np.random.default_rng(run))
                    cold.append(time.perf_counter() - start)
                    start = time.perf_counter()
                    method.features(case, impostors, np.random.default_rng(run))
                    warm.append(time.perf_counter() - start)
                print(
                    json.dumps(
                        {
                            "method": name,
                            "questioned_chars": questioned_chars,
                            "known_chars": known_chars,
                            "impostors": impostor_count
                            if module.METHOD.info.needs_impostors
                            else 0,
                            "seconds_per_case": round(float(np.median(warm)), 4),
                            "first_call_s": round(float(np.median(cold)), 4),
                            "runs": args.runs,
                            "blas_threads": args.blas_threads,
                        }
                    ),
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
