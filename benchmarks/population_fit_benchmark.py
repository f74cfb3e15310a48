"""How the population-fit check behaves on real text (figures in docs/validation.md).

Populations (one text per document, as validation hands them over): every document of the train
split of each shared corpus, the demo population (``resources/demo/population``: Federalist
Papers and Brontë chapters, two genres in one population), and the odd-numbered Federalist
Papers of the public-domain demo texts. Case sets: each corpus's test split, the even-numbered
Federalist Papers and the Brontë chapters 5-8 (three documents a case in file order: the first
questioned, the other two known). A case whose texts are documents of the population is left
out for that population (the demo population holds some of them).

For every (population, case set) pair it counts the cases whose check fails (and of those, the
ones that could not be judged), and the questioned and known parts that fail. "Own genre" is
the same corpus (stackexchange and stackexchange-jsonl are the same texts), the Federalist
Papers for the Federalist population, and both demo case sets for the demo population. Then the
questioned texts of the test splits are cut to 250 … 4,000 characters to give per-part flag
rates per length band; last, the time to fit a 1,000-document profile and to check a case.
Deterministic: files are read in sorted order and nothing is random.

    .venv/bin/python benchmarks/population_fit_benchmark.py [--shared ../shared] [--runs 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from timing import median_seconds  # noqa: E402

from taveer_desktop.core.features import fit_features as ff  # noqa: E402
from taveer_desktop.core.features.lexicon import default_lexicon  # noqa: E402
from taveer_desktop.core.gate.population_fit import (  # noqa: E402
    FIT_ALPHA,
    PART_ALPHA,
    case_fit,
    fit_profile,
)
from taveer_desktop.core.intake.corpus import open_corpus  # noqa: E402

Case = tuple[str, tuple[str, ...]]
CUTS = (250, 500, 1000, 2000, 4000)


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _corpus_documents(path: Path) -> list[str]:
    texts: list[str] = []
    for case in open_corpus(path).iter_cases():
        texts.extend(case.known_texts)
        texts.append(case.unknown_text)
    return texts


def _corpus_cases(path: Path) -> list[Case]:
    return [(c.unknown_text, c.known_texts) for c in open_corpus(path).iter_cases()]


def _triples(paths: list[Path]) -> list[Case]:
    texts = [_read(p) for p in paths]
    return [(texts[i], (texts[i + 1], texts[i + 2])) for i in range(0, len(texts) - 2, 3)]


def _paper(path: Path) -> int:
    return int(path.stem.split("_")[1])


def build(
    shared: Path,
) -> tuple[dict[str, tuple[str, list[str]]], dict[str, tuple[str, list[Case]]]]:
    """Populations and case sets, each with its genre."""
    corpora = shared / "corpora"
    demo = shared / "demo-texts"
    federalist = sorted((demo / "federalist").glob("federalist_*.txt"))
    brontes = sorted((demo / "brontes").glob("*.txt"))
    populations = {
        "stackexchange/train": (
            "stackexchange",
            _corpus_documents(corpora / "stackexchange/train"),
        ),
        "stackexchange-jsonl/train": (
            "stackexchange",
            _corpus_documents(corpora / "stackexchange-jsonl/train"),
        ),
        "reuters-c50/train": ("newswire", _corpus_documents(corpora / "reuters-c50/train")),
        "demo population": (
            "federalist+brontes",
            [_read(p) for p in sorted((REPO / "resources/demo/population").glob("*/*.txt"))],
        ),
        "federalist odd papers": (
            "federalist",
            [_read(p) for p in federalist if _paper(p) % 2 == 1],
        ),
    }
    cases = {
        "stackexchange/test": ("stackexchange", _corpus_cases(corpora / "stackexchange/test")),
        "stackexchange-jsonl/test": (
            "stackexchange",
            _corpus_cases(corpora / "stackexchange-jsonl/test"),
        ),
        "reuters-c50/test": ("newswire", _corpus_cases(corpora / "reuters-c50/test")),
        "federalist even papers": (
            "federalist",
            _triples([p for p in federalist if _paper(p) % 2 == 0]),
        ),
        "brontes ch. 5-8": (
            "brontes",
            _triples([p for p in brontes if int(p.stem.rsplit("ch", 1)[1]) >= 5]),
        ),
    }
    return populations, cases


def _own(population_genre: str, case_genre: str) -> bool:
    return case_genre in population_genre.split("+")


def pairs_table(populations, cases) -> list[str]:  # type: ignore[no-untyped-def]
    lexicon = default_lexicon()
    rows = [
        "| population (documents) | cases | genre | cases checked | cases failing | "
        "of them not judged | questioned failing | known failing |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for pop_name, (pop_genre, documents) in populations.items():
        profile = fit_profile(documents, lexicon)
        inside = {ff.prepare(d) for d in documents}
        for case_name, (case_genre, case_list) in cases.items():
            kept = [
                c for c in case_list if ff.prepare(c[0]) not in inside
                and not any(ff.prepare(k) in inside for k in c[1])
            ]  # fmt: skip
            if not kept:
                rows.append(
                    f"| {pop_name} ({profile.documents}) | {case_name} | "
                    f"{'own' if _own(pop_genre, case_genre) else 'other'} | 0 (all in the "
                    "population) | | | | |"
                )
                continue
            fits = [case_fit(profile, q, k, lexicon) for q, k in kept]
            failing = sum(not f.fits for f in fits)
            unjudged = sum(any(not p.judged for p in f.parts) for f in fits)
            q_fail = sum(not f.parts[0].fits for f in fits)
            k_fail = sum(not f.parts[1].fits for f in fits if len(f.parts) > 1)
            n = len(kept)
            rows.append(
                f"| {pop_name} ({profile.documents}) | {case_name} | "
                f"{'own' if _own(pop_genre, case_genre) else 'other'} | {n} | "
                f"{failing} ({100 * failing / n:.0f} %) | {unjudged} | {q_fail} | {k_fail} |"
            )
        print(f"  {pop_name} done", file=sys.stderr)
    return rows


def bands_table(populations, cases) -> list[str]:  # type: ignore[no-untyped-def]
    """Per-part flag rates of questioned texts cut to each length, own and other genre."""
    lexicon = default_lexicon()
    corpora = ("stackexchange/test", "reuters-c50/test")
    header = " | ".join(f"{c} chars" for c in CUTS)
    rows = [
        f"| population | questioned texts from | genre | {header} | whole |",
        "|---|---|---|" + "---|" * (len(CUTS) + 1),
    ]
    for pop_name in ("stackexchange/train", "reuters-c50/train"):
        pop_genre, documents = populations[pop_name]
        profile = fit_profile(documents, lexicon)
        for case_name in corpora:
            case_genre, case_list = cases[case_name]
            cells = []
            for chars in (*CUTS, None):
                texts = [q if chars is None else ff.cut(ff.prepare(q), chars) for q, _ in case_list]
                if chars is not None:
                    texts = [t for t in texts if len(t) >= chars * 0.9]
                failing = sum(not case_fit(profile, t, (), lexicon).fits for t in texts)
                cells.append(f"{failing}/{len(texts)} ({100 * failing / max(len(texts), 1):.1f} %)")
            genre = "own" if _own(pop_genre, case_genre) else "other"
            rows.append(f"| {pop_name} | {case_name} | {genre} | " + " | ".join(cells) + " |")
    return rows


def speed(populations, runs: int) -> list[str]:  # type: ignore[no-untyped-def]
    lexicon = default_lexicon()
    documents = populations["stackexchange/train"][1] + populations["reuters-c50/train"][1]
    documents += populations["demo population"][1]
    documents = (documents * 3)[:1000]
    # each repeat a different text, so that the profile sees 1,000 distinct documents
    documents = [f"{text}\n\nCopy {i}." for i, text in enumerate(documents)]
    chars = sum(len(d) for d in documents)
    fit_seconds, fit_all = median_seconds(lambda: fit_profile(documents, lexicon), runs)
    profile = fit_profile(documents, lexicon)
    cases = [(q, k) for q, k in _corpus_cases(REPO.parent / "shared/corpora/reuters-c50/test")]
    started = time.perf_counter()
    for q, k in cases:
        case_fit(profile, q, k, lexicon)
    per_case = (time.perf_counter() - started) / len(cases)
    return [
        f"fit_profile, 1,000 documents ({chars:,} characters): median {fit_seconds:.2f} s "
        f"(runs: {', '.join(f'{t:.2f}' for t in fit_all)})",
        f"case_fit, one Reuters test case (questioned + 2 known): {1000 * per_case:.1f} ms",
        f"profile JSON: {len(str(profile.to_dict()))} characters",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    populations, cases = build(args.shared)
    print(f"FIT_ALPHA = {FIT_ALPHA} per case, {PART_ALPHA} per part\n")
    print("\n".join(pairs_table(populations, cases)))
    print()
    print("\n".join(bands_table(populations, cases)))
    print()
    print("\n".join(speed(populations, args.runs)))


if __name__ == "__main__":
    main()
