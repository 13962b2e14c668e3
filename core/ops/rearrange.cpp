// Rearranging ops written as composites of views, cat and index_select:
// flip, roll, movedim/moveaxis, swapaxes/swapdims, unflatten, hstack/vstack,
// tile, repeat_interleave, and diff, count_nonzero, masked_select. Being composites, autograd and the tracer see
// through them to the ops they are made of.
#include <algorithm>

#include "core/device.h"
#include "core/ops/common.h"

namespace kiln {
namespace ops {
namespace {

Shape wrap_dims(const Shape& dims, int64_t ndim) {
  Shape out;
  for (int64_t d : dims) out.push_back(wrap_dim(d, ndim));
  return out;
}

// flip(Tensor self, int[] dims): index_select with a reversed arange per dim.
std::vector<Tensor> flip_composite(const Args& a) {
  Tensor x = a[0].tensor();
  Shape dims = wrap_dims(a[1].int_list(), x.dim());
  std::vector<bool> seen(size_t(std::max<int64_t>(x.dim(), 1)), false);
  for (int64_t d : dims) {
    KILN_CHECK(!seen[size_t(d)], Runtime, "dim ", d, " appears multiple times in the list of dims");
    seen[size_t(d)] = true;
  }
  if (x.dim() == 0) return {clone(x)};
  for (int64_t d : dims) {
    int64_t n = x.sizes()[size_t(d)];
    x = index_select(x, d, arange(double(n - 1), -1, -1, DType::Int64));
  }
  return {dims.empty() ? clone(x) : x};
}

// roll(Tensor self, int[1] shifts, int[1] dims=[]): without dims, of the flattened tensor.
Tensor roll_one(const Tensor& x, int64_t shift, int64_t dim) {
  int64_t n = x.sizes()[size_t(dim)];
  if (n == 0) return x;
  int64_t s = ((shift % n) + n) % n;
  if (s == 0) return x;
  return cat({narrow(x, dim, n - s, s), narrow(x, dim, 0, n - s)}, dim);
}
std::vector<Tensor> roll_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  const Shape &shifts = a[1].int_list(), &dims = a[2].int_list();
  if (dims.empty()) {
    KILN_CHECK(shifts.size() == 1, Runtime, "`shifts` required");
    return {view(roll_one(flatten(x), shifts[0], 0), x.sizes())};
  }
  KILN_CHECK(shifts.size() == dims.size(), Runtime, "shifts and dimensions must align. shifts: ", shifts.size(),
             ", dims:", dims.size());
  Tensor out = x;
  for (size_t i = 0; i < dims.size(); ++i) out = roll_one(out, shifts[i], wrap_dim(dims[i], x.dim()));
  return {out.is_same(x) ? clone(x) : out};
}

// movedim(Tensor self, int[] source, int[] destination): a permute.
std::vector<Tensor> movedim_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  int64_t n = x.dim();
  const Shape &src_raw = a[1].int_list(), &dst_raw = a[2].int_list();
  KILN_CHECK(src_raw.size() == dst_raw.size(), Runtime,
             "movedim: Invalid source or destination dims: source (", shape_str(src_raw),
             " dims) should contain the same number of dims as destination (", shape_str(dst_raw), " dims)");
  Shape src = wrap_dims(src_raw, n), dst = wrap_dims(dst_raw, n);
  auto unique = [](Shape s, const Shape& raw, const char* what) {
    std::sort(s.begin(), s.end());
    KILN_CHECK(std::adjacent_find(s.begin(), s.end()) == s.end(), Runtime, "movedim: repeated dim in `", what,
               "` (", shape_str(raw), ")");
  };
  unique(src, src_raw, "source");
  unique(dst, dst_raw, "destination");
  Shape order(size_t(n), -1);
  std::vector<bool> used(size_t(n), false);
  for (size_t i = 0; i < src.size(); ++i) {
    order[size_t(dst[i])] = src[i];
    used[size_t(src[i])] = true;
  }
  int64_t next = 0;
  for (int64_t& o : order) {
    if (o >= 0) continue;
    while (used[size_t(next)]) ++next;
    o = next++;
  }
  return {n == 0 ? x : permute(x, order)};
}

std::vector<Tensor> swapaxes_composite(const Args& a) {
  return {transpose(a[0].tensor(), a[1].to_int(), a[2].to_int())};
}

// unflatten(Tensor self, int dim, int[] sizes): one dim split into `sizes` (one may be -1).
std::vector<Tensor> unflatten_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  KILN_CHECK(x.dim() > 0, Runtime, "Dimension specified as 0 but tensor has no dimensions");
  int64_t d = wrap_dim(a[1].to_int(), x.dim());
  const Shape& sizes = a[2].int_list();
  KILN_CHECK(!sizes.empty(), Runtime, "unflatten: sizes must be non-empty");
  int64_t known = 1, infer = 0;
  for (int64_t s : sizes) s == -1 ? ++infer : known *= s;
  int64_t n = x.sizes()[size_t(d)];
  KILN_CHECK(infer > 0 ? (known != 0 && n % known == 0) : known == n, Runtime,
             "unflatten: Provided sizes ", shape_str(sizes), " don't multiply up to the size of dim ", d, " (", n,
             ") in the input tensor");
  Shape shape(x.sizes().begin(), x.sizes().begin() + d);
  shape.insert(shape.end(), sizes.begin(), sizes.end());
  shape.insert(shape.end(), x.sizes().begin() + d + 1, x.sizes().end());
  return {reshape(x, shape)};
}

