"""Issue 23's smaller items in the report: exhibit labels fixed per case (K4's file stays "K4"
after K2 is excluded), no raw ISO times or audit codes, and the headline's ELUB sentence for a
TAVeer-only run."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

from taveer_desktop.core.calibration.calibration import Calibration
from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.presentation.audit_text import ISO_TIME, action_text, detail_text
from taveer_desktop.presentation.conclusion_text import (
    AT_LOWER_BOUND,
    AT_UPPER_BOUND,
    bound_sentence,
    headline,
    investigative_lr_sentence,
    lr_bound,
)
from taveer_desktop.report.blocks import KeepTogether, Paragraph, Table
from taveer_desktop.report.content import build_report
from taveer_desktop.report.inputs import gather_inputs
from taveer_desktop.store import KNOWN, ProjectStore
from taveer_desktop.store.case_verification import verify_case

from .conftest import demo_store


def _texts(blocks):
    for block in blocks:
        if isinstance(block, KeepTogether):
            yield from _texts(block.blocks)
        elif isinstance(block, Paragraph):
            yield block.html
        elif isinstance(block, Table):
            for row in block.rows:
                yield from row.cells
                if row.detail:
                    yield row.detail


@pytest.fixture(scope="module")
def excluded_k2(tmp_path_factory):
    """DEMO-001 with its second known document excluded and verified again."""
    project = demo_store(tmp_path_factory.mktemp("exhibits"))
    with ProjectStore.open(project) as store:
        case = store.cases.find("DEMO-001")
        known = store.documents.list_for_case(case.id, KNOWN)
        store.documents.exclude(known[1].id, "belongs to another case")
        verify_case(store, case.id)
        inputs = gather_inputs(store, "DEMO-001")
    return known, inputs


def test_known_labels_stay_with_their_files_after_an_exclusion(excluded_k2):
    known, inputs = excluded_k2
    assert len(known) == 4
    assert [(d.label, d.document.id) for d in inputs.known] == [
        ("K1", known[0].id),
        ("K3", known[2].id),
        ("K4", known[3].id),  # K4's file is still "K4", not "K3"
    ]
    text = " ".join(_texts(build_report(inputs, attached=False).blocks))
    assert "the known documents K1, K3 and K4" in text


def test_the_report_shows_no_raw_iso_time_or_audit_code(excluded_k2):
    _, inputs = excluded_k2
    text = " ".join(_texts(build_report(inputs, attached=False).blocks))
    assert "belongs to another case" in text
    assert not ISO_TIME.search(text), ISO_TIME.search(text)
    for code in ("case_created", "document_added", "document_excluded", "run_stored"):
        assert code not in text
    assert "Case created" in text and "Document excluded" in text
    assert not re.search(r"\b(model|run|case|document) id: ", text)


def test_audit_words():
    assert action_text("case_created") == "Case created"
    assert detail_text("model_id", 3) == "model 3"
    assert detail_text("known_document_ids", [1, 2]) == "known documents 1, 2"
    assert detail_text("similarity", 0.51234) == "similarity: 0.512"


def test_a_checkpoints_certificate_is_shown_by_its_size_not_as_base64():
    """A checkpoint keeps its certificate and signature as base64 (hundreds of characters); the
    audit log and the report's trail name their size instead, and a hex hash stays as it is."""
    der = bytes(range(256)) * 3 + b"xy"  # 770 bytes
    blob = base64.b64encode(der).decode("ascii")
    assert detail_text("certificate", blob) == (
        "certificate: 770 bytes, kept whole in the project (base64)"
    )
    digest = hashlib.sha512(der).hexdigest()  # 128 hex characters: a hash, not a blob
    assert detail_text("certificate_sha512", digest) == f"certificate sha512: {digest}"


def test_a_taveer_ratio_at_its_calibrations_bound_says_so(excluded_k2):
    """ELUB for TAVeer-only runs too: the headline says the ratio is the validation's bound."""
    from dataclasses import replace

    _, inputs = excluded_k2
    result, model = inputs.verification, inputs.model
    value = result.conclusion.log10_lr
    assert value is not None and result.methods is None
    bounded = Calibration(0.0, 1.0, 0.0, min_log10_lr=-abs(value), max_log10_lr=abs(value))
    at = replace(model, calibration=bounded)
    expected = "upper" if value > 0 else "lower"
    assert lr_bound(result, at) == expected
    wider = replace(bounded, min_log10_lr=-abs(value) - 1, max_log10_lr=abs(value) + 1)
    assert lr_bound(result, replace(model, calibration=wider)) is None
    assert bound_sentence("upper") == AT_UPPER_BOUND and bound_sentence("lower") == AT_LOWER_BOUND
    content = build_report(replace(inputs, model=at), attached=False)
    text = " ".join(_texts(content.blocks)).replace("&#x27;", "'")
    if result.conclusion.kind.value == "evaluative":
        sentence = headline(result.conclusion, inputs.scale_id, bound=expected)
        assert sentence.endswith(bound_sentence(expected)) and bound_sentence(expected) in text
    else:  # the demo model leaves this case investigative: its ratio says it too
        sentence = investigative_lr_sentence(result.conclusion, expected)
        assert sentence is not None and "(at its validation's bound, the ELUB)" in sentence
        assert sentence in text
    evaluative = replace(result.conclusion, kind=ConclusionKind.EVALUATIVE)
    assert headline(evaluative, inputs.scale_id, bound=expected).endswith(bound_sentence(expected))
    assert bound_sentence(None) == ""
