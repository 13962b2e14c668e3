#include "core/op_table.h"

namespace kiln {

// Categories registered beside the ones op_table.h declares: the spatial ops
// (core/ops/conv.cpp, pool.cpp, norm.cpp) and rearrange, scan, linalg, combine,
// take and stats.
void register_conv_ops(OpTable&);
void register_pool_ops(OpTable&);
void register_norm_ops(OpTable&);
void register_rearrange_ops(OpTable&);
void register_scan_ops(OpTable&);
void register_linalg_ops(OpTable&);
void register_lapack_ops(OpTable&);
void register_lapack_spectral_ops(OpTable&);
void register_lapack_lu_ops(OpTable&);
void register_linalg_extras_ops(OpTable&);
void register_torch_extras_ops(OpTable&);
void register_numeric_extras_ops(OpTable&);
void register_linalg_legacy_ops(OpTable&);
void register_window_ops(OpTable&);
void register_combine_ops(OpTable&);
void register_take_ops(OpTable&);
void register_stats_ops(OpTable&);
void register_rnn_ops(OpTable&);

std::string_view op_kind_name(OpKind k) {
  static constexpr std::string_view kNames[] = {
#define KILN_KIND_NAME(k) #k,
      KILN_OP_KINDS(KILN_KIND_NAME)
#undef KILN_KIND_NAME
  };
  return kNames[static_cast<int>(k)];
}

void OpTable::add(OpDef def) {
  def.schema = parse_schema(def.schema_text);
  KILN_CHECK(!by_name_.count(def.schema.name), Runtime, "op '", def.schema.name, "' registered twice");
  KILN_CHECK(def.kind != OpKind::Composite || def.composite, Runtime, "composite op '", def.schema.name,
             "' needs a composite function");
  KILN_CHECK(def.kind == OpKind::Composite || def.inplace_of || def.kernel, Runtime, "op '",
             def.schema.name, "' has no kernel");
  defs_.push_back(std::make_unique<OpDef>(std::move(def)));
  const OpDef* d = defs_.back().get();
  order_.push_back(d);
  by_name_[d->schema.name] = d;
  std::string_view base = d->schema.name;
  base = base.substr(0, base.find('.'));
  overloads_[base].push_back(d);
}

void OpTable::finish() {
  for (auto& d : defs_) {
    const auto& args = d->schema.args;
    d->requires_grad_arg = !args.empty() && args.back().name == "requires_grad";
    if (!d->inplace_of) continue;
    d->functional = &get(d->inplace_of);
    KILN_CHECK(d->functional->kind == OpKind::Pointwise, Runtime, "in-place op '", d->name(),
               "' must be the in-place form of a pointwise op");
  }
}

const OpDef* OpTable::find(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

const OpDef& OpTable::get(std::string_view name) const {
  const OpDef* d = find(name);
  KILN_CHECK(d, NotImplemented, "no op named '", name, "' in the op table");
  return *d;
}

std::span<const OpDef* const> OpTable::overloads(std::string_view base) const {
  auto it = overloads_.find(base);
  if (it == overloads_.end()) return {};
  return it->second;
}

const OpTable& op_table() {
  static const OpTable table = [] {
    OpTable t;
    register_pointwise_ops(t);
    register_pointwise_math_ops(t);
    register_reduction_ops(t);
    register_shape_ops(t);
    register_index_ops(t);
    register_creation_ops(t);
    register_random_ops(t);
    register_blas_ops(t);
    register_nn_ops(t);
    register_conv_ops(t);
    register_pool_ops(t);
    register_norm_ops(t);
    register_rearrange_ops(t);
    register_scan_ops(t);
    register_linalg_ops(t);
    register_lapack_ops(t);
    register_lapack_spectral_ops(t);
    register_lapack_lu_ops(t);
    register_linalg_extras_ops(t);
    register_torch_extras_ops(t);
    register_numeric_extras_ops(t);
    register_linalg_legacy_ops(t);
    register_window_ops(t);
    register_combine_ops(t);
    register_take_ops(t);
    register_stats_ops(t);
    register_rnn_ops(t);
    t.finish();
    return t;
  }();
  return table;
}

}  // namespace kiln
