"""The files a command writes, checked before its work starts: one shape for every output of
every command (``-o``, ``validate --record`` and ``--report``, ``evaluate --answers``,
``save-copy FILE``).

A command declares its outputs when it registers (``writes_files(parser, "output", "record")``);
``main`` calls ``check_output_files(args)`` before the handler, so that an output that could not
be written at the end — a folder, FIFO or device under its name, ``/dev/full``, a folder that
does not exist or takes no new file, a file the command must not replace, two outputs naming one
file — is refused in one line, exit 2, before minutes of work (``core/ground/atomic_file.
check_writable``). Each file is still written atomically at the end, and checked again there.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from taveer_desktop.core.ground.atomic_file import FileWriteError, check_writable

_DEFAULT = "output_files"
_REPLACED_BY = "output_replaced_by"


def writes_files(
    parser: argparse.ArgumentParser, *dests: str, replaced_by: dict[str, str] | None = None
) -> None:
    """Declare the options (by ``dest``) naming the files this command writes; ``replaced_by``
    maps an output that must not replace an existing file to the flag that allows it."""
    parser.set_defaults(**{_DEFAULT: dests, _REPLACED_BY: replaced_by or {}})


def _flag(dest: str) -> str:
    return "-o" if dest == "output" else f"--{dest.replace('_', '-')}"


def check_output_files(args: argparse.Namespace) -> None:
    """Refuse (``FileWriteError``) an output of ``args``'s command that could not be written."""
    seen: dict[str, str] = {}
    replaced_by: dict[str, str] = getattr(args, _REPLACED_BY, {})
    for dest in getattr(args, _DEFAULT, ()):
        value = getattr(args, dest, None)
        if not value:
            continue
        flag = replaced_by.get(dest)
        check_writable(value, None if flag is None or getattr(args, flag) else f"--{flag}")
        same = os.path.realpath(Path(value))
        if same in seen:
            raise FileWriteError(
                f"is named by both {seen[same]} and {_flag(dest)}; each output needs a file "
                "of its own",
                value,
            )
        seen[same] = _flag(dest)
