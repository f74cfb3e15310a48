"""A run of a fused model in the desktop: the stated ratio with each method's own beside it,
LambdaG's shares shaded on the questioned text, its sentences listed with TAVeer's lean and
the sentences where both methods point the same way marked — on a real project file
(``tests/method_fixtures.method_project``), checked against the stored run."""

from __future__ import annotations

import copy
import html
from dataclasses import dataclass

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QTextCharFormat, QTextCursor

from taveer_desktop.core.calibration.method_findings import TokenKind
from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.features.feature_stream import prepare_text
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.methods.taveer.model import Model
from taveer_desktop.core.methods.taveer.sentence_agreement import sentence_leanings
from taveer_desktop.core.methods.taveer.verify import VerificationResult, verify
from taveer_desktop.core.verification.method_verify import verify_with_method
from taveer_desktop.core.verification.result_reader import read_result
from taveer_desktop.presentation import lambdag_shades as words
from taveer_desktop.presentation.conclusion_text import format_lr
from taveer_desktop.presentation.evidence_data import QtPositions, shown_text
from taveer_desktop.presentation.explanation_data import StabilityFigures
from taveer_desktop.presentation.lambdag_evidence_text import evidence_summary, share_text
from taveer_desktop.presentation.method_agreement import model_fusion_weights, result_method_lines
from taveer_desktop.store import ProjectStore
from taveer_desktop.ui import run_table_model as rtm
from taveer_desktop.ui.explain import ResultView
from taveer_desktop.ui.explain.lambdag_sentence_table_model import SentenceTableModel
from taveer_desktop.ui.explain.lambdag_shading import level_colour
from taveer_desktop.ui.explain.lambdag_view import LambdaGView
from taveer_desktop.ui.explain.result_view import LAMBDAG_TAB
from tests.method_fixtures import method_project_copy
from tests.ui.conftest import open_window

BREAK = "\u2029"  # a block break in a selection's text
NO_UNDERLINE = QTextCharFormat.UnderlineStyle.NoUnderline


@dataclass
class StoredRun:
    project: object
    result: dict
    verification: VerificationResult
    model: Model
    known: list[str]
    unknown: str


@pytest.fixture(scope="module")
def fused(tmp_path_factory, built_once) -> StoredRun:
    project = method_project_copy(built_once, tmp_path_factory.mktemp("fused-desk"), "fusion")
    with ProjectStore.open(project) as store:
        case = store.cases.find("M-1")
        (run,) = store.runs.list_for_case(case.id)
        known = [store.documents.text(i) for i in run.known_document_ids]
        return StoredRun(
            project,
            store.runs.result(run.id),
            store.runs.verification(run.id),
            store.models.load(run.model_id),
            known,
            store.documents.text(run.questioned_document_id),
        )


def _leanings(run: StoredRun):
    v = run.verification
    assert v.methods is not None and v.methods.evidence is not None
    return sentence_leanings(
        run.unknown, v.interpretation, v.ensemble, default_lexicon(), v.methods.evidence
    )


def _format_at(document, position: int, width: int = 1):
    """The character format of the character at Qt position ``position`` (``width`` UTF-16
    units wide)."""
    cursor = QTextCursor(document)
    cursor.setPosition(position + width)
    return cursor.charFormat()


def _background(fmt) -> str | None:
    return (
        None
        if fmt.background().style() == Qt.BrushStyle.NoBrush
        else fmt.background().color().name()
    )


def _show_lambdag(qtbot, view: ResultView) -> LambdaGView:
    with qtbot.waitSignal(view.leanings_shown, timeout=30_000):
        view.tabs.setCurrentIndex(LAMBDAG_TAB)
    return view.lambdag_view


# --- the window on the project ----------------------------------------------------------------


