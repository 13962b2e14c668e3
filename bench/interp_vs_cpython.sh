#!/usr/bin/env bash
# Pure-interpreter speed of `kiln run --jit=off` against CPython on the same
# scripts (bench/interp/*.py). Each script times its own work with
# time.perf_counter (so start-up is not counted) and prints "... <seconds> s";
# this prints the best of N runs and the ratio CPython / kiln (above 1: kiln is faster).
# Usage: bench/interp_vs_cpython.sh [build dir, default build/release] [runs, default 5]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
runs=${2:-5}
kiln="$build/jit/kiln"
python=${PYTHON:-/usr/bin/python3}
[[ -x "$kiln" ]] || { echo "no $kiln: build first (scripts/build.sh release)" >&2; exit 1; }

best_of() {  # best self-reported time in seconds of running "$@" $runs times
  local best=""
  for _ in $(seq "$runs"); do
    local t
    t=$("$@" | awk '{ print $(NF-1) }')
    if [[ -z "$best" ]] || (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
  done
  printf '%.3f' "$best"
}

echo "$($python --version 2>&1) vs kiln $("$kiln" --version | cut -d' ' -f2), best of $runs"
printf '%-18s %10s %10s %8s\n' script cpython kiln ratio
for script in bench/interp/*.py; do
  py=$(best_of "$python" "$script")
  kl=$(best_of "$kiln" run --jit=off "$script")
  printf '%-18s %9ss %9ss %7.2fx\n' "$(basename "$script")" "$py" "$kl" "$(echo "$py / $kl" | bc -l)"
done
