"""Sentence-level n-gram language models with interpolated Kneser–Ney smoothing.

Written from the account of Chen and Goodman (1998, "An empirical study of smoothing techniques
for language modeling", Harvard TR-10-98, §2.7 and §3) with one absolute discount per order.

**Sentences.** Every sentence is modelled on its own: it is preceded by ``order − 1`` start
symbols and followed by one end symbol; the end symbol is predicted like a token, the start
symbols never are.

**Keys.** An n-gram is one unsigned 64-bit integer: the tokens from the predicted one leftwards
are folded into a seeded hash (a multiply–xorshift mixer, computed on whole numpy columns), so
the key of an m-gram is the key of its (m−1)-gram suffix mixed with one more token on the left,
and the context of an m-gram (its m−1 tokens before the predicted one) has a key of its own
from a second fold. Two different n-grams share a key with probability about 2⁻⁶⁴ per pair —
with a million distinct n-grams about 3·10⁻⁸ for a whole model — which is ignored.

**Probabilities.** For the highest order m of a model and a context h seen in training,

    P_m(w | h) = [max(c(hw) − D_m, 0) + D_m · N₁₊(h•) · P'_{m−1}(w | h′)] / c(h)

and for an unseen context P_m(w | h) = P'_{m−1}(w | h′), where h′ drops the first word of h.
The lower orders P' have the same form with *continuation* counts in place of counts: c′(hw) is
the number of distinct tokens seen before hw, and c′(h) = Σ_w c′(hw). The recursion ends in the
uniform distribution 1/V over the vocabulary. Each discount is Chen and Goodman's estimate
D = n₁ / (n₁ + 2 n₂) from the order's count-of-counts (n₁ n-grams seen once, n₂ twice), kept
within [``MIN_DISCOUNT``, ``MAX_DISCOUNT``]. For every context, the probabilities of all V tokens
sum to 1 (``tests/core/methods/lambdag/test_kneser_ney.py`` checks it).

Because the highest order uses plain counts over the lower orders' continuation counts, one
model of order N gives, in a single pass, the probability of every model of order 1 … N trained
on the same data (``log10_probabilities`` returns all of them): the order can be chosen by
validation without training again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

START = 0xFFFF  # the start symbol (never a masked token id, which are below 0x8000)
END = 0  # the end symbol: the sentence break's id
MIN_DISCOUNT = 0.1
MAX_DISCOUNT = 0.9
_GRAM_SEED = np.uint64(0x243F6A8885A308D3)
_CONTEXT_SEED = np.uint64(0x13198A2E03707344)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_S31, _S27 = np.uint64(31), np.uint64(27)


def _mix(keys: np.ndarray, tokens: np.ndarray) -> np.ndarray:
    """One step of the fold: a key combined with one more token (whole columns at once)."""
    h = (keys ^ (tokens.astype(np.uint64) + _GOLDEN)) * _M1
    h ^= h >> _S31
    h *= _M2
    mixed: np.ndarray = h ^ (h >> _S27)
    return mixed


def _positions_of(offsets: np.ndarray, sentences: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(position index, new offsets) of some sentences (by index, in the order given) of a
    layout whose sentence s holds positions ``offsets[s] .. offsets[s + 1] − 1``."""
    sentences = np.asarray(sentences, dtype=np.int64)
    starts, stops = offsets[sentences], offsets[sentences + 1]
    lengths = stops - starts
    new_offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    # the position indices of the chosen sentences, without a Python loop
    index = np.repeat(starts - new_offsets[:-1], lengths) + np.arange(new_offsets[-1])
    return index, new_offsets


class _Sentences:
    """What every layout of sentences as predicted positions has: the token of each position
    and ``offsets``, where each sentence's positions start (one more value, the end)."""

    tokens: np.ndarray  # (positions,) uint16
    offsets: np.ndarray  # (sentences + 1,) int64

    @property
    def n_sentences(self) -> int:
        return len(self.offsets) - 1

    @property
    def n_positions(self) -> int:
        return len(self.tokens)

    def sentence_lengths(self) -> np.ndarray:
        """Predicted positions per sentence (its tokens and the end symbol)."""
        return np.diff(self.offsets)


