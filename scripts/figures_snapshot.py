"""Every figure a user sees, written down before a refactor and compared after it (issue 32).

Not a test: a harness for refactors that must not change what the program shows. Two modes:

    .venv/bin/python scripts/figures_snapshot.py snapshot OUTDIR [--checkout DIR] [--corpus C]
                                                  [--screens]
    .venv/bin/python scripts/figures_snapshot.py compare BEFORE AFTER

``snapshot`` drives only the public ``taveer`` command of a checkout (``DIR/.venv/bin/taveer``;
DIR defaults to the checkout holding this script, so this script can snapshot an older commit
that lacks it) and reads only files on disk -- it never imports the package, so it keeps working
while modules move. It writes ``cli/<step>.json`` (the command, its exit status, its stdout --
parsed when it is JSON -- and its stderr), ``files/<name>.json`` (the model files and validation
records the commands wrote), ``pdf/<name>.txt`` (``pdftotext -layout``) with ``pdf/<name>.json``
(page count) and, with ``--screens``, ``screens/*.png`` (``figures_screens.py``). It covers
``taveer methods``; every model file shipped under resources/ and tests/ (verify and explain on
a fixed Federalist pair); every store fixture of a past schema version under tests/ (a copy of
each read through case/model/population/validation list and show, attempts, audit, check and
both PDF reports); small validations (fixed seed, ``--workers 1``) on the demo population --
TAVeer, a side-by-side comparison and the TAVeer + LambdaG fusion -- and on a shared corpus,
each verified with its record (``--stability`` with a fixed seed), the corpus's model also
evaluated on the corpus's held-out ``test`` split; and a demo project built
through ``taveer --project`` (case, evidence, population, validation, verification, declaration,
review, draft, final and archival case report, validation report, ``check --json``).

Placeholders, which make two snapshots of the same tree identical (``compare`` finds 0):
``<WORK>`` the scratch folder, ``<CHECKOUT>`` the checkout, ``<TIME>`` a date-time or clock
time, ``<DATE>`` the date of the run (UTC, today or tomorrow; dates in fixtures stay), ``<UUID>``
a UUID, ``<HASH>`` a hex digest of 12-64 digits that is not a prefix of a hash in an input file
(hashes of written files, which embed times, and of the audit chain; also the hex digits a
report's table cuts short), ``<USER>`` the ``user@host`` the audit trail names, ``<VERSION>``
the program version (``taveer --version``), ``TAVR-<TIME>-R<n>-<ID>`` a report's id,
``<DURATION> ms`` (or ``s``) a measured time in a sentence or a table (a method's cost per
trial), and ``<VOLATILE>`` for the values of the JSON keys in VOLATILE_KEYS (run times,
versions) and VOLATILE_WITHIN (a stored model's size) and for the run-time lines of the PDFs.
PDF text is read with its ligatures (fi, ff, ...) as plain letters.

``compare`` walks both snapshots: JSON numbers within a relative 1e-9 (integers, strings, true,
false and null exactly), a PDF's text word by word (the same words only wrapped or spaced
otherwise are counted apart: the glyph widths of a run's hashes move words), images pixel by
pixel (counted apart: a window shows the clock; see figures_compare.py). Each difference is one
line ``file <TAB> JSON path or line <TAB> before <TAB> after``, then a total; exit 1 if any
differ, 0 if none.
"""

from __future__ import annotations

import argparse
import getpass
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from figures_compare import compare_trees  # noqa: E402 (beside this script)

