"""The project store's schema, one migration per version.

``MIGRATIONS[n - 1]`` turns a version ``n - 1`` store into version ``n``; version 0 is an empty
SQLite file. A migration is a tuple of single SQL statements (never ``executescript``, which
would commit half-way); ``migrations.py`` runs each one inside its own ``BEGIN IMMEDIATE``
transaction together with ``PRAGMA user_version``. Never edit a released migration: append a
new one, bump nothing else, and add its fixture with ``tests/store/fixtures/make_fixtures.py``.

Version 1 tables
- ``store_meta``: key/value facts about the store (creator version, the audit chain's head).
- ``cases``: one row per case; ``number`` is the examiner's case number, unique.
- ``documents``: evidence exactly as received (``original_bytes``) with its SHA-256, the decoded
  text and its SHA-256. Large columns come last so listings never read them. Evidence columns
  cannot be updated (trigger); a document used by a stored run cannot be deleted (foreign key).
- ``models``: the model JSON bytes as received and their SHA-256; immutable.
- ``runs`` / ``run_documents``: a stored verification, the documents it used and their hashes
  at the time, and the full result as zlib-compressed UTF-8 JSON (``result_json_zlib``; with the
  interpretation lists a result is ~0.5 MB of JSON that compresses about twelve-fold);
  ``record_sha256`` covers all of it, the compressed bytes included; immutable.
- ``audit_log``: append-only (triggers refuse UPDATE and DELETE) and hash-chained.

Version 2 (the conclusions a court can rely on; docs/store.md has the details)
- ``runs`` rebuilt (SQLite cannot widen a CHECK): ``prediction`` allows ``inconclusive``, and
  ``conclusion`` keeps the gate's kind (NULL before version 2); fingerprint ``taveer-run-v2``.
- ``stability_checks`` (immutable, audited); ``document_exclusions`` (removal audited);
  ``cases.model_id`` (the model chosen). The rebuild runs with foreign keys off
  (``migrations.py``) and is checked with ``PRAGMA foreign_key_check`` before it commits.

Version 3 (deletion guarded like update): cases, models, runs and stability checks cannot be
deleted (triggers); a document or an exclusion only inside an audited removal (its permit in
``removal_permits``); a forger who drops the triggers is caught by the reconciliation.

Version 4 (validation on a relevant population)
- ``populations``: a named relevant population (name unique, a description of who, genre,
  period and how selected), the SHA-256 identifying its authors and texts, its counts.
- ``population_documents``: every document of a population exactly as received through the
  evidence intake (bytes, SHA-256, decoded text and its SHA-256), with its author.
- ``validation_records``: a validation's record (JSON bytes and their SHA-256), the population
  it used, the model it produced and the case it was run for, with the headline figures.
All three are immutable and cannot be deleted; each row is written with its audit entry
(``population_added``, ``validation_stored``) and held to it both ways by the integrity check.

Version 5: ``validation_uses``, a stored validation record linked to another case than its own,
with the examiner's ``reason`` why its population is relevant (one per case and record);
immutable, cannot be deleted, written with its ``validation_used`` entry.

Version 6 (the state sealed): no table changes; ``migrations.py`` writes one ``records_sealed``
entry with the seal of every record (``record_seal.py``) and the state root; every later entry
carries the seals of the records it changes, and the check holds every row to its seal.

Version 7 (a report a lab can sign: declaration and technical review)
- ``declarations``: the examiner's declaration for a case (name, role, statement, text) and
  the digest of the case as it stood (``store/case_state.py``); a newer one supersedes it.
- ``technical_reviews``: a second examiner's review of a declared state (reviewer, outcome
  ``approved`` / ``changes_required``, comments, the declaration and the state digest).
Both are immutable and cannot be deleted (triggers), sealed like every record (no
``records_sealed`` entry is needed: the tables are new and empty when the step runs).

Version 8: ``population_topics``, the topic labels a population's files gave when it was added
(source, count, ``[[author, text SHA-256, topic], …]``), with ``population_topics_added``.
Version 9: ``population_dates``, the dates its ``topics.csv`` gave its documents (source, count,
``[[author, text SHA-256, ISO 8601 date], …]``), with ``population_dates_added``. Both: at most
one per population, immutable, cannot be deleted, sealed (see docs/store.md).
"""

