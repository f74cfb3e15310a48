"""The soak's actions with things that fight back (mixed into ``tests/ui/soak.py``'s ``Soak``).

- ``import_hostile``: a hostile evidence file (``tests/fuzz/hostile_inputs.EVIDENCE``, a FIFO, a
  device, a link loop, damaged bzip2/LZMA Word files) added to the selected case through the
  case controller, as the Add Documents dialog does. It must end in the list of refused files
  (each explanation one line, no traceback) or be added; never a failure box; nothing is
  stored for a refused file.
- ``cancel_job``: the status line's Cancel pressed on the running job (a verification or a
  validation) at a random moment. No failure box may follow.
- ``open_held_project``: the other project held by another process (a second instance), then
  opened from this window: one plain "Not opened" message naming the file, the open project
  kept.

``--scenario hostile`` (``hostile_scenario``) does each in turn: every hostile file imported
once, a verification and a validation cancelled, the held project opened.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

Wait = tuple[Callable[[], object], float, str]
HOLDER = textwrap.dedent(
    """
    import sys, time
    from taveer_desktop.store import ProjectStore
    store = ProjectStore.open(sys.argv[1], verify=False)
    print("open", flush=True)
    sys.stdin.read()
    """
)


def _damaged_docx(method: int) -> bytes:
    from tests.store.evidence_builders import document_xml, paragraph

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        archive.writestr("word/document.xml", document_xml(paragraph("Some words here. " * 200)))
    data = bytearray(buffer.getvalue())
    start = data.find(b"word/document.xml") + len("word/document.xml") + 12
    data[start : start + 4] = bytes(b ^ 0x5A for b in data[start : start + 4])
    return bytes(data)


def hostile_files(folder: Path) -> list[Path]:
    """Every hostile evidence file the soak imports, written once into ``folder``."""
    from tests.fuzz.hostile_inputs import EVIDENCE

    folder.mkdir(exist_ok=True)
    made = {name: make for name, make in EVIDENCE.items()}
    made["damaged-bzip2.docx"] = lambda: _damaged_docx(zipfile.ZIP_BZIP2)
    made["damaged-lzma.docx"] = lambda: _damaged_docx(zipfile.ZIP_LZMA)
    for name, make in made.items():
        (folder / name).write_bytes(make())
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "fifo.txt")
        os.symlink("/dev/zero", folder / "zeros.eml")
        os.symlink(folder / "loop.docx", folder / "loop.docx")
    return sorted(folder.iterdir())


class HostileActions:
    """The three actions (see the module); ``self`` is the ``Soak``."""

    def plain_dialogs(self, what: str, allowed: type) -> None:
        """Close the dialogs ``what`` opened: each must be ``allowed`` and say plain things."""
        from taveer_desktop.ui import error_dialog

        for dialog in error_dialog.open_dialogs():
            texts = [dialog.windowTitle(), getattr(dialog, "text", str)()]
            tree = getattr(dialog, "tree", None)
            for row in range(tree.topLevelItemCount() if tree is not None else 0):
                texts += [tree.topLevelItem(row).text(2), tree.topLevelItem(row).toolTip(2)]
            said = " | ".join(texts)
            if not isinstance(dialog, allowed):
                self.fail(f"{what}: unexpected dialog: {said}")
            elif any(w in said for w in ("Traceback", "internal error")):
                self.fail(f"{what}: not a plain message: {said}")
            elif any("\n" in t for t in texts[2:]):
                self.fail(f"{what}: a refusal over several lines: {said}")
            dialog.close()

    def hostile_paths(self) -> list[Path]:
        if not getattr(self, "hostile", None):
            self.hostile = hostile_files(self.work / "hostile")
        return self.hostile

    def import_hostile(self, path: Path | None = None) -> Iterator[Wait]:
        from taveer_desktop.store import KNOWN, QUESTIONED
        from taveer_desktop.ui.error_dialog import RejectionDialog

        window, case = self.window, self.window.selected_case()
        if case is None or window.session.read_only_reason:
            return
        path = path or self.random.choice(self.hostile_paths())
        store = window.session.store
        before = len(store.documents.list_for_case(case.id))
        results: list[object] = []
        window.cases.documents_added.connect(results.append)
        failed: list[object] = []
        window.runner.job_failed.connect(lambda _w, message: failed.append(message))
        window.cases.add_documents(self.random.choice([KNOWN, QUESTIONED]), [path], None)
        yield lambda: results or failed, 180, f"the import of {path.name}"
        window.cases.documents_added.disconnect(results.append)
        if failed:
            self.fail(f"importing {path.name} failed instead of being refused: {failed[0]}")
        elif results and results[0].rejected:
            self.arrived["hostile files refused"] += 1
            after = len(store.documents.list_for_case(case.id))
            if after != before + len(results[0].added):
                self.fail(f"importing {path.name}: {after - before} documents stored")
        else:
            self.arrived["hostile files added"] += 1
        self.plain_dialogs(f"importing {path.name}", RejectionDialog)

    def cancel_job(self) -> Iterator[Wait]:
        panel = self.window.status_line.job_panel
        worker = panel.worker
        if worker is None or not panel.cancel_button.isEnabled():
            return
        panel.cancel_button.click()
        self.arrived["jobs cancelled"] += 1
        yield lambda: worker not in self.window.runner.running, 120, f"{worker.title} to stop"
        self.plain_dialogs(f"cancelling {worker.title}", type(None))

    def open_held_project(self) -> Iterator[Wait]:
        from PySide6.QtWidgets import QMessageBox

        yield lambda: not self.busy() and not self.validating, 600, "quiet before opening"
        current = self.window.session.path
        other = next(p for p in self.projects if p.resolve() != current.resolve())
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(other)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            if holder.stdout.readline().strip() != "open":
                self.fail("the second instance could not hold the other project")
                return
            if self.window.projects.open_path(other):
                self.fail(f"{other.name} was opened while another process held it")
            elif str(other) not in str(self.window.projects.open_error):
                self.fail(f"the refusal does not name {other}: {self.window.projects.open_error}")
            if self.window.session.path != current:
                self.fail("the open project was not kept when the other could not be opened")
            self.plain_dialogs(f"opening the held {other.name}", QMessageBox)
            self.arrived["held projects refused"] += 1
        finally:
            holder.communicate("", timeout=30)

    def hostile_scenario(self) -> Iterator[Wait]:
        """Every hostile file once, a verification and a validation cancelled, a held project."""
        assert self.window.case_list.select_case_number("DEMO-001")
        for path in self.hostile_paths():
            self.actions["import_hostile"] += 1
            yield from self.import_hostile(path)
        for start in (self.verify, self.validate):
            yield lambda: not self.busy() and not self.validating, 600, "quiet before starting"
            self.random.random = lambda: 1.0  # start, do not wait for it to end
            yield from start()
            del self.random.random
            yield lambda: self.window.status_line.job_panel.worker is not None, 30, "the job"
            self.actions["cancel_job"] += 1
            yield from self.cancel_job()
        self.actions["open_held_project"] += 1
        yield from self.open_held_project()
