// Indexing ops: masked_fill, index_select / index_add / index_copy, gather / scatter /
// scatter_add, nonzero, and the Python subscript (index, index_put) composed
// from views (select, slice, unsqueeze) plus index_select / index_copy for
// advanced (tensor) indices, with PyTorch's semantics and messages.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/device.h"
#include "core/lowering.h"
#include "core/ops/common.h"

namespace kiln {
namespace ops {
namespace {

// ---- helpers ------------------------------------------------------------------------
// An int32/int64 index tensor's values, row-major.
Tensor contiguous_raw(const Tensor& t) {
  if (t.is_contiguous()) return t;
  Tensor out = empty_tensor(t.sizes(), t.dtype());
  copy_cast(out, t);
  return out;
}

// Its values viewed in place when it is contiguous int64 (else copied so):
// reading element by element through doubles was most of gather's time.
struct IndexValues {
  Tensor held;
  std::span<const int64_t> v;
  auto begin() const { return v.begin(); }
  auto end() const { return v.end(); }
  size_t size() const { return v.size(); }
  int64_t operator[](size_t i) const { return v[i]; }
};
IndexValues index_values(const Tensor& idx) {
  IndexValues r{idx, {}};
  if (idx.dtype() != DType::Int64 || !idx.is_contiguous()) {
    r.held = empty_tensor(idx.sizes(), DType::Int64);
    copy_cast(r.held, idx);
  }
  r.v = {r.held.data<int64_t>(), size_t(r.held.numel())};
  return r;
}

// The dims before, at and after `d`, as (outer, n, inner) element counts.
struct Split3 {
  int64_t outer = 1, n = 1, inner = 1;
};
Split3 split3(const Shape& sizes, int64_t d) {
  Split3 s;
  for (int64_t i = 0; i < int64_t(sizes.size()); ++i) {
    if (i < d) s.outer *= sizes[size_t(i)];
    if (i == d) s.n = sizes[size_t(i)];
    if (i > d) s.inner *= sizes[size_t(i)];
  }
  return s;
}

// ---- masked_fill ----------------------------------------------------------------------
// masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) / .Scalar(..., Scalar value)
void check_mask(const Tensor& mask) {
  KILN_CHECK(mask.dtype() == DType::Bool, Runtime, "masked_fill_ only supports boolean masks, but got mask with dtype ",
             dtype_cpp_name(mask.dtype()));
}
std::vector<Shape> shape_masked_fill(const Args& a) {
  check_mask(a[1].tensor());
  if (a[2].is_tensor())
    KILN_CHECK(a[2].tensor().dim() == 0, Runtime,
               "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ", a[2].tensor().dim(),
               " dimension(s).");
  return {broadcast_shapes(a[0].tensor().sizes(), a[1].tensor().sizes())};
}
struct MaskedFillTensorF {
  explicit MaskedFillTensorF(const Args&) {}
  template <class T> T operator()(T x, T m, T v) const { return m != T(0) ? v : x; }
};
struct MaskedFillScalarF {
  double value;
  explicit MaskedFillScalarF(const Args& a) : value(a[2].to_double()) {}
  template <class T> T operator()(T x, T m) const { return m != T(0) ? T(value) : x; }
};
void masked_fill_tensor_kernel(const Args& a, std::vector<Tensor>& outs) {
  run_pointwise(outs[0], std::array<Tensor, 3>{a[0].tensor(), a[1].tensor(), a[2].tensor()}, outs[0].dtype(),
                MaskedFillTensorF(a), "masked_fill", false);
}
void masked_fill_scalar_kernel(const Args& a, std::vector<Tensor>& outs) {
  run_pointwise(outs[0], std::array<Tensor, 2>{a[0].tensor(), a[1].tensor()}, outs[0].dtype(), MaskedFillScalarF(a),
                "masked_fill", false);
}
// One select per element, fused with its neighbours (the attention mask of a
// causal block). Value is a Scalar (a kernel parameter) or a 0-dim tensor,
// either cast to self's dtype as the eager kernel does.
template <bool TensorValue>
bool lower_masked_fill(kir::Lowering& L) {
  const DType t = L.outs[0].dtype();
  if (!kir::lowerable_type(t)) return false;
  const kir::ExprId value = TensorValue ? L.tensor(2, t) : L.scalar(2, t);
  L.set_out(0, L.b.select(L.tensor(1, DType::Bool), value, L.tensor(0, t)));
  return true;
}

// Filled positions take no gradient from self; the value gets their sum.
std::vector<Tensor> grad_masked_fill(const GradCtx& c) {
  const Tensor& mask = c.in(1);
  std::vector<Tensor> g{c.need(0) ? masked_fill(c.grad(), mask, 0.0) : Tensor(), Tensor()};
  if (c.args[2].is_tensor() && c.need(2)) g.push_back(sum(mul(c.grad(), mask)));
  return g;
}

// ---- index_select / index_add / index_copy ----------------------------------------------
// Each op words its index checks in its own way (PyTorch's kernels differ).
void check_index_vector(const Tensor& idx, const char* op) {
  const std::string_view name = op;
  const bool ok = idx.dtype() == DType::Int64 || idx.dtype() == DType::Int32;
  if (name == "index_add") {
    KILN_CHECK(ok, Runtime, "index_add_(): Expected dtype int32/int64 for index but got: ",
               dtype_legacy_name(idx.dtype()));
    KILN_CHECK(idx.dim() <= 1, Index, "index_add_(): Index is supposed to be a vector, but got dim: ", idx.dim(),
               " with type: ", dtype_legacy_name(idx.dtype()), " and size: ", shape_str(idx.sizes()));
    return;
  }
  if (name == "index_copy")
    KILN_CHECK(ok, Runtime, "index_copy_(): Expected a long tensor for index, but got ", dtype_legacy_name(idx.dtype()));
  KILN_CHECK(ok, Runtime, op, "(): Expected dtype int32 or int64 for index");
  KILN_CHECK(idx.dim() <= 1, Index, op, "(): Index is supposed to be a vector");
}
void check_in_range(const IndexValues& idx, int64_t n) {
  for (int64_t i : idx) KILN_CHECK(i >= 0 && i < n, Index, "index out of range in self");
}
// A 0-dim tensor behaves as shape [1] in these ops.
Shape sizes_1d(const Tensor& t) { return t.dim() == 0 ? Shape{1} : t.sizes(); }
// The size of the dim these ops index: a 0-dim self counts as [1].
int64_t indexed_size(const Tensor& self, const Value& dim) {
  return sizes_1d(self)[size_t(self.dim() == 0 ? 0 : wrap_dim(dim.to_int(), self.dim()))];
}

// index_select(Tensor self, int dim, Tensor index)
std::vector<Shape> shape_index_select(const Args& a) {
  const Tensor& self = a[0].tensor();
  const Tensor& idx = a[2].tensor();
  check_index_vector(idx, "index_select");
  int64_t d = wrap_dim(a[1].to_int(), self.dim());
  if (self.dim() == 0) return {Shape{}};
  Shape s = self.sizes();
  s[size_t(d)] = idx.numel();
  return {s};
}
void index_select_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  int64_t d = self.dim() == 0 ? 0 : wrap_dim(a[1].to_int(), self.dim());
  Split3 s = split3(sizes_1d(self), d);
  const IndexValues idx = index_values(a[2].tensor());
  check_in_range(idx, s.n);
  Tensor in = contiguous_raw(self);
  size_t es = self.element_size(), block = size_t(s.inner) * es;
  const char* src = static_cast<const char*>(in.raw_data());
  char* dst = static_cast<char*>(outs[0].raw_data());
  int64_t k = int64_t(idx.size());
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t j = 0; j < k; ++j)
      std::memcpy(dst + size_t(o * k + j) * block, src + size_t(o * s.n + idx[size_t(j)]) * block, block);
}
// The kernel's index check, run by dispatch before it (CheckFn). Dispatch
// calls checks before the shape rules, so those come first here, as they
// would have without a check.
void check_index_select(const Args& a) {
  shape_index_select(a);
  check_in_range(index_values(a[2].tensor()), indexed_size(a[0].tensor(), a[1]));
}
// out[.., k, ..] = self[.., index[k], ..]: index placed at dim `dim` of the
// output, self read along it at the index (the check has bounded it).
bool lower_index_select(kir::Lowering& L) {
  const Tensor& self = L.args[0].tensor();
  const DType t = L.outs[0].dtype();
  if (self.dim() == 0 || !kir::lowerable_type(t)) return false;
  const int64_t d = wrap_dim(L.args[1].to_int(), self.dim());
  kir::ExprId at = L.tensor(2, DType::Int64, int(self.dim() - 1 - d));
  L.set_out(0, L.gather(0, d, at, t, /*keep_dim=*/true));
  return true;
}
std::vector<Tensor> grad_index_select(const GradCtx& c) {
  Tensor z = zeros(c.in_sizes[0], c.grad().dtype());
  return {index_add(z, c.args[1].to_int(), c.in(2), c.grad())};
}

// index_add(self, dim, index, source, *, alpha=1) and index_copy(self, dim, index, source):
// the rows of source go to the rows `index` of a copy of self.
template <bool Add>
std::vector<Shape> shape_index_write(const Args& a) {
  const char* op = Add ? "index_add_" : "index_copy_";
  const Tensor &self = a[0].tensor(), &idx = a[2].tensor(), &src = a[3].tensor();
  check_index_vector(idx, Add ? "index_add" : "index_copy");
  int64_t d = wrap_dim(a[1].to_int(), self.dim());
  KILN_CHECK(src.dtype() == self.dtype(), Runtime, op, "(): self (", dtype_legacy_name(self.dtype()),
             ") and source (", dtype_legacy_name(src.dtype()), ") must have the same scalar type");
  Shape ss = sizes_1d(src), ts = sizes_1d(self);
  KILN_CHECK(ss.size() == ts.size(), Index, op, "(): Source/destination tensor must have same slice shapes.");
  KILN_CHECK(idx.numel() == ss[size_t(d)], Index, op, "(): Number of indices (", idx.numel(),
             ") should be equal to source.size(dim) (", ss[size_t(d)], ")");
  for (size_t i = 0; i < ss.size(); ++i)
    KILN_CHECK(int64_t(i) == d || ss[i] == ts[i], Index, op,
               "(): Source/destination tensor must have same slice shapes. Destination slice shape: ", shape_str(ts),
               " at dimension ", d, " and source slice shape: ", shape_str(ss), " at dimension ", d, ".");
  return {self.sizes()};
}
template <bool Add>
void index_write_kernel(const Args& a, std::vector<Tensor>& outs) {
  Tensor& out = outs[0];  // contiguous
  copy_cast(out, a[0].tensor());
  int64_t d = out.dim() == 0 ? 0 : wrap_dim(a[1].to_int(), out.dim());
  Split3 s = split3(sizes_1d(out), d);
  const IndexValues idx = index_values(a[2].tensor());
  check_in_range(idx, s.n);
  Tensor src = contiguous_raw(a[3].tensor());
  int64_t k = int64_t(idx.size());
  double alpha = Add ? a[4].to_double() : 1.0;
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    T* o = out.data<T>();
    const T* p = src.data<T>();
    for (int64_t b = 0; b < s.outer; ++b)
      for (int64_t j = 0; j < k; ++j) {
        T* row = o + (b * s.n + idx[size_t(j)]) * s.inner;
        const T* from = p + (b * k + j) * s.inner;
        for (int64_t i = 0; i < s.inner; ++i) {
          if constexpr (Add) {
            if constexpr (std::is_same_v<C, bool>) row[i] = T(C(row[i]) || (alpha != 0 && C(from[i])));
            else row[i] = T(C(row[i]) + C(alpha) * C(from[i]));
          } else {
            row[i] = from[i];
          }
        }
      }
  });
}
template <bool Add>
void check_index_write(const Args& a) {
  shape_index_write<Add>(a);
  check_in_range(index_values(a[2].tensor()), indexed_size(a[0].tensor(), a[1]));
}
std::vector<Tensor> grad_index_add(const GradCtx& c) {
  double alpha = c.args[4].to_double();
  Tensor g_src;
  if (c.need(2)) {
    g_src = index_select(c.grad(), c.args[1].to_int(), c.in(2));
    if (alpha != 1) g_src = mul(g_src, alpha);
  }
  return {c.grad(), Tensor(), g_src};
}
std::vector<Tensor> grad_index_copy(const GradCtx& c) {
  int64_t d = c.args[1].to_int();
  Tensor g_self = c.need(0) ? index_copy(c.grad(), d, c.in(2), zeros(c.in_sizes[2], c.grad().dtype())) : Tensor();
  Tensor g_src = c.need(2) ? index_select(c.grad(), d, c.in(2)) : Tensor();
  return {g_self, Tensor(), g_src};
}

