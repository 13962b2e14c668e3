// The JIT's events: what `kiln explain` reports, recorded as it happens so
// every sink sees it (Chrome trace, live stream, KILN_LOGS). Each function is
// a no-op when no trace session records.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/lang/vm.h"
#include "jit/fusion.h"
#include "jit/guards.h"
#include "jit/llvm_backend.h"
#include "jit/runtime.h"

namespace kiln::jit::events {

// cut_graph: the graph that ended at the break (0: it ran uncompiled).
void graph_break(const BreakReport& b, lang::FrameRef where, uint64_t cut_graph);
// new_graph: the id of the graph compiled for it, in `region` (the Recompile event's stack).
void recompile(const RecompileReport& r, size_t entries, lang::FrameRef where, uint64_t new_graph,
               const std::string& region);
// entries: graphs the region's cache holds (at the limit: nothing is compiled, a storm).
void guard_fail(const RecompileReport& r, lang::FrameRef where, size_t entries, const std::string& region);
// A `compile <region>` span from start_ns to now, and the graph's IR as a `graph` log.
void compiled(const std::string& region, const GraphReport& g, int64_t start_ns);
// What a graph's cache entry checks before it is reused, as a `guards` log
// (graph_id; one line per tensor input, constant and Python number, then the
// structure checks). `site_name` names a PendingOp::site ("model.py:12").
void guards(uint64_t graph_id, const Signature& sig, std::span<const lazy::PendingOp> ops,
            std::string (*site_name)(uint32_t site));
void log(const char* name, const std::string& text);
// The LLVM backend: a `codegen graph N` span from start_ns to now with the plan as its text;
// each kernel compiled for graph_id (an `output_code` log, detail = the kernel's name: its kernel
// IR, and LLVM IR and assembly when output_code is logged); each fused kernel run as a Kernel
// event with bytes, flops and its graph's id; each compiled run of a graph as a `run graph N`
// span around its steps (a = fused kernels launched, b = eager steps).
void codegen(const GraphReport& g, int64_t start_ns);
void kernel_compiled(const kir::Kernel& k, const CompiledKernel& ck, uint64_t graph_id);
void fused_kernel(const FusedKernel& fk, std::span<const lazy::PendingOp> ops, int64_t start_ns,
                  uint64_t graph_id);
// An mm run with its epilogue kernel's work as post-ops (jit/matmul_epilogue.h): a Kernel event
// named after both ("fused_mm_add_relu"), the product's flops and both steps' bytes.
void matmul_epilogue(const MatmulEpilogue& e, const FusedKernel& fk, std::span<const lazy::PendingOp> ops,
                     int64_t start_ns, uint64_t graph_id);
void graph_run(uint64_t graph_id, int64_t start_ns, uint64_t kernels, uint64_t eager_steps);
// The GPU backend: an `nvrtc compile` span (text = the kernel's name; `where` says whether the
// image came from NVRTC, the disk or memory) and its `output_code` log (kernel IR, CUDA C, PTX);
// and a `cuda launch` span on the host whose flow_id links it to the kernel's GPU execution.
void gpu_kernel_compiled(const kir::Kernel& k, const std::string& cuda_source, const std::string& ptx,
                         int64_t start_ns, const std::string& where);
void gpu_launch(const kir::Kernel& k, int64_t start_ns, uint64_t flow_id);
// A GPU kernel timed by CUDA events (CUPTI unavailable): its GpuKernel event on device `device`'s lane.
void gpu_kernel_timed(const kir::Kernel& k, int device, int64_t start_ns, int64_t dur_ns, uint64_t flow_id);
bool wants_output_code();
void counter(const std::string& name, double value);

}  // namespace kiln::jit::events
