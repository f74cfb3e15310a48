"""How closely SPATIUM-L1 agrees with its authors' own code (Kocher and Savoy, PAN 2015) on the
same texts and the same impostor draws.

The reference is github.com/pan-webis-de/kocher15a (Python 2), checked out somewhere outside
this repository: a test oracle only, never shipped, copied or needed by the tests. Its
``Spatium.py`` (term selection, profiles, L1 distance) is loaded from the checkout and run as it
is (its Python-2 ``print`` statements left out); the decision per draw follows its ``panAV.py``
(the dead band δ = 0.025 and the ratio rounded to two decimals, as there).

For each case of a PAN-layout corpus (default: the shared Stack Exchange corpus, train and
test), ``--draws`` draws of 3 impostors (known documents of other cases, the same draws for both
sides, seeded), the score is the mean ratio ρ over the draws, computed

- ``reference``: by the reference's functions on its tokens (text split at white space);
- ``ours_same_tokens``: by TAVeer's functions (``core/methods/systems/spatium.py``) on those same
  tokens — this checks the formula: term selection, relative frequencies, L1 and the ratio;
- ``ours``: by TAVeer's functions on TAVeer's terms (words and punctuation symbols apart).

Printed: Spearman rank correlations with the reference, the largest absolute difference of the
scores, and the share of cases whose verdict (ρ > 1, ρ < 1 or exactly 1) is the same.

    .venv/bin/python benchmarks/spatium_reference_agreement.py --reference /tmp/ref-kocher15a
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from taveer_desktop.core.methods.systems.spatium import (  # noqa: E402
    comparison_ratio,
    relative_frequencies,
    selected_terms,
    terms_of,
)

DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "stackexchange"
DELTA, TERMS, M = 0.025, 200, 3


def load_reference(checkout: Path) -> dict:
    """The reference's Spatium.py functions, its Python-2 print lines left out."""
    source = (checkout / "Spatium.py").read_text(encoding="utf-8")
    lines = [line for line in source.splitlines() if not line.startswith("print ")]
    namespace: dict = {}
    exec(compile("\n".join(lines), str(checkout / "Spatium.py"), "exec"), namespace)
    return namespace


def reference_ratio(ref: dict, known: Counter, impostors: list[Counter], q: Counter) -> float:
    """One draw as its panAV.py decides it (the ratio rounded to two decimals)."""
    words = ref["featureSelection"](q, TERMS)
    profiles = ref["mergeToProfile"]([[known]] + [[i] for i in impostors])
    d = ref["l1Distance"](profiles, q, words)
    others = d[:]
    others[0] = float("inf")
    if min(d) == d[0]:
        return round(min(others) / d[0], 2) if min(others) / d[0] > 1.0 + DELTA else 1.0
    if min(d) / d[0] < 1.0 - DELTA and min(d) != 0:
        return round(min(d) / d[0], 2)
    return 1.0


def our_ratio(known: list[str], impostors: list[list[str]], q: list[str]) -> float:
    selected = selected_terms(q, TERMS)
    rows = relative_frequencies([q, known, *impostors], selected)
    distance = np.abs(rows[1:] - rows[0]).sum(axis=1)
    return comparison_ratio(distance[0], distance[1:], DELTA)


def cases(corpus: Path) -> list[tuple[list[str], str]]:
    out = []
    for split in ("train", "test"):
        for folder in sorted(p for p in (corpus / split).iterdir() if p.is_dir()):
            known = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("known??.txt"))]
            out.append((known, (folder / "unknown.txt").read_text(encoding="utf-8")))
    return out


def verdict(x: float) -> int:
    return int(x > 1) - int(x < 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", required=True, help="a checkout of kocher15a")
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    parser.add_argument("--draws", type=int, default=5)
    args = parser.parse_args()
    from scipy.stats import spearmanr

    ref = load_reference(Path(args.reference))
    all_cases = cases(Path(args.corpus))
    rng = np.random.default_rng(1811)
    scores: dict[str, list[float]] = {"reference": [], "ours_same_tokens": [], "ours": []}
    for i, (known, questioned) in enumerate(all_cases):
        others = [j for j in range(len(all_cases)) if j != i]
        draws = [rng.choice(others, size=M, replace=False) for _ in range(args.draws)]
        split_known = [w for text in known for w in text.split()]
        split_q = questioned.split()
        term_known = [t for text in known for t in terms_of(text)]
        term_q = terms_of(questioned)
        per = {name: [] for name in scores}
        for draw in draws:
            imp_split = [[w for t in all_cases[j][0] for w in t.split()] for j in draw]
            imp_terms = [[w for t in all_cases[j][0] for w in terms_of(t)] for j in draw]
            per["reference"].append(
                reference_ratio(
                    ref, Counter(split_known), [Counter(x) for x in imp_split], Counter(split_q)
                )
            )
            per["ours_same_tokens"].append(our_ratio(split_known, imp_split, split_q))
            per["ours"].append(our_ratio(term_known, imp_terms, term_q))
        for name in scores:
            scores[name].append(sum(per[name]) / len(per[name]))
    reference = np.array(scores["reference"])
    report: dict[str, object] = {"cases": len(all_cases), "draws": args.draws}
    for name in ("ours_same_tokens", "ours"):
        mine = np.array(scores[name])
        report[name] = {
            "spearman": float(spearmanr(mine, reference).statistic),
            "max_abs_diff": float(np.abs(mine - reference).max()),
            "verdicts_equal": float(
                np.mean([verdict(a) == verdict(b) for a, b in zip(mine, reference, strict=True)])
            ),
        }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
