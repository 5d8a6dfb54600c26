// ops/common/element_types_test.cc
#include "ops/common/element_types.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ops {
namespace {

// ------------------------------------------------------------------ FP16

TEST(Fp16Test, KnownValues) {
  EXPECT_EQ(FloatToFp16(0.0f), 0x0000);
  EXPECT_EQ(FloatToFp16(-0.0f), 0x8000);
  EXPECT_EQ(FloatToFp16(1.0f), 0x3c00);
  EXPECT_EQ(FloatToFp16(-2.0f), 0xc000);
  EXPECT_EQ(FloatToFp16(0.5f), 0x3800);
  EXPECT_EQ(FloatToFp16(65504.0f), 0x7bff);  // max finite
  EXPECT_EQ(FloatToFp16(65519.0f), 0x7bff);  // below the halfway point
  EXPECT_EQ(FloatToFp16(65520.0f), 0x7c00);  // halfway: rounds to even = Inf
  EXPECT_EQ(FloatToFp16(1e10f), 0x7c00);
  EXPECT_EQ(FloatToFp16(-1e10f), 0xfc00);
  EXPECT_EQ(FloatToFp16(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(FloatToFp16(-std::numeric_limits<float>::infinity()), 0xfc00);
  const uint16_t nan = FloatToFp16(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x03ff, 0);
  // Smallest normal and subnormals.
  EXPECT_EQ(FloatToFp16(std::ldexp(1.0f, -14)), 0x0400);
  EXPECT_EQ(FloatToFp16(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(FloatToFp16(std::ldexp(1.0f, -25)), 0x0000);  // tie -> even (0)
  EXPECT_EQ(FloatToFp16(std::ldexp(1.5f, -25)), 0x0001);  // above tie
  EXPECT_EQ(FloatToFp16(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 ulp tie -> 2
  EXPECT_EQ(FloatToFp16(std::ldexp(5.0f, -25)), 0x0002);  // 2.5 ulp tie -> 2
  EXPECT_EQ(FloatToFp16(-std::ldexp(1.0f, -24)), 0x8001);
  EXPECT_EQ(FloatToFp16(std::ldexp(1.0f, -30)), 0x0000);
  EXPECT_EQ(FloatToFp16(-std::ldexp(1.0f, -30)), 0x8000);
  // Ties in the normal range: 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
  EXPECT_EQ(FloatToFp16(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(FloatToFp16(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(FloatToFp16(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
  // Largest subnormal rounding up into the smallest normal.
  EXPECT_EQ(FloatToFp16(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -26)), 0x0400);
}

TEST(Fp16Test, ToFloatKnownValues) {
  EXPECT_EQ(Fp16ToFloat(0x3c00), 1.0f);
  EXPECT_EQ(Fp16ToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(Fp16ToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(Fp16ToFloat(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_TRUE(std::signbit(Fp16ToFloat(0x8000)));
  EXPECT_EQ(Fp16ToFloat(0x8000), 0.0f);
  EXPECT_EQ(Fp16ToFloat(0x7c00), std::numeric_limits<float>::infinity());
  EXPECT_EQ(Fp16ToFloat(0xfc00), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(Fp16ToFloat(0x7e00)));
  EXPECT_TRUE(std::isnan(Fp16ToFloat(0x7c01)));  // signalling NaN stays NaN
}

TEST(Fp16Test, RoundTripEveryValue) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    const float f = Fp16ToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f)) {
      const uint16_t back = FloatToFp16(f);
      EXPECT_EQ(back & 0x7c00, 0x7c00) << h;
      EXPECT_NE(back & 0x03ff, 0) << h;
      EXPECT_EQ(back & 0x8000, h & 0x8000) << h;
      continue;
    }
    ASSERT_EQ(FloatToFp16(f), h) << "half 0x" << std::hex << h;
  }
}

TEST(Fp16Test, RoundsToNearestAgainstDoubleReference) {
  // For every pair of adjacent positive finite halves, the midpoint rounds to
  // the even one, and points just off the midpoint round to the nearer one.
  for (uint32_t h = 0; h < 0x7bff; ++h) {
    const double lo = Fp16ToFloat(static_cast<uint16_t>(h));
    const double hi = Fp16ToFloat(static_cast<uint16_t>(h + 1));
    const float mid = static_cast<float>((lo + hi) / 2);  // exact in float
    const uint16_t even = (h % 2 == 0) ? h : h + 1;
    ASSERT_EQ(FloatToFp16(mid), even) << h;
    ASSERT_EQ(FloatToFp16(std::nextafter(mid, 0.0f)), h) << h;
    ASSERT_EQ(FloatToFp16(std::nextafter(mid, 1e9f)), h + 1) << h;
  }
}

// ------------------------------------------------------------------ BF16

TEST(Bf16Test, KnownValues) {
  EXPECT_EQ(FloatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(FloatToBf16(-2.0f), 0xc000);
  EXPECT_EQ(FloatToBf16(0.0f), 0x0000);
  EXPECT_EQ(FloatToBf16(-0.0f), 0x8000);
  EXPECT_EQ(FloatToBf16(std::numeric_limits<float>::infinity()), 0x7f80);
  EXPECT_EQ(FloatToBf16(std::numeric_limits<float>::max()), 0x7f80);  // rounds up to Inf
  const uint16_t nan = FloatToBf16(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(nan & 0x7f80, 0x7f80);
  EXPECT_NE(nan & 0x007f, 0);
  // A NaN whose payload is only in the low 16 bits stays NaN (not Inf).
  const uint16_t low_nan = FloatToBf16(BitsToFloat(0x7f800001u));
  EXPECT_TRUE(std::isnan(Bf16ToFloat(low_nan)));
  // Ties: 1 + 2^-8 is halfway between 1 and 1 + 2^-7 -> even (1).
  EXPECT_EQ(FloatToBf16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(FloatToBf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
  EXPECT_EQ(FloatToBf16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)), 0x3f81);
  // Subnormal floats keep their top bits.
  EXPECT_EQ(FloatToBf16(BitsToFloat(0x00010000u)), 0x0001);
  EXPECT_EQ(Bf16ToFloat(0x3f80), 1.0f);
  EXPECT_EQ(Bf16ToFloat(0x0001), BitsToFloat(0x00010000u));
}

TEST(Bf16Test, RoundTripEveryValue) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    const float f = Bf16ToFloat(static_cast<uint16_t>(b));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(Bf16ToFloat(FloatToBf16(f)))) << b;
      continue;
    }
    ASSERT_EQ(FloatToBf16(f), b) << b;
  }
}

TEST(ComputeTypeTest, HalfTypesComputeInFloat) {
  static_assert(std::is_same_v<ComputeType<fp16_t>, float>);
  static_assert(std::is_same_v<ComputeType<bf16_t>, float>);
  static_assert(std::is_same_v<ComputeType<int8_t>, int8_t>);
  EXPECT_EQ(ToCompute(fp16_t{0x3c00}), 1.0f);
  EXPECT_EQ(ToCompute(bf16_t{0x4000}), 2.0f);
  EXPECT_EQ(FromCompute<fp16_t>(1.0f).bits, 0x3c00);
  EXPECT_EQ(FromCompute<bf16_t>(2.0f).bits, 0x4000);
  EXPECT_EQ(FromCompute<int32_t>(7), 7);
  static_assert(DataTypeOf<fp16_t>() == ge::DT_FLOAT16);
  static_assert(DataTypeOf<bf16_t>() == ge::DT_BF16);
  static_assert(DataTypeOf<uint16_t>() == ge::DT_UINT16);
  static_assert(DataTypeOf<std::string>() == ge::DT_STRING);
  static_assert(DataTypeOf<char>() == ge::DT_UNDEFINED);
}

TEST(ConvertElementTest, NumpyLikeWithoutUb) {
  EXPECT_EQ((ConvertElement<int32_t>(2.9f)), 2);
  EXPECT_EQ((ConvertElement<int32_t>(-2.9)), -2);
  EXPECT_EQ((ConvertElement<int8_t>(1000.0)), 127);
  EXPECT_EQ((ConvertElement<int8_t>(-1000.0f)), -128);
  EXPECT_EQ((ConvertElement<int64_t>(1e30)), std::numeric_limits<int64_t>::max());
  EXPECT_EQ((ConvertElement<int64_t>(9.2233720368547758e18)), std::numeric_limits<int64_t>::max());
  EXPECT_EQ((ConvertElement<uint8_t>(-3.0f)), 0);
  EXPECT_EQ((ConvertElement<int32_t>(std::nanf(""))), 0);
  EXPECT_EQ((ConvertElement<uint8_t>(int32_t{300})), 44);  // wraps
  EXPECT_EQ((ConvertElement<int8_t>(uint8_t{200})), -56);  // wraps
  EXPECT_EQ((ConvertElement<uint32_t>(int32_t{-1})), 0xffffffffu);
  EXPECT_TRUE((ConvertElement<bool>(std::nanf(""))));
  EXPECT_FALSE((ConvertElement<bool>(-0.0)));
  EXPECT_TRUE((ConvertElement<bool>(int8_t{-1})));
  EXPECT_EQ((ConvertElement<float>(true)), 1.0f);
  EXPECT_EQ((ConvertElement<fp16_t>(1.0)).bits, 0x3c00);
  EXPECT_EQ((ConvertElement<bf16_t>(int32_t{2})).bits, 0x4000);
  EXPECT_EQ((ConvertElement<float>(bf16_t{0x3f80})), 1.0f);
  EXPECT_EQ((ConvertElement<int32_t>(fp16_t{0xc500})), -5);  // -5.0
  EXPECT_EQ((ConvertElement<bf16_t>(fp16_t{0x3c00})).bits, 0x3f80);
  EXPECT_TRUE((ConvertElement<bool>(fp16_t{0x0001})));
}

TEST(ConvertElementTest, DoubleToHalfRoundsOnce) {
  // 1 + 2^-11 + 2^-40: just above the FP16 tie point between 1 and 1 + 2^-10.
  // double -> float rounds it to the tie (1 + 2^-11), a second rounding would
  // then give 1.0; the correct result is 1 + 2^-10.
  const double d = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(FloatToFp16(static_cast<float>(d)), 0x3c00);  // the double-rounding trap
  EXPECT_EQ((ConvertElement<fp16_t>(d)).bits, 0x3c01);
  const double e = 1.0 + std::ldexp(1.0, -8) - std::ldexp(1.0, -40);  // just below a BF16 tie
  EXPECT_EQ((ConvertElement<bf16_t>(e)).bits, 0x3f80);
  EXPECT_EQ((ConvertElement<bf16_t>(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40))).bits,
            0x3f81);
  EXPECT_EQ((ConvertElement<fp16_t>(1e300)).bits, 0x7c00);
  EXPECT_EQ((ConvertElement<fp16_t>(std::ldexp(1.0, -24))).bits, 0x0001);
  EXPECT_EQ(DoubleToFloatRoundOdd(0.5), 0.5f);
  // int32 -> BF16 rounds once: 0x1010001 is just above the BF16 tie between
  // 0x1000000 and 0x1020000 (int -> float alone would round it to the tie,
  // which then rounds down to even).
  EXPECT_EQ(FloatToBf16(static_cast<float>(0x1010001)), FloatToBf16(16777216.0f));
  EXPECT_EQ((ConvertElement<bf16_t>(int32_t{0x1010001})).bits, FloatToBf16(16908288.0f));
  EXPECT_EQ((ConvertElement<fp16_t>(int32_t{-3})).bits, 0xc200);
}

}  // namespace
}  // namespace ops
