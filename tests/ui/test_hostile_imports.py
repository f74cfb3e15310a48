"""Hostile files through the desktop's doors, under offscreen Qt, by the functions the UI
calls: the validation wizard's population import (a ``topics.csv`` that is a FIFO, names a
column twice or holds a bidi override) and opening a project whose path is a link leading
nowhere. Each ends in one plain message naming the file, nothing stored, the audit chain intact.
"""

from __future__ import annotations

import os
import shutil
import sys

import pytest

from taveer_desktop.paths import resource
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.ui.project_session import ProjectSession
from tests.fuzz.door_inputs import POPULATION_AUTHORS
from tests.ui.conftest import open_window

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX FIFOs and links")

SHIPPED = resource("demo", "population")


def _population(root):
    for author in POPULATION_AUTHORS:
        (root / author).mkdir(parents=True)
        for path in sorted((SHIPPED / author).glob("*.txt"))[:3]:
            shutil.copy(path, root / author / path.name)
    return root


@pytest.mark.slow  # opens a window and imports three folders: about 4-8 s
def test_the_wizard_refuses_a_hostile_topics_file_in_one_line(qtbot, tmp_path):
    project = tmp_path / "p.taveer"
    federalist = sorted(resource("demo", "federalist").glob("*.txt"))
    with ProjectStore.create(project) as store:
        case = store.cases.create("C-1", title="who?")
        store.documents.add(case.id, KNOWN, federalist[:2])
        store.documents.add(case.id, QUESTIONED, [federalist[-1]])
    window = open_window(qtbot, project)
    assert window.case_list.select_case_number("C-1")
    window.window_actions.validate.trigger()
    page = window.cases.wizard.population_page
    spoilers = {
        "fifo": (os.mkfifo, "is a named pipe (FIFO)"),
        "twice": (lambda p: p.write_text("author,topic,topic\nJay,a,b\n"), "'topic' twice"),
        "bidi": (lambda p: p.write_text("author,topic\nJay,law\u202ex\n"), "\\u202e"),
    }
    for name, (spoil, words) in spoilers.items():
        folder = _population(tmp_path / name)
        spoil(folder / "topics.csv")
        page.use_import.setChecked(True)
        page.set_folder(folder)
        page.name_edit.setText(name)
        for edit in (page.who_edit, page.genre_edit, page.period_edit, page.selection_edit):
            edit.setText("a test population")
        page.import_button.click()
        qtbot.waitUntil(lambda: page.worker is None, timeout=60_000)
        text = page.message.text()
        assert text.startswith("The population was not imported: "), text
        assert words in text and str(folder / "topics.csv") in text and "\n" not in text, text
    store = window.session.store
    assert store.populations.list_all() == []
    assert store.check_integrity().ok


def test_opening_a_project_through_a_broken_link_replaces_nothing(tmp_path):
    link = tmp_path / "case.taveer"
    os.symlink(tmp_path / "unmounted" / "case.taveer", link)
    session = ProjectSession()
    with pytest.raises(Exception, match="which does not exist") as refused:
        session.open_or_create(link)
    assert "case.taveer" in str(refused.value)
    assert link.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["case.taveer"]
