"""Relevant populations and validation records kept in the project (store version 4).

``PopulationRepository.add_folder`` reads a folder with one sub-folder per author (or a PAN
split that names its authors) through the evidence intake (``store/population_folder.py``: the
same readers and refusals as a case's evidence, and the folder's own checks — author names,
links, depth, size), checks with the engine that it can be used for validation (two documents
or more for at least four authors, no text under two authors), and stores every document the
engine kept — bytes, text and both SHA-256 — with the population row and one ``population_added``
audit entry, in one transaction. A name with control or invisible characters is refused.
``texts`` re-hashes every stored text before handing it to the engine.

A PAN corpus split is read by the authors its provenance names (``read_population``), never a
problem folder as an author; near-duplicates under two authors are left out by the engine, so
``author_count`` is counted after that check.

The topic labels the population's files give (a PAN split's ``cases.csv`` group column, a
``topics.csv``) are kept with it (``store/population_topics.py``), and so are the documents'
dates (``store/population_dates.py``, store version 9); both come back with ``load``.

``ValidationRepository.store`` keeps a validation record (its JSON bytes and their SHA-256)
linked to the case, the population and the model the validation produced, with one
``validation_stored`` audit entry.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from taveer_desktop import __version__
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.intake.control_characters import unsafe_characters
from taveer_desktop.core.intake.file_reading import shown_name
from taveer_desktop.core.trials.document_dates import DocumentDates
from taveer_desktop.core.trials.population import Population, TopicLabels, population_from_texts
from taveer_desktop.core.trials.topic_groups import file_labels
from taveer_desktop.store.database import StoreDatabase
from taveer_desktop.store.errors import Conflict, DamagedStore, NotFound, StoreError
from taveer_desktop.store.fingerprints import sha256_hex, text_sha256
from taveer_desktop.store.population_dates import read_dates, store_dates
from taveer_desktop.store.population_folder import read_population
from taveer_desktop.store.population_topics import read_labels, store_labels
from taveer_desktop.store.store_file import Row


@dataclass(frozen=True)
class StoredPopulation:
    id: int
    name: str
    description: str
    source_path: str
    sha256: str
    author_count: int
    document_count: int
    added_utc: str


@dataclass(frozen=True)
class StoredValidation:
    id: int
    case_id: int | None
    population_id: int
    model_id: int
    criteria_met: bool | None
    cllr: float | None
    software_version: str
    created_utc: str
    record_sha256: str
    method: str = "taveer"  # the record's stated method (protocol.method; older records: TAVeer)
    fused: str | None = None  # JSON list of the methods a fusion combines (the record's fusion
    # block; None: not a fusion, or a record made before the block, which fused TAVeer+LambdaG)


_POPULATION_COLUMNS = (
    "id, name, description, source_path, sha256, author_count, document_count, added_utc"
)
_VALIDATION_COLUMNS = (
    "id, case_id, population_id, model_id, criteria_met, cllr, software_version, created_utc,"
    " record_sha256,"
    # the stated method; a damaged record (not JSON) still lists, as TAVeer's, and is refused
    # when it is read (``record``) and by the integrity check
    " COALESCE(CASE WHEN json_valid(CAST(record_json AS TEXT))"
    " THEN json_extract(CAST(record_json AS TEXT), '$.protocol.method') END, 'taveer'),"
    " CASE WHEN json_valid(CAST(record_json AS TEXT))"
    " THEN json_extract(CAST(record_json AS TEXT), '$.fusion.methods') END"
)


def documents_digest(rows: list[tuple[str, str, str]]) -> str:
    """SHA-256 over (author, file SHA-256, text SHA-256) of a population's documents, sorted:
    the audit entry records it, so any change to the stored set is found."""
    digest = hashlib.sha256()
    for author, sha, text_sha in sorted(rows):
        digest.update(f"{author}\t{sha}\t{text_sha}\n".encode())
    return digest.hexdigest()


class PopulationRepository:
    def __init__(self, db: StoreDatabase):
        self._db = db

    def add_folder(
        self,
        name: str,
        path: str | Path,
        description: str,
        progress: Progress = NO_PROGRESS,
    ) -> tuple[StoredPopulation, list[str]]:
        """Import a population folder; returns it and the refusals/warnings (one line each).
        Reading and encoding report to ``progress`` and stop there when it is cancelled, before
        anything is written; the write itself is one transaction."""
        name, description = name.strip(), description.strip()
        if not name:
            raise StoreError("needs a name for the population", self._db.path)
        if unsafe_characters(name):
            raise StoreError(
                "cannot name a population with control or invisible characters "
                f"({', '.join(unsafe_characters(name))})",
                self._db.path,
            )
        if not description:
            raise StoreError(
                "needs a description of the population (who, genre, period, how selected)",
                self._db.path,
            )
        if self._db.query_one("SELECT 1 FROM populations WHERE name = ?", (name,)):
            raise Conflict(f"already holds a population named {name!r}", self._db.path)
        files = read_population(path)
        engine = population_from_texts(
            files.texts(),
            name,
            str(path),
            description,
            progress=progress,
            warnings=files.warnings,
            dates=files.dates,
        )
        labels = file_labels(engine)  # read from the files now: the store keeps no folder
        progress.check()
        # only what the engine kept (near-duplicates under two authors and texts without a
        # sentence are left out and named in the warnings), so the counts are taken after the
        # checks and a reload gives the same population
        used = {(author, d.text_sha256) for author, docs in engine.documents.items() for d in docs}
        kept = [
            (author, document)
            for author in engine.authors
            for document in files.documents[author]
            if (author, document.text_sha256) in used
        ]
        digest_rows = [(a, d.sha256, d.text_sha256) for a, d in kept]
        with self._db.write() as tx:
            try:
                population_id = tx.insert(
                    "INSERT INTO populations (name, description, source_path, sha256,"
                    " author_count, document_count, added_utc) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        name,
                        description,
                        shown_name(str(Path(path).resolve())),  # as text: odd bytes escaped
                        engine.sha256,
                        len(engine.authors),
                        len(kept),
                        tx.time_utc,
                    ),
                )
            except sqlite3.IntegrityError:
                raise Conflict(
                    f"already holds a population named {name!r}", self._db.path
                ) from None
            seen = set()
            for author, d in kept:
                if (author, d.sha256) in seen:  # the same file twice under one author
                    continue
                seen.add((author, d.sha256))
                tx.execute(
                    "INSERT INTO population_documents (population_id, author, file_name,"
                    " file_format, byte_count, sha256, encoding, text_sha256, char_count, text,"
                    " original_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        population_id,
                        author,
                        d.file_name,
                        d.file_format,
                        len(d.data),
                        d.sha256,
                        d.encoding,
                        d.text_sha256,
                        d.char_count,
                        d.text,
                        d.data,
                    ),
                )
            tx.audit(
                "population_added",
                None,
                {
                    "population_id": population_id,
                    "name": name,
                    "description": description,
                    "sha256": engine.sha256,
                    "authors": len(engine.authors),
                    "documents": len(seen),
                    "documents_sha256": documents_digest(
                        sorted({(a, s, t) for a, s, t in digest_rows})
                    ),
                    "refused": len(files.refused),
                },
            )
            if labels is not None:
                store_labels(tx, population_id, labels)
            if engine.dates is not None:  # only the kept documents' dates (as for the labels)
                kept_dates = {k: v for k, v in engine.dates.of.items() if k in used}
                if kept_dates:
                    store_dates(tx, population_id, replace(engine.dates, of=kept_dates))
        return self.get(population_id), list(engine.warnings)

    def list_all(self) -> list[StoredPopulation]:
        return [
            StoredPopulation(*row)
            for row in self._db.query(
                f"SELECT {_POPULATION_COLUMNS} FROM populations ORDER BY name"
            )
        ]

    def get(self, population_id: int) -> StoredPopulation:
        row = self._db.query_one(
            f"SELECT {_POPULATION_COLUMNS} FROM populations WHERE id = ?", (population_id,)
        )
        if row is None:
            raise NotFound(f"has no population with id {population_id}", self._db.path)
        return StoredPopulation(*row)

    def find(self, name: str) -> StoredPopulation:
        row = self._db.query_one(
            f"SELECT {_POPULATION_COLUMNS} FROM populations WHERE name = ?", (name,)
        )
        if row is None:
            known = ", ".join(repr(p.name) for p in self.list_all()) or "none"
            raise NotFound(
                f"has no population named {name!r} (populations: {known})", self._db.path
            )
        return StoredPopulation(*row)

    def texts(self, population_id: int) -> dict[str, list[tuple[str, str]]]:
        """Author → (file name, text) of a stored population, each text's SHA-256 checked."""
        texts: dict[str, list[tuple[str, str]]] = {}
        for author, file_name, text, expected in self._db.query(
            "SELECT author, file_name, text, text_sha256 FROM population_documents"
            " WHERE population_id = ? ORDER BY author, file_name, id",
            (population_id,),
        ):
            if text_sha256(text) != expected:
                raise DamagedStore(
                    f"holds a document of population {population_id} ({author}/{file_name}) "
                    "whose text no longer matches its SHA-256",
                    self._db.path,
                )
            texts.setdefault(author, []).append((file_name, text))
        return texts

    def load(
        self, population_id: int, case_documents: Mapping[str, str] | None = None
    ) -> Population:
        """The engine's population of a stored one (texts checked, each encoded once; its
        topic labels with it);
        ``case_documents`` (exhibit label → text): the case it is loaded for, whose writers'
        texts are left out (``core/trials/population.py``)."""
        stored = self.get(population_id)
        return population_from_texts(
            self.texts(population_id), stored.name, f"{self._db.path} ({stored.name})",
            stored.description, case_documents=case_documents,
            labels=self.labels(population_id), dates=self.dates(population_id),
        )  # fmt: skip

    def labels(self, population_id: int) -> TopicLabels | None:
        """The topic labels kept with a stored population (None: its files named none)."""
        return read_labels(self._db, population_id)

    def dates(self, population_id: int) -> DocumentDates | None:
        """The documents' dates kept with a stored population (None: none was dated)."""
        return read_dates(self._db, population_id)


