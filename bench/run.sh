#!/usr/bin/env bash
# The issue-6 benchmark suite in one command: Kiln (interpreter and JIT), hand-fused C++ loops
# for the memory-bound rows, and PyTorch 2.x from PyPI (eager and torch.compile with Inductor),
# each workload in its own process per system, printed as one markdown table.
#
# Usage: bench/run.sh [--procs N] [--only pointwise,layernorm,softmax,mlp,gpt,mlp_b1]
#                     [--skip kiln_interp,torch_compile,...] [--timeout S] [--quiet-wait S]
# Environment: KILN=path/to/kiln (default build/release/jit/kiln), PYTHON=python3 for the venv.
#
# PyTorch goes into build/bench-venv (created on first use, about 5 GiB: PyPI's Linux torch
# wheel is the CUDA build and will not import without its nvidia-* libraries). The tests never
# need it. Results: stdout and build/bench-suite/results.{md,json}.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kiln=${KILN:-$root/build/release/jit/kiln}
python=${PYTHON:-python3}
venv=$root/build/bench-venv
out=$root/build/bench-suite

die() { echo "bench/run.sh: $*" >&2; exit 1; }

command -v "$python" >/dev/null || die "no $python: install python3 (apt-get install python3)"
command -v g++ >/dev/null || die "no g++ (the fused loops and Inductor need it): apt-get install g++"
[[ -x "$kiln" ]] || die "no kiln at $kiln: build it first (cmake --preset release &&
  cmake --build --preset release -j) or set KILN=path/to/kiln"

if ! "$venv/bin/python" -c "import torch" 2>/dev/null; then
  "$python" -c "import venv, ensurepip" 2>/dev/null ||
    die "$python cannot create virtual environments: apt-get install python3-venv"
  echo "creating $venv with PyTorch 2.x from PyPI (several GiB, once) ..." >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install --quiet --upgrade pip
  # numpy: torch warns without it and Inductor uses it for some constants.
  "$venv/bin/pip" install --quiet "torch>=2,<3" numpy ||
    die "pip could not install torch into $venv (is PyPI reachable?)"
  "$venv/bin/python" -c "import torch" || die "torch was installed into $venv but does not import"
  echo "installed $("$venv/bin/python" -c 'import torch; print(torch.__version__)'),\
 venv size $(du -sh "$venv" | cut -f1)" >&2
fi

mkdir -p "$out"
fused=$out/fused
if [[ ! -x "$fused" || "$root/bench/suite/fused.cpp" -nt "$fused" || "$0" -nt "$fused" ]]; then
  # 512-bit vectors: the exp/erf polynomials are compute-bound at 256 bits on AVX-512 hosts
  # (layer_norm+GELU 4.9 ms against 3.5 ms here); -ffast-math lets the reductions vectorise.
  g++ -std=c++20 -O3 -march=native -mprefer-vector-width=512 -ffast-math -fopenmp \
    -Wall -Wextra -Werror \
    -o "$fused" "$root/bench/suite/fused.cpp" || die "building the fused loops failed"
fi

exec "$python" "$root/bench/suite/run_suite.py" --kiln "$kiln" --python "$venv/bin/python" \
  --fused "$fused" --out "$out" "$@"
