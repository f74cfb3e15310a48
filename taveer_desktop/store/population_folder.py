"""Reading a population folder (one sub-folder per author) through the evidence intake.

Every file goes through ``prepare_document``, the same reader and refusals as a case's evidence
(``.txt`` / ``.eml`` / ``.docx``; empty, binary, too large, unsupported or unreadable files are
refused with one sentence each). Refused files are left out and listed; files directly in the top
folder are ignored (they belong to no author). Encoding the accepted texts, and refusing the same
text under two authors, is the engine's business (``core/population.py``).

The folder itself is checked at the door, and a folder that fails is refused whole (one line
naming the path and the problem, nothing stored):

- **author folders**: a name that is blank, has spaces at either end, holds a control,
  bidirectional or other invisible character (``core/control_characters.py``), is not valid
  UTF-8, or looks the same as another author's (equal after Unicode normalisation and case
  folding: ``Zoë`` twice, ``alice`` and ``Alice``);
- **hidden entries** (a name starting with ``.``: ``.git``, ``.DS_Store``) are skipped, and
  their count is noted with the warnings;
- **links**: a symbolic link is followed only when it leads to a file inside the population
  folder; a link to a folder, or to anything outside the folder, is refused (a population is
  what its folder holds, read once: no cycles, nothing from elsewhere);
- **depth and size**: at most ``MAX_DEPTH`` folder levels below an author folder and
  ``MAX_FILES`` files in all (the walk stops as soon as either is passed);
- **file names** that are not valid UTF-8 are accepted and kept with their odd bytes written as
  ``\\xe9`` escapes, as for a case's evidence (``core/file_reading.shown_name``).
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from taveer_desktop.core.control_characters import escaped, unsafe_characters
from taveer_desktop.core.errors import InputError
from taveer_desktop.store.errors import EvidenceRefused
from taveer_desktop.store.intake import PreparedDocument, prepare_document

MAX_DEPTH = 8  # folder levels below an author folder
MAX_FILES = 20_000  # files in the whole population


@dataclass
class PopulationFiles:
    """Accepted documents by author (sub-folder name) and the refusals, in path order."""

    root: Path
    documents: dict[str, list[PreparedDocument]]
    refused: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # e.g. hidden entries skipped

    @property
    def warnings(self) -> list[str]:
        """The refusals and the notes, one line each, as the examiner is told them."""
        return self.refused + self.notes

    def texts(self) -> dict[str, list[tuple[str, str]]]:
        return {
            author: [(d.file_name, d.text) for d in docs] for author, docs in self.documents.items()
        }


def _author_problem(name: str) -> str | None:
    """Why a folder name cannot be an author's name (None: it can)."""
    if not name.strip():
        return "is blank"
    if any("\udc80" <= c <= "\udcff" for c in name):  # undecodable bytes (surrogateescape)
        return "is not valid UTF-8"
    hidden = unsafe_characters(name)
    if hidden:
        return f"holds control or invisible characters ({', '.join(hidden)})"
    if name != name.strip():
        return "begins or ends with a space"
    return None


def _authors(root: Path) -> tuple[list[Path], int]:
    """The author folders (sorted by name) and the number of hidden entries skipped."""
    authors: list[Path] = []
    hidden = 0
    seen: dict[str, str] = {}  # normalised, case-folded name → the folder's name
    for entry in sorted(os.scandir(root), key=lambda e: e.name):
        if entry.name.startswith("."):
            hidden += 1
            continue
        path = Path(entry.path)
        if entry.is_symlink():
            if entry.is_dir():
                raise InputError(
                    "is a link to a folder; an author folder must be a folder inside the "
                    "population folder (copy it in)",
                    escaped(str(path)),
                )
            continue  # a file in the top folder: no author's
        if not entry.is_dir(follow_symlinks=False):
            continue
        problem = _author_problem(entry.name)
        if problem:
            raise InputError(
                f"cannot be an author's folder: its name {problem}; rename it", escaped(str(path))
            )
        key = unicodedata.normalize("NFC", entry.name).casefold()
        if key in seen:
            raise InputError(
                f"has two author folders whose names look the same: {seen[key]!r} and "
                f"{entry.name!r}; merge or rename them",
                root,
            )
        seen[key] = entry.name
        authors.append(path)
    return authors, hidden


def _link_target(path: Path, root: Path) -> Path:
    """The file a link inside the population leads to; refused if outside it or a folder."""
    target = path.resolve()
    if not target.is_relative_to(root):
        raise InputError(
            f"is a link to {escaped(str(target))}, outside the population folder; a population "
            "holds only files inside its folder (copy the file in)",
            escaped(str(path)),
        )
    if target.is_dir():
        raise InputError(
            "is a link to a folder; only links to files inside the population folder are followed",
            escaped(str(path)),
        )
    return target


def _author_files(folder: Path, root: Path, budget: list[int]) -> tuple[list[Path], int]:
    """Every file below an author folder (sorted), within the depth and file limits, and the
    number of hidden entries skipped. ``budget`` holds the files still allowed (shared)."""
    files: list[Path] = []
    hidden = 0
    stack = [(folder, 0)]
    while stack:
        current, depth = stack.pop()
        for entry in os.scandir(current):
            if entry.name.startswith("."):
                hidden += 1
                continue
            path = Path(entry.path)
            if entry.is_symlink():
                _link_target(path, root)
            elif entry.is_dir(follow_symlinks=False):
                if depth + 1 > MAX_DEPTH:
                    raise InputError(
                        f"is nested more than {MAX_DEPTH} folders deep below its author folder; "
                        "a population is one folder per author (sub-folders up to "
                        f"{MAX_DEPTH} levels)",
                        escaped(str(path)),
                    )
                stack.append((path, depth + 1))
                continue
            budget[0] -= 1
            if budget[0] < 0:
                raise InputError(
                    f"holds more than {MAX_FILES:,} files; split the population or leave "
                    "documents out",
                    root,
                )
            files.append(path)
    return sorted(files), hidden


def read_population_folder(path: str | Path) -> PopulationFiles:
    """Read every file of every author sub-folder (sorted, so the result is reproducible)."""
    root = Path(path)
    if not root.is_dir():
        raise InputError(
            "is not a folder (a population is a folder with one sub-folder per author)", root
        )
    real_root = root.resolve()
    authors, hidden = _authors(root)
    if not authors:
        raise InputError(
            "holds no author sub-folders (a population is a folder with one sub-folder per "
            "author, each holding that author's documents)",
            root,
        )
    result = PopulationFiles(root, {})
    budget = [MAX_FILES]
    listed = [(folder, *_author_files(folder, real_root, budget)) for folder in authors]
    for folder, files, skipped in listed:
        hidden += skipped
        accepted = []
        for file in files:
            try:
                accepted.append(prepare_document(file))
            except EvidenceRefused as error:
                result.refused.append(str(error))
        result.documents[folder.name] = accepted
    if hidden:
        result.notes.append(
            f"{escaped(str(root))}: {hidden} hidden file(s) or folder(s) (names starting "
            "with '.') left out"
        )
    return result
