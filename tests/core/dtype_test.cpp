#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/dtype.h"
#include "core/ops.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {

TEST(DType, PromoteTypesTable) {
  EXPECT_EQ(promote_types(DType::Bool, DType::Int32), DType::Int32);
  EXPECT_EQ(promote_types(DType::Int32, DType::Int64), DType::Int64);
  EXPECT_EQ(promote_types(DType::Int64, DType::Float16), DType::Float16);
  EXPECT_EQ(promote_types(DType::Float16, DType::BFloat16), DType::Float32);
  EXPECT_EQ(promote_types(DType::BFloat16, DType::Float32), DType::Float32);
  EXPECT_EQ(promote_types(DType::Float32, DType::Float64), DType::Float64);
  // The small integers: uint8 and int8 meet at int16 (no 8-bit type holds both).
  EXPECT_EQ(promote_types(DType::UInt8, DType::Int8), DType::Int16);
  EXPECT_EQ(promote_types(DType::Int8, DType::UInt8), DType::Int16);
  EXPECT_EQ(promote_types(DType::Bool, DType::UInt8), DType::UInt8);
  EXPECT_EQ(promote_types(DType::UInt8, DType::Int16), DType::Int16);
  EXPECT_EQ(promote_types(DType::Int8, DType::Int32), DType::Int32);
  EXPECT_EQ(promote_types(DType::Int16, DType::Float16), DType::Float16);
  EXPECT_TRUE(is_integral(DType::UInt8, false) && is_integral(DType::Int16, false));
  EXPECT_FALSE(is_floating(DType::Int16));
}

// c10::checked_convert's rule, as fill, full and torch.tensor apply it.
TEST(DType, ScalarFits) {
  EXPECT_NO_THROW(check_scalar_fits(Value(int64_t(255)), DType::UInt8));
  EXPECT_NO_THROW(check_scalar_fits(Value(int64_t(-255)), DType::UInt8));  // two's complement: 1
  EXPECT_KILN_ERROR(check_scalar_fits(Value(int64_t(256)), DType::UInt8),
                    "value cannot be converted to type uint8_t without overflow");
  EXPECT_KILN_ERROR(check_scalar_fits(Value(-1.0), DType::UInt8), "uint8_t");  // floats get no leniency
  EXPECT_KILN_ERROR(check_scalar_fits(Value(std::numeric_limits<int64_t>::min()), DType::UInt8), "uint8_t");
  EXPECT_KILN_ERROR(check_scalar_fits(Value(int64_t(-129)), DType::Int8), "int8_t");
  EXPECT_KILN_ERROR(check_scalar_fits(Value(int64_t(1) << 31), DType::Int32, "int32"),
                    "value cannot be converted to type int32 without overflow");
  EXPECT_KILN_ERROR(check_scalar_fits(Value(std::nan("")), DType::Int64), "int64_t");
  EXPECT_KILN_ERROR(check_scalar_fits(Value(1e300), DType::Float32), "type float without");
  EXPECT_NO_THROW(check_scalar_fits(Value(std::numeric_limits<double>::infinity()), DType::Float32));
  EXPECT_NO_THROW(check_scalar_fits(Value(1e300), DType::Float16));  // rounds to inf, as in PyTorch
  EXPECT_NO_THROW(check_scalar_fits(Value(int64_t(7)), DType::Bool));
}

TEST(DType, ResultTypeCategories) {
  using testing::T;
  // A 0-dim float64 tensor does not widen a float32 tensor, but lifts an int one.
  EXPECT_EQ(add(T({1, 2}), T({1}, {}, DType::Float64)).dtype(), DType::Float32);
  EXPECT_EQ(add(T({1, 2}, {2}, DType::Int32), T({1}, {}, DType::Float64)).dtype(), DType::Float64);
  // Python float with an int tensor gives the default float dtype.
  EXPECT_EQ(add(T({1, 2}, {2}, DType::Int64), scalar_tensor(2.5, DType::Float64, true)).dtype(), DType::Float32);
  // Python int with a bool tensor gives int64.
  EXPECT_EQ(add(T({1, 0}, {2}, DType::Bool), scalar_tensor(2, DType::Int64, true)).dtype(), DType::Int64);
  // Python float with a float16 tensor keeps float16.
  EXPECT_EQ(mul(T({1}, {1}, DType::Float16), scalar_tensor(2.5, DType::Float64, true)).dtype(), DType::Float16);
}

TEST(DType, HalfRoundTripAndRounding) {
  EXPECT_EQ(float(Half(1.0f)), 1.0f);
  EXPECT_EQ(float(Half(65504.0f)), 65504.0f);
  EXPECT_TRUE(std::isinf(float(Half(65520.0f))));  // rounds up past the largest half
  EXPECT_EQ(float(Half(5.9604645e-08f)), 5.9604645e-08f);  // smallest subnormal
  EXPECT_EQ(float(Half(1.0f + 1.0f / 2048)), 1.0f);        // tie rounds to even
  EXPECT_EQ(float(Half(1.0f + 3.0f / 2048)), 1.0f + 2.0f / 1024);
  EXPECT_TRUE(std::isnan(float(Half(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(float(Half(-2.5f)), -2.5f);
  // Every half value survives a round trip through float.
  for (uint32_t b = 0; b < 0x10000; ++b) {
    float f = Half::to_float(uint16_t(b));
    if (std::isnan(f)) continue;
    ASSERT_EQ(Half::from_float(f), uint16_t(b)) << b;
  }
}

TEST(DType, BFloat16Rounding) {
  EXPECT_EQ(float(BFloat16(1.0f)), 1.0f);
  EXPECT_EQ(float(BFloat16(1.00390625f)), 1.0f);  // tie to even
  EXPECT_EQ(float(BFloat16(1.01171875f)), 1.015625f);
  EXPECT_TRUE(std::isnan(float(BFloat16(std::numeric_limits<float>::quiet_NaN()))));
}

TEST(DType, NamesParse) {
  DType d;
  ASSERT_TRUE(dtype_from_name("float", &d));
  EXPECT_EQ(d, DType::Float32);
  ASSERT_TRUE(dtype_from_name("long", &d));
  EXPECT_EQ(d, DType::Int64);
  EXPECT_FALSE(dtype_from_name("complex64", &d));
  ASSERT_TRUE(dtype_from_name("short", &d));
  EXPECT_EQ(d, DType::Int16);
  ASSERT_TRUE(dtype_from_name("uint8", &d));
  EXPECT_EQ(d, DType::UInt8);
  EXPECT_EQ(dtype_legacy_name(DType::Int8), "Char");
  EXPECT_EQ(dtype_name(DType::BFloat16), "bfloat16");
}

}  // namespace
}  // namespace kiln
