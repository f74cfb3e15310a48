"""Trained models kept in the project for reuse across cases (``store.models``).

A model is validated with the engine's ``parse_model`` and stored as the exact bytes received,
with their SHA-256 and the training corpus identity. Names are unique within a project: adding
the same file twice is refused as a duplicate, a different model under a name already used is
refused as a conflict. ``load`` re-hashes the stored bytes before parsing them again.

A model stored by an older version of the program may fail today's checks (a LambdaG order of
0, NaN weights …). It stays listed: ``readings`` gives every stored model with its ``Model`` or
the one-line problem that refuses it, so a listing never fails for one bad model; ``load``
refuses it only where it would be used.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from taveer_desktop.core.ground.errors import TaveerError
from taveer_desktop.core.methods.taveer.model import (
    Model,
    decode_model_bytes,
    parse_model,
    read_model_bytes,
)
from taveer_desktop.store.database import StoreDatabase
from taveer_desktop.store.errors import Conflict, DamagedStore, NotFound
from taveer_desktop.store.fingerprints import sha256_hex
from taveer_desktop.store.records import StoredModel

MODEL_COLUMNS = (
    "id, name, sha256, byte_count, corpus_name, corpus_sha256, source_file_name, added_utc"
)


@dataclass(frozen=True)
class ModelReading:
    """A stored model as read today: its ``Model``, or why it cannot be used (``problem``)."""

    stored: StoredModel
    model: Model | None
    problem: str | None = None


class ModelRepository:
    def __init__(self, db: StoreDatabase):
        self._db = db

    def add_file(self, path: str | Path) -> StoredModel:
        """Validate a model JSON file and keep its bytes in the project."""
        path = Path(path)
        data = read_model_bytes(path)
        return self.add_bytes(data, path.name, str(path))

    def add_bytes(self, data: bytes, file_name: str, source: str | None = None) -> StoredModel:
        """Validate model JSON bytes (named ``file_name``) and keep them in the project."""
        source = source or file_name
        model = parse_model(decode_model_bytes(data, source), source)
        digest = sha256_hex(data)
        same = self._db.query_one("SELECT id, name FROM models WHERE sha256 = ?", (digest,))
        if same is not None:
            raise Conflict(
                f"already holds this model as {same[1]!r} (model {same[0]}, same SHA-256)",
                self._db.path,
            )
        if self._db.query_one("SELECT 1 FROM models WHERE name = ?", (model.name,)):
            raise Conflict(
                f"already holds a different model named {model.name!r}; rename one of them",
                self._db.path,
            )
        with self._db.write() as tx:
            try:
                model_id = tx.insert(
                    "INSERT INTO models (name, sha256, byte_count, corpus_name, corpus_sha256,"
                    " source_file_name, added_utc, model_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        model.name,
                        digest,
                        len(data),
                        model.training.corpus_name,
                        model.training.corpus_sha256,
                        file_name,
                        tx.time_utc,
                        data,
                    ),
                )
            except sqlite3.IntegrityError:
                raise Conflict(
                    f"already holds a model named {model.name!r}", self._db.path
                ) from None
            tx.audit(
                "model_added",
                None,
                {
                    "model_id": model_id,
                    "name": model.name,
                    "sha256": digest,
                    "byte_count": len(data),
                    "source_file_name": file_name,
                    "corpus_name": model.training.corpus_name,
                    "corpus_sha256": model.training.corpus_sha256,
                    "ensemble": list(model.ensemble),
                    "model_created_utc": model.created_utc,
                },
            )
        return self.get(model_id)

    def list_all(self) -> list[StoredModel]:
        return [
            StoredModel(*row)
            for row in self._db.query(f"SELECT {MODEL_COLUMNS} FROM models ORDER BY name")
        ]

    def get(self, model_id: int) -> StoredModel:
        row = self._db.query_one(f"SELECT {MODEL_COLUMNS} FROM models WHERE id = ?", (model_id,))
        if row is None:
            raise NotFound(f"has no model with id {model_id}", self._db.path)
        return StoredModel(*row)

    def find(self, name: str) -> StoredModel:
        row = self._db.query_one(f"SELECT {MODEL_COLUMNS} FROM models WHERE name = ?", (name,))
        if row is None:
            known = ", ".join(repr(m.name) for m in self.list_all()) or "none"
            raise NotFound(f"has no model named {name!r} (models: {known})", self._db.path)
        return StoredModel(*row)

    def json_bytes(self, model_id: int) -> bytes:
        """The model file exactly as it was added, after checking its SHA-256."""
        row = self._db.query_one("SELECT model_json, sha256 FROM models WHERE id = ?", (model_id,))
        if row is None:
            raise NotFound(f"has no model with id {model_id}", self._db.path)
        data, expected = row
        if not isinstance(data, bytes) or sha256_hex(data) != expected:
            raise DamagedStore(
                f"holds model {model_id} whose JSON no longer matches its SHA-256", self._db.path
            )
        return data

    def load(self, model_id: int) -> Model:
        """The engine's ``Model`` of a stored model (hash checked, JSON validated again)."""
        stored = self.get(model_id)
        source = f"{self._db.path} (model {stored.name!r})"
        return parse_model(decode_model_bytes(self.json_bytes(model_id), source), source)

    def readings(self) -> list[ModelReading]:
        """Every stored model, by name, each read and validated again; one that fails (damaged,
        or stored by an older version whose checks were looser) carries its problem instead."""
        out = []
        for stored in self.list_all():
            try:
                out.append(ModelReading(stored, self.load(stored.id)))
            except TaveerError as error:
                out.append(ModelReading(stored, None, error.plain_message))
        return out
