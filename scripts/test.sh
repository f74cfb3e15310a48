#!/usr/bin/env bash
# The whole check: set up (scripts/setup.sh), lint with ruff, type-check with mypy (configured
# in pyproject.toml), run the pytest suite. Any extra arguments go to pytest, e.g.
# `scripts/test.sh -m "not slow"` for the quick loop (CI runs everything: .ci/run passes none).
# Exit status 5 from pytest (no test ran) is a failure.
#
# Workers: pytest runs in TAVEER_TEST_WORKERS processes (pytest-xdist), two unless set; each
# worker takes whole test files (--dist loadfile), so a module's fixtures are built once.
# TAVEER_TEST_WORKERS=1 (or 0) runs everything in this one process, as does passing `-n 0` or
# `-p no:xdist`; any `-n`/`--numprocesses`/`--dist` given here is passed on as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== ruff" >&2
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy" >&2
.venv/bin/mypy

workers="${TAVEER_TEST_WORKERS:-2}"
case "$workers" in
  auto | logical | [0-9] | [0-9][0-9]) ;;
  *)
    echo "test: TAVEER_TEST_WORKERS must be a number or auto, not '$workers'" >&2
    exit 2
    ;;
esac
parallel=(-n "$workers" --dist loadfile)
if [ "$workers" = 0 ] || [ "$workers" = 1 ]; then
  parallel=(-p no:xdist)
fi
for arg in "$@"; do
  case "$arg" in
    -n | -n[0-9a-z]* | --numprocesses | --numprocesses=* | --dist | --dist=* | no:xdist | -pno:xdist)
      parallel=()
      ;;
  esac
done

# Compiled bytecode is kept (in .venv/pycache, not beside the sources) even where the
# environment says PYTHONDONTWRITEBYTECODE: without it every worker and every `taveer`
# subprocess the tests start compiles the package again (collection took 9 s of processor time
# instead of 3 s).
unset PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX="${PYTHONPYCACHEPREFIX:-$PWD/.venv/pycache}"

echo "== pytest ${parallel[*]:-(workers as given)}" >&2
set +e
.venv/bin/python -m pytest ${parallel[@]+"${parallel[@]}"} "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "test: pytest collected no tests; that is a failure" >&2
  exit 1
fi
exit "$status"