from __future__ import annotations

APPLICATION_ID = 0x54415645  # "TAVE": marks an SQLite file as a TAVeer project store
GENESIS_HASH = "0" * 64

_IMMUTABLE = "RAISE(ABORT, '{what} cannot be changed once stored')"

MIGRATION_1: tuple[str, ...] = (
    f"PRAGMA application_id = {APPLICATION_ID}",
    """CREATE TABLE store_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) WITHOUT ROWID""",
    """CREATE TABLE cases (
        id INTEGER PRIMARY KEY,
        number TEXT NOT NULL UNIQUE CHECK (length(trim(number)) > 0),
        title TEXT NOT NULL DEFAULT '',
        examiner TEXT NOT NULL DEFAULT '',
        agency TEXT NOT NULL DEFAULT '',
        description TEXT NOT NULL DEFAULT '',
        created_utc TEXT NOT NULL,
        modified_utc TEXT NOT NULL
    )""",
    """CREATE TABLE documents (
        id INTEGER PRIMARY KEY,
        case_id INTEGER NOT NULL REFERENCES cases(id) ON DELETE RESTRICT,
        role TEXT NOT NULL CHECK (role IN ('known', 'questioned')),
        file_name TEXT NOT NULL,
        file_format TEXT NOT NULL CHECK (file_format IN ('txt', 'eml', 'docx')),
        byte_count INTEGER NOT NULL CHECK (byte_count > 0),
        sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
        encoding TEXT NOT NULL,
        text_sha256 TEXT NOT NULL CHECK (length(text_sha256) = 64),
        char_count INTEGER NOT NULL,
        sentence_count INTEGER NOT NULL,
        imported_utc TEXT NOT NULL,
        metadata_json TEXT NOT NULL DEFAULT '{}',
        text TEXT NOT NULL,
        original_bytes BLOB NOT NULL,
        UNIQUE (case_id, sha256)
    )""",
    "CREATE INDEX documents_by_case ON documents (case_id, role)",
    """CREATE TRIGGER documents_evidence_immutable
        BEFORE UPDATE OF case_id, role, file_name, file_format, byte_count, sha256, encoding,
            text_sha256, char_count, sentence_count, imported_utc, metadata_json, text,
            original_bytes ON documents
        BEGIN SELECT """
    + _IMMUTABLE.format(what="stored evidence")
    + "; END",
    """CREATE TABLE models (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
        byte_count INTEGER NOT NULL,
        corpus_name TEXT NOT NULL,
        corpus_sha256 TEXT NOT NULL,
        source_file_name TEXT NOT NULL,
        added_utc TEXT NOT NULL,
        model_json BLOB NOT NULL
    )""",
    """CREATE TRIGGER models_immutable BEFORE UPDATE ON models
        BEGIN SELECT """
    + _IMMUTABLE.format(what="a stored model")
    + "; END",
    """CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        case_id INTEGER NOT NULL REFERENCES cases(id) ON DELETE RESTRICT,
        model_id INTEGER NOT NULL REFERENCES models(id) ON DELETE RESTRICT,
        questioned_document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE RESTRICT,
        prediction TEXT NOT NULL CHECK (prediction IN ('Y', 'N', 'insufficient')),
        similarity REAL,
        software_version TEXT NOT NULL,
        run_utc TEXT NOT NULL,
        record_sha256 TEXT NOT NULL CHECK (length(record_sha256) = 64),
        result_json_zlib BLOB NOT NULL
    )""",
    "CREATE INDEX runs_by_case ON runs (case_id)",
    """CREATE TRIGGER runs_immutable BEFORE UPDATE ON runs
        BEGIN SELECT """
    + _IMMUTABLE.format(what="a stored run")
    + "; END",
    """CREATE TABLE run_documents (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE RESTRICT,
        role TEXT NOT NULL CHECK (role IN ('known', 'questioned')),
        document_sha256 TEXT NOT NULL,
        PRIMARY KEY (run_id, document_id)
    ) WITHOUT ROWID""",
    "CREATE INDEX run_documents_by_document ON run_documents (document_id)",
    """CREATE TABLE audit_log (
        seq INTEGER PRIMARY KEY,
        time_utc TEXT NOT NULL,
        action TEXT NOT NULL,
        case_id INTEGER REFERENCES cases(id) ON DELETE RESTRICT,
        actor TEXT NOT NULL,
        details_json TEXT NOT NULL,
        prev_hash TEXT NOT NULL CHECK (length(prev_hash) = 64),
        entry_hash TEXT NOT NULL CHECK (length(entry_hash) = 64)
    )""",
    "CREATE INDEX audit_by_case ON audit_log (case_id)",
    """CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END""",
    """CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END""",
)

