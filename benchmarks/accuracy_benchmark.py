"""TAVeer accuracy on every shared corpus, run through the real ``taveer`` command line.

For each corpus: ``taveer train <corpus>/train -o model.json`` then
``taveer evaluate model.json <corpus>/test --json``; prints one JSON line per corpus and
threshold method with the model's ensemble and the test metrics, for docs/accuracy.md.

    .venv/bin/python benchmarks/accuracy_benchmark.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPORA = ("stackexchange", "stackexchange-jsonl", "reuters-c50")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    args = parser.parse_args()
    taveer = str(Path(sys.executable).with_name("taveer"))
    with tempfile.TemporaryDirectory() as tmp:
        for name in CORPORA:
            root = Path(args.shared) / "corpora" / name
            for method in ("median", "eer"):
                model_path = Path(tmp) / f"{name}-{method}.json"
                subprocess.run(
                    [
                        taveer,
                        "train",
                        str(root / "train"),
                        "-o",
                        str(model_path),
                        "--threshold",
                        method,
                    ],
                    check=True,
                    capture_output=True,
                )
                model = json.loads(model_path.read_text())
                result = subprocess.run(
                    [taveer, "evaluate", str(model_path), str(root / "test"), "--json"],
                    check=True,
                    capture_output=True,
                    text=True,
                )
                metrics = json.loads(result.stdout)
                rounded = {
                    k: round(v, 4) if isinstance(v, float) else v for k, v in metrics.items()
                }
                print(
                    json.dumps(
                        {
                            "corpus": name,
                            "threshold": method,
                            "ensemble": model["ensemble"],
                            "training_accuracy": model["training"]["accuracy"],
                            **rounded,
                        }
                    )
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
