"""The background jobs of the desktop as plain functions (no Qt): they call store and engine.

Each takes ``progress(done, total, message)`` and a ``CancelToken`` last, returns plain data and
raises ``Cancelled`` when asked to stop. Nothing is written to the store before a job's last,
single transaction, so a cancelled job leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from taveer_desktop.core.corpus import open_corpus
from taveer_desktop.core.errors import CancelToken, InputError
from taveer_desktop.core.evaluation import Evaluation, evaluate
from taveer_desktop.core.model import Model
from taveer_desktop.core.stability import decision_stability
from taveer_desktop.core.training import train
from taveer_desktop.store import IntakeResult, ProjectStore, StoredModel
from taveer_desktop.store.case_verification import verify_case
from taveer_desktop.store.records import StabilityCheck

Progress = Callable[[int, int, str], None]
TRAINING_WORKERS = 1  # in-process: measured GUI stalls stay far below 100 ms (docs/gui.md)


def import_documents(
    store: ProjectStore,
    case_id: int,
    role: str,
    files: Sequence[Path],
    progress: Progress,
    cancel: CancelToken,
) -> IntakeResult:
    """Check every file (with progress, cancellable before anything is written), then store the
    acceptable ones at once; refused files are reported in the result."""
    result = store.documents.add(
        case_id, role, list(files), skip_rejected=True, progress=progress, cancel=cancel
    )
    progress(len(files) + 1, len(files) + 1, "done")
    return result


def run_verification(
    store: ProjectStore,
    case_id: int,
    model_name: str | None,
    progress: Progress,
    cancel: CancelToken,
) -> list:
    """Verify every questioned document of a case in use with the named model, or else the
    case's chosen one; each run is stored (with its stability) as it finishes."""
    return verify_case(store, case_id, model_name, progress=progress, cancel=cancel)


def compute_stability(
    store: ProjectStore,
    run_id: int,
    model: Model,
    known_texts: Sequence[str],
    unknown_text: str,
    prediction: str,
    progress: Progress,
    cancel: CancelToken,
) -> StabilityCheck:
    """Resample a stored run's texts (seeded) and keep the assessment with the run (audited)."""
    progress(0, 1, "resampling the sentences")
    stability = decision_stability(model, known_texts, unknown_text, prediction, cancel=cancel)
    cancel.raise_if_cancelled()
    check = store.runs.store_stability(run_id, stability)
    progress(1, 1, "done")
    return check


@dataclass(frozen=True)
class TrainedModel:
    model: Model
    json_bytes: bytes
    file_name: str


def model_file_name(name: str) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in name).strip("-.")
    return (safe or "model") + ".json"


def train_model(
    corpus_folder: Path, name: str, progress: Progress, cancel: CancelToken
) -> TrainedModel:
    """Train on a PAN corpus folder; returns the model's JSON, nothing is stored yet."""
    name = name.strip()
    if not name:
        raise InputError("a model needs a name")
    corpus = open_corpus(corpus_folder)
    progress(0, len(corpus), f"reading {len(corpus)} cases")
    model = train(corpus, name=name, workers=TRAINING_WORKERS, progress=progress, cancel=cancel)
    cancel.raise_if_cancelled()
    return TrainedModel(model, model.to_json().encode("utf-8"), model_file_name(name))


def store_model(store: ProjectStore, trained: TrainedModel) -> StoredModel:
    """Keep a trained model in the project (one transaction)."""
    return store.models.add_bytes(trained.json_bytes, trained.file_name)


def evaluate_model(
    model: Model, corpus_folder: Path, progress: Progress, cancel: CancelToken
) -> Evaluation:
    """Verify every case of a test corpus with ``model`` and compute the metrics."""
    corpus = open_corpus(corpus_folder)
    return evaluate(model, corpus, workers=TRAINING_WORKERS, progress=progress, cancel=cancel)


def describe_corpus(folder: Path) -> str:
    """One line about a corpus folder (layout, cases, truth), or why it cannot be used."""
    try:
        corpus = open_corpus(folder)
    except InputError as error:
        return f"Cannot use this folder: {error.plain_message}"
    truth = len(corpus.truth)
    same = sum(1 for value in corpus.truth.values() if value)
    layout = "PAN 2013–2015 problem folders" if corpus.layout == "pan-folder" else "PAN pairs.jsonl"
    if truth < len(corpus):
        return f"{layout}, {len(corpus)} cases, but only {truth} have a truth: cannot be used"
    return f"{layout}: {len(corpus)} cases ({same} same author, {truth - same} different)"
