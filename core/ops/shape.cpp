// Shape and view ops. Views (kind View) alias their input's storage and
// only compute sizes, strides and offset; copying shape ops (cat, stack,
// tril) allocate. Derivatives map the gradient back through the same shape
// change.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "core/alloc_limit.h"
#include "core/autograd.h"
#include "core/device.h"
#include "core/lowering.h"
#include "core/ops/common.h"

namespace kiln {
namespace ops {

// Resolves one -1 in a requested shape against numel, as torch.view does.
Shape infer_size(const Shape& shape, int64_t numel) {
  Shape out = shape;
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      KILN_CHECK(infer < 0, Runtime, "only one dimension can be inferred");
      infer = int64_t(i);
    } else {
      KILN_CHECK(shape[i] >= 0, Runtime, "invalid shape dimension ", shape[i]);
      known *= shape[i];
    }
  }
  bool ok = infer >= 0 ? (known > 0 && numel % known == 0) : known == numel;
  if (infer >= 0 && known == 0) ok = false;
  KILN_CHECK(ok, Runtime, "shape '", shape_str(shape), "' is invalid for input of size ", numel);
  if (infer >= 0) out[size_t(infer)] = numel / known;
  return out;
}

// Strides that let `newshape` view memory laid out as (oldshape, oldstride),
// or nullopt when some new dim would span two non-contiguous chunks.
std::optional<Shape> view_strides(const Shape& oldshape, const Shape& oldstride, const Shape& newshape) {
  if (oldshape.empty()) return Shape(newshape.size(), 1);
  int64_t numel = shape_numel(oldshape);
  if (numel == 0) return oldshape == newshape ? oldstride : contiguous_strides(newshape);
  Shape newstride(newshape.size());
  int64_t view_d = int64_t(newshape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t td = int64_t(oldshape.size()) - 1; td >= 0; --td) {
    tensor_numel *= oldshape[size_t(td)];
    if (td == 0 || (oldshape[size_t(td - 1)] != 1 && oldstride[size_t(td - 1)] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[size_t(view_d)] == 1)) {
        newstride[size_t(view_d)] = view_numel * chunk_base_stride;
        view_numel *= newshape[size_t(view_d)];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (td > 0) {
        chunk_base_stride = oldstride[size_t(td - 1)];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return newstride;
}

namespace {

// ---- view / reshape ----------------------------------------------------------------
void view_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  Shape shape = infer_size(a[1].int_list(), self.numel());
  auto st = view_strides(self.sizes(), self.strides(), shape);
  KILN_CHECK(st.has_value(), Runtime,
             "view size is not compatible with input tensor's size and stride (at least one dimension spans "
             "across two contiguous subspaces). Use .reshape(...) instead.");
  outs.push_back(make_view(self, shape, *st, self.offset()));
}
std::vector<Shape> shape_view(const Args& a) { return {infer_size(a[1].int_list(), a[0].tensor().numel())}; }
std::vector<Tensor> grad_reshape_back(const GradCtx& c) { return {reshape(c.grad(), c.in_sizes[0])}; }

std::vector<Tensor> reshape_composite(const Args& a) {
  const Tensor& self = a[0].tensor();
  Shape shape = infer_size(a[1].int_list(), self.numel());
  if (view_strides(self.sizes(), self.strides(), shape)) return {view(self, shape)};
  // PyTorch's _unsafe_view of a copy: not a view of anything the caller holds
  // (no _base), and its node is UnsafeViewBackward0.
  return {as_node(not_a_view(view(contiguous(self), shape)), "UnsafeViewBackward0")};
}

std::vector<Tensor> contiguous_composite(const Args& a) {
  const Tensor& self = a[0].tensor();
  return {self.is_contiguous() ? self : clone(self)};
}

// ---- expand -------------------------------------------------------------------------
Shape expand_shape(const Tensor& self, const Shape& size, Shape* strides) {
  KILN_CHECK(int64_t(size.size()) >= self.dim(), Runtime, "expand(", "torch.", dtype_legacy_name(self.dtype()),
             "Tensor{", shape_str(self.sizes()), "}, size=", shape_str(size),
             "): the number of sizes provided (", size.size(),
             ") must be greater or equal to the number of dimensions in the tensor (", self.dim(), ")");
  Shape out(size.size());
  strides->assign(size.size(), 0);
  int64_t lead = int64_t(size.size()) - self.dim();
  for (int64_t i = int64_t(size.size()) - 1; i >= 0; --i) {
    int64_t target = size[size_t(i)];
    if (i < lead) {
      KILN_CHECK(target >= 0, Runtime, "The expanded size of the tensor (", target,
                 ") isn't allowed in a leading, non-existing dimension ", i);
      out[size_t(i)] = target;
      continue;
    }
    int64_t cur = self.sizes()[size_t(i - lead)];
    if (target == -1) target = cur;
    KILN_CHECK(cur == target || cur == 1, Runtime, "The expanded size of the tensor (", target,
               ") must match the existing size (", cur, ") at non-singleton dimension ", i,
               ".  Target sizes: ", shape_str(size), ".  Tensor sizes: ", shape_str(self.sizes()));
    out[size_t(i)] = target;
    (*strides)[size_t(i)] = cur == target ? self.strides()[size_t(i - lead)] : 0;
  }
  return out;
}
void expand_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  Shape strides;
  Shape sizes = expand_shape(self, a[1].int_list(), &strides);
  outs.push_back(make_view(self, sizes, strides, self.offset()));
}
std::vector<Shape> shape_expand(const Args& a) {
  Shape strides;
  return {expand_shape(a[0].tensor(), a[1].int_list(), &strides)};
}
std::vector<Tensor> grad_expand(const GradCtx& c) { return {sum_to(c.grad(), c.in_sizes[0])}; }


// ---- geometry-only views --------------------------------------------------------------
// A view's whole effect: its sizes, strides and storage offset. Kernels wrap
// it with make_view; shape functions read only its sizes.
struct Geom {
  Shape sizes, strides;
  int64_t offset = 0;
};
Geom geom_of(const Tensor& t) { return {t.sizes(), t.strides(), t.offset()}; }

template <Geom (*G)(const Args&)>
void geom_kernel(const Args& a, std::vector<Tensor>& outs) {
  Geom g = G(a);
  outs.push_back(make_view(a[0].tensor(), std::move(g.sizes), std::move(g.strides), g.offset));
}
template <Geom (*G)(const Args&)>
std::vector<Shape> geom_shape(const Args& a) {
  return {G(a).sizes};
}
// Multi-output views (split, unbind).
template <std::vector<Geom> (*G)(const Args&)>
void geoms_kernel(const Args& a, std::vector<Tensor>& outs) {
  for (Geom& g : G(a)) outs.push_back(make_view(a[0].tensor(), std::move(g.sizes), std::move(g.strides), g.offset));
}
template <std::vector<Geom> (*G)(const Args&)>
std::vector<DType> geoms_dtype(const Args& a) {
  return std::vector<DType>(G(a).size(), a[0].tensor().dtype());
}
template <std::vector<Geom> (*G)(const Args&)>
std::vector<Shape> geoms_shape(const Args& a) {
  std::vector<Shape> s;
  for (Geom& g : G(a)) s.push_back(std::move(g.sizes));
  return s;
}

// transpose(Tensor self, int dim0, int dim1)
Geom geom_transpose(const Args& a) {
  Geom g = geom_of(a[0].tensor());
  int64_t n = int64_t(g.sizes.size());
  int64_t d0 = wrap_dim(a[1].to_int(), n), d1 = wrap_dim(a[2].to_int(), n);
  if (n == 0) return g;
  std::swap(g.sizes[size_t(d0)], g.sizes[size_t(d1)]);
  std::swap(g.strides[size_t(d0)], g.strides[size_t(d1)]);
  return g;
}
std::vector<Tensor> grad_transpose(const GradCtx& c) {
  return {transpose(c.grad(), c.args[1].to_int(), c.args[2].to_int())};
}

Geom geom_t(const Args& a) {
  Geom g = geom_of(a[0].tensor());
  KILN_CHECK(g.sizes.size() <= 2, Runtime, "t() expects a tensor with <= 2 dimensions, but self is ",
             g.sizes.size(), "D");
  if (g.sizes.size() == 2) {
    std::swap(g.sizes[0], g.sizes[1]);
    std::swap(g.strides[0], g.strides[1]);
  }
  return g;
}
std::vector<Tensor> grad_t(const GradCtx& c) { return {t(c.grad())}; }

// permute(Tensor self, int[] dims)
Shape wrapped_perm(const Tensor& self, const Shape& dims) {
  int64_t n = self.dim();
  KILN_CHECK(int64_t(dims.size()) == n, Runtime,
             "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
             "desired ordering of dimensions i.e. input.dim() = ",
             n, " is not equal to len(dims) = ", dims.size());
  Shape perm(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    perm[i] = wrap_dim(dims[i], n);
    KILN_CHECK(!seen[size_t(perm[i])], Runtime, "permute(): duplicate dims are not allowed.");
    seen[size_t(perm[i])] = true;
  }
  return perm;
}
Geom geom_permute(const Args& a) {
  const Tensor& self = a[0].tensor();
  Shape perm = wrapped_perm(self, a[1].int_list());
  Geom g{Shape(perm.size()), Shape(perm.size()), self.offset()};
  for (size_t i = 0; i < perm.size(); ++i) {
    g.sizes[i] = self.sizes()[size_t(perm[i])];
    g.strides[i] = self.strides()[size_t(perm[i])];
  }
  return g;
}
std::vector<Tensor> grad_permute(const GradCtx& c) {
  const Shape& dims = c.args[1].int_list();
  int64_t n = int64_t(dims.size());
  Shape inv(dims.size());
  for (int64_t i = 0; i < n; ++i) inv[size_t(wrap_dim(dims[size_t(i)], n))] = i;
  return {permute(c.grad(), inv)};
}

// unsqueeze(Tensor self, int dim)
Geom geom_unsqueeze(const Args& a) {
  Geom g = geom_of(a[0].tensor());
  int64_t n = int64_t(g.sizes.size());
  int64_t d = wrap_dim(a[1].to_int(), n + 1);
  int64_t st = d >= n ? 1 : g.sizes[size_t(d)] * g.strides[size_t(d)];
  g.sizes.insert(g.sizes.begin() + d, 1);
  g.strides.insert(g.strides.begin() + d, st);
  return g;
}

// squeeze(self) / squeeze.dim(self, int dim) / squeeze.dims(self, int[] dim)
Geom squeeze_geom(const Tensor& self, const std::vector<bool>& drop) {
  Geom g{{}, {}, self.offset()};
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (drop[size_t(d)] && self.sizes()[size_t(d)] == 1) continue;
    g.sizes.push_back(self.sizes()[size_t(d)]);
    g.strides.push_back(self.strides()[size_t(d)]);
  }
  return g;
}
Geom geom_squeeze(const Args& a) {
  const Tensor& self = a[0].tensor();
  return squeeze_geom(self, std::vector<bool>(size_t(self.dim()), true));
}
Geom geom_squeeze_dim(const Args& a) {
  const Tensor& self = a[0].tensor();
  std::vector<bool> drop(size_t(self.dim()), false);
  int64_t d = wrap_dim(a[1].to_int(), self.dim());
  if (self.dim() > 0) drop[size_t(d)] = true;
  return squeeze_geom(self, drop);
}
Geom geom_squeeze_dims(const Args& a) {
  const Tensor& self = a[0].tensor();
  std::vector<bool> drop(size_t(std::max<int64_t>(self.dim(), 1)), false);
  for (int64_t d : a[1].int_list()) {
    int64_t w = wrap_dim(d, self.dim());
    KILN_CHECK(!drop[size_t(w)], Runtime, "dim ", w, " appears multiple times in the list of dims");
    drop[size_t(w)] = true;
  }
  drop.resize(size_t(self.dim()));
  return squeeze_geom(self, drop);
}

// flatten(Tensor self, int start_dim=0, int end_dim=-1): reshape of a dim range.
std::vector<Tensor> flatten_composite(const Args& a) {
  const Tensor& self = a[0].tensor();
  int64_t s = wrap_dim(a[1].to_int(), self.dim()), e = wrap_dim(a[2].to_int(), self.dim());
  KILN_CHECK(s <= e, Runtime, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (self.dim() == 0) return {reshape(self, {1})};
  if (s == e) return {self};
  Shape shape(self.sizes().begin(), self.sizes().begin() + s);
  int64_t n = 1;
  for (int64_t d = s; d <= e; ++d) n *= self.sizes()[size_t(d)];
  shape.push_back(n);
  shape.insert(shape.end(), self.sizes().begin() + e + 1, self.sizes().end());
  return {reshape(self, shape)};
}

// slice(Tensor self, int dim=0, int? start=None, int? end=None, int step=1), Python clamping.
Geom slice_geom(const Tensor& self, int64_t dim, const Value& start_v, const Value& end_v, int64_t step) {
  KILN_CHECK(self.dim() > 0, Index, "slice() cannot be applied to a 0-dim tensor.");
  KILN_CHECK(step > 0, Value, "step must be greater than zero");
  int64_t d = wrap_dim(dim, self.dim());
  Geom g = geom_of(self);
  int64_t size = g.sizes[size_t(d)];
  auto clampi = [size](int64_t v) {
    if (v < 0) v += size;
    return std::clamp<int64_t>(v, 0, size);
  };
  int64_t start = start_v.is_none() ? 0 : clampi(start_v.to_int());
  int64_t end = end_v.is_none() ? size : clampi(end_v.to_int());
  end = std::max(end, start);
  g.offset += start * g.strides[size_t(d)];
  g.sizes[size_t(d)] = (end - start + step - 1) / step;
  g.strides[size_t(d)] *= step;
  return g;
}
Geom geom_slice(const Args& a) { return slice_geom(a[0].tensor(), a[1].to_int(), a[2], a[3], a[4].to_int()); }
// The slice of a zero tensor receives the gradient.
std::vector<Tensor> grad_slice(const GradCtx& c) {
  Tensor z = zeros(c.in_sizes[0], c.grad().dtype());
  Tensor region = slice(z, c.args[1].to_int(), c.args[2].is_none() ? std::nullopt : std::optional(c.args[2].to_int()),
                        c.args[3].is_none() ? std::nullopt : std::optional(c.args[3].to_int()), c.args[4].to_int());
  copy_(region, c.grad());
  return {z};
}

// unfold(Tensor self, int dimension, int size, int step): a view whose dim `dimension` counts
// the windows of `size` elements taken every `step`, and whose new last dim walks one window.
Geom geom_unfold(const Args& a) {
  const Tensor& self = a[0].tensor();
  Geom g = geom_of(self);
  const int64_t d = self.dim() == 0 ? 0 : wrap_dim(a[1].to_int(), self.dim());
  const int64_t size = a[2].to_int(), step = a[3].to_int();
  const int64_t n = self.dim() == 0 ? 1 : self.sizes()[size_t(d)];
  const int64_t stride = self.dim() == 0 ? 1 : self.strides()[size_t(d)];
  KILN_CHECK(size <= n, Runtime, "maximum size for tensor at dimension ", d, " is ", n, " but size is ", size);
  KILN_CHECK(step > 0, Runtime, "step is ", step, " but must be > 0");
  KILN_CHECK(size >= 0, Runtime, "size is ", size, " but must be >= 0");
  if (self.dim() > 0) {
    g.sizes[size_t(d)] = (n - size) / step + 1;
    g.strides[size_t(d)] = stride * step;
  }
  g.sizes.push_back(size);
  g.strides.push_back(stride);
  return g;
}
// Windows may overlap: each adds its gradient into its own region of a zero tensor.
std::vector<Tensor> grad_unfold(const GradCtx& c) {
  const Shape& in = c.in_sizes[0];
  Tensor z = zeros(in, c.grad().dtype());
  if (in.empty()) return {add(z, reshape(c.grad(), {}))};
  const int64_t d = wrap_dim(c.args[1].to_int(), int64_t(in.size()));
  const int64_t size = c.args[2].to_int(), step = c.args[3].to_int();
  for (int64_t i = 0; i < c.grad().size(d); ++i) {
    Tensor region = slice(z, d, i * step, i * step + size);
    add_(region, invoke("movedim", {select(c.grad(), d, i), int64_t(-1), d}));
  }
  return {z};
}

// select(Tensor self, int dim, int index)
Geom geom_select(const Args& a) {
  const Tensor& self = a[0].tensor();
  KILN_CHECK(self.dim() > 0, Index, "select() cannot be applied to a 0-dim tensor.");
  int64_t d = wrap_dim(a[1].to_int(), self.dim());
  int64_t size = self.sizes()[size_t(d)], i = a[2].to_int();
  // Indexing (t[i]) checks first with its own words; these are select()'s.
  KILN_CHECK(i >= -size && i < size, Index, "select(): index ", i, " out of range for tensor of size ",
             shape_str(self.sizes()), " at dimension ", d);
  if (i < 0) i += size;
  Geom g = geom_of(self);
  g.offset += i * g.strides[size_t(d)];
  g.sizes.erase(g.sizes.begin() + d);
  g.strides.erase(g.strides.begin() + d);
  return g;
}
std::vector<Tensor> grad_select(const GradCtx& c) {
  Tensor z = zeros(c.in_sizes[0], c.grad().dtype());
  Tensor region = select(z, c.args[1].to_int(), c.args[2].to_int());
  copy_(region, c.grad());
  return {z};
}

// narrow(Tensor self, int dim, int start, int length): a slice with checked bounds.
std::vector<Tensor> narrow_composite(const Args& a) {
  const Tensor& self = a[0].tensor();
  KILN_CHECK(self.dim() > 0, Runtime, "narrow() cannot be applied to a 0-dim tensor.");
  int64_t d = wrap_dim(a[1].to_int(), self.dim());
  int64_t size = self.sizes()[size_t(d)], start = a[2].to_int(), length = a[3].to_int();
  KILN_CHECK(length >= 0, Runtime, "narrow(): length must be non-negative.");
  KILN_CHECK(start >= -size && start <= size, Index, "start out of range (expected to be in range of [", -size, ", ",
             size, "], but got ", start, ")");
  if (start < 0) start += size;
  KILN_CHECK(start <= size - length, Runtime, "start (", start, ") + length (", length,
             ") exceeds dimension size (", size, ").");
  return {slice(self, d, start, start + length, 1)};
}

// ---- as_strided ----------------------------------------------------------------------
// as_strided(Tensor self, int[] size, int[] stride, int? storage_offset=None)
Geom geom_as_strided(const Args& a) {
  const Tensor& self = a[0].tensor();
  Geom g{a[1].int_list(), a[2].int_list(), a[3].is_none() ? self.offset() : a[3].to_int()};
  KILN_CHECK(g.sizes.size() == g.strides.size(), Runtime, "mismatch in length of strides and shape");
  for (int64_t s : g.strides)
    KILN_CHECK(s >= 0, Runtime, "as_strided: Negative strides are not supported at the moment, got strides: ",
               shape_str(g.strides));
  for (int64_t s : g.sizes) KILN_CHECK(s >= 0, Runtime, "Trying to create tensor with negative dimension ", s, ": ", shape_str(g.sizes));
  KILN_CHECK(g.offset >= 0, Runtime, "Tensor: invalid storage offset ", g.offset);
  // Elements the view reaches, in bytes; overflow means far out of bounds.
  int64_t item = int64_t(self.element_size());
  int64_t need = 0;
  bool overflow = false;
  if (shape_numel(g.sizes) > 0) {
    overflow = __builtin_add_overflow(g.offset, 1, &need);
    for (size_t i = 0; i < g.sizes.size(); ++i) {
      int64_t span = 0;
      overflow |= __builtin_mul_overflow(g.sizes[i] - 1, g.strides[i], &span);
      overflow |= __builtin_add_overflow(need, span, &need);
    }
  }
  overflow |= __builtin_mul_overflow(need, item, &need);
  if (overflow) need = INT64_MAX;
  KILN_CHECK(need <= int64_t(self.storage()->nbytes), Runtime, "setStorage: sizes ", shape_str(g.sizes),
             ", strides ", shape_str(g.strides), ", storage offset ", g.offset, ", and itemsize ", item,
             " requiring a storage size of ", need, " are out of bounds for storage of size ",
             self.storage()->nbytes);
  return g;
}
std::vector<Tensor> grad_as_strided(const GradCtx& c) {
  const Tensor& self = c.in(0);
  Geom g = geom_as_strided(c.args);
  return {as_strided_backward(c.grad(), self.sizes(), self.strides(), self.offset(), g.sizes, g.strides, g.offset)};
}

// ---- cat / stack ------------------------------------------------------------------------
// PyTorch skips legacy empty 1-d tensors ([0]) when concatenating.
bool cat_skipped(const Tensor& t) { return t.dim() == 1 && t.sizes()[0] == 0; }

// The output shape and wrapped dim; validates the inputs with PyTorch's messages.
Shape cat_shape(const std::vector<Tensor>& ts, int64_t dim, int64_t* wrapped) {
  KILN_CHECK(!ts.empty(), Value, "torch.cat(): expected a non-empty list of Tensors");
  for (size_t i = 0; i < ts.size(); ++i)
    KILN_CHECK(ts[i].dim() > 0, Runtime, "zero-dimensional tensor (at position ", i, ") cannot be concatenated");
  const Tensor* ref = nullptr;
  size_t ref_i = 0;
  for (size_t i = 0; i < ts.size() && !ref; ++i)
    if (!cat_skipped(ts[i])) ref = &ts[i], ref_i = i;
  if (!ref) {
    *wrapped = wrap_dim(dim, 1);
    return {0};
  }
  int64_t d = wrap_dim(dim, ref->dim());
  Shape out = ref->sizes();
  out[size_t(d)] = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    const Tensor& t = ts[i];
    if (cat_skipped(t)) continue;
    KILN_CHECK(t.dim() == ref->dim(), Runtime, "Tensors must have same number of dimensions: got ", ref->dim(),
               " and ", t.dim());
    for (int64_t k = 0; k < t.dim(); ++k) {
      if (k == d) continue;
      KILN_CHECK(t.sizes()[size_t(k)] == ref->sizes()[size_t(k)], Runtime,
                 "Sizes of tensors must match except in dimension ", d, ". Expected size ",
                 ref->sizes()[size_t(k)], " but got size ", t.sizes()[size_t(k)], " for tensor number ", i,
                 " in the list.");
    }
    out[size_t(d)] += t.sizes()[size_t(d)];
  }
  (void)ref_i;
  *wrapped = d;
  return out;
}
std::vector<Shape> shape_cat(const Args& a) {
  int64_t d;
  return {cat_shape(a[0].tensor_list(), a[1].to_int(), &d)};
}
std::vector<DType> dtype_cat(const Args& a) {
  const auto& ts = a[0].tensor_list();
  KILN_CHECK(!ts.empty(), Value, "torch.cat(): expected a non-empty list of Tensors");
  DType d = ts[0].dtype();
  for (const Tensor& t : ts) d = promote_types(d, t.dtype());
  return {d};
}
// Each input is copied into its slab of the output (a raw view, not dispatched).
void cat_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& out = outs[0];
  int64_t d;
  cat_shape(a[0].tensor_list(), a[1].to_int(), &d);
  int64_t pos = 0;
  for (const Tensor& t : a[0].tensor_list()) {
    if (cat_skipped(t)) continue;
    Shape sizes = out.sizes();
    sizes[size_t(d)] = t.sizes()[size_t(d)];
    Tensor slab = make_view(out, sizes, out.strides(), out.offset() + pos * out.strides()[size_t(d)]);
    if (t.numel() > 0) copy_cast(slab, t);
    pos += sizes[size_t(d)];
  }
}
std::vector<Tensor> grad_cat(const GradCtx& c) {
  const auto& ts = c.in_sizes;
  int64_t d = c.grad().dim() == 0 ? 0 : wrap_dim(c.args[1].to_int(), c.grad().dim());
  std::vector<Tensor> g;
  int64_t pos = 0;
  for (const Shape& s : ts) {
    if (s.size() == 1 && s[0] == 0) {
      g.push_back(zeros({0}, c.grad().dtype()));
      continue;
    }
    g.push_back(narrow(c.grad(), d, pos, s[size_t(d)]));
    pos += s[size_t(d)];
  }
  return g;
}

