"""The one table of the audit actions the program writes and what each one changes.

Every write of the store appends exactly one audit entry; this table says, for each action, which
sealed records the write creates, changes in place or removes, where the entry names each record
(a key of its details, or the entry's own case) and under which key of the details the entry
carries the record's seal (store version 6). The writer (``record_seal.seal_fields``) and the
integrity check's replay (``state_replay.py``) both read this table, so what is written and what
is accepted can never drift apart. An action missing here is one the program never writes.

Sealed records are rows of the tables in ``SEALED_TABLES`` (keyed by their id column), plus the
rows of ``run_documents`` and ``population_documents``, sealed together per run or population
as one digest (``CHILD_TABLES``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

# table → the column that identifies a record of it
SEALED_TABLES: dict[str, str] = {
    "cases": "id",
    "documents": "id",
    "document_exclusions": "document_id",
    "models": "id",
    "runs": "id",
    "stability_checks": "id",
    "populations": "id",
    "validation_records": "id",
    "validation_uses": "id",
    "declarations": "id",  # store version 7
    "technical_reviews": "id",
    "population_topics": "id",  # store version 8
    "population_dates": "id",  # store version 9
}
# table of rows sealed together → the column naming the record they belong to
CHILD_TABLES: dict[str, str] = {
    "run_documents": "run_id",
    "population_documents": "population_id",
}

CASE_OF_ENTRY = ""  # an effect's id taken from the entry's case, not from its details


class Transition(Enum):
    CREATE = "create"
    UPDATE = "update"
    DELETE = "delete"
    DELETE_IF_PRESENT = "delete if present"  # a document's exclusion removed with the document


@dataclass(frozen=True)
class Effect:
    """One record an action creates, changes or removes."""

    table: str
    id_key: str  # key of the entry's details holding the record's id (CASE_OF_ENTRY: its case)
    transition: Transition
    seal_key: str  # key of the entry's details holding the record's seal after the action


def _touches_case(seal_key: str = "case_sha256") -> Effect:
    """The case row's ``modified_utc`` moves with every change of its evidence and runs."""
    return Effect("cases", CASE_OF_ENTRY, Transition.UPDATE, seal_key)


_C, _U, _D = Transition.CREATE, Transition.UPDATE, Transition.DELETE
_DP = Transition.DELETE_IF_PRESENT
ROW = "row_sha256"
ROWS = "document_rows_sha256"

ACTIONS: dict[str, tuple[Effect, ...]] = {
    "project_created": (),
    "store_migrated": (),
    "records_sealed": (),  # store version 6: the seals of every record then (state_replay)
    "case_created": (Effect("cases", "case_id", _C, ROW),),
    "case_updated": (Effect("cases", "case_id", _U, ROW),),
    "case_model_chosen": (Effect("cases", "case_id", _U, ROW),),
    "document_added": (Effect("documents", "document_id", _C, ROW), _touches_case()),
    "document_removed": (
        Effect("documents", "document_id", _D, ROW),
        Effect("document_exclusions", "document_id", _DP, "exclusion_sha256"),
        _touches_case(),
    ),
    "document_excluded": (Effect("document_exclusions", "document_id", _C, ROW), _touches_case()),
    "document_included": (Effect("document_exclusions", "document_id", _D, ROW), _touches_case()),
    "model_added": (Effect("models", "model_id", _C, ROW),),
    "run_stored": (
        Effect("runs", "run_id", _C, ROW),
        Effect("run_documents", "run_id", _C, ROWS),
        _touches_case(),
    ),
    "stability_stored": (Effect("stability_checks", "stability_id", _C, ROW),),
    "population_added": (
        Effect("populations", "population_id", _C, ROW),
        Effect("population_documents", "population_id", _C, ROWS),
    ),
    "population_topics_added": (Effect("population_topics", "topics_id", _C, ROW),),
    "population_dates_added": (Effect("population_dates", "dates_id", _C, ROW),),
    "validation_stored": (Effect("validation_records", "validation_id", _C, ROW),),
    "validation_used": (Effect("validation_uses", "use_id", _C, ROW),),
    "validation_failed": (),  # a case's validation that gave no model: its reason, kept
    "case_declared": (Effect("declarations", "declaration_id", _C, ROW),),
    "case_reviewed": (Effect("technical_reviews", "review_id", _C, ROW),),
    "report_exported": (),
    "validation_report_exported": (),
    "project_copy_saved": (),
    "checkpoint_signed": (),  # the head signed by the examiner (checkpoints.py)
}

# actions recording a PDF the project issued (details: ``sha256``, ``file_name``)
REPORT_ACTIONS = ("report_exported", "validation_report_exported")
SEALING_ACTION = "records_sealed"