def test_the_run_shows_the_fused_ratio_each_methods_own_and_their_agreement(qtbot, fused):
    window = open_window(qtbot, fused.project)
    assert window.case_list.select_case_number("M-1")
    tab = window.verification_tab
    panel = tab.result_view
    assert panel.current is not None
    findings = fused.verification.methods
    assert findings is not None and findings.stated == "fusion"
    summary = panel.result_view.summary
    # the stored ratio is the fused one; its validation (six authors) is too small for casework,
    # so the headline says why it is no evaluative conclusion
    assert fused.verification.log10_lr == pytest.approx(findings.by_method["fusion"], abs=1e-6)
    kind = fused.verification.conclusion.kind
    assert kind is ConclusionKind.INVESTIGATIVE
    assert "too small to rely on" in summary.headline.text()  # the detail in the reasons
    assert "too small for casework" in summary.reasons_label.text()
    # each method's own ratio and the agreement sentence, exactly as the shared wording says
    assert summary.methods_label.isVisibleTo(summary)
    weights = model_fusion_weights(fused.model)
    assert weights is not None and set(weights) == {"taveer", "lambdag"}
    expected = [html.escape(line.strip()) for line in result_method_lines(findings, kind, weights)]
    # the fusion's weights beside its ratio
    assert expected[0].startswith("TAVeer + LambdaG (stated; weights TAVeer ")
    assert summary.methods_label.text() == "<br>".join(expected)
    assert any("agree" in line for line in expected)
    assert "LambdaG (Nini" in summary.methods_label.toolTip()
    assert "logistic-regression combination" in summary.methods_label.toolTip()
    # the run table names the method beside the ratio and each method's ratio on hover
    assert len(tab.run_model.records()) == 1
    column = rtm.LIKELIHOOD_RATIO
    index = tab.run_model.index(0, column)
    fused_lr = format_lr(findings.by_method["fusion"])
    assert tab.run_model.data(index) == f"{fused_lr} (investigation only; TAVeer + LambdaG)"
    tip = tab.run_model.data(index, Qt.ItemDataRole.ToolTipRole)
    # the fused model's weights are known to the table now, as to the CLI and the report
    assert "TAVeer alone (weight " in tip and "LambdaG alone (weight " in tip
    # LambdaG's tab is offered and lists what the core computes for the stored run
    result_view = panel.result_view
    assert result_view.tabs.isTabVisible(LAMBDAG_TAB)
    lambdag = _show_lambdag(qtbot, result_view)
    leanings = _leanings(fused)
    assert [(r.start, r.end, r.lambdag, r.taveer) for r in lambdag.rows] == [
        (x.start, x.end, x.lambdag, x.taveer) for x in leanings
    ]
    assert [r.direction for r in lambdag.rows] == [x.direction for x in leanings]


def test_a_taveer_result_shows_no_method_lines_and_no_lambdag_tab(qtbot, fused):
    view = ResultView()
    qtbot.addWidget(view)
    view.show_result(fused.result, fused.model, fused.known, fused.unknown)
    assert view.tabs.isTabVisible(LAMBDAG_TAB)
    view.tabs.setCurrentIndex(LAMBDAG_TAB)
    taveer = verify(fused.model, fused.known, fused.unknown, explain=True).to_dict()
    assert "methods" not in taveer
    view.show_result(taveer, fused.model, fused.known, fused.unknown)
    assert not view.tabs.isTabVisible(LAMBDAG_TAB)
    assert view.tabs.currentIndex() == 0  # back on the Decision tab
    assert not view.summary.methods_label.isVisibleTo(view.summary)
    assert view.tabs.count() == 3 and view.tabs.isTabVisible(0) and view.tabs.isTabVisible(1)


def test_disagreement_and_a_lambdag_model_are_stated(qtbot, fused):
    """The same stored result with TAVeer's own ratio turned the other way, then as if stated
    by LambdaG alone: the lines say so in the shared words."""
    view = ResultView()
    qtbot.addWidget(view)
    result = copy.deepcopy(fused.result)
    by_method = result["methods"]["log10_lr_by_method"]
    by_method["taveer"] = -abs(by_method["lambdag"])
    view.show_result(result, fused.model, fused.known, fused.unknown)
    text = view.summary.methods_label.text()
    assert "The two methods disagree: TAVeer supports Hd (another author)" in text
    typed = read_result(result)
    assert text == "<br>".join(
        html.escape(line.strip())
        for line in result_method_lines(
            typed.methods, typed.conclusion.kind, model_fusion_weights(fused.model)
        )
    )
    result["methods"]["method"] = "lambdag"
    del by_method["fusion"]
    at_bound = result["methods"].get("at_bound", [])
    result["methods"]["at_bound"] = [m for m in at_bound if m != "fusion"]
    result["log10_lr"] = by_method["lambdag"]
    view.show_result(result, fused.model, fused.known, fused.unknown)
    lines = view.summary.methods_label.text().split("<br>")
    assert lines[0].startswith("LambdaG (stated): LR ") and lines[1].startswith("TAVeer alone")
    assert "(not part of the stated ratio)" in lines[1]
    assert "the stated ratio is LambdaG&#x27;s evidence alone" in lines[2]
    assert "logistic-regression" not in view.summary.methods_label.toolTip()
    row = rtm.RunRow(
        run=None,  # lr_text reads only the conclusion and the methods
        questioned_name="q.txt",
        conclusion=read_result(result).conclusion,
        methods=read_result(result).methods,
    )
    assert rtm.lr_text(row).endswith("(investigation only; LambdaG)")


