"""Hostile models, population folders and corpora for the door sweep (``test_door_sweep.py``).

Each builder writes one input under a folder and returns its path; the sweep runs the real
``taveer`` CLI on it. Models are spoiled copies of a real fused (TAVeer + LambdaG) model made by
``taveer validate``; populations are spoiled copies of a small folder of the shipped demo
population; corpora are spoiled copies of the small PAN corpora of ``hostile_corpora``.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import os
import shutil
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from taveer_desktop.paths import resource
from tests.fuzz.hostile_corpora import good_folder_corpus, good_jsonl_corpus

SHIPPED_POPULATION = resource("demo", "population")
POPULATION_AUTHORS = ("Anne_Bronte", "Hamilton", "Jay", "Madison")


def _set(path: str, value: Any) -> Callable[[dict], None]:
    """A spoiler that sets one dotted key (``lambdag.order``) of a model."""

    def spoil(model: dict) -> None:
        *parents, last = path.split(".")
        target = model
        for key in parents:
            target = target[key]
        target[last] = value

    return spoil


def _zlib_bomb(model: dict) -> None:
    """A reference whose stated size is small but whose data inflates to 64 MB of zeros."""
    raw = bytes(64 * 1024 * 1024)
    reference = model["lambdag"]["reference"]
    reference["data"] = base64.b64encode(zlib.compress(raw, 9)).decode("ascii")
    reference["sha256"] = hashlib.sha256(raw).hexdigest()


def _drop(key: str) -> Callable[[dict], None]:
    return lambda model: model.pop(key)


# name → (spoiler, words the one-line refusal must hold)
BAD_MODELS: dict[str, tuple[Callable[[dict], None], str]] = {
    "lambdag-order-0": (_set("lambdag.order", 0), "lambdag.order must be a whole number"),
    "lambdag-order-text": (_set("lambdag.order", "4"), "lambdag.order must be a whole number"),
    "lambdag-order-fraction": (_set("lambdag.order", 2.5), "lambdag.order"),
    "lambdag-order-99": (_set("lambdag.order", 99), "from 1 to 16"),
    "lambdag-samples-0": (_set("lambdag.samples", 0), "lambdag.samples"),
    "lambdag-samples-huge": (_set("lambdag.samples", 10**9), "lambdag.samples"),
    "lambdag-seed-negative": (_set("lambdag.seed", -1), "lambdag.seed"),
    "lambdag-vocabulary-0": (_set("lambdag.vocabulary_size", 0), "lambdag.vocabulary_size"),
    "lambdag-vocabulary-wrong": (
        _set("lambdag.vocabulary_size", 5),
        "does not match its reference population",
    ),
    "lambdag-calibration-slope-1e308": (
        _set("lambdag.calibration.slope", 1e308),
        "lambdag.calibration.slope is 1e+308",
    ),
    "lambdag-calibration-nan": (
        _set("lambdag.calibration.intercept", float("nan")),
        "lambdag.calibration.intercept must be a number",
    ),
    "lambdag-calibration-unknown-key": (
        _set("lambdag.calibration.surprise", 1),
        "unknown keys",
    ),
    "lambdag-raw-range-reversed": (_set("lambdag.raw_range", [5, 1]), "lambdag.raw_range"),
    "lambdag-tokens-wrong": (_set("lambdag.reference.tokens", 7), "does not hold the 7 tokens"),
    "lambdag-reference-zlib-bomb": (_zlib_bomb, "does not hold the"),
    "lambdag-reference-not-base64": (
        _set("lambdag.reference.data", "!!!"),
        "cannot be decoded",
    ),
    "lambdag-part-missing": (_drop("lambdag"), "LambdaG part"),
    "fusion-part-missing": (_drop("fusion"), "fusion part"),
    "fusion-weights-nan": (_set("fusion.weights", [float("nan"), 1.0]), "fusion.weights"),
    "fusion-weights-1e308": (_set("fusion.weights", [1e308, 1.0]), "fusion.weights"),
    "fusion-weights-negative": (_set("fusion.weights", [-1.0, 1.0]), "fusion.weights"),
    "fusion-weights-one": (_set("fusion.weights", [1.0]), "fusion.weights"),
    "fusion-methods-unknown": (_set("fusion.methods", ["taveer", "x"]), "fusion.methods"),
    "fusion-intercept-1e308": (_set("fusion.intercept", 1e308), "fusion.intercept"),
    "fusion-bounds-inverted": (_set("fusion.min_log10_lr", 3.0), "fusion bounds"),
    "method-unknown": (_set("method", "astrology"), "'method' must be one of"),
    "taveer-threshold-nan": (_set("thresholds.F1", float("nan")), "threshold F1"),
    "calibration-penalty-1e308": (_set("calibration.penalty", 1e308), "calibration.penalty"),
    "stated-validation-eer-500-percent": (
        _set("validation.figures.eer", 5.0),
        "validation.figures.eer must lie in [0, 1]",
    ),
    "stated-validation-authors-text": (
        _set("validation.population.authors", "many"),
        "validation.population.authors",
    ),
    "stated-validation-not-an-object": (_set("validation", [1, 2]), "validation must be"),
    "stated-evaluations-cllr-negative": (
        _set("evaluations", {"test": {"cllr": -1.0}}),
        "evaluations.test.cllr",
    ),
    "name-with-escape": (_set("name", "bad\x1b[2Jname"), "control or invisible characters"),
    "name-with-bidi-override": (_set("name", "model\u202eLMX"), "\\u202e"),
}


def write_model(base: dict, name: str, folder: Path) -> Path:
    model = copy.deepcopy(base)
    model["name"] = f"door {name}"
    spoil, _words = BAD_MODELS[name]
    spoil(model)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(model), encoding="utf-8")  # NaN written as JSON's NaN
    return path


def small_population(root: Path) -> Path:
    """Four authors with three documents each, copied from the shipped demo population."""
    root.mkdir(parents=True)
    for author in POPULATION_AUTHORS:
        (root / author).mkdir()
        for path in sorted((SHIPPED_POPULATION / author).glob("*.txt"))[:3]:
            shutil.copy(path, root / author / path.name)
    return root


def _first(root: Path, author: str) -> Path:
    return sorted((root / author).iterdir())[0]


def _rename(old: str, new: str | bytes) -> Callable[[Path], None]:
    def spoil(root: Path) -> None:
        target = os.fsdecode(os.path.join(os.fsencode(root), os.fsencode(new)))
        os.rename(root / old, target)

    return spoil


def _deep(root: Path) -> None:
    document = _first(root, "Jay")
    folder = root / "Jay"
    for _ in range(40):
        folder = folder / "d"
    folder.mkdir(parents=True)
    shutil.copy(document, folder / "deep.txt")


def _too_many(root: Path) -> None:
    from taveer_desktop.store.population_folder import MAX_FILES

    folder = root / "Jay" / "many"
    folder.mkdir()
    for index in range(MAX_FILES + 1):
        (folder / f"{index}.txt").touch()


def _copy_across(root: Path) -> None:
    shutil.copy(_first(root, "Jay"), root / "Madison" / "copied-from-jay.txt")


def _same_text_other_bytes(root: Path) -> None:
    text = _first(root, "Jay").read_bytes().decode("utf-8")  # its line ends kept as they are
    (root / "Madison" / "jay-in-utf16.txt").write_bytes(text.encode("utf-16"))


def _link_outside(root: Path) -> None:
    outside = root.parent / "outside.txt"
    shutil.copy(_first(root, "Jay"), outside)
    os.symlink(outside, root / "Jay" / "link-outside.txt")


def _link_to_folder(root: Path) -> None:
    os.symlink(root / "Madison", root / "Jay" / "madison")


def _author_link(root: Path) -> None:
    os.symlink(root / "Madison", root / "Madison2")


def _case_twin(root: Path) -> None:
    shutil.copytree(root / "Jay", root / "JAY")


# name → (spoiler, words the one-line refusal must hold)
def _dated(value: str | bytes) -> Callable[[Path], None]:
    """A ``topics.csv`` dating the first document of Jay with ``value`` (or holding the bytes)."""

    def spoil(root: Path) -> None:
        if isinstance(value, bytes):
            (root / "topics.csv").write_bytes(value)
            return
        row = f"Jay,{_first(root, 'Jay').name},{value}"
        (root / "topics.csv").write_text(f"author,document,date\n{row}\n", encoding="utf-8")

    return spoil


def _topics(make: Callable[[Path], None]) -> Callable[[Path], None]:
    """A spoiler that puts something odd under the name ``topics.csv``."""
    return lambda root: make(root / "topics.csv")


def _topics_text(text: str) -> Callable[[Path], None]:
    return _topics(lambda path: path.write_text(text, encoding="utf-8"))


BAD_POPULATIONS: dict[str, tuple[Callable[[Path], None], str]] = {
    # before the one table reader (core/intake/table_file.py): a FIFO or a folder named
    # topics.csv was taken for "no labels" (or for an author), a column named twice kept its
    # last value silently, and a label with a bidi override or an escape was stored
    "topics-fifo": (_topics(os.mkfifo), "topics.csv: is a named pipe (FIFO)"),
    "topics-folder": (_topics(Path.mkdir), "topics.csv: is a folder, not a regular file"),
    "topics-link-loop": (_topics(lambda p: os.symlink(p, p)), "topics.csv: cannot be read"),
    "topics-column-twice": (
        _topics_text("author,topic,topic\nJay,a,b\n"),
        "names the column 'topic' twice",
    ),
    "topics-bidi-label": (
        _topics_text("author,topic\nJay,law\u202eyrots\n"),
        "line 2: a cell holds control or invisible characters (\\u202e)",
    ),
    "topics-escape-label": (
        _topics_text("author,topic\nJay,law\x1b[2J\n"),
        "line 2: a cell holds control or invisible characters (\\x1b)",
    ),
    "topics-label-over-two-lines": (
        _topics_text('author,topic\nJay,"law\nand order"\n'),
        "line 3: a cell holds control or invisible characters (\\n)",
    ),
    "date-not-iso": (_dated("30/11/1787"), "row 2: the date '30/11/1787' is not an ISO 8601"),
    "date-not-a-day": (_dated("1788-02-30"), "row 2: the date '1788-02-30' is not an ISO 8601"),
    "date-file-binary": (_dated(b"author,date\n\0\0\xff"), "binary"),
    "author-not-utf8": (_rename("Jay", b"J\xffy"), "is not valid UTF-8"),
    "author-escape": (_rename("Jay", "J\x1b[31may"), "control or invisible characters"),
    "author-bidi-override": (_rename("Jay", "Jay\u202etxt"), "\\u202e"),
    "author-newline": (_rename("Jay", "Jay\nMadison"), "\\n"),
    "author-blank": (_rename("Jay", "   "), "is blank"),
    "author-trailing-space": (_rename("Jay", "Jay "), "begins or ends with a space"),
    "authors-differ-only-in-case": (_case_twin, "names look the same"),
    "too-deep": (_deep, "nested more than 8 folders deep"),
    "too-many-files": (_too_many, "more than 20,000 files"),
    "same-file-under-two-authors": (_copy_across, "same text under two authors"),
    "same-text-other-encoding-under-two-authors": (
        _same_text_other_bytes,
        "same text under two authors",
    ),
    "link-to-a-file-outside": (_link_outside, "outside the population folder"),
    "link-to-a-folder": (_link_to_folder, "is a link to a folder"),
    "author-folder-is-a-link": (_author_link, "is a link to a folder"),
}


def _file_name_not_utf8(root: Path) -> None:
    os.rename(_first(root, "Jay"), os.fsdecode(os.fsencode(root / "Jay") + b"/caf\xe9.txt"))


def _hidden_entries(root: Path) -> None:
    (root / ".git").mkdir()
    (root / "Jay" / ".DS_Store").write_bytes(b"\0\0")


def _link_inside(root: Path) -> None:
    os.symlink(_first(root, "Jay"), root / "Jay" / "again.txt")  # the same author: kept once


# populations accepted as they are (name → spoiler)
def _topics_cr_only(root: Path) -> None:
    """A topics.csv with old-Mac line ends (CR only): refused as unreadable CSV before."""
    rows = ["author,topic", *(f"{author},{author.lower()}" for author in POPULATION_AUTHORS)]
    (root / "topics.csv").write_bytes("\r".join(rows).encode() + b"\r")


ACCEPTED_POPULATIONS: dict[str, Callable[[Path], None]] = {
    "topics-cr-line-ends": _topics_cr_only,
    "file-name-not-utf8": _file_name_not_utf8,
    "hidden-entries": _hidden_entries,
    "link-to-a-file-of-the-same-author": _link_inside,
    "author-with-accents": _rename("Jay", "Zoë Jäy"),
}


def _append(name: str, text: str) -> Callable[[Path], None]:
    def spoil(root: Path) -> None:
        with open(root / name, "a", encoding="utf-8") as handle:
            handle.write(text)

    return spoil


def _jsonl_authors_contradict(root: Path) -> None:
    lines = (root / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["authors"] = ["alice", "bob"] if first["same"] else ["alice", "alice"]
    (root / "truth.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")


# name → (layout, spoiler, words the one-line refusal must hold)
BAD_CORPORA: dict[str, tuple[str, Callable[[Path], None], str]] = {
    "truth-txt-labels-a-problem-twice": ("folder", _append("truth.txt", "EN001 Y\n"), "twice"),
    "truth-txt-contradicts-itself": ("folder", _append("truth.txt", "EN001 N\n"), "contradicting"),
    "truth-jsonl-labels-a-problem-twice": (
        "jsonl",
        _append("truth.jsonl", '{"id": "p0", "same": true}\n'),
        "labels problem p0 twice",
    ),
    "truth-jsonl-contradicts-itself": (
        "jsonl",
        _append("truth.jsonl", '{"id": "p0", "same": false}\n'),
        "contradicting",
    ),
    "truth-jsonl-same-against-its-authors": ("jsonl", _jsonl_authors_contradict, "contradicts"),
}


def write_corpus(name: str, root: Path) -> Path:
    layout, spoil, _words = BAD_CORPORA[name]
    corpus = (good_jsonl_corpus if layout == "jsonl" else good_folder_corpus)(root)
    spoil(corpus)
    return corpus