MIGRATION_2: tuple[str, ...] = (
    """CREATE TABLE runs_v2 (
        id INTEGER PRIMARY KEY,
        case_id INTEGER NOT NULL REFERENCES cases(id) ON DELETE RESTRICT,
        model_id INTEGER NOT NULL REFERENCES models(id) ON DELETE RESTRICT,
        questioned_document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE RESTRICT,
        prediction TEXT NOT NULL
            CHECK (prediction IN ('Y', 'N', 'inconclusive', 'insufficient')),
        similarity REAL,
        software_version TEXT NOT NULL,
        run_utc TEXT NOT NULL,
        record_sha256 TEXT NOT NULL CHECK (length(record_sha256) = 64),
        result_json_zlib BLOB NOT NULL,
        conclusion TEXT CHECK (conclusion IN ('evaluative', 'investigative', 'none'))
    )""",
    """INSERT INTO runs_v2 (id, case_id, model_id, questioned_document_id, prediction,
        similarity, software_version, run_utc, record_sha256, result_json_zlib, conclusion)
        SELECT id, case_id, model_id, questioned_document_id, prediction, similarity,
            software_version, run_utc, record_sha256, result_json_zlib, NULL FROM runs""",
    "DROP TABLE runs",
    "ALTER TABLE runs_v2 RENAME TO runs",
    "CREATE INDEX runs_by_case ON runs (case_id)",
    """CREATE TRIGGER runs_immutable BEFORE UPDATE ON runs
        BEGIN SELECT """
    + _IMMUTABLE.format(what="a stored run")
    + "; END",
    """CREATE TABLE stability_checks (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE RESTRICT,
        resamples INTEGER NOT NULL CHECK (resamples > 0),
        keep_fraction REAL NOT NULL CHECK (keep_fraction > 0 AND keep_fraction <= 1),
        seed INTEGER NOT NULL,
        agreeing INTEGER NOT NULL CHECK (agreeing >= 0 AND agreeing <= resamples),
        interval_low REAL NOT NULL,
        interval_high REAL NOT NULL,
        answers_json TEXT NOT NULL,
        software_version TEXT NOT NULL,
        computed_utc TEXT NOT NULL
    )""",
    "CREATE INDEX stability_by_run ON stability_checks (run_id)",
    """CREATE TRIGGER stability_checks_immutable BEFORE UPDATE ON stability_checks
        BEGIN SELECT """
    + _IMMUTABLE.format(what="a stored stability check")
    + "; END",
    """CREATE TABLE document_exclusions (
        document_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE RESTRICT,
        reason TEXT NOT NULL CHECK (length(trim(reason)) > 0),
        excluded_utc TEXT NOT NULL
    )""",
    "ALTER TABLE cases ADD COLUMN model_id INTEGER REFERENCES models(id) ON DELETE RESTRICT",
)

_NO_DELETE = "RAISE(ABORT, '{what} cannot be deleted')"


def _guards(table: str, what: str) -> tuple[str, str]:
    """The triggers of a table none of whose rows can be changed or deleted."""
    return (
        f"CREATE TRIGGER {table}_immutable BEFORE UPDATE ON {table} BEGIN SELECT "
        + _IMMUTABLE.format(what=what)
        + "; END",
        f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} BEGIN SELECT "
        + _NO_DELETE.format(what=what)
        + "; END",
    )