VOLATILE_KEYS = frozenset(
    {"seconds", "seconds_per_trial", "software_version", "version", "elapsed", "elapsed_s"}
)
VOLATILE_WITHIN = frozenset({("models", "byte_count")})  # a model file records its run time
RUN_TIME_LINE = re.compile(r"^(\s*(Run time|Time taken|Elapsed)\s+).*$")
TIMES = (
    re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?"),
    re.compile(r"\b\d{1,2}:\d{2}(:\d{2})?\b"),
)
REPORT_ID = re.compile(r"\bTAVR-\d{8}-\d{6}-(R\d+)-[0-9A-F]{6}\b")
UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
HEX = re.compile(r"\b[0-9a-f]{12,64}\b")
DURATION = re.compile(r"\b\d[\d.,]* (ms|s)\b")
CUT_HEX = re.compile(r"\b[0-9a-f]{1,64}(?= \u2026 \[\d+ more characters)")
PLAIN_LETTERS = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi"})
PLAIN_LETTERS.update(str.maketrans({"\ufb04": "ffl"}))
PAIR = ("federalist/federalist_10.txt", "federalist/federalist_14.txt")
QUESTIONED = "federalist/federalist_51_questioned.txt"
SMALL = ["--folds", "3", "--repeats", "1", "--max-trials", "60", "--seed", "2"]
LENGTHS = ["--questioned-chars", "1500:4000", "--known-chars", "9000"]


class Scrubber:
    """Replaces what legitimately changes from run to run by placeholders."""

    def __init__(
        self, marks: dict[str, str], version: str, stable_hashes: set[str], dates: set[str]
    ) -> None:
        self.marks = sorted(marks.items(), key=lambda p: -len(p[0]))
        self.version = version
        self.stable = stable_hashes
        self.dates = re.compile("|".join(map(re.escape, sorted(dates)))) if dates else None

    def _hex(self, match: re.Match[str]) -> str:
        digits = match.group(0)
        return digits if any(h.startswith(digits) for h in self.stable) else "<HASH>"

    def text(self, line: str) -> str:
        for literal, mark in self.marks:
            line = line.replace(literal, mark)
        line = RUN_TIME_LINE.sub(r"\1<VOLATILE>", line)
        line = DURATION.sub(r"<DURATION> \1", line)
        line = REPORT_ID.sub(r"TAVR-<TIME>-\1-<ID>", line)
        for pattern in TIMES:
            line = pattern.sub("<TIME>", line)
        line = UUID.sub("<UUID>", line)
        line = HEX.sub(self._hex, line)
        line = CUT_HEX.sub("<HASH>", line)
        if self.dates:
            line = self.dates.sub("<DATE>", line)
        if self.version:
            line = re.sub(rf"(?<![\d.]){re.escape(self.version)}(?![\d.])", "<VERSION>", line)
        return line

    def json(self, value: object, key: str = "", within: str = "") -> object:
        if key in VOLATILE_KEYS or (within, key) in VOLATILE_WITHIN:
            return "<VOLATILE>"
        if isinstance(value, dict):
            return {self.text(k): self.json(v, k, key or within) for k, v in value.items()}
        if isinstance(value, list):
            return [self.json(v, "", key or within) for v in value]
        if isinstance(value, str):
            return self.text(value)
        return value


def hashes_in(files: list[Path]) -> set[str]:
    """The hex digests written in the input files, and those of the input files themselves."""
    found: set[str] = set()
    for path in files:
        data = path.read_bytes()
        found.add(hashlib.sha256(data).hexdigest())
        if path.suffix in {".json", ".txt", ".tsv"}:
            found.update(re.findall(r"\b[0-9a-f]{64}\b", data.decode("utf-8", "replace")))
    return found


