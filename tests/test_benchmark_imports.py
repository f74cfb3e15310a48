"""Every benchmark imports the package before numpy.

The package keeps BLAS to one thread per process only where numpy is loaded after it
(``taveer_desktop/__init__.py``); a benchmark that loads numpy first measures the comparison
systems' many small solves with BLAS threads fighting over two cores (Unmasking's features of
one Stack Exchange case took 4.8 CPU-s instead of 0.09 that way, docs/accuracy.md), so its
figures would not be the program's.
"""

from __future__ import annotations

import ast
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

# Scripts whose numpy is not the package's: the reference implementation's side runs under that
# implementation's own interpreter.
NOT_THE_PACKAGES_NUMPY = {"reference_agreement.py"}


def _first_import_line(tree: ast.Module, package: str) -> int | None:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        else:
            continue
        if any(name == package or name.startswith(package + ".") for name in names):
            lines.append(node.lineno)
    return min(lines) if lines else None


def test_every_benchmark_loads_the_package_before_numpy() -> None:
    scripts = sorted(BENCHMARKS.glob("*.py"))
    assert len(scripts) > 20  # the folder was found and holds the benchmarks
    late = []
    for script in scripts:
        tree = ast.parse(script.read_text(encoding="utf-8"))
        numpy_line = _first_import_line(tree, "numpy")
        if numpy_line is None:
            continue
        package_line = _first_import_line(tree, "taveer_desktop")
        # or the script sets the thread limit itself before numpy is loaded
        sets_limit = "OPENBLAS_NUM_THREADS" in "\n".join(
            script.read_text(encoding="utf-8").splitlines()[: numpy_line - 1]
        )
        if script.name in NOT_THE_PACKAGES_NUMPY or sets_limit:
            continue
        if package_line is None or package_line > numpy_line:
            late.append(script.name)
    assert late == [], f"these benchmarks load numpy before taveer_desktop: {late}"
