"""The engine's golden record: what the feature extraction, distances, training and evaluation
produced before the integer-coded rewrite (issue 13), kept as hashes and numbers only.

Two records under ``tests/core/golden/``:

- ``engine_demo.json`` (runs everywhere, from the Federalist papers shipped in
  ``resources/demo``): every document's counts per category (hash of the ordered items, so the
  order in which features are listed counts too), sentences and characters; the sentence-by-
  sentence counts; the demo case's distances, its verification with the demo model and its
  stability under resampling.
- ``engine_shared.json`` (needs ``../shared``): the same per document for every case of every
  split of the shared corpora and for the shared demo texts, the distances of every case, the
  models trained on each train split (``taveer train``'s JSON without its time stamp and
  duration) and the per-case scores of ``taveer evaluate`` on each test split.

Corpus text is never stored. Counts, hashes, orders, choices (ensembles, predictions) and case
ids are compared exactly; a float within a relative 1e-9 of its recorded value
(``golden_compare.same_record``), since NumPy's vectorised sums may round the last digit
differently on another processor. The engine's own sums do not depend on the order files arrive
in (distances add their terms smallest first), so that tolerance covers the processor, never
the importer.

Regenerate (only when a change of results is intended):

    .venv/bin/python tests/core/engine_golden.py
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, when run as a script

REPO = Path(__file__).resolve().parents[2]
GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
DEMO_GOLDEN = GOLDEN_DIR / "engine_demo.json"
SHARED_GOLDEN = GOLDEN_DIR / "engine_shared.json"
DEMO_FOLDER = REPO / "resources" / "demo" / "federalist"
DEMO_MODEL = REPO / "resources" / "models" / "demo-formal-prose.json"
CORPORA = ("stackexchange", "stackexchange-jsonl", "reuters-c50")
# (corpus, threshold method, inconclusive band) of every model in the shared record
MODELS = (
    ("stackexchange", "median", False),
    ("stackexchange-jsonl", "median", False),
    ("reuters-c50", "median", False),
    ("stackexchange", "eer", True),
    ("reuters-c50", "eer", True),
)
STABILITY_RESAMPLES = 50


def counts_hash(counts: dict[str, int]) -> str:
    """Hash of one category's counts, in the order the engine lists them."""
    payload = json.dumps(list(counts.items()), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


def document_record(features) -> dict:
    from taveer_desktop.core.features.features import CATEGORY_IDS

    return {
        "chars": features.n_chars,
        "sentences": features.n_sentences,
        "counts": [counts_hash(features.counts[c]) for c in CATEGORY_IDS],
    }


def numbers(values) -> list:
    """Floats as JSON (exact round trip); NaN as None."""
    return [None if math.isnan(v) else float(v) for v in values]


def model_record(model) -> dict:
    """The model file's content without its creation time and training duration."""
    data = model.to_dict()
    data.pop("created_utc", None)
    data.pop("software_version", None)
    data["training"] = {k: v for k, v in data["training"].items() if k != "seconds"}
    keep = (
        "lexicon_sha256",
        "threshold_method",
        "thresholds",
        "ensemble",
        "training",
        "calibration",
        "inconclusive_band",
    )
    return {k: data.get(k) for k in keep}


def demo_texts() -> tuple[list[str], str]:
    known = sorted(p for p in DEMO_FOLDER.glob("*.txt") if "questioned" not in p.name)
    unknown = next(DEMO_FOLDER.glob("*questioned*.txt"))
    return [p.read_text(encoding="utf-8") for p in known], unknown.read_text(encoding="utf-8")


def demo_record() -> dict:
    from taveer_desktop.core.features.features import CATEGORY_IDS, extract_sentence_features
    from taveer_desktop.core.features.features import extract_features as extract
    from taveer_desktop.core.features.lexicon import default_lexicon
    from taveer_desktop.core.methods.taveer.model import load_model
    from taveer_desktop.core.methods.taveer.stability import decision_stability
    from taveer_desktop.core.methods.taveer.training import distances_of_texts
    from taveer_desktop.core.methods.taveer.verify import verify

    lexicon = default_lexicon()
    known, unknown = demo_texts()
    documents = [document_record(extract(t, lexicon)) for t in [*known, unknown]]
    sentences = []
    for text in [*known, unknown]:
        per_sentence = extract_sentence_features(text, lexicon)
        sentences.append(
            hashlib.sha256(
                json.dumps(
                    [[list(s[c].items()) for c in CATEGORY_IDS] for s in per_sentence],
                    ensure_ascii=False,
                ).encode("utf-8")
            ).hexdigest()[:16]
        )
    model = load_model(DEMO_MODEL)
    result = verify(model, known, unknown, lexicon, explain=True)
    stability = decision_stability(
        model, known, unknown, result.prediction, resamples=STABILITY_RESAMPLES, lexicon=lexicon
    )
    return {
        "lexicon_sha256": lexicon.sha256,
        "documents": documents,
        "sentences": sentences,
        "distances": numbers(distances_of_texts(known, unknown, lexicon)),
        "verification": {
            "prediction": result.prediction,
            "similarity": result.similarity,
            "log10_lr": result.log10_lr,
            "categories": {
                c: [r.distance, r.similarity, r.features_unknown, r.features_known, *occurrences]
                for c, r in result.categories.items()
                for occurrences in [(r.occurrences_unknown, r.occurrences_known)]
            },
            "interpretation": hashlib.sha256(
                json.dumps(
                    {c: i.to_dict() for c, i in result.interpretation.items()}, ensure_ascii=False
                ).encode("utf-8")
            ).hexdigest()[:16],
        },
        "stability": stability.to_dict(),
    }


def corpus_record(root: Path) -> dict:
    """Per case: every document's record and the case's distances."""
    from taveer_desktop.core.features.features import DocumentFeatures, extract_features
    from taveer_desktop.core.features.lexicon import default_lexicon
    from taveer_desktop.core.intake.corpus import open_corpus
    from taveer_desktop.core.methods.taveer.training import case_distances

    lexicon = default_lexicon()
    cases = {}
    for case in open_corpus(root).iter_cases():
        known = [extract_features(t, lexicon) for t in case.known_texts]
        unknown = extract_features(case.unknown_text, lexicon)
        profile = DocumentFeatures.combine(known)
        cases[case.case_id] = {
            "known": [document_record(f) for f in known],
            "unknown": document_record(unknown),
            "profile": document_record(profile),
            "distances": numbers(case_distances(unknown, profile)),
        }
    return cases


def shared_record(corpora: Path, demo_texts_dir: Path) -> dict:
    from taveer_desktop.core.features.features import extract_features
    from taveer_desktop.core.features.lexicon import default_lexicon
    from taveer_desktop.core.intake.corpus import open_corpus
    from taveer_desktop.core.methods.taveer.training import train
    from taveer_desktop.core.validation.evaluation import evaluate

    lexicon = default_lexicon()
    record: dict = {"lexicon_sha256": lexicon.sha256, "corpora": {}, "models": {}}
    for name in CORPORA:
        record["corpora"][name] = {
            split: corpus_record(corpora / name / split) for split in ("train", "test")
        }
    for name, method, band in MODELS:
        model = train(
            open_corpus(corpora / name / "train"),
            threshold_method=method,
            workers=1,
            with_inconclusive_band=band,
        )
        result = evaluate(model, open_corpus(corpora / name / "test"), workers=1)
        record["models"][f"{name}/{method}/{'band' if band else 'no-band'}"] = {
            "model": model_record(model),
            "evaluation": {
                "case_ids": result.case_ids,
                "scores": numbers(result.scores),
                "log10_lr": None if result.log10_lr is None else numbers(result.log10_lr),
                "metrics": result.metrics.to_dict(),
            },
        }
    record["demo_texts"] = {
        str(path.relative_to(demo_texts_dir)): document_record(
            extract_features(path.read_text(encoding="utf-8"), lexicon)
        )
        for path in sorted(demo_texts_dir.glob("*/*.txt"))
    }
    return record


def write(path: Path, record: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    indent = 1 if path == DEMO_GOLDEN else None  # the shared record is large: compact
    text = json.dumps(record, indent=indent, ensure_ascii=False, separators=(",", ":"))
    path.write_text(text + "\n", encoding="utf-8")


def main() -> int:
    sys.path.insert(0, str(REPO))
    shared = REPO.parent / "shared"
    write(DEMO_GOLDEN, demo_record())
    print(f"wrote {DEMO_GOLDEN}")
    if (shared / "corpora").is_dir():
        write(SHARED_GOLDEN, shared_record(shared / "corpora", shared / "demo-texts"))
        print(f"wrote {SHARED_GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
