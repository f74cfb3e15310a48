"""How much does the choice of L_TA matter? Accuracy with the shipped lexicon and two variants.

The shipped lexicon leaves out the lexical verbs that POSNoise includes (say, know, think, …;
see resources/lexicon/README.md). This script adds them back — first the six least topical
(know, mean, say, see, think, tell, with their forms), then all 88 forms — and trains and
evaluates each variant on the shared corpora exactly like benchmarks/accuracy_benchmark.py.

    .venv/bin/python benchmarks/lexicon_variants.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from taveer_desktop import paths  # noqa: E402
from taveer_desktop.core.features.lexicon import build_lexicon  # noqa: E402
from taveer_desktop.core.intake.corpus import open_corpus  # noqa: E402
from taveer_desktop.core.methods.taveer.training import train  # noqa: E402
from taveer_desktop.core.validation.evaluation import evaluate  # noqa: E402

SIX_VERBS = [
    "know",
    "knew",
    "knowing",
    "known",
    "knows",
    "mean",
    "meant",
    "means",
    "say",
    "said",
    "says",
    "saying",
    "see",
    "saw",
    "seen",
    "sees",
    "think",
    "thought",
    "thinks",
    "tell",
    "told",
    "tells",
]
ALL_VERBS = [
    "ask",
    "asked",
    "asking",
    "asks",
    "call",
    "called",
    "feel",
    "felt",
    "find",
    "finds",
    "found",
    "hear",
    "heard",
    "hears",
    "knew",
    "know",
    "knowing",
    "known",
    "knows",
    "leave",
    "leaves",
    "leaving",
    "liked",
    "likes",
    "liking",
    "live",
    "lived",
    "lives",
    "living",
    "look",
    "looked",
    "looking",
    "looks",
    "mean",
    "meaning",
    "means",
    "meant",
    "move",
    "moved",
    "moves",
    "moving",
    "play",
    "played",
    "playing",
    "plays",
    "ran",
    "run",
    "running",
    "runs",
    "said",
    "saw",
    "say",
    "saying",
    "says",
    "see",
    "seeing",
    "seen",
    "sees",
    "show",
    "showed",
    "showing",
    "shown",
    "shows",
    "talk",
    "talked",
    "talking",
    "talks",
    "tell",
    "telling",
    "tells",
    "think",
    "thinking",
    "thinks",
    "thought",
    "told",
    "turn",
    "turned",
    "turning",
    "turns",
    "use",
    "used",
    "uses",
    "using",
    "work",
    "worked",
    "working",
    "works",
]
CORPORA = ("stackexchange", "reuters-c50")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    args = parser.parse_args()
    base = paths.resource("lexicon", "ta_lexicon.tsv").read_text(encoding="utf-8").splitlines()
    variants = (("shipped", []), ("+ 6 verbs", SIX_VERBS), ("+ all 88 verb forms", ALL_VERBS))
    for label, verbs in variants:
        lines = base + [f"{verb}\tlexical_verb" for verb in verbs]
        digest = hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
        lexicon = build_lexicon(lines, label, digest)
        figures = []
        for name in CORPORA:
            root = Path(args.shared) / "corpora" / name
            model = train(open_corpus(root / "train"), lexicon=lexicon, workers=1)
            m = evaluate(model, open_corpus(root / "test"), lexicon=lexicon, workers=1).metrics
            figures.append(f"{name}: acc {m.accuracy:.3f} AUC {m.auc:.3f} Cllr {m.cllr:.3f}")
        print(f"{label:<22}" + " | ".join(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
