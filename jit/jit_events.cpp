#include "jit/jit_events.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

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

void graph_break(const BreakReport& b, lang::FrameRef where, uint64_t cut_graph) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::GraphBreak, trace::Category::jit, "graph_break");
  e.graph_id = cut_graph;
  e.text = s->strings().intern(b.message);
  e.detail = s->strings().intern(b.category);
  e.stack = s->strings().intern(b.stack);
  e.loc = loc_of(*s, where);
  s->record(e);
}

void recompile(const RecompileReport& r, size_t entries, lang::FrameRef where, uint64_t new_graph,
               const std::string& region) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::Recompile, trace::Category::jit, "recompile");
  e.graph_id = new_graph;
  e.stack = s->strings().intern(region);
  e.text = s->strings().intern(r.guard);
  std::string detail = "expected " + r.expected + ", got " + r.actual;
  if (r.made_dynamic) detail += "; " + r.dynamic_note();
  else if (!r.fix.empty()) detail += "; " + r.fix;
  e.detail = s->strings().intern(detail);
  e.a = entries;
  e.loc = loc_of(*s, where);
  s->record(e);
}

void guard_fail(const RecompileReport& r, lang::FrameRef where, size_t entries, const std::string& region) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::GuardFail, trace::Category::jit, "guard_fail");
  e.a = entries;
  e.stack = s->strings().intern(region);
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

void kernel_compiled(const kir::Kernel& k, const CompiledKernel& ck, uint64_t graph_id) {
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
    e.graph_id = graph_id;
    s->record(e);
    at += ns;
  }
  std::string text = k.to_text();
  if (!ck.llvm_ir.empty()) text += "\n; LLVM IR\n" + ck.optimized_ir + "\n; assembly\n" + ck.assembly;
  // Named "output_code" (the KILN_LOGS topic that prints it); the kernel's name is its detail.
  trace::Event e = make(*s, trace::EventKind::Log, trace::Category::jit, "output_code");
  e.text = s->strings().intern(text);
  e.detail = s->strings().intern(k.name);
  e.graph_id = graph_id;
  s->record(e);
}

void gpu_kernel_compiled(const kir::Kernel& k, const std::string& cuda_source, const std::string& ptx,
                         int64_t start_ns, const std::string& where) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event span = make(*s, trace::EventKind::Span, trace::Category::compile, "nvrtc compile");
  span.dur_ns = span.ts_ns - start_ns;
  span.ts_ns = start_ns;
  span.text = s->strings().intern(k.name + " (" + where + ")");
  s->record(span);
  trace::Event e = make(*s, trace::EventKind::Log, trace::Category::jit, "output_code");
  e.text = s->strings().intern(k.to_text() + "\n// CUDA C\n" + cuda_source + (ptx.empty() ? "" : "\n// PTX\n" + ptx));
  e.detail = s->strings().intern(k.name);
  s->record(e);
}

void gpu_launch(const kir::Kernel& k, int64_t start_ns, uint64_t flow_id) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::Span, trace::Category::gpu, "cuda launch");
  e.dur_ns = e.ts_ns - start_ns;
  e.ts_ns = start_ns;
  e.text = s->strings().intern(k.name);
  e.flow_id = flow_id;
  s->record(e);
}

void gpu_kernel_timed(const kir::Kernel& k, int device, int64_t start_ns, int64_t dur_ns, uint64_t flow_id) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::GpuKernel, trace::Category::gpu, k.name);
  e.device = uint16_t(device + 1);
  e.tid = 0;  // the device's one stream
  e.ts_ns = start_ns;
  e.dur_ns = dur_ns;
  e.flow_id = flow_id;
  s->record(e);
}

void fused_kernel(const FusedKernel& fk, std::span<const lazy::PendingOp> ops, int64_t start_ns,
                  uint64_t graph_id) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::Kernel, trace::Category::kernel, fk.kernel.name);
  e.dur_ns = e.ts_ns - start_ns;
  e.ts_ns = start_ns;
  e.graph_id = graph_id;
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

void matmul_epilogue(const MatmulEpilogue& ep, const FusedKernel& fk, std::span<const lazy::PendingOp> ops,
                     int64_t start_ns, uint64_t graph_id) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  const std::string& kernel = fk.kernel.name;
  const std::string name = "fused_mm" + kernel.substr(std::min<size_t>(kernel.size(), 5));  // after "fused"
  trace::Event e = make(*s, trace::EventKind::Kernel, trace::Category::kernel, name);
  e.dur_ns = e.ts_ns - start_ns;
  e.ts_ns = start_ns;
  e.graph_id = graph_id;
  const lazy::PendingOp& mm = ops[size_t(ep.mm)];
  auto bytes = [](const Tensor& t) { return uint64_t(t.numel()) * dtype_size(t.dtype()); };
  const Tensor& out = resolve(ep.out, ops);
  e.a = bytes(mm.args[0].tensor()) + bytes(mm.args[1].tensor());
  for (const EpilogueOp& op : ep.ops)
    if (op.kind == EpilogueOp::Kind::Add) e.a += bytes(resolve(op.other, ops));
  e.b = bytes(out);
  e.c = uint64_t(2 * out.numel() * mm.args[0].tensor().size(1) + double(out.numel()) * fk.kernel.flops_per_element);
  e.text = s->strings().intern(out.shape_str() + " (mm and " + std::to_string(fk.nodes.size()) + " ops fused)");
  s->record(e);
}

void graph_run(uint64_t graph_id, int64_t start_ns, uint64_t kernels, uint64_t eager_steps) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event span = make(*s, trace::EventKind::Span, trace::Category::jit, "run graph " + std::to_string(graph_id));
  span.dur_ns = span.ts_ns - start_ns;
  span.ts_ns = start_ns;
  span.graph_id = graph_id;
  span.a = kernels;
  span.b = eager_steps;
  s->record(span);
}

