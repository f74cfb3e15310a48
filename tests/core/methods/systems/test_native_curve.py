"""The compiled unmasking curve computes what numpy computes (issue 34, item 3).

``native`` (C, built by scripts/build_native.py from scripts/setup.sh) and the numpy
``degradation_curves(..., compiled=False)`` are two implementations of one computation: the
curves are compared point for point — on random count data of several shapes and settings and
on Generalised Unmasking's own draws of public-domain texts at the paper's settings — and the
ways the C function can be called wrongly or be missing are checked."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from taveer_desktop.core.methods.systems import linear_svm, native
from taveer_desktop.core.methods.systems.comparison import CaseTexts
from taveer_desktop.core.methods.systems.genunmasking import GeneralisedUnmasking
from taveer_desktop.core.methods.systems.unmasking import degradation_curves
from tests.core.methods.systems.unmasking_trials import DEMO_POPULATION, read

ROOT = Path(__file__).resolve().parents[4]
HAS_COMPILER = any(shutil.which(name) for name in ("cc", "gcc", "clang"))
needs_library = pytest.mark.skipif(
    native.engine() != "compiled",
    reason="the compiled curve was not built here (no C compiler when set up)",
)


def _counts(seed: int, sets: int, samples: int, features: int, rate: float) -> np.ndarray:
    return np.random.default_rng(seed).poisson(rate, size=(sets, samples, features)).astype(float)


def _labels_and_folds(sets: int, per_class: int, k: int, seed: int) -> tuple[np.ndarray, ...]:
    y = np.broadcast_to(np.r_[np.ones(per_class), -np.ones(per_class)], (sets, 2 * per_class))
    rng = np.random.default_rng(seed)
    folds = np.stack([linear_svm.stratified_folds(y[0], k, rng) for _ in range(sets)])
    return np.ascontiguousarray(y), folds


def test_setup_built_the_library_where_a_compiler_is() -> None:
    if not HAS_COMPILER:
        pytest.skip("no C compiler on this machine: setup leaves the numpy path")
    assert native.LIBRARY.is_file(), "scripts/setup.sh should have run scripts/build_native.py"
    assert native.engine() == "compiled"


@needs_library
@pytest.mark.parametrize(
    ("samples", "features", "k", "per_side", "rounds", "rate"),
    [
        (12, 40, 4, 2, 6, 1.5),  # few samples, many active
        (30, 80, 5, 3, 8, 0.8),  # sparse counts
        (60, 251, 10, 5, 24, 3.0),  # Generalised Unmasking's shapes
        (20, 19, 10, 1, 5, 2.0),  # N = d + 1: the last shape the representer takes
    ],
)
def test_compiled_curves_are_numpys(
    samples: int, features: int, k: int, per_side: int, rounds: int, rate: float
) -> None:
    x = _counts(samples + features, 6, samples, features, rate)
    y, folds = _labels_and_folds(6, samples // 2, k, seed=features)
    compiled = degradation_curves(x, y, folds, k, per_side, rounds)
    in_numpy = degradation_curves(x, y, folds, k, per_side, rounds, compiled=False)
    assert compiled.shape == (6, rounds)
    np.testing.assert_array_equal(compiled, in_numpy)
    assert len(np.unique(compiled)) > 3  # curves that move, not a constant


@needs_library
def test_generalised_unmaskings_draws_give_numpys_curves() -> None:
    """The paper's settings on two Federalist papers: ten runs of 60 chunks × 250 words."""
    method = GeneralisedUnmasking()
    p = method.params
    hamilton = DEMO_POPULATION / "Hamilton"
    case = CaseTexts((read(hamilton / "federalist_07.txt"),), read(hamilton / "federalist_08.txt"))
    drawn = method._drawn(case, np.random.default_rng(3))
    args = (drawn.x, drawn.y, drawn.folds, p["folds"], p["eliminated_per_side"], p["iterations"])
    compiled = degradation_curves(*args)
    np.testing.assert_array_equal(compiled, degradation_curves(*args, compiled=False))
    np.testing.assert_array_equal(compiled, degradation_curves(*args))  # the same every time
    assert compiled.shape == (p["runs"], p["iterations"])