// stack(Tensor[] tensors, int dim=0): cat of the inputs unsqueezed at dim.
std::vector<Tensor> stack_composite(const Args& a) {
  const auto& ts = a[0].tensor_list();
  KILN_CHECK(!ts.empty(), Runtime, "stack expects a non-empty TensorList");
  for (size_t i = 1; i < ts.size(); ++i)
    KILN_CHECK(ts[i].sizes() == ts[0].sizes(), Runtime, "stack expects each tensor to be equal size, but got ",
               ts[0].shape_str(), " at entry 0 and ", ts[i].shape_str(), " at entry ", i);
  int64_t d = wrap_dim(a[1].to_int(), ts[0].dim() + 1);
  std::vector<Tensor> parts;
  parts.reserve(ts.size());
  for (const Tensor& t : ts) parts.push_back(unsqueeze(t, d));
  Tensor out = cat(parts, d);
  if (out.grad_fn()) out.grad_fn()->display_name = "StackBackward0";  // the cat node is this call's own
  return {out};
}

// ---- split / chunk / unbind -------------------------------------------------------------
// Each part is a tensor (hundreds of bytes): splitting an expanded tensor of
// 10**12 rows into rows must fail cleanly, not inside the allocator.
void check_part_count(int64_t n) {
  constexpr uint64_t kBytesPerPart = 512;
  KILN_CHECK(uint64_t(n) <= alloc_limit() / kBytesPerPart, Runtime, "out of memory: could not allocate ", n,
             " tensors");
}
std::vector<Geom> split_geoms(const Tensor& self, int64_t d, const Shape& sizes) {
  std::vector<Geom> out;
  int64_t pos = 0;
  for (int64_t s : sizes) {
    Geom g = geom_of(self);
    g.offset += pos * g.strides[size_t(d)];
    g.sizes[size_t(d)] = s;
    out.push_back(std::move(g));
    pos += s;
  }
  return out;
}
// split(Tensor self, int split_size, int dim=0) -> Tensor[]
std::vector<Geom> geoms_split(const Args& a) {
  const Tensor& self = a[0].tensor();
  KILN_CHECK(self.dim() > 0, Runtime, "split expects at least a 1-dimensional tensor");
  int64_t d = wrap_dim(a[2].to_int(), self.dim());
  int64_t size = self.sizes()[size_t(d)], split = a[1].to_int();
  KILN_CHECK(split >= 0, Runtime, "split expects split_size be non-negative, but got split_size=", split);
  KILN_CHECK(split > 0 || size == 0, Runtime, "split_size can only be 0 if dimension size is 0, but got dimension size of ",
             size);
  int64_t n = split == 0 ? 1 : std::max<int64_t>(size / split + (size % split != 0), 1);
  check_part_count(n);
  Shape sizes(size_t(n), split);
  sizes.back() = size - split * (n - 1);
  return split_geoms(self, d, sizes);
}
// split_with_sizes(Tensor self, int[] split_sizes, int dim=0) -> Tensor[]
std::vector<Geom> geoms_split_with_sizes(const Args& a) {
  const Tensor& self = a[0].tensor();
  KILN_CHECK(self.dim() > 0, Runtime, "split expects at least a 1-dimensional tensor");
  int64_t d = wrap_dim(a[2].to_int(), self.dim());
  const Shape& sizes = a[1].int_list();
  int64_t total = 0;
  for (int64_t s : sizes) {
    KILN_CHECK(s >= 0, Runtime, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=",
               shape_str(sizes));
    KILN_CHECK(!__builtin_add_overflow(total, s, &total), Runtime,
               "split_with_sizes expects split_sizes to sum exactly to ", self.sizes()[size_t(d)],
               " (input tensor's size at dimension ", d, "), but got split_sizes=", shape_str(sizes));
  }
  KILN_CHECK(total == self.sizes()[size_t(d)], Runtime, "split_with_sizes expects split_sizes to sum exactly to ",
             self.sizes()[size_t(d)], " (input tensor's size at dimension ", d, "), but got split_sizes=",
             shape_str(sizes));
  return split_geoms(self, d, sizes);
}
std::vector<Tensor> grad_split(const GradCtx& c) {
  return {cat(std::vector<Tensor>(c.grads.begin(), c.grads.end()), c.args[2].to_int())};
}
std::vector<Tensor> split_sizes_composite(const Args& a) {
  return split_with_sizes(a[0].tensor(), a[1].int_list(), a[2].to_int());
}

