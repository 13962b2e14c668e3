#!/usr/bin/env bash
# Builds a preset (default: release) and runs every test registered with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
scripts/build.sh "$preset"
ctest --preset "$preset" -j"$(nproc 2>/dev/null || echo 2)"