@dataclass(frozen=True)
class SentenceKeys(_Sentences):
    """The n-gram and context keys of every predicted position of some sentences.

    ``grams[m − 1, i]`` is the key of the m-gram ending at position i, ``contexts[m − 1, i]`` the
    key of its m − 1 preceding tokens (a constant for m = 1); ``tokens[i]`` the predicted token;
    ``offsets`` where each sentence's positions start (one more value, the end). Sixteen bytes
    a position and order: made when a model is built or a text scored, never kept for a whole
    population (``SentenceStream`` keeps the tokens alone)."""

    grams: np.ndarray  # (order, positions) uint64
    contexts: np.ndarray  # (order, positions) uint64
    tokens: np.ndarray  # (positions,) uint16
    offsets: np.ndarray  # (sentences + 1,) int64

    @property
    def order(self) -> int:
        return int(self.grams.shape[0])

    def select(self, sentences: np.ndarray) -> SentenceKeys:
        """The keys of some of the sentences (by index, in the order given)."""
        index, offsets = _positions_of(self.offsets, sentences)
        return SentenceKeys(
            self.grams[:, index], self.contexts[:, index], self.tokens[index], offsets
        )


@dataclass(frozen=True)
class SentenceStream(_Sentences):
    """Sentences as the tokens of their predicted positions: each sentence's tokens followed
    by the end symbol, all in one uint16 array (two bytes a position), with ``offsets`` where
    each sentence starts (one more value, the end). The keys of any selection of them are made
    on demand (``keys``): a sentence's keys depend on that sentence alone, so they are the
    same whether made for a whole population at once or for a sample."""

    tokens: np.ndarray  # (positions,) uint16
    offsets: np.ndarray  # (sentences + 1,) int64

    @classmethod
    def of(cls, sentences: Sequence[np.ndarray]) -> SentenceStream:
        lengths = np.array([len(s) + 1 for s in sentences], dtype=np.int64)
        offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
        tokens = np.empty(int(offsets[-1]), dtype=np.uint16)
        for start, sentence in zip(offsets[:-1].tolist(), sentences, strict=True):
            tokens[start : start + len(sentence)] = sentence
        tokens[offsets[1:] - 1] = END
        return cls(tokens, offsets)

    def select(self, sentences: np.ndarray) -> SentenceStream:
        """Some of the sentences (by index, in the order given)."""
        index, offsets = _positions_of(self.offsets, sentences)
        return SentenceStream(self.tokens[index], offsets)

    @staticmethod
    def concatenate(parts: Sequence[SentenceStream]) -> SentenceStream:
        if not parts:
            raise ValueError("nothing to concatenate")
        if len(parts) == 1:
            return parts[0]
        offsets = [parts[0].offsets]
        shift = int(parts[0].offsets[-1])
        for part in parts[1:]:
            offsets.append(part.offsets[1:] + shift)
            shift += int(part.offsets[-1])
        return SentenceStream(np.concatenate([p.tokens for p in parts]), np.concatenate(offsets))

    def keys(self, order: int) -> SentenceKeys:
        """Keys of every predicted position up to ``order``: the m-gram ending at a position
        reaches m − 1 tokens back, where tokens before the sentence's start are start symbols."""
        if order < 1:
            raise ValueError("the order of an n-gram model is at least 1")
        tokens, n = self.tokens, self.n_positions
        within = np.arange(n) - np.repeat(self.offsets[:-1], self.sentence_lengths())
        grams = np.empty((order, n), dtype=np.uint64)
        contexts = np.empty((order, n), dtype=np.uint64)
        gram = _mix(np.full(n, _GRAM_SEED, dtype=np.uint64), tokens)
        context = np.full(n, _CONTEXT_SEED, dtype=np.uint64)
        grams[0], contexts[0] = gram, context
        left = np.empty(n, dtype=np.uint16)
        for m in range(2, order + 1):
            back = m - 1  # the token m − 1 places before the predicted one
            left[:back] = START
            left[back:] = tokens[: n - back] if n > back else tokens[:0]
            left[within < back] = START
            gram = _mix(gram, left)
            context = _mix(context, left)
            grams[m - 1], contexts[m - 1] = gram, context
        return SentenceKeys(grams, contexts, tokens, self.offsets)


