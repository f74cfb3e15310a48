#!/usr/bin/env bash
# Screenshots of every view of the desktop on a 1366×768 laptop screen at 100 % and 150 %
# (tests/ui/take_every_view_screenshots.py under Xvfb), shrunk for docs/images/ (pngquant when
# it is installed — `apt-get install pngquant` — else optipng, else left as Qt wrote them).
# Usage: scripts/take_every_view.sh [OUT]   (default docs/images)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-docs/images}"
for combo in "1 -1366" "1.5 -1366-150"; do
  read -r scale suffix <<<"$combo"
  QT_SCALE_FACTOR="$scale" xvfb-run -a -s "-screen 0 1366x768x24" \
    .venv/bin/python tests/ui/take_every_view_screenshots.py "$OUT" "--suffix=$suffix"
done
if command -v pngquant >/dev/null; then
  pngquant --force --skip-if-larger --quality=70-95 --ext .png "$OUT"/every-*.png || true
elif command -v optipng >/dev/null; then
  optipng -quiet -o2 "$OUT"/every-*.png
fi
ls -l "$OUT"/every-*.png | awk '{print $5, $9}'
