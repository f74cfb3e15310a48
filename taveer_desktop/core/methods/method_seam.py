"""What a method brings to the generic code: its seam (one object per registered method).

Generic code (reading a model file, verifying, the stability check, evaluating, validating)
never asks which method it has: it asks the registry (``core/ground/registry.py``) what the
method can do (its ``Capabilities``) and, where the method's behaviour is its own, calls the
method's seam, found by id in ``core/methods/method_registry.py``. Each method's package holds
its seam (``methods/taveer/taveer_seam.py``, ``methods/lambdag/lambdag_seam.py``,
``methods/fusion/fusion_seam.py``, ``methods/systems/comparison_seam.py`` for the ten):

- ``check_part``: check the method's part of a model file as it is read;
- ``components``: the methods the ratio it states is made of (itself; a fusion's: those it
  fuses);
- ``case_ratio`` and ``statement``: its ratio of one case and what a result stating it says
  (``core/verification/method_verify.py`` concludes from it under the gate);
- ``resampled_log10_lr`` and ``stated_resampled``: its ratio in every resample of the stability
  check, and the stated ratio made of its components' columns;
- ``case_scorer``: its raw score of each case of an evaluated corpus;
- ``cross_validate``: its run on a validation's trials (``core/validation/method_runs.py``);
- ``repeat_part``, ``read_repeat_part`` and ``repeat_case_ratio``: its own fit on one repeat of a
  validation's trials alone (kept in the model's ``repeat_models``,
  ``core/methods/taveer/repeat_models.py``; TAVeer's is the repeat's fit itself, every other
  method's is a part of it), that part read back strictly, and its ratio of one case under one
  repeat's fit, from the case's distances, lengths and raw scores (``CaseDistances``) — which a
  verification and an evaluated corpus both have — showing whether the stated ratio's direction
  depends on the validation's seed (``core/verification/repeat_check.py``). LambdaG and the ten
  comparison systems keep one shape, a calibration of their raw score
  (``core/methods/raw_repeat_fit.py``); the fusion keeps its weights, its components their own.

Every model is built on TAVeer's (its thresholds, ensemble, calibration and gate): a
verification starts from TAVeer's result, whose own ratio (``base``) every result keeps
beside the stated one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from taveer_desktop.core.methods.taveer.model_fields import MODEL_FORMAT_VERSION, Model

if TYPE_CHECKING:  # annotations only: the methods' modules load when they are used
    import numpy as np

    from taveer_desktop.core.calibration.calibration import Calibration
    from taveer_desktop.core.calibration.method_findings import LambdaGEvidence
    from taveer_desktop.core.calibration.outcome import GateFinding
    from taveer_desktop.core.features.lexicon import Lexicon
    from taveer_desktop.core.ground.progress import Progress
    from taveer_desktop.core.methods.method_run import MethodRun, RepeatTrials, RunContext
    from taveer_desktop.core.methods.taveer.repeat_models import RepeatFit
    from taveer_desktop.core.methods.taveer.stability import ResampledScores
    from taveer_desktop.core.methods.taveer.verify import VerificationResult

Bounds = tuple[float | None, float | None]


@dataclass(frozen=True)
class Case:
    """The texts of one verified case and how they are read."""

    known: Sequence[str]
    unknown: str
    lexicon: Lexicon
    source: str  # names the model in messages
    explain: bool = False


@dataclass(frozen=True)
class RawScore:
    """One method's raw score of a case (None: it gave none) and the (questioned, known)
    characters its calibration took the score at (None: not known)."""

    value: float | None
    lengths: tuple[int, int] | None


@dataclass(frozen=True)
class CaseDistances:
    """What a verified case, or one case of an evaluated corpus, was measured as: its distance
    in each category (None: the category abstains), its (questioned, known) characters as the
    gate and a length-aware calibration take them (None: not known), and the raw score of every
    method with a score of its own that the stated ratio is made of (LambdaG's λG, a comparison
    system's score), by id."""

    distances: Mapping[str, float | None]
    lengths: tuple[int, int] | None
    questioned_chars: int  # the length whose band bound applies
    raws: Mapping[str, RawScore] = field(default_factory=dict)


@dataclass(frozen=True)
class CaseRatio:
    """One method's ratio of one case: its log10 LR (None: it gives none), the bound that
    applied at the case's length, its gate findings, and what the result keeps of it (λG and
    its order, its evidence in the text, a comparison system's raw score and its reason for
    giving no ratio)."""

    method: str
    log10_lr: float | None
    bounds: Bounds = (None, None)
    findings: tuple[GateFinding, ...] = ()
    lambdag_raw: float | None = None
    lambdag_order: int | None = None
    evidence: LambdaGEvidence | None = None
    raw: float | None = None
    cannot_compare: str | None = None
    score: RawScore | None = None  # its raw score as its calibration took it (None: no own)


@dataclass(frozen=True)
class CaseScorer:
    """A method's raw score of one case (NaN: it cannot compare it; picklable), with the
    calibration and validated raw range its figures need (``evaluation_methods``)."""

    score: Callable[[Sequence[str], str], float]
    calibration: Calibration
    raw_range: tuple[float, float] | None


@dataclass(frozen=True)
class Statement:
    """What a result stating a method's ratio says (``MethodFindings`` once concluded): the
    stated method and its ratio, every method's ratio and bound, the findings its methods add
    to the gate's, and what the result keeps of them (see ``CaseRatio``)."""

    stated: str
    log10_lr: float | None
    by_method: dict[str, float | None]
    bounds: dict[str, Bounds]
    findings: tuple[GateFinding, ...] = ()
    lambdag_raw: float | None = None
    lambdag_order: int | None = None
    evidence: LambdaGEvidence | None = None
    raw: float | None = None
    cannot_compare: str | None = None
    scores: dict[str, RawScore] = field(default_factory=dict)  # each method's own raw score


class MethodSeam:
    """One method's seam (see the module); the defaults are those of a method that states its
    own ratio and has no part of its own to check."""

    scores_cases = True  # False: its score of a corpus's cases is the model's own (TAVeer's)

    def __init__(self, method: str):
        self.id = method

    def check_part(self, model: Model, source: str, stated: str, fused: Sequence[str]) -> None:
        """Refuse the model (``model_checks.refuse``) if its part of this method is not sound;
        ``stated``: the model's stated method, ``fused``: the methods its fusion combines."""

    def fused_methods(self, model: Model, source: str, stated: str) -> tuple[str, ...]:
        """The methods a model's fusion part combines, checked (a fusing method only, where
        it is ``stated`` or its part is present)."""
        return ()

    def components(self, model: Model, source: str) -> tuple[str, ...]:
        """The methods the ratio this method states is made of."""
        return (self.id,)

    def case_ratio(self, model: Model, result: VerificationResult, case: Case) -> CaseRatio:
        """This method's ratio of one case (``result``: TAVeer's verification of it)."""
        raise ValueError(f"{self.id!r} has no ratio of its own")

    def statement(
        self, model: Model, result: VerificationResult, base: CaseRatio, case: Case
    ) -> Statement | None:
        """What the result states: this method's ratio, with ``base`` (TAVeer's own ratio)
        kept beside it (None: ``result`` states it already)."""
        own = self.case_ratio(model, result, case)
        return Statement(
            self.id,
            own.log10_lr,
            {base.method: base.log10_lr, self.id: own.log10_lr},
            {base.method: base.bounds, self.id: own.bounds},
            own.findings,
            own.lambdag_raw,
            own.lambdag_order,
            own.evidence,
            raw=own.raw,
            cannot_compare=own.cannot_compare,
            scores={} if own.score is None else {self.id: own.score},
        )

    def resampled_log10_lr(
        self,
        model: Model,
        resampled: ResampledScores,
        case: Case,
        seed: int,
        progress: Progress,
    ) -> np.ndarray:
        """Its calibrated log10 ratio in every resample of the stability check (NaN: none)."""
        raise ValueError(f"{self.id!r} has no ratio of its own to resample")

    def stated_resampled(
        self, model: Model, columns: dict[str, np.ndarray], source: str, chars: int
    ) -> np.ndarray:
        """The ratio it states in every resample, from its components' columns."""
        (column,) = columns.values()
        return column

    def case_scorer(self, model: Model, lexicon: Lexicon, source: str) -> CaseScorer:
        """Its raw score of every case of an evaluated corpus."""
        raise ValueError(f"{self.id!r} scores no case of its own")

    def cross_validate(self, context: RunContext, runs: dict[str, MethodRun]) -> MethodRun:
        """Its run on a validation's trials (``runs``: those already made, TAVeer's first)."""
        raise ValueError(f"{self.id!r} is not cross-validated on its own")

    def repeat_part(self, repeat: RepeatTrials, runs: dict[str, MethodRun]) -> Any:
        """Its own fit on one repeat's trials alone, to keep beside that repeat's TAVeer fit
        (an object with ``to_dict``; None: it keeps none, or cannot fit that repeat)."""
        return None

    def read_repeat_part(self, data: Any, source: str, where: str) -> Any:
        """Its part of one repeat's fit read back from a model file, every value checked
        (``model_checks.refuse`` naming ``source`` and ``where``; None: it keeps none)."""
        return None

    def repeat_case_ratio(
        self, model: Model, case_distances: CaseDistances, fit: RepeatFit
    ) -> CaseRatio | None:
        """Its ratio of the case under one repeat's own fit (None: the model keeps no fit of
        its own for its repeats, so the check cannot be made for it)."""
        return None


class RawScoreSeam(MethodSeam):
    """A seam whose stated ratio is a calibration of one raw score per case (LambdaG, the ten
    comparison systems): each repeat keeps its own calibration of that score, fitted on the
    repeat's trials (``core/calibration/raw_repeat_fit.py``, one shape for all of them). A
    method gives only how it fits one repeat's calibration (``repeat_calibration``); keeping,
    reading and applying the fit are the same for every such method. The cross-validated raw
    scores are the run's rows under ``<id>_raw``."""

    def repeat_calibration(self, raw: Any, cv_log10_lr: Any, repeat: RepeatTrials) -> Any:
        """The method's calibration fitted on one repeat's trials alone (None: too few)."""
        raise NotImplementedError

    def repeat_part(self, repeat: RepeatTrials, runs: dict[str, MethodRun]) -> Any:
        from taveer_desktop.core.calibration.raw_repeat_fit import RawRepeatFit

        run = runs[self.id]
        found = self.repeat_calibration(run.rows[f"{self.id}_raw"], run.cv_log10_lr, repeat)
        return None if found is None else RawRepeatFit(found)

    def read_repeat_part(self, data: Any, source: str, where: str) -> Any:
        from taveer_desktop.core.calibration.raw_repeat_fit import read_raw_repeat_fit

        return read_raw_repeat_fit(data, source, where, MODEL_FORMAT_VERSION)

    def repeat_case_ratio(
        self, model: Model, case_distances: CaseDistances, fit: RepeatFit
    ) -> CaseRatio | None:
        """The case's ratio under one repeat's own calibration of its raw score; None where
        the repeat keeps no such fit or the case's raw score was not measured."""
        part = fit.parts.get(self.id)
        score = case_distances.raws.get(self.id)
        if part is None or score is None:
            return None
        log10_lr = part.log10_lr(score.value, score.lengths)
        return CaseRatio(self.id, log10_lr, part.bounds(case_distances.questioned_chars))
