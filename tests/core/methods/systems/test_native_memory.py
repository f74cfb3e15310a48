"""The compiled unmasking curve is memory-safe on random arguments (issue 34, item 3).

A bug in C crashes the whole program, not one case, so the function is built here with
AddressSanitizer and UndefinedBehaviorSanitizer beside a harness (``native_fuzz_harness.c``)
that calls it with random shapes, settings in and out of range, all-zero and one-class data;
any out-of-bounds access, leak, overflow or undefined operation ends the run with a report."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from taveer_desktop.core.methods.systems import native

HARNESS = Path(__file__).with_name("native_fuzz_harness.c")
COMPILER = next((found for name in ("cc", "gcc", "clang") if (found := shutil.which(name))), None)


@pytest.mark.slow
def test_random_calls_under_the_sanitizers(tmp_path: Path) -> None:
    if COMPILER is None:
        pytest.skip("no C compiler on this machine: the program computes the curves in numpy")
    program = tmp_path / "harness"
    build = subprocess.run(
        [COMPILER, "-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
         "-fno-omit-frame-pointer", "-ffp-contract=off", "-std=c99",
         "-o", str(program), str(HARNESS), str(native.SOURCE), "-lm"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if build.returncode != 0 and "sanitize" in build.stderr:
        pytest.skip(f"this compiler has no sanitizer runtime: {build.stderr.strip()[:200]}")
    assert build.returncode == 0, build.stderr
    done = subprocess.run(
        [str(program), "3000"], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    assert done.stderr == ""  # no sanitizer report
    calls, ok, refused = (int(word) for word in done.stdout.split()[1::2])
    assert calls == 3000 and ok + refused == calls
    assert ok > 500 and refused > 500  # both paths were taken many times
