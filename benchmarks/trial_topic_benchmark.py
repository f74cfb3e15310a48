"""Trials built like the case (issue 30): does the record predict the test split, with and
without matched trials, and what does matching cost?

Two measurements on the shared corpora (``docs/validation.md``, "Trials built like the case"):

- ``figures``: for each corpus the population is the train split's authors, the lengths the test
  cases' medians (as ``validation_benchmark.py``); a TAVeer + COAV fusion is validated (TAVeer,
  COAV and the fusion on the same trials) once with trials drawn without regard to topic and
  once with each declared relation asked for; its model is evaluated on the test split with
  ``taveer evaluate --json --record`` (criterion Cllr ≤ ``--accept-cllr``, 1 by default, so
  that a met record makes evaluative conclusions possible). Prints, per method, the record's
  cross-validated Cllr, the test split's Cllr over all cases and over its evaluative cases, and
  the matched share.
- ``time``: the seconds of a TAVeer validation (the cheapest method, so the largest relative
  cost of matching) without and with a declared relation, alternated, medians of ``--runs``,
  and their ratio, measured in the same run.

    .venv/bin/python benchmarks/trial_topic_benchmark.py figures [--topics same unknown]
    .venv/bin/python benchmarks/trial_topic_benchmark.py time [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from validation_benchmark import CORPORA, _test_lengths

from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.methods.taveer.model import save_model
from taveer_desktop.core.trials.population import population_from_corpus
from taveer_desktop.core.validation.validation import (
    AcceptanceCriteria,
    ValidationSettings,
    save_record,
    validate,
)

REPO = Path(__file__).resolve().parent.parent


def _evaluate(model: Path, record: Path, test: Path) -> dict:
    taveer = str(Path(sys.executable).with_name("taveer"))
    command = [taveer, "evaluate", str(model), str(test), "--json", "--workers", "1"]
    done = subprocess.run(
        [*command, "--record", str(record)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def _r(value) -> float | None:
    return None if value is None else round(float(value), 3)


def figures(args, roots: dict[str, Path]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, root in roots.items():
            population = population_from_corpus(open_corpus(root / "train"))
            questioned, known = _test_lengths(root)
            for topic in [None, *args.topics]:
                settings = ValidationSettings(
                    questioned_chars=questioned,
                    known_chars=known,
                    seed=args.seed,
                    method="fusion",
                    fuse=("taveer", "coav"),
                    topic=topic,
                    criteria=AcceptanceCriteria.now(max_cllr=args.accept_cllr),
                )
                started = time.perf_counter()
                result = validate(population, settings, workers=args.workers)
                seconds = time.perf_counter() - started
                model = Path(tmp) / f"{name}-{topic}.json"
                record = Path(tmp) / f"{name}-{topic}-record.json"
                save_model(result.model, model)
                save_record(result.record, record)
                evaluated = _evaluate(model, record, root / "test")
                construction = result.record["protocol"]["trials"]["construction"]
                print(
                    json.dumps(
                        {
                            "corpus": name,
                            "topic": topic,
                            "matched_share": construction.get("matched_share"),
                            "matched_same": construction.get("matched_share_same"),
                            "matched_different": construction.get("matched_share_different"),
                            "groups": construction.get("groups"),
                            "casework_too_small": result.record["casework"]["too_small"],
                            "methods": {
                                m: {
                                    "record_cllr": _r(result.record["methods"][m]["cllr"]),
                                    "test_cllr": _r(f.get("cllr")),
                                    "test_cllr_evaluative": _r(f.get("cllr_evaluative")),
                                }
                                for m, f in evaluated["methods"].items()
                                if m in result.record["methods"]
                            },
                            "evaluative": evaluated.get("evaluative"),
                            "met": result.record["acceptance"]["met"],
                            "validate_seconds": round(seconds, 1),
                            "load_average": round(os.getloadavg()[0], 2),
                        }
                    ),
                    flush=True,
                )


def timing(args, roots: dict[str, Path]) -> None:
    for name, root in roots.items():
        population = population_from_corpus(open_corpus(root / "train"))
        questioned, known = _test_lengths(root)
        seconds: dict[str, list[float]] = {"none": [], args.topic: []}
        for _ in range(args.runs):
            for label, topic in (("none", None), (args.topic, args.topic)):
                settings = ValidationSettings(
                    questioned_chars=questioned, known_chars=known, seed=args.seed, topic=topic
                )
                started = time.perf_counter()
                validate(population, settings)
                seconds[label].append(time.perf_counter() - started)
        medians = {k: statistics.median(v) for k, v in seconds.items()}
        print(
            json.dumps(
                {
                    "corpus": name,
                    "runs": args.runs,
                    "seconds": {k: [round(x, 2) for x in v] for k, v in seconds.items()},
                    "medians": {k: round(v, 2) for k, v in medians.items()},
                    "ratio": round(medians[args.topic] / medians["none"], 3),
                    "load_average": round(os.getloadavg()[0], 2),
                }
            ),
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("figures", "time"))
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--corpora", nargs="+", default=list(CORPORA))
    parser.add_argument("--topics", nargs="+", default=["same", "unknown"])
    parser.add_argument("--topic", default="unknown", help="the relation timed")
    parser.add_argument("--accept-cllr", type=float, default=1.0, help="figures: the criterion")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    roots = {n: Path(args.shared) / "corpora" / n for n in args.corpora}
    roots = {n: r for n, r in roots.items() if r.is_dir()}
    if not roots:
        print(f"no corpus found under {args.shared}/corpora", file=sys.stderr)
        return 2
    (figures if args.what == "figures" else timing)(args, roots)
    return 0


if __name__ == "__main__":
    sys.exit(main())
