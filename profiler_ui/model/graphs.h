// The compiled graphs of a session: each graph's region, IR text and its
// parsed nodes, fused groups (the fusion plan), guards seen failing, compile
// time, and the kernels that ran for it.
//
// Sources in the recording (see jit/jit_events.cpp):
//   "compile <region>" Span (cat compile)  -> region, compile time, graph_id
//   "graph" Log (graph_id, text)          -> IR text
//   "codegen graph N" Span (text = plan)  -> fusion plan: "kernel NAME [k nodes, s stores]" / "eager OP"
//   "guard checks, graph N" / "guard ns, graph N" Counters -> guard cost
//   "guards" Log (graph_id, text)         -> the checks its cache entry makes
//   "run graph N" Span (graph_id)         -> one compiled run: runs, time per run
//   Recompile (graph_id, stack = region)  -> the graph compiled for it
//   fused kernels ("fused_*" Kernel events) carry their graph_id; recordings
//   made before they did are attributed by name to the graphs whose plan
//   lists them, and older ones lack guards and run spans (runs are then
//   estimated from kernel calls).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profiler_ui/model/session.h"

namespace kiln::inspect {

// A source position in the user's code (or the prelude: "<prelude>/nn.py").
struct SourceLoc {
  std::string file;
  int32_t line = 0;
  int32_t col = 0;
  bool known() const { return !file.empty() && line > 0; }
  std::string str() const;  // "file:line" ("" when unknown)
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
  friend auto operator<=>(const SourceLoc&, const SourceLoc&) = default;
};

// One node of a graph's IR: "  %2: b8[64] = eq(%0, %1)   # file:85:36".
struct GraphNode {
  int index = 0;        // position among the graph's nodes (0-based)
  std::string value;    // "%2"
  std::string type;     // "b8[64]"
  std::string op;       // "eq"
  std::string text;     // the line, trimmed, without the location comment
  SourceLoc loc;        // from the trailing "# file:line:col" comment
};

// One step of the fusion plan: a fused kernel or an op run on its own.
struct FusedGroup {
  bool fused = false;         // "kernel ..." line; false: "eager OP"
  std::string kernel;         // fused kernel name, or the eager op's name
  int nodes = 0;              // nodes fused (1 for eager)
  int stores = 0;
  std::vector<int> node_indices;  // which GraphNodes it holds (derived from the name; may be partial)
};

struct GraphInfo {
  uint64_t id = 0;
  std::string region;          // "loop at samples/x.py:60 in train", "Module.__call__"
  uint64_t hash = 0;           // of the IR with locations stripped: matches across sessions
  std::string ir_text;         // as recorded; empty when the recording lacks it
  std::vector<GraphNode> nodes;
  std::vector<FusedGroup> plan;  // empty when the recording lacks the plan (Chrome JSON)
  std::string plan_text;
  int op_count = 0;            // nodes in the IR
  int64_t compile_ts_ns = 0;   // start of the "compile <region>" span
  int64_t compile_ns = 0;      // capture+build time ("compile <region>" span)
  int64_t codegen_ns = 0;      // fusion + kernel compile ("codegen graph N" span, LLVM phases inside)
  bool after_recompile = false;  // compiled because a guard failed (a Recompile event came first)
  std::vector<std::string> failed_guards;  // guards that failed in this graph's region, in order
  double guard_checks = 0;     // last "guard checks, graph N" counter
  double guard_ns = 0;         // last "guard ns, graph N" counter
  std::vector<std::string> guards;  // what its cache entry checks, one line each; empty when not recorded
  // Runs of this graph's fused kernels attributed to it (see SessionIndex).
  uint64_t kernel_calls = 0;
  int64_t kernel_ns = 0;
  // Runs: measured ("run graph N" spans, eager steps inside included) when
  // runs_measured, else estimated as the calls of its most frequent fused kernel.
  uint64_t runs = 0;
  bool runs_measured = false;
  int64_t run_ns = 0;          // total time of its measured runs (0 when estimated)
  std::vector<SourceLoc> source_lines;  // distinct node locations, sorted
};

// Parsing helpers, exposed for tests and for the compare view.
std::vector<GraphNode> parse_graph_ir(std::string_view ir_text);
std::vector<FusedGroup> parse_fusion_plan(std::string_view plan_text);
// "file:line" or "file:line:col" (file may hold ':'); unknown -> {}.
SourceLoc parse_source_loc(std::string_view text);
// FNV-1a of the IR with "# loc" comments and runs of spaces removed.
uint64_t graph_ir_hash(std::string_view ir_text);
// The nodes a fused kernel named "fused_a_b_c" holds, matched in order
// against the graph's node ops ('.' in op names reads as '_'; "_etc" ends it).
std::vector<int> nodes_of_fused_kernel(std::string_view kernel_name, const std::vector<GraphNode>& nodes);
// The same, skipping nodes already marked in `claimed` (sized like `nodes`)
// and marking those it takes, so a plan listing one name twice maps each
// kernel to its own nodes.
std::vector<int> nodes_of_fused_kernel(std::string_view kernel_name, const std::vector<GraphNode>& nodes,
                                       std::vector<bool>* claimed);

}  // namespace kiln::inspect
