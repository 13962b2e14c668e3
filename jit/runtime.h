// The tracing JIT's runtime: regions, graph caches, graph breaks, recompiles.
//
// Regions are where capture happens: a torch.compile'd call, a function
// called more than KILN_HOT_CALLS times (from that call on), a loop whose
// back-edge ran KILN_HOT_LOOPS times (from the next iteration, the third by
// default, each iteration is a graph).
// While a region is open, dispatch defers tensor ops (core/lazy.h); the
// runtime receives them as one graph at each boundary or break, looks the
// graph up in the cache of where it started (guards: jit/guards.h), compiles
// it on a miss (a recompile when that place already had graphs), and runs it.
// Python runs in the interpreter throughout, so a guard miss costs time,
// never correctness.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::lang {
class Interp;
}

namespace kiln::jit {

enum class Backend : uint8_t {
  Llvm,   // fused kernels compiled with LLVM (jit/fusion.h, jit/llvm_backend.h)
  Eager,  // the reference executor: every node runs its eager kernel
};

struct Options {
  bool auto_regions = true;  // --jit=auto: hot functions and loops become regions
  uint32_t hot_calls = 2;    // KILN_HOT_CALLS
  uint32_t hot_loops = 2;    // KILN_HOT_LOOPS
  size_t cache_limit = 8;    // KILN_CACHE_LIMIT: graphs per place before falling back
  size_t max_graph_ops = 4096;  // KILN_MAX_GRAPH_OPS: a graph this long ends cleanly (unrolled loops)
  bool check = false;           // KILN_JIT_CHECK=1: compare every graph run with the interpreter
  std::string check_fault;      // KILN_JIT_CHECK_FAULT=op: corrupt that op's output (tests the checker)
  Backend backend = Backend::Llvm;  // KILN_BACKEND=llvm|eager; torch.compile(backend="eager") per region
  bool async_compile = true;        // KILN_ASYNC_COMPILE=0: compile kernels before the graph's first run
  std::string dump_dir;             // --dump-dir: each kernel's IR, LLVM IR and assembly as files
};
// Options with the KILN_* environment variables applied; throws kiln::Error
// naming the variable when one is not a positive integer.
Options options_from_env(bool auto_regions);

// What `kiln explain` prints, collected while the script runs.
struct GraphReport {
  uint64_t id = 0;
  std::string start;   // "model.py:12:5" where the graph starts
  size_t ops = 0;
  size_t guards = 0;
  uint64_t hits = 0;   // runs that found this graph in the cache
  uint64_t guard_checks = 0;
  int64_t guard_ns = 0;
  std::string hash;    // hex structural hash
  std::string text;    // the IR (jit/graph.h to_text)
  std::string check_failure;  // KILN_JIT_CHECK: the first node that differed, "" when none
  size_t kernels = 0;         // fused kernels of its (latest) plan; 0: not compiled (yet)
  std::string plan;           // the plan's steps: "kernel fused_mul_add [3 nodes, 1 stores]", "eager mm"
  int64_t compile_ns = 0;     // its first plan: fusion, and kernels from the cache or LLVM
  struct Sources {
    size_t compiled = 0, disk = 0, memory = 0;  // where the first plan's kernels came from
  } kernel_sources;
};
struct RecompileReport {
  std::string start;   // where the graph starts
  std::string guard, expected, actual, fix;
  bool made_dynamic = false;  // automatic dynamic shapes took over
  bool ints_dynamic = false;  // ... of int arguments (the changed sizes as Python ints)
  // "the dim is dynamic from now on" and the like; "" unless made_dynamic.
  std::string dynamic_note() const {
    if (!made_dynamic) return "";
    return ints_dynamic ? "the changed int arguments are dynamic from now on" : "the dim is dynamic from now on";
  }
};
struct BreakReport {
  std::string category;  // lazy::sync_reason_name
  std::string message;
  std::string loc;       // file:line:col
  std::string stack;     // "f (model.py:12) <- main (model.py:30)"
  uint64_t count = 0;
  int64_t interpreted_ns = 0;  // time interpreted after the break until the next graph
};
struct RegionReport {
  std::string kind;  // "compiled", "function", "loop"
  std::string name;  // "Net.forward", "loop at train.py:20"
  std::string loc;
  std::vector<GraphReport> graphs;
  std::vector<RecompileReport> recompiles;
  std::vector<std::string> warnings;  // cache limit hit, ...
  uint64_t eager_runs = 0;            // graphs run uncompiled after the cache limit
};
struct Report {
  std::vector<RegionReport> regions;
  std::vector<BreakReport> breaks;  // most interpreted time first
};

// Installs the JIT into `in` (VM hooks, torch.compile) and the deferred-op
// runner (one per process). The returned runtime lives until uninstall().
class Runtime;
Runtime& install(lang::Interp& in, const Options& options);
void uninstall();
Report report(const Runtime& rt);

// `kiln explain` text and JSON.
std::string format_report(const Report& r);
std::string report_json(const Report& r);

}  // namespace kiln::jit
