#!/usr/bin/env bash
# Builds Kiln and runs the flagship demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release kiln_demo
build/release/samples/kiln_demo
