"""Same-author trials kept apart in time (issue 30, item 1): what it does on a really dated
population, and what it costs on a larger, synthetically dated one.

- ``federalist``: the demo population with every Federalist paper of one author and the Brontë
  chapters, dated as ``tests/core/trials/demo_dates.csv`` says (each paper's own header; No. 1
  and Nos. 78–85 from their first publication; the Brontë novels' first editions, to the month).
  A TAVeer validation (``--lengths Q K``, ``--repeats``, seed ``--seed``) with the dates and the
  same population without them: the share of same-author trials apart in time, the record's
  Cllr, AUC and casework counts. One JSON line each.
- ``check``: on the shared Stack Exchange train split, whether post ids follow the order the
  corpus's README gives each author's chunks (earliest known files of the same-author case, then
  the different-author case's known files, the donated unknown text, and the same-author case's
  unknown text last): the share of authors whose chunks' post ids rise in that order.
- ``cost``: the same split dated **synthetically** — each document a date placed by its post id
  on a four-year line per site (2014-01-01 + 1,461 days × the id's place between the site's
  smallest and largest id; a known file takes the post at its share of the case's known posts).
  These are not the posts' real dates (the corpus does not give them): they only give the
  construction realistic work. TAVeer validations at the test split's median lengths without
  and with the dates, alternated, ``--runs`` times; medians and their ratio, measured in the same
  run, with the load average; with ``--trials-only``, the trials alone (``trial_set``, the step
  the dates change), ``--runs`` times each.

    .venv/bin/python benchmarks/trial_dates_benchmark.py federalist
    .venv/bin/python benchmarks/trial_dates_benchmark.py check
    .venv/bin/python benchmarks/trial_dates_benchmark.py cost [--runs 3]
"""

from __future__ import annotations

import argparse
import csv
import datetime
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO))
from validation_benchmark import _test_lengths  # noqa: E402

from taveer_desktop.core.intake.corpus import open_corpus  # noqa: E402
from taveer_desktop.core.trials.document_dates import DocumentDates  # noqa: E402
from taveer_desktop.core.trials.population import Population, population_from_corpus  # noqa: E402
from taveer_desktop.core.trials.trial_dates import dates_block  # noqa: E402
from taveer_desktop.core.trials.validation_trials import trial_set  # noqa: E402
from taveer_desktop.core.validation.validation import ValidationSettings, validate  # noqa: E402
from taveer_desktop.store.population_folder import read_population  # noqa: E402

SHARED = REPO.parent / "shared"
SE = SHARED / "corpora" / "stackexchange"
SYNTHETIC = "synthetic: post ids placed on a four-year line per site (benchmark only)"


def _summary(label: str, population: Population, settings: ValidationSettings) -> dict:
    started = time.perf_counter()
    record = validate(population, settings).record
    construction = record["protocol"]["trials"]["construction"]
    dates = construction["dates"]
    return {
        "population": label,
        "authors": len(population.authors),
        "documents": population.n_documents,
        "dated_documents": dates.get("dated_documents", 0),
        "same_author_trials": record["protocol"]["trials_same"],
        "apart_same": dates.get("apart_same"),
        "questioned_later": dates.get("questioned_later"),
        "cllr": record["figures"]["cllr"],
        "auc": record["figures"]["auc"],
        "casework_same": record["casework"]["trials_same"],
        "casework_different": record["casework"]["trials_different"],
        "seconds": round(time.perf_counter() - started, 1),
        "load_average": round(os.getloadavg()[0], 2),
    }


def federalist(args: argparse.Namespace) -> None:
    from core.trials.dated_population import make_dated_demo_population

    with tempfile.TemporaryDirectory() as scratch:
        folder = make_dated_demo_population(Path(scratch), federalist_per_author=100)
        files = read_population(folder)
        from taveer_desktop.core.trials.population import population_from_texts

        dated = population_from_texts(files.texts(), "demo", str(folder), dates=files.dates)
    settings = ValidationSettings(
        args.lengths[0], args.lengths[1], seed=args.seed, repeats=args.repeats
    )
    for label, population in (("dated", dated), ("undated", replace(dated, dates=None))):
        print(json.dumps(_summary(label, population, settings)), flush=True)


def _cases() -> list[dict[str, str]]:
    with (SE / "cases.csv").open(encoding="utf-8", newline="") as handle:
        return [row for row in csv.DictReader(handle) if row["split"] == "train"]


def _ids(sources: str) -> list[int]:
    return [int(s.rsplit("post", 1)[1]) for s in sources.split()]


