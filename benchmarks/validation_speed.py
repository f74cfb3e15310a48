"""Speed of a validation of 5,000 trials from a population of 200 authors (issue 21's goal:
under 60 s with TAVeer and under 3 minutes with the fusion, on two cores, with bounded memory),
over a declared range of lengths (questioned 800–2,500, known 2,000–8,000 characters) with
three repeats (5,000 trials in all), three length bands and the length-aware calibration.

The population is synthetic, for timing only: 200 "authors" of 14 documents each, every
document ~2,500 characters of paragraphs drawn (seeded) from the public-domain demo texts and
the shared corpora. Its authorship labels mean nothing, so its figures are not reported;
the work — encoding every document once, cutting 5,000 trials at sentence boundaries,
5-fold cross-validation with the 2047-ensemble search, 200 bootstrap resamples, the final
model — is the same as for a real population.

    taskset -c 0,1 .venv/bin/python benchmarks/validation_speed.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from taveer_desktop.core.trials.population import population_from_texts  # noqa: E402
from taveer_desktop.core.validation.validation import ValidationSettings, validate  # noqa: E402


def paragraphs(shared: Path) -> list[str]:
    found = []
    for pattern in ("demo-texts/*/*.txt", "corpora/*/*/*/*.txt"):
        for path in sorted(shared.glob(pattern)):
            text = path.read_text(encoding="utf-8", errors="replace")
            found += [p.strip() for p in text.split("\n\n") if len(p.strip()) > 200]
    return found


def synthetic_texts(
    pool: list[str], authors: int, documents: int, chars: int = 2500
) -> dict[str, list[tuple[str, str]]]:
    """Author → (file name, text) of a timing-only population: every document ~``chars``
    characters of paragraphs drawn (seeded) from ``pool``; the labels mean nothing."""
    rng = np.random.default_rng(0)
    texts = {}
    for a in range(authors):
        docs = []
        for d in range(documents):
            parts, size = [], 0
            while size < chars:
                paragraph = pool[int(rng.integers(len(pool)))]
                parts.append(paragraph)
                size += len(paragraph)
            docs.append((f"doc{d:02d}.txt", "\n\n".join(parts)))
        texts[f"author{a:03d}"] = docs
    return texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--authors", type=int, default=200)
    parser.add_argument("--documents", type=int, default=14)
    parser.add_argument("--trials", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=2, help="processes for the folds")
    parser.add_argument("--method", default="taveer", choices=("taveer", "lambdag", "fusion"))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    pool = paragraphs(Path(args.shared))
    if not pool:
        print("no texts found under --shared", file=sys.stderr)
        return 2
    texts = synthetic_texts(pool, args.authors, args.documents)
    started = time.perf_counter()
    population = population_from_texts(texts, "synthetic", "synthetic")
    encoded = time.perf_counter()
    result = validate(
        population,
        ValidationSettings(
            questioned_chars=(800, 2500),
            known_chars=(2000, 8000),
            max_trials=args.trials,
            method=args.method,
            repeats=args.repeats,
        ),
        workers=args.workers,
    )
    finished = time.perf_counter()
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # this process
    children_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # largest worker
    print(
        json.dumps(
            {
                "authors": len(population.authors),
                "documents": population.n_documents,
                "characters": sum(len(t) for docs in texts.values() for _, t in docs),
                "trials": len(result.trials),
                "cpus": len(os.sched_getaffinity(0)),
                "workers": args.workers,
                "method": args.method,
                "lambdag_seconds": result.record.get("lambdag", {}).get("seconds"),
                "encode_seconds": round(encoded - started, 2),
                "validate_seconds": round(finished - encoded, 2),
                "total_seconds": round(finished - started, 2),
                "repeats": args.repeats,
                "bands": len(result.record["bands"]),
                "peak_rss_mib": round(peak_kib / 1024, 1),
                "peak_worker_rss_mib": round(children_kib / 1024, 1),
                "load_average_1min": round(os.getloadavg()[0], 2),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
