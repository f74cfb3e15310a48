"""Reading a population: the one reader every path uses (``read_population``).

``taveer population add``, the validation wizard's import and ``taveer validate --population``
all call ``read_population``, which knows two layouts and refuses everything else in one line:

- **a PAN corpus split** (``truth.txt`` or problem folders holding ``unknown.txt``, or a PAN
  2020+ ``pairs.jsonl``): its texts are filed under the authors its provenance names (the
  ``cases.csv`` beside it, or ``truth.jsonl``'s ``authors``; ``core/trials/population.py``,
  ``corpus_provenance``) — a problem folder is a case holding two writers' texts, never an
  author. A split that names no authors is refused, saying how to build a population; so is a
  corpus folder holding its splits (``train``, ``test``): one split is the population, the
  other is kept for testing. A PAN folder's files go through the evidence intake like any
  other; a jsonl text is taken as UTF-8 text, named ``<problem>/known`` or ``/unknown``.
- **a folder with one sub-folder per author**, read as below.

Either way, the documents' dates are read from the ``date`` column of the folder's metadata file
``topics.csv`` (``core/trials/document_dates.py``; a bad date refuses the population in one line
naming the file, row and value), so every path gets the same dates (``PopulationFiles.dates``).

Reading a population folder (one sub-folder per author) through the evidence intake.

Every file goes through ``prepare_document``, the same reader and refusals as a case's evidence
(``.txt`` / ``.eml`` / ``.docx``; empty, binary, too large, unsupported or unreadable files are
refused with one sentence each). Refused files are left out and listed; files directly in the top
folder are ignored (they belong to no author). Encoding the accepted texts, and refusing the same
text under two authors, is the engine's business (``core/trials/population.py``).

The folder itself is checked at the door, and a folder that fails is refused whole (one line
naming the path and the problem, nothing stored):

- **author folders**: a name that is blank, has spaces at either end, holds a control,
  bidirectional or other invisible character (``core/intake/control_characters.py``), is not valid
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
from dataclasses import dataclass, field, replace
from pathlib import Path

from taveer_desktop.core.features.text import count_sentences
from taveer_desktop.core.ground.counts import count
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.control_characters import escaped, unsafe_characters
from taveer_desktop.core.intake.corpus import PAN_FOLDER, Corpus, is_known_file, open_corpus
from taveer_desktop.core.intake.invisible_text import remove_invisible
from taveer_desktop.core.trials.document_dates import DocumentDates, read_dates
from taveer_desktop.core.trials.population import HOW_TO_BUILD, corpus_provenance
from taveer_desktop.store.errors import EvidenceRefused
from taveer_desktop.store.fingerprints import sha256_hex, text_sha256
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
    dates: DocumentDates | None = None  # the documents' dates, where its metadata gives them

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
            try:
                to_folder = entry.is_dir()
            except OSError:  # a link that loops: no folder (topics.csv is refused where read)
                to_folder = False
            if to_folder:
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
            f"{escaped(str(root))}: "
            f"{count(hidden, 'hidden file or folder', 'hidden files or folders')} "
            "(names starting with '.') left out"
        )
    return result


def pan_layout(path: Path) -> str | None:
    """What kind of PAN folder ``path`` is: "split" (a truth file, or problem folders),
    "corpus" (a folder holding PAN splits) or None (not a PAN layout)."""
    if (path / "truth.txt").is_file() or (path / "pairs.jsonl").is_file():
        return "split"
    try:
        folders = [Path(e.path) for e in os.scandir(path) if e.is_dir(follow_symlinks=False)]
    except OSError:
        return None
    if any(_is_problem_folder(folder) for folder in folders):
        return "split"
    if any(pan_layout(folder) == "split" for folder in folders if folder.name in _SPLITS):
        return "corpus"
    return None


_SPLITS = ("train", "test", "dev", "validation")


def _is_problem_folder(folder: Path) -> bool:
    """A PAN problem folder: ``unknown.txt`` beside at least one ``known*.txt``."""
    if not (folder / "unknown.txt").is_file():
        return False
    try:
        return any(is_known_file(entry.name) for entry in os.scandir(folder))
    except OSError:
        return False


def read_population(path: str | Path) -> PopulationFiles:
    """The documents of a population by author, whatever path it came in by (see above)."""
    root = Path(path)
    if not root.is_dir():
        raise InputError(
            "is not a folder (a population is a folder with one sub-folder per author, or a "
            "PAN corpus split that names the author of every text)",
            root,
        )
    layout = pan_layout(root)
    if layout == "corpus":
        splits = ", ".join(sorted(f.name for f in root.iterdir() if pan_layout(f) == "split"))
        raise InputError(
            f"is a PAN corpus holding the splits {splits}; give one split (e.g. "
            f"{escaped(str(root / 'train'))}) as the population and keep the other for testing",
            escaped(str(root)),
        )
    result = (
        _read_pan_split(open_corpus(root)) if layout == "split" else read_population_folder(root)
    )
    named = {
        a: [(d.file_name, d.text_sha256) for d in docs] for a, docs in result.documents.items()
    }
    result.dates = read_dates(root, named, result.notes)
    return result


def _read_pan_split(corpus: Corpus) -> PopulationFiles:
    """A PAN split's texts under the authors its provenance names."""
    provenance = corpus_provenance(corpus)
    missing = [case_id for case_id in corpus.case_ids if case_id not in provenance]
    if missing:
        raise InputError(
            f"does not name the authors of {count(len(missing), 'problem')} "
            f"({', '.join(missing[:5])}{', …' if len(missing) > 5 else ''}); {HOW_TO_BUILD}",
            corpus.path,
        )
    result = PopulationFiles(corpus.path, {})
    if corpus.layout == PAN_FOLDER:
        for case_id in corpus.case_ids:
            (known_author,), unknown_author = provenance[case_id]
            folder = corpus.path / case_id
            for file in sorted(folder.iterdir()):
                author = _pan_file_author(file.name, known_author, unknown_author)
                if author is None:
                    continue
                try:
                    document = prepare_document(file)
                except EvidenceRefused as error:
                    result.refused.append(str(error))
                    continue
                named = replace(document, file_name=f"{case_id}/{document.file_name}")
                result.documents.setdefault(author, []).append(named)
    else:
        for case in corpus.iter_cases():
            (known_author,), unknown_author = provenance[case.case_id]
            for role, text, author in (
                ("known", case.known_texts[0], known_author),
                ("unknown", case.unknown_text, unknown_author),
            ):
                document = _jsonl_document(corpus.path, f"{case.case_id}/{role}", text)
                result.documents.setdefault(author, []).append(document)
    result.notes.extend(corpus.warnings)
    return result


def _pan_file_author(name: str, known_author: str, unknown_author: str) -> str | None:
    """The author of one file of a PAN problem folder (None: not a text of the problem)."""
    if name.lower() == "unknown.txt":
        return unknown_author
    return known_author if is_known_file(name) else None


def _jsonl_document(path: Path, name: str, text: str) -> PreparedDocument:
    """A text of a PAN 2020+ pairs file, as the intake would hand it over."""
    text, _invisible = remove_invisible(text)
    data = text.encode("utf-8", "surrogatepass")
    return PreparedDocument(
        source_path=str(path / "pairs.jsonl"),
        file_name=name,
        file_format="txt",
        data=data,
        sha256=sha256_hex(data),
        encoding="utf-8",
        text=text,
        text_sha256=text_sha256(text),
        char_count=len(text),
        sentence_count=count_sentences(text),
        metadata={"source_path": str(path / "pairs.jsonl")},
    )
