"""Checking a written PDF before it is given its name and recorded: does it parse, and does it
hold the pages that were laid out?

Qt's PDF writer reports no write errors: on a full disk it leaves a truncated file and says
nothing. ``check_written_pdf`` therefore reads the file back from disk, without any external
tool, and refuses it (``PdfCheckFailed``, one sentence) unless

- it starts with a ``%PDF-1.x`` header and ends with ``%%EOF`` after a ``startxref`` offset;
- that offset points at a classic cross-reference table (what Qt writes) whose every in-use
  entry points inside the file at the ``N G obj`` it names;
- the trailer names a ``/Root`` catalogue whose ``/Pages`` tree has ``/Count`` equal to the
  number of pages laid out, and the file holds exactly that many ``/Type /Page`` objects.

This is a structural check of the file as written, not a full PDF parser: it is meant to
catch truncation, a lost or damaged tail and a wrong page count, which is what a failing disk
or writer produces.
"""

from __future__ import annotations

import re
from pathlib import Path

from taveer_desktop.presentation import numbers

_HEADER = re.compile(rb"^%PDF-1\.[0-7]")
_STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
_SUBSECTION = re.compile(rb"(\d+)\s+(\d+)\s*\r?\n")
_ENTRY = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_ROOT = re.compile(rb"/Root\s+(\d+)\s+(\d+)\s+R")
_PAGES = re.compile(rb"/Pages\s+(\d+)\s+(\d+)\s+R")
_COUNT = re.compile(rb"/Count\s+(\d+)")
_PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")
MAX_CHECKED_BYTES = 512 * 1024 * 1024


class PdfCheckFailed(Exception):
    """The written file is not the PDF that was laid out; the message says what is wrong."""


def _object_at(data: bytes, offset: int, number: int, generation: int) -> bytes:
    """The body of object ``number`` that the cross-reference table places at ``offset``."""
    head = re.compile(rb"%d\s+%d\s+obj" % (number, generation))
    match = head.match(data, offset)
    if match is None:
        raise PdfCheckFailed(f"object {number} is not where the cross-reference table says")
    end = data.find(b"endobj", match.end())
    if end < 0:
        raise PdfCheckFailed(f"object {number} has no end (the file is cut short)")
    return data[match.end() : end]


def _xref_offsets(data: bytes, start: int) -> dict[int, tuple[int, int]]:
    if not data.startswith(b"xref", start):
        raise PdfCheckFailed("its cross-reference table is missing or damaged")
    position = start + 4
    while data[position : position + 1] in (b"\r", b"\n", b" "):
        position += 1
    offsets: dict[int, tuple[int, int]] = {}
    while True:
        section = _SUBSECTION.match(data, position)
        if section is None:
            break
        first, count = int(section.group(1)), int(section.group(2))
        position = section.end()
        for index in range(count):
            entry = _ENTRY.match(data, position)
            if entry is None:
                raise PdfCheckFailed("its cross-reference table is cut short or damaged")
            position = entry.end()
            while data[position : position + 1] in (b"\r", b"\n", b" "):
                position += 1
            if entry.group(3) == b"n":
                offsets[first + index] = (int(entry.group(1)), int(entry.group(2)))
    if not data.startswith(b"trailer", position):
        raise PdfCheckFailed("its trailer is missing after the cross-reference table")
    return offsets


def check_pdf_bytes(data: bytes, expected_pages: int) -> int:
    """The page count of a PDF's bytes; ``PdfCheckFailed`` unless it is whole and as expected."""
    if not _HEADER.match(data):
        raise PdfCheckFailed("it does not start with a PDF header")
    tail = _STARTXREF.search(data[-1024:])
    if tail is None:
        raise PdfCheckFailed("it does not end with a cross-reference offset and %%EOF")
    start = int(tail.group(1))
    if start >= len(data):
        raise PdfCheckFailed("its cross-reference offset points past the end of the file")
    offsets = _xref_offsets(data, start)
    for number, (offset, generation) in offsets.items():
        if number and offset >= start:
            raise PdfCheckFailed(f"object {number} lies outside the file's body")
        if number:
            _object_at(data, offset, number, generation)
    trailer = data[start : len(data)]
    root = _ROOT.search(trailer)
    if root is None or int(root.group(1)) not in offsets:
        raise PdfCheckFailed("its trailer names no document catalogue")
    catalogue = _object_at(data, offsets[int(root.group(1))][0], int(root.group(1)), 0)
    pages_ref = _PAGES.search(catalogue)
    if pages_ref is None or int(pages_ref.group(1)) not in offsets:
        raise PdfCheckFailed("its catalogue names no page tree")
    number = int(pages_ref.group(1))
    tree = _object_at(data, offsets[number][0], number, offsets[number][1])
    count = _COUNT.search(tree)
    if count is None:
        raise PdfCheckFailed("its page tree has no page count")
    pages = int(count.group(1))
    page_objects = len(_PAGE_OBJECT.findall(data))
    if pages != expected_pages or page_objects != expected_pages:
        raise PdfCheckFailed(
            f"it holds {numbers.count(pages, 'page')} "
            f"({numbers.count(page_objects, 'page object')}) where "
            f"{numbers.integer(expected_pages)} were laid out"
        )
    return pages


def check_written_pdf(path: str | Path, expected_pages: int) -> int:
    """Read the file back from disk and check it (see the module's description)."""
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_CHECKED_BYTES:
        raise PdfCheckFailed(f"it is {numbers.count(size, 'byte')}, more than a report can be")
    with open(path, "rb") as handle:
        data = handle.read()
    return check_pdf_bytes(data, expected_pages)
