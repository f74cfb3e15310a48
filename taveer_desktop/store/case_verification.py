"""Verifying a case's questioned documents with a stored model, and keeping every run.

For each questioned document (or the one asked for) the engine compares it with the known
documents of the case that are not excluded, with the model's method
(``core/method_verify.verify_with_method``: TAVeer, or LambdaG or the fusion for a model
validated with them, every method's own ratio kept beside the stated one); the full result
(with TAVeer's interpretation lists and LambdaG's evidence in the text) is stored as one run,
with its stability (sentences left out and the verification repeated, seeded: TAVeer's
classification and, for a LambdaG or fused model, the stated ratio,
``core/stability/stated_stability.py``) stored beside it. The model is the one named, which then
becomes the case's chosen model, or else the case's chosen model; there is no default: a case
without a chosen model is refused. The conclusion rests on the latest validation of that model
linked to the case (``store/case_basis.basis_for_case``: the case's own attempt or a record
declared relevant to it, read back with its SHA-256 checked); without one it is investigative
at most, and the stored result names the record it rested on. The model and every document
are re-hashed as they are read, so a run is never computed from evidence or a model that
changed since it was stored. A document whose analysed text differs from its file (its reading
notes: invisible characters removed, hidden text or parts not read) gives the run's result a
warning saying so.

Everything is computed first; then the case's model choice, every run and every stability check
are stored in **one** transaction: a failure (a full disk, a kill) stores all of them or none,
so a message can say which, and running the command again redoes exactly what is missing.
"""

from __future__ import annotations

from dataclasses import replace

from taveer_desktop import __version__
from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.intake.reading_notes import verification_warnings
from taveer_desktop.core.methods.taveer.stability import DEFAULT_RESAMPLES, DEFAULT_SEED
from taveer_desktop.core.stability.stated_stability import run_stability
from taveer_desktop.core.verification.method_verify import verify_with_method
from taveer_desktop.store.case_basis import basis_for_case
from taveer_desktop.store.errors import NotFound, StoreError
from taveer_desktop.store.project_store import ProjectStore
from taveer_desktop.store.records import KNOWN, QUESTIONED, VerificationRun


def verify_case(
    store: ProjectStore,
    case_id: int,
    model_name: str | None = None,
    questioned_document_id: int | None = None,
    explain: bool = True,
    progress: Progress = NO_PROGRESS,
    stability_resamples: int | None = DEFAULT_RESAMPLES,
    stability_seed: int = DEFAULT_SEED,
) -> list[VerificationRun]:
    """Run and store a verification for each questioned document of a case in use."""
    case = store.cases.get(case_id)
    if model_name is not None:
        stored_model = store.models.find(model_name)
    elif case.model_id is not None:
        stored_model = store.models.get(case.model_id)
    else:
        raise StoreError(
            f"has no model chosen for case {case.number}: choose one (with the model's "
            "training population and validated conditions in view) before verifying",
            store.path,
        )
    known = store.documents.in_use(case_id, KNOWN)
    questioned = store.documents.in_use(case_id, QUESTIONED)
    if questioned_document_id is not None:
        questioned = [doc for doc in questioned if doc.id == questioned_document_id]
        if not questioned:
            raise NotFound(
                f"has no questioned document {questioned_document_id} in case {case.number}",
                store.path,
            )
    if not known:
        raise StoreError(
            f"has no known documents in case {case.number} to compare with", store.path
        )
    if not questioned:
        raise StoreError(f"has no questioned document in case {case.number} to verify", store.path)
    if store.read_only_reason:
        raise StoreError(f"is read-only: {store.read_only_reason}", store.path)
    model = store.models.load(stored_model.id)
    basis = basis_for_case(store, case_id, stored_model.id)
    known_texts = [store.documents.text(doc.id) for doc in known]
    computed = []
    for index, doc in enumerate(questioned):
        progress.step(index, len(questioned), f"verifying {doc.file_name}")
        text = store.documents.text(doc.id)
        result = verify_with_method(
            model, known_texts, text, source=stored_model.name, explain=explain, basis=basis
        )
        noted = verification_warnings([(d.role, d.file_name, d.metadata) for d in (doc, *known)])
        if noted:  # the analysed text differs from what a file holds (its reading notes)
            result = replace(result, warnings=(*result.warnings, *noted))
        stability = None
        if stability_resamples and result.conclusion.kind is not ConclusionKind.NONE:
            methods = result.methods  # a LambdaG or fused model's stated ratio is resampled too
            stability = run_stability(
                model,
                known_texts,
                text,
                result.prediction,
                methods.by_method.get(methods.stated) if methods else None,
                resamples=stability_resamples,
                seed=stability_seed,
                progress=progress,
                source=stored_model.name,
            )
        computed.append((doc, result, stability))
    progress.check()  # the last point where stopping leaves nothing stored
    runs = []
    with store.transaction():  # the model choice, every run and its stability: all or none
        if case.model_id != stored_model.id:
            store.cases.choose_model(case_id, stored_model.id)
        for doc, result, stability in computed:
            run = store.runs.store(
                case_id,
                stored_model.id,
                doc.id,
                [k.id for k in known],
                result.to_dict(),
                software_version=__version__,
            )
            runs.append(run)
            if stability is not None:
                store.runs.store_stability(run.id, stability)
    progress.step(len(questioned), len(questioned), "done")
    return runs
