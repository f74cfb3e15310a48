"""Fixed wording of the report and number formats (pure, no Qt).

The explanatory text a lay reader needs (what TAVeer does, what the categories are, what the
answer means and does not mean) lives here, apart from the code that fills in the numbers, so
that it can be reviewed as text. Everything returned is safe HTML.
"""

from __future__ import annotations

from datetime import UTC, datetime

from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.report.escape import html_text

SECTION_TITLES = (
    "Title page",
    "Summary",
    "Validation and population fit",
    "Evidence",
    "Method",
    "Result",
    "Interpretation",
    "Limitations",
    "Audit trail and reproducibility",
    "Examiner's declaration and technical review",  # report/declaration_block.py (issue 25)
)


def section(title: str) -> str:
    """``section N``: how the case report's text refers to its section titled ``title``."""
    return f"section {SECTION_TITLES.index(title) + 1}"


METHOD_PLAIN = (
    "TAVeer compares <i>how</i> texts are written, not <i>what</i> they are about. It looks "
    "only at punctuation and at a fixed list of short, common words and phrases that every "
    "writer needs whatever the subject (words such as <i>the, of, however, in order to</i>). "
    "Every other word is replaced by a placeholder before anything is counted. From what "
    "remains it counts eleven kinds of features (F1–F11, below) in the questioned text and in "
    "the known texts taken together, and measures for each kind how different the two sets of "
    "counts are (a distance between 0 for identical and 2 for nothing in common)."
)
METHOD_MODEL = (
    "A <i>model</i>, trained beforehand on pairs of texts whose authorship was known, holds "
    "one threshold per feature kind: the typical distance on its training pairs. A distance "
    "below the threshold gives a similarity above 0.5, one above it a similarity below 0.5. "
    "The model also names its <i>ensemble</i>: the feature kinds that together decided best "
    "on the training pairs. The median of the ensemble's similarities is the score; above "
    "0.5 the answer is \u201cconsistent\u201d, otherwise \u201cnot consistent\u201d."
)
TOPIC_GUARANTEE = (
    "<b>No topic word is used.</b> Every word that is not on the fixed list of {entries} "
    "entries (lexicon SHA-256 {sha}) is replaced by a placeholder before any feature is "
    "counted, so names, places, subjects and other content words cannot influence the "
    "result. The list holds function words, pronouns, auxiliary verbs, conjunctions, "
    "prepositions and similar words only."
)
CATEGORY_PLAIN = {
    "F1": "single punctuation marks (comma, full stop, dash …)",
    "F2": "pairs of punctuation marks in the order they appear in a sentence",
    "F3": "runs of three punctuation marks in a sentence",
    "F4": "listed words that open a sentence, or follow a comma or semicolon",
    "F5": "listed words that end a sentence",
    "F6": "listed words and punctuation marks, one at a time",
    "F7": "sequences of two listed words or punctuation marks",
    "F8": "sequences of three listed words or punctuation marks",
    "F9": "sequences of four listed words or punctuation marks",
    "F10": "sequences of three with exactly one other word (shown as #)",
    "F11": "sequences of four with exactly one other word (shown as #)",
}
INTERPRETATION_INTRO = (
    "For each feature kind of the ensemble, every feature that occurs in either text is "
    "sorted into one of two lists (the method of Halvani, Graner and Regev). A feature "
    "whose relative frequency in the questioned text is close to its frequency in the known "
    "texts (the difference is below θ′, the threshold divided by the number of features m) "
    "goes to <b>L_Y</b>, evidence for the same author; every other feature goes to "
    "<b>L_N</b>, evidence for different authors. Each feature's importance λ is how far its "
    "difference lies from θ′. The chart stacks the features of each list by importance, "
    "largest at the bottom; the tables give their counts in every document."
)
LIMITATIONS = (
    "<b>Length.</b> Short texts give few features and unstable distances. The method's "
    "rule of thumb asks for at least 500 characters and 5 sentences on each side and at "
    "least 10 occurrences in every category of the ensemble; the result warns when a text "
    "falls short.",
    "<b>Genre, purpose and time.</b> Style changes with genre (letter, e-mail, essay, "
    "message), with the reader addressed, with editing by others and over the years. A "
    "difference found between texts of different kinds or from different times may come "
    "from that, not from a different author. The model's thresholds were learned on the "
    f"corpus named in {section('Method')}; texts of another kind may be judged less reliably.",
    "<b>What a decision does not prove.</b> \u201cConsistent\u201d does not identify the "
    "author: another person may write in a similar way, and a writer can imitate another. "
    "\u201cNot consistent\u201d does not exclude the author of the known texts. The score is "
    "not a probability that the same person wrote the texts.",
    "<b>Error rates.</b> The method is wrong in a measurable share of cases "
    f"({section('Summary')}); a "
    "single result must be weighed together with the other evidence of the case.",
    "<b>Text extraction.</b> The method reads the text extracted from each file "
    f"({section('Evidence')}). "
    "Formatting, images, headers and footers of Word files, and e-mail attachments are not "
    "read.",
)
REPRODUCIBILITY = (
    "TAVeer has no random element. The same model file (SHA-256 {model}), the same documents "
    f"(SHA-256 of each in {section('Evidence')}) and the same software version "
    "({software}) give the same "
    "distances, similarities, score and answer, on any computer. To reproduce this result "
    "without the project file, save the documents and the model and run "
    '<span class="code">taveer verify MODEL.json --known K1 … --unknown Q --json</span>.'
)


def utc_and_local(moment: datetime) -> str:
    """E.g. ``2026-11-25 22:40:12 UTC (23:40:12 local time, UTC+01:00)``."""
    utc = moment.astimezone(UTC)
    local = moment.astimezone()
    offset = local.strftime("%z")
    offset = f"UTC{offset[:3]}:{offset[3:]}" if offset else "UTC"
    name = local.tzname() or offset
    day = "" if local.date() == utc.date() else local.strftime("%Y-%m-%d ")
    return (
        f"{utc:%Y-%m-%d %H:%M:%S} UTC ({day}{local:%H:%M:%S} local time, "
        f"{html_text(name)}, {offset})"
    )


def stored_time(iso_utc: str) -> str:
    """A store timestamp (ISO 8601 with microseconds) shortened to the second."""
    return html_text(recorded_time(str(iso_utc)))
