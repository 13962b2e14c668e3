#!/usr/bin/env bash
# Configures and builds one CMake preset (default: release), installing
# missing Debian packages first. Usage: scripts/build.sh [preset] [target...]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
shift || true
scripts/install-deps.sh
cmake --preset "$preset" >/dev/null
jobs=$(nproc 2>/dev/null || echo 2)
if [ $# -gt 0 ]; then
  cmake --build --preset "$preset" -j"$jobs" --target "$@"
else
  cmake --build --preset "$preset" -j"$jobs"
fi