// ---- gather / scatter_add ------------------------------------------------------------------
// The kernels' bounds check: index values in row-major order, negatives wrapping.
// gather and the scatters take no negative index (PyTorch raises a RuntimeError there).
void check_bounds_along(const Tensor& idx, int64_t d, int64_t size) {
  for (int64_t i : index_values(idx))
    KILN_CHECK(i >= 0 && i < size, Runtime, "index ", i, " is out of bounds for dimension ", d, " with size ", size);
}

// gather's lowering: out[i][j] = self[i][index[i][j]] (dim 1), when self's
// other dims are the index's (PyTorch also allows them larger; that use runs
// its eager kernel).
bool lower_gather(kir::Lowering& L) {
  const Tensor &self = L.args[0].tensor(), &idx = L.args[2].tensor();
  const DType t = L.outs[0].dtype();
  if (self.dim() == 0 || self.dim() != idx.dim() || !kir::lowerable_type(t)) return false;
  const int64_t d = wrap_dim(L.args[1].to_int(), self.dim());
  for (int64_t i = 0; i < self.dim(); ++i)
    if (i != d && self.size(i) != idx.size(i)) return false;
  L.set_out(0, L.gather(0, d, L.tensor(2, DType::Int64), t, /*keep_dim=*/true));
  return true;
}

// gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False): out[p] = self[p with p[dim] = index[p]].
std::vector<Shape> shape_gather(const Args& a) {
  const Tensor &self = a[0].tensor(), &idx = a[2].tensor();
  KILN_CHECK(idx.dtype() == DType::Int64, Runtime, "gather(): Expected dtype int64 for index");
  int64_t d = wrap_dim(a[1].to_int(), self.dim());
  KILN_CHECK(std::max<int64_t>(idx.dim(), 1) == std::max<int64_t>(self.dim(), 1), Runtime,
             "Index tensor must have the same number of dimensions as input tensor");
  for (int64_t i = 0; i < idx.dim(); ++i)
    KILN_CHECK(i == d || idx.sizes()[size_t(i)] <= sizes_1d(self)[size_t(i)], Runtime,
               "Size does not match at dimension ", i, " expected index ", idx.shape_str(),
               " to be no larger than self ", self.shape_str(), " apart from dimension ", d);
  return {idx.sizes()};
}
// Walks the index's positions with three operands: `dense` (gather's out,
// scatter's src; at the index's shape), the index itself, and `side`
// (gather's self, scatter's out) with its dim-d stride left out, which the
// index value supplies. run(dense_ptr, side_ptr_before_d, index_value) per
// position, in row-major order over [begin, end).
Shape strides_1d(const Tensor& t) { return t.dim() == 0 ? Shape{0} : t.strides(); }
template <class D, class S, class Run>
void along_index(D* dense, const Shape& dense_st, const Tensor& idx, S* side, Shape side_st, int64_t d,
                 int64_t begin, int64_t end, const Run& run) {
  if (begin >= end) return;  // an empty index: for_range would divide by its zero size
  kernels::Iter<3> it;
  it.sizes = sizes_1d(idx);
  side_st[size_t(d)] = 0;
  it.strides = {dense_st, strides_1d(idx), side_st};
  it.base = {reinterpret_cast<char*>(const_cast<std::remove_const_t<D>*>(dense)),
             static_cast<char*>(idx.raw_data()), reinterpret_cast<char*>(const_cast<std::remove_const_t<S>*>(side))};
  it.elem = {sizeof(D), sizeof(int64_t), sizeof(S)};
  it.coalesce();
  it.for_range(begin, end, [&](const std::array<char*, 3>& p, const std::array<int64_t, 3>& st, int64_t cnt) {
    D* dp = reinterpret_cast<D*>(p[0]);
    const int64_t* ix = reinterpret_cast<const int64_t*>(p[1]);
    S* sp = reinterpret_cast<S*>(p[2]);
    for (int64_t k = 0; k < cnt; ++k) run(dp + k * st[0], sp + k * st[2], ix[k * st[1]]);
  });
}
// An index value along dim d of size n, or PyTorch's error (no negative indices here).
inline int64_t checked_index(int64_t i, int64_t d, int64_t n) {
  KILN_CHECK(i >= 0 && i < n, Runtime, "index ", i, " is out of bounds for dimension ", d, " with size ", n);
  return i;
}

void gather_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor &self = a[0].tensor(), &idx = a[2].tensor();
  const int64_t d = wrap_dim(a[1].to_int(), self.dim());
  const Shape side_st = strides_1d(self);
  const int64_t n = sizes_1d(self)[size_t(d)], sd = side_st[size_t(d)];
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = self.data<T>();
    T* out = outs[0].data<T>();
    parallel_for(0, idx.numel(), kernels::kGrain, [&](int64_t b, int64_t e) {
      along_index(out, strides_1d(outs[0]), idx, in, side_st, d, b, e, [&](T* o, const T* row, int64_t i) {
        *o = row[checked_index(i, d, n) * sd];
      });
    });
  });
}
void check_gather(const Args& a) {
  shape_gather(a);  // shape rules first (see check_index_select)
  const Tensor& self = a[0].tensor();
  int64_t d = wrap_dim(a[1].to_int(), self.dim());
  check_bounds_along(a[2].tensor(), d, sizes_1d(self)[size_t(d)]);
}
std::vector<Tensor> grad_gather(const GradCtx& c) {
  Tensor z = zeros(c.in_sizes[0], c.grad().dtype());
  return {scatter_add(z, c.args[1].to_int(), c.in(2), c.grad())};
}

// scatter_add(Tensor self, int dim, Tensor index, Tensor src): out[p with p[dim] = index[p]] += src[p];
// scatter (Add false) writes src[p] there. scatter's src may be a Python
// number (scatter(dim, index, 2.0) binds the Tensor overload first): it is
// then the value written at every index position.
bool is_value_src(const Tensor& src) { return src.impl()->is_wrapped_number; }
template <bool Add>
std::vector<Shape> shape_scatter(const Args& a) {
  const Tensor &self = a[0].tensor(), &idx = a[2].tensor(), &src = a[3].tensor();
  const bool value = !Add && is_value_src(src);
  KILN_CHECK(idx.dtype() == DType::Int64, Runtime, "scatter(): Expected dtype int64 for index");
  KILN_CHECK(value || src.dtype() == self.dtype(), Runtime, "scatter(): Expected self.dtype to be equal to src.dtype");
  int64_t d = wrap_dim(a[1].to_int(), self.dim());
  KILN_CHECK(std::max<int64_t>(idx.dim(), 1) == std::max<int64_t>(self.dim(), 1) &&
                 (value || std::max<int64_t>(src.dim(), 1) == std::max<int64_t>(self.dim(), 1)),
             Runtime, "Index tensor must have the same number of dimensions as self tensor");
  for (int64_t i = 0; i < idx.dim(); ++i) {
    bool ok = (value || idx.sizes()[size_t(i)] <= sizes_1d(src)[size_t(i)]) &&
              (i == d || idx.sizes()[size_t(i)] <= sizes_1d(self)[size_t(i)]);
    KILN_CHECK(ok, Runtime, "Expected index ", idx.shape_str(), " to be smaller than self ", self.shape_str(),
               " apart from dimension ", d, " and to be smaller size than src ", src.shape_str());
  }
  return {self.sizes()};
}
// Copies self into out, then calls f(out_data, src_data, out_offset,
// src_offset) at each index position: the element of out the index points at
// along dim, and src's element there (src cast to out's dtype).
template <class F>
void scatter_into(const Args& a, const Tensor& out, F&& f) {
  copy_cast(out, a[0].tensor());
  const Tensor src = cast_to(a[3].tensor(), out.dtype());  // a value src's dtype is its Python number's
  const Tensor& idx = a[2].tensor();
  const int64_t d = wrap_dim(a[1].to_int(), out.dim());
  const Shape out_st = strides_1d(out);
  const int64_t n = sizes_1d(out)[size_t(d)], od = out_st[size_t(d)];
  const Shape src_st = src.dim() == 0 ? Shape(sizes_1d(idx).size(), 0) : src.strides();
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // One thread: positions may collide, and the last write must win as on PyTorch's CPU.
    T* base = out.data<T>();
    along_index(src.data<T>(), src_st, idx, base, out_st, d, 0, idx.numel(), [&](const T* from, T* row, int64_t i) {
      f(base, (row - base) + checked_index(i, d, n) * od, *from);
    });
  });
}
// scatter_add sums into the copy of self; scatter writes, the last write to a
// position winning as on PyTorch's CPU.
template <bool Add>
void scatter_kernel(const Args& a, std::vector<Tensor>& outs) {
  scatter_into(a, outs[0], [](auto* o, int64_t od, const auto& v) {
    using T = std::remove_cvref_t<decltype(v)>;
    using C = compute_t<T>;
    if constexpr (!Add) o[od] = v;
    else if constexpr (std::is_same_v<C, bool>) o[od] = C(o[od]) || C(v);
    else o[od] = static_cast<T>(C(o[od]) + C(v));
  });
}