// chunk(Tensor self, int chunks, int dim=0) -> Tensor[]: ceil(n/chunks) per chunk.
std::vector<Tensor> chunk_composite(const Args& a) {
  const Tensor& self = a[0].tensor();
  KILN_CHECK(self.dim() > 0, Runtime, "chunk expects at least a 1-dimensional tensor");
  int64_t chunks = a[1].to_int();
  KILN_CHECK(chunks > 0, Runtime, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  int64_t d = wrap_dim(a[2].to_int(), self.dim());
  int64_t size = self.sizes()[size_t(d)];
  int64_t split_size = size / chunks + (size % chunks != 0);
  if (split_size == 0 && size == 0) return split_with_sizes(self, Shape(size_t(chunks), 0), d);
  return split(self, split_size, d);
}

// tensor_split's dim (argument 2), wrapped.
int64_t tensor_split_dim(const Args& a) {
  const Tensor& self = a[0].tensor();
  KILN_CHECK(self.dim() > 0, Runtime,
             "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
  return wrap_dim(a[2].to_int(), self.dim());
}
// tensor_split(Tensor self, int sections, int dim=0): the first size % sections parts one longer.
std::vector<Tensor> tensor_split_sections_composite(const Args& a) {
  const Tensor& self = a[0].tensor();
  int64_t d = tensor_split_dim(a), n = a[1].to_int();
  KILN_CHECK(n > 0, Runtime, "number of sections must be larger than 0, got ", n);
  int64_t size = self.sizes()[size_t(d)];
  check_part_count(n);
  Shape sizes(size_t(n), size / n);
  for (int64_t i = 0; i < size % n; ++i) ++sizes[size_t(i)];
  return split_with_sizes(self, sizes, d);
}
// hsplit / vsplit / dsplit(Tensor self, int sections | int[] indices): tensor_split along
// dim 1 (dim 0 for a 1-D tensor), 0 and 2, with sections that must divide the dim.
template <int64_t Dim>
std::vector<Tensor> directional_split_composite(const Args& a) {
  const Tensor& self = a[0].tensor();
  constexpr const char* name = Dim == 0 ? "vsplit" : Dim == 1 ? "hsplit" : "dsplit";
  const int64_t need = Dim == 1 ? 1 : Dim + 1;
  KILN_CHECK(self.dim() >= need, Runtime, "torch.", name, " requires a tensor with at least ", need,
             " dimension, but got a tensor with ", self.dim(), " dimensions!");
  const int64_t d = Dim == 1 && self.dim() == 1 ? 0 : Dim;
  if (a[1].is_int_list()) return invoke_multi("tensor_split.indices", {self, a[1], d});
  int64_t n = a[1].to_int();
  KILN_CHECK(n != 0 && self.size(d) % n == 0, Runtime, "torch.", name,
             " attempted to split along dimension ", d, ", but the size of the dimension ", self.size(d),
             " is not divisible by the split_size ", n, "!");
  return invoke_multi("tensor_split", {self, n, d});
}
// ravel(Tensor self): flattened, a view where the layout allows.
std::vector<Tensor> ravel_composite(const Args& a) { return {reshape(a[0].tensor(), {-1})}; }
std::vector<Tensor> concat_composite(const Args& a) { return {invoke("cat", {a[0], a[1]})}; }
// tensor_split(Tensor self, int[] indices, int dim=0): slices between the indices, which
// clamp to the dim and may go backwards (an empty part).
std::vector<Tensor> tensor_split_indices_composite(const Args& a) {
  const Tensor& self = a[0].tensor();
  int64_t d = tensor_split_dim(a), size = self.sizes()[size_t(d)];
  auto clamp_index = [size](int64_t i) { return std::clamp(i < 0 ? i + size : i, int64_t(0), size); };
  std::vector<Tensor> parts;
  int64_t start = 0;
  for (int64_t idx : a[1].int_list()) {
    int64_t end = clamp_index(idx);
    parts.push_back(slice(self, d, start, std::max(start, end), 1));
    start = end;
  }
  parts.push_back(slice(self, d, start, size, 1));
  return parts;
}

// unbind(Tensor self, int dim=0) -> Tensor[]
std::vector<Geom> geoms_unbind(const Args& a) {
  const Tensor& self = a[0].tensor();
  KILN_CHECK(self.dim() > 0, Index, "Dimension specified as 0 but tensor has no dimensions");
  int64_t d = wrap_dim(a[1].to_int(), self.dim());
  check_part_count(self.sizes()[size_t(d)]);
  std::vector<Geom> out;
  for (int64_t i = 0; i < self.sizes()[size_t(d)]; ++i) {
    Geom g = geom_of(self);
    g.offset += i * g.strides[size_t(d)];
    g.sizes.erase(g.sizes.begin() + d);
    g.strides.erase(g.strides.begin() + d);
    out.push_back(std::move(g));
  }
  return out;
}
std::vector<Tensor> grad_unbind(const GradCtx& c) {
  if (c.grads.empty()) return {zeros(c.in_sizes[0], DType::Float64)};
  return {stack(std::vector<Tensor>(c.grads.begin(), c.grads.end()), c.args[1].to_int())};
}

// ---- tril / triu -------------------------------------------------------------------------
template <bool Lower>
void tri_kernel(const Args& a, std::vector<Tensor>& outs) {
  Tensor& out = outs[0];  // contiguous
  copy_cast(out, a[0].tensor());
  int64_t diag = a[1].to_int();
  int64_t rows = out.size(-2), cols = out.size(-1);
  int64_t batches = rows * cols == 0 ? 0 : out.numel() / (rows * cols);
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = out.data<T>();
    for (int64_t b = 0; b < batches; ++b)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
          bool keep = Lower ? j - i <= diag : j - i >= diag;
          if (!keep) p[(b * rows + i) * cols + j] = T();
        }
  });
}
template <bool Lower>
std::vector<Shape> shape_tri(const Args& a) {
  KILN_CHECK(a[0].tensor().dim() >= 2, Runtime, Lower ? "tril" : "triu",
             ": input tensor must have at least 2 dimensions");
  return {a[0].tensor().sizes()};
}
// x where j - i is on the kept side of the diagonal, else 0 (i, j: the last two dims' indices).
template <bool Lower>
bool lower_tri(kir::Lowering& L) {
  const DType t = L.outs[0].dtype();
  if (!kir::lowerable_type(t)) return false;
  kir::Builder& b = L.b;
  kir::ExprId off = b.binary(kir::Op::Sub, L.index(-1), L.index(-2));
  kir::ExprId keep = b.compare(Lower ? kir::Op::Le : kir::Op::Ge, off, L.scalar(1, DType::Int64));
  L.set_out(0, b.select(keep, L.tensor(0, t), b.constant(0, t)));
  return true;
}
std::vector<Tensor> grad_tril(const GradCtx& c) { return {tril(c.grad(), c.args[1].to_int())}; }
std::vector<Tensor> grad_triu(const GradCtx& c) { return {triu(c.grad(), c.args[1].to_int())}; }

