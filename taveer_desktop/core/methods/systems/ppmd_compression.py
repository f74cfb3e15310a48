"""Compressed lengths with PPMd, and the two compression dissimilarities built on them.

The three compression-based comparison systems (COAV, OCCAV, NNCD) read a text only through
its compressed length ``C(x)``: the number of bytes PPMd variant H (Shkarin's PPMd, as 7-Zip's
``Ppmd7`` implements it, through the maintained binding ``pyppmd``) writes for the text's UTF-8
bytes, the encoder's final flush included. The seed fixes the model order at 7 for all three
methods ("we experimented with values from 2 to 10"); the model memory is 16 MiB, far more
than a case's texts fill, so it never changes a length (measured: 1, 4 and 16 MiB give the
same lengths on 6,600 characters).

Dissimilarities of two texts ``x`` and ``y`` (``xy`` is ``x`` followed directly by ``y``):

* CBC, the compression-based cosine (Sculley and Brodley 2006, used by COAV and OCCAV)::

      CBC(x, y) = 1 - (C(x) + C(y) - C(xy)) / sqrt(C(x) * C(y))

* CDM, the compression-based dissimilarity measure (Keogh, Lonardi and Ratanamahatana 2004,
  used by NNCD)::

      CDM(x, y) = C(xy) / (C(x) + C(y))

Both are computed here from the three lengths, so a test can check them against lengths it
obtained from ``pyppmd`` itself.

Cost: about 1 ms per 6,000 characters (PPMd's model allocation dominates short texts). A
validation compresses the same texts again and again — the two trials of a pair share their
known text, NNCD's impostors recur in every trial — so ``CompressedLengths`` remembers the
lengths of the texts (and of the joined pairs) it has compressed, keyed by a digest of the
text, up to ``CACHE_ENTRIES`` of them per process (least recently used dropped first).

Known defect of pyppmd (1.3.1, and its source as of November 2025): an encoder's deallocation
frees the model memory but not the model's own structure nor its range coder, so every
compression keeps about 19 KiB (measured: 23.6 KiB of resident memory per compression, 5,000
compressions) until the process ends. A single case costs well under 1 MB; a validation's
worker keeps about 24 KiB × (compressions it makes) — e.g. NNCD with 30 impostors on 1,000
trials ≈ 0.7 GB — so the compression methods should run in worker processes that end with the
validation (the engine's workers do), never for hours inside the desktop's own process.
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import pyppmd

from taveer_desktop.core.methods.systems.comparison import CannotCompare

ORDER = 7  # the seed's model order for COAV, OCCAV and NNCD
MIN_ORDER, MAX_ORDER = 2, 64  # what PPMd variant H accepts (pyppmd does not check it)
MEMORY_BYTES = 16 << 20  # model memory; large enough that no case's text fills it
CACHE_ENTRIES = 8192  # compressed lengths remembered per process (a few hundred kB)


def compressed_length(text: str, order: int = ORDER) -> int:
    """``C(text)``: bytes of the PPMd (variant H) encoding of the text's UTF-8 bytes."""
    encoder = pyppmd.Ppmd7Encoder(order, MEMORY_BYTES)
    data = encoder.encode(text.encode("utf-8"))
    return len(data) + len(encoder.flush())


def cbc(cx: float, cy: float, cxy: float) -> float:
    """Compression-based cosine dissimilarity from ``C(x)``, ``C(y)`` and ``C(xy)``."""
    return 1.0 - (cx + cy - cxy) / math.sqrt(cx * cy)


def cdm(cx: float, cy: float, cxy: float) -> float:
    """Compression-based dissimilarity measure from ``C(x)``, ``C(y)`` and ``C(xy)``."""
    return cxy / (cx + cy)


def check_order(params: Mapping[str, Any], method: str) -> None:
    """Refuse a PPMd model order that is not a whole number in PPMd's range."""
    order = params.get("order")
    if isinstance(order, bool) or not isinstance(order, int):
        raise ValueError(f"{method}: order must be a whole number, not {order!r}")
    if not MIN_ORDER <= order <= MAX_ORDER:
        raise ValueError(f"{method}: order must be from {MIN_ORDER} to {MAX_ORDER}, not {order}")


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


class CompressedLengths:
    """``C(x)`` and ``C(xy)`` at one model order, remembering what it has compressed."""

    def __init__(self, order: int = ORDER, capacity: int = CACHE_ENTRIES) -> None:
        self.order = order
        self.capacity = capacity
        self._lengths: OrderedDict[bytes, int] = OrderedDict()

    def _remembered(self, key: bytes, text: str) -> int:
        found = self._lengths.get(key)
        if found is not None:
            self._lengths.move_to_end(key)
            return found
        length = compressed_length(text, self.order)
        self._lengths[key] = length
        if len(self._lengths) > self.capacity:
            self._lengths.popitem(last=False)
        return length

    def length(self, text: str) -> int:
        """``C(text)``."""
        return self._remembered(_digest(text), text)

    def joined(self, first: str, second: str) -> int:
        """``C(first second)``: the two texts compressed one after the other."""
        key = hashlib.blake2b(_digest(first) + _digest(second), digest_size=16).digest()
        return self._remembered(key, first + second)

    def cbc(self, x: str, y: str) -> float:
        """CBC(x, y) (see the module)."""
        return cbc(self.length(x), self.length(y), self.joined(x, y))

    def cdm(self, x: str, y: str) -> float:
        """CDM(x, y) (see the module)."""
        return cdm(self.length(x), self.length(y), self.joined(x, y))


_BY_ORDER: dict[int, CompressedLengths] = {}


def lengths_at(order: int) -> CompressedLengths:
    """The process's remembering ``CompressedLengths`` for a model order."""
    if order not in _BY_ORDER:
        _BY_ORDER[order] = CompressedLengths(order)
    return _BY_ORDER[order]


def require_text(text: str, what: str, method: str) -> None:
    """``CannotCompare`` for a text with nothing to compress (empty or only white space)."""
    if not text.strip():
        raise CannotCompare(f"{method} needs text to compress; {what} is empty")
