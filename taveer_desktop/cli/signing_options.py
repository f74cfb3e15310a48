"""``--final``, ``--sign``, ``--tsa`` and ``--trust`` of the report commands, and what they print.

``taveer report CASE … --final --sign CERT.p12 [--tsa URL] [--trust CA.pem]`` and ``taveer
validation report ID … --final --sign …`` share these options. The passphrase is never an
argument (it would sit in the shell's history and the process list): it is read from the
environment variable ``TAVEER_SIGN_PASSPHRASE`` or asked for on the terminal without echo. A
signed draft, ``--tsa``/``--trust`` without ``--sign``, and no passphrase source are refused in
one line (exit 2) before the project is opened.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from pathlib import Path
from typing import Any

from taveer_desktop.cli.output import shown
from taveer_desktop.core.ground.errors import InputError

PASSPHRASE_VARIABLE = "TAVEER_SIGN_PASSPHRASE"


def add_signing_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--final",
        action="store_true",
        help="issue the report as final (refused unless the case has a current declaration "
        "and an approved, current technical review); without it the report is a DRAFT",
    )
    parser.add_argument(
        "--sign",
        metavar="CERT.p12",
        help="sign the final report (PAdES) with this PKCS#12 certificate file; the passphrase "
        f"comes from ${PASSPHRASE_VARIABLE} or a prompt",
    )
    parser.add_argument(
        "--tsa",
        metavar="URL",
        help="RFC 3161 time-stamping authority of the lab (without it the signing time is the "
        "workstation's clock)",
    )
    parser.add_argument(
        "--trust",
        action="append",
        default=[],
        metavar="CA.pem",
        help="refuse to sign unless the certificate chains to this CA (repeatable)",
    )


def read_passphrase(certificate: str) -> str:
    """The passphrase from the environment, else from the terminal without echo."""
    given = os.environ.get(PASSPHRASE_VARIABLE)
    if given is not None:
        return given
    if not sys.stdin.isatty():
        raise InputError(
            f"needs its passphrase: set {PASSPHRASE_VARIABLE} or run the command in a terminal",
            certificate,
        )
    try:
        return getpass.getpass(f"Passphrase of {shown(certificate)}: ")
    except (EOFError, KeyboardInterrupt):
        raise InputError("was not opened: no passphrase was given", certificate) from None


def signing_request(args) -> Any:
    """The ``SigningRequest`` the options ask for, or None; refusals before any work."""
    if args.sign is None:
        if args.tsa or args.trust:
            raise InputError("--tsa and --trust are options of --sign; give a certificate file")
        return None
    if not args.final:
        raise InputError(
            "A draft cannot be signed: add --final (the case needs a current declaration and "
            "an approved, current technical review)"
        )
    from taveer_desktop.report.report_signing import SigningRequest

    return SigningRequest(
        Path(args.sign),
        read_passphrase(args.sign),
        args.tsa,
        tuple(Path(t) for t in args.trust),
    )


def signed_json(signed) -> dict[str, Any] | None:
    """The ``signature`` of a report command's ``--json`` (None when not signed)."""
    if signed is None:
        return None
    return {
        "signer": signed.signer,
        "signer_certificate_sha256": signed.signer_certificate_sha256,
        "time_source": signed.time_source,
        "signing_time_utc": signed.signing_time_utc,
        "unsigned_sha256": signed.unsigned_sha256,
    }


def print_standing(final: bool, signed) -> None:
    """One line: final or DRAFT, and the signature."""
    if not final:
        print("the report is a DRAFT (DRAFT on every page; not issued as final)")
        return
    if signed is None:
        print("the report is final (not signed)")
        return
    when = (
        "timestamped by the time-stamping authority"
        if signed.time_source == "tsa"
        else "signing time from the workstation's clock (no time-stamping authority)"
    )
    print(
        shown(
            f"the report is final and signed by {signed.signer}; {when}; the unsigned PDF "
            f"(SHA-256 {signed.unsigned_sha256}) is the signed file's first revision"
        )
    )
