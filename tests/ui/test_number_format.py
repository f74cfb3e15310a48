"""No raw float, raw code or disagreeing count reaches a person in the desktop.

A real run: the demo project seeded as at a first start, DEMO-001 verified through the window's
own Verify action, a feature chosen; then every text the window shows is read — labels, buttons,
tab titles, combo boxes, every cell of every table, tooltips, text panes and the texts drawn in
the charts — and scanned with ``tests/number_scan.py``. The scanner itself is checked on the
mistakes the issue found ("prediction: Y; similarity: 0.5389709414624158", "1 runs").
"""

from __future__ import annotations

import pytest
from number_scan import unformatted
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QGraphicsTextItem,
    QGraphicsView,
    QLabel,
    QTabWidget,
    QTextEdit,
    QWidget,
)


def shown_texts(root: QWidget) -> list[str]:
    """Every text ``root`` and its children show a person (document texts excluded)."""
    texts = [root.windowTitle()]
    for widget in [root, *root.findChildren(QWidget)]:
        texts.append(widget.toolTip())
        if isinstance(widget, QLabel | QAbstractButton):
            texts.append(widget.text())
        elif isinstance(widget, QTabWidget):
            texts += [widget.tabText(i) for i in range(widget.count())]
        elif isinstance(widget, QComboBox):
            texts += [widget.itemText(i) for i in range(widget.count())]
        elif isinstance(widget, QTextEdit):  # (a QPlainTextEdit holds a document's own text)
            texts.append(widget.toPlainText())
        elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            for row in range(model.rowCount()):
                for column in range(model.columnCount()):
                    index = model.index(row, column)
                    for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                        value = model.data(index, role)
                        if isinstance(value, str):
                            texts.append(value)
            for column in range(model.columnCount()):
                texts.append(str(model.headerData(column, Qt.Orientation.Horizontal) or ""))
        elif isinstance(widget, QGraphicsView) and widget.scene() is not None:
            texts += [
                item.toPlainText()
                for item in widget.scene().items()
                if isinstance(item, QGraphicsTextItem)
            ]
    return [t for t in texts if t]


def test_the_scanner_finds_what_the_issue_found():
    found = unformatted(["prediction: Y; similarity: 0.5389709414624158", "1 runs", "3 file(s)"])
    assert [f.split(":")[0] for f in found] == [
        "raw float",
        "raw code",
        "count and noun disagree",
        "hedged plural",
    ]
    assert unformatted(["Likelihood ratio 0.714 (= 1/1.4)", "1 run", "1,204 sentences"]) == []
    assert unformatted(["12045 characters"]) and not unformatted(["12,045 characters"])
    assert not unformatted(["SHA-256 9f86d081884c7d659a2feaa0c55ad015", "seed 20240517"])


@pytest.mark.slow
def test_a_real_run_shows_no_raw_numbers_or_codes(qtbot, demo_window):
    window = demo_window
    window.case_list.select_case_number("DEMO-001")
    with qtbot.waitSignal(window.verification_finished, timeout=120_000):
        window.window_actions.verify.trigger()
    qtbot.wait(100)
    result = window.verification_tab.result_view.result_view
    texts = shown_texts(window)
    result.tabs.setCurrentIndex(1)  # the features: importance chart, Φ table and chart
    result.choose_feature(result.rows[result.category][0].feature)
    qtbot.wait(100)
    texts += shown_texts(window)
    for tab in (window.documents_tab, window.audit_tab):
        window.tabs.setCurrentWidget(tab)
        qtbot.wait(50)
        texts += shown_texts(window)
    joined = "\n".join(texts)
    assert "Likelihood ratio" in joined and "Σλ" in joined  # the run's texts were read
    found = sorted(set(unformatted(texts)))
    assert found == [], "\n".join(found)


@pytest.mark.slow
def test_the_model_dialogs_show_no_raw_numbers_or_codes(qtbot, demo_window, tiny_corpus):
    """The model manager, the model picker, an evaluation and its charts, read whole."""
    window = demo_window
    texts = shown_texts(window.models.open_manager())
    window.case_list.select_case_number("DEMO-001")
    texts += shown_texts(window.cases.choose_model())
    dialog = window.models.open_evaluate_dialog()
    dialog.choose_model("TAVeer formal prose (public-domain demo)")
    dialog.set_corpus_folder(tiny_corpus)
    with qtbot.waitSignal(dialog.evaluation_finished, timeout=120_000):
        dialog.start_evaluation()
    texts += shown_texts(dialog)
    charts = dialog.show_charts()
    qtbot.wait(100)
    texts += shown_texts(charts)
    joined = "\n".join(texts)
    assert "Cllr" in joined and "same-author case" in joined  # the figures were read
    found = sorted(set(unformatted(texts)))
    assert found == [], "\n".join(found)
