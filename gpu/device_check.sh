#!/usr/bin/env bash
# The checks Kiln's GPU backend gets on a machine with an NVIDIA GPU, in one run of under six
# minutes: build, the oracle suite on the device, GPU benchmarks against PyTorch, NVRTC compile
# time cold and warm. Run from anywhere; it works in the repository root.
#
#   gpu/device_check.sh                          # on the GPU machine
#   KILN_EMULATE_CUDA=1 gpu/device_check.sh      # dry run without a GPU: Kiln's emulated device
#                                                # (host memory), small tensors, numbers labelled
#
# Environment: BUILD_DIR (default build/device), JOBS (default nproc), BUDGET_S (whole run,
# default 345), SCALE (benchmark sizes divided by it; default 1, or 1024 on the emulated device),
# PYTHON (a python3 with PyTorch; default: python3, else /usr/bin/python3), OUT (results.md and
# results.json are copied there when set). Every step has its own timeout, cut to what is left of
# the budget; a failing step is recorded in the results, not fatal.
# Exit status: 0 all checks passed, 1 some failed, 3 no CUDA device (after the build).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
BUILD_DIR=${BUILD_DIR:-build/device}
mkdir -p "$BUILD_DIR"
BUILD_DIR=$(cd "$BUILD_DIR" && pwd)
JOBS=${JOBS:-$(nproc)}
BUDGET_S=${BUDGET_S:-345}
RES=$BUILD_DIR/devcheck
KILN=$BUILD_DIR/jit/kiln
OUTCMP=$BUILD_DIR/tests/oracle/kiln_outcmp
rm -rf "$RES"
mkdir -p "$RES/oracle" "$RES/bench" "$RES/nvrtc"
: > "$RES/steps.tsv"
START=$SECONDS
export ROOT KILN OUTCMP RES

log() { echo "[device_check $((SECONDS - START))s] $*" >&2; }

# Seconds a step may take: its own limit, cut to the budget left (10 s kept for the report).
step_limit() {
  local left=$((BUDGET_S - (SECONDS - START) - 10))
  ((left < $1)) && echo "$left" || echo "$1"
}

# The same, at least 5 s: for the steps that run beside others or cannot be skipped.
step_limit_min5() {
  local l
  l=$(step_limit "$1")
  echo $((l < 5 ? 5 : l))
}

# record STEP STATUS SECONDS NOTE: one line of steps.tsv (tabs and newlines in NOTE flattened).
record() {
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$(printf '%s' "$4" | tr '\t\n' '  ' | cut -c1-300)" >> "$RES/steps.tsv"
  log "$1: $2 ($3 s) $4"
}

# run_step NAME LIMIT LOGFILE CMD...: runs CMD under its limit, records pass/fail/timeout.
run_step() {
  local name=$1 limit rc=0 t0=$SECONDS
  limit=$(step_limit "$2")
  local logf=$3
  shift 3
  if ((limit < 5)); then
    echo "skipped: time budget spent" > "$logf"
    record "$name" skipped 0 "time budget spent"
    return 1
  fi
  timeout -k 5 "$limit" "$@" > "$logf" 2>&1 || rc=$?
  if ((rc == 0)); then
    record "$name" pass $((SECONDS - t0)) ""
  elif ((rc == 124 || rc == 137)); then
    record "$name" timeout $((SECONDS - t0)) "limit ${limit}s; $(tail -n 3 "$logf")"
  else
    record "$name" fail $((SECONDS - t0)) "exit $rc; $(grep -m 3 -i -E 'error|fail' "$logf" || tail -n 3 "$logf")"
  fi
  return $rc
}

