#!/usr/bin/env bash
# Installs the build tree into build/install-test/prefix and uses only that tree:
# builds and runs tests/install_consumer/ with find_package(allocsim CONFIG),
# imports the installed Python package, and checks that the installed CLI finds
# its data under the prefix rather than in this checkout. Run after scripts/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD/build/install-test
prefix=$root/prefix
rm -rf "$root"
cmake --install build --prefix "$prefix" >/dev/null

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S tests/install_consumer -B "$root/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
cmake --build "$root/consumer" >/dev/null
"$root/consumer/consumer"

# The installed package, away from the checkout (its own directory first on the path).
(cd "$root" && PYTHONPATH="$prefix/lib/python3/dist-packages" /usr/bin/python3 -c '
import allocsim, sys
assert allocsim.__file__.startswith(sys.argv[1]), allocsim.__file__
result = allocsim.run(sys.argv[1] + "/share/allocsim/scenarios/examples/quickstart.json", replications=4)
print("installed Python package:", len(result.metrics), "metric rows")
' "$prefix")

"$prefix/bin/allocsim" --version >/dev/null
help=$("$prefix/bin/allocsim" conformance --help)
grep -q -- "--source-dir TEXT=$prefix/share/allocsim" <<<"$help" || {
  echo "test-install: the installed CLI does not take conformance/ from $prefix/share/allocsim" >&2
  exit 1
}
echo "install test passed: $prefix"
