"""The method's symbols in plain words, for tooltips and Help ▸ Glossary (no Qt).

Each entry names a symbol the result views show (L_Y, L_N, λ, θ, θ′, Φ, the score, the
likelihood ratio, and for a LambdaG or fused model λG, a token's share and a sentence's TAVeer
lean) and says what it is without the paper's notation, then how to read it. LambdaG's entries
are the sentences of ``presentation/method_agreement`` and ``presentation/lambdag_shades``.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from taveer_desktop.presentation.lambdag_shades import LEAN_MEANING
from taveer_desktop.presentation.method_agreement import LAMBDAG_METHOD, SHARE_MEANING


@dataclass(frozen=True)
class Term:
    symbol: str
    name: str
    meaning: str


TERMS: tuple[Term, ...] = (
    Term(
        "Φ",
        "the feature table",
        "Every feature of a category found in either text, with how often it occurs in the "
        "questioned text (x) and in the known texts (y), each as a share of all the category's "
        "features in that text, and the difference between them, |x − y|. The category's "
        "distance is the sum of these differences.",
    ),
    Term(
        "θ",
        "the category's threshold",
        "The distance, learned from training cases with known answers, at which a category is "
        "undecided: texts closer than θ look like one author, texts farther apart like two. "
        "It is stored in the model.",
    ),
    Term(
        "θ′",
        "the threshold per feature",
        "θ shared out evenly over the category's features (θ divided by their number). A "
        "feature whose difference |x − y| is smaller than θ′ counts towards the same author, "
        "a larger one towards different authors.",
    ),
    Term(
        "λ",
        "a feature's importance",
        "How far a feature's difference lies from θ′, |θ′ − |x − y||: the larger λ, the more "
        "the feature pushed the category's decision to its side. It is the height of the "
        "feature's rectangle in the importance chart.",
    ),
    Term(
        "L_Y",
        "the same-author list",
        "The features whose difference is below θ′, sorted by importance: they point to the "
        "same author. Drawn as the green (solid) stack.",
    ),
    Term(
        "L_N",
        "the different-author list",
        "The features whose difference is at or above θ′, sorted by importance: they point to "
        "different authors. Drawn as the vermillion (hatched) stack; the higher stack is the "
        "side the category leans to.",
    ),
    Term(
        "score",
        "the method's score",
        "The median of the ensemble categories' similarities, between 0 and 1. Each similarity "
        "is 0.5 exactly at the category's threshold θ, nearer 1 for closer texts and nearer 0 "
        "for texts farther apart. Above 0.5 the method classifies the texts as by the same "
        "author, at or below 0.5 as by different authors. The score is not a probability.",
    ),
    Term(
        "LR",
        "the likelihood ratio",
        "How much more (or less) probable a score like this one is if the known author wrote "
        "the questioned text (Hp) than if someone else from the relevant population did (Hd), "
        "as measured on the model's validation cases. It weighs the findings; it is not the "
        "probability that either proposition is true.",
    ),
    Term("λG", "LambdaG's score (a second method)", LAMBDAG_METHOD),
    Term("share", "a token's share of λG", SHARE_MEANING),
    Term("lean", "a sentence's TAVeer lean", LEAN_MEANING),
)


def term(symbol: str) -> Term:
    return next(t for t in TERMS if t.symbol == symbol)


def tooltip(*symbols: str) -> str:
    """Plain-text tooltip explaining ``symbols`` (one paragraph each)."""
    return "\n\n".join(f"{t.symbol} — {t.name}: {t.meaning}" for t in map(term, symbols))


def glossary_html() -> str:
    """Every term as an HTML definition list (Help ▸ Glossary)."""
    rows = "".join(
        f"<dt><b>{html.escape(t.symbol)}</b> — {html.escape(t.name)}</dt>"
        f"<dd>{html.escape(t.meaning)}</dd>"
        for t in TERMS
    )
    return f"<h2>Glossary</h2><dl>{rows}</dl>"