def test_a_method_at_weight_zero_is_not_counted_as_agreeing(qtbot, fused):
    """A fused model whose fusion gives TAVeer no weight ("TAVeer 0.000, LambdaG 1.181") is one
    method carrying the ratio, not two agreeing: the lines say so, with the weights beside the
    fused ratio; the stability to compute is said to be the stated ratio's."""
    from dataclasses import replace

    fusion = dict(fused.model.extra["fusion"])
    methods = list(fusion["methods"])
    fusion["weights"] = [0.0 if m == "taveer" else 1.181 for m in methods]
    model = replace(fused.model, extra={**fused.model.extra, "fusion": fusion})
    result = copy.deepcopy(fused.result)
    by_method = result["methods"]["log10_lr_by_method"]
    by_method["taveer"] = abs(by_method["taveer"])
    by_method["lambdag"] = abs(by_method["lambdag"])
    view = ResultView()
    qtbot.addWidget(view)
    view.show_result(result, model, fused.known, fused.unknown)
    lines = view.summary.methods_label.text().split("<br>")
    assert lines[0].startswith(
        "TAVeer + LambdaG (stated; weights TAVeer 0.000, LambdaG 1.181): LR "
    )
    taveer = next(line for line in lines if line.startswith("TAVeer alone"))
    assert "(no weight in the stated ratio)" in taveer
    assert "LambdaG alone (weight 1.181 in the stated ratio)" in lines[2]
    assert not any("agree," in line or "The two methods agree" in line for line in lines)
    # (the six-author validation is too small for casework: the last line says the ratios are
    # for investigation only, like the conclusion)
    assert lines[-1] == "Like the conclusion, these ratios are for investigation only."
    assert "one method&#x27;s evidence, not two methods agreeing" in lines[-2]
    assert "TAVeer 0.000" in lines[-2]
    stability = view.summary.stability_label.text()
    assert "Stability of the stated ratio (the fused ratio)" in stability
    classification = view.summary.classification_label.text()
    assert classification.startswith("TAVeer's classification")


# --- the text --------------------------------------------------------------------------------


def _check_shading(lambdag: LambdaGView, prepared: str) -> int:
    """Every token's characters carry its shade, and the characters between tokens none;
    returns how many tokens were checked."""
    document = lambdag.editor.document()
    positions = QtPositions(prepared)
    assert document.toPlainText() == shown_text(prepared).replace("\r", "\n")
    evidence = lambdag.evidence
    assert evidence is not None
    checked = 0
    previous_end = 0
    for sentence in evidence.sentences:
        for token in sentence.tokens:
            if token.kind is TokenKind.END:
                assert token.start == token.end == sentence.end
                continue
            start, end = positions(token.start), positions(token.end)
            cursor = QTextCursor(document)
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            shown = shown_text(prepared)[token.start : token.end]
            assert cursor.selectedText() == shown.replace("\r", BREAK).replace("\n", BREAK)
            colour = level_colour(words.shade_level(token.share, lambdag.unit))
            first = positions(token.start + 1) - start
            last = end - positions(token.end - 1)
            assert _background(_format_at(document, start, first)) == colour
            assert _background(_format_at(document, end - last, last)) == colour
            strongest = abs(words.shade_level(token.share, lambdag.unit)) == words.STRONGEST
            underline = _format_at(document, start, first).underlineStyle()
            assert (underline != NO_UNDERLINE) == strongest
            # a character between two tokens that is not a block break carries no shade
            if token.start > previous_end and prepared[token.start - 1] not in "\r\n":
                gap = positions(token.start - 1)
                assert _background(_format_at(document, gap, start - gap)) is None
            previous_end = token.end
            checked += 1
    return checked


