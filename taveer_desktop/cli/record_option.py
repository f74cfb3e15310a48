"""``--record RECORD.json`` of ``taveer verify`` and ``taveer evaluate``: the validation record an
evaluative conclusion rests on (``core/gate/validation_basis.py``). The file is read, hashed and
checked before any long work: a record whose figures do not match its own trials, or that is
not a validation record, is refused with one line naming the file (exit 2). Without it every
conclusion is investigative at most, and the command says so.
"""

from __future__ import annotations

import argparse


def add_record_option(p: argparse.ArgumentParser) -> None:
    """``--record``: the validation record an evaluative conclusion rests on."""
    p.add_argument(
        "--record",
        metavar="RECORD.json",
        help="the validation record (written by `taveer validate --record`) of this model on "
        "a population relevant to the case; without it conclusions are investigative at most",
    )


def read_basis(args):
    """The ``--record`` file as a validation basis (None without one); a record whose figures
    do not match its own trials is refused with one line naming the file."""
    if not args.record:
        return None
    from taveer_desktop.core.validation.record_basis import read_record_file

    return read_record_file(args.record)


def print_basis(basis) -> None:
    """Which validation the conclusions rested on (text output)."""
    if basis is None:
        print(
            "validation: none given (--record): no conclusion can be evaluative; likelihood "
            "ratios are for investigation only"
        )
        return
    from taveer_desktop.cli.output import shown
    from taveer_desktop.presentation.validation_basis_text import basis_line

    print(f"validation: {shown(basis_line(basis))}")
