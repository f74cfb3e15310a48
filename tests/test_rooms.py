"""core/'s rooms and floors (docs/architecture.md, "core/ in rooms"): every import between rooms
goes down a floor or stays on its floor — measured from the source, imports inside functions
included (``TYPE_CHECKING`` ones left out), as ``house.py`` counts cycles. None runs back up
(``ALLOWED_UP`` is empty: keep it so; ``python tests/test_rooms.py`` prints the room-to-room
counts and anything that runs back up)."""

from __future__ import annotations

import ast
import functools
import sys
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "taveer_desktop"
CORE = "taveer_desktop.core"
# The floors, lowest first: a room imports only rooms on its own floor or below.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("ground",),  # the registry, errors, progress, processes, safe JSON, atomic files
    ("intake", "features"),  # reading evidence and corpora; text, lexicon, features F1–F11
    ("calibration",),  # scores into likelihood ratios, ELUB, bands, quality, the outcome words
    ("gate", "trials"),  # may a ratio be stated; the population, settings, trials and folds
    (  # each method's package, the shape of what a method brings and the seams by id
        "methods/method_seam",
        "methods/method_run",
        "methods/method_registry",
        "methods/taveer",
        "methods/lambdag",
        "methods/fusion",
        "methods/systems",
    ),
    ("verification",),  # a verification with a model of any method, its findings, the reader
    ("validation", "stability"),  # validation and evaluation of any method; stated stability
)
FLOOR = {room: level for level, rooms in enumerate(FLOORS) for room in rooms}
# Imports that still run back up (importer, imported), measured when written; none may be added.
ALLOWED_UP: set[tuple[str, str]] = set()  # imports back up still tolerated: none


def room_of(module: str) -> str:
    """``taveer_desktop.core.methods.lambdag.kneser_ney`` → ``methods/lambdag``."""
    parts = module.split(".")[2:]
    return "/".join(parts[:2]) if parts[0] == "methods" else parts[0]


def core_modules() -> dict[str, Path]:
    found = {}
    for path in (PACKAGE / "core").rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _imported(module: str, node: ast.Import | ast.ImportFrom, known: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in known]
    base = node.module or ""
    if node.level:  # relative: resolved against the importing package
        package = (
            module.split(".") if known[module].name == "__init__.py" else module.split(".")[:-1]
        )
        base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
    names = [f"{base}.{a.name}" for a in node.names]
    targets = [n for n in names if n in known]  # `from package import module`
    return targets or ([base] if base in known else [])


@functools.cache
def imports_between_rooms() -> tuple[tuple[str, str], ...]:
    """Every (importer, imported) pair of core modules in different rooms, without packages'
    ``__init__`` modules (they only describe their room)."""
    known = core_modules()
    pairs = set()
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for inner in ast.walk(node)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in typing_only:
                for target in _imported(module, node, known):
                    if known[target].name == "__init__.py" or target == CORE:
                        continue
                    if room_of(module) != room_of(target):
                        pairs.add((module, target))
    return tuple(sorted(pairs))


def short(module: str) -> str:
    return module.removeprefix(CORE + ".")


def imports_up() -> set[tuple[str, str]]:
    return {
        (short(a), short(b))
        for a, b in imports_between_rooms()
        if FLOOR[room_of(b)] > FLOOR[room_of(a)]
    }


def test_every_room_of_core_has_a_floor():
    rooms = {room_of(m) for m in core_modules() if m != CORE and m != CORE + ".methods"}
    assert rooms == set(FLOOR), "a room was added or removed: give it its floor in FLOORS"


def test_no_new_import_runs_back_up_a_floor():
    new = sorted(imports_up() - ALLOWED_UP)
    assert not new, f"imports back up a floor (move the code down, or ask in review): {new}"


def test_the_ground_imports_no_other_room():
    assert not [p for p in imports_between_rooms() if room_of(p[0]) == "ground"]


def test_relative_and_package_imports_are_resolved():
    known = {"taveer_desktop.core.a.b": Path("b.py"), "taveer_desktop.core.c.d": Path("d.py")}
    known["taveer_desktop.core.c"] = Path("__init__.py")
    relative = ast.parse("from ..c import d").body[0]
    package = ast.parse("from taveer_desktop.core.c import d").body[0]
    assert isinstance(relative, ast.ImportFrom) and isinstance(package, ast.ImportFrom)
    assert _imported("taveer_desktop.core.a.b", relative, known) == ["taveer_desktop.core.c.d"]
    assert _imported("taveer_desktop.core.a.b", package, known) == ["taveer_desktop.core.c.d"]
    assert room_of("taveer_desktop.core.methods.systems.coav") == "methods/systems"


if __name__ == "__main__":  # the measure the docs quote
    between = imports_between_rooms()
    counts = Counter((room_of(a), room_of(b)) for a, b in between)
    for (a, b), n in sorted(counts.items(), key=lambda item: (FLOOR[item[0][0]], item[0])):
        way = "up" if FLOOR[b] > FLOOR[a] else "side" if FLOOR[b] == FLOOR[a] else "down"
        print(f"{a:16} -> {b:16} {n:3}  {way}")
    up = imports_up()
    print(f"{len(between)} module pairs between rooms, {len(up)} back up a floor")
    for pair in sorted(up):
        print("  up:", *pair, "" if pair in ALLOWED_UP else "(NEW)")
    for pair in sorted(ALLOWED_UP - up):
        print("  stale allowance:", *pair)
    sys.exit(1 if up - ALLOWED_UP else 0)
