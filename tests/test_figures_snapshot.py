"""``scripts/figures_snapshot.py compare`` (issue 32's before-and-after harness) on hand-made
snapshot folders: equal folders give 0 differences and exit 0; a number changed beyond the
relative 1e-9 is one line naming file, JSON path, before and after, one changed within it is
none; a PDF text re-wrapped with the same words is no difference, a changed word is one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "figures_snapshot.py"

RECORD = {"exit": 0, "stdout": {"cllr": 0.899352, "trials": 60, "bands": [0.25, 1.0e-300]}}
TOTAL = (
    "{} difference(s); {} block(s) of PDF text with the same words laid out anew and 0 image(s)"
    " differing in some pixels (not counted: look at each image's box)"
)
REPORT = "Cross-validated Cllr 0.899 and AUC 0.711; no acceptance\ncriteria set.\nPage 1 of 7\n"


def snapshot(folder: Path, record: dict, report: str) -> Path:
    (folder / "cli").mkdir(parents=True)
    (folder / "pdf").mkdir()
    (folder / "cli" / "validate.json").write_text(json.dumps(record), encoding="utf-8")
    (folder / "pdf" / "validation.txt").write_text(report, encoding="utf-8")
    (folder / "about.json").write_text(json.dumps({"seconds": len(report)}), encoding="utf-8")
    return folder


def compare(before: Path, after: Path) -> tuple[int, list[str]]:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "compare", str(before), str(after)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stderr == ""
    return done.returncode, done.stdout.splitlines()


def test_equal_snapshots_have_no_difference(tmp_path):
    before = snapshot(tmp_path / "before", RECORD, REPORT)
    after = snapshot(tmp_path / "after", RECORD, REPORT.replace("acceptance\n", "acceptance "))
    code, lines = compare(before, after)
    assert code == 0
    assert lines == [TOTAL.format(0, 1)]


def test_a_number_beyond_the_tolerance_and_a_changed_word_are_each_one_line(tmp_path):
    before = snapshot(tmp_path / "before", RECORD, REPORT)
    changed = json.loads(json.dumps(RECORD))
    changed["stdout"]["cllr"] = 0.899352 * (1 + 1e-12)  # within the relative 1e-9
    changed["stdout"]["bands"][1] = 1.0e-300 * (1 + 1e-6)  # beyond it
    changed["stdout"]["trials"] = 61
    after = snapshot(tmp_path / "after", changed, REPORT.replace("AUC 0.711", "AUC 0.712"))
    (after / "cli" / "verify.json").write_text("{}", encoding="utf-8")
    code, lines = compare(before, after)
    assert code == 1
    assert lines == [
        "cli/validate.json\t$.stdout.trials\t60\t61",
        f"cli/validate.json\t$.stdout.bands[1]\t1e-300\t{1.0e-300 * (1 + 1e-6)!r}",
        "cli/verify.json\t(file)\t(missing)\tpresent",
        "pdf/validation.txt\tline 1/1\t0.711;\t0.712;",
        TOTAL.format(4, 0),
    ]