// scatter_reduce(self, dim, index, src, str reduce, *, include_self=True):
// each position the index points at combines src's values (and self's
// unless include_self=False) by sum, prod, mean, amax or amin; NaN wins amax
// and amin; an integer mean rounds down.
enum class ScatterReduce { Sum, Prod, Mean, Amax, Amin };
ScatterReduce scatter_reduce_of(const std::string& r) {
  if (r == "sum") return ScatterReduce::Sum;
  if (r == "prod") return ScatterReduce::Prod;
  if (r == "mean") return ScatterReduce::Mean;
  if (r == "amax" || r == "max") return ScatterReduce::Amax;  // PyTorch 2.x takes max and min too
  KILN_CHECK(r == "amin" || r == "min", Runtime, "reduce argument must be either sum, prod, mean, amax or amin, got ", r);
  return ScatterReduce::Amin;
}
std::vector<Shape> shape_scatter_reduce(const Args& a) {
  scatter_reduce_of(a[4].str());
  return shape_scatter<true>(a);
}
template <class C>
C reduce_pair(ScatterReduce r, C cur, C v) {
  if constexpr (std::is_floating_point_v<C>)
    if ((r == ScatterReduce::Amax || r == ScatterReduce::Amin) && std::isnan(v)) return v;
  switch (r) {
    case ScatterReduce::Prod: return C(cur * v);
    case ScatterReduce::Amax: return std::max(cur, v);
    case ScatterReduce::Amin: return std::min(cur, v);
    default: return C(cur + v);
  }
}
void scatter_reduce_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& out = outs[0];
  const ScatterReduce r = scatter_reduce_of(a[4].str());
  // Per out element: how many values it combines (the mean's divisor); 0: none yet.
  std::vector<int64_t> count(size_t(out.numel()), a[5].to_bool() ? 1 : 0);
  // out is freshly allocated, so an element's offset is its index in count.
  scatter_into(a, out, [&](auto* o, int64_t od, const auto& v) {
    using T = std::remove_cvref_t<decltype(v)>;
    using C = compute_t<T>;
    o[od] = count[size_t(od)]++ == 0 ? v : T(reduce_pair<C>(r, C(o[od]), C(v)));
  });
  if (r != ScatterReduce::Mean) return;
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    T* o = out.data<T>();
    for (size_t k = 0; k < count.size(); ++k) {
      if (count[k] <= 1) continue;
      if constexpr (std::is_floating_point_v<C>) o[k] = T(C(o[k]) / C(count[k]));
      else o[k] = T(std::floor(double(o[k]) / double(count[k])));
    }
  });
}
std::vector<Tensor> scatter_reduce_composite(const Args& a) {
  return {invoke("scatter_reduce.two", {a[0], a[1], a[2], a[3], a[4], a[5]})};
}

// index_reduce(self, dim, index, source, str reduce, *, include_self=True):
// source's slice i reduced into self's slice index[i]: scatter_reduce with
// the index spread over source's shape. PyTorch names index_reduce_ in its
// errors, for both forms.
std::vector<Tensor> index_reduce_composite(const Args& a) {
  const Tensor &self = a[0].tensor(), &idx = a[2].tensor(), &src = a[3].tensor();
  const std::string& r = a[4].str();
  KILN_CHECK(r == "prod" || r == "mean" || r == "amax" || r == "amin", Runtime,
             "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got ", r, ".");
  KILN_CHECK(idx.dtype() == DType::Int64 || idx.dtype() == DType::Int32, Runtime,
             "index_reduce_(): Expected dtype int32/int64 for index but got: ", dtype_legacy_name(idx.dtype()));
  KILN_CHECK(idx.dim() <= 1, Index, "index_reduce_(): Index is supposed to be a vector");
  int64_t d = self.dim() == 0 ? 0 : wrap_dim(a[1].to_int(), self.dim());
  Shape ss = sizes_1d(src);
  KILN_CHECK(size_t(d) < ss.size() && idx.numel() == ss[size_t(d)], Runtime,
             "index_reduce_(): Number of indices (", idx.numel(), ") should be equal to source.size(dim): (",
             size_t(d) < ss.size() ? ss[size_t(d)] : 0, "), for dim: ", d);
  check_in_range(index_values(copy_to_device(idx, Device{})), sizes_1d(self)[size_t(d)]);  // read on the host
  Shape along(ss.size(), 1);
  along[size_t(d)] = -1;
  Tensor spread = expand(reshape(to_dtype(idx, DType::Int64), along), ss);
  return {invoke("scatter_reduce.two", {a[0], d, spread, a[3], a[4], a[5]})};
}

