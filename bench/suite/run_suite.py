"""Runs the issue-6 suite, one process per system and workload, and prints one markdown table.

Called by bench/run.sh (which builds the fused loops and the PyTorch virtual environment); needs
only the Python standard library. Every workload script prints
`RESULT <name> median_ms=... bytes=... cold_ms=a,b,c`; this collects those lines, takes the
median over --procs processes, and writes the table and the raw numbers (JSON).
"""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SUITE = os.path.dirname(os.path.abspath(__file__))
THREADS = "2"
TORCH_ENV = {
    # PyTorch at its best here: glibc would otherwise hand every freed large tensor back to the
    # kernel and fault it in again on the next call.
    "GLIBC_TUNABLES": "glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=68719476736",
    "OMP_NUM_THREADS": THREADS,
}

# key, label, script, script args after the mode, name in RESULT lines, memory-bound
WORKLOADS = [
    ("pointwise", "(a) pointwise tanh-GELU of x*w+b, 4M f32", "pointwise_gelu.py", [],
     "pointwise_gelu", True),
    ("layernorm", "(b) layer_norm + GELU [8192,1024]", "layernorm_gelu.py", [],
     "layernorm_gelu", True),
    ("softmax", "(c) softmax [4096,1024]", "softmax.py", [], "softmax", True),
    ("mlp", "(d) MLP 784-1024-1024-10 SGD step, batch 256", "mlp_step.py", ["256"],
     "mlp_step", False),
    ("gpt", "(e) GPT block AdamW step (d256, 4 heads, seq 128, batch 16)", "gpt_block_step.py",
     [], "gpt_block_step", False),
    ("mlp_b1", "(f) MLP SGD step, batch 1 (overhead)", "mlp_step.py", ["1"], "mlp_step_b1",
     False),
]

RESULT_RE = re.compile(r"^RESULT (\S+) (.*)$", re.M)
# Kiln's compile time: in the Chrome trace of the compile runs, the "compile" category's spans
# named "compile <region>" (capture) and "codegen graph <n>" (fusion, lowering and LLVM, whose
# `llvm *` spans nest inside). Read from the trace, not from the `KILN_LOGS=perf` table, which
# lists only the costliest spans and so drops a warm run's small ones.
def compile_spans(trace_path):
    try:
        with open(trace_path) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    events = data["traceEvents"] if isinstance(data, dict) else data
    durs = [e.get("dur", 0) for e in events
            if e.get("ph") == "X" and e.get("cat") == "compile"
            and (e.get("name", "").startswith("compile ") or e.get("name", "").startswith("codegen graph"))]
    return len(durs), sum(durs) / 1000.0


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def wait_for(path, limit_s):
    # The kiln binary may be relinked under us by a concurrent build: wait for it to come back.
    waited = 0
    while not os.access(path, os.X_OK):
        if waited >= limit_s:
            raise SystemExit(f"run_suite: {path} is missing (waited {limit_s} s)")
        if waited == 0:
            log(f"  waiting for {path} to reappear ...")
        time.sleep(15)
        waited += 15


def idle_fraction(sample_s=1.0):
    def read():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return v[3] + v[4], sum(v)  # idle + iowait, total
    i0, t0 = read()
    time.sleep(sample_s)
    i1, t1 = read()
    return (i1 - i0) / max(1, t1 - t0)


def wait_quiet(limit_s):
    # Other work on a 2-core machine wrecks OpenMP timings (spinning threads lose their core),
    # so each process starts only once the machine has been idle for a moment, or after limit_s.
    waited = 0.0
    idle = idle_fraction()
    while idle < 0.9 and waited < limit_s:
        if waited == 0:
            log(f"  machine busy ({100 * (1 - idle):.0f}% CPU in use); waiting up to {limit_s} s")
        time.sleep(4)
        waited += 5
        idle = idle_fraction()
    return idle


