"""Entry point of the ``taveer`` command: builds the parser and turns errors into exit codes.

Exit status: 0 success, 1 a command ran but reports a failed check (e.g. integrity), 2 bad input
(one line on stderr naming the file and the problem; also a full disk or running out of
memory), 70 an internal error (a bug: one line, no traceback unless TAVEER_DEBUG=1),
130 interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import functools
import logging
import os
import shutil
import sys

from taveer_desktop import PROGRAM_NAME, __version__
from taveer_desktop.cli import corpus_commands, methods_command, validate_command, verify_commands
from taveer_desktop.cli.output import end_progress_line, shown
from taveer_desktop.cli.output_files import check_output_files
from taveer_desktop.core.ground.errors import TaveerError

EXIT_BAD_INPUT = 2
EXIT_INTERNAL_ERROR = 70
ENGINE_COMMANDS = frozenset(
    {"features", "train", "evaluate", "verify", "explain", "validate", "methods"}
)


def _command_modules(engine_only: bool = False) -> list:
    """The modules whose commands the parser offers. The project-store and report commands
    are imported only when the command line may need them (an engine command such as
    ``verify`` starts without loading the store)."""
    # the engine's commands
    modules = [corpus_commands, validate_command, verify_commands, methods_command]
    if engine_only:
        return modules
    try:  # the project-store commands are optional until the store package provides them
        from taveer_desktop.cli import (
            audit_commands,
            case_commands,
            model_commands,
            population_commands,
            validation_commands,
        )

        modules += [
            case_commands,
            population_commands,
            model_commands,
            audit_commands,
            validation_commands,
        ]
    except ImportError:  # pragma: no cover - only while the store is being built
        pass
    try:  # the report command needs the store and Qt's PDF support
        from taveer_desktop.cli import report_commands

        modules.append(report_commands)
    except ImportError:  # pragma: no cover - only where PySide6 is missing
        pass
    return modules


def _is_engine_command(argv: list[str]) -> bool:
    """Whether the first word that is no option (nor the value of ``--project``) names an
    engine command."""
    words = iter(argv)
    for word in words:
        if word == "--project":
            next(words, None)
        elif not word.startswith("-"):
            return word in ENGINE_COMMANDS
    return False


@functools.cache
def _terminal_width() -> int:
    return shutil.get_terminal_size().columns - 2  # what argparse's formatter takes


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter with the terminal's width looked up once: argparse makes a
    formatter for every option it is given (some 60 for the engine's commands alone), and each
    one asked the terminal for its size (a few milliseconds of ``taveer verify``'s start)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        width = _terminal_width() if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    """An argument parser (and, through ``add_subparsers``, every sub-parser) with the
    formatter above."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)


def build_parser(engine_only: bool = False) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="taveer",
        description=f"{PROGRAM_NAME}: topic-agnostic authorship verification (TAVeer).",
    )
    parser.add_argument("--version", action="version", version=f"taveer {__version__}")
    parser.add_argument(
        "--project",
        metavar="P",
        help="project store (.taveer file) for the case, model, audit and report commands",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _command_modules(engine_only):
        module.register(subparsers)
    return parser


def _tolerant_streams() -> None:
    """Names that are not valid UTF-8 (kept by Python as surrogates) print as escapes."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a closed or odd stream
                reconfigure(errors="backslashreplace")


def _os_error_line(error: OSError) -> str:
    where = error.filename if error.filename is not None else "taveer"
    reason = error.strerror or str(error)
    if error.errno == errno.ENOSPC:
        reason = "the disk is full (no space left on the device); nothing was changed"
    return f"{where}: {reason}"


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    _tolerant_streams()
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(engine_only=_is_engine_command(words))
    args = parser.parse_args(words)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    try:
        check_output_files(args)  # every file it writes, before any work, not after an hour
        return int(handler(args) or 0)
    except TaveerError as error:
        end_progress_line()
        print(f"taveer: {shown(error)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt as error:  # its text, if any, says what was stored (read back)
        end_progress_line()
        print(f"taveer: {error or 'interrupted'}", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader of our output went away (e.g. `| head`): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:  # e.g. a full disk while writing an output file
        end_progress_line()
        print(f"taveer: {shown(_os_error_line(error))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except MemoryError:
        end_progress_line()
        print("taveer: ran out of memory; nothing was changed", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as error:  # a bug: one line, never a traceback (TAVEER_DEBUG=1 shows it)
        if os.environ.get("TAVEER_DEBUG"):
            raise
        end_progress_line()
        print(
            f"taveer: internal error ({type(error).__name__}: {shown(error)}); "
            "please report it (run with TAVEER_DEBUG=1 for details)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