template <bool Add>
void check_scatter(const Args& a) {
  shape_scatter<Add>(a);  // shape rules first (see check_index_select)
  const Tensor& self = a[0].tensor();
  int64_t d = wrap_dim(a[1].to_int(), self.dim());
  check_bounds_along(a[2].tensor(), d, sizes_1d(self)[size_t(d)]);
}
// src's gradient, computed over the index's extent: src may be larger, and
// its other elements get zeros (padded at each dim's end).
Tensor pad_to_src(const Tensor& g, const GradCtx& c) {
  const Shape& src = c.in_sizes[2];
  if (g.sizes() == src) return g;
  Shape pad;
  for (int64_t d = g.dim() - 1; d >= 0; --d) pad.insert(pad.end(), {0, src[size_t(d)] - g.size(d)});
  return invoke("constant_pad_nd", {g, pad, 0});
}
std::vector<Tensor> grad_scatter_add(const GradCtx& c) {
  return {c.grad(), Tensor(), c.need(2) ? pad_to_src(gather(c.grad(), c.args[1].to_int(), c.in(2)), c) : Tensor()};
}
// The positions scatter wrote lose self's gradient.
std::vector<Tensor> grad_scatter(const GradCtx& c) {
  Tensor g_self = c.need(0) ? invoke("scatter.value", {c.grad(), c.args[1], c.in(2), 0}) : Tensor();
  return {g_self, Tensor(), c.need(2) ? pad_to_src(gather(c.grad(), c.args[1].to_int(), c.in(2)), c) : Tensor()};
}
// PyTorch's scatter_reduce_backward, with src read over the index's extent.
Tensor grad_scatter_reduce_self(const GradCtx& c, ScatterReduce r, const Tensor& src, std::vector<Tensor>* g_src) {
  const Tensor &g = c.grad(), &self = c.in(0), &idx = c.in(2), &result = c.out(0);
  const int64_t d = c.args[1].to_int();
  const bool include_self = c.args[5].to_bool();
  auto reduce = [&](const Tensor& s, const Tensor& from) {
    return invoke("scatter_reduce.two", {s, d, idx, from, c.args[4], include_self});
  };
  if (r == ScatterReduce::Sum) {
    g_src->push_back(gather(g, d, idx));
    return g;
  }
  if (r == ScatterReduce::Mean) {
    Tensor n = scatter_add(include_self ? ones_like(g) : zeros_like(g), d, idx, ones_like(src, g.dtype()));
    n = masked_fill(n, eq(n, scalar_tensor(0, DType::Int64, true)), 1.0);
    Tensor g_self = div(g, n);
    g_src->push_back(gather(g_self, d, idx));
    return g_self;
  }
  if (r == ScatterReduce::Amax || r == ScatterReduce::Amin) {  // shared evenly among the values equal to the result
    Tensor self_is = to_dtype(eq(self, result), g.dtype()), src_is = to_dtype(eq(src, gather(result, d, idx)), g.dtype());
    Tensor share = div(g, scatter_add(self_is, d, idx, src_is));
    g_src->push_back(mul(src_is, gather(share, d, idx)));
    return mul(self_is, share);
  }
  // prod: products without the element itself, exact when one factor is zero.
  Tensor zero = scalar_tensor(0, DType::Int64, true);
  Tensor masked_self = masked_fill(self, eq(self, zero), 1.0);
  Tensor src_zero = eq(src, zero);
  Tensor zeros_there = gather(scatter_add(zeros_like(g), d, idx, to_dtype(src_zero, g.dtype())), d, idx);
  Tensor single_zero = logical_and(src_zero, eq(zeros_there, scalar_tensor(1, DType::Int64, true)));
  Tensor without_zero = gather(mul(g, reduce(self, masked_fill(src, single_zero, 1.0))), d, idx);
  g_src->push_back(where(single_zero, without_zero, div(gather(mul(g, result), d, idx), masked_fill(src, src_zero, 1.0))));
  return div(mul(g, reduce(masked_self, src)), masked_self);
}
std::vector<Tensor> grad_scatter_reduce(const GradCtx& c) {
  const Tensor &idx = c.in(2), &full_src = c.in(3);
  Tensor src = full_src;
  for (int64_t k = 0; k < src.dim(); ++k)
    if (src.size(k) != idx.size(k)) src = narrow(src, k, 0, idx.size(k));
  std::vector<Tensor> g_src;
  Tensor g_self = grad_scatter_reduce_self(c, scatter_reduce_of(c.args[4].str()), src, &g_src);
  if (!c.args[5].to_bool()) g_self = invoke("scatter.value", {g_self, c.args[1], idx, 0});
  return {g_self, Tensor(), c.need(2) ? pad_to_src(g_src[0], c) : Tensor()};
}
std::vector<Tensor> scatter_src_composite(const Args& a) { return {invoke("scatter.src", {a[0], a[1], a[2], a[3]})}; }
// scatter(Tensor self, int dim, Tensor index, Scalar value): scatter.src with the value as a Python number.
std::vector<Tensor> scatter_value_composite(const Args& a) {
  Tensor value = scalar_tensor(a[3].to_double(), a[3].is_double() ? DType::Float64 : DType::Int64, true);
  return {invoke("scatter.src", {a[0], a[1], a[2], value})};
}

// scatter(self, dim, index, src | value, *, str reduce): the older accumulating
// forms. PyTorch's "add" and "multiply" are scatter_reduce's "sum" and "prod"
// over self's own values.
const char* scatter_reduce_name(const Value& reduce) {
  const std::string& r = reduce.str();
  KILN_CHECK(r == "add" || r == "multiply", Runtime, "reduce argument must be either add or multiply.");
  return r == "add" ? "sum" : "prod";
}
Tensor scatter_reduce_with(const Args& a, double value) {
  Tensor src = full(a[2].tensor().sizes(), value, a[0].tensor().dtype());
  return invoke("scatter_reduce.two", {a[0], a[1], a[2], src, scatter_reduce_name(a[4]), true});
}
std::vector<Tensor> scatter_src_reduce_composite(const Args& a) {
  const Tensor& src = a[3].tensor();
  if (is_value_src(src)) return {scatter_reduce_with(a, src.item_double())};  // a Python number binds here first
  return {invoke("scatter_reduce.two", {a[0], a[1], a[2], src, scatter_reduce_name(a[4]), true})};
}
std::vector<Tensor> scatter_value_reduce_composite(const Args& a) { return {scatter_reduce_with(a, a[3].to_double())}; }

// ---- nonzero --------------------------------------------------------------------------------
// Calls f(linear index) for each nonzero element (NaN included, -0.0 not), in
// row-major order, reading the data once through its own dtype.
template <class F>
void for_each_nonzero(const Tensor& device_tensor, F&& f) {
  const Tensor t = contiguous(copy_to_device(device_tensor, Device{}));
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const T* p = t.data<T>();
    for (int64_t i = 0, n = t.numel(); i < n; ++i)
      if (C(p[i]) != C(0)) f(i);
  });
}
std::vector<Shape> shape_nonzero(const Args& a) {
  const Tensor& self = a[0].tensor();
  int64_t count = 0;
  for_each_nonzero(self, [&](int64_t) { ++count; });
  return {{count, self.dim()}};
}
std::vector<DType> dtype_int64(const Args&) { return {DType::Int64}; }
void nonzero_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Shape& sizes = a[0].tensor().sizes();
  const size_t ndim = sizes.size();
  int64_t* out = outs[0].data<int64_t>();
  for_each_nonzero(a[0].tensor(), [&](int64_t lin) {
    for (size_t d = ndim; d-- > 0;) {  // the row-major position of lin
      out[d] = ndim == 1 ? lin : lin % sizes[d];
      lin = ndim == 1 ? 0 : lin / sizes[d];
    }
    out += ndim;
  });
}


