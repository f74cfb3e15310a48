"""The method report's "Seed" row says what LambdaG's stored seed draws (issue 30, item 4): in a
model of format version 2 the validation's trials (a case's samples are seeded by the case), in
an older model the case's samples too."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from taveer_desktop.core.methods.lambdag.lambdag_model import (
    CASE_SEEDED_VERSION,
    MODEL_SEEDED_VERSION,
    LambdaGPart,
)
from taveer_desktop.core.methods.taveer.model import parse_model
from taveer_desktop.presentation.method_report_text import lambdag_pairs

DATA = Path(__file__).resolve().parents[1] / "core" / "data"
OLD_MODEL = DATA / "fused_taveer_lambdag_model.json"  # written before format version 2


def test_the_report_says_what_the_seed_draws():
    part = LambdaGPart.of(parse_model(OLD_MODEL.read_text(encoding="utf-8"), "old"), "old")
    for version, words in (
        (MODEL_SEEDED_VERSION, "the same case and model always give the same λG"),
        (CASE_SEEDED_VERSION, "a case's samples are seeded by the case's own texts"),
    ):
        rows = dict(lambdag_pairs(replace(part, format_version=version), {}, None))
        assert rows["Seed"].startswith(f"{part.seed} (") and words in rows["Seed"]
