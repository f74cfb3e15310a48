"""How much of a LambdaG ratio is the reference samples' draw (issue 30, item 4): with one
validated model, λG of every test case of a shared corpus drawn with K sampling seeds instead of
one, taken through the model's final calibration.

For each case: λG with the case's own seed (what a version 2 model states), the mean and the
standard deviation of λG over the K draws, that spread as log10 LR (the calibration's slope
carries it), and how many of the K draws point towards Hp. Summed up: the median spread of
the log10 LR from the draw alone, the cases whose direction the draw alone can change (the
same calibration), and the seconds of one λG of a case (``lambda_g``: the known model, the r
reference samples and the scoring, at the model's order) — which option (b), one λG per repeat
with the repeat's own sampling seed, would pay once per repeat.

    .venv/bin/python benchmarks/lambdag_sample_noise.py MODEL.json [--corpus reuters-c50]
        [--draws 20] [--shared ../shared]

The model is one ``seed_decision_benchmark.py --evidence … --keep DIR`` kept.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from taveer_desktop.core.features.feature_stream import encode_document  # noqa: E402
from taveer_desktop.core.features.lexicon import default_lexicon  # noqa: E402
from taveer_desktop.core.intake.corpus import open_corpus  # noqa: E402
from taveer_desktop.core.methods.lambdag.kneser_ney import sentence_keys  # noqa: E402
from taveer_desktop.core.methods.lambdag.lambdag import lambda_g  # noqa: E402
from taveer_desktop.core.methods.lambdag.lambdag_masking import masked_sentences  # noqa: E402
from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart  # noqa: E402
from taveer_desktop.core.methods.lambdag.lambdag_scorer import LambdaGScorer  # noqa: E402
from taveer_desktop.core.methods.taveer.model import parse_model  # noqa: E402

FIRST_DRAW_SEED = 1_000  # the K draws use seeds 1000 … 1000 + K − 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--corpus", default="reuters-c50")
    parser.add_argument("--draws", type=int, default=20)
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    args = parser.parse_args()
    path = Path(args.model)
    model = parse_model(path.read_text(encoding="utf-8"), str(path))
    part, lexicon = LambdaGPart.of(model, str(path)), default_lexicon()
    pool = LambdaGScorer(part, lexicon, str(path)).pool()
    test = open_corpus(Path(args.shared) / "corpora" / args.corpus / "test")
    rows, seconds, cpu = [], [], []
    for case in test.iter_cases():
        lengths = (len(case.unknown_text), sum(len(t) for t in case.known_texts))
        known = sentence_keys(
            [s for t in case.known_texts for s in masked_sentences(encode_document(t, lexicon))],
            part.order,
        )
        questioned = sentence_keys(
            masked_sentences(encode_document(case.unknown_text, lexicon)), part.order
        )

        def draw(seed: int, known: Any = known, questioned: Any = questioned) -> float:
            generator = np.random.default_rng(seed)
            scores = lambda_g(known, [questioned], pool, part.samples, generator)[0]
            return float(scores.by_order[part.order - 1])

        own = draw(part.sample_seed(known.tokens, questioned.tokens))
        raws = []
        for k in range(args.draws):
            began, began_cpu = time.perf_counter(), time.process_time()
            raws.append(draw(FIRST_DRAW_SEED + k))
            seconds.append(time.perf_counter() - began)
            cpu.append(time.process_time() - began_cpu)
        lrs = np.asarray(part.calibration.log10_lr(np.array(raws), *lengths), dtype=float)
        own_lr = float(part.calibration.log10_lr(own, *lengths))
        rows.append(
            {
                "case": case.case_id,
                "truth": case.truth,
                "own_raw": round(own, 3),
                "raw_mean": round(float(np.mean(raws)), 3),
                "raw_sd": round(float(np.std(raws, ddof=1)), 3),
                "own_log10_lr": round(own_lr, 4),
                "log10_lr_sd": round(float(np.std(lrs, ddof=1)), 4),
                "draws_towards_hp": int((lrs > 0).sum()),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    flips = [r for r in rows if 0 < r["draws_towards_hp"] < args.draws]
    summary = {
        "summary": True,
        "model": str(path),
        "order": part.order,
        "samples": part.samples,
        "draws": args.draws,
        "cases": len(rows),
        "median_raw_sd": statistics.median(r["raw_sd"] for r in rows),
        "median_log10_lr_sd": statistics.median(r["log10_lr_sd"] for r in rows),
        "median_abs_own_log10_lr": statistics.median(abs(r["own_log10_lr"]) for r in rows),
        "cases_the_draw_alone_turns": len(flips),
        "turned": [r["case"] for r in flips],
        "median_seconds_per_lambda_g": round(statistics.median(seconds), 4),
        "median_cpu_seconds_per_lambda_g": round(statistics.median(cpu), 4),
        "load_average": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
