"""The topic group of every document of a population, for trials built like the case
(``core/trials/trial_topics.py``; ``docs/validation.md``, "Trials built like the case").

Where the groups come from, first that applies:

1. **Labels of a PAN corpus**: the ``group`` column of the ``cases.csv`` beside the corpus split
   (the shared corpora name each case's site or beat there); a document ``EN001/known01`` takes
   its case's group.
2. **A metadata file** ``topics.csv`` in the population folder, columns ``author``,
   ``document`` and ``topic``: the document's file name as the population names it, or blank
   for every document of that author.
3. **The texts** (``text_groups``): each document is a vector of its *content* words — word
   tokens of three letters or more that are not in TAVeer's topic-agnostic lexicon L_TA (its
   function words), sub-linear term frequency times inverse document frequency over words used
   in at least two documents and at most half of them (the 3,000 most frequent kept),
   L2-normalised, reduced to its 50 leading latent dimensions (a randomised truncated SVD: words
   that go together count together) and normalised again — and the documents are grouped by
   spherical k-means (cosine; the best of three k-means++ starts with fixed seeds). The number
   of groups is the **fewest at which the mean silhouette stops rising** (2, 3, … up to 10: the
   first k whose silhouette is at least k + 1's), the parsimony rule of the gap statistic. Texts
   have structure at every scale down to one writer's beat and stories, so the silhouette can
   keep rising with finer groups long past the level of topic: on the shared Reuters train
   split the silhouette is flat from 2 to 4 groups (0.058, 0.057, 0.050) and then rises
   steadily to 10 (0.098) and on to 30 (0.23) — the largest number tried, not the texts, chose
   10 there, and groups that fine left 27 of its 120 documents without a same-group document by
   their author — while where topics exist it peaks (Stack Exchange: 4). The groups are a
   property of the population, not of a validation's seed. On the shared Stack Exchange train
   split (428 documents, 6 sites) this finds 4 groups, adjusted Rand index 0.81 against the
   sites (``docs/validation.md``).

Labels are used only when they name every document and at least two groups (Reuters' single
``reuters`` label says nothing about topic, so its groups come from the texts).

A population kept in a project store has no folder to read labels from: ``file_labels`` reads
them when the population is added (keyed by author and text SHA-256, ``TopicLabels``), the store
keeps them with it (``population_topics``, store version 8), and a population loaded from the
store carries them (``Population.labels``), used here before anything else, with the source
they were read from.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from taveer_desktop.core.features.lexicon import Lexicon, default_lexicon
from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.intake.table_file import read_table, table_present
from taveer_desktop.core.trials.document_dates import METADATA_FILE
from taveer_desktop.core.trials.population import Population, TopicLabels

DocumentKey = tuple[str, int]  # (author, index of the document in ``population.documents``)

FROM_CASES_FILE = "labels: the group column of the corpus's cases.csv"
FROM_TOPICS_FILE = "labels: the population's topics.csv"
FROM_TEXTS = "texts: spherical k-means over content-word TF-IDF"
MAX_GROUPS = 10
LATENT_DIMENSIONS = 50
STARTS = 3
MAX_VOCABULARY = 3000
SILHOUETTE_SAMPLE = 800
_WORD = re.compile(r"[^\W\d_]{3,}(?:'[^\W\d_]+)?")
_MAX_LABEL_FILE = 20_000_000


@dataclass(frozen=True)
class TopicGroups:
    """Each document's group, where the groups came from, and how many there are."""

    of: dict[DocumentKey, str]
    source: str
    count: int

    def group(self, author: str, index: int) -> str:
        return self.of[(author, index)]


def _keys(population: Population) -> list[DocumentKey]:
    return [(a, i) for a in population.authors for i in range(len(population.documents[a]))]


def _from_cases_file(population: Population) -> dict[DocumentKey, str] | None:
    source = Path(population.source)
    for path in (source / "cases.csv", source.parent / "cases.csv"):
        if table_present(path, "cases file"):
            rows = read_table(path, "cases file", _MAX_LABEL_FILE).rows
            break
    else:
        return None
    by_case = {row.get("id"): row.get("group") for row in rows}
    labels = {}
    for author, index in _keys(population):
        case_id = population.documents[author][index].name.split("/", 1)[0]
        if not by_case.get(case_id):
            return None
        labels[(author, index)] = by_case[case_id]
    return labels


