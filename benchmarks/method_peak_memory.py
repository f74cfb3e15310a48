"""Wall time and peak memory (the process and all its helpers together) of one method's
validation of the shared Stack Exchange population, against a baseline tree, in one run.

Each measurement is a fresh process (``--child``) that validates ``--method`` on
``../shared/corpora/stackexchange/train`` (68 authors) with the default settings (3 repeats,
default trials) at the test cases' median lengths, with ``--workers`` helper processes. The
parent samples the summed resident memory of that process and every descendant every 0.1 s
(``/proc``), so the peak counts the helpers, which ``ru_maxrss`` does not add up. The baseline
(another checkout, e.g. ``git archive <commit> | tar -x -C /tmp/base``) and this tree alternate,
so both see the same machine load; ``validation_cpu_seconds`` is the validation's CPU time, its
helpers' included. One JSON line per tree with the medians and every run:

    .venv/bin/python benchmarks/method_peak_memory.py --method nncd [--runs 3] [--workers 2]
        [--baseline /tmp/base]

Several methods (``--method taveer coav fusion …``) are measured one after the other, each
method's runs in a row, one JSON line per method and tree; ``--fuse taveer coav`` sets the
methods ``fusion`` combines (default: the program's). Each line carries the load average (1, 5,
15 minutes) before its method's first run and after its last, since on a shared machine the
wall time says as much about the other work as about the validation.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PAGE = os.sysconf("SC_PAGE_SIZE")


def _tree_rss(root: int) -> int:
    """Bytes resident in ``root`` and all its descendants now."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            pages = int(Path(f"/proc/{entry}/statm").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(int(stat[1]), []).append(int(entry))
        rss[int(entry)] = pages * PAGE
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, []))
    return total


def measure(tree: Path, method: str, workers: int, shared: str, fuse: list[str]) -> dict:
    command = [sys.executable, str(Path(__file__).resolve()), "--child", "--tree", str(tree),
               "--method", method, "--workers", str(workers), "--shared", shared]  # fmt: skip
    if fuse:
        command += ["--fuse", *fuse]
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    peak = 0
    while child.poll() is None:
        peak = max(peak, _tree_rss(child.pid))
        time.sleep(0.1)
    out = child.stdout.read() if child.stdout else ""
    if child.returncode != 0:
        raise SystemExit(f"the validation failed (exit {child.returncode})")
    return {
        "seconds": round(time.perf_counter() - started, 1),
        "peak_mb": round(peak / 2**20),
        **json.loads(out.strip().splitlines()[-1]),
    }


def child(args) -> int:
    sys.path.insert(0, str(Path(args.tree)))
    sys.path.insert(0, str(REPO / "benchmarks"))
    from validation_benchmark import _test_lengths

    from taveer_desktop.core.intake.corpus import open_corpus
    from taveer_desktop.core.trials.population import population_from_corpus
    from taveer_desktop.core.validation.validation import ValidationSettings, validate

    root = Path(args.shared) / "corpora" / "stackexchange"
    population = population_from_corpus(open_corpus(root / "train"))
    questioned, known = _test_lengths(root)
    extra = {"fuse": tuple(args.fuse)} if args.fuse else {}
    settings = ValidationSettings(
        questioned_chars=questioned, known_chars=known, method=args.method[0], **extra
    )
    started, cpu = time.perf_counter(), _cpu()
    done = validate(population, settings, workers=args.workers)
    block = done.record["methods"][args.method[0]]
    print(json.dumps({
        "validation_seconds": round(time.perf_counter() - started, 1),
        "validation_cpu_seconds": round(_cpu() - cpu, 1),
        "trials": len(done.trials),
        "cllr": round(block["cllr"], 4),
        "auc": round(block["auc"], 4),
    }))  # fmt: skip
    return 0


def _cpu() -> float:
    """CPU seconds of this process and its ended helper processes (on a shared machine the
    wall time says more about the other work than about the validation)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", required=True, nargs="+")
    parser.add_argument("--fuse", nargs="+", default=[], help="the methods fusion combines")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--baseline", help="another checkout to compare with")
    parser.add_argument("--shared", default=str(REPO.parent / "shared"))
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", default=str(REPO), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    trees = [REPO] + ([Path(args.baseline)] if args.baseline else [])
    for method in args.method:
        load_before = [round(x, 2) for x in os.getloadavg()]
        runs: dict[str, list[dict]] = {str(t): [] for t in trees}
        for _ in range(args.runs):
            for tree in trees:
                runs[str(tree)].append(measure(tree, method, args.workers, args.shared, args.fuse))
                found = {"tree": str(tree), "method": method, **runs[str(tree)][-1]}
                print(json.dumps(found), file=sys.stderr, flush=True)  # each run as it ends
        load_after = [round(x, 2) for x in os.getloadavg()]
        for tree, found in runs.items():
            line = {"tree": tree, "method": method, "workers": args.workers, "runs": found}
            if method == "fusion" and args.fuse:
                line["fuse"] = args.fuse
            for key in ("seconds", "validation_seconds", "validation_cpu_seconds", "peak_mb"):
                line[f"median_{key}"] = statistics.median(r[key] for r in found)
            line["load_average"] = {"before": load_before, "after": load_after}
            print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
