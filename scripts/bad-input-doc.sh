#!/usr/bin/env bash
# Rewrites docs/bad-input.md from what the commands answer to each class of bad
# input (tests/bad_input_test.cpp); needs a built build/.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p docs
ALLOCSIM_WRITE_BAD_INPUT_DOC=1 build/bin/allocsim_tests --gtest_filter='BadInput.*'
