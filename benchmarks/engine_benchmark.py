"""Engine speed benchmark (a script, not a timed test): prints the figures docs/performance.md
records, as medians of several runs on this machine, optionally beside an older version of the
engine measured in the same run.

    .venv/bin/python benchmarks/engine_benchmark.py [--corpora ../shared/corpora] [--runs 5]
        [--baseline /tmp/taveer-main] [--only extraction,training,cases,document,verify,ensemble]

``--baseline`` is another checkout of the repository (e.g. ``git worktree add /tmp/taveer-main
main``); every measurement is then made for both, alternating run by run, and the ratio given.
Each run is a fresh child process that imports the engine from one checkout, so start-up is
excluded from the engine figures (except for ``taveer verify``, where it is the point) and no
cache survives from one run to the next.

Measured:
- feature extraction of every text of each shared corpus (train and test): CPU seconds of one
  process and MB/s of UTF-8 text per core;
- training on each corpus's train split with one process (wall and CPU), and on a ~1,000-case
  corpus (stackexchange train + test, 3 copies) with one and with two processes (wall);
- peak resident memory of a process training on the largest train split and on the 1,000-case
  corpus (one process), and of a process extracting the features of a 5-million-character
  document (with that extraction's time);
- ``taveer verify`` of two 10,000-character documents, wall and CPU time including start-up,
  run from the checkout and from an installed copy with compiled bytecode;
- the ensemble search alone on 2,000 cases (current checkout only).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPORA = ("stackexchange", "stackexchange-jsonl", "reuters-c50")
LARGEST = "stackexchange"
BIG_CHARS = 5_000_000
PARTS = ("extraction", "training", "cases", "document", "verify", "ensemble")


# --------------------------------------------------------------------------------------------
# Child side: one measurement with the engine imported from --code
# --------------------------------------------------------------------------------------------


def _texts(corpus_root: Path) -> list[str]:
    from taveer_desktop.core.intake.corpus import open_corpus

    texts = []
    for split in ("train", "test"):
        for case in open_corpus(corpus_root / split).iter_cases():
            texts.extend(case.known_texts)
            texts.append(case.unknown_text)
    return texts


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child_extract(corpus_root: Path) -> dict:
    from taveer_desktop.core.features.features import extract_features
    from taveer_desktop.core.features.lexicon import default_lexicon

    lexicon = default_lexicon()
    texts = _texts(corpus_root)
    extract_features("So it goes. And then, however, it went.", lexicon)  # lexicon ready
    cpu, wall = time.process_time(), time.perf_counter()
    for text in texts:
        extract_features(text, lexicon)
    return {
        "cpu": time.process_time() - cpu,
        "wall": time.perf_counter() - wall,
        "texts": len(texts),
        "chars": sum(len(t) for t in texts),
        "bytes": sum(len(t.encode("utf-8")) for t in texts),
    }


def child_train(corpus_root: Path, workers: int) -> dict:
    from taveer_desktop.core.features.lexicon import default_lexicon
    from taveer_desktop.core.intake.corpus import open_corpus
    from taveer_desktop.core.methods.taveer.training import train

    default_lexicon()
    corpus = open_corpus(corpus_root)
    before = _peak_mb()
    cpu, wall = time.process_time(), time.perf_counter()
    model = train(corpus, workers=workers)
    return {
        "cpu": time.process_time() - cpu,
        "wall": time.perf_counter() - wall,
        "cases": len(corpus),
        "peak_mb": _peak_mb(),
        "peak_before_mb": before,
        "thresholds": model.thresholds,
        "ensemble": list(model.ensemble),
    }


def child_big(corpus_root: Path) -> dict:
    from taveer_desktop.core.features.features import extract_features
    from taveer_desktop.core.features.lexicon import default_lexicon

    lexicon = default_lexicon()
    texts = _texts(corpus_root)
    parts, size = [], 0
    while size < BIG_CHARS:  # the corpus's texts, repeated as often as needed
        parts.append(texts[len(parts) % len(texts)])
        size += len(parts[-1]) + 2
    document = "\n\n".join(parts)[:BIG_CHARS]
    del texts, parts
    extract_features("So it goes.", lexicon)
    before = _peak_mb()
    wall = time.perf_counter()
    features = extract_features(document, lexicon)
    seconds = time.perf_counter() - wall
    return {
        "wall": seconds,
        "chars": len(document),
        "peak_mb": _peak_mb(),
        "peak_before_mb": before,
        "sentences": features.n_sentences,
    }


def run_child(args: argparse.Namespace) -> int:
    sys.path.insert(0, str(Path(args.code).resolve()))
    root = Path(args.corpus)
    if args.child == "extract":
        result = child_extract(root)
    elif args.child == "train":
        result = child_train(root, args.workers)
    elif args.child == "big":
        result = child_big(root)
    else:
        raise SystemExit(f"unknown child task {args.child}")
    print(json.dumps(result))
    return 0


# --------------------------------------------------------------------------------------------
# Parent side
# --------------------------------------------------------------------------------------------


def measure(code: Path, task: str, corpus: Path, workers: int = 1) -> dict:
    command = [sys.executable, __file__, "--child", task, "--code", str(code)]
    command += ["--corpus", str(corpus), "--workers", str(workers)]
    env = dict(os.environ, PYTHONPATH=str(code))
    done = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def verify_seconds(code: Path, folder: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one ``taveer verify`` process."""
    command = [sys.executable, "-c", "import sys; from taveer_desktop.cli import main; "]
    command[-1] += "sys.exit(main())"
    command += ["verify", str(folder / "m.json"), "--known", str(folder / "k.txt")]
    command += ["--unknown", str(folder / "u.txt"), "--json"]
    env = dict(os.environ, PYTHONPATH=str(code))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    # run outside any checkout: with ``-c`` the working folder comes first on sys.path
    subprocess.run(command, check=True, capture_output=True, env=env, cwd=folder)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def installed_copy(code: Path, target: Path) -> Path:
    """The package and its resources copied with their bytecode compiled, as an installation
    has them (pip compiles on install, the bundle ships bytecode). Run from the checkout, every
    start compiles the package's modules again where bytecode is not written
    (PYTHONDONTWRITEBYTECODE, a read-only checkout)."""
    import compileall

    shutil.copytree(code / "taveer_desktop", target / "taveer_desktop")
    shutil.copytree(code / "resources", target / "resources")
    compileall.compile_dir(target / "taveer_desktop", quiet=1)
    return target