// ---- equal / allclose ----------------------------------------------------------------------
std::vector<Shape> shape_scalar(const Args&) { return {Shape{}}; }
void set_bool(const Tensor& out, bool v) { *out.data<bool>() = v; }

void equal_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor &x = a[0].tensor(), &y = a[1].tensor();
  bool same = x.sizes() == y.sizes();
  for (int64_t i = 0; same && i < x.numel(); ++i) same = element_as_double(x, i) == element_as_double(y, i);
  set_bool(outs[0], same);
}

// |a - b| <= atol + rtol * |b|, where equal values (infinities too) are always close.
bool is_close(double x, double y, double rtol, double atol, bool equal_nan) {
  if (x == y) return true;
  if (std::isnan(x) || std::isnan(y)) return equal_nan && std::isnan(x) && std::isnan(y);
  if (!std::isfinite(x) || !std::isfinite(y)) return false;
  return std::abs(x - y) <= atol + rtol * std::abs(y);
}
void allclose_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor &x = a[0].tensor(), &y = a[1].tensor();
  KILN_CHECK(x.dtype() == y.dtype(), Runtime, dtype_legacy_name(x.dtype()), " did not match ",
             dtype_legacy_name(y.dtype()));
  double rtol = a[2].to_double(), atol = a[3].to_double();
  bool equal_nan = a[4].to_bool();
  Shape s = broadcast_shapes(x.sizes(), y.sizes());
  Tensor bx = make_view(x, s, kernels::broadcast_strides(x, s), x.offset());
  Tensor by = make_view(y, s, kernels::broadcast_strides(y, s), y.offset());
  bool close = true;
  for (int64_t i = 0; close && i < bx.numel(); ++i)
    close = is_close(element_as_double(bx, i), element_as_double(by, i), rtol, atol, equal_nan);
  set_bool(outs[0], close);
}

