// The JIT's events: what `kiln explain` reports, recorded as it happens so
// every sink sees it (Chrome trace, live stream, KILN_LOGS). Each function is
// a no-op when no trace session records.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/lang/vm.h"
#include "jit/fusion.h"
#include "jit/llvm_backend.h"
#include "jit/runtime.h"

namespace kiln::jit::events {

void graph_break(const BreakReport& b, lang::FrameRef where);
void recompile(const RecompileReport& r, size_t entries, lang::FrameRef where);
void guard_fail(const RecompileReport& r, lang::FrameRef where);
// A `compile <region>` span from start_ns to now, and the graph's IR as a `graph` log.
void compiled(const std::string& region, const GraphReport& g, int64_t start_ns);
void log(const char* name, const std::string& text);
// The LLVM backend: a `codegen graph N` span from start_ns to now with the plan as its text;
// each kernel compiled (its kernel IR, and LLVM IR and assembly when output_code is logged);
// each fused kernel run as a Kernel event with bytes and flops.
void codegen(const GraphReport& g, int64_t start_ns);
void kernel_compiled(const kir::Kernel& k, const CompiledKernel& ck);
void fused_kernel(const FusedKernel& fk, std::span<const lazy::PendingOp> ops, int64_t start_ns);
bool wants_output_code();
void counter(const std::string& name, double value);

}  // namespace kiln::jit::events