def run(cmd, env_extra, timeout_s, kiln=None, quiet_s=0):
    env = dict(os.environ)
    env.update(env_extra)
    idle_before = wait_quiet(quiet_s) if quiet_s else idle_fraction()
    load_before = os.getloadavg()[0]
    for attempt in range(3):
        if kiln:
            wait_for(kiln, 900)
        t0 = time.time()
        try:
            p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return {"error": f"timed out after {timeout_s} s", "cmd": cmd}
        wall = time.time() - t0
        # A binary replaced mid-run fails to start (126/127) or dies oddly: retry once it's back.
        if kiln and p.returncode in (126, 127, -7, -11) and attempt < 2:
            log(f"  {cmd[0]} exited {p.returncode}; retrying")
            continue
        break
    out = {"cmd": cmd, "rc": p.returncode, "wall_s": round(wall, 2),
           "load_before": round(load_before, 2), "idle_before": round(idle_before, 3),
           "stdout": p.stdout, "stderr_tail": p.stderr[-2000:]}
    m = RESULT_RE.search(p.stdout)
    if p.returncode != 0 or not m:
        out["error"] = f"exit {p.returncode}, " + (p.stderr.strip().splitlines() or ["no output"])[-1]
        return out
    out["name"] = m.group(1)
    fields = dict(kv.split("=", 1) for kv in m.group(2).split())
    out["median_ms"] = float(fields["median_ms"])
    out["bytes"] = int(fields["bytes"])
    if "cold_ms" in fields:
        out["cold_ms"] = [float(c) for c in fields["cold_ms"].split(",")]
        # What the warm-up calls took beyond as many warm calls: the cold-start (compile) cost.
        out["cold_excess_ms"] = sum(out["cold_ms"]) - len(out["cold_ms"]) * out["median_ms"]
    if "max_err" in fields:
        out["max_err"] = float(fields["max_err"])
    if "--trace" in cmd:
        spans = compile_spans(cmd[cmd.index("--trace") + 1])
        if spans and spans[0]:
            out["compile_spans"], out["compile_ms"] = spans
    return out