def record_bytes(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, allow_nan=False, sort_keys=True) + "\n").encode()


class ValidationRepository:
    def __init__(self, db: StoreDatabase):
        self._db = db

    def store(
        self, case_id: int | None, population_id: int, model_id: int, record: dict[str, Any]
    ) -> StoredValidation:
        """Keep a validation record linked to its case, population and model (audited)."""
        data = record_bytes(record)
        digest = sha256_hex(data)
        met = record.get("acceptance", {}).get("met")
        cllr = record.get("figures", {}).get("cllr")
        with self._db.write() as tx:
            validation_id = tx.insert(
                "INSERT INTO validation_records (case_id, population_id, model_id, criteria_met,"
                " cllr, software_version, created_utc, record_sha256, record_json)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    case_id,
                    population_id,
                    model_id,
                    None if met is None else int(bool(met)),
                    cllr,
                    __version__,
                    tx.time_utc,
                    digest,
                    data,
                ),
            )
            tx.audit(
                "validation_stored",
                case_id,
                {
                    "validation_id": validation_id,
                    "case_id": case_id,
                    "population_id": population_id,
                    "model_id": model_id,
                    "record_sha256": digest,
                    "criteria_met": met,
                    "cllr": cllr,
                },
            )
        return self.get(validation_id)

    def get(self, validation_id: int) -> StoredValidation:
        row = self._db.query_one(
            f"SELECT {_VALIDATION_COLUMNS} FROM validation_records WHERE id = ?", (validation_id,)
        )
        if row is None:
            raise NotFound(f"has no validation record with id {validation_id}", self._db.path)
        return _validation(row)

    def for_model(self, model_id: int) -> StoredValidation | None:
        """The latest validation record that produced a model (None if it has none)."""
        row = self._db.query_one(
            f"SELECT {_VALIDATION_COLUMNS} FROM validation_records WHERE model_id = ?"
            " ORDER BY id DESC LIMIT 1",
            (model_id,),
        )
        return None if row is None else _validation(row)

    def list_all(self) -> list[StoredValidation]:
        """Every stored validation record, oldest first."""
        return [
            _validation(row)
            for row in self._db.query(
                f"SELECT {_VALIDATION_COLUMNS} FROM validation_records ORDER BY id"
            )
        ]

    def for_case(self, case_id: int) -> list[StoredValidation]:
        return [
            _validation(row)
            for row in self._db.query(
                f"SELECT {_VALIDATION_COLUMNS} FROM validation_records WHERE case_id = ?"
                " ORDER BY id",
                (case_id,),
            )
        ]

    def record(self, validation_id: int) -> dict[str, Any]:
        """The record's JSON, after checking its SHA-256."""
        row = self._db.query_one(
            "SELECT record_json, record_sha256 FROM validation_records WHERE id = ?",
            (validation_id,),
        )
        if row is None:
            raise NotFound(f"has no validation record with id {validation_id}", self._db.path)
        data, expected = row
        if not isinstance(data, bytes) or sha256_hex(data) != expected:
            raise DamagedStore(
                f"holds validation record {validation_id} whose JSON no longer matches its SHA-256",
                self._db.path,
            )
        record = json.loads(data)
        if not isinstance(record, dict):
            raise DamagedStore(
                f"holds validation record {validation_id} that is not a JSON object", self._db.path
            )
        return record


def _validation(row: Row) -> StoredValidation:
    values = list(row)
    values[4] = None if values[4] is None else bool(values[4])
    return StoredValidation(*values)