# Writes results.md and results.json from what the steps left in $RES, and copies them to $OUT.
REPORTED=false
report() {
  REPORTED=true
  python3 - "$RES" "$BUILD_DIR" <<'PYEOF' || log "report: failed to write the results"
import glob, json, os, statistics, sys

res, build = sys.argv[1], sys.argv[2]

def read(path, default=""):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default

steps = []
for line in read(f"{res}/steps.tsv").splitlines():
    parts = line.split("\t") + ["", "", "", ""]
    steps.append({"step": parts[0], "status": parts[1], "seconds": parts[2], "note": parts[3]})
meta = json.loads(read(f"{res}/meta.json", "{}") or "{}")
emulated = meta.get("emulated", False)

oracle = []
for status in sorted(glob.glob(f"{res}/oracle/*.status")):
    name = os.path.basename(status)[:-len(".status")]
    err = read(f"{res}/oracle/{name}.err").strip()
    oracle.append({"script": name, "status": read(status).strip() or "unknown", "error": err})

bench = {}
for path in sorted(glob.glob(f"{res}/bench/*.*.out")):
    name, system = os.path.basename(path).split(".")[:2]
    entry = {"status": "fail", "error": read(f"{res}/bench/{name}.{system}.err").strip()[-600:]}
    for line in read(path).splitlines():
        if line.startswith("{"):
            try:
                entry = {"status": "ok", **json.loads(line)}
            except ValueError as e:
                entry["error"] = f"bad JSON line: {e}"
    bench.setdefault(name, {})[system] = entry
pytorch_note = read(f"{res}/pytorch.txt").strip()

def compile_spans(trace_path):
    # Chrome trace, JSON array form: complete events ("X", dur in microseconds) or B/E pairs.
    if not os.path.exists(trace_path):
        return {"error": "no trace (the run did not finish)"}
    try:
        events = json.loads(read(trace_path) or "[]")
    except ValueError as e:
        return {"error": f"unreadable trace: {e}"}
    if isinstance(events, dict):
        events = events.get("traceEvents", [])
    spans, open_spans = {}, {}
    for e in events:
        if not isinstance(e, dict) or e.get("cat") != "compile":
            continue
        name, ph = e.get("name", ""), e.get("ph")
        if "nvrtc" not in name.lower() and "cuda" not in name.lower():
            continue
        if ph == "X":
            ms = float(e.get("dur", 0)) / 1000.0
            spans.setdefault(name, []).append(ms)
            # The GPU image cache says where an image came from: "kernel (compiled|disk|memory)".
            text = (e.get("args") or {}).get("text", "")
            if name == "nvrtc compile" and text.endswith(")") and " (" in text:
                where = text[text.rindex(" (") + 2:-1]
                spans.setdefault(f"nvrtc compile: {where}", []).append(ms)
        elif ph == "B":
            open_spans.setdefault((name, e.get("tid")), []).append(float(e["ts"]))
        elif ph == "E" and open_spans.get((name, e.get("tid"))):
            t0 = open_spans[(name, e.get("tid"))].pop()
            spans.setdefault(name, []).append((float(e["ts"]) - t0) / 1000.0)
    return spans

def summary(ms):
    if not ms:
        return {"count": 0}
    return {"count": len(ms), "median_ms": statistics.median(ms), "max_ms": max(ms),
            "total_ms": sum(ms)}

nvrtc = {}
for run in ("cold", "warm"):
    spans = compile_spans(f"{res}/nvrtc/{run}.trace.json")
    if "error" in spans:
        nvrtc[run] = {"error": spans["error"]}
        continue
    nvrtc[run] = {"nvrtc_compile": summary(spans.get("nvrtc compile", [])),
                  "other_spans": {k: summary(v) for k, v in spans.items() if k != "nvrtc compile"},
                  "wall_s": read(f"{res}/nvrtc/{run}.wall").strip()}

def num(entry, key):
    v = entry.get(key) if entry else None
    return v if isinstance(v, (int, float)) else None

targets = []
for name in ("pointwise_gelu", "layernorm_gelu", "softmax"):
    frac = num(bench.get(name, {}).get("kiln"), "frac_copy")
    targets.append({"target": f"{name}: Kiln >= 85% of copy bandwidth",
                    "value": None if frac is None else f"{100 * frac:.1f}%",
                    "met": None if frac is None else frac >= 0.85})
k_ms = num(bench.get("gpt_block_step", {}).get("kiln"), "median_ms")
p_ms = num(bench.get("gpt_block_step", {}).get("pytorch"), "median_ms")
targets.append({"target": "GPT block step: Kiln faster than PyTorch eager",
                "value": None if k_ms is None or p_ms is None else f"{k_ms:.3f} vs {p_ms:.3f} ms",
                "met": None if k_ms is None or p_ms is None else k_ms < p_ms})
for run, limit in (("cold", 150.0), ("warm", 1.0)):
    s = nvrtc.get(run, {}).get("nvrtc_compile", {})
    if s.get("count"):
        targets.append({"target": f"NVRTC {run} < {limit:g} ms/kernel (median)",
                        "value": f"{s['median_ms']:.2f} ms (max {s['max_ms']:.2f}, {s['count']} kernels)",
                        "met": s["median_ms"] < limit})
    elif run == "warm" and "error" not in nvrtc.get("warm", {}) and \
            nvrtc.get("cold", {}).get("nvrtc_compile", {}).get("count"):
        # Every kernel came from the disk cache: nothing was compiled at all.
        targets.append({"target": f"NVRTC {run} < {limit:g} ms/kernel (median)",
                        "value": "0 NVRTC compiles (all cached)", "met": True})
    else:
        targets.append({"target": f"NVRTC {run} < {limit:g} ms/kernel (median)",
                        "value": "no nvrtc compile spans", "met": None})

results = {"gpu": meta.get("gpu", ""), "device_name": meta.get("device_name", ""),
           "emulated": emulated, "scale": meta.get("scale"), "steps": steps, "oracle": oracle,
           "benchmarks": bench, "pytorch": pytorch_note, "nvrtc": nvrtc, "targets": targets}
with open(f"{build}/results.json", "w") as f:
    json.dump(results, f, indent=1)

def cell(v, fmt):
    return "-" if v is None else fmt.format(v)

md = ["# Kiln GPU device check", ""]
md.append(f"- GPU (nvidia-smi): {meta.get('gpu') or 'none found'}")
md.append(f"- Kiln device: {meta.get('device_name') or 'unavailable'}")
if emulated:
    md.append("- **DRY RUN on Kiln's emulated CUDA device (host memory): the benchmark numbers "
              f"below are NOT GPU numbers** (sizes divided by {meta.get('scale')})")
md.append(f"- PyTorch: {pytorch_note or 'not checked'}")
smi = read(f"{res}/nvidia-smi.txt").strip()
if smi:
    md += ["", "```", smi, "```"]
md += ["", "## Steps", "", "| step | status | s | note |", "|---|---|---|---|"]
md += [f"| {s['step']} | {s['status']} | {s['seconds']} | {s['note'].replace('|', '/')} |"
       for s in steps]
if meta.get("no_device"):
    md += ["", "**No CUDA device: kiln run --device cuda says torch.cuda.is_available() is False. "
           "Nothing was checked** (dry run without a GPU: KILN_EMULATE_CUDA=1 gpu/device_check.sh)."]
    with open(f"{build}/results.md", "w") as f:
        f.write("\n".join(md) + "\n")
    sys.exit(0)
passed = sum(o["status"] == "PASS" for o in oracle)
md += ["", f"## Oracle scripts on the device: {passed}/{len(oracle)} pass", ""]
for o in oracle:
    if o["status"] != "PASS":
        md += [f"- **{o['script']}**: {o['status']}", "", "```", o["error"][:1500], "```"]
title = "## Benchmarks" + (" (EMULATED DEVICE: not GPU numbers)" if emulated else "")
md += ["", title, "", "Median ms per step; GB/s of the least a kernel must move; % of the copy bandwidth "
       "measured in the same process; speedup = PyTorch ms / Kiln ms.", "",
       "| benchmark | Kiln ms | Kiln GB/s | Kiln % of copy | PyTorch ms | PyTorch GB/s | "
       "PyTorch % of copy | speedup |", "|---|---|---|---|---|---|---|---|"]

def system_cells(e):
    if e is None:
        return ["not run"] + [""] * 2
    if e["status"] != "ok":
        why = (e.get("error") or "no result").splitlines()
        return [f"failed: {why[-1][:100] if why else ''}".replace("|", "/")] + [""] * 2
    frac = num(e, "frac_copy")
    if e.get("bench") == "copy":
        frac = 1.0
    return [cell(num(e, "median_ms"), "{:.3f}"), cell(num(e, "gbps"), "{:.1f}"),
            cell(None if frac is None else 100 * frac, "{:.1f}%")]

for name in ("copy", "pointwise_gelu", "layernorm_gelu", "softmax", "gpt_block_step"):
    k, p = bench.get(name, {}).get("kiln"), bench.get(name, {}).get("pytorch")
    pcells = system_cells(p) if p or pytorch_note.startswith("available") else ["unavailable", "", ""]
    km, pm = num(k, "median_ms"), num(p, "median_ms")
    speed = cell(pm / km if km and pm else None, "{:.2f}x")
    md.append("| " + " | ".join([name] + system_cells(k) + pcells + [speed]) + " |")
md += ["", "## NVRTC compile time per kernel (\"nvrtc compile\" spans)", "",
       "Cold: an empty KILN_CACHE_DIR; warm: a second run with the same one. Rows by where the "
       "image came from (compiled by NVRTC, the disk cache, memory) follow each run.", "",
       "| run | kernels | median ms | max ms | total ms | run wall s |", "|---|---|---|---|---|---|"]
for run in ("cold", "warm"):
    n = nvrtc.get(run, {})
    s = n.get("nvrtc_compile", {})
    if "error" in n:
        md.append(f"| {run} | {n['error']} | | | | |")
    elif not s.get("count"):
        md.append(f"| {run} | 0 | - | - | - | {n.get('wall_s', '')} |")
    else:
        md.append(f"| {run} | {s['count']} | {s['median_ms']:.2f} | {s['max_ms']:.2f} | "
                  f"{s['total_ms']:.1f} | {n.get('wall_s', '')} |")
    for other, o in n.get("other_spans", {}).items():
        md.append(f"| {run}: {other} | {o.get('count', 0)} | {cell(o.get('median_ms'), '{:.2f}')} | "
                  f"{cell(o.get('max_ms'), '{:.2f}')} | {cell(o.get('total_ms'), '{:.1f}')} | |")
if emulated:
    md.append("\nThe emulated device runs kernels compiled by LLVM on the host: it makes no NVRTC "
              "compiles, so no spans are expected here.")
def compiled_count(run):
    # Images NVRTC really compiled: the "compiled" ones when the spans say where, else all.
    n = nvrtc.get(run, {})
    tagged = {k: v for k, v in n.get("other_spans", {}).items() if k.startswith("nvrtc compile: ")}
    if tagged:
        return tagged.get("nvrtc compile: compiled", {}).get("count", 0)
    return n.get("nvrtc_compile", {}).get("count", 0)

if compiled_count("warm") and compiled_count("warm") >= compiled_count("cold"):
    md.append("\nThe warm run compiled as many kernels with NVRTC as the cold one: no disk cache "
              "took effect.")
md += ["", "## Targets", "", "| target | measured | met |", "|---|---|---|"]
md += [f"| {t['target']} | {t['value'] or '-'} | {'-' if t['met'] is None else ('yes' if t['met'] else 'NO')} |"
       for t in targets]
if emulated:
    md.append("\n(Emulated device: the targets are not meaningful here.)")
with open(f"{build}/results.md", "w") as f:
    f.write("\n".join(md) + "\n")
PYEOF
  if [[ -n ${OUT:-} ]]; then
    mkdir -p "$OUT"
    cp "$BUILD_DIR/results.md" "$BUILD_DIR/results.json" "$OUT/" 2>/dev/null || log "could not copy the results to $OUT"
  fi
}

