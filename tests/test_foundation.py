"""The foundation: no network anywhere, the layer rule, user directories, logging, the demo case."""

from __future__ import annotations

import ast
import hashlib
import json
import logging
import logging.handlers
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import platformdirs
import pytest

from taveer_desktop import logging_setup, paths

REPO_ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DIR = REPO_ROOT / "taveer_desktop"
LAYERS = ("core", "store", "presentation", "report", "ui", "cli")
# What each layer must never import (architecture.md: ui -> report -> store -> core; cli beside;
# presentation, the Qt-free wording shared by report, ui and cli, rests on core only).
FORBIDDEN_LAYERS = {
    "core": {"store", "presentation", "report", "ui", "cli", "app"},
    "store": {"presentation", "report", "ui", "cli", "app"},
    "presentation": {"store", "report", "ui", "cli", "app"},
    "report": {"ui", "cli", "app"},
}
QT_MODULES = {"PySide6", "shiboken6", "pyqtgraph", "PyQt5", "PyQt6", "PySide2"}


# ---- the network is blocked for the whole suite ---------------------------------------------


def _guard_exception():
    return sys.modules["sitecustomize"].NetworkAccessBlocked


def test_guard_is_the_offline_guard_module():
    guard = sys.modules["sitecustomize"]
    assert Path(guard.__file__).parent.name == "offline_guard"


def test_connecting_to_localhost_is_blocked_in_the_test_process():
    blocked = _guard_exception()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock, pytest.raises(blocked):
        sock.connect(("127.0.0.1", 9))
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock, pytest.raises(blocked):
        sock.connect_ex(("::1", 9))
    with pytest.raises(blocked):
        socket.create_connection(("127.0.0.1", 80), timeout=1)


def test_resolving_a_name_is_blocked_in_the_test_process():
    with pytest.raises(_guard_exception()):
        socket.getaddrinfo("example.org", 443)
    with pytest.raises(_guard_exception()):
        socket.getaddrinfo("localhost", 80)


def test_unix_sockets_stay_allowed(tmp_path):
    path = str(tmp_path / "s")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(path)
        server.listen(1)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.connect(path)


def test_network_is_blocked_in_a_python_subprocess():
    code = textwrap.dedent(
        """
        import socket
        outcomes = []
        for attempt in (
            lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).connect(("127.0.0.1", 9)),
            lambda: socket.getaddrinfo("example.org", 443),
            lambda: socket.create_connection(("127.0.0.1", 80), timeout=1),
        ):
            try:
                attempt()
                outcomes.append("connected")
            except Exception as error:
                outcomes.append(type(error).__name__)
        print(",".join(outcomes))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == ",".join(["NetworkAccessBlocked"] * 3), done.stderr


# ---- the import boundary ---------------------------------------------------------------------


def _modules_of(layer: str) -> list[Path]:
    return sorted((PACKAGE_DIR / layer).rglob("*.py"))


def _imported_names(path: Path, root: Path = REPO_ROOT) -> set[str]:
    """Absolute dotted names a module imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def test_the_layers_have_modules_to_check():
    assert _modules_of("core"), "taveer_desktop/core has no modules"
    assert (PACKAGE_DIR / "store" / "__init__.py").is_file()


@pytest.mark.parametrize("layer", ["core", "store", "presentation"])
def test_core_and_store_never_import_qt(layer):
    offenders = [
        f"{path.relative_to(REPO_ROOT)} imports {name}"
        for path in _modules_of(layer)
        for name in _imported_names(path)
        if name.split(".")[0] in QT_MODULES
    ]
    assert not offenders, "\n".join(offenders)


@pytest.mark.parametrize("layer", sorted(FORBIDDEN_LAYERS))
def test_layer_rule(layer):
    forbidden = FORBIDDEN_LAYERS[layer]
    offenders = []
    for path in _modules_of(layer):
        for name in _imported_names(path):
            parts = name.split(".")
            if parts[0] == "taveer_desktop" and len(parts) > 1 and parts[1] in forbidden:
                offenders.append(f"{path.relative_to(REPO_ROOT)} imports {name}")
    assert not offenders, "\n".join(offenders)


def test_core_never_imports_sqlite():
    offenders = [
        str(path.relative_to(REPO_ROOT))
        for path in _modules_of("core")
        if any(name.split(".")[0] == "sqlite3" for name in _imported_names(path))
    ]
    assert not offenders


def test_the_ast_scan_sees_relative_and_nested_imports(tmp_path):
    probe = tmp_path / "taveer_desktop" / "core" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        "from ..store import records\n"
        "from . import errors\n"
        "def late():\n"
        "    import PySide6.QtCore\n",
        encoding="utf-8",
    )
    names = _imported_names(probe, root=tmp_path)
    assert "taveer_desktop.store.records" in names
    assert "taveer_desktop.core.errors" in names
    assert "PySide6.QtCore" in names


