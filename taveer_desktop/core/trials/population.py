"""A relevant population for validation: authors and their documents, checked, each encoded once.

A population is what Hd names: people like the questioned document's possible writers (other
employees' e-mails, other members of the same forum, letters of the same period). Validation
(``core/validation/validation.py``) cuts its trials from the documents' integer streams
(``core/features/feature_stream.py``), so every document is read and encoded exactly once.

Every path that makes a population (``taveer population add``, the validation wizard's import,
``taveer validate --population``) reads it with one reader, ``store/population_folder.py``'s
``read_population``, and hands the texts, grouped by author, to ``population_from_texts``. A PAN
corpus split is read by the authors its layout names (``corpus_provenance``: the ``cases.csv``
beside a PAN 2013–2015 split, columns ``id``, ``known_author``, ``unknown_author``, or the
``authors`` field of a PAN 2020+ ``truth.jsonl``) — never one problem folder as one author —
and refused, saying how to build a population, where it names none.

The checks, in this order, before anything is counted:

- the same text reached twice under one author is kept once (by the SHA-256 of its text); the
  same text under two authors is refused, naming both (a filing error to put right);
- texts *nearly* the same under two authors (``core/intake/near_duplicates.py``: shared character
  runs, an edited repost, a syndicated article, a quoted letter) are both left out, named in the
  warnings; near-duplicates of one author are named and kept;
- when the population is used for a case, the case's own documents (and near-duplicates of
  them) are left out of it (``case_documents``), named in the warnings;
- authors with fewer than two documents cannot give a same-author trial and are left out with
  a warning.

So the author count, the document count and the casework minimum
(``core/validation/validation.py``) are taken after these checks. The documents kept are also
measured once for the population-fit check (``Population.fit``,
``core/population_fit.fit_profile``): the validation record carries that profile, and the gate asks
of each case whether its documents look like them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from taveer_desktop.core.features.feature_stream import CodedDocument, encode_document
from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.gate.population_fit import FitProfile, fit_profile
from taveer_desktop.core.ground.counts import count
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.progress import NO_PROGRESS, Progress
from taveer_desktop.core.intake.corpus import MAX_CORPUS_FILE_BYTES, PAN_FOLDER, Corpus, iter_jsonl
from taveer_desktop.core.intake.file_reading import shown_name
from taveer_desktop.core.intake.near_duplicates import (
    NEAR_DUPLICATE,
    containment_with,
    near_duplicate_pairs,
    shingles,
)
from taveer_desktop.core.intake.table_file import read_table, table_present
from taveer_desktop.core.trials.document_dates import DocumentDates

MIN_DOCUMENTS_PER_AUTHOR = 2
MIN_AUTHORS = 4
HOW_TO_BUILD = (
    "build a population as a folder with one sub-folder per author, each holding only that "
    "author's documents, or add a cases.csv naming the author of every problem's texts"
)


@dataclass(frozen=True)
class PopulationDocument:
    """One document of the population: its author, name, text hash, length and id streams."""

    author: str
    name: str
    text_sha256: str
    chars: int
    coded: CodedDocument = field(repr=False, compare=False)


@dataclass(frozen=True)
class TopicLabels:
    """Topic labels a population brought with it (``core/trials/topic_groups.py``): each
    document's label by (author, text SHA-256), and where they came from — read from the
    population's files when it was read, or kept with it in a project store."""

    source: str
    of: Mapping[tuple[str, str], str]


@dataclass
class Population:
    """Authors (sorted) and their documents; ``sha256`` identifies the texts and authorship."""

    name: str
    source: str
    description: str
    documents: dict[str, list[PopulationDocument]]
    sha256: str
    warnings: list[str] = field(default_factory=list)
    # what the population's documents look like, for the population-fit check of a case
    # (``core/gate/population_fit.py``); None when too few documents have words to measure
    fit: FitProfile | None = field(default=None, repr=False, compare=False)
    # topic labels kept with a stored population (None: read from its files, or from its texts)
    labels: TopicLabels | None = field(default=None, repr=False, compare=False)
    # the documents' dates (``core/trials/document_dates.py``; None: none dated)
    dates: DocumentDates | None = field(default=None, repr=False, compare=False)

    @property
    def authors(self) -> list[str]:
        return sorted(self.documents)

    @property
    def n_documents(self) -> int:
        return sum(len(d) for d in self.documents.values())