# An unexpected error still leaves the results of the steps that ran.
# shellcheck disable=SC2317  # called by the trap
on_exit() {
  local rc=$?
  if ! $REPORTED; then
    record device_check aborted 0 "the script stopped with status $rc before its report"
    report
  fi
}
trap on_exit EXIT

# ---- 1. GPU, build, probe -------------------------------------------------------------------

GPU_NAME=""
if command -v nvidia-smi > /dev/null; then
  if run_step nvidia-smi 30 "$RES/nvidia-smi.txt" nvidia-smi; then :; fi
  cat "$RES/nvidia-smi.txt" >&2
  GPU_NAME=$(timeout 20 nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2> /dev/null | head -n 1 || true)
else
  record nvidia-smi absent 0 "nvidia-smi is not on PATH"
fi

cuda_root=()
[[ -d /usr/local/cuda ]] && cuda_root=(-DCUDAToolkit_ROOT=/usr/local/cuda)
if ! run_step configure 90 "$RES/configure.log" cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
  -DKILN_BUILD_INSPECT=OFF -DKILN_BUILD_BENCH=OFF -DKILN_BUILD_TESTS=ON "${cuda_root[@]}"; then
  tail -n 30 "$RES/configure.log" >&2
  report
  exit 1
fi
if ! run_step build 270 "$RES/build.log" cmake --build "$BUILD_DIR" -j"$JOBS" --target kiln kiln_outcmp gpu_codegen_tests; then
  grep -m 20 -E 'error|Error' "$RES/build.log" >&2 || tail -n 30 "$RES/build.log" >&2
  # The codegen tests are not needed for the rest: go on if kiln itself built.
  [[ -x $KILN && -x $OUTCMP ]] || { report; exit 1; }
