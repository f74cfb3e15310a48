#!/usr/bin/env bash
# Set up (scripts/setup.sh) and start the TAVeer Desktop application.
# Without a display it starts a virtual one (Xvfb) so the window still runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  # The virtual display runs in a session of its own, so Ctrl+C reaches only the program,
  # which closes its project cleanly; the display is stopped when the program has ended.
  display_file="$(mktemp)"
  setsid Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$display_file" 2>/dev/null &
  xvfb_pid=$!
  trap 'kill "$xvfb_pid" 2>/dev/null; rm -f "$display_file"' EXIT
  for _ in $(seq 100); do [ -s "$display_file" ] && break; sleep 0.1; done
  if [ ! -s "$display_file" ]; then
    echo "run: no display was found and the virtual display (Xvfb) did not start" >&2
    exit 1
  fi
  export DISPLAY=":$(head -n 1 "$display_file")"
  cat >&2 <<MESSAGE
run: no display was found (DISPLAY and WAYLAND_DISPLAY are unset), so the window opens on a
     virtual display ($DISPLAY, Xvfb) that no screen shows: it runs, but you will not see it here.
     To see the window, start this from a desktop session or over ssh -X.
     To stop it, press Ctrl+C in this terminal: the program closes its project and ends, and
     the virtual display with it.
     To check that it works without a screen:
       .venv/bin/taveer-desktop --smoke-test --screenshot window.png
MESSAGE
  status=0
  .venv/bin/taveer-desktop "$@" || status=$?
  exit "$status"
fi
exec .venv/bin/taveer-desktop "$@"
