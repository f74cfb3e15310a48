"""The ``--evidence`` mode of ``benchmarks/seed_decision_benchmark.py`` (issue 30, item 4): what
the repeat check costs in evidence over a shared corpus's test split, and how many test cases
change direction with the seed before and after it, for any stated method.

The population is CORPUS's train split, validated over that corpus's declared range with each
seed and no acceptance criterion (``--method``: TAVeer, LambdaG, a comparison system, or the
fusion of ``--fuse``); the test split is evaluated with the model and its record (``taveer
evaluate``, which passes every case through the repeat check as ``verify`` does). Over the test
cases that state a ratio, and over those no rule but the missing criteria keeps from being
evaluative: Cllr and AUC of the final model's ratios (before) and of the ratios stated (after:
LR 1 where the repeats disagree), the share stated as LR 1, how many withdrawn directions had
pointed the right and the wrong way, and how many cases point towards Hp under one seed and
towards Hd under another (before and after). One JSON line a seed, then the seeds pooled.

A LambdaG model (or a fusion with LambdaG) of format version 2 draws a case's reference samples
seeded by the case (``LambdaGPart.sample_seed``); each seed's model is then also evaluated as a
version 1 model (samples seeded by the model's seed, as before issue 30 item 4) — the same
validation, so the two differ in the case's λG alone — and every figure is given for both
(``"sampling": "case"`` / ``"model"``). With ``keep``, each seed's model and record are kept
there and a later run reuses them instead of validating again.
"""

from __future__ import annotations

import json
import os
import resource
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import taveer_desktop  # noqa: F401  (before numpy: it keeps BLAS to one thread, see its docstring)

# isort: split
import numpy as np

from taveer_desktop.core.calibration.calibration import cllr
from taveer_desktop.core.calibration.outcome import RULE_CEILING, ConclusionKind, GateRule
from taveer_desktop.core.calibration.score_measures import roc_auc
from taveer_desktop.core.ground.registry import MethodId
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.methods.lambdag.lambdag_model import CASE_SEEDED_VERSION
from taveer_desktop.core.methods.method_registry import SEAMS
from taveer_desktop.core.methods.taveer.model import parse_model
from taveer_desktop.core.methods.taveer.model_fields import Model
from taveer_desktop.core.methods.taveer.repeat_models import REPEAT_MODELS_KEY
from taveer_desktop.core.trials.population import population_from_corpus
from taveer_desktop.core.validation import validation as validation_module
from taveer_desktop.core.validation.evaluation import evaluate
from taveer_desktop.core.validation.record_basis import read_record_file
from taveer_desktop.core.validation.validation import (
    AcceptanceCriteria,
    ValidationSettings,
    save_record,
    validate,
)


def evidence_figures(before: np.ndarray, after: np.ndarray, truth: np.ndarray) -> dict[str, Any]:
    """Cllr and AUC before and after, the share stated as LR 1 and the withdrawn directions."""
    withdrawn = (after == 0) & (before != 0)
    right = withdrawn & ((before > 0) == truth)
    both = truth.any() and (~truth).any()
    return {
        "cases": len(truth),
        "cllr_before": round(cllr(before, truth), 4) if both else None,
        "cllr_after": round(cllr(after, truth), 4) if both else None,
        "auc_before": round(roc_auc(before, truth), 4) if both else None,
        "auc_after": round(roc_auc(after, truth), 4) if both else None,
        "stated_lr_1": int(withdrawn.sum()),
        "withdrawn_right_way": int(right.sum()),
        "withdrawn_wrong_way": int((withdrawn & ~right).sum()),
        "kept_right_way": int((~withdrawn & ((before > 0) == truth) & (before != 0)).sum()),
        "kept_wrong_way": int((~withdrawn & ((before > 0) != truth) & (before != 0)).sum()),
    }


def _size(data: dict[str, Any]) -> int:
    return len((json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))


def model_sizes(model: Any) -> tuple[int, int, int]:
    """The model file's bytes with its repeat fits, without them (the file before the repeat
    fits), and with TAVeer's fits alone (the file before every method kept its own)."""
    data = model.to_dict()
    block = data.pop(REPEAT_MODELS_KEY, None)
    without = _size(data)
    if block is not None:
        fits = [{k: v for k, v in fit.items() if k != "parts"} for fit in block["fits"]]
        data[REPEAT_MODELS_KEY] = {"format_version": 1, "fits": fits}
    return len(model.to_json().encode("utf-8")), without, _size(data)


def timing_the_parts(part_seconds: list[float]) -> Callable[[], None]:
    """Time every method's own repeat fit (``MethodSeam.repeat_part``, the part the repeat-fit
    step gained for methods other than TAVeer) into ``part_seconds``; returns the undoing."""
    seams = list(SEAMS.values())

    def timed(seam: Any) -> Callable[..., Any]:
        own = seam.repeat_part

        def part(*args: Any, **kwargs: Any) -> Any:
            begun = time.perf_counter()
            try:
                return own(*args, **kwargs)
            finally:
                part_seconds.append(time.perf_counter() - begun)

        return part

    for seam in seams:
        seam.repeat_part = timed(seam)

    def undo() -> None:
        for seam in seams:
            del seam.repeat_part  # the class's own again

    return undo