def _text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def population_from_texts(
    texts: Mapping[str, Sequence[tuple[str, str]]],
    name: str,
    source: str,
    description: str = "",
    lexicon: Lexicon | None = None,
    progress: Progress = NO_PROGRESS,
    warnings: Iterable[str] = (),
    case_documents: Mapping[str, str] | None = None,
    labels: TopicLabels | None = None,
    dates: DocumentDates | None = None,
) -> Population:
    """Check and encode every text once. ``texts`` maps an author to ``(document name, text)``
    pairs; ``case_documents`` (exhibit label → text) are the documents of the case the
    population will be used for: none of them (nor a near-duplicate) stays in it; ``labels``:
    the topic labels kept with a stored population; ``dates``: the documents' dates."""
    lexicon = lexicon or default_lexicon()
    notes = list(warnings)
    candidates = _distinct_texts(texts, source, notes)
    _leave_out_near_duplicates(candidates, notes)
    if case_documents:
        _leave_out_case_documents(candidates, case_documents, notes)
    total = sum(len(v) for v in candidates.values())
    done = 0
    documents: dict[str, list[PopulationDocument]] = {}
    kept_texts: list[str] = []  # the texts of the documents kept, for the fit profile
    kept_authors: list[str] = []
    identity = hashlib.sha256()
    for author in sorted(candidates):
        kept: list[PopulationDocument] = []
        texts_of: dict[str, str] = {}
        for doc_name, text, digest in candidates[author]:
            progress.check()
            done += 1
            coded = encode_document(text, lexicon)
            if coded.n_sentences == 0:
                notes.append(f"{author}/{doc_name}: no sentence, left out")
                continue
            kept.append(PopulationDocument(author, doc_name, digest, len(text), coded))
            texts_of[digest] = text
            progress.step(done, total, f"features of {author}/{doc_name}")
        if len(kept) < MIN_DOCUMENTS_PER_AUTHOR:
            notes.append(
                f"author {author!r} has {count(len(kept), 'usable document')}; at least "
                f"{MIN_DOCUMENTS_PER_AUTHOR} are needed, so the author is left out"
            )
            continue
        kept.sort(key=lambda d: (d.name, d.text_sha256))
        documents[author] = kept
        for document in kept:
            identity.update(f"{author}\t{document.text_sha256}\n".encode())
            kept_texts.append(texts_of[document.text_sha256])
            kept_authors.append(author)
    if len(documents) < MIN_AUTHORS:
        raise InputError(
            f"the population has {count(len(documents), 'author')} with at least "
            f"{MIN_DOCUMENTS_PER_AUTHOR} documents after its checks; validation needs at "
            f"least {MIN_AUTHORS}",
            source,
        )
    try:
        fit = fit_profile(kept_texts, lexicon, progress, kept_authors)
    except InputError as error:
        fit = None
        notes.append(f"the population-fit check cannot be calibrated: {error.plain_message}")
    name, source, description = (shown_name(t) for t in (name, source, description))
    return Population(  # a folder's name that is not UTF-8 is kept with its odd bytes escaped
        name, source, description, documents, identity.hexdigest(), notes, fit, labels, dates
    )


# author → (document name, text, text SHA-256), each text once per author
_Candidates = dict[str, list[tuple[str, str, str]]]


