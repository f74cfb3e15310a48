"""What a person must never read in the desktop or the report: a raw float, a raw ISO time, a raw
code, a count that disagrees with its noun, a plural hedged with "(s)" or a large count without
grouping.

``unformatted(texts)`` returns each offending piece with a little context; the tests scan the
texts of real runs with it (the desktop's widgets, charts and tables; the report's pdftotext).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

NOUNS = (
    "runs|cases|documents|sentences|features|trials|pairs|files|words|characters|occurrences|"
    "resamples|entries|authors|problems|warnings|repetitions|folds|pages|bytes|categories"
)
PATTERNS = {
    # more decimals than any figure is shown with (the most is 5, for λ and |x − y|)
    "raw float": re.compile(r"\d\.\d{6,}"),
    # a stored ISO time as written in the store, not as a person reads it
    "raw time": re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d"),
    # the engine's codes instead of words
    "raw code": re.compile(r"\b(?:prediction|answer)\s*[:=]\s*[YN]\b|\(\d+ Y, \d+ N\)"),
    "count and noun disagree": re.compile(rf"(?<![\d.,])\b1 (?:{NOUNS})\b"),
    "hedged plural": re.compile(r"[a-z]\(s\)"),
    # a count of five or more digits written without grouping, before its noun
    "ungrouped count": re.compile(r"(?<![0-9A-Za-z.,:/\-–_#])\d{5,} [a-z]{2,}\b"),
}


def unformatted(texts: Iterable[str]) -> list[str]:
    """Every offending piece of ``texts`` as 'kind: …context…'."""
    found = []
    for text in texts:
        for kind, pattern in PATTERNS.items():
            for match in pattern.finditer(text):
                start, end = max(match.start() - 40, 0), match.end() + 40
                found.append(f"{kind}: …{text[start:end]}…")
    return found
