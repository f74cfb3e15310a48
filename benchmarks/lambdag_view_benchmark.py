"""How fast the desktop shows LambdaG's evidence in a large questioned text.

A fused model is made as the tests make it (``tests/method_fixtures.method_project``: the demo
case DEMO-001, the demo population, a quick fused validation). Its questioned text is then
replaced by a long one — the bundled Federalist papers and the demo population's texts joined
until ``--chars`` characters (200,000 by default) — and the case verified with
``verify_with_method(..., explain=True)``. Measured, each the median of several runs (and the
maximum), on the GUI thread where the desktop does it:

- ``sentence_leanings`` (TAVeer's lean of every sentence: the occurrences of every ensemble
  category located in the text), done once when the tab is first shown;
- ``shaded_document``: the formatted document built in one pass;
- ``LambdaGView.show_evidence`` (the document, the sentence list, the legend) plus the first
  paint of the view at 1400 × 900;
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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chars", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    from PySide6.QtWidgets import QApplication

    from taveer_desktop.core.feature_stream import prepare_text
    from taveer_desktop.core.lexicon import default_lexicon
    from taveer_desktop.core.method_verify import verify_with_method
    from taveer_desktop.core.sentence_agreement import sentence_leanings
    from taveer_desktop.store import ProjectStore
    from taveer_desktop.ui import fonts
    from taveer_desktop.ui.explain.lambdag_view import LambdaGView, shaded_document
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

    timed: dict[str, list[float]] = {"leanings": [], "document": [], "show": [], "scroll": []}
    view = LambdaGView()
    view.resize(1400, 900)
    view.show()
    app.processEvents()
    for _ in range(args.runs):
        started = time.perf_counter()
        found = leanings()
        timed["leanings"].append(time.perf_counter() - started)
        marked = [leaning.both_point_same_way for leaning in found]
        started = time.perf_counter()
        document = shaded_document(prepared, evidence, marked, 1.0)
        timed["document"].append(time.perf_counter() - started)
        document.deleteLater()
        started = time.perf_counter()
        view.show_evidence(prepared, evidence, found)
        view.repaint()
        app.processEvents()
        timed["show"].append(time.perf_counter() - started)
        started = time.perf_counter()
        view.select_sentence(len(found))
        view.repaint()
        app.processEvents()
        timed["scroll"].append(time.perf_counter() - started)
    for name, samples in timed.items():
        print(f"{name}: {_median_max(samples)} over {args.runs} runs")
    view.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
