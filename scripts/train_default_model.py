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
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from taveer_desktop import __version__  # noqa: E402
from taveer_desktop.core.corpus import open_corpus  # noqa: E402
from taveer_desktop.core.evaluation import evaluate  # noqa: E402
from taveer_desktop.core.model import save_model  # noqa: E402
from taveer_desktop.core.training import train  # noqa: E402

TRAINING_CORPUS = "stackexchange/train"
EVALUATION_CORPORA = ("stackexchange/test", "reuters-c50/test")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    args = parser.parse_args()
    corpora = Path(args.shared) / "corpora"
    corpus = open_corpus(corpora / TRAINING_CORPUS)
    model = train(corpus, name="TAVeer default (Stack Exchange)")
    out_dir = REPO / "resources" / "models"
    out_dir.mkdir(parents=True, exist_ok=True)
    save_model(model, out_dir / "default.json")
    evaluations = {}
    for name in EVALUATION_CORPORA:
        result = evaluate(model, open_corpus(corpora / name))
        evaluations[name] = {
            k: round(v, 4) if isinstance(v, float) else v
            for k, v in result.metrics.to_dict().items()
        }
    record = {
        "model_file": "default.json",
        "model_sha256": model.sha256,
        "trained_utc": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "software_version": __version__,
        "training_corpus": {
            "name": TRAINING_CORPUS,
            "sha256": corpus.sha256,
            "cases": len(corpus),
            "source": "shared/corpora/stackexchange (see its README: Stack Exchange posts, "
            "CC BY-SA; texts not shipped)",
        },
        "ensemble": list(model.ensemble),
        "training_accuracy": model.training.accuracy,
        "evaluations": evaluations,
        "command": "python scripts/train_default_model.py",
    }
    (out_dir / "default.training.json").write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(record, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
