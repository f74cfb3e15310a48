#!/usr/bin/env bash
# The whole check: set up (scripts/setup.sh), lint with ruff, type-check with mypy (configured
# in pyproject.toml), run the pytest suite. Any extra arguments go to pytest, e.g.
# `scripts/test.sh -m "not slow"` for the quick loop (CI runs everything: .ci/run passes none).
# Exit status 5 from pytest (no test ran) is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== ruff" >&2
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy" >&2
.venv/bin/mypy
echo "== pytest" >&2
set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "test: pytest collected no tests; that is a failure" >&2
  exit 1
fi
exit "$status"
