// Tensor element types, their storage C++ types and PyTorch's promotion rules.
// KILN_DTYPES is the one table of dtypes: enum, names, sizes and dispatch all
// come from it.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__F16C__)
#include <immintrin.h>
#endif

#include "core/error.h"

namespace kiln {

// IEEE binary16, stored as bits; arithmetic happens in float. Where the
// build targets F16C, conversions are its instructions (inline: an
// out-of-line software conversion per element made float -> half 95x slower
// than PyTorch); both round to nearest even.
struct Half {
  uint16_t bits = 0;
  Half() = default;
  Half(float f) : bits(from_float(f)) {}  // NOLINT: implicit like c10::Half
  operator float() const { return to_float(bits); }
#if defined(__F16C__)
  static uint16_t from_float(float f) { return uint16_t(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT)); }
  static float to_float(uint16_t h) { return _cvtsh_ss(h); }
#else
  static uint16_t from_float(float f);
  static float to_float(uint16_t h);
#endif
};

// bfloat16: the top half of a float32, rounded to nearest even.
struct BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  BFloat16(float f) : bits(from_float(f)) {}  // NOLINT
  operator float() const {
    uint32_t u = uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  static uint16_t from_float(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40);  // quiet NaN
    u += 0x7fffu + ((u >> 16) & 1u);
    return uint16_t(u >> 16);
  }
};

// enum, C++ storage type, torch name, legacy name ("torch.FloatTensor"),
// category (0 bool, 1 int, 2 float), and the C++ type name PyTorch's
// caffe2::TypeMeta prints in some error messages.
#define KILN_DTYPES(_)                                                     \
  _(Bool, bool, "bool", "Bool", 0, "bool")                                 \
  _(UInt8, uint8_t, "uint8", "Byte", 1, "unsigned char")                   \
  _(Int8, int8_t, "int8", "Char", 1, "signed char")                        \
  _(Int16, int16_t, "int16", "Short", 1, "short int")                      \
  _(Int32, int32_t, "int32", "Int", 1, "int")                              \
  _(Int64, int64_t, "int64", "Long", 1, "long int")                        \
  _(Float16, Half, "float16", "Half", 2, "c10::Half")                      \
  _(BFloat16, BFloat16, "bfloat16", "BFloat16", 2, "c10::BFloat16")        \
  _(Float32, float, "float32", "Float", 2, "float")                        \
  _(Float64, double, "float64", "Double", 2, "double")

enum class DType : uint8_t {
#define KILN_ENUM(e, t, n, s, c, m) e,
  KILN_DTYPES(KILN_ENUM)
#undef KILN_ENUM
};
constexpr int kNumDTypes = 10;

size_t dtype_size(DType d);
std::string_view dtype_name(DType d);        // "float32"
std::string_view dtype_legacy_name(DType d); // "Float" as in "torch.FloatTensor"
std::string_view dtype_cpp_name(DType d);    // "long int", as caffe2::TypeMeta names it
bool dtype_from_name(std::string_view name, DType* out);  // accepts "float32", "float", "long", ...
inline bool is_floating(DType d) { return d >= DType::Float16; }
inline bool is_integral(DType d, bool include_bool) {
  return (d >= DType::UInt8 && d <= DType::Int64) || (include_bool && d == DType::Bool);
}
// 0 bool, 1 integer, 2 floating: the categories promotion compares.
int dtype_category(DType d);
// torch.promote_types
DType promote_types(DType a, DType b);
// torch.can_cast: whether an in-place result of type `from` may be written to `to`.
bool can_cast(DType from, DType to);

constexpr DType kDefaultFloat = DType::Float32;

// The C++ type kernels compute in: float for the 16-bit floats.
template <class T> struct compute_type { using type = T; };
template <> struct compute_type<Half> { using type = float; };
template <> struct compute_type<BFloat16> { using type = float; };
template <class T> using compute_t = typename compute_type<T>::type;

template <class T> struct type_tag { using type = T; };

// Calls f(type_tag<T>{}) for the storage type of d.
template <class F>
decltype(auto) visit_dtype(DType d, F&& f) {
  switch (d) {
#define KILN_CASE(e, t, n, s, c, m) \
  case DType::e:                 \
    return f(type_tag<t>{});
    KILN_DTYPES(KILN_CASE)
#undef KILN_CASE
  }
  throw Error("unknown dtype");
}

template <class T> constexpr DType dtype_of();
#define KILN_DTYPE_OF(e, t, n, s, c, m) \
  template <> constexpr DType dtype_of<t>() { return DType::e; }
KILN_DTYPES(KILN_DTYPE_OF)
#undef KILN_DTYPE_OF

}  // namespace kiln
