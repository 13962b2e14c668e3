#!/bin/sh
# Re-records the expected outputs of the oracle suite by running each script
# under CPython with Debian's python3-torch (through recorder_shim.py, which
# supplies torch.compile as the identity). tests/oracle/X.py records
# tests/oracle/X.expected; samples/X.py records tests/oracle/samples/X.expected;
# a script in a directory under tests/oracle (multifile/) records X.expected beside it.
# Each script runs from its own directory, as CTest runs it under `kiln run`.
# Usage: tests/oracle/record.sh [script.py ...]   (default: all of them)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
python=${PYTHON:-/usr/bin/python3}
if [ $# -eq 0 ]; then
  set -- "$here"/*.py "$here/multifile/import_modules.py" "$root/samples/train_mlp.py" "$root/samples/train_gpt.py" "$root/samples/modules.py"
fi
mkdir -p "$here/samples"
status=0
for script in "$@"; do
  case "$script" in */recorder_shim.py) continue ;; esac
  dir=$(cd "$(dirname "$script")" && pwd)
  name=$(basename "$script" .py)
  case "$dir" in
    "$here") out="$here/$name.expected" ;;
    "$here"/*) out="$dir/$name.expected" ;;
    *) out="$here/samples/$name.expected" ;;
  esac
  if (cd "$dir" && OMP_NUM_THREADS=1 "$python" "$here/recorder_shim.py" "$name.py" > "$out.tmp"); then
    mv "$out.tmp" "$out"
    echo "recorded $out"
  else
    rm -f "$out.tmp"
    echo "FAILED: $script" >&2
    status=1
  fi
done
exit $status
