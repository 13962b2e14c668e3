#include "core/kernel_events.h"

#include <mutex>
#include <string>
#include <unordered_map>

#include "traces/recorder.h"

namespace kiln {

namespace {

size_t tensor_bytes(const Tensor& t) { return size_t(t.numel()) * dtype_size(t.dtype()); }

void append_shape(std::string& s, const Tensor& t) {
  s += '[';
  for (size_t i = 0; i < t.sizes().size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(t.sizes()[i]);
  }
  s += ']';
}

// A convolution's multiply-adds: each output element takes one per weight
// element of its group (C/groups * kh * kw); the backward does that for each
// gradient asked for (by input, by weight).
uint64_t conv_flops(const OpDef& op, Args args, std::span<const Tensor> outs) {
  const bool backward = op.name() == "convolution_backward";
  const size_t w = backward ? 2 : 1;
  if (args.size() <= w || !args[w].is_tensor() || !args[0].is_tensor()) return 0;
  const Tensor& weight = args[w].tensor();
  if (weight.dim() == 0 || weight.size(0) == 0) return 0;
  const uint64_t per_output = uint64_t(weight.numel() / weight.size(0));
  if (!backward) return 2 * uint64_t(outs[0].numel()) * per_output;
  const uint64_t passes = uint64_t(args.size() > 8 && args[7].to_bool()) + uint64_t(args.size() > 8 && args[8].to_bool());
  return 2 * uint64_t(args[0].tensor().numel()) * per_output * passes;
}

// Floating-point operations where the op's kind says what they are: a
// matmul-like extern does 2*M*N*K, a pointwise op one per output element.
uint64_t estimate_flops(const OpDef& op, Args args, std::span<const Tensor> outs) {
  if (outs.empty()) return 0;
  const Tensor& out = outs[0];
  if (op.name() == "convolution" || op.name() == "convolution_backward") return conv_flops(op, args, outs);
  if (op.kind == OpKind::Pointwise) return uint64_t(out.numel());
  if (op.kind == OpKind::Extern && !args.empty() && args[0].is_tensor()) {
    const Tensor& a = args[0].tensor();
    int64_t k = a.sizes().empty() ? 1 : a.sizes().back();
    return uint64_t(2 * out.numel() * k);
  }
  return 0;
}

// The op's name interned in the current session, cached per op.
trace::StrId op_name_id(trace::Session& s, const OpDef& op) {
  static std::mutex mu;
  static std::unordered_map<const OpDef*, std::pair<uint64_t, trace::StrId>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& entry = cache[&op];
  if (entry.first != s.generation()) entry = {s.generation(), s.strings().intern(op.name())};
  return entry.second;
}

// A "live tensor bytes" counter sample after a kernel changed it, so the
// trace shows memory as a track beside the kernels that moved it.
void record_memory_counter(trace::Session& s) {
  static std::mutex mu;
  static uint64_t generation = 0;
  static int64_t last = -1;
  static trace::StrId name = 0;
  int64_t live = live_tensor_bytes();
  {
    std::lock_guard<std::mutex> lock(mu);
    if (generation != s.generation()) {
      generation = s.generation();
      last = -1;
      name = s.strings().intern("live tensor bytes");
    }
    if (live == last) return;
    last = live;
  }
  trace::Event e;
  e.kind = trace::EventKind::Counter;
  e.cat = trace::Category::memory;
  e.tid = trace::thread_index();
  e.ts_ns = trace::now_ns();
  e.name = name;
  e.value = double(live);
  s.record(e);
}

}  // namespace

void record_kernel_event(const OpDef& op, Args args, std::span<const Tensor> outs, int64_t start_ns) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e;
  e.kind = trace::EventKind::Kernel;
  e.cat = trace::Category::kernel;
  e.tid = trace::thread_index();
  e.ts_ns = start_ns;
  e.dur_ns = trace::now_ns() - start_ns;
  e.name = op_name_id(*s, op);
  std::string shapes;
  for (const Value& v : args) {
    if (!v.is_tensor() || !v.tensor().defined()) continue;
    e.a += tensor_bytes(v.tensor());
    if (!shapes.empty()) shapes += ", ";
    append_shape(shapes, v.tensor());
  }
  shapes += " -> ";
  for (size_t i = 0; i < outs.size(); ++i) {
    if (!outs[i].defined()) continue;
    e.b += tensor_bytes(outs[i]);
    if (i) shapes += ", ";
    append_shape(shapes, outs[i]);
  }
  e.c = estimate_flops(op, args, outs);
  e.text = s->strings().intern(shapes);
  s->record(e);
  record_memory_counter(*s);
}

}  // namespace kiln
