"""The window's collaborators work without a window: a bare parent widget, a session, a runner.

Each test builds the collaborator as the window does, but with a plain ``QWidget`` as parent and
a lambda for the selected case, and checks the past-tense signals and the ``StoreChange`` it
announces (what changed, and in which case).
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMenu, QWidget

from taveer_desktop.store import KNOWN, QUESTIONED, demo_project
from taveer_desktop.ui.case_controller import CaseController
from taveer_desktop.ui.job_runner import JobRunner
from taveer_desktop.ui.model_controller import ModelController
from taveer_desktop.ui.project_controller import ProjectController
from taveer_desktop.ui.project_session import (
    AUDIT,
    CASES,
    DOCUMENTS,
    MODELS,
    RUNS,
    ProjectSession,
    StoreChange,
)


def _bare(qtbot, tmp_path, seeded: bool = False):
    parent = QWidget()
    qtbot.addWidget(parent)
    session = ProjectSession(parent)
    runner = JobRunner(parent)
    store = session.open(tmp_path / "bare.taveer", create=True)
    if seeded:
        demo_project.seed_demo_project(store)
    changes: list[StoreChange] = []
    session.store_changed.connect(changes.append)
    return parent, session, runner, changes


def test_store_change_says_what_and_where():
    change = StoreChange(frozenset({DOCUMENTS}), case_id=3)
    assert change.touches({DOCUMENTS, RUNS}, 3)
    assert not change.touches({DOCUMENTS}, 4)  # another case
    assert not change.touches({RUNS}, 3)  # another kind
    assert StoreChange(frozenset({MODELS})).touches({MODELS}, 4)  # project-wide: every case


@pytest.mark.slow
def test_case_controller_saves_adds_and_verifies_with_a_bare_parent(qtbot, tmp_path, evidence):
    parent, session, runner, changes = _bare(qtbot, tmp_path, seeded=True)
    selected = []
    cases = CaseController(session, runner, parent, lambda: selected[-1] if selected else None)
    messages = []
    cases.status_message.connect(lambda text, _ms: messages.append(text))

    with qtbot.waitSignal(cases.case_saved) as saved:
        case = cases._store_case(None, {"number": "B-1", "title": "Bare"})
    assert saved.args[0].id == case.id
    assert changes[-1] == StoreChange(frozenset({CASES}), case.id)

    selected.append(case)
    for role, files in ((KNOWN, [evidence["known1"], evidence["known2"]]), (QUESTIONED, [])):
        files = files or [evidence["questioned"]]
        with qtbot.waitSignal(cases.documents_added, timeout=30_000) as added:
            cases.add_documents(role, files, encoding=None)
        assert len(added.args[0].added) == len(files)
        assert changes[-1] == StoreChange(frozenset({DOCUMENTS}), case.id)
    assert messages[-1] == "1 document added, 0 refused"

    model = session.models()[0]
    session.store.cases.choose_model(case.id, model.id)
    selected.append(session.case(case.id))
    busy = []
    cases.verifying_changed.connect(busy.append)
    with qtbot.waitSignal(cases.runs_stored, timeout=60_000) as stored:
        cases.verify()
        assert cases.verifying and cases.verify() is None  # one verification at a time
    assert busy == [True, False] and not cases.verifying  # ended before the runs are announced
    assert stored.args[0].id == case.id and stored.args[1]
    assert changes[-1] == StoreChange(frozenset({RUNS}), case.id)
    assert session.runs(case.id)
    assert messages[-1] == "Verification of B-1 stored"
    runner.shut_down()


@pytest.mark.slow
def test_model_controller_exports_the_chosen_model_with_a_bare_parent(qtbot, tmp_path):
    parent, session, runner, _changes = _bare(qtbot, tmp_path, seeded=True)
    name = session.models()[0].name
    models = ModelController(session, runner, parent, lambda: name)
    with qtbot.waitSignal(models.status_message) as said:
        target = models.export_model(target=tmp_path / "out.json")
    assert target.read_bytes() == session.store.models.json_bytes(session.models()[0].id)
    assert str(target) in said.args[0]
    assert models.dialogs() == []
    dialog = models.open_train_dialog()
    assert models.dialogs() == [dialog] and dialog.parent() is parent
    dialog.close()
    runner.shut_down()


@pytest.mark.slow
def test_project_controller_checks_seeds_and_reports_with_a_bare_parent(qtbot, tmp_path):
    parent = QWidget()
    qtbot.addWidget(parent)
    session, runner = ProjectSession(parent), JobRunner(parent)
    changes: list[StoreChange] = []
    session.store_changed.connect(changes.append)
    projects = ProjectController(session, runner, parent, remember_projects=False)
    with qtbot.waitSignals(
        [projects.integrity_checked, projects.demo_seeded, projects.project_ready], timeout=60_000
    ):
        assert projects.open_path(tmp_path / "p.taveer", create=True, seed_demo=True)
    assert projects.integrity is not None and projects.integrity.ok
    assert changes == [StoreChange(frozenset({MODELS, CASES}))]  # one change, not two reloads
    menu = QMenu(parent)
    projects.fill_recent_menu(menu)
    assert menu.actions()
    with qtbot.waitSignal(projects.status_message, timeout=30_000) as said:
        projects.save_copy_to(tmp_path / "copy.taveer")
    assert "copy.taveer" in said.args[0]
    assert changes[-1] == StoreChange(frozenset({AUDIT}))
    runner.shut_down()


def test_a_store_change_reloads_only_the_tabs_it_concerns(qtbot, demo_window):
    window = demo_window
    qtbot.waitUntil(lambda: window.selected_case() is not None)
    case = window.selected_case()
    reloaded = []
    for tab in (window.documents_tab, window.verification_tab, window.audit_tab):
        show = tab.show_case
        tab.show_case = lambda c, d=(), tab=tab, show=show: (reloaded.append(tab), show(c, d))
    window.session.changed(AUDIT, case_id=case.id)
    assert reloaded == [window.audit_tab]
    reloaded.clear()
    window.session.changed(DOCUMENTS, case_id=case.id + 1000)  # another case
    assert reloaded == []
    window.session.changed(DOCUMENTS, case_id=case.id)
    assert set(reloaded) == {window.documents_tab, window.verification_tab, window.audit_tab}
    reloaded.clear()
    window.session.changed(MODELS)  # project-wide
    assert set(reloaded) == {window.verification_tab, window.audit_tab}
