"""The fusion's seam (``core/methods/method_seam.py``).

Its part of a model file is ``fusion_model.fusion_of``'s (the fused methods in column order and
their weights). Its ratio of a case: every fused method scores the case with its own seam (each
with its own findings: a raw score outside its validated range, a comparison system that cannot
compare the case — then the fusion gives no ratio), and the fusion combines their log10 LRs in
``fusion.methods`` order. In the stability check its stated ratio is the fusion of its
components' resampled columns; its run on a validation's trials is
``fusion_validation.validate_fusion`` of the fused methods' held-out ratios, and its final model
carries every fused method's part (``attach_fusion``). Each repeat of the validation keeps its own
fusion (``fusion_validation.repeat_fusion``, ``fusion_model.RepeatFusion``) beside every fused
method's own fit of that repeat: under it a case's ratio is the repeat's fusion of the fused
methods' ratios under their repeat fits (``repeat_case_ratio``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from taveer_desktop.core.calibration.length_bands import bound_at
from taveer_desktop.core.ground.registry import MethodId, method_info, method_name
from taveer_desktop.core.methods.fusion.fusion import Fusion
from taveer_desktop.core.methods.fusion.fusion_model import (
    RepeatFusion,
    fusion_of,
    read_repeat_fusion,
)
from taveer_desktop.core.methods.method_seam import (
    Case,
    CaseDistances,
    CaseRatio,
    MethodSeam,
    RawScore,
    Statement,
)
from taveer_desktop.core.methods.taveer.model_fields import Model

if TYPE_CHECKING:
    from taveer_desktop.core.calibration.method_findings import LambdaGEvidence
    from taveer_desktop.core.calibration.outcome import GateFinding
    from taveer_desktop.core.methods.method_run import MethodRun, RepeatTrials, RunContext
    from taveer_desktop.core.methods.taveer.repeat_models import RepeatFit
    from taveer_desktop.core.methods.taveer.verify import VerificationResult


def attach_fusion(model: Model, fusion: Fusion, parts: list[Any]) -> Model:
    """The model stating the fusion's ratio: its fusion, LambdaG's part if it fuses LambdaG,
    and every fused comparison system's part in ``"comparisons"`` (``comparison_model``);
    TAVeer's part is the model itself (``parts`` holds None for it)."""
    from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart
    from taveer_desktop.core.methods.systems.comparison_model import (
        ComparisonPart,
        comparisons_block,
    )

    extra = {**model.extra, "method": MethodId.FUSION.value, "fusion": fusion.to_dict()}
    comparisons = [p for p in parts if isinstance(p, ComparisonPart)]
    for part in parts:
        if isinstance(part, LambdaGPart):
            extra[MethodId.LAMBDAG.value] = part.to_dict()
    if comparisons:
        extra["comparisons"] = comparisons_block(comparisons, "the fused model")
    return replace(model, extra=extra)


