"""Speed of the project store (a script, not a timed test).

Measures, as medians over ``--repeat`` runs, in a temporary folder:
1. importing 1,000 documents of 10 KB into a case with one ``documents.add`` call
   (target < 10 s), and the same in batches of 50 files;
2. opening a store holding 10,000 documents of 10 KB and 1,000 stored runs and listing its
   cases (target < 0.5 s), with the integrity check on open (re-hashing every document, model
   and run and verifying the audit chain) and without it; and the full check including
   SQLite's ``PRAGMA integrity_check``.

The 1,000 runs of the large store reuse one genuine result of the engine's ``verify`` (the
store's cost does not depend on the numbers inside). Usage:

    .venv/bin/python benchmarks/store_benchmark.py [--repeat 5] [--documents 10000]

To compare two versions of the code, build a store with each (``--build PATH``, run from each
checkout) and time only opening and checking it (``--open PATH``), alternating the two.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from taveer_desktop.core.methods.taveer.model import load_model
from taveer_desktop.core.methods.taveer.verify import verify
from taveer_desktop.paths import resource
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore

DOCUMENT_BYTES = 10 * 1024


def _words() -> list[str]:
    text = resource("demo", "federalist", "federalist_10.txt").read_text("utf-8")
    return text.split()


def write_documents(folder: Path, count: int, tag: str, rng: random.Random) -> list[Path]:
    """``count`` distinct English-like text files of about 10 KB each."""
    words = _words()
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        parts = [f"Document {tag}-{index}."]
        size = len(parts[0])
        while size < DOCUMENT_BYTES:
            word = rng.choice(words)
            parts.append(word)
            size += len(word) + 1
        path = folder / f"{tag}-{index:05d}.txt"
        path.write_bytes(" ".join(parts).encode("utf-8")[:DOCUMENT_BYTES])
        paths.append(path)
    return paths


def bench_import(root: Path, repeat: int) -> dict[str, list[float]]:
    rng = random.Random(1)
    timings: dict[str, list[float]] = {"import 1,000 × 10 KB (one call)": []}
    timings["import 1,000 × 10 KB (batches of 50)"] = []
    for run in range(repeat):
        paths = write_documents(root / f"import{run}", 1000, f"i{run}", rng)
        for label, batch in ((0, 1000), (1, 50)):
            with ProjectStore.create(root / f"import{run}-{label}.taveer") as store:
                case = store.cases.create("BENCH")
                started = time.perf_counter()
                for start in range(0, len(paths), batch):
                    store.documents.add(case.id, KNOWN, paths[start : start + batch])
                elapsed = time.perf_counter() - started
            key = list(timings)[label]
            timings[key].append(elapsed)
    return timings


def build_large_store(path: Path, root: Path, documents: int, runs: int) -> None:
    rng = random.Random(2)
    model_path = resource("models", "default.json")
    model = load_model(model_path)
    cases = max(1, documents // 100)
    per_case = documents // cases
    runs_per_case = max(1, runs // cases)
    with ProjectStore.create(path) as store:
        stored_model = store.models.add_file(model_path)
        result = None
        for number in range(cases):
            case = store.cases.create(f"2025-{number:04d}", title=f"Benchmark case {number}")
            paths = write_documents(root / f"case{number}", per_case, f"c{number}", rng)
            known = store.documents.add(case.id, KNOWN, paths[1:]).added
            (questioned,) = store.documents.add(case.id, QUESTIONED, paths[:1]).added
            if result is None:
                texts = [store.documents.text(d.id) for d in known[:3]]
                q_text = store.documents.text(questioned.id)
                result = verify(model, texts, q_text, explain=True).to_dict()
            for _ in range(runs_per_case):
                store.runs.store(
                    case.id, stored_model.id, questioned.id, [d.id for d in known], result
                )
            for file in paths:
                file.unlink()


def bench_open(path: Path, repeat: int) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = {
        "open + integrity check + list cases": [],
        "open without check + list cases": [],
        "full check incl. PRAGMA integrity_check": [],
    }
    for _ in range(repeat):
        started = time.perf_counter()
        with ProjectStore.open(path) as store:
            cases = store.cases.list_all()
            timings["open + integrity check + list cases"].append(time.perf_counter() - started)
            assert store.last_integrity_report.ok and cases
        started = time.perf_counter()
        with ProjectStore.open(path, verify=False) as store:
            store.cases.list_all()
            timings["open without check + list cases"].append(time.perf_counter() - started)
            started = time.perf_counter()
            assert store.check_integrity(include_sqlite_check=True).ok
            timings["full check incl. PRAGMA integrity_check"].append(time.perf_counter() - started)
    return timings


def report(timings: dict[str, list[float]]) -> None:
    for label, values in timings.items():
        runs = ", ".join(f"{v:.3f}" for v in values)
        print(f"{label:<45} median {statistics.median(values):7.3f} s   runs: {runs}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=1_000)
    parser.add_argument(
        "--build", type=Path, help="only build the large store at this path (kept), then stop"
    )
    parser.add_argument(
        "--open", type=Path, help="only time opening and checking this store (built with --build)"
    )
    args = parser.parse_args()
    if args.build or args.open:  # to compare two versions of the code on their own stores
        if args.build:
            args.build.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(prefix="taveer-store-bench-") as scratch:
                build_large_store(args.build, Path(scratch), args.documents, args.runs)
        else:
            report(bench_open(args.open, args.repeat))
        return 0
    with tempfile.TemporaryDirectory(prefix="taveer-store-bench-") as scratch:
        root = Path(scratch)
        report(bench_import(root, args.repeat))
        large = root / "large.taveer"
        started = time.perf_counter()
        build_large_store(large, root, args.documents, args.runs)
        size_mb = large.stat().st_size / 1e6
        print(
            f"built store: {args.documents:,} documents, {args.runs:,} runs, "
            f"{size_mb:.0f} MB in {time.perf_counter() - started:.0f} s"
        )
        report(bench_open(large, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
