#include "core/lang/torch_random.h"

#include <algorithm>
#include <span>
#include <string>
#include <unordered_set>

#include "core/device.h"
#include "core/lang/objops.h"
#include "core/lang/torch_bridge.h"
#include "core/op_table.h"
#include "core/ops.h"

namespace kiln::lang {
namespace {

// The ops whose draws a generator= steers: the drawing ops, and the
// composites that draw through them.
bool draws(std::string_view op) {
  static const std::unordered_set<std::string_view> kComposites = {"normal", "normal_", "uniform_", "exponential_",
                                                                   "bernoulli_", "random_"};
  if (kComposites.count(op)) return true;
  auto overloads = op_table().overloads(op);
  return std::any_of(overloads.begin(), overloads.end(), [](const OpDef* d) { return d->kind == OpKind::Random; });
}

// On the host whatever the default device: the bridge reads and writes it.
Tensor state_tensor(const Generator& g) {
  std::vector<int64_t> w = g.save();
  DeviceScope host(Device{});
  Tensor t = empty({int64_t(w.size())}, DType::Int64);
  std::copy(w.begin(), w.end(), t.data<int64_t>());
  return t;
}

// A state tensor as words, checked to be one get_state() could have returned.
std::span<const int64_t> state_words(const Tensor& t, const char* what) {
  KILN_CHECK(t.dtype() == DType::Int64 && t.dim() == 1 && t.is_contiguous() && t.device().type == DeviceType::CPU, Type, what,
             ": expected a generator state from get_state() (a 1-d int64 CPU tensor), got a ",
             dtype_name(t.dtype()), " tensor of ", t.dim(), " dims");
  return {t.data<int64_t>(), size_t(t.numel())};
}

const Tensor& generator_state(const Obj& g, std::string_view op) {
  const Obj* st = nullptr;
  if (g.kind() == Kind::Instance && g.as<InstanceObj>()->get_class().name == "Generator")
    st = g.as<InstanceObj>()->attrs.find("_state");
  KILN_CHECK(st && st->kind() == Kind::Tensor, Type, op, "(): argument 'generator' must be torch.Generator, not ",
             type_name(g));
  return tensor_of(*st);
}

uint64_t seed_arg(const Obj& s) {
  KILN_CHECK(s.is_intlike(), Type, "manual_seed expected an int, got ", kind_name(s.kind()));
  return uint64_t(s.as_int());
}

// torch._C._rng_state(seed): the state tensor of a generator seeded with `seed`.
Obj f_rng_state(Interp&, const CallArgs& a) {
  a.check("_rng_state", 1, 1);
  Generator g;
  g.manual_seed(seed_arg(a.pos[0]));
  return make_tensor(state_tensor(g));
}

// torch._C._rng_check_state(t): raises unless t is a generator state.
Obj f_rng_check_state(Interp&, const CallArgs& a) {
  a.check("set_state", 1, 1);
  Generator g;
  g.load(state_words(tensor_of(a.pos[0], "new_state"), "set_state"));
  return Obj();
}

// torch._C._rng_copy_state(t): a checked copy of a generator state, made now.
// Generator.get_state/set_state copy through it rather than Tensor.clone: the
// op bridge overwrites a generator's state in place when it draws, and a
// clone deferred into a captured graph (core/lazy.h) would copy it too late.
Obj f_rng_copy_state(Interp&, const CallArgs& a) {
  a.check("_rng_copy_state", 1, 1);
  Generator g;
  g.load(state_words(tensor_of(a.pos[0], "new_state"), "set_state"));
  return make_tensor(state_tensor(g));
}

// torch._C._rng_random_seed(): a nondeterministic 63-bit seed (Generator.seed()).
Obj f_rng_random_seed(Interp&, const CallArgs& a) {
  a.check("seed", 0, 0);
  return Obj::from_int(int64_t(nondeterministic_seed()));
}

Obj f_get_rng_state(Interp&, const CallArgs& a) {
  a.check("get_rng_state", 0, 0);
  Generator& g = default_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  return make_tensor(state_tensor(g));
}

Obj f_set_rng_state(Interp&, const CallArgs& a) {
  a.check("set_rng_state", 1, 1, "new_state");
  Generator& g = default_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  g.load(state_words(tensor_of(a.arg(0, "new_state"), "new_state"), "set_rng_state"));
  return Obj();
}

}  // namespace

GeneratorArg::GeneratorArg(const CallArgs& a, std::string_view op) {
  const Obj* g = a.find_kw("generator");
  if (!g || g->is_none()) return;
  KILN_CHECK(draws(op), Type, op, "() got an unexpected keyword argument 'generator'");
  state_ = generator_state(*g, op);
  gen_.emplace();
  gen_->load(state_words(state_, "generator"));
  scope_.emplace(*gen_);
}

GeneratorArg::~GeneratorArg() {
  if (!gen_) return;
  scope_.reset();
  std::vector<int64_t> w = gen_->save();
  std::copy(w.begin(), w.end(), state_.data<int64_t>());
}

void add_random_functions(ModuleObj& torch, ModuleObj& c) {
  torch.attrs.set("get_rng_state", make_builtin("get_rng_state", f_get_rng_state));
  torch.attrs.set("set_rng_state", make_builtin("set_rng_state", f_set_rng_state));
  c.attrs.set("_rng_state", make_builtin("_rng_state", f_rng_state));
  c.attrs.set("_rng_check_state", make_builtin("_rng_check_state", f_rng_check_state));
  c.attrs.set("_rng_copy_state", make_builtin("_rng_copy_state", f_rng_copy_state));
  c.attrs.set("_rng_random_seed", make_builtin("_rng_random_seed", f_rng_random_seed));
}

}  // namespace kiln::lang
