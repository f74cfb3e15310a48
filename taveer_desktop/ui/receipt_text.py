"""What the examiner is told about receipts: written, checked, and written beside a report.

Qt-free wording over ``store.receipts`` (``Receipt``, the problems ``check_receipt`` returns)
and the ``ExportedReport`` of ``report.export``. A receipt check says plainly whether the
project continues the receipt; when it does not, it names what happened (another project, rolled
back or trimmed, re-chained) in the store's own sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from taveer_desktop.presentation import numbers
from taveer_desktop.store import IntegrityReport
from taveer_desktop.store.receipts import Receipt
from taveer_desktop.ui.record_table_model import short_utc

KEEP_ADVICE = (
    "Keep it where whoever holds the project cannot change it (the case file, an e-mail to a "
    "colleague, a write-once medium): checked against it later, a project rolled back to an "
    "older copy, trimmed or re-chained shows. It proves nothing about what is added after it."
)


@dataclass(frozen=True)
class ReceiptCheckOutcome:
    """The result of File ▸ Check Against Receipt, in words."""

    ok: bool
    headline: str
    explanation: str
    details: str


def what_went_wrong(problem: str) -> str:
    """The kind of failure a ``check_receipt`` sentence describes, in two or three words."""
    if "not the project" in problem:
        return "another project"
    if "rolled back" in problem or "trimmed" in problem:
        return "rolled back or trimmed"
    if "rebuilt or replaced" in problem:
        return "re-chained"
    if "by no audited entry" in problem or "state root differs" in problem:
        return "records changed"
    if "not recorded as issued" in problem:
        return "report not issued"
    return "not a continuation"


def _sentence(problem: str, receipt: Receipt) -> str:
    """The store's sentence with a capital letter, its times as the window shows times."""
    for iso in (receipt.time_utc, receipt.head_time_utc):
        problem = problem.replace(iso, short_utc(iso))
    problem = problem[:1].upper() + problem[1:]
    return problem if problem.endswith(".") else problem + "."


def receipt_lines(receipt: Receipt) -> list[str]:
    return [
        f"Receipt written: {short_utc(receipt.time_utc)} (project file then: {receipt.project})",
        f"Sealed audit entry: {receipt.chain_length}, written {short_utc(receipt.head_time_utc)}",
        f"Sealed head hash: {receipt.head_hash}",
        f"Project identity (hash of its first entry): {receipt.store_identity}",
    ]


def receipt_check_outcome(
    receipt: Receipt,
    problems: list[str],
    integrity: IntegrityReport,
    receipt_file: str | Path,
) -> ReceiptCheckOutcome:
    """The outcome of checking the open project against ``receipt``."""
    name = Path(receipt_file).name
    details = [f"Receipt file: {receipt_file}", *receipt_lines(receipt)]
    details.append(f"Project now: audit chain head {integrity.audit_head_hash}")
    details.append(integrity.summary())
    details += [f"{p.subject}: {p.message}" for p in integrity.problems]
    if problems:
        kind = what_went_wrong(problems[0])
        problems = [_sentence(p, receipt) for p in problems]
        return ReceiptCheckOutcome(
            False,
            f"Receipt check FAILED: the project is not a continuation of {name} ({kind}).",
            "\n".join(problems)
            + "\n\nWhat the receipt sealed is no longer in this project as it was. Compare "
            "it with the copy the receipt was made of before relying on it.",
            "\n".join(details),
        )
    if not integrity.ok:
        return ReceiptCheckOutcome(
            False,
            f"The project continues {name}, but it failed its integrity check.",
            f"{integrity.summary()} The project is open read-only; the problems are listed "
            "under Show Details.",
            "\n".join(details),
        )
    return ReceiptCheckOutcome(
        True,
        f"Receipt check passed: the project continues {name}.",
        f"The project is the one the receipt of {short_utc(receipt.time_utc)} was made for, "
        f"and its audit chain still holds entry {receipt.chain_length} exactly as sealed, with "
        "every later entry resting on it: nothing the receipt sealed was changed, removed or "
        f"rolled back. {integrity.summary()}",
        "\n".join(details),
    )


def receipt_written_text(receipt: Receipt, target: str | Path) -> str:
    """The confirmation of File ▸ Write Receipt."""
    return (
        f"Wrote the receipt {target}.\n\nIt seals the project's audit chain at entry "
        f"{receipt.chain_length}, head hash {numbers.digest(receipt.head_hash)}.\n\n{KEEP_ADVICE}"
    )


def report_exported_text(exported, receipt: Receipt | None = None) -> str:
    """The confirmation after Case ▸ Export Report: the PDF, its hash, the receipt beside it
    (``receipt``: that file as read back; else the report's own audit entry is named)."""
    entry = exported.audit_entry
    sealed = receipt.chain_length if receipt is not None else entry.seq
    lines = [
        f"Wrote the report {exported.path} ({numbers.count(exported.page_count, 'page')}).",
        f"Its SHA-256 {numbers.digest(exported.sha256)} is recorded in the audit log (entry "
        f"{entry.seq}).",
        f"Audit chain head at the report: {numbers.digest(entry.entry_hash)}",
    ]
    if exported.receipt_path is not None:
        lines.append(
            f"Receipt written beside it: {Path(exported.receipt_path).name} (in the same "
            f"folder), sealing the chain at entry {sealed}. {KEEP_ADVICE}"
        )
    else:
        lines.append(
            f"No receipt was written beside the report: {exported.receipt_problem}. The report "
            "itself is whole and recorded; write one with File ▸ Write Receipt…"
        )
    return "\n\n".join(lines)
