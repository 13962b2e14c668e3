#include "jit/jit_events.h"

#include <algorithm>
#include <cstdlib>

#include "jit/launch.h"
#include "traces/log_sink.h"
#include "traces/recorder.h"

namespace kiln::jit::events {

namespace {

// An event of `kind` stamped now, on this thread.
trace::Event make(trace::Session& s, trace::EventKind kind, trace::Category cat, const std::string& name) {
  trace::Event e;
  e.kind = kind;
  e.cat = cat;
  e.tid = trace::thread_index();
  e.ts_ns = trace::now_ns();
  e.name = s.strings().intern(name);
  return e;
}

trace::Loc loc_of(trace::Session& s, lang::FrameRef f) {
  if (!f.code) return {};
  const lang::Pos& p = f.code->positions[f.pc];
  return {s.strings().intern(f.code->filename), p.line, p.col};
}

}  // namespace

void graph_break(const BreakReport& b, lang::FrameRef where) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::GraphBreak, trace::Category::jit, "graph_break");
  e.text = s->strings().intern(b.message);
  e.detail = s->strings().intern(b.category);
  e.stack = s->strings().intern(b.stack);
  e.loc = loc_of(*s, where);
  s->record(e);
}

void recompile(const RecompileReport& r, size_t entries, lang::FrameRef where) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::Recompile, trace::Category::jit, "recompile");
  e.text = s->strings().intern(r.guard);
  std::string detail = "expected " + r.expected + ", got " + r.actual;
  if (r.made_dynamic) detail += "; the dim is dynamic from now on";
  else if (!r.fix.empty()) detail += "; " + r.fix;
  e.detail = s->strings().intern(detail);
  e.a = entries;
  e.loc = loc_of(*s, where);
  s->record(e);
}

void guard_fail(const RecompileReport& r, lang::FrameRef where) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::GuardFail, trace::Category::jit, "guard_fail");
  e.text = s->strings().intern(r.guard + " at " + r.start);
  e.detail = s->strings().intern("expected " + r.expected + ", got " + r.actual);
  e.loc = loc_of(*s, where);
  s->record(e);
}

void compiled(const std::string& region, const GraphReport& g, int64_t start_ns) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event span = make(*s, trace::EventKind::Span, trace::Category::compile, "compile " + region);
  span.dur_ns = span.ts_ns - start_ns;
  span.ts_ns = start_ns;
  span.graph_id = g.id;
  s->record(span);
  trace::Event ir = make(*s, trace::EventKind::Log, trace::Category::jit, "graph");
  ir.graph_id = g.id;
  ir.text = s->strings().intern(g.text);
  s->record(ir);
}

void log(const char* name, const std::string& text) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::Log, trace::Category::jit, name);
  e.text = s->strings().intern(text);
  s->record(e);
}

void counter(const std::string& name, double value) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::Counter, trace::Category::jit, name);
  e.value = value;
  s->record(e);
}

void codegen(const GraphReport& g, int64_t start_ns) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event span = make(*s, trace::EventKind::Span, trace::Category::compile, "codegen graph " + std::to_string(g.id));
  span.dur_ns = span.ts_ns - start_ns;
  span.ts_ns = start_ns;
  span.graph_id = g.id;
  span.text = s->strings().intern(g.plan);
  s->record(span);
}

bool wants_output_code() {
  static const bool on = [] {
    const char* v = std::getenv("KILN_LOGS");
    return v && std::string(v).find("output_code") != std::string::npos;
  }();
  return on;
}

void kernel_compiled(const kir::Kernel& k, const CompiledKernel& ck) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  int64_t end = trace::now_ns(), total = ck.codegen_ns + ck.optimize_ns + ck.jit_ns;
  const std::pair<const char*, int64_t> phases[] = {
      {"llvm codegen", ck.codegen_ns}, {"llvm optimize", ck.optimize_ns}, {"llvm jit", ck.jit_ns}};
  int64_t at = end - total;
  for (const auto& [name, ns] : phases) {
    trace::Event e = make(*s, trace::EventKind::Span, trace::Category::compile, name);
    e.ts_ns = at;
    e.dur_ns = std::max<int64_t>(0, ns - 1);  // a 1 ns gap: adjacent spans must not read as nested after rounding
    e.text = s->strings().intern(k.name);
    s->record(e);
    at += ns;
  }
  std::string text = k.to_text();
  if (!ck.llvm_ir.empty()) text += "\n; LLVM IR\n" + ck.optimized_ir + "\n; assembly\n" + ck.assembly;
  trace::Event e = make(*s, trace::EventKind::Log, trace::Category::jit, "output_code");
  e.text = s->strings().intern(text);
  s->record(e);
}

void fused_kernel(const FusedKernel& fk, std::span<const lazy::PendingOp> ops, int64_t start_ns) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::Kernel, trace::Category::kernel, fk.kernel.name);
  e.dur_ns = e.ts_ns - start_ns;
  e.ts_ns = start_ns;
  const Tensor& domain = resolve(fk.domain, ops);
  for (size_t i = 0; i < fk.operands.size(); ++i) {
    const Tensor& t = resolve(fk.operands[i].tensor, ops);
    uint64_t bytes = uint64_t(t.numel()) * dtype_size(t.dtype());
    (fk.kernel.operands[i].output ? e.b : e.a) += bytes;
  }
  e.c = uint64_t(double(domain.numel()) * fk.kernel.flops_per_element);
  e.text = s->strings().intern(domain.shape_str() + " (" + std::to_string(fk.nodes.size()) + " ops fused)");
  s->record(e);
}

}  // namespace kiln::jit::events
