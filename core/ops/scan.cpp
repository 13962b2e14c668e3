// Ops that look along one dim at a whole lane at once: the scans (cumsum,
// cumprod, cummax, cummin, logcumsumexp), the order statistics (sort,
// argsort, topk, kthvalue, median, mode)
// the binary searches (searchsorted, bucketize, isin), bincount and unique; nonzero's
// as_tuple form.
// Kernels walk each lane through strides; NaN orders above every number, as
// in PyTorch, and the order statistics break ties as PyTorch's CPU kernels do
// (see "sorting" below).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>

#include "core/autograd.h"
#include "core/device.h"
#include "core/ops/common.h"
#include "core/ops/lane_order.h"

namespace kiln {
namespace ops {
namespace {

// Calls f(in_offset, out_offsets...) for every lane along `dim`: positions of
// `sizes` with dim fixed at 0, as element offsets in each tensor's strides.
template <class F>
void for_each_lane(const Shape& sizes, int64_t dim, const std::vector<const Shape*>& strides, F&& f) {
  int64_t nd = int64_t(sizes.size());
  Shape pos(size_t(nd), 0);
  std::vector<int64_t> off(strides.size(), 0);
  for (int64_t s : sizes)
    if (s == 0) return;
  while (true) {
    f(off);
    int64_t d = nd - 1;
    for (; d >= 0; --d) {
      if (d == dim) continue;
      if (++pos[size_t(d)] < sizes[size_t(d)]) {
        for (size_t k = 0; k < off.size(); ++k) off[k] += (*strides[k])[size_t(d)];
        break;
      }
      for (size_t k = 0; k < off.size(); ++k) off[k] -= (*strides[k])[size_t(d)] * (sizes[size_t(d)] - 1);
      pos[size_t(d)] = 0;
    }
    if (d < 0) return;
  }
}

// A 0-dim tensor is one lane of one element.
Shape lane_sizes(const Tensor& t) { return t.dim() == 0 ? Shape{1} : t.sizes(); }
Shape lane_strides(const Tensor& t) { return t.dim() == 0 ? Shape{1} : t.strides(); }

template <class T>
using cmp_t = std::conditional_t<std::is_arithmetic_v<T>, T, float>;

// ---- cumsum / cumprod ----------------------------------------------------------------
// cumsum(Tensor self, int dim, *, ScalarType? dtype=None): integers and bool accumulate as int64.
std::vector<DType> dtype_scan(const Args& a) {
  if (!a[2].is_none()) return {a[2].dtype()};
  DType d = a[0].tensor().dtype();
  return {is_floating(d) ? d : DType::Int64};
}
std::vector<Shape> shape_scan(const Args& a) {
  wrap_dim(a[1].to_int(), a[0].tensor().dim());
  return {a[0].tensor().sizes()};
}
template <bool Prod>
void scan_kernel(const Args& a, std::vector<Tensor>& outs) {
  Tensor& out = outs[0];
  Tensor x = cast_to(a[0].tensor(), out.dtype());
  int64_t dim = wrap_dim(a[1].to_int(), x.dim());
  Shape sizes = lane_sizes(x), xs = lane_strides(x), os = lane_strides(out);
  int64_t n = sizes[size_t(dim)], sx = xs[size_t(dim)], so = os[size_t(dim)];
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // PyTorch's CPU scans accumulate floats in double, integers in int64.
    using Acc = std::conditional_t<std::is_integral_v<T>, int64_t, double>;
    const T* px = x.data<T>();
    T* po = out.data<T>();
    for_each_lane(sizes, dim, {&xs, &os}, [&](const std::vector<int64_t>& off) {
      Acc acc = Prod ? Acc(1) : Acc(0);
      for (int64_t i = 0; i < n; ++i) {
        Acc v = Acc(px[off[0] + i * sx]);
        acc = Prod ? Acc(acc * v) : Acc(acc + v);
        po[off[1] + i * so] = static_cast<T>(acc);
      }
    });
  });
}
// Reversed cumulative sum: the adjoint of cumsum.
std::vector<Tensor> grad_cumsum(const GradCtx& c) {
  int64_t d = c.args[1].to_int();
  Shape dims{d};
  if (c.in_sizes[0].empty()) return {c.grad()};
  return {invoke("flip", {invoke("cumsum", {invoke("flip", {c.grad(), dims}), d}), dims})};
}
// _cumprod_backward(Tensor grad, Tensor self, int dim): per lane,
// dx_k = sum_{j>=k} g_j * prod_{i<=j, i!=k} x_i, exact with zeros in x.
void cumprod_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  Tensor& out = outs[0];
  Tensor g = cast_to(a[0].tensor(), out.dtype()), x = cast_to(a[1].tensor(), out.dtype());
  int64_t dim = wrap_dim(a[2].to_int(), x.dim());
  Shape sizes = lane_sizes(x), xs = lane_strides(x), gs = lane_strides(g), os = lane_strides(out);
  int64_t n = sizes[size_t(dim)];
  visit_floating(out.dtype(), "cumprod_backward", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T *px = x.data<T>(), *pg = g.data<T>();
    T* po = out.data<T>();
    for_each_lane(sizes, dim, {&xs, &gs, &os}, [&](const std::vector<int64_t>& off) {
      auto X = [&](int64_t i) { return double(px[off[0] + i * xs[size_t(dim)]]); };
      auto G = [&](int64_t i) { return double(pg[off[1] + i * gs[size_t(dim)]]); };
      double before = 1;  // prod_{i<k} x_i
      for (int64_t k = 0; k < n; ++k) {
        double run = before, total = 0;
        for (int64_t j = k; j < n; ++j) {
          if (j > k) run *= X(j);
          total += G(j) * run;
        }
        po[off[2] + k * os[size_t(dim)]] = static_cast<T>(total);
        before *= X(k);
      }
    });
  });
}
std::vector<Shape> shape_cumprod_backward(const Args& a) { return {a[1].tensor().sizes()}; }
std::vector<DType> dtype_of_grad(const Args& a) { return {a[0].tensor().dtype()}; }
// The same sum from differentiable ops, for create_graph: with the lane last,
// dx_k = prod_{i<k} x_i * sum_{j>=k} g_j * P[k, j], P[k, j] = prod_{k<i<=j} x_i
// (a cumprod of x over the row with entries j<=k set to 1). It costs n x n per
// lane, so the kernel keeps first derivatives.
Tensor cumprod_backward_composite(const Tensor& g, const Tensor& self, int64_t dim) {
  Tensor x = transpose(self, dim, -1), gl = transpose(g, dim, -1);
  int64_t n = x.size(-1);
  Tensor ones_col = ones_like(narrow(x, -1, 0, 1));
  Tensor before = invoke("cumprod", {cat({ones_col, narrow(x, -1, 0, n - 1)}, -1), int64_t(-1), Value()});
  Tensor upper = triu(ones(Shape{n, n}, DType::Bool), 1);  // j > k
  Tensor rows = unsqueeze(x, -2);                          // [..., 1, n]: x_j
  Tensor P = invoke("cumprod", {where(upper, rows, ones_like(rows)), int64_t(-1), Value()});
  Tensor kept = mul(P, triu(ones(Shape{n, n}, P.dtype())));  // zero below the diagonal
  Tensor total = sum(mul(kept, unsqueeze(gl, -2)), Shape{-1});
  return transpose(mul(before, total), dim, -1);
}
std::vector<Tensor> grad_cumprod(const GradCtx& c) {
  const Tensor &g = c.grad(), &x = c.in(0);
  int64_t dim = wrap_dim(c.args[1].to_int(), std::max<int64_t>(x.dim(), 1));
  if (GradMode::enabled() && (g.requires_grad() || x.requires_grad()) && x.dim() > 0)
    return {cumprod_backward_composite(to_dtype(g, x.dtype()), x, dim)};
  return {invoke("_cumprod_backward", {g, x, c.args[1]})};
}