def test_every_token_is_shaded_by_its_share_and_the_marks_equal_the_leanings(qtbot, fused):
    view = ResultView()
    qtbot.addWidget(view)
    view.resize(1400, 900)
    view.show()
    view.show_result(fused.result, fused.model, fused.known, fused.unknown)
    lambdag = _show_lambdag(qtbot, view)
    prepared = prepare_text(fused.unknown)
    evidence = fused.verification.methods.evidence
    assert lambdag.evidence == evidence  # the stored evidence, read back typed
    assert _check_shading(lambdag, prepared) == sum(
        1 for s in evidence.sentences for t in s.tokens if t.kind is not TokenKind.END
    )
    # the sentences where both methods point the same way are overlined, and only they
    positions = QtPositions(prepared)
    marked = [
        (m.cursor.selectionStart(), m.cursor.selectionEnd())
        for m in lambdag.editor.extraSelections()
    ]
    agreeing = [
        (positions(x.start), positions(x.end)) for x in _leanings(fused) if x.both_point_same_way
    ]
    assert marked == agreeing and agreeing
    assert all(m.format.fontOverline() for m in lambdag.editor.extraSelections())
    # the legend names each level's range, from the document's own scale
    legend = lambdag.legend.text().replace("&nbsp;", " ")
    assert all(words.level_range(level, lambdag.unit) in legend for level in range(-4, 5) if level)
    assert lambdag.unit == pytest.approx(words.shade_unit(evidence))


def test_the_sentence_list_sorts_filters_and_scrolls_the_text(qtbot, fused):
    view = ResultView()
    qtbot.addWidget(view)
    view.resize(1400, 700)
    view.show()
    view.show_result(fused.result, fused.model, fused.known, fused.unknown)
    lambdag = _show_lambdag(qtbot, view)
    leanings = _leanings(fused)
    # the summary is the one the command line and the report give
    evidence = fused.verification.methods.evidence
    assert lambdag.summary.text().startswith(html.escape(evidence_summary(evidence, leanings)))
    lambdag.table.sortByColumn(SentenceTableModel.LAMBDAG, Qt.SortOrder.DescendingOrder)
    shares = [r.lambdag for r in lambdag.model.records()]
    assert shares == sorted((x.lambdag for x in leanings), reverse=True)
    lambdag.only_agreeing.setChecked(True)
    listed = lambdag.model.records()
    assert len(listed) == sum(x.both_point_same_way for x in leanings)
    assert [r.lambdag for r in listed] == sorted((r.lambdag for r in listed), reverse=True)
    # choosing the last sentence of the text scrolls to it and selects it
    lambdag.only_agreeing.setChecked(False)
    lambdag.table.sortByColumn(SentenceTableModel.NUMBER, Qt.SortOrder.AscendingOrder)
    editor = lambdag.editor
    assert editor.verticalScrollBar().value() == 0
    last = leanings[-1]
    assert lambdag.select_sentence(len(leanings))
    positions = QtPositions(prepare_text(fused.unknown))
    cursor = editor.textCursor()
    assert (cursor.selectionStart(), cursor.selectionEnd()) == (
        positions(last.start),
        positions(last.end),
    )
    assert editor.verticalScrollBar().value() > 0
    start = QTextCursor(editor.document())
    start.setPosition(positions(last.start))
    assert editor.viewport().rect().contains(editor.cursorRect(start).topLeft())
    # hovering a token gives its share
    token = next(
        t for t in fused.verification.methods.evidence.sentences[-1].tokens if t.end > t.start
    )
    rect = editor.cursorRect(start)
    position = lambdag.position_under(rect.x() + 2, rect.center().y())
    assert position == positions(token.start)
    tip = lambdag.tip_at(position)
    assert tip is not None and f"LambdaG share {share_text(token.share)}" in tip
    assert f"Sentence {len(leanings)}:" in tip


