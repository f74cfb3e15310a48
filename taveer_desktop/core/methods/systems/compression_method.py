"""What the three compression-based comparison systems (COAV, OCCAV, NNCD) share.

Their one hyperparameter, PPMd's model ``order`` (7, as the seed fixes for all three), checked
the same way; the refusal of a case whose known or questioned text has nothing to compress
(``CannotCompare``, in the same words for each); and the compressed lengths at their order
(``ppmd_compression.lengths_at``). Each system subclasses ``CompressionMethod`` and adds only
its own dissimilarities and score.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from taveer_desktop.core.methods.systems.comparison import CaseTexts, ComparisonMethod
from taveer_desktop.core.methods.systems.ppmd_compression import (
    ORDER,
    CompressedLengths,
    check_order,
    lengths_at,
    require_text,
)


class CompressionMethod(ComparisonMethod):
    """A comparison system that reads texts only through their PPMd compressed lengths."""

    DEFAULTS: ClassVar[Mapping[str, Any]] = {"order": ORDER}

    def check_params(self, params: Mapping[str, Any]) -> None:
        check_order(params, self.info.name)

    def texts(self, case: CaseTexts) -> tuple[str, str]:
        """The known documents joined and the questioned text, refused when either has
        nothing to compress."""
        known, questioned = case.known_joined, case.questioned
        require_text(known, "the known text", self.info.name)
        require_text(questioned, "the questioned text", self.info.name)
        return known, questioned

    def lengths(self) -> CompressedLengths:
        """The compressed lengths at this method's order (remembered per process)."""
        return lengths_at(self.params["order"])