def validate_timing_the_step(
    population: Any,
    settings: ValidationSettings,
    step_seconds: list[float],
    part_seconds: list[float] | None = None,
) -> Any:
    """The validation without acceptance criteria, the repeat-fit step's own seconds added to
    ``step_seconds`` (and every method's own repeat fits' to ``part_seconds``)."""
    step = validation_module.with_repeat_models
    undo = timing_the_parts(part_seconds) if part_seconds is not None else (lambda: None)

    def timed_step(*args: Any, **kwargs: Any) -> Any:
        begun = time.perf_counter()
        try:
            return step(*args, **kwargs)
        finally:
            step_seconds.append(time.perf_counter() - begun)

    validation_module.with_repeat_models = timed_step  # type: ignore[assignment]
    try:
        return validate(population, replace(settings, criteria=AcceptanceCriteria()))
    finally:
        validation_module.with_repeat_models = step  # type: ignore[assignment]
        undo()


def _direction(value: float) -> str:
    return "Hp" if value > 0 else "Hd" if value < 0 else "none"


def changing(directions: dict[str, set[str]]) -> int:
    """How many cases point towards Hp under one seed and towards Hd under another."""
    return sum({"Hp", "Hd"} <= found for found in directions.values())


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished worker processes (user + system)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def model_seeded(model: Model) -> Model | None:
    """The model with its LambdaG part of version 1 (a case's samples seeded by the model's
    seed, as before issue 30 item 4); None when it carries no version 2 part."""
    part = model.extra.get(MethodId.LAMBDAG.value)
    if not isinstance(part, dict) or part.get("format_version") != CASE_SEEDED_VERSION:
        return None
    older = {k: v for k, v in part.items() if k != "format_version"}
    return replace(model, extra={**model.extra, MethodId.LAMBDAG.value: older})


def judged_cllr(record: dict[str, Any]) -> float:
    """The validation's judged Cllr (the worse of its interval's upper end and its worst
    repeat), which an acceptance criterion on Cllr is held to."""
    criteria = AcceptanceCriteria(max_cllr=1.0)
    return round(criteria.judged_values(record["intervals"], record["repeats"])["cllr"], 4)


def validated(
    population: Any, settings: ValidationSettings, seed: int, keep: Path | None
) -> tuple[Model, Any, dict[str, Any], dict[str, Any]]:
    """(model, basis, record, timing) of one seed's validation, kept in (or read back from)
    ``keep`` when given."""
    model_path = keep / f"seed{seed}.model.json" if keep else None
    record_path = keep / f"seed{seed}.record.json" if keep else None
    if model_path and record_path and model_path.exists() and record_path.exists():
        model = parse_model(model_path.read_text(encoding="utf-8"), str(model_path))
        record = json.loads(record_path.read_text(encoding="utf-8"))
        return model, read_record_file(record_path), record, {"reused": str(keep)}
    started, step_seconds, part_seconds = time.perf_counter(), [], []
    cpu = cpu_seconds()
    result = validate_timing_the_step(population, settings, step_seconds, part_seconds)
    timing = {
        "validation_seconds": round(time.perf_counter() - started, 1),
        "validation_cpu_seconds": round(cpu_seconds() - cpu, 1),
        "repeat_fit_step_seconds": round(sum(step_seconds), 3),
        "own_repeat_fits_seconds": round(sum(part_seconds), 3),  # of the methods but TAVeer
    }
    model = parse_model(result.model.to_json(), "model")
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "record.json"
        save_record(result.record, path)
        basis = read_record_file(path)
    if model_path and record_path:
        keep.mkdir(parents=True, exist_ok=True)  # type: ignore[union-attr]
        model_path.write_text(result.model.to_json(), encoding="utf-8")
        save_record(result.record, record_path)
    return model, basis, result.record, timing


