"""How fast the explanation views open and scroll with thousands of features in a category.

Case: the questioned Federalist No. 51 against all eight other bundled Federalist papers
(126,000 characters of known text), verified with the bundled formal-prose model whose
ensemble is widened to F6, F9, F10 and F11 for this measurement, so that the masked-4-gram
category holds well over 2,000 features. Measured, each the median of several runs (and the
maximum), on the GUI thread as the user would wait for it:

- opening the result view (``show_result`` plus the first paint of both tabs);
- switching to the largest category (chart, Φ table and both texts with their occurrences);
- choosing a feature (highlighting every occurrence in both texts), for the most frequent one;
- scrolling the Φ table from top to bottom one page at a time (each step: scroll, chart
  redraw, paint), and resizing the importance chart (new label layout);
- opening the model view on the Stack Exchange test corpus (if ../shared is present).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/explain_benchmark.py``.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import time
from pathlib import Path

import taveer_desktop.ui.explain  # noqa: F401  (protects None/True/False first)
from taveer_desktop import paths
from taveer_desktop.core.methods.taveer.model import load_model
from taveer_desktop.core.methods.taveer.verify import verify


def _median_max(samples: list[float]) -> str:
    return f"median {1000 * statistics.median(samples):.1f} ms, max {1000 * max(samples):.1f} ms"


def main() -> int:
    from PySide6.QtWidgets import QApplication

    from taveer_desktop.ui import fonts
    from taveer_desktop.ui.explain import ModelView, ResultView

    app = QApplication.instance() or QApplication(sys.argv[:1])
    fonts.register_fonts()
    app.setFont(fonts.ui_font())
    folder = paths.resource("demo", "federalist")
    known = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("federalist_[0-9]*.txt"))]
    unknown = (folder / "federalist_51_questioned.txt").read_text(encoding="utf-8")
    model = load_model(paths.resource("models", "demo-formal-prose.json"))
    model = dataclasses.replace(model, ensemble=("F6", "F9", "F10", "F11"))
    started = time.perf_counter()
    result = verify(model, known, unknown, explain=True).to_dict()
    print(f"verify with explain=True: {1000 * (time.perf_counter() - started):.0f} ms")
    sizes = {c: i["m"] for c, i in result["interpretation"].items()}
    print("features per category:", ", ".join(f"{c} {m}" for c, m in sizes.items()))
    largest = max(sizes, key=sizes.get)

    opened, switched, chosen = [], [], []
    view = None
    for _ in range(5):
        if view is not None:
            view.shutdown()
            view.deleteLater()
            app.processEvents()
        view = ResultView()
        view.resize(1500, 950)
        view.show()
        app.processEvents()
        t0 = time.perf_counter()
        view.show_result(result, model, known, unknown)
        view.repaint()
        view.tabs.setCurrentIndex(1)
        view.repaint()
        app.processEvents()
        opened.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        view.show_category(largest)
        view.repaint()
        app.processEvents()
        switched.append(time.perf_counter() - t0)
        rows = view.rows[largest]
        frequent = max(rows, key=lambda r: r.count_unknown + r.count_known)
        view.choose_feature(rows[-1].feature)
        t0 = time.perf_counter()
        view.choose_feature(frequent.feature)
        view.repaint()
        app.processEvents()
        chosen.append(time.perf_counter() - t0)
    print(f"open the result view (first category, both tabs painted): {_median_max(opened)}")
    print(f"switch to {largest} ({sizes[largest]} features): {_median_max(switched)}")
    print(
        f"choose “{frequent.feature}” ({frequent.count_unknown} + {frequent.count_known} "
        f"occurrences highlighted): {_median_max(chosen)}"
    )

    table = view.distance_view.table
    bar = table.verticalScrollBar()
    bar.setValue(0)
    app.processEvents()
    steps = []
    while bar.value() < bar.maximum():
        t0 = time.perf_counter()
        bar.setValue(bar.value() + bar.pageStep())
        app.processEvents()
        view.distance_view.repaint()
        steps.append(time.perf_counter() - t0)
    print(f"scroll the Φ table page by page ({len(steps)} pages): {_median_max(steps)}")
    resizes = []
    chart = view.importance_chart
    for k in range(10):
        t0 = time.perf_counter()
        chart.resize(560 + 10 * (k % 2), 420 + 20 * k)
        app.processEvents()
        chart.repaint()
        resizes.append(time.perf_counter() - t0)
    print(f"resize the importance chart (labels laid out again): {_median_max(resizes)}")
    view.shutdown()

    corpus_dir = Path(__file__).resolve().parents[1].parent / "shared/corpora/stackexchange/test"
    if corpus_dir.exists():
        from taveer_desktop.core.intake.corpus import open_corpus
        from taveer_desktop.core.validation.evaluation import evaluate

        se_model = load_model(paths.resource("models", "default.json"))
        evaluation = evaluate(se_model, open_corpus(corpus_dir), workers=1)
        samples = []
        for _ in range(3):
            model_view = ModelView()
            model_view.resize(1500, 950)
            model_view.show()
            app.processEvents()
            t0 = time.perf_counter()
            model_view.show_evaluation(se_model, evaluation, "stackexchange/test")
            model_view.repaint()
            app.processEvents()
            samples.append(time.perf_counter() - t0)
            model_view.deleteLater()
        print(f"open the model view ({len(evaluation.truth)} cases): {_median_max(samples)}")
    app.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
