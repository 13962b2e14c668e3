#!/usr/bin/env bash
# Compile time of the MLP training step (bench/compile/mlp_train_step.py):
# cold (empty kernel cache: fusion + LLVM for every kernel) and warm (a second
# process finding every kernel in the disk cache). Compiles inline
# (KILN_ASYNC_COMPILE=0) so the times are the compiler's alone.
# Usage: bench/compile_time.sh [path/to/kiln]   (default build/release/jit/kiln)
set -euo pipefail
cd "$(dirname "$0")/.."
kiln=${1:-build/release/jit/kiln}
[ -x "$kiln" ] || { echo "no kiln at $kiln: build it first (scripts/build.sh)" >&2; exit 1; }
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
summary() {
  python3 -c '
import json, sys
r = json.load(sys.stdin)
gs = [g for reg in r["regions"] for g in reg["graphs"] if g.get("kernels", 0)]
ms = sum(g["compile_ns"] for g in gs) / 1e6
k = sum(g["kernels"] for g in gs)
c = sum(g["kernels_compiled"] for g in gs)
d = sum(g["kernels_from_disk"] for g in gs)
m = sum(g["kernels_from_memory"] for g in gs)
print(f"{sys.argv[1]:5s} {ms:8.1f} ms  ({len(gs)} graphs, {k} kernels: {c} compiled, {d} from disk, {m} from memory)")
' "$1"
}
for run in cold warm; do
  KILN_ASYNC_COMPILE=0 KILN_CACHE_DIR="$cache" "$kiln" explain --json bench/compile/mlp_train_step.py 2>/dev/null |
    summary "$run"
done
