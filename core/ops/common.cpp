#include "core/ops/common.h"

#include "core/autograd.h"
#include "core/float_to_int.h"
#include "core/format.h"

#include <cmath>
#include <limits>

namespace kiln {

namespace kernels {
Shape broadcast_strides(const Tensor& t, const Shape& out) {
  Shape st(out.size(), 0);
  int64_t off = int64_t(out.size()) - t.dim();
  for (int64_t d = 0; d < t.dim(); ++d)
    st[size_t(d + off)] = t.sizes()[size_t(d)] == 1 ? 0 : t.strides()[size_t(d)];
  return st;
}
}  // namespace kernels

namespace ops {

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  // From the last dim, as PyTorch, so a second mismatch further left is not the one reported.
  for (size_t i = n; i-- > 0;) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    KILN_CHECK(da == db || da == 1 || db == 1, Runtime, "The size of tensor a (", da,
               ") must match the size of tensor b (", db, ") at non-singleton dimension ", i);
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<Shape> shape_broadcast_args(const Args& a) {
  Shape s;
  bool first = true;
  for (const Value& v : a) {
    if (!v.is_tensor()) continue;
    s = first ? v.tensor().sizes() : broadcast_shapes(s, v.tensor().sizes());
    first = false;
  }
  return {s};
}

std::vector<Shape> shape_like_self(const Args& a) { return {a[0].tensor().sizes()}; }

namespace {
std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (is_floating(*higher)) return higher;
  if (*higher == DType::Bool || is_floating(*lower)) return promote_types(*higher, *lower);
  return higher;
}

struct ResultTypeState {
  std::optional<DType> dim, zero, wrapped;
  void add(const Tensor& t) {
    auto up = [](std::optional<DType>& s, DType d) { s = s ? promote_types(*s, d) : d; };
    if (t.impl()->is_wrapped_number) {
      up(wrapped, is_floating(t.dtype()) ? kDefaultFloat : t.dtype());
    } else if (t.dim() == 0) {
      up(zero, t.dtype());
    } else {
      up(dim, t.dtype());
    }
  }
  DType result() const { return combine(dim, combine(zero, wrapped)).value_or(kDefaultFloat); }
};
}  // namespace

DType result_type(std::initializer_list<Tensor> ts) {
  ResultTypeState s;
  for (const Tensor& t : ts) s.add(t);
  return s.result();
}

DType result_type_args(const Args& a) {
  ResultTypeState s;
  for (const Value& v : a)
    if (v.is_tensor() && v.tensor().defined()) s.add(v.tensor());
  return s.result();
}

std::vector<DType> dtype_promote(const Args& a) { return {result_type_args(a)}; }
std::vector<DType> dtype_promote_float(const Args& a) { return {to_float_type(result_type_args(a))}; }
std::vector<DType> dtype_bool(const Args&) { return {DType::Bool}; }
std::vector<DType> dtype_like_self(const Args& a) { return {a[0].tensor().dtype()}; }

namespace {
// float32 <-> float16 between contiguous tensors of one shape, 8 elements per
// F16C instruction (the scalar conversion does not vectorize).
bool copy_cast_half(const Tensor& dst, const Tensor& src) {
#if defined(__F16C__)
  const bool to_half = dst.dtype() == DType::Float16 && src.dtype() == DType::Float32;
  const bool from_half = dst.dtype() == DType::Float32 && src.dtype() == DType::Float16;
  if (!(to_half || from_half) || !dst.is_contiguous() || !src.is_contiguous() || dst.sizes() != src.sizes())
    return false;
  char* out = static_cast<char*>(dst.raw_data());
  const char* in = static_cast<const char*>(src.raw_data());
  parallel_for(0, dst.numel(), kernels::kGrain, [&](int64_t b, int64_t e) {
    int64_t i = b;
    if (to_half) {
      auto* o = reinterpret_cast<uint16_t*>(out);
      const auto* x = reinterpret_cast<const float*>(in);
      for (; i + 8 <= e; i += 8)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(o + i), _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT));
      for (; i < e; ++i) o[i] = Half::from_float(x[i]);
    } else {
      auto* o = reinterpret_cast<float*>(out);
      const auto* x = reinterpret_cast<const uint16_t*>(in);
      for (; i + 8 <= e; i += 8)
        _mm256_storeu_ps(o + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i))));
      for (; i < e; ++i) o[i] = Half::to_float(x[i]);
    }
  });
  return true;