def sentence_keys(sentences: Sequence[np.ndarray], order: int) -> SentenceKeys:
    """Keys of every predicted position (each token and each sentence's end) up to ``order``."""
    return SentenceStream.of(sentences).keys(order)


def _discount(counts: np.ndarray) -> float:
    n1 = int(np.count_nonzero(counts == 1))
    n2 = int(np.count_nonzero(counts == 2))
    if n1 == 0 or n2 == 0:
        return MAX_DISCOUNT if n1 else MIN_DISCOUNT
    return float(min(max(n1 / (n1 + 2 * n2), MIN_DISCOUNT), MAX_DISCOUNT))


@dataclass(frozen=True)
class _Order:
    """One order's tables: n-gram keys (sorted) with counts and continuation counts, context
    keys (sorted) with totals and the number of distinct following tokens, and discounts."""

    gram_keys: np.ndarray
    counts: np.ndarray
    continuation: np.ndarray
    context_keys: np.ndarray
    context_counts: np.ndarray
    context_continuation: np.ndarray
    context_types: np.ndarray
    discount: float
    continuation_discount: float


def _lookup(keys: np.ndarray, queries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index, found) of each query among sorted keys."""
    if len(keys) == 0:
        return np.zeros(len(queries), dtype=np.intp), np.zeros(len(queries), dtype=bool)
    index = np.searchsorted(keys, queries)
    index[index == len(keys)] = 0
    return index, keys[index] == queries


class KneserNeyModel:
    """An interpolated Kneser–Ney model of order ``order`` (see the module)."""

    def __init__(self, keys: SentenceKeys, vocabulary_size: int, order: int | None = None):
        order = keys.order if order is None else order
        if not 1 <= order <= keys.order:
            raise ValueError(f"order {order} needs keys of that order (have {keys.order})")
        if vocabulary_size < 1:
            raise ValueError("the vocabulary has at least one token")
        self.order = order
        self.vocabulary_size = vocabulary_size
        self.n_positions = keys.n_positions
        self.orders: list[_Order] = []
        above: tuple[np.ndarray, np.ndarray] | None = None  # the next order's unique keys
        for m in range(order, 0, -1):  # from the top, so each order sees the one above it
            grams, contexts = keys.grams[m - 1], keys.contexts[m - 1]
            unique, first, counts = np.unique(grams, return_index=True, return_counts=True)
            if above is None:
                continuation = counts.copy()  # the top order's continuation is never used
            else:
                suffixes = grams[above[1]]  # each distinct (m+1)-gram's m-gram suffix
                continuation = np.bincount(
                    np.searchsorted(unique, suffixes), minlength=len(unique)
                ).astype(np.int64)
            of_gram = contexts[first]
            context_keys, inverse = np.unique(of_gram, return_inverse=True)
            self.orders.append(
                _Order(
                    gram_keys=unique,
                    counts=counts.astype(np.int64),
                    continuation=continuation,
                    context_keys=context_keys,
                    context_counts=np.bincount(inverse, weights=counts).astype(np.int64),
                    context_continuation=np.bincount(inverse, weights=continuation).astype(
                        np.int64
                    ),
                    context_types=np.bincount(inverse).astype(np.int64),
                    discount=_discount(counts),
                    continuation_discount=_discount(continuation),
                )
            )
            above = (unique, first)
        self.orders.reverse()  # orders[m - 1] is order m

    def log10_probabilities(self, keys: SentenceKeys) -> np.ndarray:
        """log10 P(token | context) of every position under the models of order 1 … ``order``
        trained on the same data: an (order, positions) array."""
        if keys.order < self.order:
            raise ValueError(f"the keys have order {keys.order}, the model {self.order}")
        return ModelStack([self]).mean_log10_probabilities(keys)

    @staticmethod
    def _interpolate(
        count: np.ndarray, total: np.ndarray, types: np.ndarray, discount: float, lower: np.ndarray
    ) -> np.ndarray:
        seen = total > 0
        safe = np.where(seen, total, 1)
        mixed = (np.maximum(count - discount, 0.0) + discount * types * lower) / safe
        return np.where(seen, mixed, lower)


class ModelStack:
    """Several models of the same order and vocabulary (LambdaG's reference samples) scored
    together: their tables are merged per order, each key mixed with its model's index, so one
    lookup per order serves every model. Gives the same probabilities as each model alone."""

    def __init__(self, models: Sequence[KneserNeyModel]):
        if not models:
            raise ValueError("a stack needs at least one model")
        self.order = models[0].order
        self.vocabulary_size = models[0].vocabulary_size
        if any(m.order != self.order or m.vocabulary_size != self.vocabulary_size for m in models):
            raise ValueError("the models of a stack share their order and vocabulary")
        self.size = len(models)
        self.salts = np.arange(1, self.size + 1, dtype=np.uint64)
        self.discounts = np.array([[t.discount for t in m.orders] for m in models]).T
        self.continuation_discounts = np.array(
            [[t.continuation_discount for t in m.orders] for m in models]
        ).T
        if self.size == 1:  # one model: its own tables, keys as they are
            self.orders = models[0].orders
            return
        self.orders = []
        for m in range(self.order):
            tables = [model.orders[m] for model in models]
            gram_keys = np.concatenate(
                [_mix(t.gram_keys, np.full(len(t.gram_keys), j + 1)) for j, t in enumerate(tables)]
            )
            context_keys = np.concatenate(
                [
                    _mix(t.context_keys, np.full(len(t.context_keys), j + 1))
                    for j, t in enumerate(tables)
                ]
            )
            g_order, c_order = np.argsort(gram_keys), np.argsort(context_keys)

            def merged(name: str, order: np.ndarray, tables: list[_Order] = tables) -> np.ndarray:
                column: np.ndarray = np.concatenate([getattr(t, name) for t in tables])[order]
                return column

            self.orders.append(
                _Order(
                    gram_keys=gram_keys[g_order],
                    counts=merged("counts", g_order),
                    continuation=merged("continuation", g_order),
                    context_keys=context_keys[c_order],
                    context_counts=merged("context_counts", c_order),
                    context_continuation=merged("context_continuation", c_order),
                    context_types=merged("context_types", c_order),
                    discount=0.0,  # per model: self.discounts
                    continuation_discount=0.0,
                )
            )

    def mean_log10_probabilities(self, keys: SentenceKeys) -> np.ndarray:
        """The mean of the models' ``log10_probabilities``: (order, positions)."""
        n, r = keys.n_positions, self.size
        model_of = np.repeat(np.arange(r), n)  # row j·n + i: model j, position i
        lower = np.full(r * n, 1.0 / self.vocabulary_size)
        result = np.empty((self.order, r * n))
        alive = np.arange(r * n)
        for m, tables in enumerate(self.orders, start=1):
            salts = self.salts[model_of[alive]]
            position = alive % n
            c_index, c_found = _lookup(
                tables.context_keys, self._salted(keys.contexts, m, position, salts)
            )
            if not c_found.all():
                result[m - 1 :, alive[~c_found]] = np.log10(lower[alive[~c_found]])
                alive, c_index = alive[c_found], c_index[c_found]
                salts, position = salts[c_found], position[c_found]
            if len(alive) == 0:
                break
            g_index, g_found = _lookup(
                tables.gram_keys, self._salted(keys.grams, m, position, salts)
            )
            types = tables.context_types[c_index]
            below = lower[alive]
            models = model_of[alive]
            top = KneserNeyModel._interpolate(
                np.where(g_found, tables.counts[g_index], 0),
                tables.context_counts[c_index],
                types,
                self.discounts[m - 1, models],
                below,
            )
            result[m - 1, alive] = np.log10(top)
            if m < self.order:
                lower[alive] = KneserNeyModel._interpolate(
                    np.where(g_found, tables.continuation[g_index], 0),
                    tables.context_continuation[c_index],
                    types,
                    self.continuation_discounts[m - 1, models],
                    below,
                )
        mean: np.ndarray = result.reshape(self.order, r, n).mean(axis=1)
        return mean

    def _salted(
        self, table: np.ndarray, m: int, position: np.ndarray, salts: np.ndarray
    ) -> np.ndarray:
        """The order-m keys of these positions as the merged tables hold them."""
        keys = table[m - 1, position]
        return keys if self.size == 1 else _mix(keys, salts)