// ---- Python subscripts ------------------------------------------------------------------------
// One advanced (tensor) index after the basic indices are applied: it
// indexes dim `pos` of the basic view (dims pos..pos+k-1 for a k-dim mask).
struct Advanced {
  int64_t pos = 0, real = 0;  // dim in the view / in the original tensor (for messages)
  Tensor index;               // integer index tensor, or
  Tensor mask;                // bool mask over k dims
};
struct BasicResult {
  Tensor view;
  std::vector<Advanced> adv;
};

// A uint8 index tensor is a mask, as in PyTorch (which warns that this is deprecated).
bool is_bool_index(const TensorIndex& i) {
  return i.kind == TensorIndex::Tensor_ && (i.tensor.dtype() == DType::Bool || i.tensor.dtype() == DType::UInt8);
}

// Dims of the indexed tensor an index entry consumes.
int64_t consumed_dims(const TensorIndex& i) {
  switch (i.kind) {
    case TensorIndex::Int:
    case TensorIndex::Slice: return 1;
    case TensorIndex::Tensor_: return is_bool_index(i) ? i.tensor.dim() : 1;
    default: return 0;
  }
}

// Applies ints, slices, None and Ellipsis as views; collects tensor indices.
BasicResult basic_index(const Tensor& self, const std::vector<TensorIndex>& indices) {
  int64_t consumed = 0, ellipses = 0;
  for (const TensorIndex& i : indices) {
    consumed += consumed_dims(i);
    ellipses += i.kind == TensorIndex::Ellipsis;
  }
  KILN_CHECK(ellipses <= 1, Index, "an index can only have a single ellipsis ('...')");
  KILN_CHECK(consumed <= self.dim(), Index, "too many indices for tensor of dimension ", self.dim());
  BasicResult r{self, {}};
  int64_t d = 0, real = 0;
  for (const TensorIndex& i : indices) {
    switch (i.kind) {
      case TensorIndex::Int: {
        int64_t size = r.view.sizes()[size_t(d)];
        KILN_CHECK(i.index >= -size && i.index < size, Index, "index ", i.index, " is out of bounds for dimension ",
                   real, " with size ", size);
        r.view = select(r.view, d, i.index);
        ++real;
        break;
      }
      case TensorIndex::Slice:
        KILN_CHECK(i.step > 0, Value, "step must be greater than zero");
        r.view = slice(r.view, d++, i.start, i.stop, i.step);
        ++real;
        break;
      case TensorIndex::None: r.view = unsqueeze(r.view, d++); break;
      case TensorIndex::Ellipsis:
        d += self.dim() - consumed;
        real += self.dim() - consumed;
        break;
      case TensorIndex::Tensor_: {
        const Tensor t = i.tensor.dtype() == DType::UInt8 ? to_dtype(i.tensor, DType::Bool) : i.tensor;
        if (is_bool_index(i)) {
          if (t.dim() == 0) {  // x[True] adds a dim of size 1, x[False] one of size 0
            r.view = unsqueeze(r.view, d);
            if (!t.item_bool()) r.view = slice(r.view, d, 0, 0, 1);
            ++d;
            break;
          }
          for (int64_t k = 0; k < t.dim(); ++k) {
            int64_t have = r.view.sizes()[size_t(d + k)];
            KILN_CHECK(t.sizes()[size_t(k)] == have, Index, "The shape of the mask ", t.shape_str(), " at index ", k,
                       " does not match the shape of the indexed tensor ", r.view.shape_str(), " at index ", d + k);
          }
          r.adv.push_back({d, real, {}, t});
          d += t.dim();
          real += t.dim();
        } else {
          KILN_CHECK(t.dtype() == DType::Int64 || t.dtype() == DType::Int32, Index,
                     "tensors used as indices must be long, int, byte or bool tensors");
          r.adv.push_back({d++, real++, t, {}});
        }
        break;
      }
    }
  }
  return r;
}

// One integer index per indexed dim (masks become their nonzero coordinates).
struct DimIndex {
  int64_t pos, real;
  Tensor index;
};
std::vector<DimIndex> expand_masks(const std::vector<Advanced>& adv) {
  std::vector<DimIndex> out;
  for (const Advanced& a : adv) {
    if (a.index.defined()) {
      out.push_back({a.pos, a.real, a.index});
      continue;
    }
    Tensor nz = nonzero(a.mask);  // [n, k]
    for (int64_t k = 0; k < a.mask.dim(); ++k) out.push_back({a.pos + k, a.real + k, select(nz, 1, k)});
  }
  return out;
}

// The plan for gathering/scattering along several indexed dims at once:
// permute them to the front, flatten them to one dim, index it linearly.
struct AdvancedPlan {
  Shape perm;        // indexed dims first, then the rest in order
  Shape bshape;      // broadcast shape of the index tensors
  Shape rest;        // sizes of the non-indexed dims
  int64_t flat = 1;  // product of the indexed dims' sizes
  Tensor linear;     // [numel(bshape)] int64 positions in the flattened dim
  int64_t insert_at = 0;  // where the index dims go in the result
};

AdvancedPlan plan_advanced(const Tensor& v, const std::vector<DimIndex>& idx) {
  AdvancedPlan p;
  std::vector<bool> indexed(size_t(v.dim()), false);
  for (const DimIndex& i : idx) {
    p.perm.push_back(i.pos);
    indexed[size_t(i.pos)] = true;
    p.flat *= v.sizes()[size_t(i.pos)];
  }
  for (int64_t d = 0; d < v.dim(); ++d)
    if (!indexed[size_t(d)]) {
      p.perm.push_back(d);
      p.rest.push_back(v.sizes()[size_t(d)]);
    }
  bool adjacent = true;
  for (size_t k = 1; k < idx.size(); ++k) adjacent = adjacent && idx[k].pos == idx[k - 1].pos + 1;
  p.insert_at = adjacent ? idx[0].pos : 0;
  p.bshape = idx[0].index.sizes();
  for (size_t k = 1; k < idx.size(); ++k) {
    try {
      p.bshape = broadcast_shapes(p.bshape, idx[k].index.sizes());
    } catch (const Error&) {
      std::string shapes;
      for (size_t j = 0; j < idx.size(); ++j) shapes += (j ? ", " : "") + idx[j].index.shape_str();
      throw Error("shape mismatch: indexing tensors could not be broadcast together with shapes " + shapes,
                  ErrorKind::Index);
    }
  }
  int64_t n = shape_numel(p.bshape);
  std::vector<double> lin(size_t(n), 0.0);
  for (const DimIndex& i : idx) {
    int64_t size = v.sizes()[size_t(i.pos)];
    const Tensor host = copy_to_device(i.index, Device{});  // read element by element: once to the host
    Tensor e = make_view(host, p.bshape, kernels::broadcast_strides(host, p.bshape), host.offset());
    for (int64_t k = 0; k < n; ++k) {
      int64_t x = int64_t(element_as_double(e, k));
      KILN_CHECK(x >= -size && x < size, Index, "index ", x, " is out of bounds for dimension ", i.real,
                 " with size ", size);
      lin[size_t(k)] = lin[size_t(k)] * double(size) + double(x < 0 ? x + size : x);
    }
  }
  p.linear = copy_to_device(tensor_from(lin, {n}, DType::Int64), v.device());
  return p;
}

