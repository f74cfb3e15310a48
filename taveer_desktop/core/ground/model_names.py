"""The name a newly trained model is given, and the file name it is kept under.

A model needs a name a person typed (surrounding blanks removed); its file name keeps letters,
digits, ``-``, ``_`` and ``.`` and turns everything else into ``-``, so any name gives a safe,
portable file name ending in ``.json``.
"""

from __future__ import annotations

from taveer_desktop.core.ground.errors import InputError


def checked_model_name(name: str) -> str:
    """The name without surrounding blanks; an ``InputError`` if nothing is left."""
    name = name.strip()
    if not name:
        raise InputError("a model needs a name")
    return name


def model_file_name(name: str) -> str:
    """A file name for the model called ``name`` (``model.json`` when nothing usable is left)."""
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in name).strip("-.")
    return (safe or "model") + ".json"
