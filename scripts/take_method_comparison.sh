#!/usr/bin/env bash
# Screenshots of the validation wizard's method page and of a record comparing methods on a
# 1366×768 screen at 100 % and 150 % (tests/ui/take_method_comparison_screenshots.py under
# Xvfb), and the validation report's comparison page as PNG (pdftoppm), into docs/images/.
# Usage: scripts/take_method_comparison.sh [OUT]   (default docs/images)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-docs/images}"
WORK="$(mktemp -d)"
for combo in "1 -100" "1.5 -150"; do
  read -r scale suffix <<<"$combo"
  QT_SCALE_FACTOR="$scale" xvfb-run -a -s "-screen 0 1366x768x24" \
    .venv/bin/python tests/ui/take_method_comparison_screenshots.py "$WORK" "--suffix=$suffix"
  cp "$WORK/method-page$suffix.png" "$WORK/compared-record$suffix.png" "$OUT/"
done
# the report's comparison page: the page whose text names the comparison's heading
pdf="$WORK/compared-record-100.pdf"
pages=$(pdfinfo "$pdf" | awk '/^Pages:/ {print $2}')
for page in $(seq 1 "$pages"); do
  if pdftotext -f "$page" -l "$page" "$pdf" - | grep -q "gures on the same trials"; then
    pdftoppm -f "$page" -l "$page" -r 80 -png -singlefile "$pdf" "$OUT/compared-report"
    break
  fi
done
if command -v pngquant >/dev/null; then
  pngquant --force --skip-if-larger --quality=70-95 --ext .png \
    "$OUT"/method-page-*.png "$OUT"/compared-record-*.png "$OUT"/compared-report.png || true
fi
ls -l "$OUT"/method-page-*.png "$OUT"/compared-record-*.png "$OUT"/compared-report.png