// The functional forms of tril_ and triu_.
constexpr char kTril[] = "tril";
constexpr char kTriu[] = "triu";

}  // namespace
}  // namespace ops

namespace {

void add_view_entries(OpTable& t) {
  using namespace ops;
  constexpr OpKind V = OpKind::View, C = OpKind::Composite;
  t.add({.schema_text = "transpose(Tensor self, int dim0, int dim1) -> Tensor", .kind = V,
         .shape = geom_shape<geom_transpose>, .dtype = dtype_like_self, .kernel = geom_kernel<geom_transpose>,
         .grad = grad_transpose});
  t.add({.schema_text = "t(Tensor self) -> Tensor", .kind = V, .shape = geom_shape<geom_t>, .dtype = dtype_like_self,
         .kernel = geom_kernel<geom_t>, .grad = grad_t});
  t.add({.schema_text = "permute(Tensor self, int[] dims) -> Tensor", .kind = V, .shape = geom_shape<geom_permute>,
         .dtype = dtype_like_self, .kernel = geom_kernel<geom_permute>, .grad = grad_permute});
  t.add({.schema_text = "unsqueeze(Tensor self, int dim) -> Tensor", .kind = V,
         .shape = geom_shape<geom_unsqueeze>, .dtype = dtype_like_self, .kernel = geom_kernel<geom_unsqueeze>,
         .grad = grad_reshape_back});
  t.add({.schema_text = "squeeze(Tensor self) -> Tensor", .kind = V, .shape = geom_shape<geom_squeeze>,
         .dtype = dtype_like_self, .kernel = geom_kernel<geom_squeeze>, .grad = grad_reshape_back});
  t.add({.schema_text = "squeeze.dim(Tensor self, int dim) -> Tensor", .kind = V,
         .shape = geom_shape<geom_squeeze_dim>, .dtype = dtype_like_self, .kernel = geom_kernel<geom_squeeze_dim>,
         .grad = grad_reshape_back});
  t.add({.schema_text = "squeeze.dims(Tensor self, int[] dim) -> Tensor", .kind = V,
         .shape = geom_shape<geom_squeeze_dims>, .dtype = dtype_like_self,
         .kernel = geom_kernel<geom_squeeze_dims>, .grad = grad_reshape_back});
  t.add({.schema_text = "flatten(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor", .kind = C,
         .composite = flatten_composite});
  t.add({.schema_text = "slice(Tensor self, int dim=0, int? start=None, int? end=None, int step=1) -> Tensor",
         .kind = V, .shape = geom_shape<geom_slice>, .dtype = dtype_like_self, .kernel = geom_kernel<geom_slice>,
         .grad = grad_slice});
  t.add({.schema_text = "unfold(Tensor self, int dimension, int size, int step) -> Tensor", .kind = V,
         .shape = geom_shape<geom_unfold>, .dtype = dtype_like_self, .kernel = geom_kernel<geom_unfold>,
         .grad = grad_unfold});
  t.add({.schema_text = "select(Tensor self, int dim, int index) -> Tensor", .kind = V,
         .shape = geom_shape<geom_select>, .dtype = dtype_like_self, .kernel = geom_kernel<geom_select>,
         .grad = grad_select});
  t.add({.schema_text = "narrow(Tensor self, int dim, int start, int length) -> Tensor", .kind = C,
         .composite = narrow_composite});
  t.add({.schema_text = "as_strided(Tensor self, int[] size, int[] stride, int? storage_offset=None) -> Tensor",
         .kind = V, .shape = geom_shape<geom_as_strided>, .dtype = dtype_like_self,
         .kernel = geom_kernel<geom_as_strided>, .grad = grad_as_strided, .saves = save_in(0)});
  t.add({.schema_text = "split(Tensor self, int split_size, int dim=0) -> Tensor[]", .kind = V,
         .shape = geoms_shape<geoms_split>, .dtype = geoms_dtype<geoms_split>, .kernel = geoms_kernel<geoms_split>,
         .grad = grad_split});
  t.add({.schema_text = "split.sizes(Tensor self, int[] split_size, int dim=0) -> Tensor[]", .kind = C,
         .composite = split_sizes_composite});
  t.add({.schema_text = "split_with_sizes(Tensor self, int[] split_sizes, int dim=0) -> Tensor[]", .kind = V,
         .shape = geoms_shape<geoms_split_with_sizes>, .dtype = geoms_dtype<geoms_split_with_sizes>,
         .kernel = geoms_kernel<geoms_split_with_sizes>, .grad = grad_split});
  t.add({.schema_text = "chunk(Tensor self, int chunks, int dim=0) -> Tensor[]", .kind = C,
         .composite = chunk_composite});
  t.add({.schema_text = "tensor_split(Tensor self, int sections, int dim=0) -> Tensor[]", .kind = C,
         .composite = tensor_split_sections_composite, .grad_node = "SliceBackward0"});
  t.add({.schema_text = "tensor_split.indices(Tensor self, int[] indices, int dim=0) -> Tensor[]", .kind = C,
         .composite = tensor_split_indices_composite, .grad_node = "SliceBackward0"});
  t.add({.schema_text = "hsplit(Tensor self, int sections) -> Tensor[]", .kind = C,
         .composite = directional_split_composite<1>, .grad_node = "SliceBackward0"});
  t.add({.schema_text = "hsplit.array(Tensor self, int[] indices) -> Tensor[]", .kind = C,
         .composite = directional_split_composite<1>, .grad_node = "SliceBackward0"});
  t.add({.schema_text = "vsplit(Tensor self, int sections) -> Tensor[]", .kind = C,
         .composite = directional_split_composite<0>, .grad_node = "SliceBackward0"});
  t.add({.schema_text = "vsplit.array(Tensor self, int[] indices) -> Tensor[]", .kind = C,
         .composite = directional_split_composite<0>, .grad_node = "SliceBackward0"});
  t.add({.schema_text = "dsplit(Tensor self, int sections) -> Tensor[]", .kind = C,
         .composite = directional_split_composite<2>, .grad_node = "SliceBackward0"});
  t.add({.schema_text = "dsplit.array(Tensor self, int[] indices) -> Tensor[]", .kind = C,
         .composite = directional_split_composite<2>, .grad_node = "SliceBackward0"});
  t.add({.schema_text = "ravel(Tensor self) -> Tensor", .kind = C, .composite = ravel_composite});
  t.add({.schema_text = "concat(Tensor[] tensors, int dim=0) -> Tensor", .kind = C, .composite = concat_composite});
  t.add({.schema_text = "concatenate(Tensor[] tensors, int dim=0) -> Tensor", .kind = C,
         .composite = concat_composite});
  t.add({.schema_text = "unbind(Tensor self, int dim=0) -> Tensor[]", .kind = V, .shape = geoms_shape<geoms_unbind>,
         .dtype = geoms_dtype<geoms_unbind>, .kernel = geoms_kernel<geoms_unbind>, .grad = grad_unbind});
}

// .to(device): a copy whose gradient goes back to the source's device.
Device to_device_target(const Args& a) { return device_of_code(a[1].to_int()); }
void to_device_kernel(const Args& a, std::vector<Tensor>& outs) { copy_across_devices(outs[0], a[0].tensor()); }
std::vector<Tensor> grad_to_device(const GradCtx& c) {
  return {invoke("_to_device", {c.grad(), c.args[2], c.args[1]})};
}

void add_copying_entries(OpTable& t) {
  using namespace ops;
  constexpr OpKind S = OpKind::Shape;
  t.add({.schema_text = "_to_device(Tensor self, int device, int source) -> Tensor", .kind = S,
         .shape = shape_like_self, .dtype = dtype_like_self, .kernel = to_device_kernel, .grad = grad_to_device,
         .device = to_device_target});
  t.add({.schema_text = "cat(Tensor[] tensors, int dim=0) -> Tensor", .kind = S, .shape = shape_cat,
         .dtype = dtype_cat, .kernel = cat_kernel, .grad = grad_cat});
  t.add({.schema_text = "stack(Tensor[] tensors, int dim=0) -> Tensor", .kind = OpKind::Composite,
         .composite = stack_composite});
  t.add({.schema_text = "tril(Tensor self, int diagonal=0) -> Tensor", .kind = S, .shape = shape_tri<true>,
         .dtype = dtype_like_self, .kernel = tri_kernel<true>, .grad = grad_tril, .lower = lower_tri<true>});
  t.add({.schema_text = "triu(Tensor self, int diagonal=0) -> Tensor", .kind = S, .shape = shape_tri<false>,
         .dtype = dtype_like_self, .kernel = tri_kernel<false>, .grad = grad_triu, .lower = lower_tri<false>});
  t.add({.schema_text = "tril_(Tensor self, int diagonal=0) -> Tensor", .kind = OpKind::Composite,
         .composite = write_back_composite<functional_of<kTril>>});
  t.add({.schema_text = "triu_(Tensor self, int diagonal=0) -> Tensor", .kind = OpKind::Composite,
         .composite = write_back_composite<functional_of<kTriu>>});
  t.add({.schema_text = "equal(Tensor self, Tensor other) -> bool", .kind = S, .shape = shape_scalar,
         .dtype = dtype_bool, .kernel = equal_kernel});
  t.add({.schema_text = "allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> bool",
         .kind = S, .shape = shape_scalar, .dtype = dtype_bool, .kernel = allclose_kernel});
}

}  // namespace

