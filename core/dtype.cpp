#include "core/dtype.h"

#include <algorithm>

namespace kiln {

namespace {
struct DTypeInfo {
  size_t size;
  std::string_view name, legacy;
  int category;
  std::string_view cpp;
};
constexpr DTypeInfo kInfo[] = {
#define KILN_INFO(e, t, n, s, c, m) {sizeof(t), n, s, c, m},
    KILN_DTYPES(KILN_INFO)
#undef KILN_INFO
};
const DTypeInfo& info(DType d) { return kInfo[static_cast<int>(d)]; }
}  // namespace

size_t dtype_size(DType d) { return info(d).size; }
std::string_view dtype_name(DType d) { return info(d).name; }
std::string_view dtype_legacy_name(DType d) { return info(d).legacy; }
int dtype_category(DType d) { return info(d).category; }
std::string_view dtype_cpp_name(DType d) { return info(d).cpp; }

bool dtype_from_name(std::string_view name, DType* out) {
  static constexpr std::pair<std::string_view, DType> kAliases[] = {
      {"float", DType::Float32}, {"double", DType::Float64}, {"half", DType::Float16},
      {"long", DType::Int64},    {"int", DType::Int32},      {"bool", DType::Bool},
      {"short", DType::Int16}};
  for (int i = 0; i < kNumDTypes; ++i) {
    if (kInfo[i].name == name) {
      *out = static_cast<DType>(i);
      return true;
    }
  }
  for (auto& [alias, d] : kAliases) {
    if (alias == name) {
      *out = d;
      return true;
    }
  }
  return false;
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  bool fa = is_floating(a), fb = is_floating(b);
  if (fa && fb) {
    // float16 with bfloat16 has no common 16-bit type: PyTorch goes to float32.
    if ((a == DType::Float16 && b == DType::BFloat16) || (a == DType::BFloat16 && b == DType::Float16))
      return DType::Float32;
    return std::max(a, b);
  }
  if (fa) return a;
  if (fb) return b;
  // uint8 and int8 hold no common 8-bit type: PyTorch goes to int16.
  if ((a == DType::UInt8 && b == DType::Int8) || (a == DType::Int8 && b == DType::UInt8)) return DType::Int16;
  return std::max(a, b);  // Bool < UInt8, Int8 < Int16 < Int32 < Int64
}

bool can_cast(DType from, DType to) {
  return dtype_category(from) <= dtype_category(to);
}

#if !defined(__F16C__)
// Half conversion, round to nearest even, handling subnormals, inf and NaN.
uint16_t Half::from_float(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t mag = x & 0x7fffffffu;
  if (mag > 0x7f800000u) return uint16_t(sign | 0x7e00u);  // NaN
  if (mag >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // overflow to inf (incl. rounding)
  if (mag < 0x38800000u) {                                  // subnormal or zero in half
    if (mag < 0x33000000u) return uint16_t(sign);           // rounds to zero
    uint32_t exp = mag >> 23;
    uint32_t mant = (mag & 0x7fffffu) | 0x800000u;
    // value = mant * 2^(exp-150) and the half subnormal unit is 2^-24, so h = mant >> (126 - exp).
    uint32_t s = 126 - exp;
    uint32_t h = mant >> s;
    uint32_t rem = mant & ((1u << s) - 1);
    uint32_t half = 1u << (s - 1);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return uint16_t(sign | h);
  }
  uint32_t h = ((mag - 0x38000000u) >> 13);
  uint32_t rem = mag & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return uint16_t(sign | h);
}

float Half::to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t out;
  if (exp == 0x1f) {
    out = sign | 0x7f800000u | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      out = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      out = sign | uint32_t(112 - e) << 23 | ((mant & 0x3ffu) << 13);
    }
  } else {
    out = sign | ((exp + 112) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &out, 4);
  return f;
}

#endif

}  // namespace kiln
