"""Compile the C parts of TAVeer Desktop (today one: the unmasking curve) beside their sources.

Run by scripts/setup.sh; ``python scripts/build_native.py [--force]``. The library is rebuilt
only when its source or the flags change (a stamp beside it records their SHA-256). Without a C
compiler it says so in one line and exits 0: the program then computes the same curves in numpy
(``taveer_desktop/core/methods/systems/native``), about four times slower.

The flags keep the arithmetic the same on every machine: no -ffast-math (no reordered sums) and
-ffp-contract=off (no fused multiply-adds where the processor has them).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "taveer_desktop" / "core" / "methods" / "systems" / "native"
SOURCE = NATIVE / "unmasking_curve.c"
SUFFIX = {"win32": ".dll", "darwin": ".dylib"}.get(sys.platform, ".so")
LIBRARY = NATIVE / f"_unmasking_curve.lib{SUFFIX}"  # dotted: never taken for a Python module
STAMP = LIBRARY.with_name(LIBRARY.name + ".sha256")
FLAGS = ["-O3", "-ffp-contract=off", "-std=c99", "-Wall", "-Wextra", "-fPIC", "-shared"]


def compiler() -> list[str] | None:
    """The C compiler to use ($CC, else cc, gcc or clang on the PATH), or None."""
    if os.environ.get("CC"):
        return shlex.split(os.environ["CC"])
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return [found]
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="rebuild even if up to date")
    args = parser.parse_args(argv)
    cc = compiler()
    if cc is None:
        print(
            "build_native: no C compiler (cc, gcc or clang); unmasking runs in numpy, "
            "about four times slower",
            file=sys.stderr,
        )
        return 0
    digest = hashlib.sha256(SOURCE.read_bytes() + " ".join(FLAGS).encode()).hexdigest()
    up_to_date = LIBRARY.is_file() and STAMP.is_file()
    if up_to_date and not args.force and STAMP.read_text(encoding="ascii").strip() == digest:
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        built = Path(scratch) / LIBRARY.name
        command = [*cc, *FLAGS, "-o", str(built), str(SOURCE), "-lm"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(
                f"build_native: {shlex.join(command)} failed; unmasking runs in numpy:\n"
                f"{done.stderr.strip()}",
                file=sys.stderr,
            )
            return 0
        if done.stderr.strip():  # warnings: shown, and a reason to fix the source
            print(done.stderr.strip(), file=sys.stderr)
        os.replace(built, LIBRARY)  # whole or not at all
    STAMP.write_text(digest + "\n", encoding="ascii")
    print(f"build_native: built {LIBRARY.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
