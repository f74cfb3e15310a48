"""The ``taveer`` command line: argparse front end over the engine and the project store.

Every command prints machine-readable JSON with ``--json``; bad input ends with exit status 2
and one clear line on stderr naming the file and the problem, never a traceback.
"""

from __future__ import annotations

from taveer_desktop.cli.main import main

__all__ = ["main"]