// Moves the leading index dims (nb of them) of a [bshape..., rest...] tensor to insert_at.
Shape result_perm(const AdvancedPlan& p) {
  int64_t nb = int64_t(p.bshape.size()), nr = int64_t(p.rest.size());
  Shape perm;
  for (int64_t i = 0; i < p.insert_at; ++i) perm.push_back(nb + i);
  for (int64_t i = 0; i < nb; ++i) perm.push_back(i);
  for (int64_t i = p.insert_at; i < nr; ++i) perm.push_back(nb + i);
  return perm;
}
Shape inverse_perm(const Shape& perm) {
  Shape inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv[size_t(perm[i])] = int64_t(i);
  return inv;
}
Shape concat(Shape a, const Shape& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Tensor advanced_gather(const Tensor& v, const std::vector<Advanced>& adv) {
  std::vector<DimIndex> idx = expand_masks(adv);
  AdvancedPlan p = plan_advanced(v, idx);
  Tensor flat = reshape(permute(v, p.perm), concat({p.flat}, p.rest));
  Tensor picked = reshape(index_select(flat, 0, p.linear), concat(p.bshape, p.rest));
  return p.insert_at == 0 ? picked : permute(picked, result_perm(p));
}

// Drops leading size-1 dims beyond `ndim`, as PyTorch does for assigned values.
Tensor strip_leading_ones(Tensor value, int64_t ndim) {
  while (value.dim() > ndim && value.size(0) == 1) value = squeeze(value, Shape{0});
  return value;
}

// v[adv] = value, functionally: v with the indexed positions replaced.
// The value of an advanced-index write must broadcast to what the index selects (leading 1s aside).
void check_value_fits(const Tensor& value, const Shape& result) {
  const Shape& vs = value.sizes();
  size_t lead = 0;
  while (vs.size() - lead > result.size() && vs[lead] == 1) ++lead;
  bool fits = vs.size() - lead <= result.size();
  for (size_t i = 0; fits && i < vs.size() - lead; ++i) {
    int64_t have = vs[vs.size() - 1 - i], want = result[result.size() - 1 - i];
    fits = have == want || have == 1;
  }
  KILN_CHECK(fits, Runtime, "shape mismatch: value tensor of shape ", shape_str(vs),
             " cannot be broadcast to indexing result of shape ", shape_str(result));
}

Tensor advanced_scatter(const Tensor& v, const std::vector<Advanced>& adv, const Tensor& value, bool accumulate) {
  std::vector<DimIndex> idx = expand_masks(adv);
  AdvancedPlan p = plan_advanced(v, idx);
  Shape permuted = concat({p.flat}, p.rest);
  Tensor flat = reshape(permute(v, p.perm), permuted);
  // The value broadcast to the indexing result, then laid out [bshape..., rest...].
  Shape rperm = result_perm(p);
  Shape result_shape(rperm.size());
  Shape b_rest = concat(p.bshape, p.rest);
  for (size_t i = 0; i < rperm.size(); ++i) result_shape[i] = b_rest[size_t(rperm[i])];
  check_value_fits(value, result_shape);
  Tensor val = expand(strip_leading_ones(to_dtype(value, v.dtype()), int64_t(result_shape.size())), result_shape);
  if (p.insert_at != 0) val = permute(val, inverse_perm(rperm));
  val = reshape(contiguous(val), concat({shape_numel(p.bshape)}, p.rest));
  Tensor written = accumulate ? index_add(flat, 0, p.linear, val, 1.0) : index_copy(flat, 0, p.linear, val);
  Shape front;
  for (int64_t d : p.perm) front.push_back(v.sizes()[size_t(d)]);
  return permute(reshape(written, front), inverse_perm(p.perm));
}

// The functional forms of the in-place index writes.
constexpr char kIndexAdd[] = "index_add";
constexpr char kIndexCopy[] = "index_copy";
constexpr char kScatterAdd[] = "scatter_add";

}  // namespace
}  // namespace ops

