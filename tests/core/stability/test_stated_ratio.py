"""The stated ratio a stability check resamples, read from a run's typed findings
(``core/stability/stated_stability.stated_log10_lr``)."""

from __future__ import annotations

from taveer_desktop.core.calibration.method_findings import MethodFindings
from taveer_desktop.core.stability.stated_stability import stated_log10_lr


def test_the_stated_ratio_comes_from_the_typed_findings():
    assert stated_log10_lr(None) is None  # a TAVeer model's run: no other method's findings
    fused = MethodFindings("fusion", {"taveer": 0.5, "lambdag": 1.25, "fusion": 0.875})
    assert stated_log10_lr(fused) == 0.875
    assert stated_log10_lr(MethodFindings("lambdag", {"lambdag": None})) is None  # none stated
    # TAVeer's ratio is a function of its score: not resampled as a ratio
    assert stated_log10_lr(MethodFindings("taveer", {"taveer": 0.5})) is None
