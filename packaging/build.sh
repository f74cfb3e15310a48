#!/usr/bin/env bash
# Build the TAVeer Desktop one-folder bundle into dist/taveer-desktop/ from a fresh clone.
# Sets up what it needs itself (scripts/setup.sh: Debian libraries, .venv, PyInstaller), builds
# with packaging/taveer.spec, then starts the built program with --smoke-test offscreen.
#
# Usage: bash packaging/build.sh          (DIST_DIR / WORK_DIR override dist/ and build/)
#        SKIP_SMOKE_TEST=1 bash packaging/build.sh
set -euo pipefail
cd "$(dirname "$0")/.."

DIST_DIR="${DIST_DIR:-dist}"
WORK_DIR="${WORK_DIR:-build/pyinstaller}"

bash scripts/setup.sh test,build

echo "build: PyInstaller -> $DIST_DIR/taveer-desktop" >&2
started=$(date +%s)
.venv/bin/python -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath "$DIST_DIR" --workpath "$WORK_DIR" packaging/taveer.spec
finished=$(date +%s)
bundle="$DIST_DIR/taveer-desktop"
echo "build: built $bundle in $((finished - started)) s; size $(du -sh "$bundle" | cut -f1)" >&2

if [ -z "${SKIP_SMOKE_TEST:-}" ]; then
  echo "build: smoke test of the bundle (offscreen)" >&2
  smoke_home="$(mktemp -d)"
  trap 'rm -rf "$smoke_home"' EXIT
  TAVEER_HOME="$smoke_home" QT_QPA_PLATFORM=offscreen "$bundle/taveer-desktop" --smoke-test
fi
echo "build: done: $bundle/taveer-desktop" >&2
