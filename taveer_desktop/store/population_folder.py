"""Reading a population folder (one sub-folder per author) through the evidence intake.

Every file goes through ``prepare_document``, the same reader and refusals as a case's evidence
(``.txt`` / ``.eml`` / ``.docx``; empty, binary, too large, unsupported or unreadable files are
refused with one sentence each). Refused files are left out and listed; hidden files and files
directly in the top folder are ignored (they belong to no author). Encoding the accepted texts is
the engine's business (``core/population.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from taveer_desktop.core.errors import InputError
from taveer_desktop.store.errors import EvidenceRefused
from taveer_desktop.store.intake import PreparedDocument, prepare_document


@dataclass
class PopulationFiles:
    """Accepted documents by author (sub-folder name) and the refusals, in path order."""

    root: Path
    documents: dict[str, list[PreparedDocument]]
    refused: list[str] = field(default_factory=list)

    def texts(self) -> dict[str, list[tuple[str, str]]]:
        return {
            author: [(d.file_name, d.text) for d in docs] for author, docs in self.documents.items()
        }


def read_population_folder(path: str | Path) -> PopulationFiles:
    """Read every file of every author sub-folder (sorted, so the result is reproducible)."""
    root = Path(path)
    if not root.is_dir():
        raise InputError(
            "is not a folder (a population is a folder with one sub-folder per author)", root
        )
    authors = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    if not authors:
        raise InputError(
            "holds no author sub-folders (a population is a folder with one sub-folder per "
            "author, each holding that author's documents)",
            root,
        )
    result = PopulationFiles(root, {})
    for folder in authors:
        files = sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith("."))
        accepted = []
        for file in files:
            try:
                accepted.append(prepare_document(file))
            except EvidenceRefused as error:
                result.refused.append(str(error))
        result.documents[folder.name] = accepted
    return result
