"""Replaying the audit chain: which records exist, and with which seal, after each entry.

The chain is read from its first entry with the one table of actions the program writes
(``audit_actions.ACTIONS``): each entry creates, changes or removes the records its action
names. An action not in the table, a record created while it already exists, a change or removal
of a record that does not exist, and the removal of a document a stored run used are findings
naming the entry. What remains is the state the chain commits to: record → seal, compared with
the rows by ``reconciliation.py``.

Stores before version 6 carry no seals: their entries are replayed the same way (which records
exist) and the details each record was created with are kept for the older rules
(``legacy_checks.py``). The version 6 migration writes one ``records_sealed`` entry carrying the
seal of every record then and the state root; from there on every entry carries the seals of the
records it creates or changes. A store created at version 6 (its ``project_created`` entry says
so) is sealed from its first entry. The chain also remembers the versions the file reached: a
version set back (to be checked with the older rules, or sealed anew by the migration), a
``records_sealed`` entry in a store created sealed or a second one, and a version 6 store that no
entry sealed are findings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from taveer_desktop.store.audit_actions import (
    ACTIONS,
    CASE_OF_ENTRY,
    REPORT_ACTIONS,
    SEALING_ACTION,
    Effect,
    Transition,
)
from taveer_desktop.store.record_seal import RecordKey, State, state_root
from taveer_desktop.store.records import AuditEntry, IntegrityProblem

SEALED_FROM_VERSION = 6
_SEAL = re.compile(r"[0-9a-f]{64}")

# table → (kind of problem, how one record is named)
_NAMES: dict[str, tuple[str, str]] = {
    "cases": ("case", "case {}"),
    "documents": ("document", "document {}"),
    "document_exclusions": ("document", "the exclusion of document {}"),
    "models": ("model", "model {}"),
    "runs": ("run", "run {}"),
    "run_documents": ("run", "the set of documents of run {}"),
    "stability_checks": ("run", "stability check {}"),
    "populations": ("population", "population {}"),
    "population_documents": ("population", "the set of documents of population {}"),
    "validation_records": ("validation", "validation record {}"),
    "validation_uses": ("validation use", "declared use {}"),
    "declarations": ("declaration", "declaration {}"),
    "technical_reviews": ("review", "technical review {}"),
    "population_topics": ("population", "the topic labels {}"),
    "population_dates": ("population", "the document dates {}"),
}


def describe(key: RecordKey) -> str:
    return _NAMES[key[0]][1].format(key[1])


def kind_of(key: RecordKey) -> str:
    return _NAMES[key[0]][0]


def sealing_details(state: State) -> dict[str, Any]:
    """The details of the ``records_sealed`` entry for ``state``."""
    seals = sorted([table, record_id, seal] for (table, record_id), seal in state.items())
    return {"records": len(seals), "seals": seals, "state_root": state_root(state)}


@dataclass
class Replay:
    """The outcome of replaying a chain (see the module's docstring)."""

    version: int
    sealed_from: int | None = None  # seq of records_sealed; 0: from the start; None: unsealed
    state: dict[RecordKey, str | None] = field(default_factory=dict)  # None: not sealed yet
    legacy: dict[RecordKey, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    problems: list[IntegrityProblem] = field(default_factory=list)
    changes: dict[RecordKey, list[tuple[int, str]]] = field(default_factory=dict)
    snapshot: dict[RecordKey, str | None] | None = None
    used_by: dict[int, int] = field(default_factory=dict)  # document id → a run that used it

    @property
    def sealed(self) -> bool:
        return self.sealed_from is not None

    def root(self) -> str:
        """The state root of the replayed state ("" while records are not sealed)."""
        if not self.sealed or any(seal is None for seal in self.state.values()):
            return ""
        return state_root({key: seal for key, seal in self.state.items() if seal})

    def legacy_details(self, table: str) -> dict[int, tuple[int, dict[str, Any]]]:
        """Record id → (seq, details) of the unsealed entries that describe it."""
        return {rid: found for (name, rid), found in self.legacy.items() if name == table}

    def last_entry(self, key: RecordKey) -> int | None:
        changes = self.changes.get(key)
        return changes[-1][0] if changes else None

    def _problem(self, seq: int, message: str) -> None:
        self.problems.append(IntegrityProblem("audit", f"audit entry {seq}", message))


def replay(entries: Iterable[AuditEntry], version: int, snapshot_seq: int | None = None) -> Replay:
    """Replay ``entries`` (in order) of a store of schema ``version``; ``snapshot_seq``: also
    keep the state right after that entry (``Replay.snapshot``)."""
    entries = list(entries)
    result = Replay(version)
    first = entries[0].details if entries and entries[0].action == "project_created" else {}
    created = first.get("schema_version") if isinstance(first, dict) else None
    if (
        version >= SEALED_FROM_VERSION
        and isinstance(created, int)
        and created >= SEALED_FROM_VERSION
    ):
        result.sealed_from = 0  # created sealed: every entry carries its seals
    reached = (0, 0)  # (store version the chain says the file reached, at which entry)
    for entry in entries:
        details = entry.details if isinstance(entry.details, dict) else {}
        reached = _version_step(result, entry, details, reached)
        if entry.action == SEALING_ACTION:
            _seal_all(result, entry.seq, details)
        elif entry.action not in ACTIONS:
            result._problem(entry.seq, f"its action {entry.action!r} is not one the program writes")
        else:
            for effect in ACTIONS[entry.action]:
                _apply(result, entry, details, effect)
        if entry.seq == snapshot_seq:
            result.snapshot = dict(result.state) if result.sealed else None
    if version >= SEALED_FROM_VERSION and not result.sealed:
        result._problem(
            entries[-1].seq if entries else 0,
            f"the store is at version {version} but no records_sealed entry sealed its records",
        )
    if reached[0] > version:
        result._problem(
            reached[1],
            f"records store version {reached[0]}, but the file says version {version}: its "
            "version was set back (the program never lowers it)",
        )
    return result


def _version_step(
    result: Replay, entry: AuditEntry, details: dict[str, Any], reached: tuple[int, int]
) -> tuple[int, int]:
    """The highest store version the chain recorded so far (``project_created`` and
    ``store_migrated``); a migration from a lower version than that is a finding."""
    key = {"project_created": "schema_version", "store_migrated": "to_version"}.get(entry.action)
    if key is None or not isinstance(details.get(key), int):
        return reached
    start = details.get("from_version")
    if entry.action == "store_migrated" and isinstance(start, int) and start < reached[0]:
        result._problem(
            entry.seq,
            f"migrates from store version {start}, but audit entry {reached[1]} recorded "
            f"version {reached[0]}: the file's version was set back",
        )
    return max(reached, (details[key], entry.seq))


def _apply(result: Replay, entry: AuditEntry, details: dict[str, Any], effect: Effect) -> None:
    seq, action = entry.seq, entry.action
    record_id = entry.case_id if effect.id_key == CASE_OF_ENTRY else details.get(effect.id_key)
    if not isinstance(record_id, int) or isinstance(record_id, bool):
        result._problem(seq, f"{action} names no {_NAMES[effect.table][0]} id")
        return
    key = (effect.table, record_id)
    exists = key in result.state
    transition = effect.transition
    if transition is Transition.CREATE and exists:
        result._problem(
            seq,
            f"{action} creates {describe(key)} again, which audit entry "
            f"{result.last_entry(key)} created: the program never writes a second one",
        )
        return
    if transition is Transition.DELETE_IF_PRESENT and not exists:
        return
    if transition in (Transition.UPDATE, Transition.DELETE) and not exists:
        what = "changes" if transition is Transition.UPDATE else "removes"
        result._problem(seq, f"{action} {what} {describe(key)}, which does not exist then")
        return
    if effect.table == "documents" and transition is Transition.DELETE:
        run_id = result.used_by.get(record_id)
        if run_id is not None:
            result._problem(
                seq,
                f"{action} removes document {record_id}, which stored run {run_id} used: "
                "the program never removes evidence a run used",
            )
    seal = details.get(effect.seal_key)
    if result.sealed:
        _apply_sealed(result, seq, action, key, transition, seal)
    elif transition in (Transition.CREATE, Transition.UPDATE):
        result.state[key] = None
        if effect.id_key != CASE_OF_ENTRY:  # a case touched by its evidence keeps its details
            previous = result.legacy.get(key, (seq, {}))[1]
            result.legacy[key] = (seq, {**previous, **details, "entry_case_id": entry.case_id})
    else:
        result.state.pop(key, None)
        result.legacy.pop(key, None)
    if action == "run_stored" and effect.table == "runs":
        used = [details.get("questioned_document_id"), *details.get("known_document_ids", [])]
        result.used_by.update((d, record_id) for d in used if isinstance(d, int))
    result.changes.setdefault(key, []).append((seq, action))


def _apply_sealed(
    result: Replay,
    seq: int,
    action: str,
    key: RecordKey,
    transition: Transition,
    seal: object,
) -> None:
    result.legacy.pop(key, None)
    if transition in (Transition.CREATE, Transition.UPDATE):
        if not (isinstance(seal, str) and _SEAL.fullmatch(seal)):
            result._problem(seq, f"{action} carries no seal of {describe(key)}")
            seal = ""  # held against no row: the record is then reported as different
        result.state[key] = str(seal)
        return
    if seal != result.state.get(key):
        result._problem(
            seq, f"{action} removes {describe(key)} naming a seal other than the one it had"
        )
    result.state.pop(key, None)


def _seal_all(result: Replay, seq: int, details: dict[str, Any]) -> None:
    if result.version < SEALED_FROM_VERSION:
        result._problem(
            seq, f"a records_sealed entry in a store of version {result.version}, which has none"
        )
        return
    if result.sealed:
        result._problem(seq, "a second records_sealed entry: the program writes only one")
        return
    seals: dict[RecordKey, str] = {}
    for item in details.get("seals") or []:
        if isinstance(item, list) and len(item) == 3 and item[0] in _NAMES:
            table, record_id, seal = item
            if isinstance(record_id, int) and isinstance(seal, str):
                seals[(table, record_id)] = seal
    if details.get("state_root") != state_root(seals):
        result._problem(seq, "records_sealed: its state root does not match the seals it lists")
    for key in sorted(set(result.state) - set(seals)):
        result._problem(seq, f"records_sealed leaves out {describe(key)}, which the chain holds")
    for key in sorted(set(seals) - set(result.state)):
        result._problem(seq, f"records_sealed seals {describe(key)}, which no entry created")
    result.state = dict(seals)
    for key in seals:
        result.changes.setdefault(key, []).append((seq, SEALING_ACTION))
    result.sealed_from = seq


def issued_reports(entries: Iterable[AuditEntry], sha256: str) -> list[AuditEntry]:
    """The entries recording a PDF with this SHA-256 as issued by the project."""
    return [
        entry
        for entry in entries
        if entry.action in REPORT_ACTIONS
        and isinstance(entry.details, dict)
        and entry.details.get("sha256") == sha256
    ]