_AUDITED_ONLY = "RAISE(ABORT, '{what} is removed only by an audited removal')"

MIGRATION_3: tuple[str, ...] = (
    """CREATE TABLE removal_permits (
        kind TEXT NOT NULL CHECK (kind IN ('document', 'exclusion')),
        object_id INTEGER NOT NULL,
        PRIMARY KEY (kind, object_id)
    ) WITHOUT ROWID""",
    """CREATE TRIGGER documents_no_plain_delete BEFORE DELETE ON documents
        WHEN NOT EXISTS (SELECT 1 FROM removal_permits
                         WHERE kind = 'document' AND object_id = OLD.id)
        BEGIN SELECT """
    + _AUDITED_ONLY.format(what="stored evidence")
    + "; END",
    """CREATE TRIGGER document_exclusions_no_plain_delete BEFORE DELETE ON document_exclusions
        WHEN NOT EXISTS (SELECT 1 FROM removal_permits
                         WHERE kind = 'exclusion' AND object_id = OLD.document_id)
        BEGIN SELECT """
    + _AUDITED_ONLY.format(what="an exclusion of evidence")
    + "; END",
)
for _table, _what in (
    ("cases", "a case"),
    ("models", "a stored model"),
    ("runs", "a stored run"),
    ("stability_checks", "a stored stability check"),
):
    MIGRATION_3 += (
        f"CREATE TRIGGER {_table}_no_delete BEFORE DELETE ON {_table} BEGIN SELECT "
        + _NO_DELETE.format(what=_what)
        + "; END",
    )

MIGRATION_4: tuple[str, ...] = (
    """CREATE TABLE populations (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE CHECK (length(trim(name)) > 0),
        description TEXT NOT NULL CHECK (length(trim(description)) > 0),
        source_path TEXT NOT NULL,
        sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
        author_count INTEGER NOT NULL CHECK (author_count > 0),
        document_count INTEGER NOT NULL CHECK (document_count > 0),
        added_utc TEXT NOT NULL
    )""",
    """CREATE TABLE population_documents (
        id INTEGER PRIMARY KEY,
        population_id INTEGER NOT NULL REFERENCES populations(id) ON DELETE RESTRICT,
        author TEXT NOT NULL CHECK (length(trim(author)) > 0),
        file_name TEXT NOT NULL,
        file_format TEXT NOT NULL CHECK (file_format IN ('txt', 'eml', 'docx')),
        byte_count INTEGER NOT NULL CHECK (byte_count > 0),
        sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
        encoding TEXT NOT NULL,
        text_sha256 TEXT NOT NULL CHECK (length(text_sha256) = 64),
        char_count INTEGER NOT NULL,
        text TEXT NOT NULL,
        original_bytes BLOB NOT NULL,
        UNIQUE (population_id, author, sha256)
    )""",
    "CREATE INDEX population_documents_by_population ON population_documents (population_id)",
    """CREATE TABLE validation_records (
        id INTEGER PRIMARY KEY,
        case_id INTEGER REFERENCES cases(id) ON DELETE RESTRICT,
        population_id INTEGER NOT NULL REFERENCES populations(id) ON DELETE RESTRICT,
        model_id INTEGER NOT NULL REFERENCES models(id) ON DELETE RESTRICT,
        criteria_met INTEGER CHECK (criteria_met IN (0, 1)),
        cllr REAL,
        software_version TEXT NOT NULL,
        created_utc TEXT NOT NULL,
        record_sha256 TEXT NOT NULL CHECK (length(record_sha256) = 64),
        record_json BLOB NOT NULL
    )""",
    "CREATE INDEX validation_records_by_case ON validation_records (case_id)",
    "CREATE INDEX validation_records_by_model ON validation_records (model_id)",
)
for _table, _what in (
    ("populations", "a stored population"),
    ("population_documents", "a document of a population"),
    ("validation_records", "a validation record"),
):
    MIGRATION_4 += _guards(_table, _what)

