"""``sign_report`` and ``verify_signed_report`` for the signing tests, imported when first
called: pyHanko (with aiohttp) is the heaviest import of the suite, and every test worker
collects every test module, so collection does not pay for it."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def sign_report(source: Path, target: Path, *args: Any, **kwargs: Any) -> Any:
    """``taveer_desktop.report.signing.sign_report``."""
    from taveer_desktop.report.signing import sign_report as sign

    return sign(source, target, *args, **kwargs)


def verify_signed_report(path: Path, *args: Any, **kwargs: Any) -> Any:
    """``taveer_desktop.report.signature_verdict.verify_signed_report``."""
    from taveer_desktop.report.signature_verdict import verify_signed_report as verify

    return verify(path, *args, **kwargs)
