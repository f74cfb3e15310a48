"""The soak: the real main window driven at random for a while, failing on any sign of trouble.

    .venv/bin/python -m tests.ui.soak --seconds 45   # the short one (tests/ui/test_soak.py)
    .venv/bin/python -m tests.ui.soak --minutes 10 --seed 7   # the long one, scripts/soak.sh
    .venv/bin/python -m tests.ui.soak --scenario lambdag-new-run

Two project files, each the demo project of a first start (DEMO-001, DEMO-002, both models,
the demo population and DEMO-001's validation) plus case M-1 validated and verified with the
fusion (``tests/method_fixtures.add_method_case``), so its runs have LambdaG's tab. Under a
real event loop (``app.exec``), a seeded random sequence of what an examiner does: select
cases, open every case tab and every tab of the result (Decision, Features and evidence,
LambdaG in the text), choose runs, features and sentences, press Verify, validate a case (the
wizard's job, ``store/case_validation.validate_case`` on the writer pool, announced as the
wizard announces it), export reports, compute stability, switch to the other project and back
(closing the open one), and close the window — often while jobs are still running — to open
a new one. Runs, validations and reports arrive while any tab is open. And what fights back
(``tests/ui/soak_hostile.py``): hostile evidence files imported, the running job cancelled,
the other project opened while a second instance holds it.

It fails (exit 1, the reasons on stderr) on: an exception reaching ``sys.excepthook``, a Qt
warning or worse (the offscreen plugin's "propagateSizeHints" aside), a Python warning, an
error dialog, a step that hangs, a job still running after its window closed, or a
``TaskWorker`` still alive once its window is gone (a leaked job). A crash ends the process
with its signal: run it in a subprocess. The last line of stdout is a JSON summary.

``--scenario lambdag-new-run`` is the crash of issue 23 alone: the fused run of M-1 with its
LambdaG tab open, and two new runs arriving while it stays open.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import sys
import tempfile
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("TAVEER_HOME", tempfile.mkdtemp(prefix="taveer-soak-home-"))

from tests.ui.soak_hostile import HostileActions  # noqa: E402 (after the Qt platform is set)

Wait = tuple[Callable[[], object], float, str]  # condition, timeout in seconds, what it waits for
HARMLESS_QT = ("propagateSizeHints",)


class Soak(HostileActions):
    """The driver: ``steps()`` yields what to wait for; ``tick`` resumes it when that holds."""

    def __init__(self, app, work: Path, seconds: float, seed: int, scenario: str | None) -> None:
        self.app, self.work, self.seconds, self.scenario = app, work, seconds, scenario
        self.random = random.Random(seed)
        self.failures: list[str] = []
        self.actions: Counter[str] = Counter()
        self.arrived: Counter[str] = Counter()  # runs, validations, reports that completed
        self.projects = [work / "a.taveer", work / "b.taveer"]
        self.window = None
        self.validating = False
        self.longest_wait = 0.0

    # ---- failures ----------------------------------------------------------------------------

    def fail(self, reason: str) -> None:
        if len(self.failures) < 50:
            self.failures.append(reason)
            print(f"soak: FAILURE {reason}", file=sys.stderr, flush=True)

    def install_checks(self) -> None:
        from PySide6.QtCore import QtMsgType, qInstallMessageHandler

        def qt_message(kind, _context, message: str) -> None:
            if kind in (QtMsgType.QtDebugMsg, QtMsgType.QtInfoMsg):
                return
            if not any(h in message for h in HARMLESS_QT):
                self.fail(f"Qt said: {message}")

        qInstallMessageHandler(qt_message)
        sys.excepthook = lambda t, v, tb: self.fail(
            "exception: " + "".join(traceback.format_exception(t, v, tb))
        )
        warnings.simplefilter("always")
        warnings.showwarning = lambda message, category, filename, lineno, *_: self.fail(
            f"warning: {category.__name__}: {message} ({filename}:{lineno})"
        )

    def check_dialogs(self) -> None:
        from taveer_desktop.ui import error_dialog

        for dialog in error_dialog.open_dialogs():
            self.fail(f"error dialog: {dialog.windowTitle()}: {getattr(dialog, 'text', str)()}")
            dialog.close()

    # ---- the projects and the window ---------------------------------------------------------

    def make_projects(self) -> None:
        from taveer_desktop.store import ProjectStore, demo_project
        from tests.method_fixtures import add_method_case

        with ProjectStore.create(self.projects[0]) as store:
            demo_project.seed_demo_project(store)
            add_method_case(store, "fusion", "M-1")
        shutil.copyfile(self.projects[0], self.projects[1])

    def open_window(self, project: Path) -> Iterator[Wait]:
        from taveer_desktop.ui.main_window import MainWindow

        window = MainWindow(project_path=project, seed_demo=False, persist_settings=False)
        window.confirm_close_while_busy = lambda _titles: True  # closing while busy: yes
        ready: list[int] = []
        window.project_ready.connect(lambda: ready.append(1))
        window.show()
        self.window = window
        yield lambda: ready, 60, "the project to be ready"

    def close_window(self) -> Iterator[Wait]:
        """Close the window (jobs may be running), then check that no job outlived it."""
        from PySide6.QtCore import QThreadPool

        from taveer_desktop.ui.task_worker import TaskWorker

        window, self.window = self.window, None
        assert window is not None
        runners = [window.runner, window.verification_tab.result_view.result_view.summary.runner]
        window.close()
        for runner in runners:
            if runner.running:
                self.fail(f"jobs still running after the window closed: {runner.running}")
        window.deleteLater()
        del window, runners
        yield lambda: True, 1, "the window's deletion"
        yield lambda: gc.collect() is not None, 1, "a collection"
        alive = [o for o in gc.get_objects() if isinstance(o, TaskWorker)]
        if alive:
            self.fail(f"leaked jobs after the window was gone: {[w.title for w in alive]}")
        if QThreadPool.globalInstance().activeThreadCount():
            self.fail("the global thread pool is still busy")

    # ---- what an examiner does ---------------------------------------------------------------

    def result_view(self):
        return self.window.verification_tab.result_view.result_view

    def busy(self) -> bool:
        w = self.window
        return w.runner.busy or self.result_view().summary.runner.busy

    def select_case(self) -> Iterator[Wait]:
        numbers = [c.number for c in self.window.session.cases()]
        self.window.case_list.select_case_number(self.random.choice(numbers))
        yield from ()

    def case_tab(self) -> Iterator[Wait]:
        self.window.tabs.setCurrentIndex(self.random.randrange(self.window.tabs.count()))
        yield from ()

    def result_tab(self) -> Iterator[Wait]:
        self.window.tabs.setCurrentWidget(self.window.verification_tab)
        tabs = self.result_view().tabs
        shown = [i for i in range(tabs.count()) if tabs.isTabVisible(i)]
        tabs.setCurrentIndex(self.random.choice(shown))
        yield from ()

    def select_run(self) -> Iterator[Wait]:
        rows = self.window.verification_tab.run_model.records()
        if rows:
            self.window.verification_tab.select_run(self.random.choice(rows).run.id)
        yield from ()

    def choose_feature(self) -> Iterator[Wait]:
        view = self.result_view()
        rows = view.rows.get(view.category, [])
        if rows:
            view.choose_feature(self.random.choice(rows).feature)
        yield from ()

    def choose_sentence(self) -> Iterator[Wait]:
        lambdag = self.result_view().lambdag_view
        if lambdag.rows:
            lambdag.select_sentence(self.random.choice(lambdag.rows).number)
        yield from ()

    def verify(self) -> Iterator[Wait]:
        action = self.window.window_actions.verify
        if not action.isEnabled() or self.window.selected_case().model_id is None:
            return
        done: list[object] = []
        self.window.verification_finished.connect(lambda _view: done.append(1))
        action.trigger()
        self.arrived["runs asked for"] += 1
        if self.random.random() < 0.5:  # half the time the soak goes on while it runs
            yield lambda: done, 180, "a verification"

    def validate(self) -> Iterator[Wait]:
        from taveer_desktop.store.case_validation import validate_case
        from taveer_desktop.ui.project_session import AUDIT, CASES, MODELS, VALIDATIONS
        from taveer_desktop.ui.task_worker import Job
        from tests.method_fixtures import quick_settings

        window, case = self.window, self.window.selected_case()
        if self.validating or case is None or window.session.read_only_reason:
            return
        store, method = window.session.store, self.random.choice(["taveer", "fusion"])
        population = store.populations.list_all()[0].name
        name = f"Soak validation {self.actions['validate']} of {case.number} with {method}"
        settings = quick_settings(method)

        def stored(done) -> None:  # as the wizard and the case controller announce it
            self.validating = False
            self.arrived["validations"] += 1
            window.session.changed(MODELS, CASES, VALIDATIONS, AUDIT, case_id=case.id)
            window.cases.validation_stored.emit(case, done)

        def ended(*_args) -> None:
            self.validating = False

        job = Job(
            f"Validating case {case.number} on {population!r}",
            lambda p: validate_case(store, case.id, population, settings, name, progress=p),
        )
        self.validating = True
        window.runner.start(job, stored, lambda m, d: (ended(), self.fail(m)), ended)
        if self.random.random() < 0.3:
            yield lambda: not self.validating, 300, "a validation"

    def report(self) -> Iterator[Wait]:
        from taveer_desktop.ui.project_session import AUDIT
        from taveer_desktop.ui.report_export_dialog import ReportExportDialog

        window, case = self.window, self.window.selected_case()
        if case is None or not case.run_count or window.session.read_only_reason:
            return
        dialog = ReportExportDialog(window.session.store, case.number, window, window.runner)
        dialog.show()
        target = self.work / f"report-{self.actions['report']}.pdf"
        yield lambda: dialog.preview_worker is None, 120, "the report's preview"
        dialog.export_to(target)
        yield lambda: dialog.exported is not None or dialog.export_worker is None, 180, "a report"
        if dialog.exported is not None:
            self.arrived["reports"] += 1
            window.session.changed(AUDIT, case_id=case.id)
            box = window.cases.confirm_report(dialog.exported)
            box.close()
        else:
            self.fail(f"the report was not written: {dialog.status_label.text()}")
        dialog.close()
        dialog.deleteLater()
        for path in self.work.glob("report-*"):
            path.unlink()

    def stability(self) -> Iterator[Wait]:
        button = self.result_view().summary.stability_button
        if button.isVisibleTo(self.window) and button.isEnabled():
            button.click()
        yield from ()

    def switch_project(self) -> Iterator[Wait]:
        """Open the other project (the open one is closed), once background work has ended."""
        yield lambda: not self.busy() and not self.validating, 600, "quiet before switching"
        current = self.window.session.path
        other = next(p for p in self.projects if p.resolve() != current.resolve())
        ready: list[int] = []
        self.window.projects.project_ready.connect(lambda: ready.append(1))
        if self.window.projects.open_path(other):
            yield lambda: ready, 60, "the other project"
            self.arrived["projects reopened"] += 1

    def reopen_window(self) -> Iterator[Wait]:
        """Close the window, whatever runs, and open a new one on a project."""
        project = self.window.session.path
        self.validating = False
        yield from self.close_window()
        yield from self.open_window(project)
        self.arrived["windows reopened"] += 1

    ACTIONS = (
        ("select_case", 8),
        ("case_tab", 8),
        ("result_tab", 14),
        ("select_run", 6),
        ("choose_feature", 4),
        ("choose_sentence", 4),
        ("verify", 8),
        ("validate", 2),
        ("report", 2),
        ("stability", 2),
        ("switch_project", 1),
        ("reopen_window", 1),
        ("import_hostile", 3),  # tests/ui/soak_hostile.py
        ("cancel_job", 3),
        ("open_held_project", 1),
    )

    # ---- the runs ----------------------------------------------------------------------------

    def steps(self) -> Iterator[Wait]:
        yield from self.open_window(self.projects[0])
        if self.scenario == "lambdag-new-run":
            yield from self.lambdag_new_run()
        elif self.scenario == "hostile":
            yield from self.hostile_scenario()
        else:
            end = time.monotonic() + self.seconds
            names = [n for n, _ in self.ACTIONS]
            weights = [w for _, w in self.ACTIONS]
            while time.monotonic() < end and not self.failures:
                name = self.random.choices(names, weights)[0]
                self.actions[name] += 1
                yield from getattr(self, name)()
                pause = self.random.choice([0, 0, 0.05, 0.2, 1.0])
                until = time.monotonic() + pause
                yield lambda u=until: time.monotonic() >= u, pause + 5, "a pause"
                self.check_dialogs()
        yield lambda: not self.busy() and not self.validating, 600, "the last jobs"
        self.check_dialogs()
        yield from self.close_window()

    def lambdag_new_run(self) -> Iterator[Wait]:
        """New runs arriving while LambdaG's tab is open (the crash of issue 23)."""
        from taveer_desktop.ui.explain.result_view import LAMBDAG_TAB

        window = self.window
        assert window.case_list.select_case_number("M-1")
        window.tabs.setCurrentWidget(window.verification_tab)
        view = self.result_view()
        shown: list[int] = []
        view.leanings_shown.connect(lambda: shown.append(1))
        view.tabs.setCurrentIndex(LAMBDAG_TAB)
        yield lambda: shown, 60, "LambdaG's sentences"
        for _ in range(2):
            shown.clear()
            yield from self.verify_and_wait()
            yield lambda: shown and not self.busy(), 60, "LambdaG's sentences of the new run"
            if view.tabs.currentIndex() != LAMBDAG_TAB:
                self.fail("LambdaG's tab was not open when the new run arrived")
            document = view.lambdag_view.editor.document()
            marks = view.lambdag_view.editor.extraSelections()
            if not marks or any(m.cursor.document() is not document for m in marks):
                self.fail("the sentences' marks are not those of the document shown")
            self.actions["lambdag-new-run"] += 1

    def verify_and_wait(self) -> Iterator[Wait]:
        done: list[object] = []
        self.window.verification_finished.connect(lambda _view: done.append(1))
        self.window.window_actions.verify.trigger()
        yield lambda: done, 180, "a verification"
        self.arrived["runs asked for"] += 1

    def run(self) -> int:
        from PySide6.QtCore import QTimer

        self.install_checks()
        self.app.setQuitOnLastWindowClosed(False)  # the soak closes windows and opens new ones
        started = time.monotonic()
        steps = self.steps()
        state: dict = {"wait": (lambda: True, 1, "start"), "since": time.monotonic()}

        def tick() -> None:
            condition, timeout, what = state["wait"]
            waited = time.monotonic() - state["since"]
            try:
                if not condition():
                    if waited > timeout:
                        self.fail(f"hung: waited {waited:.0f} s for {what}")
                        self.app.exit(1)
                    return
                self.longest_wait = max(self.longest_wait, waited)
                state["wait"], state["since"] = next(steps), time.monotonic()
            except StopIteration:
                self.app.exit(0)
            except Exception:
                self.fail("the soak itself failed: " + traceback.format_exc())
                self.app.exit(1)

        timer = QTimer()
        timer.timeout.connect(tick)
        timer.start(10)
        self.app.exec()
        timer.stop()
        summary = {
            "passed": not self.failures,
            "seconds": round(time.monotonic() - started, 1),
            "actions": sum(self.actions.values()),
            "by_action": dict(self.actions),
            "completed": dict(self.arrived),
            "longest_wait_s": round(self.longest_wait, 1),
            "failures": len(self.failures),
        }
        print(json.dumps(summary), flush=True)
        return 0 if not self.failures else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=45.0, help="how long to act")
    parser.add_argument("--minutes", type=float, help="how long to act, in minutes")
    parser.add_argument("--seed", type=int, default=1, help="the random sequence's seed")
    parser.add_argument("--work", type=Path, help="folder for the projects (a new one if none)")
    parser.add_argument(
        "--scenario", choices=["lambdag-new-run", "hostile"], help="one fixed scenario"
    )
    args = parser.parse_args(argv)
    seconds = args.minutes * 60 if args.minutes is not None else args.seconds
    work = args.work or Path(tempfile.mkdtemp(prefix="taveer-soak-"))
    work.mkdir(parents=True, exist_ok=True)

    from taveer_desktop.app import create_application

    app = create_application(["soak"])
    soak = Soak(app, work, seconds, args.seed, args.scenario)
    soak.make_projects()
    return soak.run()


if __name__ == "__main__":
    sys.exit(main())