def evidence(
    shared: Path,
    corpus: str,
    seeds: list[int],
    settings_of: Callable[[int], ValidationSettings],
    keep: Path | None = None,
) -> None:
    """The check's cost in evidence over a corpus's test split (see the module);
    ``settings_of(seed)``: the validation's settings (its acceptance criteria are dropped)."""
    root = shared / "corpora" / corpus
    population = population_from_corpus(open_corpus(root / "train"))
    test = open_corpus(root / "test")
    tally: dict[str, _Tally] = {}
    for seed in args_seeds(seeds):
        settings = settings_of(seed)
        # no acceptance criterion; the cases counted as evaluative are those no other rule keeps
        # from an evaluative conclusion (``evaluative_but_for_criteria``)
        model, basis, record, timing = validated(population, settings, seed, keep)
        older = model_seeded(model)
        variants = {"as validated": model} if older is None else {"case": model, "model": older}
        for sampling, variant in variants.items():
            started, cpu = time.perf_counter(), cpu_seconds()
            # the record validated the version 2 file; it holds for the version 1 one alike
            found = evaluate(variant, test, basis=replace(basis, model_sha256=variant.sha256))
            evaluate_cpu = round(cpu_seconds() - cpu, 1)
            line = tally.setdefault(sampling, _Tally()).add(found)
            line = {
                "corpus": corpus,
                "method": settings.method,
                "seed": seed,
                "sampling": sampling,
                "repeats": record["protocol"]["repeats"],
                "validation_cllr": record["figures"]["cllr"],
                "judged_cllr": judged_cllr(record),
                **timing,
                "evaluate_seconds": round(time.perf_counter() - started, 1),
                "evaluate_cpu_seconds": evaluate_cpu,
                "model_bytes": dict(
                    zip(("all_fits", "no_fits", "taveer_fits"), model_sizes(model), strict=True)
                ),
                **line,
                "load_average": round(os.getloadavg()[0], 2),
            }
            print(json.dumps(line), flush=True)
    for sampling, pooled in tally.items():
        print(
            json.dumps(
                {
                    "corpus": corpus,
                    "method": settings_of(0).method,
                    "sampling": sampling,
                    "pooled_seeds": seeds,
                    **pooled.summary(),
                }
            ),
            flush=True,
        )


class _Tally:
    """One sampling's evaluations over the seeds, pooled."""

    def __init__(self) -> None:
        self.pooled: dict[str, list[np.ndarray]] = {
            "before": [],
            "after": [],
            "truth": [],
            "eval": [],
        }
        self.before_ways: dict[str, set[str]] = {}
        self.after_ways: dict[str, set[str]] = {}

    def add(self, found: Any) -> dict[str, Any]:
        """Pool one evaluation; its own figures."""
        pooled, before_ways, after_ways = self.pooled, self.before_ways, self.after_ways
        assert found.log10_lr is not None and found.stated_log10_lr is not None
        stated = np.array([k is not ConclusionKind.NONE for k in found.kinds], dtype=bool)
        for index in np.flatnonzero(stated):
            case = found.case_ids[index]
            before_ways.setdefault(case, set()).add(_direction(found.log10_lr[index]))
            after_ways.setdefault(case, set()).add(_direction(found.stated_log10_lr[index]))
        evaluative = evaluative_but_for_criteria(found.case_rules)
        before, after, truth = found.log10_lr[stated], found.stated_log10_lr[stated], found.truth
        pooled["before"].append(before)
        pooled["after"].append(after)
        pooled["truth"].append(truth[stated])
        pooled["eval"].append(evaluative[stated])
        raw, n = found.lambdag_raw, len(found.case_ids)
        return {
            "test_cases": len(found.case_ids),
            "all": evidence_figures(before, after, truth[stated]),
            "evaluative": evidence_figures(
                found.log10_lr[evaluative], found.stated_log10_lr[evaluative], truth[evaluative]
            ),
            "gate_rules": found.gate.rules if found.gate else None,
            "directions": {  # each case's (before, after) direction, to pool runs of other seeds
                found.case_ids[i]: [
                    _direction(found.log10_lr[i]),
                    _direction(found.stated_log10_lr[i]),
                ]
                for i in np.flatnonzero(stated)
            },
            "log10_lr": {found.case_ids[i]: round(float(found.log10_lr[i]), 4) for i in range(n)},
            "lambdag_raw": None
            if raw is None
            else {found.case_ids[i]: round(float(raw[i]), 4) for i in range(n)},
        }

    def summary(self) -> dict[str, Any]:
        """The seeds pooled: figures, and the cases changing direction before and after."""
        pooled = self.pooled
        before, after = np.concatenate(pooled["before"]), np.concatenate(pooled["after"])
        truth, evaluative = np.concatenate(pooled["truth"]), np.concatenate(pooled["eval"])
        return {
            "all": evidence_figures(before, after, truth),
            "evaluative": evidence_figures(
                before[evaluative], after[evaluative], truth[evaluative]
            ),
            "cases_with_a_ratio": len(self.before_ways),
            "cases_changing_direction_before": changing(self.before_ways),
            "cases_changing_direction_after": changing(self.after_ways),
        }


def evaluative_but_for_criteria(case_rules: tuple[tuple[str, ...], ...]) -> np.ndarray:
    """The cases whose conclusion would be evaluative had the validation met acceptance
    criteria set before it: no rule but ``validation_not_met`` caps them (on these corpora no
    criterion a laboratory would set is met, so this is the only way to count them)."""
    kept = []
    for rules in case_rules:
        ceilings = [RULE_CEILING[GateRule(r)] for r in rules if r != GateRule.VALIDATION_NOT_MET]
        kept.append(all(c is ConclusionKind.EVALUATIVE for c in ceilings))
    return np.array(kept, dtype=bool)


def args_seeds(seeds: list[int]) -> list[int]:
    return seeds or list(range(5))
