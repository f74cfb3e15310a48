"""Train the default model shipped in resources/models/ and record how it was made.

Usage: .venv/bin/python scripts/train_default_model.py [--shared ../shared]

Trains on stackexchange/train (real Stack Exchange posts by real users, the largest shared
training split), evaluates the model on stackexchange/test and reuters-c50/test, and writes
``resources/models/default.json`` plus ``resources/models/default.training.json`` (corpus
identity, figures, program version, date). Only thresholds and figures are shipped, never the
corpus texts (their licences forbid it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from model_record import save_with_record  # noqa: E402

from taveer_desktop.core.intake.corpus import open_corpus  # noqa: E402
from taveer_desktop.core.methods.taveer.training import train  # noqa: E402
from taveer_desktop.core.validation.evaluation import evaluate  # noqa: E402

TRAINING_CORPUS = "stackexchange/train"
EVALUATION_CORPORA = ("stackexchange/test", "reuters-c50/test")
GENRE = (
    "Stack Exchange posts (questions and answers without code or quotations), modern English, "
    "consecutive posts of one user joined into texts of about 1,200 to 10,000 characters"
)
POPULATION = (
    "registered users of seven small Stack Exchange sites (beer, data science and its meta, "
    "artificial intelligence, history meta, mathematics educators, music meta), posts before "
    "December 2022"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    args = parser.parse_args()
    corpora = Path(args.shared) / "corpora"
    corpus = open_corpus(corpora / TRAINING_CORPUS)
    model = train(
        corpus, name="TAVeer default (Stack Exchange)", genre=GENRE, population=POPULATION
    )
    evaluations = {
        name: evaluate(model, open_corpus(corpora / name)) for name in EVALUATION_CORPORA
    }
    record = save_with_record(
        model,
        REPO / "resources" / "models" / "default.json",
        corpus,
        TRAINING_CORPUS,
        "shared/corpora/stackexchange (see its README: Stack Exchange posts, CC BY-SA; texts "
        "not shipped)",
        evaluations,
        "python scripts/train_default_model.py",
    )
    print(json.dumps(record, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