fi

PROBE_DIR=$RES/probe
mkdir -p "$PROBE_DIR"
cat > "$PROBE_DIR/probe.py" << 'EOF'
import torch
print(torch.cuda.is_available())
if torch.cuda.is_available():
    print(torch.cuda.get_device_name())
    print(torch.ones(4).sum().item())
EOF
probe_rc=0
run_step probe 30 "$RES/probe.txt" "$KILN" run --device cuda "$PROBE_DIR/probe.py" || probe_rc=$?
cat "$RES/probe.txt" >&2
if ((probe_rc != 0)); then
  report
  echo "device_check: kiln run of the CUDA probe failed (exit $probe_rc); see $RES/probe.txt" >&2
  exit 1
fi
if [[ $(head -n 1 "$RES/probe.txt") != True ]]; then
  why="no CUDA device: kiln run --device cuda says torch.cuda.is_available() is False"
  if grep -q "no CUDA toolkit found" "$RES/configure.log"; then
    why+=" (kiln was built without its GPU backend: configure found no CUDA toolkit)"
  fi
  record "cuda available" no 0 "$why"
  printf '{"gpu": "%s", "device_name": "", "emulated": false, "no_device": true}\n' "$GPU_NAME" > "$RES/meta.json"
  report
  echo "device_check: no CUDA device (torch.cuda.is_available() is False under kiln run --device cuda);" \
    "nothing was checked. For a dry run without a GPU: KILN_EMULATE_CUDA=1 $0" >&2
  exit 3
