#!/usr/bin/env bash
# Set up (scripts/setup.sh) and start the TAVeer Desktop application.
# Without a display it starts a virtual one (Xvfb) so the window still runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  cat >&2 <<'MESSAGE'
run: no display was found (DISPLAY and WAYLAND_DISPLAY are unset), so the window opens on a
     virtual display (xvfb-run) that no screen shows: it runs, but you will not see it here.
     To see the window, start this from a desktop session or over ssh -X.
     To stop it, press Ctrl+C in this terminal (closing nothing else is needed).
     To check that it works without a screen:
       .venv/bin/taveer-desktop --smoke-test --screenshot window.png
MESSAGE
  exec xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/taveer-desktop "$@"
fi
exec .venv/bin/taveer-desktop "$@"
