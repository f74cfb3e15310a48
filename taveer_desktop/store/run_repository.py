"""Stored verification runs (``store.runs``).

A run keeps the engine's full result dictionary (per-category scores, warnings and the
interpretation lists) as zlib-compressed JSON, the model used and its SHA-256, every document
used with its role and SHA-256 at that moment, the software version and the UTC time.
``record_sha256`` fingerprints all of it; the ``run_stored`` audit entry repeats that
fingerprint. Listings return ``VerificationRun`` summaries; ``result(run_id)`` decompresses the
full result after checking the fingerprint and reads it with the one typed reader
(``core/verification/result_reader.py``). Stability assessments of a run are kept beside it
(``store_stability``), each audited.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Sequence
from typing import Any

from taveer_desktop import __version__
from taveer_desktop.core.calibration.outcome import (
    Classification,
    ConclusionKind,
    ResultFormatError,
)
from taveer_desktop.core.methods.taveer.stability import RatioStability, Stability
from taveer_desktop.core.methods.taveer.verify import VerificationResult
from taveer_desktop.core.verification.result_reader import read_result
from taveer_desktop.store.database import StoreDatabase
from taveer_desktop.store.errors import DamagedStore, NotFound, StoreError
from taveer_desktop.store.fingerprints import run_record_sha256
from taveer_desktop.store.records import KNOWN, QUESTIONED, StabilityCheck, VerificationRun
from taveer_desktop.store.store_file import Row

COMPRESSION_LEVEL = 6
_RUN_SQL = """
SELECT r.id, r.case_id, r.model_id, m.name, m.sha256, r.questioned_document_id,
       r.prediction, r.similarity, r.software_version, r.run_utc, r.record_sha256, r.conclusion
