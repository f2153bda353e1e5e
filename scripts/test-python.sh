#!/usr/bin/env bash
# Runs the Python module's tests (python/tests/) against the build tree's package
# (build/python/allocsim) and CLI with Debian's /usr/bin/python3: pytest when
# python3-pytest is installed, else unittest. Run after scripts/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
python=/usr/bin/python3
cd python/tests
if "$python" -c 'import pytest' 2>/dev/null; then
  "$python" -m pytest -q -p no:cacheprovider .
else
  "$python" -m unittest discover -s . -p 'test_*.py'
fi
