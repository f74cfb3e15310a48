"""The demo population with its documents' dates (``tests/core/trials/demo_dates.csv``), for the
tests of same-author trials kept apart in time (``core/trials/trial_dates.py``).

Where the dates come from (public facts only; the texts are public domain):

- a Federalist paper's date is the day its own header prints ("From the New York Packet.
  Friday, November 23, 1787." — the Project Gutenberg transcription in the shared demo texts);
  No. 1, whose header names only "For the Independent Journal", appeared there on 27 October
  1787; Nos. 78–85 ("From McLEAN's Edition") first appeared in the second volume of McLean's
  edition, May 1788 (a month: ``1788-05``). The other papers "For the Independent Journal" print
  no date and are left undated, so the fixture is mixed;
- a Brontë chapter's date is its novel's first publication, to the month: Jane Eyre October 1847,
  Wuthering Heights and Agnes Grey December 1847, The Tenant of Wildfell Hall June 1848.
"""

from __future__ import annotations

import csv
from pathlib import Path

DEMO_DATES = Path(__file__).with_name("demo_dates.csv")


def demo_dates() -> dict[str, str]:
    """Document file name → its date ("" where undated)."""
    with DEMO_DATES.open(newline="", encoding="utf-8") as handle:
        return {row["document"]: row["date"] for row in csv.DictReader(handle)}


def write_dates(folder: Path, header: str = "author,document,date") -> Path:
    """Write the population folder's ``topics.csv`` dating every document the table dates."""
    dates = demo_dates()
    rows = [header]
    for author in sorted(p.name for p in folder.iterdir() if p.is_dir()):
        for path in sorted((folder / author).iterdir()):
            if dates.get(path.name):
                rows.append(f"{author},{path.name},{dates[path.name]}")
    (folder / "topics.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return folder


def make_dated_demo_population(root: Path, federalist_per_author: int = 12) -> Path:
    """The demo population folder with the documents' dates beside it."""
    from tests.core.validation_fixtures import make_demo_population  # needs the tests' conftest

    return write_dates(make_demo_population(root, federalist_per_author))
