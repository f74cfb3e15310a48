"""The PyInstaller bundle: the spec's rules, the desktop entry and icons, and a real build.

The build test freezes the application into tmp_path (one-folder, no UPX) and starts the built
program with ``--smoke-test`` offscreen. It is skipped only where PyInstaller is not installed.
"""

from __future__ import annotations

import configparser
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from taveer_desktop import __version__
from taveer_desktop.core.methods.systems import native

REPO_ROOT = Path(__file__).resolve().parent.parent
PACKAGING = REPO_ROOT / "packaging"
SPEC = PACKAGING / "taveer.spec"


# ---- the spec's rules (checked without building) ---------------------------------------------


def _spec_text() -> str:
    return SPEC.read_text(encoding="utf-8")


def test_spec_never_strips_or_compresses_binaries():
    code = "\n".join(line.split("#")[0] for line in _spec_text().splitlines())
    assert "strip=True" not in code.replace(" ", "")  # breaks numpy's OpenBLAS
    assert "upx=True" not in code.replace(" ", "")
    assert code.count("strip=False") >= 2


def test_spec_keeps_the_modules_pyqtgraph_needs():
    excludes = re.search(r"UNUSED_MODULES = \[(.*?)\]", _spec_text(), re.DOTALL).group(1)
    for needed in ("QtOpenGL", "QtOpenGLWidgets", "QtCore", "QtGui", "QtWidgets", "numpy"):
        assert f'"{needed}"' not in excludes and f'.{needed}"' not in excludes, needed
    assert '"tkinter"' in excludes


def test_spec_reads_the_version_from_the_package():
    text = _spec_text()
    assert "__version__" in text and "taveer_desktop" in text
    assert __version__ not in text  # not a second, hand-kept copy


def test_build_script_sets_itself_up():
    script = (PACKAGING / "build.sh").read_text(encoding="utf-8")
    assert "scripts/setup.sh" in script
    assert "packaging/taveer.spec" in script
    assert "--smoke-test" in script
    assert os.access(PACKAGING / "build.sh", os.X_OK)


def test_desktop_entry_is_complete():
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(PACKAGING / "taveer-desktop.desktop", encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Type"] == "Application"
    assert section["Name"] == "TAVeer Desktop"
    assert section["Exec"].split()[0] == "taveer-desktop"
    assert section["Icon"] == "taveer-desktop"
    assert section["Terminal"] == "false"
    assert section["Categories"].endswith(";")


@pytest.mark.parametrize("size", [16, 24, 32, 48, 64, 128, 256])
def test_application_icon_png_sizes(size):
    image = QImage(str(REPO_ROOT / "resources" / "icons" / f"taveer-{size}.png"))
    assert not image.isNull()
    assert (image.width(), image.height()) == (size, size)
    assert image.hasAlphaChannel()


def test_application_icon_svg_is_valid():
    from PySide6.QtSvg import QSvgRenderer

    assert QSvgRenderer(str(REPO_ROOT / "resources" / "icons" / "taveer.svg")).isValid()


# ---- a real build -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    if importlib.util.find_spec("PyInstaller") is None:
        pytest.skip("PyInstaller is not installed (scripts/setup.sh installs the build extra)")
    work = tmp_path_factory.mktemp("pyinstaller")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--log-level",
            "WARN",
            "--distpath",
            str(work / "dist"),
            "--workpath",
            str(work / "build"),
            str(SPEC),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=work,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    folder = work / "dist" / "taveer-desktop"
    assert (folder / "taveer-desktop").is_file()
    return folder


@pytest.mark.slow
def test_bundle_holds_resources_and_leaves_out_unused_qt(bundle):
    internal = bundle / "_internal"
    for name in (
        "resources/fonts/DejaVuSans.ttf",
        "resources/fonts/LICENSE-DejaVu.txt",
        "resources/icons/taveer-256.png",
        "resources/demo/demo_case.json",
        "resources/models/default.json",
    ):
        assert (internal / name).is_file(), name
    assert any((internal / "resources" / "lexicon").iterdir())
    qt = internal / "PySide6" / "Qt"
    assert not (qt / "translations").exists()
    assert not list(qt.glob("plugins/platforms/libqwayland*"))
    assert (qt / "plugins" / "platforms" / "libqoffscreen.so").is_file()
    assert (qt / "plugins" / "platforms" / "libqxcb.so").is_file()
    assert list((internal / "PySide6").glob("QtOpenGL*.so"))
    assert not list(internal.rglob("sitecustomize*"))


@pytest.mark.slow
def test_built_program_passes_its_smoke_test(bundle, tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", TAVEER_HOME=str(tmp_path / "home"))
    shot = tmp_path / "bundle.png"
    done = subprocess.run(
        [str(bundle / "taveer-desktop"), "--smoke-test", "--screenshot", str(shot)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "smoke test ok" in done.stdout
    # the bundle carries the compiled unmasking curve the source tree built (the spec's NATIVE)
    assert f"unmasking curves {native.engine()}" in done.stdout
    assert shot.is_file() and shot.stat().st_size > 1000
    assert (tmp_path / "home" / "logs" / "taveer.log").is_file()


@pytest.mark.slow
def test_built_program_reports_its_version(bundle):
    done = subprocess.run(
        [str(bundle / "taveer-desktop"), "--version"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0
    assert __version__ in done.stdout


def test_spec_bundles_the_encoding_detector():
    """Intake imports charset-normalizer lazily, so the spec must collect it by name."""
    text = _spec_text()
    assert 'collect_submodules("charset_normalizer")' in text
    pyproject = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    assert "charset-normalizer" in pyproject
