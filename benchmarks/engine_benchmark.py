"""Engine speed benchmark (a script, not a timed test): prints the figures docs/performance.md
records, as medians of several runs on this machine.

    .venv/bin/python benchmarks/engine_benchmark.py [--corpus ../shared/corpora/stackexchange]
        [--runs 5]

Measures, for every text of the corpus (train and test splits):
- characters processed and feature-extraction speed on one core (MB/s of text);
- training time on the train split with 1 and with 2 worker processes (and that both give the
  same model), and the ensemble search alone on 2,000 cases (the corpus' distance matrix tiled);
- ``taveer verify`` of two 10,000-character documents, wall time including start-up;
- peak memory (resident set) of this process.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from timing import median_seconds  # noqa: E402

from taveer_desktop.core.corpus import open_corpus  # noqa: E402
from taveer_desktop.core.ensemble import search_ensembles, training_similarities  # noqa: E402
from taveer_desktop.core.features import extract_features  # noqa: E402
from taveer_desktop.core.lexicon import default_lexicon  # noqa: E402
from taveer_desktop.core.model import save_model  # noqa: E402
from taveer_desktop.core.training import corpus_distances, train  # noqa: E402


def corpus_texts(root: Path) -> list[str]:
    texts = []
    for split in ("train", "test"):
        for case in open_corpus(root / split).iter_cases():
            texts.extend(case.known_texts)
            texts.append(case.unknown_text)
    return texts


def build_replicated_corpus(root: Path, target: Path, copies: int):
    """A larger PAN-folder corpus: every case of train and test, ``copies`` times."""
    import shutil

    truth_lines = []
    number = 0
    for _ in range(copies):
        for split in ("train", "test"):
            source = root / split
            truth = dict(line.split() for line in (source / "truth.txt").read_text().splitlines())
            for case_dir in sorted(p for p in source.iterdir() if p.is_dir()):
                number += 1
                case_id = f"B{number:05d}"
                shutil.copytree(case_dir, target / case_id)
                truth_lines.append(f"{case_id} {truth[case_dir.name]}")
    (target / "truth.txt").write_text("\n".join(truth_lines) + "\n")
    return open_corpus(target)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(REPO.parent / "shared/corpora/stackexchange"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    root = Path(args.corpus)
    lexicon = default_lexicon()

    texts = corpus_texts(root)
    n_chars = sum(len(t) for t in texts)
    n_bytes = sum(len(t.encode("utf-8")) for t in texts)
    extract_s, extract_all = median_seconds(
        lambda: [extract_features(t, lexicon) for t in texts], args.runs
    )
    print(f"texts: {len(texts)}, characters: {n_chars:,}, UTF-8 bytes: {n_bytes:,}")
    print(
        f"feature extraction, 1 core: median {extract_s:.3f} s "
        f"({n_bytes / extract_s / 1e6:.2f} MB/s); runs {[round(t, 3) for t in extract_all]}"
    )

    train_corpus = open_corpus(root / "train")
    models = {}
    for workers in (1, 2):
        seconds, runs = median_seconds(
            lambda w=workers: models.__setitem__(w, train(train_corpus, workers=w)), args.runs
        )
        print(
            f"training on {len(train_corpus)} cases with {workers} process(es): median "
            f"{seconds:.3f} s; runs {[round(t, 3) for t in runs]}"
        )
    same = models[1].thresholds == models[2].thresholds and models[1].ensemble == models[2].ensemble
    print(f"1 and 2 processes give the same model: {same}")

    with tempfile.TemporaryDirectory() as tmp:
        big = build_replicated_corpus(root, Path(tmp), copies=3)
        for workers in (1, 2):
            seconds, runs = median_seconds(
                lambda w=workers: train(big, workers=w), max(3, args.runs // 2)
            )
            print(
                f"training on {len(big)} cases (train+test, 3 copies) with {workers} "
                f"process(es): median {seconds:.3f} s; runs {[round(t, 3) for t in runs]}"
            )

    data = corpus_distances(train_corpus, lexicon, workers=1)
    reps = -(-2000 // len(data.case_ids))
    distances = np.tile(data.distances, (reps, 1))[:2000]
    truth = np.tile(data.truth, reps)[:2000]
    similarities = training_similarities(distances, np.array(list(models[1].thresholds.values())))
    search_s, runs = median_seconds(lambda: search_ensembles(similarities, truth), args.runs)
    print(
        f"ensemble search, 2047 ensembles x 2000 cases: median {search_s:.3f} s; "
        f"runs {[round(t, 3) for t in runs]}"
    )

    long_texts = sorted(texts, key=len, reverse=True)
    known = "\n\n".join(long_texts[0::2])[:10_000]
    unknown = "\n\n".join(long_texts[1::2])[:10_000]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "k.txt").write_text(known, encoding="utf-8")
        (tmp / "u.txt").write_text(unknown, encoding="utf-8")
        save_model(models[1], tmp / "m.json")
        taveer = Path(sys.executable).with_name("taveer")
        command = [
            str(taveer),
            "verify",
            str(tmp / "m.json"),
            "--known",
            str(tmp / "k.txt"),
            "--unknown",
            str(tmp / "u.txt"),
            "--json",
        ]
        verify_s, runs = median_seconds(
            lambda: subprocess.run(command, check=True, capture_output=True), args.runs
        )
        python_s, _ = median_seconds(
            lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), args.runs
        )
    print(
        f"taveer verify, two 10,000-character documents, wall incl. start-up: median "
        f"{verify_s:.3f} s (bare Python start-up {python_s:.3f} s); "
        f"runs {[round(t, 3) for t in runs]}"
    )
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of this process: {peak_mb:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
