"""Two small but real comparison systems for the engine's tests: character-trigram profiles
compared by cosine similarity, alone (registered as ProfAV's id) and against impostors drawn at
random (registered as IM's id). ``installed`` puts them where the catalogue looks."""

from __future__ import annotations

import functools
import sys
import types
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar

import numpy as np

from taveer_desktop.core.ground.registry import MethodInfo, method_info
from taveer_desktop.core.methods.systems.comparison import (
    CannotCompare,
    CaseTexts,
    ComparisonMethod,
)


@functools.lru_cache(maxsize=512)  # the population's documents recur as impostors
def trigrams(text: str) -> Counter[str]:
    return Counter(text[i : i + 3] for i in range(len(text) - 2))


def cosine(a: Counter[str], b: Counter[str]) -> float:
    dot = sum(v * b.get(k, 0) for k, v in a.items())
    norm = (sum(v * v for v in a.values()) * sum(v * v for v in b.values())) ** 0.5
    return dot / norm if norm else 0.0


class TrigramCosine(ComparisonMethod):
    """Cosine of the known and questioned texts' character-trigram counts; refuses a
    questioned text shorter than ``min_chars``."""

    info: ClassVar[MethodInfo] = method_info("profav")
    DEFAULTS: ClassVar[dict[str, Any]] = {"min_chars": 0}
    seen: ClassVar[list[tuple[CaseTexts, tuple[str, ...]]]] = []  # what each call was given

    def check_params(self, params: Any) -> None:
        if not isinstance(params["min_chars"], int) or params["min_chars"] < 0:
            raise ValueError("min_chars must be a whole number ≥ 0")

    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        type(self).seen.append((case, tuple(impostors)))
        if len(case.questioned) < self.params["min_chars"]:
            raise CannotCompare(f"the questioned text has fewer than {self.params['min_chars']}")
        return np.array([cosine(trigrams(case.known_joined), trigrams(case.questioned))])


class TrigramImpostors(TrigramCosine):
    """The cosine with the known text minus the highest cosine with ``k`` impostors drawn at
    random (a learned offset, to exercise ``learn``/``check_learned``)."""

    info: ClassVar[MethodInfo] = method_info("im")
    DEFAULTS: ClassVar[dict[str, Any]] = {"min_chars": 0, "k": 3}

    def check_params(self, params: Any) -> None:
        super().check_params(params)
        if not isinstance(params["k"], int) or params["k"] < 1:
            raise ValueError("k must be a whole number ≥ 1")

    def features(
        self, case: CaseTexts, impostors: Sequence[str], rng: np.random.Generator
    ) -> np.ndarray:
        type(self).seen.append((case, tuple(impostors)))
        if not impostors:
            raise CannotCompare("no impostors")
        q = trigrams(case.questioned)
        drawn = rng.choice(
            len(impostors), size=min(self.params["k"], len(impostors)), replace=False
        )
        best = max(cosine(trigrams(impostors[i]), q) for i in drawn)
        return np.array([cosine(trigrams(case.known_joined), q), best])

    def learn(self, features: np.ndarray, truth: np.ndarray) -> dict[str, Any]:
        return {"offset": float(np.mean(features[:, 1]))}

    def score(self, features: np.ndarray, learned: Any) -> np.ndarray:
        return features[:, 0] - features[:, 1] + learned["offset"]

    def check_learned(self, learned: Any) -> None:
        if set(learned) != {"offset"} or not isinstance(learned["offset"], float):
            raise ValueError("learned must be {'offset': number}")


class ShortTextRefuser(TrigramCosine):
    """Trigram cosine that cannot compare a questioned text under 2,600 characters (like
    Unmasking on short texts), registered as Unmasking's id."""

    info: ClassVar[MethodInfo] = method_info("unmasking")
    DEFAULTS: ClassVar[dict[str, Any]] = {"min_chars": 2600}


INSTALLED = (("profav", TrigramCosine), ("im", TrigramImpostors), ("unmasking", ShortTextRefuser))


@contextmanager
def installed(methods: Sequence[tuple[str, type]] = INSTALLED) -> Iterator[None]:
    """Test methods where the catalogue finds the ids given (by default ``profav``, ``im`` and
    ``unmasking``), the real modules put back afterwards."""
    saved = {}
    for method_id, cls in methods:
        name = f"taveer_desktop.core.methods.systems.{method_id}"
        saved[name] = sys.modules.get(name)
        module = types.ModuleType(name)
        module.METHOD = cls  # type: ignore[attr-defined]
        sys.modules[name] = module
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