fi
DEVICE_NAME=$(sed -n 2p "$RES/probe.txt")
EMULATED=false
[[ ${DEVICE_NAME,,} == *emulated* ]] && EMULATED=true
if $EMULATED; then SCALE=${SCALE:-1024}; else SCALE=${SCALE:-1}; fi
printf '{"gpu": "%s", "device_name": "%s", "emulated": %s, "scale": %s}\n' \
  "$GPU_NAME" "$DEVICE_NAME" "$EMULATED" "$SCALE" > "$RES/meta.json"
log "device: $DEVICE_NAME (emulated: $EMULATED, benchmark sizes / $SCALE)"

# ---- 2. The oracle suite on the device, and the codegen tests ------------------------------

# One oracle script, as tests/oracle/run_oracle.cmake runs it in cuda mode: from its directory,
# device suffixes of tensor reprs dropped, then compared number by number.
# shellcheck disable=SC2317  # called through xargs
oracle_one() {
  local script=$1 expected=$2 limit=$3 name rc=0
  name=$(basename "$script" .py)
  local actual=$RES/oracle/$name.out err=$RES/oracle/$name.stderr
  (cd "$(dirname "$script")" && timeout -k 5 "$limit" "$KILN" run --jit=auto --device cuda "$(basename "$script")") \
    > "$actual.raw" 2> "$err" || rc=$?
  sed "s/, device='cuda:0'//g" "$actual.raw" > "$actual"
  if ((rc != 0)); then
    echo FAIL > "$RES/oracle/$name.status"
    { echo "kiln run exited with $rc$( ((rc == 124)) && echo " (timeout ${limit}s)")"; head -n 15 "$err"; } > "$RES/oracle/$name.err"
  elif ! "$OUTCMP" "$expected" "$actual" > "$RES/oracle/$name.cmp" 2>&1; then
    echo FAIL > "$RES/oracle/$name.status"
    { echo "output differs from $(basename "$expected")"; head -n 15 "$RES/oracle/$name.cmp"; } > "$RES/oracle/$name.err"
  else
    echo PASS > "$RES/oracle/$name.status"
  fi
}
export -f oracle_one

