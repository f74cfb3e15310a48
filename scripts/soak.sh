#!/usr/bin/env bash
# The long soak (tests/ui/soak.py): the real window driven at random for MINUTES (default 10),
# offscreen, with a seed (default: the time). Exit 0 only if nothing failed; a crash shows its
# signal. Usage: scripts/soak.sh [MINUTES] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-10}"
seed="${2:-$(date +%s)}"
echo "soak: ${minutes} minutes, seed ${seed}" >&2
QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" exec .venv/bin/python -X faulthandler \
  -m tests.ui.soak --minutes "$minutes" --seed "$seed"
