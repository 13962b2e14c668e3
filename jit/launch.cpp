#include "jit/launch.h"

#include <algorithm>
#include <cstring>

#include "core/thread_pool.h"

namespace kiln::jit {

namespace {

constexpr int kMaxRank = 8;

// Operand strides over the domain; false when the tensor does not broadcast to it.
bool strides_over(const Tensor& t, const KernelBinding& b, const Shape& domain, int64_t* out) {
  Shape sizes, strides;
  mapped_view(t, b, sizes, strides);
  const int64_t rank = int64_t(domain.size()), dims = int64_t(sizes.size());
  if (b.mapping == Mapping::Rows) {
    if (dims != rank - 1) return false;
    for (int64_t d = 0; d + 1 < rank; ++d) {
      if (sizes[size_t(d)] != domain[size_t(d)] && sizes[size_t(d)] != 1) return false;
      out[d] = sizes[size_t(d)] == 1 ? 0 : strides[size_t(d)];
    }
    out[rank - 1] = 0;
    return true;
  }
  const int64_t lead = rank - dims;
  if (lead < 0) {  // more dims than the domain: only a single element broadcasts
    std::fill_n(out, rank, 0);
    return shape_numel(sizes) == 1;
  }
  for (int64_t d = 0; d < rank; ++d) {
    int64_t td = d - lead;
    if (td < 0 || sizes[size_t(td)] == 1) {
      out[d] = 0;
      continue;
    }
    if (sizes[size_t(td)] != domain[size_t(d)]) return false;
    out[d] = strides[size_t(td)];
  }
  return true;
}

bool fits(kir::Inner inner, int64_t stride, int64_t last) {
  if (last <= 1) return true;
  switch (inner) {
    case kir::Inner::Contiguous: return stride == 1;
    case kir::Inner::Broadcast: return stride == 0;
    case kir::Inner::Strided: return true;
  }
  return false;
}

}  // namespace

bool bind_args(const FusedKernel& fk, std::span<const lazy::PendingOp> ops, BoundArgs& out) {
  const kir::Kernel& k = fk.kernel;
  for (const ValueGuard& g : fk.guards)
    if (guarded_value(g, ops) != g.value) return false;
  Shape& domain = out.domain;
  domain = resolve(fk.domain, ops).sizes();
  if (domain.empty()) domain.push_back(1);
  if (int64_t(domain.size()) != k.rank || k.rank > kMaxRank) return false;
  const size_t n = k.operands.size(), rank = size_t(k.rank);
  out.ptrs.resize(n);
  out.strides.resize(n * rank);
  for (size_t i = 0; i < n; ++i) {
    const Tensor& t = resolve(fk.operands[i].tensor, ops);
    if (!t.defined() || t.dtype() != k.operands[i].dtype) return false;
    if (!strides_over(t, fk.operands[i], domain, &out.strides[i * rank])) return false;
    if (!fits(k.operands[i].inner, out.strides[i * rank + rank - 1], domain.back())) return false;
    out.ptrs[i] = static_cast<char*>(t.raw_data());
  }
  out.params.resize(fk.params.size());
  for (size_t p = 0; p < fk.params.size(); ++p) {
    const ParamBinding& b = fk.params[p];
    if (b.row_length) {
      out.params[p] = double(domain.back());
      continue;
    }
    if (b.stride_dim >= 0) {
      out.params[p] = double(resolve(b.strided, ops).stride(b.stride_dim));
      continue;
    }
    const Value& v = ops[size_t(b.node)].args[size_t(b.arg)];
    // A host scalar tensor in a device kernel is a parameter (jit/fusion.cpp).
    out.params[p] = v.is_tensor() ? v.tensor().item_double() : v.to_double();
  }
  out.zero.clear();
  for (int32_t z : fk.zero_first) {
    const Tensor& t = resolve(fk.operands[size_t(z)].tensor, ops);
    if (!t.is_contiguous()) return false;  // zeroed as one span
    out.zero.push_back({z, size_t(t.numel()) * t.element_size()});
  }
  // A Row kernel runs once per row even when rows are empty: a reduction of
  // nothing still stores its identity (a sum's 0, a mean's NaN).
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < domain.size(); ++d) rows *= domain[d];
  out.items = k.kind == kir::Kind::Row ? rows : shape_numel(domain);
  return true;
}

void run_bound(const kir::Kernel& k, kir::KernelFn fn, const BoundArgs& a) {
  for (auto [operand, bytes] : a.zero) std::memset(a.ptrs[size_t(operand)], 0, bytes);
  if (a.items == 0) return;
  if (k.scatters()) return fn(a.ptrs.data(), a.domain.data(), a.strides.data(), a.params.data(), 0, a.items);
  // About 32K elements a task, so small kernels stay on the calling thread.
  int64_t per_item = k.kind == kir::Kind::Row ? a.domain.back() : 1;
  int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(per_item, 1));
  parallel_for(0, a.items, grain, [&](int64_t b, int64_t e) {
    fn(a.ptrs.data(), a.domain.data(), a.strides.data(), a.params.data(), b, e);
  });
}

bool launch(const FusedKernel& fk, kir::KernelFn fn, std::span<const lazy::PendingOp> ops) {
  BoundArgs a;
  if (!bind_args(fk, ops, a)) return false;
  run_bound(fk.kernel, fn, a);
  return true;
}

}  // namespace kiln::jit