oracle_list=$RES/oracle/list.txt
: > "$oracle_list"
for script in "$ROOT"/tests/oracle/*.py; do
  case $(basename "$script") in recorder_shim.py | torch_methods.py | torch_repr.py) continue ;; esac
  echo "$script ${script%.py}.expected" >> "$oracle_list"
done
for name in train_mlp train_gpt modules; do
  echo "$ROOT/samples/$name.py $ROOT/tests/oracle/samples/$name.expected" >> "$oracle_list"
done

# The codegen tests (mostly NVRTC, one core) run beside the oracle scripts.
timeout -k 5 "$(step_limit_min5 90)" "$BUILD_DIR/tests/gpu/gpu_codegen_tests" > "$RES/codegen_tests.log" 2>&1 &
codegen_pid=$!
limit=$(step_limit 60)
t0=$SECONDS
if ((limit >= 5)); then
  # shellcheck disable=SC2016  # $0 and $1 are the inner shell's
  xargs -P "$JOBS" -L 1 bash -c 'oracle_one "$0" "$1" '"$limit" < "$oracle_list" || true
  n_fail=$(cat "$RES"/oracle/*.status 2> /dev/null | grep -c FAIL || true)
  n_all=$(wc -l < "$oracle_list")
  if ((n_fail == 0)); then st=pass; else st=fail; fi
  record oracle "$st" $((SECONDS - t0)) "$((n_all - n_fail))/$n_all scripts pass$( ((n_fail)) && printf '; failing: %s' "$(grep -l FAIL "$RES"/oracle/*.status | xargs -n 1 basename | sed 's/.status//' | tr '\n' ' ')")"
else
  record oracle skipped 0 "time budget spent"
fi
rc=0
wait "$codegen_pid" || rc=$?
if ((rc == 0)); then
  record gpu_codegen_tests pass $((SECONDS - t0)) "$(grep -m 1 -E '^\[  PASSED' "$RES/codegen_tests.log" || true)"
else
  record gpu_codegen_tests fail $((SECONDS - t0)) "exit $rc; $(grep -E '^\[  FAILED|Failure' "$RES/codegen_tests.log" | head -n 4 || true)"
fi

# ---- 3. Benchmarks: Kiln and PyTorch on the same device ------------------------------------

if [[ -z ${PYTHON:-} ]]; then
  PYTHON=python3
  if ! python3 -c 'import torch' 2> /dev/null && [[ -x /usr/bin/python3 ]]; then PYTHON=/usr/bin/python3; fi
fi
pytorch_ok=false
if torch_info=$(timeout "$(step_limit_min5 60)" "$PYTHON" -c 'import torch; print(torch.__version__); assert torch.cuda.is_available(), "torch.cuda.is_available() is False"; print(torch.cuda.get_device_name())' 2>&1); then
  pytorch_ok=true
  echo "available: $PYTHON, torch $(echo "$torch_info" | tr '\n' ' ')" > "$RES/pytorch.txt"
else
  echo "unavailable ($PYTHON: $(echo "$torch_info" | tail -n 1))" > "$RES/pytorch.txt"
fi
log "pytorch: $(cat "$RES/pytorch.txt")"

for bench in copy_bandwidth pointwise_gelu layernorm_gelu softmax gpt_block_step; do
  script=$ROOT/bench/gpu/$bench.py
  # The JSON names the copy benchmark "copy"; its files keep that name for the report.
  key=$bench
  [[ $bench == copy_bandwidth ]] && key=copy
  run_step "bench $key kiln" 60 "$RES/bench/$key.kiln.out" \
    "$KILN" run --device cuda "$script" "$SCALE" || cp "$RES/bench/$key.kiln.out" "$RES/bench/$key.kiln.err" || true
  if $pytorch_ok; then
    run_step "bench $key pytorch" 45 "$RES/bench/$key.pytorch.out" \
      "$PYTHON" "$script" "$SCALE" || cp "$RES/bench/$key.pytorch.out" "$RES/bench/$key.pytorch.err" || true
  fi
done

# ---- 4. NVRTC compile time per kernel, cold and warm ---------------------------------------

# A training run generates many distinct kernels; the second run shares the first's cache dir.
NVRTC_CACHE=$RES/nvrtc/cache
mkdir -p "$NVRTC_CACHE"
for run in cold warm; do
  t0=$SECONDS
  # shellcheck disable=SC2016  # $ROOT, $KILN and $1 are the inner shell's
  KILN_CACHE_DIR=$NVRTC_CACHE run_step "nvrtc $run" 60 "$RES/nvrtc/$run.log" \
    bash -c 'cd "$ROOT/samples" && "$KILN" run --device cuda --trace "$1" train_gpt.py' _ "$RES/nvrtc/$run.trace.json" || true
  echo $((SECONDS - t0)) > "$RES/nvrtc/$run.wall"
done

# ---- 5. Results -----------------------------------------------------------------------------

report
log "results: $BUILD_DIR/results.md"
cat "$BUILD_DIR/results.md" >&2
if cut -f 2 "$RES/steps.tsv" | grep -q -E '^(fail|timeout|skipped)$'; then exit 1; fi
exit 0