FROM runs r JOIN models m ON m.id = r.model_id
"""
_STABILITY_COLUMNS = (
    "id, run_id, resamples, keep_fraction, seed, agreeing, interval_low, interval_high,"
    " software_version, computed_utc, answers_json"
)


def _similarity(result: dict[str, Any]) -> float | None:
    value = result.get("similarity")
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


class RunRepository:
    def __init__(self, db: StoreDatabase):
        self._db = db

    def store(
        self,
        case_id: int,
        model_id: int,
        questioned_document_id: int,
        known_document_ids: Sequence[int],
        result: dict[str, Any],
        software_version: str = __version__,
    ) -> VerificationRun:
        """Keep one verification result (``VerificationResult.to_dict()``) with its inputs."""
        try:
            typed = read_result(result)
        except ResultFormatError as error:
            raise ValueError(f"not a verification result: {error}") from None
        prediction, conclusion = typed.prediction.value, typed.conclusion.kind.value
        known_document_ids = list(dict.fromkeys(known_document_ids))
        if not known_document_ids:
            raise ValueError("a run needs at least one known document")
        result_json = json.dumps(result, sort_keys=True, ensure_ascii=False)
        result_zlib = zlib.compress(result_json.encode("utf-8"), COMPRESSION_LEVEL)
        similarity = _similarity(result)
        with self._db.write() as tx:
            model_sha = tx.execute("SELECT sha256 FROM models WHERE id = ?", (model_id,)).fetchone()
            if model_sha is None:
                raise NotFound(f"has no model with id {model_id}", self._db.path)
            used = [(questioned_document_id, QUESTIONED)] + [(d, KNOWN) for d in known_document_ids]
            documents = []
            for doc_id, role in used:
                row = tx.execute(
                    "SELECT sha256, case_id, role FROM documents WHERE id = ?", (doc_id,)
                ).fetchone()
                if row is None or row[1] != case_id or row[2] != role:
                    raise StoreError(
                        f"has no {role} document {doc_id} in case {case_id}", self._db.path
                    )
                documents.append((doc_id, role, row[0]))
            record = run_record_sha256(
                case_id,
                model_id,
                model_sha[0],
                questioned_document_id,
                documents,
                prediction,
                similarity,
                software_version,
                tx.time_utc,
                result_zlib,
                conclusion,
            )
            run_id = tx.insert(
                "INSERT INTO runs (case_id, model_id, questioned_document_id, prediction,"
                " similarity, software_version, run_utc, record_sha256, result_json_zlib,"
                " conclusion) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    case_id,
                    model_id,
                    questioned_document_id,
                    prediction,
                    similarity,
                    software_version,
                    tx.time_utc,
                    record,
                    result_zlib,
                    conclusion,
                ),
            )
            tx.conn.executemany(
                "INSERT INTO run_documents (run_id, document_id, role, document_sha256)"
                " VALUES (?, ?, ?, ?)",
                [(run_id, doc_id, role, sha) for doc_id, role, sha in documents],
            )
            tx.execute("UPDATE cases SET modified_utc = ? WHERE id = ?", (tx.time_utc, case_id))
            tx.audit(
                "run_stored",
                case_id,
                {
                    "run_id": run_id,
                    "model_id": model_id,
                    "model_sha256": model_sha[0],
                    "questioned_document_id": questioned_document_id,
                    "known_document_ids": list(known_document_ids),
                    "prediction": prediction,
                    "conclusion": conclusion,
                    "similarity": similarity,
                    "software_version": software_version,
                    "record_sha256": record,
                },
            )
        return self.get(run_id)

    def list_for_case(self, case_id: int) -> list[VerificationRun]:
        """Runs of a case, oldest first (summaries; the full result comes from ``result``)."""
        rows = self._db.query(_RUN_SQL + " WHERE r.case_id = ? ORDER BY r.id", (case_id,))
        return self._with_documents(rows)

    def get(self, run_id: int) -> VerificationRun:
        rows = self._db.query(_RUN_SQL + " WHERE r.id = ?", (run_id,))
        if not rows:
            raise NotFound(f"has no verification run with id {run_id}", self._db.path)
        return self._with_documents(rows)[0]

    def verification(self, run_id: int) -> VerificationResult:
        """The full result of a run, typed and validated (a malformed one is damage)."""
        try:
            return read_result(self.result(run_id))
        except ResultFormatError as error:
            raise DamagedStore(
                f"holds run {run_id} whose result cannot be read ({error})", self._db.path
            ) from None

    def result(self, run_id: int) -> dict[str, Any]:
        """The full result of a run as the engine returned it, after checking its fingerprint."""
        run = self.get(run_id)
        row = self._db.query_one("SELECT result_json_zlib FROM runs WHERE id = ?", (run_id,))
        if row is None:  # removed since it was read a moment ago
            raise NotFound(f"has no verification run with id {run_id}", self._db.path)
        documents = self._db.query(
            "SELECT document_id, role, document_sha256 FROM run_documents WHERE run_id = ?",
            (run_id,),
        )
        blob = row[0]
        recomputed = run_record_sha256(
            run.case_id,
            run.model_id,
            run.model_sha256,
            run.questioned_document_id,
            [tuple(d) for d in documents],
            run.prediction,
            run.similarity,
            run.software_version,
            run.run_utc,
            blob if isinstance(blob, bytes) else b"",
            run.conclusion.value if run.conclusion else None,
        )
        if recomputed != run.record_sha256:
            raise DamagedStore(
                f"holds run {run_id} whose result no longer matches its SHA-256", self._db.path
            )
        result = json.loads(zlib.decompress(blob).decode("utf-8"))
        if not isinstance(result, dict):
            raise DamagedStore(
                f"holds run {run_id} whose result is not a JSON object", self._db.path
            )
        return result

    def _with_documents(self, rows: list[Row]) -> list[VerificationRun]:
        if not rows:
            return []
        ids = [row[0] for row in rows]
        known: dict[int, list[int]] = {run_id: [] for run_id in ids}
        marks = ",".join("?" * len(ids))
        for run_id, doc_id in self._db.query(
            f"SELECT run_id, document_id FROM run_documents WHERE run_id IN ({marks})"
            " AND role = 'known' ORDER BY run_id, document_id",
            tuple(ids),
        ):
            known[run_id].append(doc_id)
        runs = []
        for row in rows:
            run_id, case_id, model_id, name, sha, questioned, prediction = row[:7]
            similarity, software_version, run_utc, record_sha, kind = row[7:]
            runs.append(
                VerificationRun(
                    run_id,
                    case_id,
                    model_id,
                    name,
                    sha,
                    questioned,
                    tuple(known[run_id]),
                    Classification(prediction),
                    similarity,
                    software_version,
                    run_utc,
                    record_sha,
                    ConclusionKind(kind) if kind else None,
                )
            )
        return runs

    # -- stability ---------------------------------------------------------------------------
    def store_stability(
        self, run_id: int, stability: Stability, software_version: str = __version__
    ) -> StabilityCheck:
        """Keep a stability assessment of a run (audited as ``stability_stored``)."""
        run = self.get(run_id)
        agreeing = stability.agreeing
        low, high = stability.similarity_interval
        # the stated ratio's figures ride in the answers' JSON under "ratio" (no column of its
        # own: the schema is unchanged; a check without them reads back with ratio None)
        ratio = {"ratio": stability.ratio.to_dict()} if stability.ratio else {}
        answers = json.dumps({**stability.answers, **ratio}, sort_keys=True)
        with self._db.write() as tx:
            check_id = tx.insert(
                "INSERT INTO stability_checks (run_id, resamples, keep_fraction, seed, agreeing,"
                " interval_low, interval_high, answers_json, software_version, computed_utc)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    stability.resamples,
                    stability.keep_fraction,
                    stability.seed,
                    agreeing,
                    low,
                    high,
                    answers,
                    software_version,
                    tx.time_utc,
                ),
            )
            tx.audit(
                "stability_stored",
                run.case_id,
                {
                    "stability_id": check_id,
                    "run_id": run_id,
                    "resamples": stability.resamples,
                    "keep_fraction": stability.keep_fraction,
                    "seed": stability.seed,
                    "agreeing": agreeing,
                    "similarity_interval": [low, high],
                    "answers": stability.answers,
                    **ratio,
                },
            )
        return self.stability_checks(run_id)[-1]

    def stability_checks(self, run_id: int) -> list[StabilityCheck]:
        """Every stored stability assessment of a run, oldest first."""
        rows = self._db.query(
            f"SELECT {_STABILITY_COLUMNS} FROM stability_checks WHERE run_id = ? ORDER BY id",
            (run_id,),
        )
        return [_stability_from_row(row) for row in rows]


def _stability_from_row(row: Row) -> StabilityCheck:
    """A ``StabilityCheck`` of a row of ``_STABILITY_COLUMNS``."""
    check_id, run_id, resamples, keep_fraction, seed, agreeing, low, high = row[:8]
    software_version, computed_utc, answers_json = row[8:]
    try:
        answers = json.loads(answers_json)
    except (TypeError, ValueError):
        answers = {}
    return StabilityCheck(
        check_id,
        run_id,
        resamples,
        keep_fraction,
        seed,
        agreeing,
        low,
        high,
        software_version,
        computed_utc,
        answers=(
            {k: v for k, v in answers.items() if k != "ratio"} if isinstance(answers, dict) else {}
        ),
        ratio=RatioStability.from_dict(answers.get("ratio")) if isinstance(answers, dict) else None,
    )