// ---- sorting (the orders themselves: core/ops/lane_order.h) -----------------------------
// Loads every lane of self along dim as (value, index) pairs, lets `order`
// rearrange them, and writes pairs [first, first + k) to values/indices along
// dim. The lane holds the dtype's comparison type (float for half and
// bfloat16, as PyTorch compares them).
template <class Order>
void select_lanes(const Tensor& self, int64_t dim, int64_t first, int64_t k, const Tensor* values,
                  const Tensor& indices, Order&& order) {
  Shape sizes = lane_sizes(self), xs = lane_strides(self);
  Shape vs = values ? lane_strides(*values) : xs, is = lane_strides(indices);
  int64_t n = sizes[size_t(dim)], sx = xs[size_t(dim)];
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = cmp_t<T>;
    const T* px = self.data<T>();
    T* pv = values ? values->data<T>() : nullptr;
    int64_t* pi = indices.data<int64_t>();
    std::vector<Keyed<C>> lane(static_cast<size_t>(n));
    for_each_lane(sizes, dim, {&xs, &vs, &is}, [&](const std::vector<int64_t>& off) {
      for (int64_t i = 0; i < n; ++i) lane[size_t(i)] = {C(px[off[0] + i * sx]), i};
      order(lane);
      for (int64_t i = 0; i < k; ++i) {
        int64_t src = lane[size_t(first + i)].second;
        pi[off[2] + i * is[size_t(dim)]] = src;
        if (pv) pv[off[1] + i * vs[size_t(dim)]] = px[off[0] + src * sx];
      }
    });
  });
}

// sort and argsort. PyTorch's unstable sort is std::sort, except where it
// takes a stable path: a 1-D integer tensor of at least 32768 elements sorted
// ascending goes through a radix sort, and a lane of stride 0 (an expanded
// value) is left in index order.
bool sorts_stably(const Tensor& self, int64_t dim, bool stable, bool desc) {
  if (stable || (self.dim() > 0 && self.strides()[size_t(dim)] == 0)) return true;
  return self.dim() == 1 && !desc && !is_floating(self.dtype()) && self.dtype() != DType::Bool &&
         self.numel() >= 32768;
}
void sort_lanes(const Tensor& self, int64_t dim, bool stable, bool desc, const Tensor* values, const Tensor& indices) {
  stable = sorts_stably(self, dim, stable, desc);
  select_lanes(self, dim, 0, lane_sizes(self)[size_t(dim)], values, indices, [&](auto& lane) {
    using C = typename std::decay_t<decltype(lane)>::value_type::first_type;
    auto by = desc ? descending<C> : ascending<C>;
    if (stable) std::stable_sort(lane.begin(), lane.end(), by);
    else std::sort(lane.begin(), lane.end(), by);
  });
}

std::vector<DType> dtype_values_indices(const Args& a) { return {a[0].tensor().dtype(), DType::Int64}; }
std::vector<DType> dtype_indices(const Args&) { return {DType::Int64}; }

// sort(Tensor self, int dim=-1, bool descending=False)
// sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False)
template <int DimArg>
std::vector<Shape> shape_sort(const Args& a) {
  wrap_dim(a[DimArg].to_int(), a[0].tensor().dim());
  return {a[0].tensor().sizes(), a[0].tensor().sizes()};
}
// The stable flag of sort.stable / argsort.stable (DimArg 2); plain sort has none.
template <int DimArg>
bool stable_arg(const Args& a) {
  if constexpr (DimArg == 2) return !a[1].is_none() && a[1].to_bool();
  else return false;
}
template <int DimArg>
void sort_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  int64_t dim = wrap_dim(a[DimArg].to_int(), self.dim());
  sort_lanes(self, dim, stable_arg<DimArg>(a), a[DimArg + 1].to_bool(), &outs[0], outs[1]);
}
template <int DimArg>
std::vector<Shape> shape_argsort(const Args& a) {
  return {shape_sort<DimArg>(a)[0]};
}
template <int DimArg>
void argsort_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  int64_t dim = wrap_dim(a[DimArg].to_int(), self.dim());
  sort_lanes(self, dim, stable_arg<DimArg>(a), a[DimArg + 1].to_bool(), nullptr, outs[0]);
}

// The gradient of a value-selecting op: each selected value's gradient goes
// back to the position it came from (indices along dim, keepdim form).
Tensor scatter_back(const Tensor& g, const Tensor& indices, int64_t dim, const Shape& in_sizes, bool keepdim) {
  if (in_sizes.empty()) return reshape(g, {});
  int64_t d = wrap_dim(dim, int64_t(in_sizes.size()));
  Tensor gi = keepdim ? g : unsqueeze(g, d), ii = keepdim ? indices : unsqueeze(indices, d);
  return scatter_add(zeros(in_sizes, g.dtype()), d, ii, gi);
}
template <int DimArg>
std::vector<Tensor> grad_sort(const GradCtx& c) {
  return {scatter_back(c.grad(0), c.out(1), c.args[DimArg].to_int(), c.in_sizes[0], true)};
}

// topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True)
std::vector<Shape> shape_topk(const Args& a) {
  const Tensor& self = a[0].tensor();
  int64_t dim = wrap_dim(a[2].to_int(), self.dim()), k = a[1].to_int();
  Shape s = self.sizes();
  int64_t n = self.dim() == 0 ? 1 : s[size_t(dim)];
  KILN_CHECK(k >= 0 && k <= n, Runtime, "selected index k out of range");
  if (!s.empty()) s[size_t(dim)] = k;
  return {s, s};
}
void topk_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  int64_t dim = wrap_dim(a[2].to_int(), self.dim()), k = a[1].to_int();
  const bool largest = a[3].to_bool(), sorted = a[4].to_bool();
  select_lanes(self, dim, 0, k, &outs[0], outs[1], [&](auto& lane) { topk_order(lane, k, largest, sorted); });
}
std::vector<Tensor> grad_topk(const GradCtx& c) {
  return {scatter_back(c.grad(0), c.out(1), c.args[2].to_int(), c.in_sizes[0], true)};
}

// kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False): the k-th smallest (1-based).
std::vector<Shape> shape_kthvalue(const Args& a) {
  const Tensor& self = a[0].tensor();
  int64_t dim = wrap_dim(a[2].to_int(), self.dim()), k = a[1].to_int();
  int64_t n = self.dim() == 0 ? 1 : self.sizes()[size_t(dim)];
  KILN_CHECK(k >= 1 && k <= n, Runtime, "kthvalue(): selected number k out of range for dimension ", dim);
  Shape s = self.sizes();
  if (!s.empty()) {
    if (a[3].to_bool()) s[size_t(dim)] = 1;
    else s.erase(s.begin() + dim);
  }
  return {s, s};
}
// The keepdim-form views of outputs reduced along dim (one element per lane).
std::pair<Tensor, Tensor> keepdim_outs(std::vector<Tensor>& outs, const Tensor& self, int64_t dim) {
  if (self.dim() == 0 || outs[0].dim() == self.dim()) return {outs[0], outs[1]};
  Shape ks = self.sizes();
  ks[size_t(dim)] = 1;
  auto as_keep = [&](const Tensor& t) {
    Shape st = contiguous_strides(ks);
    return make_view(t, ks, st, t.offset());
  };
  return {as_keep(outs[0]), as_keep(outs[1])};
}
void kthvalue_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  int64_t dim = wrap_dim(a[2].to_int(), self.dim()), k = a[1].to_int();
  auto [v, i] = keepdim_outs(outs, self, dim);
  select_lanes(self, dim, k - 1, 1, &v, i, [&](auto& lane) { quickselect(lane, k - 1); });
}
std::vector<Tensor> grad_kthvalue(const GradCtx& c) {
  return {scatter_back(c.grad(0), c.out(1), c.args[2].to_int(), c.in_sizes[0], c.args[3].to_bool())};
}

// median.dim(Tensor self, int dim, bool keepdim=False): the lower median
// ((n-1)/2-th smallest); a lane holding NaN gives its first NaN.
std::vector<Shape> shape_lane_reduce(const Args& a, const char* op) {
  const Tensor& self = a[0].tensor();
  int64_t dim = wrap_dim(a[1].to_int(), self.dim());
  KILN_CHECK(self.dim() == 0 || self.sizes()[size_t(dim)] > 0, Index,
             op, "(): Expected reduction dim ", dim, " to have non-zero size.");
  Shape s = self.sizes();
  if (!s.empty()) {
    if (a[2].to_bool()) s[size_t(dim)] = 1;
    else s.erase(s.begin() + dim);
  }
  return {s, s};
}
std::vector<Shape> shape_median_dim(const Args& a) { return shape_lane_reduce(a, "median"); }
// PyTorch's median: a lane's first NaN if it has one, else the (n-1)/2-th
// smallest under the order (value, index), unique even among ties.
void median_lanes(const Tensor& self, int64_t dim, const Tensor& values, const Tensor& indices) {
  const int64_t mid = (lane_sizes(self)[size_t(dim)] - 1) / 2;
  select_lanes(self, dim, mid, 1, &values, indices, [&](auto& lane) {
    auto nan = std::find_if(lane.begin(), lane.end(), [](const auto& e) { return is_nan_key(e.first); });
    if (nan != lane.end()) {
      lane[size_t(mid)] = *nan;
      return;
    }
    std::nth_element(lane.begin(), lane.begin() + mid, lane.end(), [](const auto& l, const auto& r) {
      return l.first < r.first || (l.first == r.first && l.second < r.second);
    });
  });
}
void median_dim_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  int64_t dim = wrap_dim(a[1].to_int(), self.dim());
  auto [v, i] = keepdim_outs(outs, self, dim);
  median_lanes(self, dim, v, i);
}
std::vector<Tensor> grad_median_dim(const GradCtx& c) {
  return {scatter_back(c.grad(0), c.out(1), c.args[1].to_int(), c.in_sizes[0], c.args[2].to_bool())};
}

// median(Tensor self): of all elements; the gradient is shared evenly among
// the elements equal to the median (PyTorch's evenly_distribute_backward).
std::vector<Shape> shape_median(const Args& a) {
  KILN_CHECK(a[0].tensor().numel() > 0, Runtime,
             "median() input tensor cannot be empty");  // PyTorch returns nan; kiln refuses
  return {Shape{}};
}
void median_kernel(const Args& a, std::vector<Tensor>& outs) {
  Tensor flat = empty_tensor(a[0].tensor().sizes(), a[0].tensor().dtype());
  copy_cast(flat, a[0].tensor());
  Tensor lane = make_view(flat, {flat.numel()}, {1}, flat.offset());
  Tensor idx = empty_tensor({}, DType::Int64);
  median_lanes(lane, 0, make_view(outs[0], {1}, {1}, outs[0].offset()), make_view(idx, {1}, {1}, 0));
}
std::vector<Tensor> grad_median(const GradCtx& c) {
  Tensor hit = eq(c.in(0), c.out(0));
  return {div(mul(hit, c.grad()), sum(hit))};
}

