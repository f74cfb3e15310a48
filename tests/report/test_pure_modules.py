"""The pure parts of the report: chart layout, escaping, excerpts; none of them imports Qt."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pytest

from taveer_desktop import paths
from taveer_desktop.core.features.features import CATEGORY_IDS, extract_features
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.report.chart_layout import importance_chart, nice_ticks, similarity_chart
from taveer_desktop.report.escape import html_text, plain_text
from taveer_desktop.report.excerpts import find_excerpts

from .conftest import hostile_text


def _features(n: int, start: float = 0.05) -> list[tuple[str, float]]:
    return [(f"feature {i}", start / (i + 1)) for i in range(n)]


@pytest.mark.parametrize("n_same, n_different", [(0, 0), (1, 0), (3, 40), (500, 7), (9, 9)])
@pytest.mark.parametrize("plot_height", [40.0, 120.0, 224.0])
def test_labels_never_overlap_and_stacks_add_up(n_same, n_different, plot_height):
    l_y, l_n = _features(n_same), _features(n_different, 0.02)
    layout = importance_chart("F4", "starters", l_y, l_n, plot_height, 9.5, top_n=8)
    gap = layout.y_max * 9.5 / plot_height
    for stack, items in ((layout.same, l_y), (layout.different, l_n)):
        assert stack.feature_count == len(items)
        assert sum(s.count for s in stack.segments) == len(items)
        assert stack.total == pytest.approx(sum(v for _, v in items))
        positions = [label.position for label in stack.labels]
        assert positions == sorted(positions)
        assert all(b - a >= gap - 1e-9 for a, b in itertools.pairwise(positions))
        assert all(gap / 2 - 1e-9 <= p <= layout.y_max - gap / 2 + 1e-9 for p in positions)
        assert len(stack.labels) <= max(1, int(plot_height // 9.5))
        for previous, segment in zip(stack.segments, stack.segments[1:], strict=False):
            assert segment.start == pytest.approx(previous.end)
        if len(items) > 8:
            assert stack.segments[-1].feature is None
            assert "more feature" in stack.segments[-1].label
    assert layout.y_max >= max(layout.same.total, layout.different.total)


def test_top_features_are_labelled_largest_first():
    l_y = [("the", 0.3), ("of", 0.2), ("and", 0.1)]
    layout = importance_chart("F6", "tokens", l_y, [], 224.0, 9.5, top_n=2)
    labels = [s.label for s in layout.same.segments]
    assert labels == ["the  0.3000", "of  0.2000", "1 more feature  0.1000"]
    assert layout.same.segments[0].style == "same" and layout.same.segments[-1].style == "same-rest"


def test_nice_ticks():
    assert nice_ticks(0.123) == (0.125, (0.0, 0.025, 0.05, 0.075, 0.1, 0.125))
    assert nice_ticks(0.0)[0] == 1.0
    top, ticks = nice_ticks(7.3)
    assert top >= 7.3 and ticks[0] == 0 and ticks[-1] == top


def _category(category: str, name: str, similarity: float | None, abstained: bool):
    from taveer_desktop.core.methods.taveer.verify import CategoryResult

    return CategoryResult(category, name, False, abstained, None, 0.5, similarity, 0, 0, 0, 0)


def test_similarity_chart_marks_abstentions_and_non_members():
    categories = [
        _category("F1", "a", 0.7, False),
        _category("F2", "b", None, True),
        _category("F3", "c", 0.2, False),
    ]
    layout = similarity_chart(categories, ["F1", "F2"], 0.7)
    assert [r.style for r in layout.rows] == ["member", "member", "non-member"]
    assert layout.rows[1].value is None and "abstains" in layout.rows[1].value_text
    assert "not in the ensemble" in layout.rows[2].value_text
    assert layout.decision == 0.5 and layout.score == 0.7


def test_escaping_shows_markup_and_invisible_characters():
    text = '<b>x</b> & "q" \u202eevil\u202c \x07 zero\u200bwidth\nline'
    escaped = html_text(text)
    assert "<" not in escaped and ">" not in escaped
    assert "&lt;b&gt;x&lt;/b&gt; &amp; &quot;q&quot;" in escaped
    assert "[U+202E]evil[U+202C]" in escaped and "[U+0007]" in escaped
    assert "[U+200B]" in escaped and "\n" not in escaped
    assert plain_text("y" * 100, max_chars=10) == "y" * 10 + " … [90 more characters not shown]"
    assert plain_text("Hebrew שלום and Arabic مرحبا") == "Hebrew שלום and Arabic مرحبا"


@pytest.mark.parametrize("source", ["demo", "hostile"])
def test_excerpts_find_every_occurrence_the_engine_counts(source):
    if source == "demo":
        text = paths.resource("demo", "federalist", "federalist_51_questioned.txt").read_text(
            encoding="utf-8"
        )
    else:
        text = hostile_text("seed")[:20_000] + "\n\nA İstanbul # tag; so, then."
    lexicon = default_lexicon()
    counts = extract_features(text, lexicon).counts
    wanted = {c: sorted(counts[c])[:40] for c in CATEGORY_IDS}
    found = find_excerpts(text, lexicon, wanted, per_feature=10**6)
    for (category, feature), excerpts in found.items():
        assert len(excerpts) == counts[category][feature], (category, feature)
        offsets = [e.offset for e in excerpts]
        assert offsets == sorted(offsets)


def test_excerpts_show_the_feature_in_context():
    text = "First of all, however, it rained. Then, however, it stopped! The end came."
    lexicon = default_lexicon()
    found = find_excerpts(text, lexicon, {"F4": [", however"], "F1": ["!"]}, per_feature=5)
    first = found[("F4", ", however")][0]
    assert first.match == ", however" and first.before.endswith("First of all")
    assert len(found[("F4", ", however")]) == 2
    assert found[("F1", "!")][0].after.startswith(" The end")


def test_pure_report_modules_do_not_import_qt():
    code = (
        "import sys\n"
        "import taveer_desktop.report.content, taveer_desktop.report.chart_layout\n"
        "import taveer_desktop.report.inputs, taveer_desktop.report.excerpts\n"
        "import taveer_desktop.report.escape, taveer_desktop.report.blocks\n"
        "assert not [m for m in sys.modules if m.startswith('PySide6')], 'Qt imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_similarity_rows_follow_category_order_whatever_the_input_order():
    from taveer_desktop.core.features.features import CATEGORY_IDS

    entries = [
        _category(c, c, 0.5, False)
        for c in sorted(CATEGORY_IDS)  # "F1", "F10", "F11", "F2", ...: as a stored result has them
    ]
    layout = similarity_chart(entries, ["F1", "F2"], 0.5)
    assert [row.category for row in layout.rows] == list(CATEGORY_IDS)