MIGRATION_5: tuple[str, ...] = (
    """CREATE TABLE validation_uses (
        id INTEGER PRIMARY KEY,
        case_id INTEGER NOT NULL REFERENCES cases(id) ON DELETE RESTRICT,
        validation_id INTEGER NOT NULL REFERENCES validation_records(id) ON DELETE RESTRICT,
        reason TEXT NOT NULL CHECK (length(trim(reason)) > 0),
        declared_utc TEXT NOT NULL,
        UNIQUE (case_id, validation_id)
    )""",
    "CREATE INDEX validation_uses_by_case ON validation_uses (case_id)",
    "CREATE TRIGGER validation_uses_immutable BEFORE UPDATE ON validation_uses BEGIN SELECT "
    + _IMMUTABLE.format(what="a declared use of a validation")
    + "; END",
    "CREATE TRIGGER validation_uses_no_delete BEFORE DELETE ON validation_uses BEGIN SELECT "
    + _NO_DELETE.format(what="a declared use of a validation")
    + "; END",
)

MIGRATION_6: tuple[str, ...] = ()  # the records are sealed by migrations.py (records_sealed)
MIGRATION_7: tuple[str, ...] = (
    """CREATE TABLE declarations (
        id INTEGER PRIMARY KEY,
        case_id INTEGER NOT NULL REFERENCES cases(id) ON DELETE RESTRICT,
        examiner TEXT NOT NULL CHECK (length(trim(examiner)) > 0),
        role TEXT NOT NULL CHECK (length(trim(role)) > 0),
        statement_of_truth TEXT NOT NULL CHECK (length(trim(statement_of_truth)) > 0),
        declaration TEXT NOT NULL CHECK (length(trim(declaration)) > 0),
        case_state_sha256 TEXT NOT NULL CHECK (length(case_state_sha256) = 64),
        declared_utc TEXT NOT NULL
    )""",
    "CREATE INDEX declarations_by_case ON declarations (case_id)",
    """CREATE TABLE technical_reviews (
        id INTEGER PRIMARY KEY,
        case_id INTEGER NOT NULL REFERENCES cases(id) ON DELETE RESTRICT,
        declaration_id INTEGER NOT NULL REFERENCES declarations(id) ON DELETE RESTRICT,
        reviewer TEXT NOT NULL CHECK (length(trim(reviewer)) > 0),
        outcome TEXT NOT NULL CHECK (outcome IN ('approved', 'changes_required')),
        comments TEXT NOT NULL DEFAULT '',
        case_state_sha256 TEXT NOT NULL CHECK (length(case_state_sha256) = 64),
        reviewed_utc TEXT NOT NULL
    )""",
    "CREATE INDEX technical_reviews_by_case ON technical_reviews (case_id)",
)
MIGRATION_7 += _guards("declarations", "a declaration of an examiner")
MIGRATION_7 += _guards("technical_reviews", "a technical review")

MIGRATION_8: tuple[str, ...] = (
    """CREATE TABLE population_topics (
        id INTEGER PRIMARY KEY,
        population_id INTEGER NOT NULL UNIQUE REFERENCES populations(id) ON DELETE RESTRICT,
        source TEXT NOT NULL CHECK (length(trim(source)) > 0),
        topic_count INTEGER NOT NULL CHECK (topic_count >= 2),
        labels_json TEXT NOT NULL CHECK (json_valid(labels_json))
    )""",
    *_guards("population_topics", "the topic labels of a population"),
)

MIGRATION_9: tuple[str, ...] = (
    """CREATE TABLE population_dates (
        id INTEGER PRIMARY KEY,
        population_id INTEGER NOT NULL UNIQUE REFERENCES populations(id) ON DELETE RESTRICT,
        source TEXT NOT NULL CHECK (length(trim(source)) > 0),
        dated_count INTEGER NOT NULL CHECK (dated_count >= 1),
        dates_json TEXT NOT NULL CHECK (json_valid(dates_json))
    )""",
    *_guards("population_dates", "the document dates of a population"),
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    MIGRATION_1,
    MIGRATION_2,
    MIGRATION_3,
    MIGRATION_4,
    MIGRATION_5,
    MIGRATION_6,
    MIGRATION_7,
    MIGRATION_8,
    MIGRATION_9,
)
SCHEMA_VERSION = len(MIGRATIONS)
