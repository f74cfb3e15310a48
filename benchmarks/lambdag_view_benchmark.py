"""How fast the desktop shows LambdaG's evidence in a large questioned text.

A fused model is made as the tests make it (``tests/method_fixtures.method_project``: the demo
case DEMO-001, the demo population, a quick fused validation). Its questioned text is then
replaced by a long one — the bundled Federalist papers and the demo population's texts joined
until ``--chars`` characters (200,000 by default) — and the case verified with
``verify_with_method(..., explain=True)``. Measured, each the median of several runs (and the
maximum), on the GUI thread where the desktop does it:

- ``sentence_leanings`` (TAVeer's lean of every sentence: the occurrences of every ensemble
  category located in the text) — a job on a pool thread, once, when the tab is first shown;
- ``shaded_document``: the formatted document built in one pass, against the baseline of the
  same document formatted afterwards with a cursor per token (``setPlainText``, then
  ``setPosition`` twice and ``setCharFormat`` for each token);
- ``LambdaGView.show_evidence`` (the document and the legend) plus the paint of the view at
  1400 × 900 — what the GUI thread does when the tab is first shown;
- ``LambdaGView.show_leanings`` (the sentence list, the agreement marks) plus the paint — when
  the job reports back;
- scrolling the text to the last sentence (choosing it in the list) and painting.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/lambdag_view_benchmark.py``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import taveer_desktop.ui.explain  # noqa: E402,F401  (the views loaded before Qt runs)
from taveer_desktop import paths  # noqa: E402


def _median_max(samples: list[float]) -> str:
    return f"median {1000 * statistics.median(samples):.0f} ms, max {1000 * max(samples):.0f} ms"


def long_text(chars: int) -> str:
    """Public-domain texts shipped with the program, joined until ``chars`` characters."""
    folders = [paths.resource("demo", "federalist"), paths.resource("demo", "population")]
    pieces, total = [], 0
    for path in sorted(p for folder in folders for p in folder.rglob("*.txt")):
        text = path.read_text(encoding="utf-8")
        pieces.append(text)
        total += len(text) + 2
        if total >= chars:
            break
    return "\n\n".join(pieces)[:chars]


def cursor_per_token(prepared, evidence, unit):
    """The baseline: the plain text set, then each token formatted with a cursor."""
    from PySide6.QtGui import QTextCursor, QTextDocument
    from PySide6.QtWidgets import QPlainTextDocumentLayout

    from taveer_desktop.presentation import lambdag_shades as words
    from taveer_desktop.presentation.evidence_data import QtPositions, shown_text
    from taveer_desktop.ui.explain.lambdag_shading import level_format

    document = QTextDocument()
    document.setDocumentLayout(QPlainTextDocumentLayout(document))
    document.setUndoRedoEnabled(False)
    document.setPlainText(shown_text(prepared))
    positions = QtPositions(prepared)
    formats = {level: level_format(level) for level in range(-words.LEVELS, words.LEVELS + 1)}
    cursor = QTextCursor(document)
    cursor.beginEditBlock()
    for token in words.shaded_tokens(evidence):
        cursor.setPosition(positions(token.start))
        cursor.setPosition(positions(token.end), QTextCursor.MoveMode.KeepAnchor)
        cursor.setCharFormat(formats[words.shade_level(token.share, unit)])
    cursor.endEditBlock()
    return document


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chars", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    from PySide6.QtWidgets import QApplication

    from taveer_desktop.core.features.feature_stream import prepare_text
    from taveer_desktop.core.features.lexicon import default_lexicon
    from taveer_desktop.core.methods.taveer.sentence_agreement import sentence_leanings
    from taveer_desktop.core.verification.method_verify import verify_with_method
    from taveer_desktop.store import ProjectStore
    from taveer_desktop.ui import fonts
    from taveer_desktop.ui.explain.lambdag_shading import shaded_document
    from taveer_desktop.ui.explain.lambdag_view import LambdaGView
    from tests.method_fixtures import method_project

    app = QApplication.instance() or QApplication(sys.argv[:1])
    fonts.register_fonts()
    app.setFont(fonts.ui_font())
    project = method_project(Path(tempfile.mkdtemp(prefix="lambdag-view-")), "fusion")
    with ProjectStore.open(project) as store:
        case = store.cases.find("M-1")
        model = store.models.load(case.model_id)
        documents = store.documents.list_for_case(case.id)
        known = [store.documents.text(d.id) for d in documents[:-1]]
    unknown = long_text(args.chars)
    lexicon = default_lexicon()
    started = time.perf_counter()
    result = verify_with_method(model, known, unknown, lexicon, explain=True)
    verified = time.perf_counter() - started
    evidence = result.methods.evidence if result.methods else None
    assert evidence is not None
    prepared = prepare_text(unknown)
    tokens = sum(len(s.tokens) for s in evidence.sentences)
    print(
        f"questioned text: {len(unknown):,} characters, {len(evidence.sentences):,} sentences, "
        f"{tokens:,} tokens; verify_with_method(explain=True) {verified:.1f} s"
    )

    def leanings():
        return sentence_leanings(unknown, result.interpretation, result.ensemble, lexicon, evidence)

    timed: dict[str, list[float]] = {
        "sentence_leanings (pool thread)": [],
        "shaded_document": [],
        "baseline: a cursor per token": [],
        "show_evidence + paint": [],
        "show_leanings + paint": [],
        "choose the last sentence + paint": [],
    }
    names = list(timed)
    view = LambdaGView()
    view.resize(1400, 900)
    view.show()
    app.processEvents()
    for _ in range(args.runs):
        started = time.perf_counter()
        found = leanings()
        timed[names[0]].append(time.perf_counter() - started)
        started = time.perf_counter()
        document = shaded_document(prepared, evidence, 1.0)
        timed[names[1]].append(time.perf_counter() - started)
        document.deleteLater()
        started = time.perf_counter()
        document = cursor_per_token(prepared, evidence, 1.0)
        timed[names[2]].append(time.perf_counter() - started)
        document.deleteLater()
        for name, step in (
            (names[3], lambda: view.show_evidence(prepared, evidence)),
            (names[4], lambda found=found: view.show_leanings(found)),
            (names[5], lambda found=found: view.select_sentence(len(found))),
        ):
            started = time.perf_counter()
            step()
            view.repaint()
            app.processEvents()
            timed[name].append(time.perf_counter() - started)
    for name, samples in timed.items():
        print(f"{name}: {_median_max(samples)} over {args.runs} runs")
    ratio = statistics.median(timed[names[2]]) / statistics.median(timed[names[1]])
    print(f"the baseline takes {ratio:.1f} times as long as the one pass")
    view.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
