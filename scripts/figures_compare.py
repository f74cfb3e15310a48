"""Compares two snapshots written by ``figures_snapshot.py`` (its ``compare`` mode).

JSON files: numbers within a relative tolerance of 1e-9 (integers, strings, booleans and null
exactly; a missing key or a list of another length is a difference). Text files (a PDF's
text): word by word in order, exactly, each differing run of words named by its line numbers;
the same words laid out on other lines or with other spacing are counted apart. PNG images:
pixel by pixel, reported with the count and the box of differing pixels, counted apart (a
window shows the time of a run: two screenshots of the same tree differ in a few hundred
pixels), and an image of another size as a difference. Each difference is reported as one
line: file, JSON path or line number, before, after.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Callable
from pathlib import Path

RELATIVE = 1e-9
MOVE_LINES = 8  # a word found again this many lines away was moved by the layout
SKIPPED = {"about.json"}


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 160 else text[:157] + "..."


def same_number(before: float, after: float) -> bool:
    if isinstance(before, int) and isinstance(after, int):
        return before == after
    if math.isnan(before) or math.isnan(after):
        return math.isnan(before) and math.isnan(after)
    return math.isclose(before, after, rel_tol=RELATIVE, abs_tol=0.0)


def json_differences(before: object, after: object, where: str = "$") -> list[tuple[str, str, str]]:
    """(JSON path, before, after) for every value that differs."""
    number = (int, float)
    if isinstance(before, bool) or isinstance(after, bool):
        same = type(before) is type(after) and before == after
    elif isinstance(before, number) and isinstance(after, number):
        same = same_number(before, after)
    elif isinstance(before, dict) and isinstance(after, dict):
        found = []
        for key in list(before) + [k for k in after if k not in before]:
            inner = f"{where}.{key}"
            if key not in after:
                found.append((inner, _shown(before[key]), "(missing)"))
            elif key not in before:
                found.append((inner, "(missing)", _shown(after[key])))
            else:
                found += json_differences(before[key], after[key], inner)
        return found
    elif isinstance(before, list) and isinstance(after, list):
        found = []
        for index in range(max(len(before), len(after))):
            inner = f"{where}[{index}]"
            if index >= len(after):
                found.append((inner, _shown(before[index]), "(missing)"))
            elif index >= len(before):
                found.append((inner, "(missing)", _shown(after[index])))
            else:
                found += json_differences(before[index], after[index], inner)
        return found
    else:
        same = type(before) is type(after) and before == after
    return [] if same else [(where, _shown(before), _shown(after))]


def text_differences(before: str, after: str) -> tuple[list[tuple[str, str, str]], int]:
    """Differing words (by line), and how many blocks of lines differ only in layout.

    A PDF's text wraps a paragraph by the widths of its glyphs, and a table sizes its columns
    by its widest cell, so a hash or a time of another run (digits of other widths) can move a
    word to the next line or a column by a space (and pdftotext interleaves a table's columns
    line by line). So the words are compared in order, exactly, except that a word found again
    within MOVE_LINES lines was moved by the layout: each run of other differing words is one
    difference, named by the lines it starts on (before/after). A file whose words all match but
    whose lines do not counts its differing blocks of lines apart, not as differences.
    """
    old, new = before.splitlines(), after.splitlines()

    def words(lines: list[str]) -> tuple[list[str], list[int]]:
        found, where = [], []
        for number, line in enumerate(lines, 1):
            for word in line.split():
                found.append(word)
                where.append(number)
        return found, where

    (a, a_at), (b, b_at) = words(old), words(new)
    ops = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()]
    gone = [
        (i, a[i], a_at[i]) for tag, i1, i2, _, _ in ops if tag != "equal" for i in range(i1, i2)
    ]
    come = [
        (j, b[j], b_at[j]) for tag, _, _, j1, j2 in ops if tag != "equal" for j in range(j1, j2)
    ]
    moved_a, moved_b = set(), set()
    for i, word, line in gone:  # a word moved by a few lines (a re-wrap, a table's columns)
        for j, other, other_line in come:
            if j not in moved_b and other == word and abs(other_line - line) <= MOVE_LINES:
                moved_a.add(i)
                moved_b.add(j)
                break
    found = []
    for tag, i1, i2, j1, j2 in ops:
        left = [a[i] for i in range(i1, i2) if i not in moved_a]
        right = [b[j] for j in range(j1, j2) if j not in moved_b]
        if tag == "equal" or not (left or right):
            continue
        line_a = a_at[i1] if i1 < len(a) else len(old)
        line_b = b_at[j1] if j1 < len(b) else len(new)
        shown = (" ".join(left) or "(missing)", " ".join(right) or "(missing)")
        found.append((f"line {line_a}/{line_b}", *shown))
    laid_out = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    relaid = sum(1 for op in laid_out if op[0] != "equal") if not found else 0
    return found, relaid


def image_differences(before: Path, after: Path) -> list[tuple[str, str, str]]:
    """Differing pixels of two PNG files (read with Qt's QImage; no window needed)."""
    import numpy as np
    from PySide6.QtGui import QImage

    def pixels(path: Path) -> np.ndarray:
        image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGBA8888)
        width, height = image.width(), image.height()
        data = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
        rows = data.reshape(height, image.bytesPerLine())[:, : width * 4]
        return rows.reshape(height, width, 4).copy()  # a copy: the image's memory goes with it

    a, b = pixels(before), pixels(after)
    if a.shape != b.shape:
        return [("size", f"{a.shape[1]}x{a.shape[0]}", f"{b.shape[1]}x{b.shape[0]}")]
    mask = np.any(a != b, axis=2)
    if not mask.any():
        return []
    ys, xs = np.nonzero(mask)
    box = f"x {xs.min()}-{xs.max()}, y {ys.min()}-{ys.max()}"
    return [("pixels", "0 differing", f"{int(mask.sum())} of {mask.size} differing ({box})")]


def file_differences(before: Path, after: Path) -> tuple[list[tuple[str, str, str]], int]:
    """The differences of two files of a snapshot, and the text blocks only laid out anew."""
    if before.suffix == ".json":
        found = json_differences(
            json.loads(before.read_text(encoding="utf-8")),
            json.loads(after.read_text(encoding="utf-8")),
        )
        return found, 0
    if before.suffix == ".png":
        return image_differences(before, after), 0
    return text_differences(before.read_text(encoding="utf-8"), after.read_text(encoding="utf-8"))


def compare_trees(before: Path, after: Path, say: Callable[[str], None]) -> tuple[int, int, int]:
    """Say each difference between two snapshot folders as one line; return how many, how
    many blocks of text only lay the same words out anew, and how many images of the same size
    differ in some pixels (the last two are not differences: a screenshot shows the clock)."""

    def files(root: Path) -> set[str]:
        return {
            p.relative_to(root).as_posix()
            for p in root.rglob("*")
            if p.is_file() and p.relative_to(root).as_posix() not in SKIPPED
        }

    old, new = files(before), files(after)
    count = rewrapped = images = 0
    for name in sorted(old | new):
        wrapped = 0
        if name not in new:
            found = [("(file)", "present", "(missing)")]
        elif name not in old:
            found = [("(file)", "(missing)", "present")]
        else:
            found, wrapped = file_differences(before / name, after / name)
        for where, a, b in found:
            say(f"{name}\t{where}\t{a}\t{b}")
            images += where == "pixels"
        count += sum(where != "pixels" for where, _, _ in found)
        rewrapped += wrapped
    return count, rewrapped, images