#else
  (void)dst, (void)src;
  return false;
#endif
}
}  // namespace

void copy_cast(const Tensor& dst, const Tensor& src) {
  if (copy_cast_half(dst, src)) return;
  visit_dtype(dst.dtype(), [&](auto out_tag) {
    using Out = typename decltype(out_tag)::type;
    visit_dtype(src.dtype(), [&](auto in_tag) {
      using In = typename decltype(in_tag)::type;
      // NaN or an out-of-range float cast to an int dtype is defined here, as PyTorch's result.
      kernels::pointwise_loop<Out, In>(dst, std::array<Tensor, 1>{src}, [](auto x) { return convert_value<Out>(x); });
    });
  });
}

Tensor cast_to(const Tensor& src, DType d) {
  if (src.dtype() == d) return src;
  Tensor out = empty_tensor(src.sizes(), d);
  copy_cast(out, src);
  return out;
}

Tensor not_a_view(Tensor out) {
  out.impl()->view_base = Tensor();
  return out;
}

Tensor as_node(Tensor out, const char* name) {
  if (const std::shared_ptr<Node>& n = out.grad_fn()) n->display_name = name;
  return out;
}

std::vector<Tensor> write_into_self(Tensor self, const Tensor& result) {
  const std::string node = result.grad_fn() ? grad_fn_name(*result.grad_fn()) : "";
  copy_(self, result);
  if (!node.empty()) as_node(self, node.c_str());
  return {self};
}

}  // namespace ops
}  // namespace kiln

namespace kiln {
namespace {
std::string_view scalar_type_name(DType d) {
  switch (d) {
    case DType::UInt8: return "uint8_t";
    case DType::Int8: return "int8_t";
    case DType::Int16: return "int16_t";
    case DType::Int32: return "int";
    case DType::Int64: return "int64_t";
    default: return dtype_cpp_name(d);
  }
}
bool scalar_overflows(const Value& v, DType d) {
  if (!v.is_int() && !v.is_double()) return false;
  if (d == DType::Float32) {  // only a finite double beyond float's range
    double x = v.to_double();
    return std::isfinite(x) && std::abs(x) > double(std::numeric_limits<float>::max());
  }
  if (!is_integral(d, false)) return false;  // bool, float16/bfloat16 (inf) and float64 take anything
  double lo = -9223372036854775808.0, hi = 9223372036854775807.0;
  visit_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    lo = double(std::numeric_limits<T>::lowest()), hi = double(std::numeric_limits<T>::max());
  });
  if (v.is_double()) {
    double x = v.to_double();
    return std::isnan(x) || x < lo || x > hi;  // infinities included
  }
  int64_t i = v.to_int();
  if (d == DType::Int64) return false;
  if (d == DType::UInt8)  // -255..255 (negated in uint64_t: INT64_MIN has no int64 negation)
    return i > int64_t(hi) || (i < 0 && uint64_t(0) - uint64_t(i) > uint64_t(hi));
  return i < int64_t(lo) || i > int64_t(hi);
}
}  // namespace

void check_scalar_fits(const Value& v, DType d, std::string_view type) {
  KILN_CHECK(!scalar_overflows(v, d), Runtime, "value cannot be converted to type ",
             type.empty() ? scalar_type_name(d) : type, " without overflow");
}
}  // namespace kiln
