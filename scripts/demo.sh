#!/usr/bin/env bash
# Builds Kiln and runs the first sample users try: an MLP trained with
# torch.nn and torch.optim.SGD, written as an ordinary PyTorch script.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release kiln
build/release/jit/kiln run samples/train_mlp.py