// ---- searchsorted / bucketize ------------------------------------------------------------
// searchsorted(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False,
// str? side=None, Tensor? sorter=None): per value, the first position whose
// element is >= it (> it with right): a 1-D sequence serves every value, an
// N-D one serves the values of its row.
bool search_right(const Args& a) {
  bool right = a[3].to_bool();
  if (!a[4].is_none()) {
    const std::string& side = a[4].str();
    KILN_CHECK(side == "left" || side == "right", Runtime,
               "torch.searchsorted(): side can only be 'left' or 'right' but got ", side);
    KILN_CHECK(!right || side == "right", Runtime,
               "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True");
    right = side == "right";
  }
  return right;
}
std::vector<Shape> shape_searchsorted(const Args& a) {
  const Tensor &seq = a[0].tensor(), &v = a[1].tensor();
  if (!a[5].is_none()) {  // sorter: argsort indices of each row, so the sequence need not be sorted itself
    const Tensor& sorter = a[5].tensor();
    KILN_CHECK(sorter.sizes() == seq.sizes(), Runtime,
               "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor ",
               shape_str(seq.sizes()), "and got sorter tensor ", shape_str(sorter.sizes()));
    KILN_CHECK(sorter.dtype() == DType::Int64, Runtime,
               "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype ",
               dtype_legacy_name(sorter.dtype()));
  }
  KILN_CHECK(seq.dim() >= 1, Runtime, "torch.searchsorted(): boundaries tensor should have positive dimension, "
             "but got 0 dimension");
  if (seq.dim() > 1) {
    Shape lead_s(seq.sizes().begin(), seq.sizes().end() - 1);
    Shape lead_v = v.dim() > 0 ? Shape(v.sizes().begin(), v.sizes().end() - 1) : Shape{};
    KILN_CHECK(v.dim() == seq.dim() && lead_s == lead_v, Runtime,
               "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of "
               "boundaries tensor and input value tensor must match, but we got boundaries tensor ",
               shape_str(seq.sizes()), " and input value tensor ", shape_str(v.sizes()));
  }
  search_right(a);
  return {v.sizes()};
}
std::vector<DType> dtype_searchsorted(const Args& a) {
  return {a[2].to_bool() ? DType::Int32 : DType::Int64};
}
// The position in row r of the j-th smallest element: sorter's entry, or j without one.
int64_t sorted_at(const Value& sorter, int64_t r, int64_t n, int64_t j) {
  if (sorter.is_none()) return j;
  auto k = int64_t(element_as_double(sorter.tensor(), r * n + j));
  KILN_CHECK(k >= 0 && k < n, Runtime, "torch.searchsorted(): sorter index out of range");
  return k;
}
void searchsorted_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor &seq = a[0].tensor(), &v = a[1].tensor();
  bool right = search_right(a);
  int64_t n = seq.size(-1), count = v.numel();
  int64_t row_len = seq.dim() > 1 ? std::max<int64_t>(v.dim() > 0 ? v.size(-1) : 1, 1) : count + 1;
  std::vector<double> row(static_cast<size_t>(n));
  int64_t loaded = -1;
  for (int64_t i = 0; i < count; ++i) {
    int64_t r = seq.dim() > 1 ? i / row_len : 0;
    if (r != loaded) {
      for (int64_t j = 0; j < n; ++j) row[size_t(j)] = element_as_double(seq, r * n + sorted_at(a[5], r, n, j));
      loaded = r;
    }
    double x = element_as_double(v, i);
    auto it = right ? std::upper_bound(row.begin(), row.end(), x) : std::lower_bound(row.begin(), row.end(), x);
    int64_t pos = it - row.begin();
    if (outs[0].dtype() == DType::Int32) outs[0].data<int32_t>()[i] = int32_t(pos);
    else outs[0].data<int64_t>()[i] = pos;
  }
}
// bucketize(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False)
std::vector<Tensor> bucketize_composite(const Args& a) {
  KILN_CHECK(a[1].tensor().dim() == 1, Runtime, "boundaries tensor must be 1 dimension, but got dim(",
             a[1].tensor().dim(), ")");
  return {invoke("searchsorted", {a[1], a[0], a[2], a[3], Value(), Value()})};
}
// isin(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False):
// each element looked up by binary search in the sorted test elements, both
// in their promoted dtype (a Python number on either side is a 0-dim tensor).
std::vector<Tensor> isin_composite(const Args& a) {
  Tensor x = a[0].tensor(), test = a[1].tensor();
  if (test.device() != x.device()) test = copy_to_device(test, x.device());  // a Python number is a CPU tensor
  DType common = result_type({x, test});
  x = to_dtype(x, common);
  Tensor found;
  if (test.numel() == 0) {
    found = zeros(x.sizes(), DType::Bool);
  } else {
    Tensor sorted = invoke_multi("sort", {flatten(to_dtype(test, common))})[0];
    Tensor pos = invoke("searchsorted", {sorted, flatten(x)});
    pos = invoke("clamp", {pos, int64_t(0), sorted.numel() - 1});  // int bounds keep the index dtype
    found = reshape(eq(index_select(sorted, 0, pos), flatten(x)), x.sizes());
  }
  return {a[3].to_bool() ? logical_not(found) : found};
}
// ---- bincount ------------------------------------------------------------------------------
// The values of an integer tensor as int64, read once in memory order.
std::vector<int64_t> bincount_values(const Tensor& self) {
  const Tensor c = contiguous(copy_to_device(self, Device{}));
  std::vector<int64_t> v(size_t(c.numel()));
  visit_dtype(c.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) std::copy(c.data<T>(), c.data<T>() + c.numel(), v.begin());
  });
  return v;
}
// bincount(Tensor self, Tensor? weights=None, int minlength=0): its length
// depends on the largest value, so its shape reads the data (a graph break).
std::vector<Shape> shape_bincount(const Args& a) {
  const Tensor& self = a[0].tensor();
  KILN_CHECK(!is_floating(self.dtype()) && self.dtype() != DType::Bool, NotImplemented,
             "\"bincount_cpu\" not implemented for '", dtype_legacy_name(self.dtype()), "'");
  int64_t minlength = a[2].to_int();
  KILN_CHECK(minlength >= 0, Runtime, "minlength should be >= 0");
  if (!a[1].is_none())
    KILN_CHECK(a[1].tensor().dim() == 1 && a[1].tensor().numel() == self.numel(), Runtime,
               "weights should be 1-d and have the same length as input");
  KILN_CHECK(self.dim() == 1, Runtime, "bincount only supports 1-d non-negative integral inputs.");
  int64_t top = -1;
  for (int64_t v : bincount_values(self)) {
    KILN_CHECK(v >= 0, Runtime, "bincount only supports 1-d non-negative integral inputs.");
    top = std::max(top, v);
  }
  return {{std::max(top + 1, minlength)}};
}
std::vector<DType> dtype_bincount(const Args& a) {
  if (a[1].is_none()) return {DType::Int64};
  DType w = a[1].tensor().dtype();
  return {is_floating(w) ? w : DType::Float64};
}
// Counts, or weights summed in the output's dtype as PyTorch's kernel does.
void bincount_kernel(const Args& a, std::vector<Tensor>& outs) {
  const std::vector<int64_t> bins = bincount_values(a[0].tensor());
  Tensor& out = outs[0];
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = out.data<T>();
    std::fill(p, p + out.numel(), T(0));
    if (a[1].is_none()) {
      for (int64_t b : bins) p[b] = T(p[b] + T(1));
      return;
    }
    const Tensor w = contiguous(to_dtype(copy_to_device(a[1].tensor(), Device{}), out.dtype()));
    const T* wp = w.data<T>();
    for (size_t i = 0; i < bins.size(); ++i) p[bins[i]] = T(p[bins[i]] + wp[i]);
  });
}

