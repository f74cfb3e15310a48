"""Train the bundled "formal prose" model on public-domain texts, for the demo case.

Why a second model: TAVeer's thresholds depend on document length and genre. The default model
(Stack Exchange posts of ~2,000 characters) calls every pair of long 18th/19th-century essays
"same author", because long documents lie much closer to each other than short posts do. An
examiner would train on reference texts of the case's genre; this script does exactly that for
the demo case, on the public-domain texts of ../shared/demo-texts (the Federalist Papers and
chapters of novels by the Brontë sisters), never using a paper of the demo case.

Cases (deterministic, seed 20261125): each author's documents are split in half, one half for
training cases and one for test cases; a case has 3 known documents and 1 questioned document;
Y cases take the questioned document from the same author, N cases from another author of the
same collection (Federalist authors against each other, Brontë sisters against each other), so
that negatives share genre and period. Writes resources/models/demo-formal-prose.json and its
training record; prints the record.

    .venv/bin/python scripts/train_demo_model.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from model_record import save_with_record  # noqa: E402

from taveer_desktop.core.intake.corpus import open_corpus  # noqa: E402
from taveer_desktop.core.methods.taveer.training import train  # noqa: E402
from taveer_desktop.core.validation.evaluation import evaluate  # noqa: E402

SEED = 20261125
CASES_PER_AUTHOR = 12
KNOWN_PER_CASE = 3
AUTHOR_LINE = re.compile(
    r"^\s*(HAMILTON AND MADISON|HAMILTON OR MADISON|HAMILTON|MADISON|JAY)\s*$", re.MULTILINE
)


def demo_case_papers() -> set[str]:
    manifest = json.loads((REPO / "resources/demo/demo_case.json").read_text(encoding="utf-8"))
    used = set()
    for case in manifest["cases"]:
        used.update(Path(p).name for p in case["known"])
    used.add("federalist_51.txt")  # the questioned paper of the demo case
    return used


def collections(shared: Path) -> dict[str, dict[str, list[Path]]]:
    """Documents by collection and author, leaving out disputed, joint and demo-case papers."""
    excluded = demo_case_papers()
    federalist: dict[str, list[Path]] = {}
    for path in sorted((shared / "demo-texts/federalist").glob("*.txt")):
        match = AUTHOR_LINE.search(path.read_text(encoding="utf-8", errors="replace")[:600])
        author = match.group(1) if match else None
        if author in ("HAMILTON", "MADISON", "JAY") and path.name not in excluded:
            federalist.setdefault(author, []).append(path)
    brontes: dict[str, list[Path]] = {}
    for path in sorted((shared / "demo-texts/brontes").glob("*.txt")):
        brontes.setdefault("_".join(path.name.split("_")[:2]), []).append(path)
    return {"federalist": federalist, "brontes": brontes}


def write_corpus(target: Path, cases: list[tuple[list[Path], Path, bool]]) -> None:
    truth = []
    for number, (known, unknown, same) in enumerate(cases, start=1):
        folder = target / f"DM{number:03d}"
        folder.mkdir(parents=True)
        for index, path in enumerate(known, start=1):
            (folder / f"known{index:02d}.txt").write_bytes(path.read_bytes())
        (folder / "unknown.txt").write_bytes(
            AUTHOR_LINE.sub("", unknown.read_text(encoding="utf-8", errors="replace")).encode(
                "utf-8"
            )
        )
        truth.append(f"DM{number:03d} {'Y' if same else 'N'}")
    (target / "truth.txt").write_text("\n".join(truth) + "\n", encoding="utf-8")


def make_cases(groups: dict[str, list[Path]], rng: np.random.Generator):
    cases = []
    authors = sorted(groups)
    for author in authors:
        docs = groups[author]
        others = [a for a in authors if a != author]
        if len(docs) < KNOWN_PER_CASE + 1 or not others:
            continue
        for _ in range(CASES_PER_AUTHOR):
            pick = rng.permutation(len(docs))
            known = [docs[i] for i in pick[:KNOWN_PER_CASE]]
            cases.append((known, docs[pick[KNOWN_PER_CASE]], True))
            other = groups[others[rng.integers(len(others))]]
            cases.append((known, other[rng.integers(len(other))], False))
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    args = parser.parse_args()
    rng = np.random.default_rng(SEED)
    splits: dict[str, list] = {"train": [], "test": []}
    for groups in collections(Path(args.shared)).values():
        halves: dict[str, dict[str, list[Path]]] = {"train": {}, "test": {}}
        for author, docs in groups.items():
            order = rng.permutation(len(docs))
            half = (len(docs) + 1) // 2
            halves["train"][author] = [docs[i] for i in sorted(order[:half])]
            halves["test"][author] = [docs[i] for i in sorted(order[half:])]
        for split in splits:
            splits[split] += make_cases(halves[split], rng)
    with tempfile.TemporaryDirectory() as tmp:
        for split, cases in splits.items():
            write_corpus(Path(tmp) / "demo-prose" / split, cases)
        corpus = open_corpus(Path(tmp) / "demo-prose" / "train")
        model = train(
            corpus,
            name="TAVeer formal prose (public-domain demo)",
            genre="formal English prose of 1787-1848: political essays (the Federalist Papers) "
            "and chapters of novels (the Brontë sisters)",
            population="the authors of the Federalist Papers (Hamilton, Madison, Jay) and the "
            "Brontë sisters (Anne, Charlotte, Emily); far too small a population for casework",
        )
        test = evaluate(model, open_corpus(Path(tmp) / "demo-prose" / "test"))
    record = save_with_record(
        model,
        REPO / "resources" / "models" / "demo-formal-prose.json",
        corpus,
        "demo-prose/train (built by scripts/train_demo_model.py)",
        "Federalist Papers and Brontë chapters from shared/demo-texts (public domain), without "
        f"the papers of the demo case; seed {SEED}",
        {"demo-prose/test": test},
        "python scripts/train_demo_model.py",
    )
    print(json.dumps(record, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