def _from_topics_file(population: Population) -> dict[DocumentKey, str] | None:
    path = Path(population.source) / METADATA_FILE
    if not table_present(path, "population metadata"):
        return None
    table = read_table(path, "population metadata", _MAX_LABEL_FILE)
    if table.rows and "topic" not in table.columns:
        return None  # a metadata file giving dates only (``core/trials/document_dates.py``)
    named: dict[tuple[str, str], str] = {}
    for row in table.rows:
        author, topic = row.get("author"), row.get("topic")
        if not topic and row.get("date"):
            continue  # a row giving only a document's date (``core/trials/document_dates.py``)
        if not author or not topic:
            raise InputError(f"line {row.line} needs an author and a topic", path)
        named[(author, row.get("document"))] = topic
    labels = {}
    for author, index in _keys(population):
        name = population.documents[author][index].name
        topic = named.get((author, name)) or named.get((author, "")) or ""
        if not topic:
            raise InputError(f"names no topic for {author}/{name}", path)
        labels[(author, index)] = topic
    return labels


def content_vectors(texts: list[str], lexicon: Lexicon) -> np.ndarray:
    """Documents × content words: sub-linear TF × IDF, L2-normalised rows (see the module)."""
    counts = [Counter(w for w in _WORD.findall(t.lower()) if w not in lexicon.words) for t in texts]
    df: Counter[str] = Counter()
    for c in counts:
        df.update(c.keys())
    n = len(texts)
    kept = [w for w, d in df.items() if 2 <= d <= max(2, n // 2)]
    kept.sort(key=lambda w: (-df[w], w))
    column = {w: j for j, w in enumerate(kept[:MAX_VOCABULARY])}
    idf = np.log(n / np.array([df[w] for w in column], dtype=float))
    rows, columns, tfs = [], [], []
    for i, c in enumerate(counts):
        for w, tf in c.items():
            j = column.get(w)
            if j is not None:
                rows.append(i)
                columns.append(j)
                tfs.append(tf)
    matrix = np.zeros((n, len(column)))
    cols = np.array(columns, dtype=np.int64)
    matrix[np.array(rows, dtype=np.int64), cols] = (1.0 + np.log(np.array(tfs, float))) * idf[cols]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)


def spherical_kmeans(x: np.ndarray, k: int, seed: int = 0, rounds: int = 50) -> np.ndarray:
    """Cluster labels of unit rows by cosine (k-means++ start with the given seed; the best of
    ``STARTS`` starts, seeds ``seed`` …, by the summed lengths of the groups' sums)."""
    best, best_fit = np.zeros(len(x), dtype=np.int64), -np.inf
    for start in range(STARTS):
        labels = _kmeans_once(x, k, seed + start, rounds)
        fit = sum(float(np.linalg.norm(x[labels == j].sum(axis=0))) for j in range(k))
        if fit > best_fit:
            best, best_fit = labels, fit
    return best


def _kmeans_once(x: np.ndarray, k: int, seed: int, rounds: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = [x[int(rng.integers(len(x)))]]
    for _ in range(1, k):
        gap = np.clip(1.0 - np.max(x @ np.array(centres).T, axis=1), 0.0, None)
        total = gap.sum()
        pick = int(rng.choice(len(x), p=gap / total)) if total > 0 else int(rng.integers(len(x)))
        centres.append(x[pick])
    c = np.array(centres)
    labels = np.full(len(x), -1)
    for _ in range(rounds):
        new = np.argmax(x @ c.T, axis=1)
        if np.array_equal(new, labels):
            break
        labels = new
        for j in range(k):
            members = x[labels == j]
            if len(members):
                mean = members.sum(axis=0)
                c[j] = mean / max(float(np.linalg.norm(mean)), 1e-12)
    return labels


def silhouette(x: np.ndarray, labels: np.ndarray) -> float:
    """Mean silhouette of unit rows under cosine distance (−1 … 1)."""
    distance = 1.0 - x @ x.T
    groups, index = np.unique(labels, return_inverse=True)
    onehot = np.eye(len(groups))[index]  # documents × groups
    sizes = onehot.sum(axis=0)
    sums = distance @ onehot  # each document's summed distance to each group
    own = sums[np.arange(len(x)), index]
    own_size = sizes[index] - 1
    a = np.where(own_size > 0, own / np.maximum(own_size, 1), 0.0)
    mean_other = np.where(onehot > 0, np.inf, sums / np.maximum(sizes, 1))
    b = mean_other.min(axis=1)
    values = np.where(own_size > 0, (b - a) / np.maximum(np.maximum(a, b), 1e-12), 0.0)
    return float(np.mean(values))


def _orthonormal(y: np.ndarray) -> np.ndarray:
    """Orthonormal columns spanning ``y`` (from the eigenvectors of the small ``yᵀy``; numpy's
    QR of a tall matrix took 0.4 s on the loaded machine, this a few milliseconds)."""
    values, vectors = np.linalg.eigh(y.T @ y)
    keep = values > values.max() * 1e-12
    return np.asarray((y @ vectors[:, keep]) / np.sqrt(values[keep]))


def latent(x: np.ndarray, dimensions: int) -> np.ndarray:
    """The rows in the ``dimensions`` leading singular directions: a randomised truncated SVD
    (two power iterations, a fixed seed) whose small eigenproblems are solved on projected Gram
    matrices — a full SVD of the whole matrix took seconds on the loaded development machine."""
    width = min(dimensions + 10, *x.shape)
    y = x @ np.random.default_rng(0).standard_normal((x.shape[1], width))
    for _ in range(2):
        y = x @ (x.T @ _orthonormal(y))
    q = _orthonormal(y)
    b = q.T @ x
    values, vectors = np.linalg.eigh(b @ b.T)
    top = np.argsort(values)[::-1][:dimensions]
    return np.asarray((q @ vectors[:, top]) * np.sqrt(np.clip(values[top], 0.0, None)))


def text_groups(texts: list[str], lexicon: Lexicon | None = None) -> np.ndarray:
    """A group number for each text from its content words (see the module)."""
    x = content_vectors(texts, lexicon or default_lexicon())
    if len(texts) < 4 or x.shape[1] == 0:
        return np.zeros(len(texts), dtype=np.int64)
    x = latent(x, LATENT_DIMENSIONS)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    x = x / np.where(norms > 0, norms, 1.0)
    sample = np.random.default_rng(0).permutation(len(x))[:SILHOUETTE_SAMPLE]
    best, best_score = np.zeros(len(x), dtype=np.int64), -np.inf
    for k in range(2, min(MAX_GROUPS, len(x) // 2) + 1):
        labels = spherical_kmeans(x, k)
        if len(set(labels[sample].tolist())) < 2:
            continue
        score = silhouette(x[sample], labels[sample])
        if score <= best_score:  # the silhouette stopped rising: the fewest groups it supports
            break
        best, best_score = labels, score
    return best


def file_labels(population: Population) -> TopicLabels | None:
    """The labels of the population's files (its cases file's group column, else its
    ``topics.csv``) by (author, text SHA-256), where they name every document and at least
    two groups; None where they do not."""
    for source, read in (
        (FROM_CASES_FILE, _from_cases_file),
        (FROM_TOPICS_FILE, _from_topics_file),
    ):
        labels = read(population)
        if labels is not None and len(set(labels.values())) >= 2:
            of = {(a, population.documents[a][i].text_sha256): g for (a, i), g in labels.items()}
            return TopicLabels(source, of)
    return None


def _labelled(population: Population, labels: TopicLabels) -> TopicGroups | None:
    """The groups the labels give every document (None where one is not named)."""
    of = {}
    for author, index in _keys(population):
        label = labels.of.get((author, population.documents[author][index].text_sha256))
        if not label:
            return None
        of[(author, index)] = label
    count = len(set(of.values()))
    return TopicGroups(of, labels.source, count) if count >= 2 else None


def topic_groups(population: Population, lexicon: Lexicon | None = None) -> TopicGroups:
    """Every document's topic group: from the labels kept with a stored population, else from
    the labels of its files, else from the texts (see the module)."""
    kept = population.labels
    groups = None if kept is None else _labelled(population, kept)
    if groups is None and (read := file_labels(population)) is not None:
        groups = _labelled(population, read)
    if groups is not None:
        return groups
    keys = _keys(population)
    texts = [population.documents[a][i].coded.text for a, i in keys]
    found = text_groups(texts, lexicon)
    of = {key: f"topic {int(g) + 1}" for key, g in zip(keys, found, strict=True)}
    return TopicGroups(of, FROM_TEXTS, len(set(of.values())))
