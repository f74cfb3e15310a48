"""The SQLite project store: cases, evidence, models, runs and the audit trail (no Qt).

Open a project with ``ProjectStore.open(path)`` (or ``create``/``open_or_create``/
``open_default``); everything it returns is a frozen dataclass from ``records``. See
docs/store.md for the schema, the audit chain, integrity, locking and intake rules.
"""

from taveer_desktop.store.errors import (
    Conflict,
    DamagedStore,
    EvidenceRefused,
    IntakeRejected,
    NewerStoreVersion,
    NotAProjectStore,
    NotFound,
    ProjectLocked,
    StoreError,
)
from taveer_desktop.store.project_store import PROJECT_SUFFIX, ProjectStore
from taveer_desktop.store.records import (
    KNOWN,
    QUESTIONED,
    AuditEntry,
    Case,
    Document,
    IntakeRejection,
    IntakeResult,
    IntegrityProblem,
    IntegrityReport,
    LockHolder,
    RejectionReason,
    StoredModel,
    VerificationRun,
)

__all__ = [
    "KNOWN",
    "PROJECT_SUFFIX",
    "QUESTIONED",
    "AuditEntry",
    "Case",
    "Conflict",
    "DamagedStore",
    "Document",
    "EvidenceRefused",
    "IntakeRejected",
    "IntakeRejection",
    "IntakeResult",
    "IntegrityProblem",
    "IntegrityReport",
    "LockHolder",
    "NewerStoreVersion",
    "NotAProjectStore",
    "NotFound",
    "ProjectLocked",
    "ProjectStore",
    "RejectionReason",
    "StoreError",
    "StoredModel",
    "VerificationRun",
]
