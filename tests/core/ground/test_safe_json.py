"""The limits of ``core/ground/safe_json.py`` hold on long strings as well as deep ones."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from taveer_desktop.core.ground.errors import InputError
from taveer_desktop.core.ground.safe_json import loads_limited, nesting_depth


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ('{"a": [1, {"b": "[[[{{{"}]}', 3),
        ('["\\\\", ["\\"]]]"]]', 2),
        ('"only a string with \\" and ]"', 0),
        ('{"a": "x\\\\"}', 1),
    ],
)
def test_brackets_inside_strings_do_not_count(text, depth):
    assert nesting_depth(text) == depth


def test_too_deep_is_refused_naming_the_file():
    with pytest.raises(InputError) as caught:
        loads_limited("[" * 65 + "]" * 65, "deep.json")
    assert "nested 65 levels deep" in str(caught.value) and "deep.json" in str(caught.value)


@pytest.mark.skipif(sys.platform == "win32", reason="ru_maxrss is POSIX")
@pytest.mark.parametrize("body", ["x", "\\n", "x\\n"], ids=["plain", "escapes", "mixed"])
def test_a_long_string_is_scanned_without_memory_per_character(body):
    """Found by the soak's probes: ``taveer verify --record`` on a 200 MB record holding one
    long string was killed by the system after taking 23 GB: the string pattern kept a
    backtracking entry per character. A 10 MB string must now cost no more than a few copies
    of itself (the old pattern took 600 MB to 1.2 GB here)."""
    script = textwrap.dedent(
        f"""
        import resource
        from taveer_desktop.core.ground.safe_json import nesting_depth
        text = '{{"a": ["' + {body!r} * (10_000_000 // len({body!r})) + '"]}}'
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        assert nesting_depth(text) == 2
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    grown_kib = int(done.stdout.strip())
    assert grown_kib < 100 * 1024, f"scanning a 10 MB string took {grown_kib // 1024} MB more"


@pytest.mark.parametrize(
    "text",
    ['{"name": "a\\ud800b"}', '["\\udfff"]', '{"\\udbff": 1}', '"\\ud83d"'],
    ids=["in-a-value", "in-a-list", "in-a-key", "top-level"],
)
def test_a_lone_surrogate_is_refused_naming_the_file(text):
    """Found by the soak's model and corpus probes: a JSON escape of half a UTF-16 pair in a
    model (any string of it), a validation record or a corpus line reached hashing or the
    feature scan, and the command ended in an internal error (UnicodeEncodeError)."""
    with pytest.raises(InputError) as refused:
        loads_limited(text, "odd.json", "TAVeer model")
    message = str(refused.value)
    assert "odd.json" in message and "is not a usable TAVeer model: it holds a lone surrogate" in (
        message
    )


def test_a_whole_pair_is_one_character_and_kept():
    assert loads_limited('{"e": "\\ud83d\\ude00 \\\\ud800"}', "ok.json") == {
        "e": "\U0001f600 \\ud800"
    }