void register_shape_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind V = OpKind::View;
  t.add({.schema_text = "view(Tensor self, int[] size) -> Tensor", .kind = V, .shape = shape_view,
         .dtype = dtype_like_self, .kernel = view_kernel, .grad = grad_reshape_back});
  t.add({.schema_text = "reshape(Tensor self, int[] shape) -> Tensor", .kind = OpKind::Composite,
         .shape = shape_view, .dtype = dtype_like_self, .composite = reshape_composite});
  t.add({.schema_text = "expand(Tensor self, int[] size) -> Tensor", .kind = V, .shape = shape_expand,
         .dtype = dtype_like_self, .kernel = expand_kernel, .grad = grad_expand});
  t.add({.schema_text = "contiguous(Tensor self) -> Tensor", .kind = OpKind::Composite,
         .shape = shape_like_self, .dtype = dtype_like_self, .composite = contiguous_composite});
  add_view_entries(t);
  add_copying_entries(t);
}

// ---- typed wrappers ---------------------------------------------------------------
Tensor view(const Tensor& a, const Shape& s) { return invoke("view", {a, s}); }
Tensor reshape(const Tensor& a, const Shape& s) { return invoke("reshape", {a, s}); }
Tensor expand(const Tensor& a, const Shape& s) { return invoke("expand", {a, s}); }
Tensor contiguous(const Tensor& a) { return invoke("contiguous", {a}); }