class Snapshot:
    """Runs the steps and writes what they show under OUT."""

    def __init__(self, checkout: Path, out: Path, work: Path) -> None:
        self.checkout, self.out, self.work = checkout, out, work
        self.taveer = str(checkout / ".venv" / "bin" / "taveer")
        self.env = dict(os.environ, TZ="UTC", LC_ALL="C.UTF-8", OMP_NUM_THREADS="1")
        self.env["TAVEER_HOME"] = str(work / "home")
        self.scrub = Scrubber({}, "", set(), set())
        self.names: set[str] = set()

    def write(self, relative: str, text: str) -> None:
        path = self.out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def write_json(self, relative: str, value: object) -> None:
        self.write(relative, json.dumps(value, indent=1, ensure_ascii=False, sort_keys=True))

    def cli(self, name: str, *args: object, project: Path | None = None) -> object:
        """Run ``taveer ARGS`` and record it as cli/NAME.json; return stdout (parsed JSON)."""
        assert name not in self.names, name
        self.names.add(name)
        argv = [self.taveer] + (["--project", str(project)] if project else [])
        argv += [str(a) for a in args]
        done = subprocess.run(
            argv, capture_output=True, text=True, env=self.env, cwd=self.work, check=False
        )
        try:
            stdout: object = json.loads(done.stdout)
        except ValueError:
            stdout = done.stdout.splitlines()
        record = {
            "command": ["taveer", *argv[1:]],
            "exit": done.returncode,
            "stdout": stdout,
            "stderr": done.stderr.splitlines(),
        }
        self.write_json(f"cli/{name}.json", self.scrub.json(record))
        return stdout

    def file(self, name: str, path: Path) -> None:
        """Record a JSON file a command wrote (or its absence)."""
        try:
            value: object = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            value = {"unreadable": type(error).__name__}
        self.write_json(f"files/{name}.json", self.scrub.json(value))

    def pdf(self, name: str, path: Path) -> None:
        """Record a PDF's text (pdftotext -layout) and page count."""
        if not path.exists():
            self.write_json(f"pdf/{name}.json", {"missing": True})
            return
        text = subprocess.run(
            ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
        ).stdout.translate(PLAIN_LETTERS)
        info = subprocess.run(
            ["pdfinfo", str(path)], capture_output=True, text=True, check=True
        ).stdout
        pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))  # type: ignore[union-attr]
        self.write_json(f"pdf/{name}.json", {"pages": pages})
        self.write(f"pdf/{name}.txt", "\n".join(self.scrub.text(x) for x in text.splitlines()))


def run_dates() -> set[str]:
    """Today's and tomorrow's UTC date: the dates a snapshot's own records carry."""
    today = datetime.now(UTC).date()
    return {str(today), str(today + timedelta(days=1))}


def models_in(checkout: Path) -> list[Path]:
    """Model files under resources/ and tests/: JSON files with a model's format marker."""
    found = []
    for root in ("resources", "tests"):
        for path in sorted((checkout / root).rglob("*.json")):
            try:
                head = json.loads(path.read_text(encoding="utf-8"))
            except ValueError:
                continue
            if isinstance(head, dict) and "ensemble" in head and "calibration" in head:
                found.append(path)
    return found


def take(checkout: Path, out: Path, work: Path, corpus: Path) -> None:
    """Every step of the snapshot (see the module's docstring)."""
    if work.exists():
        shutil.rmtree(work)
    inputs = work / "in"
    shutil.copytree(checkout / "resources" / "demo", inputs)
    shutil.copytree(checkout / "resources" / "models", inputs / "models")
    models = models_in(checkout)
    stores = sorted((checkout / "tests").rglob("store_v*.taveer"))
    (work / "home").mkdir()
    run = Snapshot(checkout, out, work)
    version = subprocess.run(
        [run.taveer, "--version"], capture_output=True, text=True, check=True
    ).stdout.split()[-1]
    stable = hashes_in([p for p in inputs.rglob("*") if p.is_file()] + models)
    stable |= hashes_in([p for p in (checkout / "tests").rglob("store_v*.json")])
    marks = {str(work): "<WORK>", str(checkout): "<CHECKOUT>"}
    marks[f"{getpass.getuser()}@{socket.gethostname()}"] = "<USER>"
    run.scrub = Scrubber(marks, version, stable, run_dates())
    known = [inputs / p for p in PAIR]
    questioned = inputs / QUESTIONED
    pair = ["--known", *known, "--unknown", questioned]

    run.cli("methods", "methods", "--json")
    run.cli("methods-text", "methods")
    for model in models:
        stem = model.stem
        run.cli(f"verify-{stem}", "verify", model, *pair, "--json")
        run.cli(f"verify-{stem}-text", "verify", model, *pair)
        run.cli(f"explain-{stem}-F4", "explain", model, *pair, "--category", "F4", "--json")
        if "lambdag" in json.loads(model.read_text(encoding="utf-8")):
            run.cli(f"explain-{stem}-lambdag", "explain", model, *pair, "--category", "lambdag")
    validations(run, inputs, corpus, pair)
    demo_project(run, inputs, work / "demo.taveer")
    for store in stores:
        fixture_store(run, store, work)


