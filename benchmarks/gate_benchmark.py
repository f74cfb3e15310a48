"""How the fitness-for-purpose gate behaves on real corpora (figures in docs/accuracy.md).

For each bundled model and each corpus: how many cases keep an evaluative conclusion, how many
the gate flags as outside the model's validated conditions, how many get no conclusion, and the
Cllr over all cases and over the evaluative ones. Besides the shared test splits, two corpora
of texts several times longer than the default model's training texts are built in a temporary
folder (never shipped):

- ``demo-prose``: the Federalist Papers and Brontë chapters, cases as scripts/train_demo_model.py
  builds them (about 12,000-character questioned texts, 3 known documents);
- ``reuters-long``: each Reuters C50 test document replaced by three articles of the same
  author (about 9,000 characters), the known side likewise (both splits pool the articles).

It also prints the share of lexicon words in every document of the shared corpora and the demo
texts, the measurement behind the gate's "usable text" limit.

    .venv/bin/python benchmarks/gate_benchmark.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from train_demo_model import SEED, collections, make_cases, write_corpus  # noqa: E402

from taveer_desktop.core.features.lexicon import default_lexicon  # noqa: E402
from taveer_desktop.core.gate.gate import MIN_LEXICON_SHARE, measure_text  # noqa: E402
from taveer_desktop.core.intake.corpus import open_corpus  # noqa: E402
from taveer_desktop.core.methods.taveer.model import load_model  # noqa: E402
from taveer_desktop.core.validation.evaluation import evaluate  # noqa: E402

MODELS = ("default.json", "demo-formal-prose.json")


def build_demo_prose(shared: Path, target: Path) -> Path:
    rng = np.random.default_rng(SEED)
    cases = []
    for groups in collections(shared).values():
        cases += make_cases(groups, rng)
    write_corpus(target, cases)
    return target


def build_reuters_long(shared: Path, target: Path, parts: int = 3) -> Path:
    """Reuters C50 test cases with every document made of ``parts`` articles of its author.

    Authors come from the corpus's cases.csv; the articles of both splits form each author's
    pool (the default model never saw Reuters); a questioned document never shares an article
    with the known document of its case. Only the test split's cases are rebuilt.
    """
    root = shared / "corpora/reuters-c50"
    rows = [
        line.split(",")
        for line in (root / "cases.csv").read_text(encoding="utf-8").splitlines()[1:]
    ]
    texts: dict[str, dict[str, str]] = {}
    cases = []
    for case_id, split, label, _group, known_author, unknown_author, *_ in rows:
        folder = root / split / case_id
        for path in sorted(folder.glob("known*.txt")):
            texts.setdefault(known_author, {})[f"{case_id}/{path.name}"] = path.read_text("utf-8")
        unknown = (folder / "unknown.txt").read_text("utf-8")
        texts.setdefault(unknown_author, {})[f"{case_id}/unknown"] = unknown
        if split == "test":
            cases.append((known_author, unknown_author, label == "Y"))
    rng = np.random.default_rng(SEED)
    truth = []
    for number, (known_author, unknown_author, same) in enumerate(cases, start=1):
        known_pool = sorted(texts[known_author])
        if len(known_pool) < 2 * parts or len(texts[unknown_author]) < parts:
            continue
        order = [known_pool[i] for i in rng.permutation(len(known_pool))]
        known_keys = order[:parts]
        if same:
            questioned_keys = order[parts : 2 * parts]
        else:
            pool = sorted(texts[unknown_author])
            questioned_keys = [pool[i] for i in rng.permutation(len(pool))[:parts]]
        folder = target / f"RL{number:03d}"
        folder.mkdir(parents=True)
        join = "\n\n".join
        (folder / "known01.txt").write_text(
            join(texts[known_author][k] for k in known_keys), encoding="utf-8"
        )
        (folder / "unknown.txt").write_text(
            join(texts[unknown_author][k] for k in questioned_keys), encoding="utf-8"
        )
        truth.append(f"RL{number:03d} {'Y' if same else 'N'}")
    (target / "truth.txt").write_text("\n".join(truth) + "\n", encoding="utf-8")
    return target


def lexicon_shares(shared: Path) -> np.ndarray:
    lexicon = default_lexicon()
    shares = []
    for name in ("stackexchange/train", "stackexchange/test", "reuters-c50/train"):
        for case in open_corpus(shared / "corpora" / name).iter_cases():
            for text in (*case.known_texts, case.unknown_text):
                shares.append(measure_text(text, lexicon).lexicon_share)
    for path in sorted((shared / "demo-texts").rglob("*.txt")):
        shares.append(measure_text(path.read_text(encoding="utf-8"), lexicon).lexicon_share)
    return np.array(shares)


def row(label: str, model_name: str, corpus_path: Path) -> None:
    model = load_model(REPO / "resources/models" / model_name)
    result = evaluate(model, open_corpus(corpus_path), workers=1)
    g, m = result.gate, result.metrics
    cllr_e = "n/a" if g.cllr_evaluative is None else f"{g.cllr_evaluative:.3f}"
    cllr_all = "n/a" if m.cllr is None else f"{m.cllr:.3f}"
    print(
        f"| {model_name} | {label} | {g.cases} | {g.evaluative} ({g.evaluative / g.cases:.1%}) "
        f"| {g.outside_conditions} ({g.outside_conditions / g.cases:.1%}) | {g.no_conclusion} "
        f"| {m.auc:.3f} | {cllr_all} | {cllr_e} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    args = parser.parse_args()
    shared = Path(args.shared)
    shares = lexicon_shares(shared)
    print(
        f"lexicon-word share of {len(shares)} real documents: min {shares.min():.3f}, "
        f"0.1th percentile {np.percentile(shares, 0.1):.3f}, median {np.median(shares):.3f}; "
        f"below the limit {MIN_LEXICON_SHARE}: {(shares < MIN_LEXICON_SHARE).sum()}"
    )
    print(
        "| model | corpus | cases | evaluative | outside conditions | no conclusion | AUC "
        "| Cllr (all) | Cllr (evaluative) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        corpora = {
            "stackexchange/test": shared / "corpora/stackexchange/test",
            "reuters-c50/test": shared / "corpora/reuters-c50/test",
            "demo-prose (long)": build_demo_prose(shared, Path(tmp) / "demo-prose"),
            "reuters-long (×3)": build_reuters_long(shared, Path(tmp) / "reuters-long"),
        }
        for model_name in MODELS:
            for label, path in corpora.items():
                row(label, model_name, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
