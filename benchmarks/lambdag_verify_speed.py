"""Speed of LambdaG's part of one verification (issue 16's goal: under 1 s for 10,000-character
documents with a population of 50 authors), beside TAVeer's verification in the same run.

The population is synthetic, for timing only (``validation_speed.synthetic_texts``: 50 authors
× 14 documents of ~2,500 characters from the shared texts). A LambdaG model is validated on it
(a small validation: its figures mean nothing and are not reported; the order is set to
``--order``, 10 by default), then one case of a
10,000-character known text and a 10,000-character questioned text is verified several times:
LambdaG's part alone (reading the model's reference population, masking, the known model, the
30 reference samples and the scoring) and TAVeer's ``verify`` alone. Medians of ``--runs``.

    taskset -c 0,1 .venv/bin/python benchmarks/lambdag_verify_speed.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from timing import median_seconds  # noqa: E402
from validation_speed import paragraphs, synthetic_texts  # noqa: E402

from taveer_desktop.core.features.lexicon import default_lexicon  # noqa: E402
from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart  # noqa: E402
from taveer_desktop.core.methods.taveer.verify import verify  # noqa: E402
from taveer_desktop.core.trials.population import population_from_texts  # noqa: E402
from taveer_desktop.core.validation.validation import ValidationSettings, validate  # noqa: E402
from taveer_desktop.core.verification.method_verify import lambdag_for_case  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--authors", type=int, default=50)
    parser.add_argument("--chars", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--order", type=int, default=10)
    args = parser.parse_args()
    pool = paragraphs(Path(args.shared))
    if not pool:
        print("no texts found under --shared", file=sys.stderr)
        return 2
    texts = synthetic_texts(pool, args.authors, 14)
    population = population_from_texts(texts, "synthetic", "synthetic")
    settings = ValidationSettings(
        questioned_chars=1500, known_chars=4000, max_trials=400, method="lambdag", bootstrap=20
    )
    model = validate(population, settings).model
    # the synthetic authors mean nothing, so validation picks a low order; time the published
    # (and usual) order 10 instead: the work grows with the order
    part = replace(LambdaGPart.of(model, "benchmark"), order=args.order)
    # the case's two texts: drawn like the population's (their first paragraphs are those of its
    # first two documents, which does not matter for timing)
    case = synthetic_texts(pool, 2, 1, chars=args.chars)
    known, questioned = case["author000"][0][1], case["author001"][0][1]
    lexicon = default_lexicon()
    lambdag, lambdag_runs = median_seconds(
        lambda: lambdag_for_case(part, [known], questioned, lexicon, "benchmark"), args.runs
    )
    taveer, taveer_runs = median_seconds(lambda: verify(model, [known], questioned), args.runs)
    print(
        json.dumps(
            {
                "authors": len(population.authors),
                "reference_tokens": part.reference["tokens"],
                "order": part.order,
                "samples": part.samples,
                "known_chars": len(known),
                "questioned_chars": len(questioned),
                "lambdag_seconds": round(lambdag, 3),
                "lambdag_runs": [round(t, 3) for t in lambdag_runs],
                "taveer_verify_seconds": round(taveer, 3),
                "taveer_runs": [round(t, 3) for t in taveer_runs],
                "model_bytes": len(model.to_json().encode("utf-8")),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
