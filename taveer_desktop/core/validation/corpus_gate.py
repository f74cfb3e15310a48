"""The fitness-for-purpose gate over every case of a corpus (``taveer evaluate``).

Each case goes through the same rules as one verification (``core/gate/gate.py``), with the same
validation basis for all (``core/gate/validation_basis.py``; None: no record was given, and every
case is investigative at most). ``gate_corpus`` gives each case's kind and the rules it broke,
and a ``GateSummary``: how many cases are evaluative, investigative or without a conclusion,
how many lie outside the validated conditions, how many broke each rule, and the Cllr over the
cases that keep an evaluative conclusion. ``case_lines`` turns them into the ``cases`` list of
``evaluate --json --cases``.

Every case's conclusion then passes the repeat check a verification passes, the same step
(``core/verification/repeat_check.repeat_checked``): where the validation's repeats, each fitted
alone, do not all point the case's ratio the same way as the final model, the case is stated as
LR 1 with the ``repeats_disagree`` rule (``CorpusVerdict.withdrawn``), and the Cllr over the
evaluative cases is that of the ratios stated so. The check asks the model's stated method, with
the case's raw score of every method the stated ratio is made of, and holds the repeats to the
stated method's ratio of the case (``checked_log10_lr``), as in a verification.

For a model of another method, every method it states or fuses other than TAVeer has scored
each case (``CorpusDistances.scored``), and the gate holds each raw score to that method's
validated range as ``verify`` does (``gate.raw_range_finding``: outside it, investigative at
most); a method that could not compare a case (its score NaN) gives that case the
cannot-compare finding ``verify`` gives (no conclusion).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from taveer_desktop.core.calibration.calibration import cllr
from taveer_desktop.core.calibration.outcome import ConclusionKind, GateFinding, GateRule
from taveer_desktop.core.calibration.repeat_agreement import RepeatStatus
from taveer_desktop.core.features.features import CATEGORY_IDS
from taveer_desktop.core.gate.gate import assess, conclude, raw_range_finding
from taveer_desktop.core.gate.validation_basis import ValidationBasis
from taveer_desktop.core.ground.registry import method_info
from taveer_desktop.core.methods.method_seam import CaseDistances, RawScore
from taveer_desktop.core.methods.taveer.model_fields import Model
from taveer_desktop.core.methods.taveer.training import CorpusDistances
from taveer_desktop.core.verification.repeat_check import repeat_checked


@dataclass(frozen=True)
class GateSummary:
    """What the fitness-for-purpose gate made of a corpus's cases."""

    cases: int
    evaluative: int
    investigative: int
    no_conclusion: int
    outside_conditions: int
    cllr_evaluative: float | None  # Cllr over the cases that keep an evaluative conclusion
    rules: dict[str, int]  # how many cases broke each rule

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CorpusVerdict:
    """The gate's verdict on every case: its kind, the rules it broke (each rule once), and
    whether its ratio is stated as 1 because the repeats disagree (``withdrawn``)."""

    kinds: tuple[ConclusionKind, ...]
    rules: tuple[tuple[str, ...], ...]
    summary: GateSummary
    withdrawn: np.ndarray  # bool per case

    def stated(self, log10_lr: np.ndarray) -> np.ndarray:
        """The ratios stated: ``log10_lr`` with the withdrawn cases' set to 0 (LR 1)."""
        return np.where(self.withdrawn, 0.0, log10_lr)


def evaluative_cllr(
    log10_lr: np.ndarray, truth: np.ndarray, evaluative: np.ndarray
) -> float | None:
    """Cllr over the cases that keep an evaluative conclusion (None without both kinds)."""
    kept = truth[evaluative]
    if not (kept.any() and (~kept).any()):
        return None
    return cllr(log10_lr[evaluative], kept)


