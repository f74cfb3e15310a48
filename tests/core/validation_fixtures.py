"""A small public-domain population for the validation tests: the Brontës' chapters and the
Federalist papers of undisputed single authorship, one folder per author (the header line that
names a paper's author is dropped). Too small for casework; big enough for 20+ trials a class."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import DEMO_TEXTS

_AUTHOR_LINE = re.compile(
    r"^(HAMILTON AND MADISON|HAMILTON OR MADISON|HAMILTON|MADISON|JAY)\s*$", re.M
)


def make_demo_population(root: Path, federalist_per_author: int = 12) -> Path:
    """Write the population folder under ``root`` and return it (skips without the texts)."""
    brontes, federalist = DEMO_TEXTS / "brontes", DEMO_TEXTS / "federalist"
    if not brontes.is_dir() or not federalist.is_dir():
        pytest.skip(f"the public-domain demo texts ({DEMO_TEXTS}) are not on this machine")
    folder = root / "demo-population"
    folder.mkdir()
    for path in sorted(brontes.glob("*.txt")):
        author = "_".join(path.name.split("_")[:2])
        (folder / author).mkdir(exist_ok=True)
        shutil.copy(path, folder / author / path.name)
    counts: dict[str, int] = {}
    for path in sorted(federalist.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        match = _AUTHOR_LINE.search(text)
        if not match or " " in match.group(1):
            continue
        author = match.group(1).title()
        if counts.get(author, 0) >= federalist_per_author:
            continue
        counts[author] = counts.get(author, 0) + 1
        (folder / author).mkdir(exist_ok=True)
        (folder / author / path.name).write_text(text.replace(match.group(0), ""), encoding="utf-8")
    return folder
