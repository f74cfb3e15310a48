"""What resampling LambdaG costs: the stability check of the stated ratio (issue 23).

On the demo case DEMO-001 (four Madison papers known, Federalist No. 51 questioned) with the
demo project's shipped population as LambdaG's reference (masked, the published order 10 and
30 reference samples unless told otherwise), times in one process, medians of ``--runs``:

- TAVeer's verification and LambdaG's part of a verification (the baseline a run costs now);
- TAVeer's stability check with 200 resamples (what every run stores today);
- λG under the same 200 resamples (``core/lambdag_stability.resampled_lambda_g``: one known
  model per resample, the reference samples drawn once).

    taskset -c 0,1 .venv/bin/python benchmarks/ratio_stability_cost.py [--runs 5] [--order 10]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import taveer_desktop  # noqa: E402, F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np  # noqa: E402
from timing import median_seconds  # noqa: E402

from taveer_desktop import paths  # noqa: E402
from taveer_desktop.core.features.feature_stream import encode_document  # noqa: E402
from taveer_desktop.core.features.lexicon import default_lexicon  # noqa: E402
from taveer_desktop.core.methods.lambdag.kneser_ney import sentence_keys  # noqa: E402
from taveer_desktop.core.methods.lambdag.lambdag import ReferencePool, lambda_g  # noqa: E402
from taveer_desktop.core.methods.lambdag.lambdag_masking import masked_sentences  # noqa: E402
from taveer_desktop.core.methods.lambdag.lambdag_stability import resampled_lambda_g  # noqa: E402
from taveer_desktop.core.methods.taveer.model import parse_model  # noqa: E402
from taveer_desktop.core.methods.taveer.stability import decision_stability, resample_weights  # noqa: E402
from taveer_desktop.core.methods.taveer.verify import verify  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--order", type=int, default=10)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--resamples", type=int, default=200)
    args = parser.parse_args()
    demo = paths.resource("demo")
    case = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))["cases"][0]
    known = [(demo / name).read_text(encoding="utf-8") for name in case["known"]]
    questioned = (demo / case["questioned"]).read_text(encoding="utf-8")
    model = parse_model(
        paths.resource("models", "demo-formal-prose.json").read_text(encoding="utf-8"), "demo"
    )
    lexicon = default_lexicon()
    population = sorted((demo / "population").rglob("*.txt"))
    reference = [
        s
        for path in population
        for s in masked_sentences(encode_document(path.read_text(encoding="utf-8"), lexicon))
    ]
    pool = ReferencePool.from_sentences(reference, args.order)
    result = verify(model, known, questioned, lexicon)

    def lambdag_part() -> None:
        k = sentence_keys(
            [s for t in known for s in masked_sentences(encode_document(t, lexicon))], args.order
        )
        q = sentence_keys(masked_sentences(encode_document(questioned, lexicon)), args.order)
        lambda_g(k, [q], pool, args.samples, np.random.default_rng(1))

    def lambdag_resampled() -> None:
        keep_u, keep_k = resample_weights(known, questioned, args.resamples, 20261125, lexicon)
        resampled_lambda_g(
            pool, args.order, args.samples, 1, known, questioned, lexicon, keep_u, keep_k
        )

    timings = {
        "taveer_verify": median_seconds(
            lambda: verify(model, known, questioned, lexicon), args.runs
        ),
        "taveer_stability": median_seconds(
            lambda: decision_stability(
                model, known, questioned, result.prediction, args.resamples, lexicon=lexicon
            ),
            args.runs,
        ),
        "lambdag_part": median_seconds(lambdag_part, args.runs),
        "lambdag_resampled": median_seconds(lambdag_resampled, args.runs),
    }
    print(
        json.dumps(
            {
                "known_chars": sum(len(t) for t in known),
                "questioned_chars": len(questioned),
                "reference_sentences": pool.n_sentences,
                "order": args.order,
                "samples": args.samples,
                "resamples": args.resamples,
                "runs": args.runs,
                "load_average": [round(x, 2) for x in os.getloadavg()],
                **{
                    name: {"median_s": round(m, 3), "runs_s": [round(t, 3) for t in times]}
                    for name, (m, times) in timings.items()
                },
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