def gate_corpus(
    model: Model,
    data: CorpusDistances,
    log10_lr: np.ndarray | None,
    truth: np.ndarray,
    lexicon_sha256: str,
    raw_ranges: Mapping[str, tuple[float, float] | None] | None = None,
    basis: ValidationBasis | None = None,
    checked_log10_lr: np.ndarray | None = None,
) -> CorpusVerdict:
    """The gate's verdict on every case of ``data`` (a ``CorpusDistances`` with measures);
    ``raw_ranges`` (each scored method's validated range of raw scores, by id) holds each
    method's raw score of every case to its range, as ``verify_with_method`` does (see the
    module); ``basis`` as in a verification (None: investigative); ``checked_log10_lr``: the
    stated method's ratio of every case, which the repeat check holds its repeats to (None:
    ``log10_lr``, TAVeer's)."""
    assert data.measures is not None
    kinds: list[ConclusionKind] = []
    broken: list[tuple[str, ...]] = []
    withdrawn: list[bool] = []
    outside = 0
    rules: dict[str, int] = {}
    raw = data.raw_scores()
    for index, measures in enumerate(data.measures):
        row = data.distances[index]
        distances = {
            c: None if np.isnan(row[j]) else float(row[j]) for j, c in enumerate(CATEGORY_IDS)
        }
        findings = assess(model, measures, distances, lexicon_sha256, basis=basis)
        findings = (*findings, *_method_findings(raw, index, raw_ranges or {}))
        lr = None if log10_lr is None else float(log10_lr[index])
        lengths = (int(data.questioned_chars[index]), int(data.known_chars[index]))
        raws = {m: RawScore(_finite(float(v[index])), lengths) for m, v in raw.items()}
        case_distances = CaseDistances(distances, lengths, lengths[0], raws)
        concluded = conclude(model, findings, lr)
        probe = concluded
        if checked_log10_lr is not None:  # the ratio the stated method gives the case
            probe = replace(concluded, log10_lr=_finite(float(checked_log10_lr[index])))
        conclusion, agreement = repeat_checked(model, probe, case_distances, "the model")
        if agreement.status is not RepeatStatus.DISAGREE:
            conclusion = concluded
        kinds.append(conclusion.kind)
        withdrawn.append(agreement.status is RepeatStatus.DISAGREE)
        outside += any(f.rule is GateRule.VALIDATED_CONDITIONS for f in findings)
        names = tuple(dict.fromkeys(f.rule.value for f in conclusion.findings))
        broken.append(names)
        for rule in names:
            rules[rule] = rules.get(rule, 0) + 1
    evaluative = np.array([k is ConclusionKind.EVALUATIVE for k in kinds], dtype=bool)
    taken = np.array(withdrawn, dtype=bool)
    cllr_evaluative = None
    if log10_lr is not None:
        cllr_evaluative = evaluative_cllr(np.where(taken, 0.0, log10_lr), truth, evaluative)
    summary = GateSummary(
        cases=len(kinds),
        evaluative=int(evaluative.sum()),
        investigative=sum(k is ConclusionKind.INVESTIGATIVE for k in kinds),
        no_conclusion=sum(k is ConclusionKind.NONE for k in kinds),
        outside_conditions=outside,
        cllr_evaluative=cllr_evaluative,
        rules=dict(sorted(rules.items())),
    )
    return CorpusVerdict(tuple(kinds), tuple(broken), summary, taken)


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _method_findings(
    raw: Mapping[str, np.ndarray], index: int, raw_ranges: Mapping[str, tuple[float, float] | None]
) -> list[GateFinding]:
    """The findings on case ``index`` of every scored method: a raw score outside its
    validated range, or none at all (the method could not compare the case)."""
    found = []
    for method, scores in raw.items():
        score = float(scores[index])
        if math.isfinite(score):
            outside = raw_range_finding(method, score, raw_ranges.get(method))
            found += [] if outside is None else [outside]
        else:
            from taveer_desktop.core.methods.systems.comparison_verify import cannot_compare_finding

            reason = "it gave no score for it"
            found.append(cannot_compare_finding(method_info(method).name, reason))
    return found


def case_lines(
    case_ids: list[str],
    truth: np.ndarray,
    kinds: tuple[ConclusionKind, ...],
    rules: tuple[tuple[str, ...], ...],
    log10_lr: np.ndarray | None,
) -> list[dict[str, Any]]:
    """One line per case: id, truth (``Y``/``N``), kind, the stated method's log10 LR (null
    without a conclusion or a calibration) and the rules it broke."""
    lines = []
    for index, case_id in enumerate(case_ids):
        value = None if log10_lr is None else float(log10_lr[index])
        if kinds[index] is ConclusionKind.NONE or value is None or not math.isfinite(value):
            value = None
        lines.append(
            {
                "id": case_id,
                "truth": "Y" if truth[index] else "N",
                "kind": kinds[index].value,
                "log10_lr": None if value is None else round(value, 6),
                "rules": list(rules[index]),
            }
        )
    return lines
