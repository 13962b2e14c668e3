// A cached graph on the LLVM backend. Per pattern of live values (which
// outputs something still refers to: jit/liveness.h) it holds a plan: the
// graph passes and fusion applied (jit/fusion.h), its kernels compiled on the
// compile queue (from the kernel cache or LLVM). A run executes the plan's
// steps, fused kernels and eager nodes in order.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>

#include "jit/compile_queue.h"
#include "jit/graph.h"
#include "jit/runtime.h"

namespace kiln::jit {

struct CodegenOptions {
  bool all_live = false;  // KILN_JIT_CHECK compares every node's output: store them all
  bool async = true;      // compile on the queue (else before the first run)
  std::string dump_dir;   // --dump-dir
};

class CompiledGraph {
 public:
  explicit CompiledGraph(std::shared_ptr<const Graph> graph);
  ~CompiledGraph();

  // Runs `ops` (a graph of this structure: its signature matched). False,
  // with nothing run, while the plan compiles or when it cannot be compiled:
  // the caller then runs the ops on the reference executor. Fills report's
  // kernels, plan and compile fields.
  bool run(std::span<const lazy::PendingOp> ops, GraphReport& report, const CodegenOptions& opt, CompileQueue& queue);

 private:
  struct Plan;
  const Plan* plan_for(std::span<const lazy::PendingOp> ops, GraphReport& report, const CodegenOptions& opt,
                       CompileQueue& queue);
  const Plan* usable(const Plan& p, GraphReport& report);

  std::shared_ptr<const Graph> graph_;
  std::unordered_map<uint64_t, std::shared_ptr<Plan>> plans_;
  bool failed_ = false;  // a kernel did not compile: the reference executor runs the graph
};

}  // namespace kiln::jit
