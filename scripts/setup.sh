#!/usr/bin/env bash
# Set up everything TAVeer Desktop needs on a fresh Debian machine, idempotently:
#   - Debian libraries Qt needs for a real window under Xvfb, and the tools the tests use
#     to look at what the program makes (Xvfb, poppler's pdftotext/pdftoppm, fonts);
#   - a virtual environment in .venv with the package installed in editable mode;
#   - the C part (scripts/build_native.py: the unmasking curve), where a C compiler is found.
# Usage: scripts/setup.sh [extras]   (extras default to "test,build")
set -euo pipefail
cd "$(dirname "$0")/.."

EXTRAS="${1:-test,build}"
DEBIAN_PACKAGES=(
  xvfb xauth x11-utils imagemagick poppler-utils fonts-dejavu-core
  libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0 libxkbcommon-x11-0 libxcb-xinerama0
  libxcb-randr0 libxcb-render-util0 libxcb-image0 libxcb-shape0 libegl1 libgl1 libfontconfig1
  libdbus-1-3
)

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for pkg in "${DEBIAN_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  echo "setup: installing Debian packages: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv" >&2
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.taveer-setup-stamp
want="$(sha256sum pyproject.toml | cut -d' ' -f1) $EXTRAS"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing Python packages ($EXTRAS)" >&2
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[$EXTRAS]"
  echo "$want" > "$stamp"
fi

# the compiled unmasking curve (a one-line notice and the numpy path where there is no compiler)
.venv/bin/python scripts/build_native.py