class FusionSeam(MethodSeam):
    """The fusion's seam (see the module); ``seam_of`` finds each fused method's seam."""

    def __init__(self, method: str, seam_of: Callable[[str], MethodSeam]):
        super().__init__(method)
        self.seam_of = seam_of

    def fused_methods(self, model: Model, source: str, stated: str) -> tuple[str, ...]:
        if stated == self.id or self.id in model.extra:
            return fusion_of(model, source).methods
        return ()

    def components(self, model: Model, source: str) -> tuple[str, ...]:
        return fusion_of(model, source).methods

    def statement(
        self, model: Model, result: VerificationResult, base: CaseRatio, case: Case
    ) -> Statement | None:
        """The fused ratio (see the module); a method that gives no ratio (TAVeer without
        enough text, a comparison system that cannot compare the case) leaves the fusion
        without one."""
        fusion = fusion_of(model, case.source)
        chars = len(case.unknown)  # each ratio's bound at this length
        by_method: dict[str, float | None] = {base.method: base.log10_lr}
        bounds = {base.method: base.bounds}
        found: list[GateFinding] = []
        scores: dict[str, RawScore] = {}
        lambdag_raw = order = cannot = None
        evidence: LambdaGEvidence | None = None
        # the methods with a part of their own, then the comparison systems, in fused order
        others = [m for m in fusion.methods if m != base.method]
        others.sort(key=lambda m: method_info(m).comparison)
        for method in others:
            ratio = self.seam_of(method).case_ratio(model, result, case)
            by_method[method] = ratio.log10_lr
            bounds[method] = ratio.bounds
            found += ratio.findings
            if ratio.score is not None:
                scores[method] = ratio.score
            if ratio.lambdag_order is not None:
                lambdag_raw, order = ratio.lambdag_raw, ratio.lambdag_order
                evidence = ratio.evidence
            cannot = cannot or ratio.cannot_compare
        columns = [by_method.get(m) for m in fusion.methods]
        stated = None
        if all(v is not None for v in columns):
            row = np.array([[float(v) for v in columns if v is not None]])
            stated = float(fusion.log10_lr(row, chars)[0])
        by_method[self.id] = stated
        bounds[self.id] = bound_at(fusion.bands, chars, fusion.min_log10_lr, fusion.max_log10_lr)
        return Statement(
            self.id,
            stated,
            by_method,
            bounds,
            tuple(found),
            lambdag_raw,
            order,
            evidence,
            cannot_compare=cannot,
            scores=scores,
        )

    def stated_resampled(
        self, model: Model, columns: dict[str, np.ndarray], source: str, chars: int
    ) -> np.ndarray:
        fusion = fusion_of(model, source)
        matrix = np.column_stack([columns[m] for m in fusion.methods])
        fused = fusion.log10_lr(matrix, chars)
        return np.asarray(fused, dtype=float).reshape(-1)

    def cross_validate(self, context: RunContext, runs: dict[str, MethodRun]) -> MethodRun:
        from taveer_desktop.core.methods.fusion.fusion_validation import validate_fusion
        from taveer_desktop.core.methods.method_run import MethodRun

        fused = tuple(context.settings.fuse)
        found = validate_fusion(
            fused, {m: runs[m].cv_log10_lr for m in fused}, context.trials, context.settings
        )
        fusion = found.fusion
        rows: dict[str, np.ndarray] = {}
        for m in fused:
            rows.update(runs[m].rows)
        return MethodRun(
            self.id,
            found.cv_log10_lr,
            sum(runs[m].seconds_per_trial for m in fused),
            lambda model: attach_fusion(model, fusion, [runs[m].part for m in fused]),
            (fusion.min_log10_lr, fusion.max_log10_lr),
            reasons={
                f"{method_name(m)} could not compare the trial": n
                for m, n in found.left_out.items()
                if n
            },
            summary=found.summary(),
            rows=rows,
            part=fusion,
        )

    def repeat_part(self, repeat: RepeatTrials, runs: dict[str, MethodRun]) -> Any:
        from taveer_desktop.core.methods.fusion.fusion_validation import repeat_fusion

        run = runs[self.id]
        methods = run.part.methods  # the final fusion's, in column order
        columns = {m: runs[m].cv_log10_lr for m in methods}
        found = repeat_fusion(
            methods, columns, run.cv_log10_lr, repeat.trials, repeat.rows, repeat.settings
        )
        return None if found is None else RepeatFusion(found)

    def read_repeat_part(self, data: Any, source: str, where: str) -> Any:
        return read_repeat_fusion(data, source, where)

    def repeat_case_ratio(
        self, model: Model, case_distances: CaseDistances, fit: RepeatFit
    ) -> CaseRatio | None:
        """The repeat's fusion of its fused methods' ratios under their own repeat fits (None:
        the repeat keeps no fusion, or a fused method keeps no fit of its own)."""
        part = fit.parts.get(self.id)
        if part is None:
            return None
        fusion = part.fusion
        chars = case_distances.questioned_chars
        columns = []
        for method in fusion.methods:
            ratio = self.seam_of(method).repeat_case_ratio(model, case_distances, fit)
            if ratio is None:
                return None
            columns.append(ratio.log10_lr)
        bounds = bound_at(fusion.bands, chars, fusion.min_log10_lr, fusion.max_log10_lr)
        if any(v is None for v in columns):
            return CaseRatio(self.id, None, bounds)
        row = np.array([[float(v) for v in columns if v is not None]])
        return CaseRatio(self.id, float(fusion.log10_lr(row, chars)[0]), bounds)