def validations(run: Snapshot, inputs: Path, corpus: Path, pair: list[object]) -> None:
    """Small validations on the demo population and a shared corpus, each verified."""
    population = inputs / "population"
    kinds = {
        "demo-taveer": [population, *LENGTHS],
        "demo-compare": [population, *LENGTHS, "--compare", "taveer,coav,im"],
        "demo-fused": [population, *LENGTHS, "--fuse", "taveer,lambdag", "--lambdag-samples", 5],
        "corpus-taveer": [corpus],
    }
    for name, (folder, *extra) in kinds.items():
        model, record = run.work / f"{name}.json", run.work / f"{name}.record.json"
        report = run.work / f"{name}.pdf"
        run.cli(
            f"validate-{name}", "validate", "--population", folder, "-o", model,
            "--record", record, "--report", report, *SMALL, *extra, "--workers", 1, "--json",
        )  # fmt: skip
        run.file(f"{name}.model", model)
        run.file(f"{name}.record", record)
        run.pdf(f"validation-{name}", report)
        run.cli(f"verify-{name}", "verify", model, *pair, "--record", record, "--json")
        run.cli(f"verify-{name}-text", "verify", model, *pair, "--record", record)
        run.cli(
            f"verify-{name}-stability", "verify", model, *pair, "--record", record,
            "--stability", 40, "--seed", 5, "--json",
        )  # fmt: skip
    held_out = corpus.parent / "test"
    if held_out.is_dir():  # the corpus's model on its held-out split, case by case
        model, record = run.work / "corpus-taveer.json", run.work / "corpus-taveer.record.json"
        run.cli("evaluate-corpus-taveer", "evaluate", model, held_out, "--record", record,
                "--workers", 1, "--cases", "--json")  # fmt: skip


def demo_project(run: Snapshot, inputs: Path, project: Path) -> None:
    """The demo case built, validated, verified, declared and reported through the CLI."""
    demo = json.loads((inputs / "demo_case.json").read_text(encoding="utf-8"))
    case = demo["cases"][0]
    number = case["case_number"]
    models = inputs / "models"
    p = {"project": project}
    run.cli("project-create", "case", "create", number, "--title", case["title"],
            "--examiner", "A. Examiner", "--agency", "Demo lab",
            "--description", case["description"], "--json", **p)  # fmt: skip
    run.cli("project-add-known", "case", "add", number, "--known",
            *[inputs / k for k in case["known"]], "--json", **p)  # fmt: skip
    run.cli("project-add-questioned", "case", "add", number, "--questioned",
            inputs / case["questioned"], "--json", **p)  # fmt: skip
    run.cli("project-population", "population", "add", "demo", inputs / "population",
            "--description", demo["population"]["description"], "--json", **p)  # fmt: skip
    run.cli("project-model-add", "model", "add", models / "demo-formal-prose.json", "--json", **p)
    shipped = json.loads((models / "demo-formal-prose.json").read_text(encoding="utf-8"))["name"]
    run.cli("project-verify-shipped", "case", "verify", number, "--model", shipped,
            "--stability", 40, "--json", **p)  # fmt: skip
    run.cli("project-report-shipped", "report", number, "-o", run.work / "case-shipped.pdf",
            "--evaluation", models / "demo-formal-prose.training.json", "--json", **p)  # fmt: skip
    run.pdf("case-shipped", run.work / "case-shipped.pdf")
    run.cli("project-validate", "case", "validate", number, "--population", "demo",
            *SMALL, "--name", "demo validated", "--json", **p)  # fmt: skip
    run.cli("project-verify", "case", "verify", number, "--model", "demo validated",
            "--stability", 40, "--json", **p)  # fmt: skip
    run.cli("project-verify-text", "case", "verify", number, "--stability", 0, **p)
    run.cli("project-declare", "case", "declare", number, "--examiner", "A. Examiner",
            "--role", "forensic linguist", "--json", **p)  # fmt: skip
    run.cli("project-review", "case", "review", number, "--reviewer", "B. Reviewer",
            "--outcome", "approved", "--comments", "checked", "--json", **p)  # fmt: skip
    for kind, flags in (("draft", []), ("final", ["--final"]), ("archival", ["--archival"])):
        pdf = run.work / f"case-{kind}.pdf"
        run.cli(f"project-report-{kind}", "report", number, "-o", pdf, *flags, "--json", **p)
        run.pdf(f"case-{kind}", pdf)
        run.file(f"case-{kind}.receipt", pdf.with_name(pdf.name + ".receipt.json"))
    project_listing(run, "project", number, project)