def kiln_backend(kiln):
    # Whether this build generates kernels (the `output_code` log has something to say) or runs
    # graphs on the reference executor, each node its eager kernel.
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write("import torch\nx = torch.ones(64)\n\n\ndef f(x):\n    return torch.tanh(x * 2 + 1)\n\n\n"
                "for i in range(6):\n    y = f(x)\nprint(y.sum().item())\n")
    try:
        p = subprocess.run([kiln, "run", f.name], env=dict(os.environ, KILN_LOGS="output_code"),
                           capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(f.name)
    return "JIT generates kernels" if "output_code" in p.stderr else "JIT on the reference executor"


def median_of(runs, key):
    vals = [r[key] for r in runs if key in r and "error" not in r]
    return statistics.median(vals) if vals else None


def measure(args, workload):
    key, _, script, extra, name, memory_bound = workload
    path = os.path.join(SUITE, script)
    trace = os.path.join(args.out, f"{key}.kiln-compile.json")
    res = {}
    systems = []
    if memory_bound:
        systems.append(("fused", [args.fused, name], {"OMP_NUM_THREADS": THREADS}, None))
    systems += [
        ("kiln_interp", [args.kiln, "run", "--jit=off", "--threads", THREADS, path, "eager"] + extra,
         {}, args.kiln),
        ("kiln_jit", [args.kiln, "run", "--threads", THREADS, path, "eager"] + extra, {}, args.kiln),
        # Separate runs for Kiln's compile time (writing the trace would add a little to the timings):
        # cold, with an empty kernel cache, then warm from the disk cache the cold run filled.
        ("kiln_compile", [args.kiln, "run", "--threads", THREADS, "--trace", trace, path, "eager"] + extra,
         {"KILN_ASYNC_COMPILE": "0"}, args.kiln),
        ("kiln_compile_warm", [args.kiln, "run", "--threads", THREADS, "--trace", trace, path, "eager"] + extra,
         {"KILN_ASYNC_COMPILE": "0"}, args.kiln),
        ("torch_eager", [args.python, path, "eager"] + extra, TORCH_ENV, None),
        ("torch_compile", [args.python, path, "compile"] + extra, TORCH_ENV, None),
    ]
    # Kiln's kernel cache starts empty for each workload, as Inductor's does for each process.
    kiln_cache = tempfile.mkdtemp(prefix="bench-kiln-cache-")
    for sys_key, cmd, env, kiln in systems:
        if args.skip and sys_key in args.skip:
            continue
        procs = 1 if sys_key.startswith("kiln_compile") else args.procs
        if kiln:
            env = dict(env, KILN_CACHE_DIR=kiln_cache)
            if sys_key in ("kiln_interp", "kiln_jit", "kiln_compile"):
                shutil.rmtree(kiln_cache, ignore_errors=True)
                os.makedirs(kiln_cache)
        runs = []
        for i in range(procs):
            env_i = dict(env)
            cache = None
            if sys_key == "torch_compile":
                # A fresh Inductor cache per process, so its compile time is a cold one like ours.
                cache = tempfile.mkdtemp(prefix="bench-inductor-")
                env_i["TORCHINDUCTOR_CACHE_DIR"] = cache
                env_i["TRITON_CACHE_DIR"] = os.path.join(cache, "triton")
            r = run(cmd, env_i, args.timeout, kiln, args.quiet_wait)
            if cache:
                shutil.rmtree(cache, ignore_errors=True)
            runs.append(r)
            log(f"  {key:10s} {sys_key:13s} #{i + 1}: " +
                (r["error"] if "error" in r else
                 f"{r['median_ms']:.3f} ms (wall {r['wall_s']} s, idle before "
                 f"{100 * r['idle_before']:.0f}%)"))
        res[sys_key] = {"runs": runs,
                        "median_ms": median_of(runs, "median_ms"),
                        "bytes": median_of(runs, "bytes"),
                        "cold_excess_ms": median_of(runs, "cold_excess_ms"),
                        "compile_ms": median_of(runs, "compile_ms"),
                        "compile_spans": median_of(runs, "compile_spans"),
                        "max_err": median_of(runs, "max_err"),
                        "errors": [r["error"] for r in runs if "error" in r]}
    shutil.rmtree(kiln_cache, ignore_errors=True)
    return res


def fmt_ms(ms):
    if ms is None:
        return "—"
    if ms >= 100:
        return f"{ms:.0f} ms"
    if ms >= 10:
        return f"{ms:.1f} ms"
    return f"{ms:.2f} ms"


def fmt_time(ms):
    return f"{ms / 1000:.1f} s" if ms >= 1000 else fmt_ms(ms)


def cell(res, sys_key, eager_ms):
    r = res.get(sys_key)
    if r is None:
        return "—"
    if r["median_ms"] is None:
        return "error" if r["errors"] else "—"
    text = fmt_ms(r["median_ms"])
    if eager_ms and sys_key != "torch_eager":
        text += f" ({eager_ms / r['median_ms']:.2f}x)"
    return text


def gbps(res, sys_key):
    r = res.get(sys_key)
    if not r or r["median_ms"] is None or not r["bytes"]:
        return None
    return r["bytes"] / (r["median_ms"] / 1000.0) / 1e9


def table(args, results, copy):
    copy_ref = copy.get("copy_32mib")
    lines = [
        "| workload | Kiln interpreter | Kiln JIT | hand-fused C++ | PyTorch eager | torch.compile "
        "(Inductor) | compile: Kiln cold / Kiln warm (disk cache) / Inductor cold | "
        f"GB/s (% of copy): Kiln JIT / eager / Inductor / fused; copy {copy_ref:.1f} |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    speedups = {"kiln_jit": [], "kiln_interp": [], "torch_compile": [], "fused": []}
    for w in WORKLOADS:
        key, label, memory_bound = w[0], w[1], w[5]
        if key not in results:
            continue
        res = results[key]
        eager_ms = res.get("torch_eager", {}).get("median_ms")
        for s in speedups:
            ms = res.get(s, {}).get("median_ms")
            if eager_ms and ms:
                speedups[s].append(eager_ms / ms)
        kc = res.get("kiln_compile", {}).get("compile_ms")
        kw = res.get("kiln_compile_warm", {}).get("compile_ms")
        ic = res.get("torch_compile", {}).get("cold_excess_ms")
        comp = " / ".join(fmt_time(v) if v is not None else "—" for v in (kc, kw, ic))
        if kc and ic:
            comp += f" ({ic / kc:.0f}x)"
        bw = "—"
        if memory_bound:
            parts = []
            for s in ("kiln_jit", "torch_eager", "torch_compile", "fused"):
                g = gbps(res, s)
                parts.append("—" if g is None else f"{g:.1f} ({100 * g / copy_ref:.0f}%)")
            bw = " / ".join(parts)
        lines.append(f"| {label} | {cell(res, 'kiln_interp', eager_ms)} | "
                     f"{cell(res, 'kiln_jit', eager_ms)} | "
                     f"{cell(res, 'fused', eager_ms) if memory_bound else 'n/a'} | "
                     f"{cell(res, 'torch_eager', None)} | {cell(res, 'torch_compile', eager_ms)} | "
                     f"{comp} | {bw} |")

    def geo(v):
        return f"{math.exp(sum(math.log(x) for x in v) / len(v)):.2f}x over {len(v)} rows" if v else "—"

    lines.append(f"| **geomean vs PyTorch eager** | {geo(speedups['kiln_interp'])} | "
                 f"**{geo(speedups['kiln_jit'])}** | {geo(speedups['fused'])} | 1x | "
                 f"{geo(speedups['torch_compile'])} | | |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kiln", required=True)
    ap.add_argument("--python", required=True, help="the venv's python with PyTorch")
    ap.add_argument("--fused", required=True)
    ap.add_argument("--procs", type=int, default=1,
                    help="processes per system and workload (each reports a median of 7 repeats)")
    ap.add_argument("--only", default="", help="comma-separated workload keys: " +
                    ",".join(w[0] for w in WORKLOADS))
    ap.add_argument("--skip", default="", help="comma-separated systems to leave out")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per process")
    ap.add_argument("--quiet-wait", type=int, default=300,
                    help="seconds to wait, before each process, for the CPUs to be idle (0: no wait)")
    ap.add_argument("--out", required=True, help="directory for results.md and results.json")
    args = ap.parse_args()
    args.skip = set(filter(None, args.skip.split(",")))
    # Snapshot the binary: a concurrent rebuild must not change Kiln between two rows.
    wait_for(args.kiln, 900)
    snapshot = os.path.join(args.out, "kiln")
    os.makedirs(args.out, exist_ok=True)
    shutil.copy2(args.kiln, snapshot)
    log(f"kiln: {args.kiln} (built {time.ctime(os.path.getmtime(args.kiln))}), run as {snapshot}")
    args.kiln = snapshot
    only = set(filter(None, args.only.split(",")))
    os.makedirs(args.out, exist_ok=True)

    log("copy bandwidth (fused copy) ...")
    copy = {}
    p = subprocess.run([args.fused, "copy"], env=dict(os.environ, OMP_NUM_THREADS=THREADS),
                       capture_output=True, text=True, check=True)
    for m in RESULT_RE.finditer(p.stdout):
        f = dict(kv.split("=", 1) for kv in m.group(2).split())
        copy[m.group(1)] = int(f["bytes"]) / (float(f["median_ms"]) / 1000.0) / 1e9

    info = subprocess.run([args.python, "-c",
                           "import torch; print(torch.__version__, torch.backends.mkl.is_available(),"
                           " torch.backends.mkldnn.is_available())"],
                          capture_output=True, text=True)
    torch_info = info.stdout.strip() or info.stderr.strip().splitlines()[-1]
    kiln_version = subprocess.run([args.kiln, "--version"], capture_output=True,
                                  text=True).stdout.strip()
    kiln_version += f" ({kiln_backend(args.kiln)})"
    cpu = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break

    results = {}
    started = time.time()
    for w in WORKLOADS:
        if only and w[0] not in only:
            continue
        log(f"{w[1]} ...")
        results[w[0]] = measure(args, w)

    idles = [r["idle_before"] for res in results.values() for s in res.values()
             for r in s["runs"] if "idle_before" in r] or [idle_fraction()]
    header = [
        f"Date: {time.strftime('%Y-%m-%d')}; CPU: {cpu}, {os.cpu_count()} cores; "
        f"{kiln_version}; PyTorch (version, MKL, oneDNN): {torch_info}; {THREADS} threads "
        f"everywhere; suite wall time {time.time() - started:.0f} s; "
        f"{args.procs} process(es) per system, each the median of 7 timed repeats; "
        f"CPU idle in the second before each process: {100 * min(idles):.0f}% at worst "
        f"(median {100 * statistics.median(idles):.0f}%).",
        "Copy bandwidth (memcpy on 2 threads, bytes read + written): " +
        ", ".join(f"{k[5:].replace('mib', ' MiB')} source {v:.1f} GB/s" for k, v in copy.items()) +
        ". GB/s columns are against the 32 MiB copy (the footprint of rows a and b).",
        "",
    ]
    md = "\n".join(header) + table(args, results, copy) + "\n"
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(md)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"copy_gbps": copy, "cpu": cpu, "torch": torch_info, "kiln": kiln_version,
                   "results": results}, f, indent=1)
    print(md)


if __name__ == "__main__":
    main()
