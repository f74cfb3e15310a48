"""The background jobs of the desktop as plain functions (no Qt): they call store and engine.

Each takes a ``Progress`` last (``core/ground/progress.py``), returns plain data and raises
``Cancelled`` at its next step once asked to stop. Nothing is written to the store before a
job's last, single transaction, so a cancelled job leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.core.ground.model_names import checked_model_name, model_file_name
from taveer_desktop.core.ground.progress import Progress
from taveer_desktop.core.intake.corpus import open_corpus
from taveer_desktop.core.intake.decoding import decode_bytes
from taveer_desktop.core.methods.taveer.model import Model
from taveer_desktop.core.methods.taveer.training import train
from taveer_desktop.core.stability.stated_stability import run_stability
from taveer_desktop.core.validation.evaluation import Evaluation, evaluate
from taveer_desktop.core.validation.validation import ValidationSettings
from taveer_desktop.store import IntakeResult, ProjectStore, StoredModel
from taveer_desktop.store.case_validation import CaseValidation, validate_case
from taveer_desktop.store.case_verification import verify_case
from taveer_desktop.store.intake import SUPPORTED_FORMATS, read_evidence_bytes
from taveer_desktop.store.population_repository import StoredPopulation
from taveer_desktop.store.records import StabilityCheck

TRAINING_WORKERS = 1  # in-process: measured GUI stalls stay far below 100 ms (docs/gui.md)
SAMPLE_BYTES = 64 * 1024  # of each text file, for the preview of the encoding step


def is_text_file(path: Path) -> bool:
    return SUPPORTED_FORMATS.get(Path(path).suffix.lower()) == "txt"


def import_documents(
    store: ProjectStore,
    case_id: int,
    role: str,
    files: Sequence[Path],
    progress: Progress,
    encoding: str | None = None,
) -> IntakeResult:
    """Check every file (with progress, cancellable before anything is written), then store the
    acceptable ones at once; refused files are reported in the result.

    ``encoding`` (the examiner's choice, audited by the store) applies to the text files; the
    e-mails and Word documents of the same import, which declare their own encodings, are then
    stored by a second transaction, which is no longer cancellable once the first is stored."""
    files = list(files)
    if encoding is None:
        result = store.documents.add(case_id, role, files, skip_rejected=True, progress=progress)
        progress.step(len(files) + 1, len(files) + 1, "done")
        return result
    texts = [f for f in files if is_text_file(f)]
    others = [f for f in files if not is_text_file(f)]
    total = len(files) + 2
    first = store.documents.add(
        case_id,
        role,
        texts,
        skip_rejected=True,
        progress=progress.within(0, total),
        encoding=encoding,
    )
    if not others:
        progress.step(total, total, "done")
        return first
    rest = progress.within(len(texts) + 1, total, shares_cancel=False)  # first is stored
    second = store.documents.add(
        case_id,
        role,
        others,
        skip_rejected=True,
        progress=rest,
    )
    rest.step(len(others) + 1, total, "done")
    return IntakeResult(first.added + second.added, first.rejected + second.rejected)


@dataclass(frozen=True)
class TextFileCheck:
    """How a text file would be read without a choice: its detected encoding, or why not."""

    path: Path
    encoding: str | None = None  # the label, e.g. "Windows-1251"
    detection: dict | None = None  # as stored in metadata["encoding_detection"]
    problem: str | None = None  # why it cannot be read (it will be refused as it is)
    sample: bytes = b""  # the first SAMPLE_BYTES, for the preview with another encoding

    @property
    def guessed(self) -> bool:
        return (self.detection or {}).get("method") == "detected"


def check_text_files(files: Sequence[Path], progress: Progress) -> list[TextFileCheck]:
    """Read each text file and detect its encoding as the import would; nothing is stored."""
    checks = []
    for index, path in enumerate(files):
        progress.step(index, len(files), f"reading {Path(path).name}")
        try:
            data = read_evidence_bytes(Path(path))
            decoded = decode_bytes(data, str(path))
        except TaveerError as error:
            checks.append(TextFileCheck(Path(path), problem=error.plain_message))
            continue
        checks.append(
            TextFileCheck(
                Path(path), decoded.encoding, decoded.as_metadata(), None, data[:SAMPLE_BYTES]
            )
        )
    progress.step(len(files), len(files), "done")
    return checks


def run_verification(
    store: ProjectStore,
    case_id: int,
    model_name: str | None,
    progress: Progress,
) -> list:
    """Verify every questioned document of a case in use with the named model, or else the
    case's chosen one; each run is stored (with its stability) as it finishes."""
    return verify_case(store, case_id, model_name, progress=progress)


def compute_stability(
    store: ProjectStore,
    run_id: int,
    model: Model,
    known_texts: Sequence[str],
    unknown_text: str,
    prediction: str,
    progress: Progress,
    stated_log10_lr: float | None = None,
) -> StabilityCheck:
    """Resample a stored run's texts (seeded) and keep the assessment with the run (audited);
    a LambdaG or fused model's stated ratio (``stated_log10_lr``) is resampled too."""
    progress.step(0, 1, "resampling the sentences")
    stability = run_stability(
        model, known_texts, unknown_text, prediction, stated_log10_lr, progress=progress
    )
    progress.check()
    check = store.runs.store_stability(run_id, stability)
    progress.step(1, 1, "done")
    return check


@dataclass(frozen=True)
class TrainedModel:
    model: Model
    json_bytes: bytes
    file_name: str


def train_model(corpus_folder: Path, name: str, progress: Progress) -> TrainedModel:
    """Train on a PAN corpus folder; returns the model's JSON, nothing is stored yet."""
    name = checked_model_name(name)
    corpus = open_corpus(corpus_folder)
    progress.step(0, len(corpus), f"reading {len(corpus)} cases")
    model = train(corpus, name=name, workers=TRAINING_WORKERS, progress=progress)
    progress.check()
    return TrainedModel(model, model.to_json().encode("utf-8"), model_file_name(name))


def store_model(store: ProjectStore, trained: TrainedModel) -> StoredModel:
    """Keep a trained model in the project (one transaction)."""
    return store.models.add_bytes(trained.json_bytes, trained.file_name)


def evaluate_model(model: Model, corpus_folder: Path, progress: Progress) -> Evaluation:
    """Verify every case of a test corpus with ``model`` and compute the metrics."""
    corpus = open_corpus(corpus_folder)
    return evaluate(model, corpus, workers=TRAINING_WORKERS, progress=progress)


def import_population(
    store: ProjectStore, name: str, folder: Path, description: str, progress: Progress
) -> tuple[StoredPopulation, list[str]]:
    """Read a population folder through the evidence intake, encode it, then store it in one
    transaction (cancellable until then); returns it with the refusals and warnings."""
    progress.step(0, 0, f"reading {Path(folder).name}")
    return store.populations.add_folder(name, folder, description, progress)


def validate_for_case(
    store: ProjectStore,
    case_id: int,
    population_name: str,
    settings: ValidationSettings,
    lengths: tuple[int, int] | None,
    progress: Progress,
    model_name: str | None = None,
) -> CaseValidation:
    """Validate on a stored population at the case's (or the given) lengths; the model (named
    ``model_name``, or automatically), the record and the case's choice of model are stored only
    once the validation has finished."""
    progress.step(0, 0, f"reading the population {population_name!r}")
    return validate_case(
        store,
        case_id,
        population_name,
        settings,
        model_name=model_name,
        progress=progress,
        lengths=lengths,
    )
