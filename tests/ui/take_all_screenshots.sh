#!/usr/bin/env bash
# The whole screenshot set of docs/gui.md (not a test): every script at 100 % and 150 % scale,
# on a 1600×1000 and a 1366×768 Xvfb screen. Usage: tests/ui/take_all_screenshots.sh [OUT]
# Names end in the scale and screen: none (100 %, 1600×1000), -150, -1366, -1366-150; on the
# 1366×768 screen the window fills it (1366×768, or 910×512 device-independent pixels at 150 %).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${1:-docs/images}"
for script in take_screenshots take_decision_screenshots take_receipt_screenshots take_lambdag_screenshots; do
  for combo in "1600x1000 1 " "1600x1000 1.5 -150" "1366x768 1 -1366" "1366x768 1.5 -1366-150"; do
    read -r screen scale suffix <<<"$combo"
    size=()
    if [ "$screen" = 1366x768 ]; then size=(--size=$([ "$scale" = 1 ] && echo 1366x768 || echo 910x512)); fi
    QT_SCALE_FACTOR="$scale" xvfb-run -a -s "-screen 0 ${screen}x24" \
      .venv/bin/python "tests/ui/$script.py" "$OUT" "--suffix=$suffix" "${size[@]}"
  done
done
for combo in "1 -1366" "1.5 -1366-150"; do  # the laptop set, maximised (see the script)
  read -r scale suffix <<<"$combo"
  QT_SCALE_FACTOR="$scale" xvfb-run -a -s "-screen 0 1366x768x24" \
    .venv/bin/python tests/ui/take_verification_screenshots.py "$OUT" "--suffix=$suffix"
done
# issue 21: the wizard's range, record, coverage, fit and attempts steps, and the decision view
# with a population-fit finding (public-domain texts from ../shared/demo-texts or
# TAVEER_DEMO_TEXTS), maximised on the laptop screen; the fit finding also at 150 % on 1600×1000
for combo in "1 -1366" "1.5 -1366-150"; do
  read -r scale suffix <<<"$combo"
  for script in take_validation_range_screenshots take_population_fit_screenshots; do
    QT_SCALE_FACTOR="$scale" xvfb-run -a -s "-screen 0 1366x768x24" \
      .venv/bin/python "tests/ui/$script.py" "$OUT" "--suffix=$suffix"
  done
done
QT_SCALE_FACTOR=1.5 xvfb-run -a -s "-screen 0 1600x1000x24" \
  .venv/bin/python tests/ui/take_population_fit_screenshots.py "$OUT" --suffix=-150
rm -f "$OUT/validation21-6-fit-flagged-150.png"  # the wizard's pictures are the laptop set's