// hstack / vstack: cat after atleast_1d / atleast_2d.
template <bool Vertical>
std::vector<Tensor> stack_hv_composite(const Args& a) {
  std::vector<Tensor> ts = a[0].tensor_list();
  KILN_CHECK(!ts.empty(), Runtime, Vertical ? "vstack" : "hstack", " expects a non-empty TensorList");
  for (Tensor& t : ts) {
    if (t.dim() == 0) t = reshape(t, Vertical ? Shape{1, 1} : Shape{1});
    else if (Vertical && t.dim() == 1) t = unsqueeze(t, 0);
  }
  if (Vertical || ts[0].dim() == 1) return {cat(ts, 0)};
  return {cat(ts, 1)};
}

// tile(Tensor self, int[] dims): repeat with dims padded by leading ones.
// view as (1, s0, 1, s1, ...), expand to (r0, s0, r1, s1, ...), merge pairs.
std::vector<Tensor> tile_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  Shape reps = a[1].int_list();
  if (int64_t(reps.size()) < x.dim()) reps.insert(reps.begin(), size_t(x.dim()) - reps.size(), 1);
  for (int64_t r : reps)
    KILN_CHECK(r >= 0, Runtime, "Trying to create tensor with negative dimension ", r, ": ", shape_str(reps));
  Shape padded(reps.size() - size_t(x.dim()), 1);
  padded.insert(padded.end(), x.sizes().begin(), x.sizes().end());
  Shape pairs, expanded, merged;
  for (size_t i = 0; i < reps.size(); ++i) {
    pairs.insert(pairs.end(), {1, padded[i]});
    expanded.insert(expanded.end(), {reps[i], padded[i]});
    merged.push_back(reps[i] * padded[i]);
  }
  return {clone(reshape(expand(reshape(x, pairs), expanded), merged))};
}

// repeat_interleave(Tensor self, int repeats, int? dim=None): each element
// repeated along dim (of the flattened tensor without dim).
std::vector<Tensor> repeat_interleave_composite(const Args& a) {
  Tensor x = a[2].is_none() ? flatten(a[0].tensor()) : a[0].tensor();
  int64_t r = a[1].to_int();
  KILN_CHECK(r >= 0, Runtime, "repeats can not be negative");
  int64_t d = a[2].is_none() ? 0 : wrap_dim(a[2].to_int(), x.dim());
  if (x.dim() == 0) x = reshape(x, {1});
  Shape grown = x.sizes();
  grown.insert(grown.begin() + d + 1, r);
  Shape merged = x.sizes();
  merged[size_t(d)] *= r;
  return {clone(reshape(expand(unsqueeze(x, d + 1), grown), merged))};
}

// repeat_interleave(Tensor self, Tensor repeats, int? dim=None): element i
// repeated repeats[i] times, an index_select whose index reads the repeats.
std::vector<Tensor> repeat_interleave_tensor_composite(const Args& a) {
  Tensor x = a[2].is_none() ? flatten(a[0].tensor()) : a[0].tensor();
  const Tensor& reps = a[1].tensor();
  KILN_CHECK(!is_floating(reps.dtype()) && reps.dtype() != DType::Bool, Runtime,
             "repeat_interleave: repeats must be an integer tensor");  // PyTorch: index_select dtype error
  KILN_CHECK(reps.dim() <= 1, Runtime, "repeats must be 0-dim or 1-dim tensor");
  if (x.dim() == 0) x = reshape(x, {1});
  int64_t d = a[2].is_none() ? 0 : wrap_dim(a[2].to_int(), x.dim());
  int64_t n = x.sizes()[size_t(d)];
  KILN_CHECK(reps.numel() == 1 || reps.numel() == n, Runtime, "repeats must have the same size as input along dim, but got repeats.size(0) = ",
             reps.numel(), " and input.size(", d, ") = ", n);
  std::vector<double> idx;
  for (int64_t i = 0; i < n; ++i) {
    int64_t r = int64_t(element_as_double(reps, reps.numel() == 1 ? 0 : i));
    KILN_CHECK(r >= 0, Runtime, "repeats can not be negative");
    idx.insert(idx.end(), size_t(r), double(i));
  }
  Tensor index = copy_to_device(tensor_from(idx, {int64_t(idx.size())}, DType::Int64), x.device());
  return {index_select(x, d, index)};
}

// diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None):
// n-th forward difference along dim (bool: where neighbours differ).
std::vector<Tensor> diff_composite(const Args& a) {
  Tensor x = a[0].tensor();
  int64_t n = a[1].to_int();
  KILN_CHECK(x.dim() > 0, Runtime, "diff expects input to be at least one-dimensional");
  KILN_CHECK(n >= 0, Runtime, "order must be non-negative but got ", n);
  int64_t d = wrap_dim(a[2].to_int(), x.dim());
  std::vector<Tensor> parts;
  if (!a[3].is_none()) parts.push_back(a[3].tensor());
  parts.push_back(x);
  if (!a[4].is_none()) parts.push_back(a[4].tensor());
  if (parts.size() > 1) x = cat(parts, d);
  for (int64_t i = 0; i < n && x.sizes()[size_t(d)] > 0; ++i) {
    int64_t len = x.sizes()[size_t(d)] - 1;
    Tensor hi = narrow(x, d, 1, len), lo = narrow(x, d, 0, len);
    x = x.dtype() == DType::Bool ? ne(hi, lo) : sub(hi, lo);
  }
  return {n == 0 && parts.size() == 1 ? clone(x) : x};
}

// count_nonzero(Tensor self, int? dim=None) / count_nonzero.dim_IntList(Tensor self, int[] dim)
std::vector<Tensor> count_nonzero_composite(const Args& a) {
  Tensor hit = ne(a[0].tensor(), scalar_tensor(0, DType::Int64, true));
  Dims dims;
  if (a[1].is_int()) dims = Shape{a[1].to_int()};
  else if (!a[1].is_none()) dims = a[1].int_list();
  if (dims && dims->empty()) dims.reset();
  return {sum(hit, dims, false, DType::Int64)};
}

// masked_select(Tensor self, Tensor mask): the elements where the (broadcast) mask is true, as 1-D.
std::vector<Tensor> masked_select_composite(const Args& a) {
  const Tensor &x = a[0].tensor(), &mask = a[1].tensor();
  KILN_CHECK(mask.dtype() == DType::Bool, Runtime, "masked_select: expected BoolTensor for mask");
  Shape s = broadcast_shapes(x.sizes(), mask.sizes());
  TensorIndex i;
  i.kind = TensorIndex::Tensor_;
  i.tensor = mask.sizes() == s ? mask : expand(mask, s);
  Tensor r = index(x.sizes() == s ? x : expand(x, s), {i});
  return {r.dim() == 1 ? r : reshape(r, {-1})};
}

}  // namespace
}  // namespace ops

void register_rearrange_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
  t.add({.schema_text = "flip(Tensor self, int[] dims) -> Tensor", .kind = C, .composite = flip_composite,
         .grad_node = "FlipBackward0"});
  t.add({.schema_text = "roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor", .kind = C,
         .composite = roll_composite, .grad_node = "RollBackward0"});
  t.add({.schema_text = "movedim(Tensor self, int[] source, int[] destination) -> Tensor", .kind = C,
         .composite = movedim_composite});
  t.add({.schema_text = "moveaxis(Tensor self, int[] source, int[] destination) -> Tensor", .kind = C,
         .composite = movedim_composite});
  t.add({.schema_text = "swapaxes(Tensor self, int axis0, int axis1) -> Tensor", .kind = C,
         .composite = swapaxes_composite});
  t.add({.schema_text = "swapdims(Tensor self, int dim0, int dim1) -> Tensor", .kind = C,
         .composite = swapaxes_composite});
  t.add({.schema_text = "unflatten(Tensor self, int dim, int[] sizes) -> Tensor", .kind = C,
         .composite = unflatten_composite});
  t.add({.schema_text = "hstack(Tensor[] tensors) -> Tensor", .kind = C, .composite = stack_hv_composite<false>});
  t.add({.schema_text = "vstack(Tensor[] tensors) -> Tensor", .kind = C, .composite = stack_hv_composite<true>});
  t.add({.schema_text = "tile(Tensor self, int[] dims) -> Tensor", .kind = C, .composite = tile_composite,
         .grad_node = "RepeatBackward0"});
  t.add({.schema_text = "repeat_interleave.self_int(Tensor self, int repeats, int? dim=None, *, int? output_size=None) -> Tensor",
         .kind = C, .composite = repeat_interleave_composite, .grad_node = "ViewBackward0"});
  t.add({.schema_text = "repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, int? output_size=None) -> Tensor",
         .kind = C, .composite = repeat_interleave_tensor_composite});
  t.add({.schema_text = "diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor",
         .kind = C, .composite = diff_composite});
  t.add({.schema_text = "count_nonzero(Tensor self, int? dim=None) -> Tensor", .kind = C,
         .composite = count_nonzero_composite});
  t.add({.schema_text = "count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor", .kind = C,
         .composite = count_nonzero_composite});
  t.add({.schema_text = "masked_select(Tensor self, Tensor mask) -> Tensor", .kind = C,
         .composite = masked_select_composite});
}

}  // namespace kiln
