"""Reading authorship-verification corpora in the PAN layouts, streamed case by case.

Two layouts are detected automatically:

- PAN 2013–2015 folders: one folder per problem holding ``known*.txt`` and ``unknown.txt``,
  with ``truth.txt`` (lines ``EN001 Y``) beside the problem folders;
- PAN 2020+ pairs: ``pairs.jsonl`` (``{"id", "pair": [known, unknown]}``) with ``truth.jsonl``
  (``{"id", "same": true|false}``) beside it.

A truth file that labels one problem twice (whether the labels agree or contradict each other),
names a problem the corpus does not hold, or (``truth.jsonl``) states ``same`` against its own
``authors``, is refused with one line naming the file, the problem and the lines.

Texts are read only when a case is iterated, so memory stays bounded for large corpora. Files
that are not UTF-8 are decoded with a fallback that is reported in ``Corpus.warnings``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taveer_desktop.core.ground.counts import count
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.safe_json import loads_limited
from taveer_desktop.core.intake.decoding import decode_bytes, read_file_bytes, require_regular_file
from taveer_desktop.core.intake.file_reading import shown_name

PAN_FOLDER = "pan-folder"
PAN_JSONL = "pan-jsonl"
_KNOWN_FILE = re.compile(r"^known\d*\.txt$", re.IGNORECASE)
_TRUTH_VALUES = {
    "y": True,
    "yes": True,
    "1": True,
    "1.0": True,
    "true": True,
    "n": False,
    "no": False,
    "0": False,
    "0.0": False,
    "false": False,
}
MAX_CORPUS_FILE_BYTES = 50 * 1024 * 1024


def is_known_file(name: str) -> bool:
    """Whether a file of a PAN problem folder is one of its known texts (``known01.txt``)."""
    return bool(_KNOWN_FILE.match(name))


@dataclass(frozen=True)
class Case:
    """One verification case: known texts of one author and one questioned text."""

    case_id: str
    known_texts: tuple[str, ...]
    unknown_text: str
    truth: bool | None


@dataclass
class Corpus:
    """A corpus on disk: its identity and the ids of its cases; texts are streamed."""

    path: Path
    name: str
    layout: str
    case_ids: list[str]
    truth: dict[str, bool]
    sha256: str
    warnings: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.case_ids)

    @property
    def has_truth(self) -> bool:
        return len(self.truth) == len(self.case_ids)

    def require_truth(self) -> None:
        missing = [cid for cid in self.case_ids if cid not in self.truth]
        if missing:
            shown = ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
            raise InputError(f"no truth for {count(len(missing), 'problem')}: {shown}", self.path)

    def iter_cases(self) -> Iterator[Case]:
        if self.layout == PAN_FOLDER:
            yield from self._iter_folder_cases()
        else:
            yield from self._iter_jsonl_cases()

    def _decode(self, data: bytes, source: str) -> str:
        decoded = decode_bytes(data, source)
        if decoded.used_fallback:
            self.warnings.append(f"{source}: not UTF-8, decoded as {decoded.encoding}")
        return decoded.text

    def _read(self, path: Path) -> str:
        return self._decode(read_file_bytes(path, MAX_CORPUS_FILE_BYTES), str(path))

    def _iter_folder_cases(self) -> Iterator[Case]:
        for case_id in self.case_ids:
            folder = self.path / case_id
            known_files = sorted(p for p in folder.iterdir() if _KNOWN_FILE.match(p.name))
            yield Case(
                case_id=case_id,
                known_texts=tuple(self._read(p) for p in known_files),
                unknown_text=self._read(folder / "unknown.txt"),
                truth=self.truth.get(case_id),
            )

    def _iter_jsonl_cases(self) -> Iterator[Case]:
        pairs_path = self.path / "pairs.jsonl"
        for line_number, record in iter_jsonl(pairs_path):
            case_id, known, unknown = _pair_fields(record, pairs_path, line_number)
            yield Case(case_id, (known,), unknown, self.truth.get(case_id))


def iter_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    require_regular_file(path)
    try:
        handle = path.open("rb")
    except OSError as error:
        raise InputError(f"cannot be read ({error.strerror or error})", path) from None
    with handle:
        for line_number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                record = loads_limited(raw.decode("utf-8"), f"{path} line {line_number}")
            except (UnicodeDecodeError, json.JSONDecodeError) as error:
                raise InputError(f"line {line_number} is not valid JSON ({error})", path) from None
            if not isinstance(record, dict):
                raise InputError(f"line {line_number} is not a JSON object", path)
            yield line_number, record


def _pair_fields(record: dict[str, Any], path: Path, line_number: int) -> tuple[str, str, str]:
    case_id = record.get("id")
    pair = record.get("pair")
    if not isinstance(case_id, str) or not case_id:
        raise InputError(f"line {line_number} has no string 'id'", path)
    if (
        not isinstance(pair, list)
        or len(pair) != 2
        or not all(isinstance(t, str) and t.strip() for t in pair)
    ):
        raise InputError(f"problem {case_id}: 'pair' must hold two non-empty texts", path)
    return case_id, pair[0], pair[1]


def _folder_truth(path: Path) -> dict[str, bool]:
    truth_path = path / "truth.txt"
    if not truth_path.exists():
        return {}
    truth = _TruthLabels(truth_path, "Y", "N")
    data = read_file_bytes(truth_path, MAX_CORPUS_FILE_BYTES, kind="truth file")
    text = decode_bytes(data, str(truth_path)).text
    for line_number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        value = _TRUTH_VALUES.get(parts[-1].lower()) if len(parts) == 2 else None
        if value is None:
            raise InputError(
                f"line {line_number} is not '<problem id> Y|N': {line.strip()[:60]!r}", truth_path
            )
        truth.label(parts[0], value, line_number)
    return truth.labels


class _TruthLabels:
    """The labels of a truth file as they are read: a problem labelled twice (the same label
    or contradicting ones) refuses the file, naming the problem and both lines."""

    def __init__(self, path: Path, same: str, different: str):
        self.path = path
        self.words = {True: same, False: different}
        self.labels: dict[str, bool] = {}
        self.lines: dict[str, int] = {}

    def label(self, case_id: str, value: bool, line_number: int) -> None:
        if case_id in self.labels:
            first = self.lines[case_id]
            was, now = self.words[self.labels[case_id]], self.words[value]
            how = "contradicting itself" if was != now else "the same label twice"
            raise InputError(
                f"labels problem {case_id} twice ({how}): {was} on line {first}, {now} on line "
                f"{line_number}; a truth file labels each problem once",
                self.path,
            )
        self.labels[case_id] = value
        self.lines[case_id] = line_number


def _jsonl_truth(path: Path) -> dict[str, bool]:
    truth_path = path / "truth.jsonl"
    if not truth_path.exists():
        return {}
    truth = _TruthLabels(truth_path, "true", "false")
    for line_number, record in iter_jsonl(truth_path):
        case_id, same = record.get("id"), record.get("same")
        if not isinstance(case_id, str) or not isinstance(same, bool):
            raise InputError(
                f"line {line_number} needs a string 'id' and a true/false 'same'", truth_path
            )
        authors = record.get("authors")
        if (
            isinstance(authors, list)
            and len(authors) == 2
            and all(isinstance(a, str) for a in authors)
            and (authors[0] == authors[1]) != same
        ):
            raise InputError(
                f"line {line_number} contradicts itself: problem {case_id} is 'same': "
                f"{str(same).lower()} but its 'authors' are {authors}",
                truth_path,
            )
        truth.label(case_id, same, line_number)
    return truth.labels


def _hash_files(paths: list[Path], root: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(root)).encode("utf-8", "surrogateescape") + b"\0")
        require_regular_file(path)
        try:
            with path.open("rb") as handle:
                while block := handle.read(1 << 20):
                    digest.update(block)
        except OSError as error:
            raise InputError(f"cannot be read ({error.strerror or error})", path) from None
        digest.update(b"\0")
    return digest.hexdigest()


def open_corpus(path: str | Path) -> Corpus:
    """Detect the layout of a corpus folder and index its cases (texts are not read yet)."""
    path = Path(path)
    if not path.exists():
        raise InputError("no such corpus folder", path)
    if not path.is_dir():
        raise InputError("a corpus must be a folder (PAN problem folders or pairs.jsonl)", path)
    name = path.name if path.name not in {"train", "test"} else f"{path.parent.name}/{path.name}"
    name = shown_name(name)  # a folder name that is not UTF-8: its odd bytes escaped
    if (path / "pairs.jsonl").is_file():
        truth = _jsonl_truth(path)
        ids = [
            _pair_fields(rec, path / "pairs.jsonl", n)[0]
            for n, rec in iter_jsonl(path / "pairs.jsonl")
        ]
        _check_truth_names_problems(truth, ids, path / "truth.jsonl")
        if not ids:
            raise InputError("pairs.jsonl holds no problem", path / "pairs.jsonl")
        _check_unique(ids, path / "pairs.jsonl")
        files = [p for p in (path / "pairs.jsonl", path / "truth.jsonl") if p.exists()]
        return Corpus(path, name, PAN_JSONL, ids, truth, _hash_files(files, path))
    problems = []
    for folder in sorted(path.iterdir(), key=lambda p: p.name):
        if not folder.is_dir():
            continue
        unknown = folder / "unknown.txt"
        has_known = any(_KNOWN_FILE.match(p.name) for p in folder.iterdir())
        if unknown.is_file():
            problems.append(folder.name)
        elif os.path.lexists(unknown):
            require_regular_file(unknown)  # a FIFO, device or folder named unknown.txt
        elif has_known:
            raise InputError("is a problem folder with known texts but no unknown.txt", folder)
    if not problems:
        raise InputError(
            "is not a PAN corpus (no problem folders with unknown.txt, no pairs.jsonl)", path
        )
    for problem in problems:
        if not any(_KNOWN_FILE.match(p.name) for p in (path / problem).iterdir()):
            raise InputError(f"problem {problem} has no known*.txt file", path / problem)
    truth = _folder_truth(path)
    _check_truth_names_problems(truth, problems, path / "truth.txt")
    files = sorted(
        p
        for problem in problems
        for p in (path / problem).iterdir()
        if p.name.lower() == "unknown.txt" or _KNOWN_FILE.match(p.name)
    )
    if (path / "truth.txt").exists():
        files.append(path / "truth.txt")
    return Corpus(path, name, PAN_FOLDER, problems, truth, _hash_files(files, path))


def _check_truth_names_problems(truth: dict[str, bool], problems: list[str], source: Path) -> None:
    """Every problem the truth file names must exist in the corpus."""
    known = set(problems)
    missing = [case_id for case_id in truth if case_id not in known]
    if missing:
        shown = ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
        raise InputError(
            f"names {count(len(missing), 'problem')} the corpus does not hold: {shown} "
            "(no such folder with an unknown.txt, or no such pair)",
            source,
        )


def _check_unique(ids: list[str], source: Path) -> None:
    seen: set[str] = set()
    for case_id in ids:
        if case_id in seen:
            raise InputError(f"problem id {case_id} occurs twice", source)
        seen.add(case_id)