// ---------------------------------------------------------------------------
// Guard lists.

namespace {

using What = Guard::What;

// Describes a signature from what its guards check (kind, node, argument,
// dim) and the values the ops hold now: the graph was just specialized on
// exactly these values, so nothing needs decoding from Guard::value except
// the stride flag guards.h documents. One line per tensor input (what makes
// a graph recompile); Python numbers and constant arguments are counted,
// since their values are graph inputs or stand in the graph's IR.
class GuardLister {
 public:
  GuardLister(std::span<const lazy::PendingOp> ops, std::string (*site_name)(uint32_t))
      : ops_(ops), site_name_(site_name) {}

  std::string list(const Signature& sig) {
    for (const Guard& g : sig.guards) step(g);
    close_input();
    auto n = [](size_t k) { return std::to_string(k); };
    if (ints_ + floats_ + bools_ > 0)
      out_ += "numbers: " + n(ints_) + " int, " + n(floats_) + " float, " + n(bools_) +
              " bool (graph inputs: only their Python type is checked)\n";
    if (constants_ > 0) out_ += "constants: " + n(constants_) + " argument values, as the graph's IR shows them\n";
    out_ += "structure: " + n(ops_count_) + " ops, " + n(structure_) + " checks of argument types and tensor sources (" +
            n(sig.guards.size()) + " guards in all)\n";
    return out_;
  }

 private:
  void step(const Guard& g) {
    if (g.what > uint8_t(What::ListLength)) return;  // a kind this lister does not know
    switch (What(g.what)) {
      case What::Op: ++ops_count_; break;
      case What::Source: elem_ = g.dim; [[fallthrough]];
      case What::ArgKind:
      case What::ListLength: ++structure_; break;
      case What::InputDType: open_input(g); break;  // the first check of a new tensor input
      case What::InputRank: break;
      case What::InputDim: if (g.dim < 64) checked_dims_ |= uint64_t(1) << g.dim; break;
      case What::InputStride: strided_ |= g.value != kContiguousStride; break;
      case What::InputRequiresGrad: break;
      case What::ConstValue: constants_ += !(value_of(g).is_int_list() && g.dim != 0); break;  // an int[] once
      case What::ScalarType: {
        const Value& v = value_of(g);
        ++(v.is_bool() ? bools_ : v.is_int() ? ints_ : floats_);
        break;
      }
    }
  }

  // guards.h: an InputStride of a dim laid out contiguously carries this flag.
  static constexpr uint64_t kContiguousStride = uint64_t(1) << 63;

  const Value& value_of(const Guard& g) const {
    static const Value kNone;
    if (g.node >= ops_.size() || g.arg >= ops_[g.node].args.size()) return kNone;
    return ops_[g.node].args[g.arg];
  }

  // "mm(self) at model.py:12"
  std::string where(const Guard& g) const {
    if (g.node >= ops_.size() || !ops_[g.node].op) return "op " + std::to_string(g.node);
    const lazy::PendingOp& p = ops_[g.node];
    const auto& args = p.op->schema.args;
    std::string s = p.op->name() + "(" + (g.arg < args.size() ? args[g.arg].name : "#" + std::to_string(g.arg)) + ")";
    std::string site = p.site && site_name_ ? site_name_(p.site) : "";
    return site.empty() ? s : s + " at " + site;
  }

  void open_input(const Guard& g) {
    close_input();
    const Value& v = value_of(g);
    const Tensor* t = v.is_tensor() ? &v.tensor() : nullptr;
    if (v.is_tensor_list() && elem_ < v.tensor_list().size()) t = &v.tensor_list()[elem_];
    input_ = Input{g, t && t->defined() ? *t : Tensor()};
    checked_dims_ = 0;
    strided_ = false;
  }

  // "input 0: float32[64, s1] cpu, contiguous, requires_grad; mm(self) at m.py:3"
  // (s<d>: a dynamic dim, not checked).
  void close_input() {
    if (!input_) return;
    out_ += "input " + std::to_string(inputs_++) + ":";
    const Tensor& t = input_->tensor;
    if (t.defined()) {
      out_ += " " + std::string(dtype_name(t.dtype())) + "[";
      for (size_t d = 0; d < t.sizes().size(); ++d) {
        if (d) out_ += ", ";
        out_ += d < 64 && (checked_dims_ >> d & 1) ? std::to_string(t.sizes()[d]) : "s" + std::to_string(d);
      }
      out_ += "] " + t.device().str() + (strided_ ? ", strided" : ", contiguous");
      if (t.requires_grad()) out_ += ", requires_grad";
    }
    out_ += "; " + where(input_->guard) + "\n";
    input_.reset();
  }

  struct Input {
    Guard guard;
    Tensor tensor;
  };
  std::span<const lazy::PendingOp> ops_;
  std::string (*site_name_)(uint32_t);
  std::string out_;
  std::optional<Input> input_;
  size_t ops_count_ = 0, structure_ = 0, inputs_ = 0, elem_ = 0, constants_ = 0;
  size_t ints_ = 0, floats_ = 0, bools_ = 0;
  uint64_t checked_dims_ = 0;
  bool strided_ = false;
};

}  // namespace

void guards(uint64_t graph_id, const Signature& sig, std::span<const lazy::PendingOp> ops,
            std::string (*site_name)(uint32_t site)) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::Log, trace::Category::jit, "guards");
  e.graph_id = graph_id;
  e.text = s->strings().intern(GuardLister(ops, site_name).list(sig));
  s->record(e);
}

}  // namespace kiln::jit::events