def check(_args: argparse.Namespace) -> None:
    """Do post ids rise in the README's order of each author's chunks?"""
    by_author: dict[str, dict[str, list[int]]] = {}
    for row in _cases():
        known, unknown = _ids(row["known_sources"]), _ids(row["unknown_sources"])
        if row["label"] == "Y":
            by_author.setdefault(row["known_author"], {})["y_known"] = known
            by_author[row["known_author"]]["y_unknown"] = unknown
        else:
            by_author.setdefault(row["known_author"], {})["n_known"] = known
            by_author.setdefault(row["unknown_author"], {})["donated"] = unknown
    order = ("y_known", "n_known", "donated", "y_unknown")
    rising = within = 0
    for parts in by_author.values():
        spans = [(min(parts[p]), max(parts[p])) for p in order]
        rising += all(a[1] < b[0] for a, b in itertools.pairwise(spans))
        within += all(parts[p] == sorted(parts[p]) for p in order)
    print(
        json.dumps(
            {
                "authors": len(by_author),
                "chunks_in_post_id_order": rising,
                "posts_in_id_order_within_each_chunk": within,
            }
        )
    )


def synthetic_dates(population: Population) -> DocumentDates:
    """Each document's synthetic date (see the module): ``EN001/known02`` and ``EN001/unknown``."""
    cases = {row["id"]: row for row in _cases()}
    post_of: dict[str, tuple[str, int]] = {}
    for case_id, row in cases.items():
        known = _ids(row["known_sources"])
        files = int(row["n_known_files"])
        for i in range(files):
            post_of[f"{case_id}/known{i + 1:02d}"] = (
                row["group"],
                known[(2 * i + 1) * len(known) // (2 * files)],
            )
        post_of[f"{case_id}/unknown"] = (
            row["group"],
            statistics.median_low(_ids(row["unknown_sources"])),
        )
    sites: dict[str, list[int]] = {}
    for site, post in post_of.values():
        sites.setdefault(site, []).append(post)
    start = datetime.date(2014, 1, 1)
    dated = {}
    for author, documents in population.documents.items():
        for document in documents:
            name = document.name.rsplit(".", 1)[0]
            site, post = post_of[name]
            low, high = min(sites[site]), max(sites[site])
            day = start + datetime.timedelta(days=round(1461 * (post - low) / max(high - low, 1)))
            dated[(author, document.text_sha256)] = day.isoformat()
    return DocumentDates(SYNTHETIC, dated)


def cost(args: argparse.Namespace) -> None:
    undated = population_from_corpus(open_corpus(SE / "train"))
    dated = replace(undated, dates=synthetic_dates(undated))
    questioned, known = _test_lengths(SE)
    settings = ValidationSettings(questioned_chars=questioned, known_chars=known, seed=args.seed)
    seconds: dict[str, list[float]] = {"undated": [], "dated": []}
    summary = {}
    for _ in range(args.runs):
        for label, population in (("undated", undated), ("dated", dated)):
            started = time.perf_counter()
            if args.trials_only:
                trials = trial_set(population, settings)
                seconds[label].append(time.perf_counter() - started)
                summary[label] = dates_block(trials.dated, trials.truth, trials.time_side)
                continue
            record = validate(population, settings).record
            seconds[label].append(time.perf_counter() - started)
            summary[label] = {
                **record["protocol"]["trials"]["construction"]["dates"],
                "cllr": record["figures"]["cllr"],
                "auc": record["figures"]["auc"],
                "casework_same": record["casework"]["trials_same"],
            }
    medians = {k: statistics.median(v) for k, v in seconds.items()}
    print(
        json.dumps(
            {
                "corpus": "stackexchange/train",
                "timed": "trial_set" if args.trials_only else "validate",
                "lengths": [questioned, known],
                "runs": args.runs,
                "seconds": {k: [round(x, 2) for x in v] for k, v in seconds.items()},
                "medians": {k: round(v, 2) for k, v in medians.items()},
                "ratio": round(medians["dated"] / medians["undated"], 3),
                "dates": summary["dated"],
                "undated": {k: summary["undated"][k] for k in ("cllr", "auc", "casework_same")},
                "load_average": round(os.getloadavg()[0], 2),
            }
        ),
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("federalist", "check", "cost"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--trials-only", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--lengths", type=int, nargs=2, default=[2000, 6000])
    args = parser.parse_args()
    {"federalist": federalist, "check": check, "cost": cost}[args.what](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
