#!/usr/bin/env bash
# Set up (scripts/setup.sh) and start the TAVeer Desktop application.
# Without a display it starts a virtual one (Xvfb) so the window still runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "run: no display found; starting the application on a virtual display (xvfb-run)" >&2
  exec xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/taveer-desktop "$@"
fi
exec .venv/bin/taveer-desktop "$@"
