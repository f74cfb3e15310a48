"""What the stability check costs for a comparison system's stated ratio (issue 24).

On the demo case DEMO-001 (four Madison papers known, Federalist No. 51 questioned), for each
comparison system: a model made as a validation makes it — the method validated on the demo
population (one repeat of at most ``--trials`` trials, questioned 1,500–4,000 characters,
known 9,000, 3 folds, seed 0, no seed spread: ``validate_comparison``), its part attached to
the shipped demo model — then the case verified once (as a run does before its check), then
in the same process, ``--runs`` times each, the median:

- ``taveer_check``: TAVeer's own stability check, ``--resamples`` resamples
  (``decision_stability``: what a TAVeer model's run stores);
- ``check``: the whole check of the comparison model's run (``run_stability``: TAVeer's
  resamples plus the method scoring every resample's rebuilt texts, calibrated), with the
  program's own choice of worker processes (``core/methods/systems/comparison_stability.py``:
  processes when the first resample says the rest would take over 2 s here).

Run ``r`` uses the check's seed ``DEFAULT_SEED + r``: every run rebuilds other texts, so no run
finds an earlier run's texts in a cache (the compression methods keep compressed lengths; the
verification before the runs warms what a real run's check also finds warm). Reported per
method: the medians, every run, ``ratio`` = check / taveer_check, and the seconds per resample
of the method's part, (check − taveer_check) / resamples. One JSON line per method:

    taskset -c 0,1 .venv/bin/python benchmarks/comparison_stability.py [--runs 3] \\
        [--methods coav im …] [--resamples 200] [--trials 120] [--tree /tmp/base]

``lambdag`` and ``fusion`` may be named too (issue 34's table): their model is the demo
population's own validation with that method stated (``validate``, the same settings; the
fusion combines ``--fuse``, default TAVeer and COAV), and the check is that model's run's.

``check_cpu_s`` is the CPU time of the check (this process and its worker processes, which
have ended when it returns): what the check costs on a machine shared with other work, where
wall times say more about the others. ``--tree`` runs another checkout's code (e.g. a baseline
worktree) with this script, so two trees are measured the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]) if "--tree" in sys.argv else REPO
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(TREE))
sys.path.insert(0, str(TREE / "tests"))  # the demo population's folder

from timing import median_seconds  # noqa: E402

from taveer_desktop import paths  # noqa: E402
from taveer_desktop.core.ground.registry import COMPARISON_IDS, method_info  # noqa: E402
from taveer_desktop.core.methods.systems.catalogue import available  # noqa: E402
from taveer_desktop.core.methods.systems.comparison_validation import validate_comparison  # noqa: E402
from taveer_desktop.core.methods.taveer.model import parse_model  # noqa: E402
from taveer_desktop.core.methods.taveer.stability import DEFAULT_SEED, decision_stability  # noqa: E402
from taveer_desktop.core.stability.stated_stability import run_stability  # noqa: E402
from taveer_desktop.core.trials.folds import calibration_ranges  # noqa: E402
from taveer_desktop.core.trials.population import population_from_texts  # noqa: E402
from taveer_desktop.core.validation.validation import (  # noqa: E402
    ValidationSettings,
    build_trials,
    validate,
)
from taveer_desktop.core.verification.method_verify import verify_with_method  # noqa: E402
from taveer_desktop.store.population_folder import read_population_folder  # noqa: E402
from tests.core.validation_fixtures import make_demo_population  # noqa: E402


def _population(root: Path):
    folder = make_demo_population(root)
    files = read_population_folder(folder)
    return population_from_texts(files.texts(), "demo", str(folder), "demo population")


def _case() -> tuple[list[str], str]:
    demo = paths.resource("demo")
    case = json.loads((demo / "demo_case.json").read_text(encoding="utf-8"))["cases"][0]
    known = [(demo / name).read_text(encoding="utf-8") for name in case["known"]]
    return known, (demo / case["questioned"]).read_text(encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--trials", type=int, default=120)
    parser.add_argument("--methods", nargs="+", default=list(COMPARISON_IDS))
    parser.add_argument("--tree", default=str(REPO), help="the checkout whose code runs")
    parser.add_argument("--fuse", nargs="+", default=["taveer", "coav"])
    args = parser.parse_args()
    settings = ValidationSettings(
        questioned_chars=(1500, 4000),
        known_chars=9000,
        folds=3,
        repeats=1,
        max_trials=args.trials,
        seed=0,
    )
    with tempfile.TemporaryDirectory() as tmp:
        population = _population(Path(tmp))
    trials = build_trials(population, settings)
    known, questioned = _case()
    base = parse_model(
        paths.resource("models", "demo-formal-prose.json").read_text(encoding="utf-8"), "demo"
    )
    missing = available()
    for method in args.methods:
        line: dict = {"method": method, "resamples": args.resamples, "runs": args.runs}
        if missing.get(method) is not None:
            print(json.dumps({**line, "unavailable": missing[method]}), flush=True)
            continue
        started = time.perf_counter()
        if method in COMPARISON_IDS:
            validated = validate_comparison(
                method, population, trials, settings, calibration_ranges(settings), spread=False
            )
            model = validated.part.attach(base)
        else:  # LambdaG or the fusion: the population's own model with it stated
            own = replace(settings, method=method, fuse=tuple(args.fuse))
            model = validate(population, own).model
            line["fuse"] = list(args.fuse) if method == "fusion" else None
        result = verify_with_method(model, known, questioned)
        assert result.methods is not None
        stated = result.methods.by_method.get(method, result.log10_lr)
        line["model_seconds"] = round(time.perf_counter() - started, 2)
        line["deterministic"] = method_info(method).deterministic
        taveer, taveer_runs = median_seconds(
            lambda m=model, p=result.prediction: decision_stability(
                m, known, questioned, p, args.resamples
            ),
            args.runs,
        )
        found: list = []
        seeds = iter(range(DEFAULT_SEED, DEFAULT_SEED + args.runs))
        cpu_runs: list[float] = []

        def check(m=model, p=result.prediction, s=stated, f=found, n=seeds, c=cpu_runs) -> None:
            before = _cpu()
            f.append(run_stability(m, known, questioned, p, s, args.resamples, next(n)))
            c.append(_cpu() - before)

        whole, whole_runs = median_seconds(check, args.runs)
        ratio = found[-1].ratio
        line.update(
            taveer_check_s=round(taveer, 3),
            taveer_check_runs_s=[round(t, 3) for t in taveer_runs],
            check_s=round(whole, 3),
            check_runs_s=[round(t, 3) for t in whole_runs],
            check_cpu_s=round(statistics.median(cpu_runs), 3),
            check_cpu_runs_s=[round(t, 3) for t in cpu_runs],
            tree=str(TREE),
            ratio=round(whole / taveer, 1),
            per_resample_s=round((whole - taveer) / args.resamples, 4),
            stated_log10_lr=None if stated is None else round(stated, 4),
            last_check=None if ratio is None else ratio.to_dict(),
            load_average=[round(x, 2) for x in os.getloadavg()],
            cpus=os.cpu_count(),
        )
        print(json.dumps(line), flush=True)
    return 0


def _cpu() -> float:
    """CPU seconds of this process and of its ended (waited-for) child processes."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


if __name__ == "__main__":
    raise SystemExit(main())