// nonzero.as_tuple(Tensor self, *, bool as_tuple): one index tensor per dim
// (a 0-dim input counts as 1-D). as_tuple=False is the plain overload's single
// tensor: the Python binding drops that keyword (to_kwargs), so only True reaches here.
std::vector<Tensor> nonzero_tuple_composite(const Args& a) {
  KILN_CHECK(a[1].to_bool(), NotImplemented, "nonzero.as_tuple with as_tuple=False: call the plain nonzero overload");
  const Tensor& self = a[0].tensor();
  Tensor nz = nonzero(self.dim() == 0 ? reshape(self, {1}) : self);
  return unbind(nz, 1);
}

// where(Tensor condition): nonzero(condition, as_tuple=True).
std::vector<Tensor> where_nonzero_composite(const Args& a) {
  const Value args[] = {a[0], Value(true)};
  return nonzero_tuple_composite(args);
}

// ---- mode -----------------------------------------------------------------------------------
// mode(Tensor self, int dim=-1, bool keepdim=False): the most frequent value
// of each lane (the smallest among equally frequent ones) and the index of
// its last occurrence, as PyTorch's CPU kernel gives.
std::vector<Shape> shape_mode(const Args& a) { return shape_lane_reduce(a, "mode"); }
void mode_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  int64_t dim = wrap_dim(a[1].to_int(), self.dim());
  auto [v, i] = keepdim_outs(outs, self, dim);
  // PyTorch sorts the lane with std::sort by value alone and takes the last
  // pair of the first longest run; the same sort gives the same index.
  select_lanes(self, dim, 0, 1, &v, i, [](auto& lane) {
    std::sort(lane.begin(), lane.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
    size_t best = 0;
    int64_t run = 0, best_run = 0;
    for (size_t j = 0; j < lane.size(); ++j) {
      ++run;
      if (j + 1 < lane.size() && lane[j].first == lane[j + 1].first) continue;
      if (run > best_run) best = j, best_run = run;
      run = 0;
    }
    lane[0] = lane[best];
  });
}
std::vector<Tensor> grad_mode(const GradCtx& c) {
  return {scatter_back(c.grad(0), c.out(1), c.args[1].to_int(), c.in_sizes[0], c.args[2].to_bool())};
}

// ---- cummax / cummin / logcumsumexp ---------------------------------------------------------
template <class C>
bool is_nan_value(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  else return false;
}
// cummax(Tensor self, int dim): the running maximum and where it was found;
// ties move the index forward and NaN, once seen, stays (PyTorch's rule).
std::vector<Shape> shape_cum_extreme(const Args& a) { return {shape_scan(a)[0], shape_scan(a)[0]}; }
template <bool Max>
void cum_extreme_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& x = a[0].tensor();
  int64_t dim = wrap_dim(a[1].to_int(), x.dim());
  Shape sizes = lane_sizes(x), xs = lane_strides(x), vs = lane_strides(outs[0]), is = lane_strides(outs[1]);
  int64_t n = sizes[size_t(dim)], sx = xs[size_t(dim)], sv = vs[size_t(dim)], si = is[size_t(dim)];
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = cmp_t<T>;
    const T* px = x.data<T>();
    T* pv = outs[0].data<T>();
    int64_t* pi = outs[1].data<int64_t>();
    for_each_lane(sizes, dim, {&xs, &vs, &is}, [&](const std::vector<int64_t>& off) {
      C best = C(px[off[0]]);
      int64_t at = 0;
      for (int64_t i = 0; i < n; ++i) {
        C v = C(px[off[0] + i * sx]);
        if (is_nan_value(v) || (!is_nan_value(best) && (Max ? v >= best : v <= best))) best = v, at = i;
        pv[off[1] + i * sv] = px[off[0] + at * sx];
        pi[off[2] + i * si] = at;
      }
    });
  });
}
std::vector<Tensor> grad_cum_extreme(const GradCtx& c) {
  return {scatter_back(c.grad(0), c.out(1), c.args[1].to_int(), c.in_sizes[0], true)};
}