def test_the_standalone_viewer_verifies_with_the_models_method(tmp_path, fused, qapp):
    from taveer_desktop.core.methods.taveer.model import save_model
    from taveer_desktop.ui.explain.__main__ import main

    save_model(fused.model, tmp_path / "fused.json")
    texts = []
    for name, text in [("q.txt", fused.unknown)] + [
        (f"k{i}.txt", t) for i, t in enumerate(fused.known)
    ]:
        (tmp_path / name).write_text(text, encoding="utf-8", newline="")
        texts.append(str(tmp_path / name))
    shot = tmp_path / "shot"
    argv = [str(tmp_path / "fused.json"), "--unknown", texts[0], "--known", *texts[1:]]
    font = qapp.font()  # the launcher sets the application font; later tests keep theirs
    try:
        assert main([*argv, "--screenshot", str(shot), "--size", "1200x800"]) == 0
    finally:
        qapp.setFont(font)
    image = QImage(str(tmp_path / "shot-lambdag.png"))
    assert not image.isNull() and image.width() > 200


HOSTILE = (
    "\u202eThe letter was \U0001f600 sent\u202c from the city, and the 𝔄𝔅 mark was on it.\r\n"
    "It was not, however, what we expected of him; the 👩\u200d👩\u200d👧 family knew it.\r\n"
    "\u05e9\u05dc\u05d5\u05dd and \u0645\u0631\u062d\u0628\u0627 were written at the end of "
    "the page.\r"
    "Cafe\u0301 owners said that it was the same hand, but nobody could be sure of it.\n"
)


def test_a_hostile_questioned_text_maps_to_the_right_characters(qtbot, fused):
    """RTL overrides, astral characters (emoji, mathematical letters), CRLF and a lone CR,
    Hebrew and Arabic, a decomposed accent: each token's shade lies on its own characters."""
    unknown = HOSTILE * 6 + fused.unknown[:3000].replace("\n", "\r\n")
    result = verify_with_method(fused.model, fused.known, unknown, explain=True)
    assert result.methods is not None and result.methods.evidence is not None
    prepared = prepare_text(unknown)
    assert max(prepared) > "\uffff" and "\u202e" in prepared and "\r\n" in prepared
    view = ResultView()
    qtbot.addWidget(view)
    view.show_result(result.to_dict(), fused.model, fused.known, unknown)
    lambdag = _show_lambdag(qtbot, view)
    assert _check_shading(lambdag, prepared) > 100
    # a token after astral characters: the tooltip at its Qt position names it
    positions = QtPositions(prepared)
    evidence = result.methods.evidence
    after = prepared.index("mark")
    token = next(t for s in evidence.sentences for t in s.tokens if t.start == after)
    assert positions(after) > after  # the astral characters before it are two units each
    tip = lambdag.tip_at(positions(after) + 1)
    assert tip is not None and tip.startswith("“mark”")
    found = lambdag.token_at(after)
    assert found is not None and found[1] is lambdag.rows[0]  # the first sentence
    assert (found[0].start, found[0].end) == (token.start, token.end)
    assert found[0].share == pytest.approx(token.share, abs=1e-4)  # kept to 10⁻⁴


def test_a_fused_runs_stored_stability_names_the_stated_ratio_first(qtbot, fused):
    """The check stored with a fused run resampled the fused ratio too: the Decision tab quotes
    its stability first and names it, then TAVeer's classification's; a check stored before
    the ratio was resampled says plainly it is TAVeer's alone, and offers to compute it again."""
    from dataclasses import replace

    with ProjectStore.open(fused.project) as store:
        case = store.cases.find("M-1")
        (run,) = store.runs.list_for_case(case.id)
        (check,) = store.runs.stability_checks(run.id)
    figures = StabilityFigures.from_check(check)
    assert figures.ratio is not None
    view = ResultView()
    qtbot.addWidget(view)
    view.show_result(fused.result, fused.model, fused.known, fused.unknown, stability=figures)
    text = html.unescape(view.summary.stability_label.text())
    ratio_part, taveer_part = text.split("<br>")
    assert "Stability of the stated ratio (the fused ratio):" in ratio_part
    assert "resamples give a ratio on the same side of 1 as the stated one" in ratio_part
    assert "Stability of TAVeer's classification:" in taveer_part
    assert view.summary.stability_button.isHidden()
    assert "recomputed in every resample" in view.summary.stability_label.toolTip()
    old = replace(figures, ratio=None)
    view.show_result(fused.result, fused.model, fused.known, fused.unknown, stability=old)
    assert "Stability of TAVeer's classification:" in html.unescape(
        view.summary.stability_label.text()
    )
    assert "not of the stated ratio" in view.summary.stability_label.toolTip()
    assert not view.summary.stability_button.isHidden()
