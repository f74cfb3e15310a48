"""Property: whatever bytes a file holds, the CLI ends with 0 or one line and exit 2.

Hypothesis draws files of every kind the CLI reads (evidence .txt/.eml/.docx, model .json,
corpus pairs.jsonl) either as arbitrary bytes or as a valid file with bytes flipped, cut or
repeated, and runs the matching entry point in-process. Nothing may end in a traceback, the
CLI's "internal error" line, or an exit status other than 0 and 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taveer_desktop.cli.main import main
from tests.fuzz.hostile_inputs import BODY, eml, nested_mime
from tests.store.evidence_builders import document_xml, docx_bytes, model_bytes, paragraph

SEEDS = {
    ".txt": BODY.encode("utf-8") * 3,
    ".eml": eml("From: a@example.org\nSubject: =?utf-8?q?caf=C3=A9?=") + nested_mime(3),
    ".docx": docx_bytes(document_xml(paragraph(BODY) * 3)),
    ".json": model_bytes("fuzzed model"),
}


@st.composite
def spoiled(draw, seed: bytes) -> bytes:
    data = bytearray(seed)
    for _ in range(draw(st.integers(0, 8))):
        action = draw(st.sampled_from(["flip", "cut", "repeat", "insert"]))
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        if action == "flip":
            data[at] = draw(st.integers(0, 255))
        elif action == "cut":
            del data[at : at + draw(st.integers(1, 64))]
        elif action == "repeat":
            data[at:at] = data[at : at + draw(st.integers(1, 32))] * draw(st.integers(1, 50))
        else:
            data[at:at] = draw(st.binary(min_size=1, max_size=32))
    return bytes(data)


@st.composite
def hostile_file(draw) -> tuple[str, bytes]:
    suffix = draw(st.sampled_from(sorted(SEEDS)))
    data = draw(st.one_of(st.binary(max_size=2048), spoiled(SEEDS[suffix])))
    return suffix, data


def _clean(code: int, err: str) -> None:
    assert "Traceback" not in err, err
    assert "internal error" not in err, err
    assert code in (0, 2), (code, err)
    if code == 2:
        assert len([line for line in err.splitlines() if line.startswith("taveer:")]) == 1, err


@pytest.mark.slow
@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@pytest.mark.slow
@given(item=hostile_file())
def test_cli_never_prints_a_traceback(item, tmp_path_factory, capsys):
    suffix, data = item
    folder = tmp_path_factory.mktemp("fuzz")
    project = folder / "p.taveer"
    assert main(["--project", str(project), "case", "create", "C"]) == 0
    target = folder / f"input{suffix}"
    target.write_bytes(data)
    capsys.readouterr()
    if suffix == ".json":
        runs = [
            ["--project", str(project), "model", "add", str(target)],
            ["verify", str(target), "--known", str(_text(folder)), "--unknown", str(_text(folder))],
        ]
    else:
        runs = [["--project", str(project), "case", "add", "C", "--known", str(target)]]
    for args in runs:
        code = main(args)
        _clean(code, capsys.readouterr().err)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(
        st.one_of(
            st.binary(max_size=200),
            st.sampled_from(
                [
                    b'{"id": "a", "pair": ["x", "y"]}',
                    b'{"id": "a", "same": true}',
                    b"[" * 500,
                    b"9" * 5000,
                    json.dumps({"id": "b", "pair": [BODY, BODY]}).encode(),
                ]
            ),
        ),
        max_size=6,
    )
)
def test_jsonl_corpus_never_breaks_evaluate(lines, tmp_path_factory, capsys):
    corpus = tmp_path_factory.mktemp("corpus")
    (corpus / "pairs.jsonl").write_bytes(b"\n".join(lines))
    (corpus / "truth.jsonl").write_bytes(b"\n".join(reversed(lines)))
    capsys.readouterr()
    model = corpus.parent / "model.json"
    if not model.exists():
        model.write_bytes(model_bytes())
    code = main(["evaluate", str(model), str(corpus), "--workers", "1"])
    _clean(code, capsys.readouterr().err)


def _text(folder: Path) -> Path:
    path = folder / "plain.txt"
    if not path.exists():
        path.write_text(BODY * 20, encoding="utf-8")
    return path
