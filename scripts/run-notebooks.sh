#!/usr/bin/env bash
# Executes every notebook of notebooks/ headless against the committed results/ and
# the Python module in build/python (scripts/build.sh builds it), with Debian's
# Python (/usr/bin/python3, packages python3-matplotlib, python3-pandas,
# python3-numpy, python3-scipy, python3-ipykernel, jupyter-nbconvert), not
# whichever python3 comes first on the PATH. The executed copies go to
# build/notebooks/; the script fails if any notebook raises, or if a committed
# notebook's outputs are missing or differ from the fresh run's
# (scripts/notebook-outputs.py). `scripts/run-notebooks.sh --update` writes the fresh
# outputs into notebooks/ instead, to commit.
set -euo pipefail
cd "$(dirname "$0")/.."
action=check
case "${1:-}" in
  "") ;;
  --update) action=update ;;
  *) echo "usage: scripts/run-notebooks.sh [--update]" >&2; exit 2 ;;
esac
python=/usr/bin/python3
if ! "$python" -c 'import matplotlib, pandas, numpy, scipy, nbconvert, ipykernel' 2>/dev/null; then
  echo "run-notebooks: $python lacks matplotlib, pandas, numpy, scipy, nbconvert or ipykernel" >&2
  echo "  (Debian: apt-get install python3-matplotlib python3-pandas python3-numpy python3-scipy python3-ipykernel jupyter-nbconvert)" >&2
  exit 1
fi
# Only the system-wide kernel spec (it runs /usr/bin/python3): a user's own specs
# under ~/.local/share/jupyter could point at another Python.
data_dir=$(mktemp -d)
trap 'rm -rf "$data_dir"' EXIT
export JUPYTER_DATA_DIR="$data_dir" PYDEVD_DISABLE_FILE_VALIDATION=1
mkdir -p build/notebooks
# No timings in the outputs: a fresh run's notebooks equal the committed ones.
"$python" -m nbconvert --to notebook --execute --ExecutePreprocessor.kernel_name=python3 \
  --ExecutePreprocessor.timeout=300 --ExecutePreprocessor.record_timing=False \
  --output-dir build/notebooks notebooks/*.ipynb
echo "notebooks executed: build/notebooks/"
"$python" scripts/notebook-outputs.py "$action" notebooks build/notebooks
