"""Everything a report is made from, read out of the project store (pure, no Qt).

``gather_inputs`` picks the run (the one asked for, or the case's latest), reads its stored
result (fingerprint checked by the store), the model used, every document of the run with its
text (each re-hashed by the store as it is read), the case's audit trail and the integrity
check done just before, the stability check stored with the run (the latest, if any) and the
documents the examiner excluded from the case. It also counts each ensemble category's
features in every single document (the run's result holds only the questioned text and the
combined profile) and finds excerpts of the top features in the questioned text. For a run of a
LambdaG or fused model it places LambdaG's evidence beside TAVeer's lean of each sentence
(``core/sentence_agreement``) on the questioned document's prepared text. Nothing here writes
to the store.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from taveer_desktop import PROGRAM_NAME, __version__
from taveer_desktop.core.calibration.method_findings import LambdaGEvidence
from taveer_desktop.core.calibration.verbal_scales import DEFAULT_SCALE
from taveer_desktop.core.features.feature_stream import prepare_text
from taveer_desktop.core.features.features import extract_features
from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.core.methods.taveer.model import Model
from taveer_desktop.core.methods.taveer.sentence_agreement import SentenceLeaning, sentence_leanings
from taveer_desktop.core.methods.taveer.verify import VerificationResult
from taveer_desktop.core.validation.record_reader import ValidationRecord, read_validation_record
from taveer_desktop.core.verification.result_reader import read_result
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.presentation.exhibit_labels import exhibit_labels
from taveer_desktop.presentation.model_text import STATED_BY_FILE
from taveer_desktop.report.excerpts import Excerpt, find_excerpts
from taveer_desktop.report.validation_attempts import CaseValidationFacts, case_validation_facts
from taveer_desktop.store import (
    AuditEntry,
    Case,
    Document,
    IntegrityReport,
    ProjectStore,
    StoredModel,
    VerificationRun,
)
from taveer_desktop.store.records import StabilityCheck

TOP_FEATURES = 8  # features per list shown in tables, labelled in charts, searched for excerpts
EXCERPTS_PER_FEATURE = 2


class ReportError(TaveerError):
    """A report cannot be made as asked (no such run, case without runs, unwritable file)."""


@dataclass(frozen=True)
class EvidenceDocument:
    """One document of the run, its label in the report (Q, K1, K2 …) and feature counts."""

    label: str
    document: Document
    counts: dict[str, dict[str, int]] = field(compare=False)


@dataclass(frozen=True)
class MethodEvidence:
    """LambdaG's evidence in the questioned text with TAVeer's lean of each sentence; the spans
    point into ``prepared``, the questioned document's prepared text."""

    prepared: str
    evidence: LambdaGEvidence
    leanings: tuple[SentenceLeaning, ...]


@dataclass(frozen=True)
class ReportInputs:
    """The facts one report states; built by ``gather_inputs`` (or by hand in tests)."""

    case: Case
    run: VerificationRun
    result: dict[str, Any] = field(compare=False)
    stored_model: StoredModel
    model: Model
    documents: tuple[EvidenceDocument, ...]
    integrity: IntegrityReport
    audit: tuple[AuditEntry, ...]
    audit_head: AuditEntry | None
    excerpts: dict[tuple[str, str], list[Excerpt]] = field(compare=False)
    lexicon_sha256: str
    generated: datetime
    report_id: str
    software: str = f"{PROGRAM_NAME} {__version__}"
    evaluations: dict[str, Any] = field(default_factory=dict, compare=False)
    evaluation_source: str | None = None
    scale_id: str = DEFAULT_SCALE
    stability: StabilityCheck | None = field(default=None, compare=False)
    excluded: tuple[Document, ...] = ()  # documents of the case the examiner excluded
    # the summary of the validation that produced the run's model (store version 4), the
    # stored record's summary or the one in the model file; None: the model was not validated
    validation: ValidationRecord | None = field(default=None, compare=False)
    validation_source: str | None = None
    # a LambdaG or fused model's run stored with LambdaG's evidence (None otherwise)
    method_evidence: MethodEvidence | None = field(default=None, compare=False)
    read: VerificationResult | None = field(default=None, compare=False, repr=False)
    # every validation attempt of the case, the basis and the fit check (None: not gathered)
    validation_facts: CaseValidationFacts | None = field(default=None, compare=False)

    @cached_property
    def verification(self) -> VerificationResult:
        """The run's result read by the one typed reader (classification, conclusion …);
        ``read`` when the gathering read it already."""
        return self.read if self.read is not None else read_result(self.result)

    @property
    def questioned(self) -> EvidenceDocument:
        return self.documents[0]

    @property
    def known(self) -> tuple[EvidenceDocument, ...]:
        return self.documents[1:]


def new_report_id(case: Case, run: VerificationRun, when: datetime) -> str:
    """An identifier to quote the report by: time, run and a random suffix."""
    stamp = when.astimezone(UTC).strftime("%Y%m%d-%H%M%S")
    return f"TAVR-{stamp}-R{run.id}-{uuid.uuid4().hex[:6].upper()}"


