"""The README's command-line example works on a fresh project, exactly as written (issue 23:
it failed with "no models" before the bundled model was added first)."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from taveer_desktop import paths

ROOT = Path(__file__).resolve().parents[1]
BLOCK_AFTER = "A case in a new project"


def readme_commands() -> list[list[str]]:
    """The commands of the README's case example, each split as the shell would."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text[text.index(BLOCK_AFTER) :]
    start = block.index("```bash") + len("```bash")
    block = block[start : block.index("```", start)]
    lines = [line for line in block.strip().splitlines() if line.strip()]
    assert all(line.startswith("taveer ") for line in lines)
    return [shlex.split(line) for line in lines]


def _evidence(folder: Path) -> None:
    """K1.txt, K2.eml and Q.txt as the README names them (demo texts)."""
    demo = paths.resource("demo", "federalist")
    (folder / "K1.txt").write_bytes((demo / "federalist_10.txt").read_bytes())
    (folder / "Q.txt").write_bytes((demo / "federalist_51_questioned.txt").read_bytes())
    body = (demo / "federalist_14.txt").read_text(encoding="utf-8")
    (folder / "K2.eml").write_text(
        "From: a@example.org\nTo: b@example.org\nSubject: papers\n"
        "Date: Mon, 1 Jan 2024 10:00:00 +0000\nContent-Type: text/plain; charset=utf-8\n\n" + body,
        encoding="utf-8",
    )


def test_the_readme_names_the_bundled_model_by_its_real_name():
    import json

    name = json.loads((ROOT / "resources/models/default.json").read_text("utf-8"))["name"]
    commands = readme_commands()
    adds = [i for i, c in enumerate(commands) if c[3:5] == ["model", "add"]]
    verifies = [i for i, c in enumerate(commands) if c[3:5] == ["case", "verify"]]
    assert adds and verifies and adds[0] < verifies[0]  # the model is added before it is used
    assert commands[verifies[0]][-1] == name


@pytest.mark.slow
def test_the_readme_case_example_runs_on_a_fresh_project(tmp_path):
    _evidence(tmp_path)
    outputs = []
    for command in readme_commands():
        args = [str(ROOT / a) if a.startswith("resources/") else a for a in command[1:]]
        done = subprocess.run(
            [sys.executable, "-m", "taveer_desktop.cli", *args],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=600,
        )
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        outputs.append(done.stdout)
    assert (tmp_path / "report.pdf").read_bytes().startswith(b"%PDF")
    assert "Integrity check passed" in outputs[-1] and "Receipt check passed" in outputs[-1]
    assert "was issued by this project" in outputs[-1]  # check --report knows the final report
    assert any("the report is final" in out for out in outputs)
    assert any("changed examiner, agency" in out for out in outputs)


def test_the_readme_and_the_help_name_every_method_of_the_registry():
    from taveer_desktop.core.ground.registry import REGISTRY, Origin
    from taveer_desktop.presentation.method_help import METHOD_HTML

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paper = [info for info in REGISTRY.values() if info.origin is Origin.BASELINE]
    assert len(paper) == 10  # the paper's Table 5: "the ten comparison systems", as both say
    assert "ten comparison systems" in readme and "ten systems" in METHOD_HTML
    for info in paper:  # a method added later is listed by `taveer methods` and the help
        assert info.short_name in readme, info.short_name
    for info in REGISTRY.values():
        if info.comparison:
            assert info.name in METHOD_HTML, info.name
    for words in ("check --report", "declare", "review", "--final", "Fused", "Compare"):
        assert words in METHOD_HTML, words