// logcumsumexp(Tensor self, int dim): log(cumsum(exp(x))) accumulated with
// PyTorch's log-add-exp in double, exact where the naive form under/overflows.
double log_add_exp(double x, double y) {
  double lo = std::isnan(y) ? y : std::min(x, y), hi = std::isnan(y) ? y : std::max(x, y);
  if (lo != hi || std::isfinite(lo)) return std::log1p(std::exp(lo - hi)) + hi;
  return x;  // both the same infinity
}
void logcumsumexp_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& x = a[0].tensor();
  Tensor& out = outs[0];
  int64_t dim = wrap_dim(a[1].to_int(), x.dim());
  Shape sizes = lane_sizes(x), xs = lane_strides(x), os = lane_strides(out);
  int64_t n = sizes[size_t(dim)], sx = xs[size_t(dim)], so = os[size_t(dim)];
  visit_floating(x.dtype(), "logcumsumexp_out_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* px = x.data<T>();
    T* po = out.data<T>();
    for_each_lane(sizes, dim, {&xs, &os}, [&](const std::vector<int64_t>& off) {
      double acc = -std::numeric_limits<double>::infinity();
      for (int64_t i = 0; i < n; ++i) {
        acc = log_add_exp(double(px[off[0] + i * sx]), acc);
        po[off[1] + i * so] = static_cast<T>(acc);
      }
    });
  });
}
// PyTorch's formula: the positive and negative parts of the gradient each go
// through a reversed logcumsumexp in log space, so nothing overflows.
std::vector<Tensor> grad_logcumsumexp(const GradCtx& c) {
  const Tensor &g = c.grad(), &x = c.in(0), &out = c.out(0);
  int64_t d = c.args[1].to_int();
  if (c.in_sizes[0].empty()) return {g};
  Shape dims{d};
  auto reverse_lcse = [&](const Tensor& t) {
    return invoke("flip", {invoke("logcumsumexp", {invoke("flip", {t, dims}), d}), dims});
  };
  // The dtype's lowest finite value, not -inf, as PyTorch: under create_graph the
  // inner logcumsumexp's own derivative subtracts its output, and -inf - -inf is NaN.
  double lowest = g.dtype() == DType::Float64   ? std::numeric_limits<double>::lowest()
                  : g.dtype() == DType::Float16 ? -65504.0
                  : g.dtype() == DType::BFloat16 ? -3.3895313892515355e38
                                                 : double(std::numeric_limits<float>::lowest());
  Tensor zero = scalar_tensor(0, g.dtype(), true), neg_inf = full_like(g, lowest);
  Tensor log_abs = log(abs(g));
  Tensor pos = where(gt(g, zero), log_abs, neg_inf), neg = where(lt(g, zero), log_abs, neg_inf);
  return {sub(exp(add(reverse_lcse(sub(pos, out)), x)), exp(add(reverse_lcse(sub(neg, out)), x)))};
}

// ---- unique ------------------------------------------------------------------------------
// The distinct values of an input, ascending (NaNs last, each its own value,
// as PyTorch's sort-based unique leaves them), and each value's position.
template <class C>
struct Distinct {
  std::vector<C> values;
  C lo{};
  std::vector<int64_t> rank;  // integers over a range no wider than the input: rank[v - lo]

  Distinct(const C* p, int64_t n) {
    if constexpr (std::is_integral_v<C>) {
      if (n > 0 && by_range(p, n)) return;
    }
    values.assign(p, p + n);
    std::sort(values.begin(), values.end(), [](C a, C b) { return a < b || (a == a && b != b); });
    values.erase(std::unique(values.begin(), values.end()), values.end());
  }
  int64_t index_of(C v) const {
    if (!rank.empty()) return rank[size_t(v - lo)];
    auto it = std::lower_bound(values.begin(), values.end(), v, [](C a, C b) { return a < b || (a == a && b != b); });
    return it - values.begin();
  }

 private:
  // Labels and token ids: a table over [min, max] instead of a sort.
  bool by_range(const C* p, int64_t n) {
    auto [mn, mx] = std::minmax_element(p, p + n);
    lo = *mn;
    const uint64_t span = uint64_t(*mx) - uint64_t(*mn);  // may exceed int64 for extreme values
    if (span >= uint64_t(std::max<int64_t>(n, 1 << 16))) return false;
    rank.assign(size_t(span) + 1, -1);
    for (int64_t i = 0; i < n; ++i) rank[size_t(p[i] - lo)] = 0;
    for (size_t v = 0; v < rank.size(); ++v)
      if (rank[v] == 0) {
        rank[v] = int64_t(values.size());
        values.push_back(C(lo + C(v)));
      }
    return true;
  }
};

// Runs f(Distinct<C>, const C* data, n, T* null) over self's elements in
// memory order; T is self's element type and C the one it compares in.
template <class F>
void with_distinct(const Tensor& self, F&& f) {
  const Tensor host = contiguous(copy_to_device(self, Device{}));
  visit_dtype(host.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = cmp_t<T>;
    const T* p = host.data<T>();
    std::vector<C> widened;
    const C* q = nullptr;
    if constexpr (std::is_same_v<C, T>) {
      q = p;
    } else {
      widened.assign(p, p + host.numel());
      q = widened.data();
    }
    f(Distinct<C>(q, host.numel()), q, host.numel(), static_cast<T*>(nullptr));
  });
}

// _unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False):
// the sorted distinct values (kiln always sorts), each element's position
// among them, and their counts; the unrequested outputs are empty. The count
// of values reads the data (a graph break under the JIT).
std::vector<Shape> shape_unique(const Args& a) {
  const Tensor& self = a[0].tensor();
  int64_t u = 0;
  with_distinct(self, [&](const auto& d, const auto*, int64_t, auto*) { u = int64_t(d.values.size()); });
  return {{u}, a[2].to_bool() ? self.sizes() : Shape{0}, {a[3].to_bool() ? u : 0}};
}
std::vector<DType> dtype_unique(const Args& a) {
  return {a[0].tensor().dtype(), DType::Int64, DType::Int64};
}
void unique_kernel(const Args& a, std::vector<Tensor>& outs) {
  const bool inverse = a[2].to_bool(), counts = a[3].to_bool();
  with_distinct(a[0].tensor(), [&](const auto& d, const auto* q, int64_t n, auto* elem) {
    using T = std::remove_pointer_t<decltype(elem)>;
    T* out = outs[0].data<T>();
    for (size_t i = 0; i < d.values.size(); ++i) out[i] = static_cast<T>(d.values[i]);
    int64_t* inv = inverse ? outs[1].data<int64_t>() : nullptr;
    int64_t* cnt = counts ? outs[2].data<int64_t>() : nullptr;
    if (cnt) std::fill(cnt, cnt + d.values.size(), 0);
    for (int64_t i = 0; (inv || cnt) && i < n; ++i) {
      int64_t k = d.index_of(q[i]);
      if (inv) inv[i] = k;
      if (cnt) ++cnt[k];
    }
  });
}


// unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False,
// bool return_counts=False): the distinct slices along dim, in lexicographic
// order, with each slice's group and each group's size. Like _unique2, the
// sizes read the data (a graph break under the JIT).
struct SliceGroups {
  int64_t outer = 1, n = 0, inner = 1;
  std::vector<double> values;        // self's elements in logical order
  std::vector<int64_t> first;        // per group, the index of a slice in it
  std::vector<int64_t> group_of;     // per slice
  std::vector<int64_t> counts;       // per group
};
SliceGroups slice_groups(const Tensor& self, int64_t dim) {
  KILN_CHECK(self.dim() > 0, Index, "Dimension out of range (expected to be in range of [-1, 0], but got ", dim, ")");
  const int64_t d = wrap_dim(dim, self.dim());
  const Tensor host = copy_to_device(self, Device{});
  SliceGroups g;
  g.n = self.size(d);
  for (int64_t i = 0; i < d; ++i) g.outer *= self.size(i);
  for (int64_t i = d + 1; i < self.dim(); ++i) g.inner *= self.size(i);
  g.values.resize(size_t(host.numel()));
  for (int64_t i = 0; i < host.numel(); ++i) g.values[size_t(i)] = element_as_double(host, i);
  auto at = [&](int64_t slice, int64_t j) {  // j runs over outer x inner
    return g.values[size_t((j / g.inner * g.n + slice) * g.inner + j % g.inner)];
  };
  const int64_t m = g.outer * g.inner;
  auto less = [&](int64_t a, int64_t b) {
    for (int64_t j = 0; j < m; ++j)
      if (at(a, j) != at(b, j)) return at(a, j) < at(b, j);
    return false;
  };
  std::vector<int64_t> order(size_t(g.n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), less);
  g.group_of.resize(size_t(g.n));
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || less(order[i - 1], order[i])) {
      g.first.push_back(order[i]);
      g.counts.push_back(0);
    }
    g.group_of[size_t(order[i])] = int64_t(g.first.size()) - 1;
    ++g.counts.back();
  }
  return g;
}
std::vector<Shape> shape_unique_dim(const Args& a) {
  const Tensor& self = a[0].tensor();
  SliceGroups g = slice_groups(self, a[1].to_int());
  Shape values = self.sizes();
  values[size_t(wrap_dim(a[1].to_int(), self.dim()))] = int64_t(g.first.size());
  return {values, {a[3].to_bool() ? g.n : 0}, {a[4].to_bool() ? int64_t(g.counts.size()) : 0}};
}
void unique_dim_kernel(const Args& a, std::vector<Tensor>& outs) {
  SliceGroups g = slice_groups(a[0].tensor(), a[1].to_int());
  const int64_t u = int64_t(g.first.size());
  visit_dtype(outs[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = outs[0].data<T>();
    for (int64_t o = 0; o < g.outer; ++o)
      for (int64_t k = 0; k < u; ++k)
        for (int64_t i = 0; i < g.inner; ++i)
          p[(o * u + k) * g.inner + i] = static_cast<T>(g.values[size_t((o * g.n + g.first[size_t(k)]) * g.inner + i)]);
  });
  if (a[3].to_bool()) std::copy(g.group_of.begin(), g.group_of.end(), outs[1].data<int64_t>());
  if (a[4].to_bool()) std::copy(g.counts.begin(), g.counts.end(), outs[2].data<int64_t>());
}
std::vector<DType> dtype_unique_dim(const Args& a) { return dtype_unique(a); }

}  // namespace
// ---- trapezoid / trapz / cumulative_trapezoid -------------------------------------------------
// The spacing between y's samples along dim d, from sample positions x (PyTorch's rules: a 1-D x
// lies along d, a lower-rank x is padded with leading dims).
Tensor trapezoid_spacing(const Tensor& y, const Tensor& x, int64_t d) {
  Tensor xv = x;
  if (x.dim() == 1) {
    KILN_CHECK(x.size(0) == y.size(d), Runtime, "trapezoid: There must be one `x` value for each sample point");
    Shape along(size_t(y.dim()), 1);
    along[size_t(d)] = x.size(0);
    xv = reshape(x, along);
  } else if (x.dim() < y.dim()) {
    Shape padded(size_t(y.dim() - x.dim()), 1);
    padded.insert(padded.end(), x.sizes().begin(), x.sizes().end());
    xv = reshape(x, padded);
  }
  return sub(slice(xv, d, 1, std::nullopt), slice(xv, d, 0, -1));
}
Tensor pair_sums(const Tensor& y, int64_t d) { return add(slice(y, d, 1, std::nullopt), slice(y, d, 0, -1)); }
int64_t trapezoid_dim(const Tensor& y, const Value& dim) {
  KILN_CHECK(y.dim() > 0, Index, "Dimension specified as -1 but tensor has no dimensions");
  return wrap_dim(dim.to_int(), y.dim());
}
// trapezoid.x(y, x, *, dim=-1) = sum(dx * (y[1:] + y[:-1]) / 2).
template <bool Cumulative>
std::vector<Tensor> trapezoid_x_composite(const Args& a) {
  const Tensor& y = a[0].tensor();
  const int64_t d = trapezoid_dim(y, a[2]);
  Tensor terms = mul(mul(trapezoid_spacing(y, a[1].tensor(), d), pair_sums(y, d)), 0.5);
  return {Cumulative ? invoke("cumsum", {terms, d}) : sum(terms, Shape{d})};
}
// trapezoid.dx(y, *, dx=1, dim=-1) = (sum(y) - (y[0] + y[-1]) / 2) * dx; the cumulative form
// sums dx / 2 * (y[1:] + y[:-1]) as it goes.
template <bool Cumulative>
std::vector<Tensor> trapezoid_dx_composite(const Args& a) {
  const Tensor& y = a[0].tensor();
  const int64_t d = trapezoid_dim(y, a[2]);
  const double dx = a[1].to_double();
  if (Cumulative) return {invoke("cumsum", {mul(pair_sums(y, d), dx / 2.0), d})};
  if (y.size(d) == 0) return {mul(sum(y, Shape{d}), 0.0)};
  Tensor ends = add(select(y, d, 0), select(y, d, -1));
  return {mul(sub(sum(y, Shape{d}), mul(ends, 0.5)), dx)};
}

// msort(x) = sort(x, dim=0).values.
std::vector<Tensor> msort_composite(const Args& a) {
  return {call_op("sort", std::vector<Value>{a[0], int64_t(0), false})[0]};
}

