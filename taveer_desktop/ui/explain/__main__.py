"""Standalone launcher of the explanation views, for manual use and screenshots.

``python -m taveer_desktop.ui.explain MODEL.json --known K1.txt [K2.txt ...] --unknown Q.txt``
verifies the case with the model's method (``explain=True``) and opens the result view;
``--evaluate CORPUS`` also evaluates the model on a PAN corpus with truth and opens the model
view. ``--screenshot PREFIX`` saves a PNG of each window (and of the tabs and charts the
documentation shows, LambdaG's tab for a LambdaG or fused model) and exits; ``--category``
and ``--feature`` choose what is shown.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from taveer_desktop.core.calibration.verbal_scales import DEFAULT_SCALE, SCALES
from taveer_desktop.core.intake.decoding import read_text_file
from taveer_desktop.core.methods.taveer.model import load_model
from taveer_desktop.core.verification.method_verify import verify_with_method

if TYPE_CHECKING:  # Qt is imported when a window is opened, after the arguments are checked
    from PySide6.QtWidgets import QWidget


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m taveer_desktop.ui.explain", description=__doc__.splitlines()[0]
    )
    parser.add_argument("model", type=Path)
    parser.add_argument("--known", type=Path, nargs="+", default=[])
    parser.add_argument("--unknown", type=Path)
    parser.add_argument("--evaluate", type=Path, metavar="CORPUS")
    parser.add_argument("--scale", choices=sorted(SCALES), default=DEFAULT_SCALE)
    parser.add_argument("--category", help="category shown first, e.g. F4")
    parser.add_argument("--feature", help="feature highlighted in the texts")
    parser.add_argument("--stability", action="store_true", help="compute the stability")
    parser.add_argument("--screenshot", metavar="PREFIX", help="save PNGs and exit")
    parser.add_argument("--size", default="1500x950", help="window size, e.g. 1500x950")
    return parser


def _grab(widget: QWidget, path: str) -> None:
    from PySide6.QtWidgets import QApplication

    for _ in range(5):
        QApplication.processEvents()
    widget.grab().save(path)
    print(path)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if bool(args.known) != bool(args.unknown) or not (args.unknown or args.evaluate):
        print("give --known and --unknown, or --evaluate CORPUS", file=sys.stderr)
        return 2
    from PySide6.QtWidgets import QApplication

    from taveer_desktop.ui import fonts
    from taveer_desktop.ui.explain.model_view import ModelView
    from taveer_desktop.ui.explain.result_view import LAMBDAG_TAB, ResultView

    running = QApplication.instance()
    app = running if isinstance(running, QApplication) else QApplication(sys.argv[:1])
    fonts.register_fonts()
    app.setFont(fonts.ui_font())
    width, height = (int(v) for v in args.size.lower().split("x"))
    model = load_model(args.model)
    windows: list[QWidget] = []
    if args.unknown:
        known = [read_text_file(p).text for p in args.known]
        unknown = read_text_file(args.unknown).text
        # a LambdaG or fused model is verified with its method (LambdaG's tab then shows)
        result = verify_with_method(model, known, unknown, explain=True).to_dict()
        view = ResultView()
        view.setWindowTitle(f"TAVeer — {args.unknown.parent.name or args.unknown.name}")
        view.resize(width, height)
        hashes = [("questioned " + args.unknown.name, _file_hash(args.unknown))]
        hashes += [(f"known {p.name}", _file_hash(p)) for p in args.known]
        view.show_result(result, model, known, unknown, hashes, scale_id=args.scale)
        if args.category:
            view.show_category(args.category)
        if args.feature:
            view.choose_feature(args.feature)
        view.show()
        if args.stability:
            view.summary.start_stability()
            view.summary.runner.wait_for_all()
            app.processEvents()
        windows.append(view)
        if args.screenshot:
            _grab(view, f"{args.screenshot}-result.png")
            view.tabs.setCurrentIndex(1)
            _grab(view, f"{args.screenshot}-features.png")
            _grab(view.importance_chart, f"{args.screenshot}-importance.png")
            _grab(view.evidence_view, f"{args.screenshot}-evidence.png")
            _grab(view.distance_view, f"{args.screenshot}-distance.png")
            if view.tabs.isTabVisible(LAMBDAG_TAB):  # a LambdaG or fused model
                view.tabs.setCurrentIndex(LAMBDAG_TAB)
                view.summary.runner.wait_for_all()  # TAVeer's leans of the sentences
                app.processEvents()
                _grab(view, f"{args.screenshot}-lambdag.png")
    if args.evaluate:
        from taveer_desktop.core.intake.corpus import open_corpus
        from taveer_desktop.core.validation.evaluation import evaluate

        corpus = open_corpus(args.evaluate)
        evaluation = evaluate(model, corpus, workers=1)
        model_view = ModelView()
        model_view.setWindowTitle(f"TAVeer — {model.name} on {corpus.name}")
        model_view.resize(width, height)
        model_view.show_evaluation(model, evaluation, corpus.name)
        model_view.show()
        windows.append(model_view)
        if args.screenshot:
            _grab(model_view, f"{args.screenshot}-model.png")
    code = 0 if args.screenshot else app.exec()
    _close(windows)
    return code


def _close(windows: list[QWidget]) -> None:
    """Wait for workers and delete the windows before the application object goes."""
    from PySide6.QtCore import QCoreApplication, QEvent

    for window in windows:
        if hasattr(window, "shutdown"):
            window.shutdown()
        window.close()
        window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    windows.clear()


def _file_hash(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


if __name__ == "__main__":
    raise SystemExit(main())