Tensor transpose(const Tensor& a, int64_t d0, int64_t d1) { return invoke("transpose", {a, d0, d1}); }
Tensor t(const Tensor& a) { return invoke("t", {a}); }
Tensor permute(const Tensor& a, const Shape& dims) { return invoke("permute", {a, dims}); }
Tensor unsqueeze(const Tensor& a, int64_t dim) { return invoke("unsqueeze", {a, dim}); }
Tensor squeeze(const Tensor& a, std::optional<Shape> dim) {
  return dim ? invoke("squeeze.dims", {a, *dim}) : invoke("squeeze", {a});
}
Tensor flatten(const Tensor& a, int64_t s, int64_t e) { return invoke("flatten", {a, s, e}); }
Tensor as_strided(const Tensor& a, const Shape& size, const Shape& stride, int64_t off) {
  return invoke("as_strided", {a, size, stride, off});
}
Tensor narrow(const Tensor& a, int64_t dim, int64_t start, int64_t length) {
  return invoke("narrow", {a, dim, start, length});
}
Tensor slice(const Tensor& a, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  return invoke("slice", {a, dim, start ? Value(*start) : Value(), end ? Value(*end) : Value(), step});
}
Tensor select(const Tensor& a, int64_t dim, int64_t index) { return invoke("select", {a, dim, index}); }
Tensor cat(const std::vector<Tensor>& ts, int64_t dim) { return invoke("cat", {ts, dim}); }
Tensor stack(const std::vector<Tensor>& ts, int64_t dim) { return invoke("stack", {ts, dim}); }
std::vector<Tensor> split(const Tensor& a, int64_t split_size, int64_t dim) {
  return invoke_multi("split", {a, split_size, dim});
}
std::vector<Tensor> split_with_sizes(const Tensor& a, const Shape& sizes, int64_t dim) {
  return invoke_multi("split_with_sizes", {a, sizes, dim});
}
std::vector<Tensor> chunk(const Tensor& a, int64_t chunks, int64_t dim) { return invoke_multi("chunk", {a, chunks, dim}); }
std::vector<Tensor> unbind(const Tensor& a, int64_t dim) { return invoke_multi("unbind", {a, dim}); }
Tensor tril(const Tensor& a, int64_t diagonal) { return invoke("tril", {a, diagonal}); }
Tensor triu(const Tensor& a, int64_t diagonal) { return invoke("triu", {a, diagonal}); }
bool equal(const Tensor& a, const Tensor& b) { return invoke("equal", {a, b}).item_bool(); }
bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  return invoke("allclose", {a, b, rtol, atol, equal_nan}).item_bool();
}