QT_BLOCKER = textwrap.dedent(
    """
    import importlib, importlib.abc, pkgutil, sys

    BLOCKED = {"PySide6", "shiboken6", "pyqtgraph"}

    class QtBlocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"{name} is blocked in this test")
            return None

    sys.meta_path.insert(0, QtBlocker())
    try:
        import PySide6  # noqa: F401
    except ImportError:
        pass
    else:
        raise SystemExit("the blocker did not stop PySide6")

    imported = []
    for package_name in (
        "taveer_desktop.core", "taveer_desktop.store", "taveer_desktop.presentation"
    ):
        package = importlib.import_module(package_name)
        imported.append(package_name)
        for info in pkgutil.walk_packages(package.__path__, package_name + "."):
            importlib.import_module(info.name)
            imported.append(info.name)
    loaded_qt = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
    if loaded_qt:
        raise SystemExit(f"Qt modules were loaded: {loaded_qt}")
    print("\\n".join(imported))
    """
)


def test_core_and_store_import_where_pyside6_cannot_be_imported():
    done = subprocess.run(
        [sys.executable, "-c", QT_BLOCKER],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO_ROOT,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    imported = set(done.stdout.split())
    expected = {
        ".".join(path.relative_to(REPO_ROOT).with_suffix("").parts).removesuffix(".__init__")
        for layer in ("core", "store", "presentation")
        for path in _modules_of(layer)
    }
    assert expected <= imported, f"not imported: {sorted(expected - imported)}"


# ---- user directories and logging ------------------------------------------------------------


def test_taveer_home_overrides_every_user_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("TAVEER_HOME", str(tmp_path / "home"))
    assert paths.data_dir() == tmp_path / "home" / "data"
    assert paths.log_dir() == tmp_path / "home" / "logs"
    assert paths.config_dir() == tmp_path / "home" / "config"
    assert paths.default_project_path().parent == paths.data_dir()
    assert paths.default_project_path().suffix == paths.PROJECT_SUFFIX
    assert all(p.is_dir() for p in (paths.data_dir(), paths.log_dir(), paths.config_dir()))


def test_user_directories_come_from_platformdirs_not_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("TAVEER_HOME", raising=False)
    for variable in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(variable, str(tmp_path / "xdg" / variable.lower()))
    work = tmp_path / "somewhere-else"
    work.mkdir()
    monkeypatch.chdir(work)
    app, author = paths.APP_NAME, paths.APP_AUTHOR
    assert paths.data_dir() == Path(platformdirs.user_data_dir(app, author))
    assert paths.log_dir() == Path(platformdirs.user_log_dir(app, author))
    assert paths.config_dir() == Path(platformdirs.user_config_dir(app, author))
    for directory in (paths.data_dir(), paths.log_dir(), paths.config_dir()):
        assert directory.is_relative_to(tmp_path / "xdg")
        assert not directory.is_relative_to(work)
    assert list(work.iterdir()) == []  # nothing was written into the working directory


def test_resources_are_found_from_any_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert paths.resources_dir() == REPO_ROOT / "resources"
    assert paths.resource("demo", "demo_case.json").is_file()
    assert paths.resource("fonts", "DejaVuSans.ttf").is_file()


def test_resources_inside_a_pyinstaller_bundle(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert paths.resources_dir() == tmp_path / "resources"


@pytest.fixture
def app_log_handler():
    handler = logging_setup.configure_logging()
    yield handler
    logging.getLogger().removeHandler(handler)
    handler.close()


def test_logging_goes_to_a_rotating_file_in_the_log_dir(app_log_handler):
    handler = app_log_handler
    assert isinstance(handler, logging.handlers.RotatingFileHandler)
    log_file = paths.log_dir() / logging_setup.LOG_FILE_NAME
    assert Path(handler.baseFilename) == log_file
    assert handler.maxBytes > 0 and handler.backupCount > 0
    assert logging_setup.configure_logging() is handler  # idempotent: one handler only

    handler.maxBytes = 2_000  # make it rotate quickly
    logger = logging.getLogger("taveer_desktop.test_rotation")
    for number in range(200):
        logger.warning("line %d of a log that must rotate %s", number, "x" * 40)
    handler.flush()
    rotated = sorted(p.name for p in paths.log_dir().iterdir())
    assert logging_setup.LOG_FILE_NAME + ".1" in rotated
    assert len(rotated) <= handler.backupCount + 1
    assert "must rotate" in log_file.read_text(encoding="utf-8")


# ---- the demo case ---------------------------------------------------------------------------


def _demo_manifest() -> dict:
    return json.loads(paths.resource("demo", "demo_case.json").read_text(encoding="utf-8"))


def test_demo_manifest_names_existing_files():
    manifest = _demo_manifest()
    assert manifest["cases"], "the demo manifest has no case"
    for case in manifest["cases"]:
        assert case["case_number"] and case["title"] and case["description"]
        assert len(case["known"]) >= 3
        for name in [*case["known"], case["questioned"]]:
            assert paths.resource("demo", name).is_file(), name
        assert case["questioned"] not in case["known"]


def test_questioned_demo_document_does_not_name_its_author():
    for case in _demo_manifest()["cases"]:
        text = paths.resource("demo", case["questioned"]).read_text(encoding="utf-8")
        header = [line.strip() for line in text.splitlines()[:15]]
        assert not any(line in {"HAMILTON", "MADISON", "HAMILTON OR MADISON"} for line in header)


def test_demo_files_match_the_hashes_in_the_demo_readme():
    readme = paths.resource("demo", "README.md").read_text(encoding="utf-8")
    listed = {}
    for line in readme.splitlines():
        parts = line.split()
        if len(parts) == 2 and len(parts[0]) == 64 and parts[1].startswith("federalist/"):
            listed[parts[1]] = parts[0]
    shipped = sorted(p for p in paths.resource("demo", "federalist").iterdir())
    assert sorted(listed) == sorted(f"federalist/{p.name}" for p in shipped)
    for name, digest in listed.items():
        assert hashlib.sha256(paths.resource("demo", name).read_bytes()).hexdigest() == digest


def test_one_progress_type_and_one_worker_shape():
    """``Progress`` is defined once (core/ground/progress.py); no module under ui/ runs a QRunnable
    or a thread pool of its own besides the job runner and its worker."""
    progress_defined, runnables = [], []
    for source in PACKAGE_DIR.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        relative = source.relative_to(PACKAGE_DIR).as_posix()
        if "Callable[[int, int, str], None]" in text:
            progress_defined.append(relative)
        if relative.startswith("ui/") and ("QRunnable" in text or "QThreadPool(" in text):
            runnables.append(relative)
    assert progress_defined == ["core/ground/progress.py"]
    assert sorted(runnables) == ["ui/job_runner.py", "ui/task_worker.py"]


def test_no_module_under_ui_imports_the_main_window():
    importers = [
        source.relative_to(PACKAGE_DIR).as_posix()
        for source in (PACKAGE_DIR / "ui").rglob("*.py")
        if source.name != "main_window.py"
        and "ui.main_window" in source.read_text(encoding="utf-8")
    ]
    assert importers == []


def test_the_explanation_data_and_the_explain_package_load_without_qt():
    code = textwrap.dedent(
        """
        import sys
        import taveer_desktop.presentation.explanation_data
        import taveer_desktop.presentation.evidence_data
        import taveer_desktop.ui.explain
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "pyqtgraph"))
        print(loaded)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO_ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