def project_listing(run: Snapshot, name: str, number: str, project: Path) -> None:
    """What the project shows: lists, the case, its attempts and audit, the reports, check."""
    p = {"project": project}
    for what in ("case", "model", "population", "validation"):
        run.cli(f"{name}-{what}-list", what, "list", "--json", **p)
    run.cli(f"{name}-case-show", "case", "show", number, "--json", **p)
    run.cli(f"{name}-case-show-text", "case", "show", number, **p)
    run.cli(f"{name}-attempts", "case", "attempts", number, "--json", **p)
    run.cli(f"{name}-audit", "audit", number, "--json", **p)
    listed = run.cli(f"{name}-validation-ids", "validation", "list", "--json", **p)
    records = listed.get("validations", []) if isinstance(listed, dict) else []
    for index, record in enumerate(records):
        ident = record.get("id")
        pdf = run.work / f"{name}-validation-{index}.pdf"
        run.cli(f"{name}-validation-report-{index}", "validation", "report", ident, "-o", pdf,
                "--json", **p)  # fmt: skip
        run.pdf(f"{name}-validation-{index}", pdf)
    pdf = run.work / f"{name}-case.pdf"
    run.cli(f"{name}-report", "report", number, "-o", pdf, "--json", **p)
    run.pdf(f"{name}-case", pdf)
    run.cli(f"{name}-check", "check", "--json", **p)


def fixture_store(run: Snapshot, store: Path, work: Path) -> None:
    """A copy of a store of a past schema version, read (and migrated) through the CLI."""
    copy = work / "fixtures" / store.name
    copy.parent.mkdir(exist_ok=True)
    shutil.copy2(store, copy)
    about = json.loads(store.with_suffix(".json").read_text(encoding="utf-8"))
    project_listing(run, store.stem, about["case_number"], copy)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    modes = parser.add_subparsers(dest="mode", required=True)
    snap = modes.add_parser("snapshot", help="write what the program shows into OUTDIR")
    snap.add_argument("outdir", type=Path)
    snap.add_argument("--checkout", type=Path, default=HERE.parent)
    snap.add_argument("--corpus", type=Path, default=Path("/work/shared/corpora/reuters-c50/train"))
    snap.add_argument("--work", type=Path, default=Path(f"/tmp/taveer-snapshot-{os.getuid()}"))
    snap.add_argument("--screens", action="store_true", help="also the screenshots (slow)")
    cmp = modes.add_parser("compare", help="compare two snapshots; exit 1 if they differ")
    cmp.add_argument("before", type=Path)
    cmp.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.mode == "compare":
        differences, rewrapped, images = compare_trees(args.before, args.after, print)
        print(
            f"{differences} difference(s); {rewrapped} block(s) of PDF text with the same words"
            f" laid out anew and {images} image(s) differing in some pixels (not counted:"
            " look at each image's box)"
        )
        return 1 if differences else 0
    started = time.monotonic()
    checkout, out = args.checkout.resolve(), args.outdir.resolve()
    if out.exists() and any(out.iterdir()) and not (out / "cli").is_dir():
        print(f"figures_snapshot: {out} is not empty and not a snapshot", file=sys.stderr)
        return 2
    if out.exists():
        shutil.rmtree(out)  # an earlier snapshot, replaced
    take(checkout, out, args.work.resolve(), args.corpus.resolve())
    if args.screens:
        from figures_screens import take_screens

        take_screens(checkout, out / "screens")
    seconds = time.monotonic() - started
    about = {"checkout": str(checkout), "seconds": round(seconds, 1)}
    (out / "about.json").write_text(json.dumps(about, indent=1), encoding="utf-8")
    print(f"snapshot of {checkout} in {out} ({seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