def choose_run(store: ProjectStore, case: Case, run_id: int | None) -> VerificationRun:
    runs = store.runs.list_for_case(case.id)
    if run_id is None:
        if not runs:
            raise ReportError(
                f"case {case.number} has no verification run yet; verify it first", store.path
            )
        return runs[-1]
    for run in runs:
        if run.id == run_id:
            return run
    listed = ", ".join(str(r.id) for r in runs) or "none"
    raise ReportError(f"case {case.number} has no run {run_id} (its runs: {listed})", store.path)


def top_features(result: VerificationResult, n: int = TOP_FEATURES) -> dict[str, list[str]]:
    """The top ``n`` features of L_Y and of L_N of each interpreted category."""
    wanted: dict[str, list[str]] = {}
    for category, interpretation in result.interpretation.items():
        features = [f for f, _ in interpretation.l_y[:n]]
        features += [f for f, _ in interpretation.l_n[:n]]
        wanted[category] = features
    return wanted


def method_evidence(
    result: VerificationResult, questioned_text: str, lexicon: Lexicon
) -> MethodEvidence | None:
    """LambdaG's evidence of a run and each sentence's leaning (None without evidence)."""
    if result.methods is None or result.methods.evidence is None:
        return None
    evidence = result.methods.evidence
    leanings = sentence_leanings(
        questioned_text, result.interpretation, result.ensemble, lexicon, evidence
    )
    return MethodEvidence(prepare_text(questioned_text), evidence, tuple(leanings))


def gather_inputs(
    store: ProjectStore,
    case_number: str,
    run_id: int | None = None,
    integrity: IntegrityReport | None = None,
    evaluations: Mapping[str, Any] | None = None,
    evaluation_source: str | None = None,
    lexicon: Lexicon | None = None,
    now: datetime | None = None,
    scale_id: str = DEFAULT_SCALE,
    report_id: str | None = None,
) -> ReportInputs:
    """Read one run of a case and all it rests on; ``integrity`` is run here if not given.
    ``now`` and ``report_id`` given: the identity of a report already previewed, so that the
    saved PDF is the one the examiner saw."""
    case = store.cases.find(case_number)
    run = choose_run(store, case, run_id)
    if integrity is None:
        integrity = store.check_integrity()
    result = store.runs.result(run.id)
    read = read_result(result)  # the run's result, typed, by its one reader
    stored_model = store.models.get(run.model_id)
    model = store.models.load(run.model_id)
    lexicon = lexicon or default_lexicon()
    ensemble = list(read.ensemble)
    labels = exhibit_labels(store.documents.list_for_case(case.id))  # fixed for good
    order = [(run.questioned_document_id, "Q")] + [
        (doc_id, labels.get(doc_id, f"K{i}"))
        for i, doc_id in enumerate(run.known_document_ids, start=1)
    ]
    documents = []
    questioned_text = ""
    for doc_id, label in order:
        text = store.documents.text(doc_id)
        if label == "Q":
            questioned_text = text
        features = extract_features(text, lexicon)
        counts = {c: features.counts[c] for c in ensemble}
        documents.append(EvidenceDocument(label, store.documents.get(doc_id), counts))
    excerpts = find_excerpts(
        questioned_text, lexicon, top_features(read), per_feature=EXCERPTS_PER_FEATURE
    )
    when = now or datetime.now(UTC)
    model_evaluations = model.extra.get("evaluations")
    if evaluations is None and isinstance(model_evaluations, dict):
        evaluations, evaluation_source = model_evaluations, STATED_BY_FILE
    # the validation the run rested on (its stored reference), never the model file's own claims
    validation, validation_source = None, None
    reference = read.validation
    if reference is not None and reference.source.record_id is not None:
        stored_validation = store.validations.get(reference.source.record_id)
        record = store.validations.record(stored_validation.id)
        validation = read_validation_record({k: v for k, v in record.items() if k != "trials"})
        validation_source = (
            f"validation record {stored_validation.id} of this project (SHA-256 "
            f"{stored_validation.record_sha256[:16]}…, stored "
            f"{recorded_time(stored_validation.created_utc)})"
        )
    stability_checks = store.runs.stability_checks(run.id)
    return ReportInputs(
        read=read,
        method_evidence=method_evidence(read, questioned_text, lexicon),
        validation=validation,
        validation_source=validation_source,
        validation_facts=case_validation_facts(store, case, read),
        case=case,
        run=run,
        result=result,
        stored_model=stored_model,
        model=model,
        documents=tuple(documents),
        integrity=integrity,
        audit=tuple(store.audit.entries(case.id)),
        audit_head=store.audit.head(),
        excerpts=excerpts,
        lexicon_sha256=lexicon.sha256,
        generated=when,
        report_id=report_id or new_report_id(case, run, when),
        evaluations=dict(evaluations or {}),
        evaluation_source=evaluation_source,
        scale_id=scale_id,
        stability=stability_checks[-1] if stability_checks else None,
        excluded=tuple(d for d in store.documents.list_for_case(case.id) if d.excluded),
    )