def _distinct_texts(
    texts: Mapping[str, Sequence[tuple[str, str]]], source: str, notes: list[str]
) -> _Candidates:
    """Each author's texts once (by SHA-256), blank ones left out; the same text under two
    authors is refused, naming both (a filing error the examiner must put right)."""
    owners: dict[str, tuple[str, str]] = {}  # text SHA-256 → (author, document) first seen
    candidates: _Candidates = {}
    for author in sorted(texts):
        seen: set[str] = set()
        mine = candidates.setdefault(author, [])
        for doc_name, text in texts[author]:
            digest = _text_hash(text)
            if digest in seen:
                continue
            seen.add(digest)
            if not text.strip():
                notes.append(f"{author}/{doc_name}: no text, left out")
                continue
            first = owners.setdefault(digest, (author, doc_name))
            if first[0] != author:
                raise InputError(
                    f"holds the same text under two authors: {first[0]!r} ({first[1]}) and "
                    f"{author!r} ({doc_name}); a text has one author — remove it from one of "
                    "them",
                    source,
                )
            mine.append((doc_name, text, digest))
    return candidates


def _listed(lines: list[str], notes: list[str], what: str) -> None:
    """At most ``_SHOWN_PAIRS`` lines, then how many more."""
    notes.extend(lines[:_SHOWN_PAIRS])
    if len(lines) > _SHOWN_PAIRS:
        notes.append(f"… and {len(lines) - _SHOWN_PAIRS} more {what}")


_SHOWN_PAIRS = 10


def _leave_out_near_duplicates(candidates: _Candidates, notes: list[str]) -> None:
    """A text nearly the same as another author's (``core/intake/near_duplicates.py``): neither can
    be credited to one writer, so both are left out; near-duplicates of one author are named
    (they make that author's same-author trials easy) and kept."""
    index = [(a, d) for a in sorted(candidates) for d in candidates[a]]
    pairs = near_duplicate_pairs([shingles(d[1]) for _a, d in index])
    dropped: set[tuple[str, str]] = set()
    across, within = [], []
    for pair in pairs:
        (a, (name_a, _t, _h)), (b, (name_b, _u, _k)) = index[pair.first], index[pair.second]
        share = f"{100 * pair.containment:.0f} %"
        if a != b:
            dropped.update({(a, name_a), (b, name_b)})
            across.append(
                f"{a}/{name_a} and {b}/{name_b} are nearly the same text ({share} of the shorter "
                "one's 12-character runs in the other) under two authors: both are left out"
            )
        else:
            within.append(
                f"{a}/{name_a} and {a}/{name_b} are nearly the same text ({share} shared); "
                "both kept, but trials between them are easy"
            )
    _listed(across, notes, "near-duplicate pairs under two authors, left out")
    _listed(within, notes, "near-duplicate pairs of one author")
    for author in candidates:
        candidates[author] = [d for d in candidates[author] if (author, d[0]) not in dropped]


def _leave_out_case_documents(
    candidates: _Candidates, case_documents: Mapping[str, str], notes: list[str]
) -> None:
    """A population text that is one of the case's own documents (or a near-duplicate of
    one) would put the case's evidence into its own validation's trials: it is left out,
    named. (Its author's other texts stay: they are another person's for every other case.)"""
    labels = sorted(case_documents)
    case_prints = [shingles(case_documents[label]) for label in labels]
    case_hashes = {_text_hash(case_documents[label]): label for label in labels}
    for author in sorted(candidates):
        kept = []
        for doc_name, text, digest in candidates[author]:
            label = case_hashes.get(digest)
            if label is None:
                shared = containment_with(shingles(text), case_prints)
                best = int(np.argmax(shared)) if len(shared) else 0
                if len(shared) and shared[best] >= NEAR_DUPLICATE:
                    label = labels[best]
            if label is None:
                kept.append((doc_name, text, digest))
                continue
            notes.append(
                f"{author}/{doc_name} is the case's own {label} (or nearly the same text): "
                "left out, so the case's evidence is not among its validation's trials"
            )
        candidates[author] = kept


