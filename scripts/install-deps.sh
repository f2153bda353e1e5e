#!/usr/bin/env bash
# Installs the Debian packages allocsim needs, if any are missing. As root it runs
# apt-get; otherwise it prints the exact command to run and fails.
set -euo pipefail

packages=(
  cmake g++ make pkg-config ccache
  libeigen3-dev libboost-math-dev libcli11-dev nlohmann-json3-dev librandom123-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libzstd-dev zlib1g-dev libprotobuf-dev protobuf-compiler
  gnuplot-nox
  clang libclang-rt-14-dev
  python3-matplotlib python3-numpy python3-pandas jupyter-nbconvert python3-ipykernel
  pybind11-dev python3-dev python3-pytest python3-scipy
  libjemalloc-dev libgoogle-perftools-dev golang-go openjdk-17-jdk-headless
  libopenmpi-dev openmpi-bin
  linux-perf
  chromium
  llvm
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

command="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "allocsim needs these Debian packages: ${missing[*]}" >&2
  echo "run as root:  apt-get update && $command" >&2
  exit 1
fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$command
