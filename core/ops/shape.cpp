// Shape and view ops. Views (kind View) alias their input's storage and
// only compute sizes, strides and offset; copying shape ops (cat, stack,
// tril) allocate. Derivatives map the gradient back through the same shape
// change.
#include <numeric>

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
  bool viewable = view_strides(self.sizes(), self.strides(), shape).has_value();
  return {view(viewable ? self : contiguous(self), shape)};
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

}  // namespace
}  // namespace ops

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
}

// ---- typed wrappers ---------------------------------------------------------------
Tensor view(const Tensor& a, const Shape& s) { return invoke("view", {a, s}); }
Tensor reshape(const Tensor& a, const Shape& s) { return invoke("reshape", {a, s}); }
Tensor expand(const Tensor& a, const Shape& s) { return invoke("expand", {a, s}); }
Tensor contiguous(const Tensor& a) { return invoke("contiguous", {a}); }

}  // namespace kiln