@needs_library
def test_the_compiled_function_refuses_arguments_out_of_range() -> None:
    x = _counts(1, 1, 12, 30, 1.0)
    y, folds = _labels_and_folds(1, 6, 4, seed=1)
    with pytest.raises(ValueError, match="out of range"):
        native.curves(x, y, folds + 4, 4, 1, 3, 1.0)  # folds beyond k
    with pytest.raises(ValueError, match="out of range"):
        native.curves(x, y, folds, 4, 10, 3, 1.0)  # rounds would remove every feature
    with pytest.raises(ValueError, match="labels"):
        native.curves(x, y * 2, folds, 4, 1, 3, 1.0)
    with pytest.raises(ValueError, match="y and folds"):
        native.curves(x, y[:, :5], folds, 4, 1, 3, 1.0)


def test_without_the_library_numpy_computes(monkeypatch: pytest.MonkeyPatch) -> None:
    x = _counts(2, 2, 12, 30, 1.2)
    y, folds = _labels_and_folds(2, 6, 4, seed=2)
    monkeypatch.setattr(native, "_function", lambda: None)
    assert native.engine() == "numpy"
    assert native.curves(x, y, folds, 4, 1, 3, 1.0) is None
    found = degradation_curves(x, y, folds, 4, 1, 3)
    np.testing.assert_array_equal(found, degradation_curves(x, y, folds, 4, 1, 3, compiled=False))


def test_non_count_data_stay_in_numpy() -> None:
    """Fractions, or more samples than features: no exact Gram sums, so not the C function."""
    assert not linear_svm.gram_is_exact(_counts(3, 1, 12, 30, 1.0) + 0.25)
    assert not linear_svm.gram_is_exact(_counts(3, 1, 40, 10, 1.0))
    assert linear_svm.gram_is_exact(_counts(3, 1, 12, 30, 1.0))


def _build_module():  # type: ignore[no-untyped-def]
    path = ROOT / "scripts" / "build_native.py"
    spec = importlib.util.spec_from_file_location("build_native", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_native"] = module
    spec.loader.exec_module(module)
    return module


def test_build_without_a_working_compiler_says_so_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    build = _build_module()
    monkeypatch.setattr(build, "LIBRARY", tmp_path / native.LIBRARY.name)
    monkeypatch.setattr(build, "STAMP", tmp_path / "stamp")
    monkeypatch.setenv("CC", "false")
    assert build.main([]) == 0
    err = capsys.readouterr().err
    assert "failed; unmasking runs in numpy" in err
    assert list(tmp_path.iterdir()) == []


def test_build_compiles_once_and_again_when_the_source_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if not HAS_COMPILER:
        pytest.skip("no C compiler on this machine")
    build = _build_module()
    source = tmp_path / "unmasking_curve.c"
    source.write_bytes(native.SOURCE.read_bytes())
    library = tmp_path / native.LIBRARY.name
    monkeypatch.setattr(build, "SOURCE", source)
    monkeypatch.setattr(build, "LIBRARY", library)
    monkeypatch.setattr(build, "STAMP", tmp_path / "stamp")
    monkeypatch.setattr(build, "ROOT", tmp_path)
    monkeypatch.delenv("CC", raising=False)
    assert build.main([]) == 0
    assert "built" in capsys.readouterr().err
    built = library.stat().st_mtime_ns
    assert build.main([]) == 0  # up to date: nothing done, nothing said
    assert capsys.readouterr().err == "" and library.stat().st_mtime_ns == built
    source.write_text(source.read_text() + "\n/* changed */\n")
    assert build.main([]) == 0
    assert "built" in capsys.readouterr().err


def test_the_about_box_says_which_engine_computes_the_curves() -> None:
    from taveer_desktop.ui.about_box import version_lines

    expected = "compiled (C)" if native.engine() == "compiled" else "numpy"
    assert ("Unmasking curves", expected) in version_lines()