void register_index_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind P = OpKind::Pointwise, S = OpKind::Shape;
  // The Tensor overload first: call_op binds the first that accepts the
  // arguments, and a Python number converts to a Tensor but a 0-dim tensor
  // passed as Scalar would lose its autograd history.
  t.add({.schema_text = "masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", .kind = P,
         .shape = shape_masked_fill, .dtype = dtype_like_self, .kernel = masked_fill_tensor_kernel,
         .grad = grad_masked_fill, .saves = save_in(1), .lower = lower_masked_fill<true>});
  t.add({.schema_text = "masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", .kind = P,
         .shape = shape_masked_fill, .dtype = dtype_fill<2>, .kernel = masked_fill_scalar_kernel,
         .grad = grad_masked_fill, .saves = save_in(1), .lower = lower_masked_fill<false>});
  t.add({.schema_text = "masked_fill_.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor",
         .inplace_of = "masked_fill.Tensor"});
  t.add({.schema_text = "masked_fill_.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor",
         .inplace_of = "masked_fill.Scalar"});
  t.add({.schema_text = "index_select(Tensor self, int dim, Tensor index) -> Tensor", .kind = S,
         .shape = shape_index_select, .dtype = dtype_like_self, .kernel = index_select_kernel,
         .grad = grad_index_select, .saves = save_in(2), .check = check_index_select, .lower = lower_index_select});
  t.add({.schema_text = "index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor",
         .kind = S, .shape = shape_index_write<true>, .dtype = dtype_like_self, .kernel = index_write_kernel<true>,
         .grad = grad_index_add, .saves = save_in(2), .check = check_index_write<true>});
  t.add({.schema_text = "index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", .kind = S,
         .shape = shape_index_write<false>, .dtype = dtype_like_self, .kernel = index_write_kernel<false>,
         .grad = grad_index_copy, .saves = save_in(2), .check = check_index_write<false>});
  t.add({.schema_text = "index_add_(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor",
         .kind = OpKind::Composite, .composite = write_back_composite<functional_of<kIndexAdd>>});
  t.add({.schema_text = "index_copy_(Tensor self, int dim, Tensor index, Tensor source) -> Tensor",
         .kind = OpKind::Composite, .composite = write_back_composite<functional_of<kIndexCopy>>});
  t.add({.schema_text = "gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", .kind = S,
         .shape = shape_gather, .dtype = dtype_like_self, .kernel = gather_kernel, .grad = grad_gather,
         .saves = save_in(2), .check = check_gather, .lower = lower_gather});
  t.add({.schema_text = "scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", .kind = S,
         .shape = shape_scatter<true>, .dtype = dtype_like_self, .kernel = scatter_kernel<true>,
         .grad = grad_scatter_add, .saves = save_in(2), .check = check_scatter<true>});
  t.add({.schema_text = "scatter_add_(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
         .kind = OpKind::Composite, .composite = write_back_composite<functional_of<kScatterAdd>>});
  t.add({.schema_text = "scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", .kind = S,
         .shape = shape_scatter<false>, .dtype = dtype_like_self, .kernel = scatter_kernel<false>,
         .grad = grad_scatter, .saves = save_in(2), .check = check_scatter<false>});
  t.add({.schema_text = "scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
         .kind = OpKind::Composite, .composite = scatter_value_composite, .grad_node = "ScatterBackward1"});
  t.add({.schema_text = "scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor",
         .kind = OpKind::Composite, .composite = scatter_src_reduce_composite});
  t.add({.schema_text = "scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> "
                        "Tensor",
         .kind = OpKind::Composite, .composite = scatter_value_reduce_composite});
  t.add({.schema_text = "scatter_.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor",
         .kind = OpKind::Composite, .composite = write_back_composite<scatter_src_reduce_composite>});
  t.add({.schema_text = "scatter_.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> "
                        "Tensor",
         .kind = OpKind::Composite, .composite = write_back_composite<scatter_value_reduce_composite>});
  t.add({.schema_text = "scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, "
                        "bool include_self=True) -> Tensor",
         .kind = S, .shape = shape_scatter_reduce, .dtype = dtype_like_self, .kernel = scatter_reduce_kernel,
         .grad = grad_scatter_reduce, .saves = save_in(0) | save_in(2) | save_in(3) | save_out(0),
         .check = check_scatter<true>});
  t.add({.schema_text = "scatter_reduce_.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, "
                        "bool include_self=True) -> Tensor",
         .kind = OpKind::Composite, .composite = write_back_composite<scatter_reduce_composite>});
  t.add({.schema_text = "index_reduce(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, "
                        "bool include_self=True) -> Tensor",
         .kind = OpKind::Composite, .composite = index_reduce_composite, .grad_node = "IndexReduceBackward0"});
  t.add({.schema_text = "index_reduce_(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, "
                        "bool include_self=True) -> Tensor",
         .kind = OpKind::Composite, .composite = write_back_composite<index_reduce_composite>});
  t.add({.schema_text = "scatter_.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
         .kind = OpKind::Composite, .composite = write_back_composite<scatter_src_composite>});
  t.add({.schema_text = "scatter_.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
         .kind = OpKind::Composite, .composite = write_back_composite<scatter_value_composite>});
  t.add({.schema_text = "argwhere(Tensor self) -> Tensor", .kind = OpKind::Composite,
         .composite = [](const Args& a) { return invoke_multi("nonzero", {a[0]}); }});
  t.add({.schema_text = "nonzero(Tensor self) -> Tensor", .kind = S, .shape = shape_nonzero, .dtype = dtype_int64,
         .kernel = nonzero_kernel});
}

// ---- typed wrappers ---------------------------------------------------------------------------
Tensor masked_fill(const Tensor& a, const Tensor& mask, const Tensor& value) {
  return invoke("masked_fill.Tensor", {a, mask, value});
}
Tensor masked_fill(const Tensor& a, const Tensor& mask, double value) {
  return invoke("masked_fill.Scalar", {a, mask, value});
}
Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Tensor& value) {
  invoke("masked_fill_.Tensor", {self, mask, value});
  return self;
}
Tensor& masked_fill_(Tensor& self, const Tensor& mask, double value) {
  invoke("masked_fill_.Scalar", {self, mask, value});
  return self;
}
Tensor index_select(const Tensor& a, int64_t dim, const Tensor& index) {
  return invoke("index_select", {a, dim, index});
}
Tensor index_add(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& source, double alpha) {
  return invoke("index_add", {a, dim, index, source, alpha});
}
Tensor index_copy(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& source) {
  return invoke("index_copy", {a, dim, index, source});
}
Tensor gather(const Tensor& a, int64_t dim, const Tensor& index) { return invoke("gather", {a, dim, index}); }
Tensor scatter_add(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& src) {
  return invoke("scatter_add", {a, dim, index, src});
}
Tensor nonzero(const Tensor& a) { return invoke("nonzero", {a}); }


// Index tensors and values may come from the host for a device tensor, as in
// PyTorch (x_cuda[cpu_index] works): they move to the indexed tensor's device.
std::vector<TensorIndex> indices_on(const std::vector<TensorIndex>& indices, Device d) {
  std::vector<TensorIndex> out = indices;
  for (TensorIndex& i : out)
    if (i.tensor.defined()) i.tensor = move_to(i.tensor, d);
  return out;
}

Tensor index(const Tensor& t, const std::vector<TensorIndex>& host_indices) {
  const std::vector<TensorIndex> indices = indices_on(host_indices, t.device());
  DeviceScope on(t.device());  // positions the gather computes live beside t
  ops::BasicResult r = ops::basic_index(t, indices);
  // PyTorch runs one index kernel: its node is IndexBackward0 whatever the gather was made of.
  if (r.adv.empty()) return r.view;
  return ops::as_node(ops::not_a_view(ops::advanced_gather(r.view, r.adv)), "IndexBackward0");
}

void index_put(Tensor& t, const std::vector<TensorIndex>& host_indices, const Tensor& host_value, bool accumulate) {
  const std::vector<TensorIndex> indices = indices_on(host_indices, t.device());
  const Tensor value = move_to(host_value, t.device());
  DeviceScope on(t.device());
  ops::BasicResult r = ops::basic_index(t, indices);
  Tensor& v = r.view;
  if (r.adv.empty()) {
    const Tensor spread = expand(ops::strip_leading_ones(value, v.dim()), v.sizes());
    copy_(v, accumulate ? add(v, spread) : spread);
    return;
  }
  if (accumulate) {
    copy_(v, ops::advanced_scatter(v, r.adv, value, true));
    return;
  }
  // x[mask] = scalar: a masked fill of the view, the mask aligned at its dims.
  const ops::Advanced& a0 = r.adv[0];
  if (r.adv.size() == 1 && a0.mask.defined() && value.numel() == 1) {
    Shape ms(size_t(a0.pos), 1);
    ms.insert(ms.end(), a0.mask.sizes().begin(), a0.mask.sizes().end());
    ms.resize(size_t(v.dim()), 1);
    masked_fill_(v, reshape(a0.mask, ms), reshape(value, {}));
    return;
  }
  copy_(v, ops::advanced_scatter(v, r.adv, value, false));
}

}  // namespace kiln