// cumsum_ / cumprod_: the scan written into self.
template <const char* Op>
std::vector<Tensor> scan_inplace_composite(const Args& a) {
  return write_into_self(a[0].tensor(), invoke(Op, {a[0], a[1], a[2]}));
}
constexpr char kCumsum[] = "cumsum", kCumprod[] = "cumprod";

}  // namespace ops

void register_scan_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind S = OpKind::Shape;
  t.add({.schema_text = "cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", .kind = S,
         .shape = shape_scan, .dtype = dtype_scan, .kernel = scan_kernel<false>, .grad = grad_cumsum});
  t.add({.schema_text = "cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", .kind = S,
         .shape = shape_scan, .dtype = dtype_scan, .kernel = scan_kernel<true>, .grad = grad_cumprod,
         .saves = save_in(0)});
  t.add({.schema_text = "cumsum_(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", .kind = OpKind::Composite,
         .composite = scan_inplace_composite<kCumsum>});
  t.add({.schema_text = "cumprod_(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", .kind = OpKind::Composite,
         .composite = scan_inplace_composite<kCumprod>});
  t.add({.schema_text = "_cumprod_backward(Tensor grad, Tensor self, int dim) -> Tensor", .kind = S,
         .shape = shape_cumprod_backward, .dtype = dtype_of_grad, .kernel = cumprod_backward_kernel});
  t.add({.schema_text = "sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
         .kind = S, .shape = shape_sort<1>, .dtype = dtype_values_indices, .kernel = sort_kernel<1>,
         .grad = grad_sort<1>, .saves = save_out(1)});
  t.add({.schema_text = "sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
         .kind = S, .shape = shape_sort<2>, .dtype = dtype_values_indices, .kernel = sort_kernel<2>,
         .grad = grad_sort<2>, .saves = save_out(1)});
  t.add({.schema_text = "msort(Tensor self) -> Tensor", .kind = OpKind::Composite, .composite = msort_composite});
  constexpr OpKind C = OpKind::Composite;
  t.add({.schema_text = "trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", .kind = C,
         .composite = trapezoid_x_composite<false>});
  t.add({.schema_text = "trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor", .kind = C,
         .composite = trapezoid_dx_composite<false>});
  t.add({.schema_text = "trapz.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", .kind = C,
         .composite = trapezoid_x_composite<false>});
  t.add({.schema_text = "trapz.dx(Tensor y, *, float dx=1, int dim=-1) -> Tensor", .kind = C,
         .composite = trapezoid_dx_composite<false>});
  t.add({.schema_text = "cumulative_trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", .kind = C,
         .composite = trapezoid_x_composite<true>});
  t.add({.schema_text = "cumulative_trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor", .kind = C,
         .composite = trapezoid_dx_composite<true>});
  t.add({.schema_text = "argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor", .kind = S,
         .shape = shape_argsort<1>, .dtype = dtype_indices, .kernel = argsort_kernel<1>});
  t.add({.schema_text = "argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor",
         .kind = S, .shape = shape_argsort<2>, .dtype = dtype_indices, .kernel = argsort_kernel<2>});
  t.add({.schema_text = "topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)",
         .kind = S, .shape = shape_topk, .dtype = dtype_values_indices, .kernel = topk_kernel, .grad = grad_topk,
         .saves = save_out(1)});
  t.add({.schema_text = "kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)",
         .kind = S, .shape = shape_kthvalue, .dtype = dtype_values_indices, .kernel = kthvalue_kernel,
         .grad = grad_kthvalue, .saves = save_out(1)});
  t.add({.schema_text = "median(Tensor self) -> Tensor", .kind = S, .shape = shape_median, .dtype = dtype_like_self,
         .kernel = median_kernel, .grad = grad_median, .saves = save_in(0) | save_out(0)});
  t.add({.schema_text = "median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
         .kind = S, .shape = shape_median_dim, .dtype = dtype_values_indices, .kernel = median_dim_kernel,
         .grad = grad_median_dim, .saves = save_out(1)});
  t.add({.schema_text = "mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)",
         .kind = S, .shape = shape_mode, .dtype = dtype_values_indices, .kernel = mode_kernel, .grad = grad_mode,
         .saves = save_out(1)});
  t.add({.schema_text = "cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)", .kind = S,
         .shape = shape_cum_extreme, .dtype = dtype_values_indices, .kernel = cum_extreme_kernel<true>,
         .grad = grad_cum_extreme, .saves = save_out(1)});
  t.add({.schema_text = "cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)", .kind = S,
         .shape = shape_cum_extreme, .dtype = dtype_values_indices, .kernel = cum_extreme_kernel<false>,
         .grad = grad_cum_extreme, .saves = save_out(1)});
  t.add({.schema_text = "logcumsumexp(Tensor self, int dim) -> Tensor", .kind = S, .shape = shape_scan,
         .dtype = dtype_like_self, .kernel = logcumsumexp_kernel, .grad = grad_logcumsumexp,
         .saves = save_in(0) | save_out(0)});
  t.add({.schema_text = "searchsorted(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None) -> Tensor",
         .kind = S, .shape = shape_searchsorted, .dtype = dtype_searchsorted, .kernel = searchsorted_kernel});
  t.add({.schema_text = "bucketize(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor",
         .kind = OpKind::Composite, .composite = bucketize_composite});
  t.add({.schema_text = "isin(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor",
         .kind = OpKind::Composite, .composite = isin_composite});
  t.add({.schema_text = "bincount(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor", .kind = S,
         .shape = shape_bincount, .dtype = dtype_bincount, .kernel = bincount_kernel});
  t.add({.schema_text = "nonzero.as_tuple(Tensor self, *, bool as_tuple) -> Tensor[]", .kind = OpKind::Composite,
         .composite = nonzero_tuple_composite});
  t.add({.schema_text = "where(Tensor condition) -> Tensor[]", .kind = OpKind::Composite,
         .composite = where_nonzero_composite});
  t.add({.schema_text = "_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)",
         .kind = S, .shape = shape_unique, .dtype = dtype_unique, .kernel = unique_kernel});
  t.add({.schema_text = "unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)",
         .kind = S, .shape = shape_unique_dim, .dtype = dtype_unique_dim, .kernel = unique_dim_kernel});
}

}  // namespace kiln