def build_replicated_corpus(root: Path, target: Path, copies: int) -> Path:
    """A larger PAN-folder corpus: every case of train and test, ``copies`` times."""
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
    return target


class Table:
    """Collects runs per (label, code) and prints medians with the ratio to the baseline."""

    def __init__(self, codes: dict[str, Path]):
        self.codes = codes
        self.rows: dict[str, dict[str, list[float]]] = {}

    def add(self, label: str, code: str, value: float) -> None:
        self.rows.setdefault(label, {}).setdefault(code, []).append(value)

    def median(self, label: str, code: str) -> float:
        return statistics.median(self.rows[label][code])

    def print(self) -> None:
        for label, by_code in self.rows.items():
            cells = []
            for code, values in by_code.items():
                runs = ", ".join(f"{v:.3f}" for v in values)
                cells.append(f"{code} median {statistics.median(values):.3f} (runs {runs})")
            line = f"{label}: " + "; ".join(cells)
            if len(by_code) == 2:
                base, new = (statistics.median(v) for v in by_code.values())
                line += f"; ratio baseline/current {base / new:.2f}" if new else ""
            print(line, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default=str(REPO.parent / "shared" / "corpora"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", help="another checkout measured in the same run")
    parser.add_argument(
        "--only",
        help=f"comma-separated parts to measure ({', '.join(PARTS)}; default: all)",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--code", help=argparse.SUPPRESS)
    parser.add_argument("--corpus", help=argparse.SUPPRESS)
    parser.add_argument("--workers", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return run_child(args)

    corpora = Path(args.corpora)
    codes = {"current": REPO}
    if args.baseline:
        codes = {"baseline": Path(args.baseline).resolve(), "current": REPO}
    print(f"checkouts: {', '.join(f'{k}={v}' for k, v in codes.items())}; runs {args.runs}")
    table = Table(codes)
    parts = set(PARTS if not args.only else args.only.split(","))
    if parts - set(PARTS):
        parser.error(f"--only takes {', '.join(PARTS)}")
    for name in CORPORA if "extraction" in parts else ():
        for _ in range(args.runs):
            for code, path in codes.items():
                r = measure(path, "extract", corpora / name)
                table.add(f"extraction {name} CPU s", code, r["cpu"])
                table.add(f"extraction {name} MB/s per core", code, r["bytes"] / r["cpu"] / 1e6)
        print(f"{name}: {r['texts']} texts, {r['chars']:,} characters, {r['bytes']:,} bytes")
    for name in CORPORA if "training" in parts else ():
        for _ in range(args.runs):
            for code, path in codes.items():
                r = measure(path, "train", corpora / name / "train")
                table.add(
                    f"training {name}/train ({r['cases']} cases), 1 process, wall s",
                    code,
                    r["wall"],
                )
                table.add(f"training {name}/train, 1 process, CPU s", code, r["cpu"])
                if name == LARGEST:
                    table.add(f"peak memory training {name}/train, MB", code, r["peak_mb"])
    if "cases" in parts:
        measure_replicated_corpus(codes, corpora, args.runs, table)
    if "document" in parts:
        measure_big_document(codes, corpora, args.runs, table)
    if "verify" in parts:
        measure_verify(codes, corpora, args.runs, table)
    if "ensemble" in parts:
        search_ensemble(corpora, args.runs, table)
    table.print()
    return 0


def measure_replicated_corpus(codes: dict[str, Path], corpora: Path, runs: int, table: Table):
    """Training on ~1,000 cases with one and with two processes (wall), and its memory."""
    with tempfile.TemporaryDirectory() as tmp:
        big = build_replicated_corpus(corpora / LARGEST, Path(tmp), copies=3)
        models = {}
        for _ in range(max(3, runs)):
            for workers in (1, 2):
                for code, path in codes.items():
                    r = measure(path, "train", big, workers)
                    label = f"training {r['cases']} cases, {workers} process(es), wall s"
                    table.add(label, code, r["wall"])
                    if workers == 1:
                        table.add(
                            f"peak memory training {r['cases']} cases, MB", code, r["peak_mb"]
                        )
                    models.setdefault(code, set()).add(json.dumps([r["thresholds"], r["ensemble"]]))
        for code, found in models.items():
            print(f"{code}: 1 and 2 processes, all runs, give the same model: {len(found) == 1}")
        if len(models) == 2:
            same = models["baseline"] == models["current"]
            print(f"baseline and current give the same model: {same}")


def measure_big_document(codes: dict[str, Path], corpora: Path, runs: int, table: Table):
    """Features of one 5,000,000-character document: time and memory."""
    for _ in range(runs):
        for code, path in codes.items():
            r = measure(path, "big", corpora / LARGEST)
            table.add(f"features of a {r['chars']:,}-character document, s", code, r["wall"])
            table.add("peak memory for it, MB (process total)", code, r["peak_mb"])
            table.add(
                "peak memory for it, MB (above the process before)",
                code,
                r["peak_mb"] - r["peak_before_mb"],
            )


def measure_verify(codes: dict[str, Path], corpora: Path, runs: int, table: Table):
    """``taveer verify`` with start-up, from each checkout and from an installed copy."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sys.path.insert(0, str(REPO))
        from taveer_desktop.core.methods.taveer.model import load_model, save_model

        texts = sorted(_texts(corpora / LARGEST), key=len, reverse=True)
        (folder / "k.txt").write_text("\n\n".join(texts[0::2])[:10_000], encoding="utf-8")
        (folder / "u.txt").write_text("\n\n".join(texts[1::2])[:10_000], encoding="utf-8")
        # format 2 (no conditions record), which the baseline's code can read too
        model = replace(
            load_model(REPO / "resources" / "models" / "default.json"), format_version=2
        )
        save_model(model, folder / "m.json")
        installed = {c: installed_copy(p, folder / f"installed-{c}") for c, p in codes.items()}
        for _ in range(max(5, runs)):
            for code, path in codes.items():
                wall, cpu = verify_seconds(path, folder)
                label = "taveer verify, two 10,000-character documents, incl. start-up"
                table.add(f"{label}, from the checkout, wall s", code, wall)
                table.add(f"{label}, from the checkout, CPU s", code, cpu)
                wall, cpu = verify_seconds(installed[code], folder)
                table.add(f"{label}, installed (bytecode), wall s", code, wall)
                table.add(f"{label}, installed (bytecode), CPU s", code, cpu)
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            table.add("bare Python start-up, s", "python", time.perf_counter() - started)


def search_ensemble(corpora: Path, runs: int, table: Table) -> None:
    import numpy as np

    from taveer_desktop.core.intake.corpus import open_corpus
    from taveer_desktop.core.methods.taveer.ensemble import (
        search_ensembles,
        thresholds_for,
        training_similarities,
    )
    from taveer_desktop.core.methods.taveer.training import corpus_distances

    data = corpus_distances(open_corpus(corpora / LARGEST / "train"), workers=1)
    reps = -(-2000 // len(data.case_ids))
    distances = np.tile(data.distances, (reps, 1))[:2000]
    truth = np.tile(data.truth, reps)[:2000]
    similarities = training_similarities(distances, thresholds_for("median", distances, truth))
    for _ in range(runs):
        started = time.perf_counter()
        search_ensembles(similarities, truth)
        table.add(
            "ensemble search, 2047 ensembles x 2000 cases, s",
            "current",
            time.perf_counter() - started,
        )


if __name__ == "__main__":
    sys.exit(main())
