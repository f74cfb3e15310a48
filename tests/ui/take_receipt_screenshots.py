"""Screenshots of encodings and receipts for docs/gui.md (not a test): run under Xvfb.

    xvfb-run -a -s "-screen 0 1600x1000x24" \
        .venv/bin/python tests/ui/take_receipt_screenshots.py OUT

On a fresh project (the demo seeding of a first start) a case of Czech letters is added: two
known texts in UTF-8 (one with a byte-order mark), a short known note in Windows-1250 added with
its detected (uncertain) encoding, and a questioned letter in Windows-1250, which detection reads
as Windows-1252 — the encoding step is pictured after the examiner chose Windows-1250. Then the
Documents tab (the uncertain note selected), a receipt check that passes, the same receipt held
against an older copy of the project (rolled back), and the confirmation after exporting a
report of DEMO-001. Each window is grabbed at 100 % as the user sees it.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ["TAVEER_HOME"] = tempfile.mkdtemp(prefix="taveer-shots-")

from tests.ui.screenshot_session import ScreenshotSession, options  # noqa: E402 (after the path)

LETTER = """Vážený pane řediteli,

dovoluji si Vás upozornit na nesrovnalosti v účetnictví naší pobočky. Již od ledna se v knize
přijatých faktur objevují platby firmě, kterou nikdo z nás nezná. Částky jsou pokaždé těsně pod
hranicí, od které je nutný podpis vedoucího. Prosím, prověřte to dříve, než bude pozdě.

S pozdravem
zaměstnanec, který si přeje zůstat v anonymitě
"""
KNOWN_1 = """Milí kolegové,

posílám zápis z pondělní porady. Termín uzávěrky se posouvá na konec měsíce, protože účetní
oddělení ještě čeká na podklady od dodavatelů. Kdo má nevyřízené faktury, ať je prosím předá
do středy. Děkuji všem za trpělivost a ochotu pomoci, zvlášť v posledních týdnech.

Srdečně zdraví
Jana Nováková
"""
KNOWN_2 = """Dobrý den, pane řediteli,

dovoluji si Vám připomenout, že smlouva s dodavatelem kancelářských potřeb končí v červnu.
Navrhuji oslovit ještě dvě další firmy, než ji prodloužíme. Podklady přikládám a jsem
připravena je kdykoli projít osobně.

S pozdravem
Jana Nováková
"""
NOTE = "Schůzka v pátek odpadá.\n"


def main(out: Path, suffix: str = "", size: tuple[int, int] | None = None) -> None:
    from PySide6.QtWidgets import QApplication

    from taveer_desktop.app import create_application
    from taveer_desktop.store import KNOWN, QUESTIONED
    from taveer_desktop.ui import document_table_model as dtm
    from taveer_desktop.ui.project_session import CASES
    from taveer_desktop.ui.record_table_model import RECORD_ROLE
    from taveer_desktop.ui.report_export_dialog import ReportExportDialog

    app = create_application(["shots"])
    work = Path(tempfile.mkdtemp(prefix="taveer-shots-work-"))

    shots = ScreenshotSession(app, out, suffix=suffix, size=size)
    pump, wait, shoot = shots.pump, shots.wait, shots.shoot

    project = work / "examiner.taveer"
    window = shots.first_start_window(project)
    store = window.session.store

    evidence = work / "evidence"
    evidence.mkdir()
    files = {
        "zapis-porada.txt": KNOWN_1.encode("utf-8"),
        "smlouva-dodavatel.txt": b"\xef\xbb\xbf" + KNOWN_2.encode("utf-8"),
        "vzkaz.txt": NOTE.encode("cp1250"),
        "anonymni-dopis.txt": LETTER.encode("cp1250"),
    }
    for name, data in files.items():
        (evidence / name).write_bytes(data)

    case = store.cases.create(
        number="2025-031",
        title="Anonymous letter to the director",
        examiner="A. Examiner",
        agency="Regional forensic laboratory",
        description="Did the author of the known letters write the anonymous letter?",
    )
    window.session.changed(CASES)
    window.case_list.select_case_id(case.id)
    pump()

    def add(role, names, choose=None, shot=None):
        added = []
        window.documents_added.connect(added.append)
        window.cases.add_documents(role, [evidence / n for n in names])
        if any(n in ("vzkaz.txt", "anonymni-dopis.txt") for n in names):
            wait(lambda: window.cases.encoding_dialog is not None)
            dialog = window.cases.encoding_dialog
            dialog.move(window.geometry().center() - dialog.rect().center())
            if choose:
                dialog.choose(choose)
            if shot:
                shoot(dialog, shot)
            dialog.accept()
        wait(lambda: added)
        window.documents_added.disconnect(added.append)
        return added[0]

    add(KNOWN, ["zapis-porada.txt", "smlouva-dodavatel.txt"])
    add(KNOWN, ["vzkaz.txt"])  # accepted as detected: stays flagged uncertain
    (work / "receipts").mkdir()
    store.save_copy(work / "examiner-older-copy.taveer")
    result = add(QUESTIONED, ["anonymni-dopis.txt"], "cp1250", "encoding-step.png")
    assert result.added[0].encoding == "Windows-1250", result

    tab = window.documents_tab
    window.tabs.setCurrentWidget(tab)
    for row in range(tab.proxy.rowCount()):
        if tab.proxy.data(tab.proxy.index(row, 0), RECORD_ROLE).file_name == "vzkaz.txt":
            tab.view.selectRow(row)
    flagged = [
        d.file_name
        for d in tab.model.records()
        if "uncertain"
        in tab.model.data(tab.model.index(tab.model.records().index(d), dtm.ENCODING))
    ]
    assert flagged == ["vzkaz.txt"], flagged
    shoot(window, "documents-encoding.png")

    # a receipt, checked against the project as it goes on
    receipt = work / "receipts" / "examiner-receipt.json"
    window.projects.write_receipt(receipt)
    wait(lambda: window.projects.receipt_box is not None)
    shoot(window.projects.receipt_box, "receipt-written.png")
    window.projects.receipt_box.done(0)
    wait(lambda: window.projects.receipt_box is None)
    store.cases.update(case.id, title="Anonymous letter to the director (2 pages)")
    window.session.changed(CASES)
    window.projects.check_receipt(receipt)
    wait(lambda: window.projects.receipt_box is not None)
    box = window.projects.receipt_box
    assert box.property("outcome_ok") is True
    shoot(box, "receipt-check-passed.png")
    box.done(0)
    wait(lambda: window.projects.receipt_box is None)

    # the report of DEMO-001 and its confirmation
    window.case_list.select_case_number("DEMO-001")
    done = []
    window.verification_finished.connect(done.append)
    window.window_actions.verify.trigger()
    wait(lambda: done)
    dialog = ReportExportDialog(store, "DEMO-001", window, window.runner)
    dialog.export_to(work / "DEMO-001-report.pdf")
    wait(lambda: dialog.exported is not None)
    exported = dialog.exported
    dialog.close()
    box = window.cases.confirm_report(exported)
    pump()
    box.move(window.geometry().center() - box.rect().center())
    shoot(box, "report-exported-receipt.png")
    box.done(0)

    # the same receipt held against the older copy: rolled back
    window.projects.open_path(work / "examiner-older-copy.taveer")
    wait(lambda: window.projects.integrity is not None)
    window.projects.check_receipt(receipt)
    wait(lambda: window.projects.receipt_box is not None)
    box = window.projects.receipt_box
    assert box.property("outcome_ok") is False
    shoot(box, "receipt-check-failed.png")
    box.done(0)
    window.close()
    QApplication.processEvents()
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main(*options())
