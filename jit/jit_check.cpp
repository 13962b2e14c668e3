#include "jit/jit_check.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "core/autograd.h"
#include "core/dispatch.h"

namespace kiln::jit {

namespace {

bool close(double a, double b, bool floating) {
  if (!floating) return a == b;
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= 1e-5 + 1e-4 * std::fabs(a);
}

// The first element where `interpreted` and `compiled` differ, or -1.
int64_t first_difference(const Tensor& interpreted, const Tensor& compiled, double& want, double& got) {
  if (interpreted.sizes() != compiled.sizes()) return 0;
  bool floating = is_floating(compiled.dtype());
  for (int64_t i = 0; i < compiled.numel(); ++i) {
    want = element_as_double(interpreted, i);
    got = element_as_double(compiled, i);
    if (!close(want, got, floating)) return i;
  }
  return -1;
}

}  // namespace

std::string CheckMismatch::describe(const std::string& op, const std::string& where) const {
  std::ostringstream out;
  out << "node " << node << " `" << op << "` at " << where << " differs from the interpreter: output " << output
      << ", element " << element << ": interpreter " << interpreted << ", compiled " << compiled;
  return out.str();
}

JitCheck::JitCheck(std::span<const lazy::PendingOp> ops) {
  // Storages the graph allocates itself get their replay values when the
  // replay produces them; every other storage an op touches is copied now.
  std::map<const Storage*, bool> fresh;
  for (const lazy::PendingOp& p : ops)
    if (p.op->kind != OpKind::View && !p.op->is_inplace())
      for (const Tensor& t : p.outs)
        if (t.defined()) fresh[t.storage().get()] = true;
  for (const lazy::PendingOp& p : ops)
    for_each_tensor(p.args, [&](const Tensor& t) {
      if (!fresh.count(t.storage().get())) copy_storage(t);
    });
}

// A private copy of a storage the graph reads or writes in place, so the
// replay shares nothing with the backend's run.
void JitCheck::copy_storage(const Tensor& t) {
  const std::shared_ptr<Storage>& s = t.storage();
  auto& copy = storages_[s.get()];
  if (copy) return;
  copy = std::make_shared<Storage>(s->nbytes, s->device);
  if (s->nbytes) std::memcpy(copy->data, s->data, s->nbytes);
}

// The replay's version of `t`: the tensor the replay made for it, or a tensor
// with t's metadata over the replay's copy of its storage (aliases such as
// detach() share storage without being ops).
Tensor JitCheck::replayed(const Tensor& t) const {
  if (!t.defined()) return t;
  if (auto it = replay_.find(t.impl()); it != replay_.end()) return it->second;
  auto s = storages_.find(t.storage().get());
  if (s == storages_.end()) return t;
  Tensor r = storage_view(s->second, t.sizes(), t.strides(), t.offset(), t.dtype());
  r.impl()->is_wrapped_number = t.impl()->is_wrapped_number;
  return r;
}

std::optional<CheckMismatch> JitCheck::verify(std::span<const lazy::PendingOp> ops) {
  NoGradGuard no_grad;
  // A node's output can be compared only if no later in-place op rewrote its
  // storage: after the backend ran, it holds the last writer's values.
  std::map<const Storage*, size_t> last_writer;
  for (size_t n = 0; n < ops.size(); ++n)
    for (const Tensor& t : ops[n].outs)
      if (t.defined() && ops[n].op->kind != OpKind::View) last_writer[t.storage().get()] = n;
  for (size_t n = 0; n < ops.size(); ++n) {
    const lazy::PendingOp& p = ops[n];
    std::vector<Value> args;
    for (const Value& v : p.args) {
      if (v.is_tensor()) {
        args.emplace_back(replayed(v.tensor()));
      } else if (v.is_tensor_list()) {
        std::vector<Tensor> list;
        for (const Tensor& t : v.tensor_list()) list.push_back(replayed(t));
        args.emplace_back(std::move(list));
      } else {
        args.push_back(v);
      }
    }
    std::vector<Tensor> outs = dispatch(*p.op, std::move(args));
    for (size_t o = 0; o < outs.size() && o < p.outs.size(); ++o) {
      if (!p.outs[o].defined()) continue;
      replay_[p.outs[o].impl()] = outs[o];
      storages_[p.outs[o].storage().get()] = outs[o].storage();
      if (last_writer[p.outs[o].storage().get()] != n) continue;
      double want = 0, got = 0;
      int64_t at = first_difference(outs[o], p.outs[o], want, got);
      if (at >= 0) return CheckMismatch{n, o, at, want, got};
    }
  }
  return std::nullopt;
}

}  // namespace kiln::jit
