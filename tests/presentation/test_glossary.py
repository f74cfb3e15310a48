"""The glossary names every symbol the result views show, in plain words."""

from taveer_desktop.presentation.glossary import TERMS, glossary_html, tooltip


def test_every_symbol_of_the_views_is_explained_once():
    symbols = [t.symbol for t in TERMS]
    assert symbols == sorted(set(symbols), key=symbols.index)  # no symbol twice
    assert {"L_Y", "L_N", "λ", "θ", "θ′", "Φ", "score", "LR"} <= set(symbols)
    assert all(len(t.meaning.split()) >= 15 for t in TERMS)  # sentences, not formulas alone


def test_tooltips_and_the_help_page():
    text = tooltip("λ", "θ′")
    assert text.startswith("λ — a feature's importance: ")
    assert "\n\nθ′ — the threshold per feature: " in text
    page = glossary_html()
    assert page.count("<dt>") == len(TERMS) and "L_N" in page and "&lt;" not in page