def _folder_authors(corpus: Corpus) -> dict[str, tuple[list[str], str]]:
    """Case id → (known authors, unknown author) from the ``cases.csv`` beside the split."""
    for candidate in (corpus.path / "cases.csv", corpus.path.parent / "cases.csv"):
        if table_present(candidate, "cases file"):
            break
    else:
        raise InputError(
            f"is a PAN corpus whose problem folders are cases, not authors, and it does not name "
            f"the author of its texts (no cases.csv beside it with 'known_author' and "
            f"'unknown_author'); {HOW_TO_BUILD}",
            corpus.path,
        )
    authors: dict[str, tuple[list[str], str]] = {}
    for row in read_table(candidate, "cases file", MAX_CORPUS_FILE_BYTES).rows:
        case_id, known, unknown = (row.get(key) for key in ("id", "known_author", "unknown_author"))
        if not (case_id and known and unknown):
            raise InputError(
                "needs the columns 'id', 'known_author' and 'unknown_author' filled in on "
                f"every row (line {row.line} is not)",
                candidate,
            )
        _name_authors(authors, corpus, case_id, known, unknown, candidate)
    return authors


def _jsonl_authors(corpus: Corpus) -> dict[str, tuple[list[str], str]]:
    path = corpus.path / "truth.jsonl"
    authors: dict[str, tuple[list[str], str]] = {}
    for _line, record in iter_jsonl(path):
        pair = record.get("authors")
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(a, str) for a in pair)
        ):
            raise InputError(
                "does not name the two authors of every pair ('authors': [known, unknown]), "
                f"so its texts have no authors; {HOW_TO_BUILD}",
                path,
            )
        _name_authors(authors, corpus, str(record.get("id")), pair[0], pair[1], path)
    return authors


def _name_authors(
    authors: dict[str, tuple[list[str], str]],
    corpus: Corpus,
    case_id: str,
    known: str,
    unknown: str,
    source: Path,
) -> None:
    """Record the authors of one case; a case named twice, or authors that contradict the
    corpus's truth (the same author for a "different authors" problem), refuse the file."""
    if case_id in authors:
        raise InputError(f"names the authors of problem {case_id} twice", source)
    truth = corpus.truth.get(case_id)
    if truth is not None and (known == unknown) != truth:
        raise InputError(
            f"names {known!r} and {unknown!r} as the authors of problem {case_id}, but the "
            f"corpus's truth says {'the same author' if truth else 'different authors'}",
            source,
        )
    authors[case_id] = ([known], unknown)


def corpus_provenance(corpus: Corpus) -> dict[str, tuple[list[str], str]]:
    """Problem id → (known authors, unknown author), from the layout's provenance; a corpus
    that names no authors is refused in one line that says how to build a population."""
    if corpus.layout == PAN_FOLDER:
        return _folder_authors(corpus)
    return _jsonl_authors(corpus)


def population_from_corpus(
    corpus: Corpus,
    description: str = "",
    lexicon: Lexicon | None = None,
    progress: Progress = NO_PROGRESS,
) -> Population:
    """The authors of a PAN corpus and their texts (from the layout's provenance)."""
    provenance = corpus_provenance(corpus)
    texts: dict[str, list[tuple[str, str]]] = {}
    for case in corpus.iter_cases():
        if case.case_id not in provenance:
            raise InputError(
                f"the provenance does not name the authors of case {case.case_id}", corpus.path
            )
        known_authors, unknown_author = provenance[case.case_id]
        for index, text in enumerate(case.known_texts, start=1):
            texts.setdefault(known_authors[0], []).append(
                (f"{case.case_id}/known{index:02d}", text)
            )
        texts.setdefault(unknown_author, []).append((f"{case.case_id}/unknown", case.unknown_text))
    return population_from_texts(
        texts,
        corpus.name,
        str(corpus.path),
        description or f"the authors of the corpus {corpus.name!r}",
        lexicon,
        progress,
        corpus.warnings,
    )