// Scatters a view's gradient back into its input's geometry through a flat
// buffer covering both (PyTorch's as_strided_backward, non-overlapping case).
namespace {
bool overlaps(const Shape& sizes, const Shape& strides) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size) of dims that move
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) return false;
    if (sizes[i] > 1) dims.emplace_back(strides[i], sizes[i]);
  }
  std::sort(dims.begin(), dims.end());
  int64_t reach = 0;  // furthest offset reachable by the smaller-stride dims
  for (auto [st, sz] : dims) {
    if (st <= reach) return true;
    reach += (sz - 1) * st;
  }
  return false;
}
int64_t extent_end(const Shape& sizes, const Shape& strides, int64_t offset) {
  int64_t e = offset + 1;
  for (size_t i = 0; i < sizes.size(); ++i) e += (sizes[i] - 1) * strides[i];
  return e;
}
}  // namespace

Tensor as_strided_backward(const Tensor& grad, const Shape& in_sizes, const Shape& in_strides, int64_t in_offset,
                           const Shape& sizes, const Shape& strides, int64_t offset) {
  if (shape_numel(in_sizes) == 0 || shape_numel(sizes) == 0) return zeros(in_sizes, grad.dtype());
  KILN_CHECK(!overlaps(sizes, strides) && !overlaps(in_sizes, in_strides), NotImplemented,
             "as_strided backward for overlapping memory is not supported");
  int64_t lo = std::min(in_offset, offset);
  int64_t hi = std::max(extent_end(in_sizes, in_strides, in_offset), extent_end(sizes, strides, offset));
  Tensor flat = zeros({hi - lo}, grad.dtype());
  Tensor out_region = as_strided(flat, sizes, strides, offset - lo);
  copy_(out_region, grad);
  return clone(as_strided(flat, in_sizes, in_strides, in_offset - lo));
}

}  // namespace kiln
