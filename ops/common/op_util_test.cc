// ops/common/op_util_test.cc: tests for the shared op helpers.
#include "ops/common/op_util.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ops {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

gert::Shape UnknownRank() {
  gert::Shape s;
  s.AppendDim(ge::UNKNOWN_RANK);
  return s;
}

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
  EXPECT_EQ(FloatToFp16(std::ldexp(1.0f, -25)), 0x0000);          // tie -> even (0)
  EXPECT_EQ(FloatToFp16(std::ldexp(1.5f, -25)), 0x0001);          // above tie
  EXPECT_EQ(FloatToFp16(std::ldexp(3.0f, -25)), 0x0002);          // 1.5 ulp tie -> 2
  EXPECT_EQ(FloatToFp16(std::ldexp(5.0f, -25)), 0x0002);          // 2.5 ulp tie -> 2
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
  EXPECT_EQ((ConvertElement<uint8_t>(int32_t{300})), 44);   // wraps
  EXPECT_EQ((ConvertElement<int8_t>(uint8_t{200})), -56);   // wraps
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

// -------------------------------------------------------------- dispatch

TEST(DispatchTest, CallsTheMatchingType) {
  std::vector<ge::DataType> seen;
  auto record = [&](auto tag) {
    using T = typename decltype(tag)::type;
    seen.push_back(DataTypeOf<T>());
    return ge::OkStatus();
  };
  for (ge::DataType dt : {ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_FLOAT16, ge::DT_BF16, ge::DT_INT8,
                          ge::DT_INT16, ge::DT_INT32, ge::DT_INT64, ge::DT_UINT8, ge::DT_UINT16,
                          ge::DT_UINT32, ge::DT_UINT64, ge::DT_BOOL, ge::DT_STRING,
                          ge::DT_COMPLEX64, ge::DT_COMPLEX128}) {
    ASSERT_TRUE(DispatchType<kTgAll>(dt, record).ok()) << DataTypeName(dt);
    EXPECT_EQ(seen.back(), dt);
  }
}

TEST(DispatchTest, UnsupportedTypeNamesIt) {
  int calls = 0;
  auto f = [&](auto) {
    ++calls;
    return ge::OkStatus();
  };
  ge::Status st = DispatchType<kTgAllFloat>(ge::DT_INT32, f, "input x of Relu");
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported);
  EXPECT_THAT(std::string(st.message()), HasSubstr("DT_INT32"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("input x of Relu"));
  st = DispatchType<kTgReal>(ge::DT_STRING, f);
  EXPECT_THAT(std::string(st.message()), HasSubstr("DT_STRING"));
  st = DispatchType<kTgAll>(ge::DT_INT4, f);
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported);
  st = DispatchType<kTgAll>(static_cast<ge::DataType>(999), f);
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported);
  EXPECT_EQ(calls, 0);
}

TEST(DispatchTest, PropagatesTheFunctorStatus) {
  ge::Status st = DispatchType<kTgInt>(ge::DT_UINT8, [](auto) { return ge::Internal("boom"); });
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kInternal);
}

TEST(DispatchTest, TypeGroups) {
  EXPECT_EQ(TypeGroupOf(ge::DT_BF16), kTgHalf);
  EXPECT_EQ(TypeGroupOf(ge::DT_UINT32), kTgUnsigned);
  EXPECT_EQ(TypeGroupOf(ge::DT_INT4), 0u);
  EXPECT_TRUE(IsInGroups(ge::DT_INT16, kTgReal));
  EXPECT_FALSE(IsInGroups(ge::DT_BOOL, kTgReal));
  EXPECT_TRUE(IsInGroups(ge::DT_BOOL, kTgRealBool));
}

// ------------------------------------------------------ broadcast shapes

gert::Shape Bcast(const gert::Shape& a, const gert::Shape& b) {
  gert::Shape out{99};
  ge::Status st = InferBroadcastShape(a, b, &out);
  EXPECT_TRUE(st.ok()) << st;
  return out;
}

TEST(InferBroadcastShapeTest, NumpyRules) {
  EXPECT_EQ(Bcast({2, 3}, {3}), (gert::Shape{2, 3}));
  EXPECT_EQ(Bcast({3}, {2, 3}), (gert::Shape{2, 3}));
  EXPECT_EQ(Bcast({2, 1, 4}, {3, 1}), (gert::Shape{2, 3, 4}));
  EXPECT_EQ(Bcast({}, {2, 3}), (gert::Shape{2, 3}));
  EXPECT_EQ(Bcast({}, {}), gert::Shape());
  EXPECT_EQ(Bcast({0}, {1}), (gert::Shape{0}));
  EXPECT_EQ(Bcast({1, 0}, {5, 1}), (gert::Shape{5, 0}));
}

TEST(InferBroadcastShapeTest, UnknownDims) {
  EXPECT_EQ(Bcast({1}, {-1}), (gert::Shape{-1}));
  EXPECT_EQ(Bcast({-1}, {1}), (gert::Shape{-1}));
  EXPECT_EQ(Bcast({5}, {-1}), (gert::Shape{5}));
  EXPECT_EQ(Bcast({-1, 3}, {4, -1}), (gert::Shape{4, 3}));
  EXPECT_EQ(Bcast({-1}, {-1}), (gert::Shape{-1}));
  EXPECT_EQ(Bcast({-1, 2}, {2}), (gert::Shape{-1, 2}));
  EXPECT_TRUE(Bcast(UnknownRank(), {2, 3}).IsUnknownRank());
  EXPECT_TRUE(Bcast({2, 3}, UnknownRank()).IsUnknownRank());
}

TEST(InferBroadcastShapeTest, MismatchNamesBothShapes) {
  gert::Shape out;
  ge::Status st = InferBroadcastShape(gert::Shape{2, 3}, gert::Shape{4}, &out);
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kParamInvalid);
  EXPECT_THAT(std::string(st.message()), HasSubstr("[2,3]"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("[4]"));
  EXPECT_FALSE(InferBroadcastShape(gert::Shape{-1, 2}, gert::Shape{3}, &out).ok());
  EXPECT_FALSE(InferBroadcastShape(gert::Shape{-3}, gert::Shape{1}, &out).ok());
  EXPECT_FALSE(InferBroadcastShape(gert::Shape{2}, gert::Shape{2}, nullptr).ok());
}

TEST(InferBroadcastShapeTest, OutputMayAliasInput) {
  gert::Shape a{2, 1};
  ASSERT_TRUE(InferBroadcastShape(a, gert::Shape{3}, &a).ok());
  EXPECT_EQ(a, (gert::Shape{2, 3}));
}

TEST(InferBroadcastShapeTest, MultiInput) {
  gert::Shape a{2, 1, 1}, b{3, 1}, c{4}, d{-1};
  gert::Shape out;
  std::vector<const gert::Shape*> v = {&a, &b, &c};
  ASSERT_TRUE(InferBroadcastShape(v, &out).ok());
  EXPECT_EQ(out, (gert::Shape{2, 3, 4}));
  v = {&d, &a};
  ASSERT_TRUE(InferBroadcastShape(v, &out).ok());
  EXPECT_EQ(out, (gert::Shape{2, 1, -1}));
  ASSERT_TRUE(InferBroadcastShape(std::vector<const gert::Shape*>{}, &out).ok());
  EXPECT_TRUE(out.IsScalar());
  gert::Shape bad{5};
  v = {&a, &c, &bad};
  ge::Status st = InferBroadcastShape(v, &out);
  EXPECT_THAT(std::string(st.message()), HasSubstr("shape 2 [5]"));
  v = {&a, nullptr};
  EXPECT_FALSE(InferBroadcastShape(v, &out).ok());
}

// -------------------------------------------------------- BroadcastIndex

std::vector<std::vector<int64_t>> AllOffsets(const BroadcastIndex& bi) {
  std::vector<std::vector<int64_t>> r;
  int64_t expect_out = 0;
  bi.ForEach([&](int64_t o, const int64_t* offs) {
    EXPECT_EQ(o, expect_out++);
    r.emplace_back(offs, offs + bi.input_num());
  });
  return r;
}

TEST(BroadcastIndexTest, RowBroadcast) {
  gert::Shape a{2, 3}, b{3}, y{2, 3};
  auto bi = BroadcastIndex::Create({&a, &b}, y);
  ASSERT_TRUE(bi.ok()) << bi.status();
  EXPECT_EQ(bi->output_size(), 6);
  EXPECT_TRUE(bi->IsSameAsOutput(0));
  EXPECT_FALSE(bi->IsSameAsOutput(1));
  EXPECT_FALSE(bi->AllSameAsOutput());
  std::vector<int64_t> ia, ib;
  bi->ForEach2([&](int64_t o, int64_t x, int64_t z) {
    EXPECT_EQ(x, o);
    ia.push_back(x);
    ib.push_back(z);
  });
  EXPECT_THAT(ia, ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_THAT(ib, ElementsAre(0, 1, 2, 0, 1, 2));
}

TEST(BroadcastIndexTest, ColumnAndOuterBroadcast) {
  gert::Shape a{2, 1, 3}, b{1, 4, 1}, y{2, 4, 3};
  auto bi = BroadcastIndex::Create({&a, &b}, y);
  ASSERT_TRUE(bi.ok());
  auto offs = AllOffsets(*bi);
  ASSERT_EQ(offs.size(), 24u);
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 4; ++j) {
      for (int64_t k = 0; k < 3; ++k) {
        const auto& o = offs[(i * 4 + j) * 3 + k];
        EXPECT_EQ(o[0], i * 3 + k);
        EXPECT_EQ(o[1], j);
      }
    }
  }
}

TEST(BroadcastIndexTest, EqualShapesAndScalarsCoalesceToOneDim) {
  gert::Shape a{2, 3, 4}, s{}, one{1, 1}, y{2, 3, 4};
  auto bi = BroadcastIndex::Create({&a, &s, &one, &a}, y);
  ASSERT_TRUE(bi.ok());
  EXPECT_THAT(bi->dims(), ElementsAre(24));
  EXPECT_THAT(bi->Strides(0), ElementsAre(1));
  EXPECT_THAT(bi->Strides(1), ElementsAre(0));
  EXPECT_TRUE(bi->IsScalar(1));
  EXPECT_TRUE(bi->IsScalar(2));
  EXPECT_FALSE(bi->IsScalar(0));
  EXPECT_TRUE(bi->Strides(9).empty());
  auto offs = AllOffsets(*bi);
  ASSERT_EQ(offs.size(), 24u);
  EXPECT_EQ(offs[17], (std::vector<int64_t>{17, 0, 0, 17}));
}

TEST(BroadcastIndexTest, PartialCoalescing) {
  // b broadcasts over the last two dims: [2,3,4] vs [2,1,1] -> dims {2, 12}.
  gert::Shape a{2, 3, 4}, b{2, 1, 1}, y{2, 3, 4};
  auto bi = BroadcastIndex::Create({&a, &b}, y);
  ASSERT_TRUE(bi.ok());
  EXPECT_THAT(bi->dims(), ElementsAre(2, 12));
  EXPECT_THAT(bi->Strides(1), ElementsAre(1, 0));
  std::vector<int64_t> ib;
  bi->ForEach2([&](int64_t, int64_t, int64_t z) { ib.push_back(z); });
  ASSERT_EQ(ib.size(), 24u);
  for (size_t i = 0; i < ib.size(); ++i) EXPECT_EQ(ib[i], static_cast<int64_t>(i / 12));
}

TEST(BroadcastIndexTest, ThreeInputs) {
  gert::Shape c{2, 1}, x{3}, y{}, out{2, 3};
  auto bi = BroadcastIndex::Create({&c, &x, &y}, out);
  ASSERT_TRUE(bi.ok());
  std::vector<std::vector<int64_t>> got;
  bi->ForEach3([&](int64_t, int64_t a, int64_t b, int64_t z) { got.push_back({a, b, z}); });
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0], (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(got[2], (std::vector<int64_t>{0, 2, 0}));
  EXPECT_EQ(got[4], (std::vector<int64_t>{1, 1, 0}));
}

TEST(BroadcastIndexTest, ScalarOutputAndEmptyOutput) {
  gert::Shape s{}, one{1};
  auto bi = BroadcastIndex::Create({&s, &one}, one);
  ASSERT_TRUE(bi.ok());
  EXPECT_EQ(AllOffsets(*bi).size(), 1u);
  gert::Shape z{0, 3}, r{3}, zo{0, 3};
  bi = BroadcastIndex::Create({&z, &r}, zo);
  ASSERT_TRUE(bi.ok());
  EXPECT_EQ(bi->output_size(), 0);
  EXPECT_TRUE(AllOffsets(*bi).empty());
}

TEST(BroadcastIndexTest, MatchesNaiveIndexing) {
  // Random-ish shapes against a straightforward multi-index computation.
  const std::vector<std::pair<gert::Shape, gert::Shape>> cases = {
      {{3, 1, 5, 1}, {4, 1, 2}}, {{1, 2, 1, 3}, {2, 2, 2, 1}}, {{7}, {3, 1}}, {{1, 1, 6}, {1}}};
  for (const auto& [a, b] : cases) {
    gert::Shape y;
    ASSERT_TRUE(InferBroadcastShape(a, b, &y).ok());
    auto bi = BroadcastIndex::Create({&a, &b}, y);
    ASSERT_TRUE(bi.ok());
    const size_t rank = y.GetDimNum();
    auto naive = [&](const gert::Shape& s, int64_t o) {
      std::vector<int64_t> idx(rank);
      for (size_t d = rank; d-- > 0;) {
        idx[d] = o % y.GetDim(d);
        o /= y.GetDim(d);
      }
      int64_t off = 0;
      const size_t r = s.GetDimNum();
      for (size_t j = 0; j < r; ++j) {
        const int64_t dim = s.GetDim(j);
        off = off * dim + (dim == 1 ? 0 : idx[rank - r + j]);
      }
      return off;
    };
    int64_t count = 0;
    bi->ForEach2([&](int64_t o, int64_t ia, int64_t ib) {
      ++count;
      EXPECT_EQ(ia, naive(a, o)) << a.ToString() << " " << o;
      EXPECT_EQ(ib, naive(b, o)) << b.ToString() << " " << o;
    });
    EXPECT_EQ(count, y.GetShapeSize());
  }
}

TEST(BroadcastIndexTest, Errors) {
  gert::Shape a{2, 3}, b{4}, y{2, 3}, unk{-1, 3}, big{1, 2, 3};
  EXPECT_FALSE(BroadcastIndex::Create({&a, &b}, y).ok());
  EXPECT_FALSE(BroadcastIndex::Create({&unk}, y).ok());
  EXPECT_FALSE(BroadcastIndex::Create({&a}, unk).ok());
  EXPECT_FALSE(BroadcastIndex::Create({&big}, y).ok());
  EXPECT_FALSE(BroadcastIndex::Create({&a, nullptr}, y).ok());
  auto st = BroadcastIndex::Create({&a, &b}, y).status();
  EXPECT_THAT(std::string(st.message()), HasSubstr("input 1 shape [4]"));
}

// ------------------------------------------------------------------ axes

TEST(AxisTest, Normalize) {
  EXPECT_EQ(*NormalizeAxis(0, 3), 0);
  EXPECT_EQ(*NormalizeAxis(-1, 3), 2);
  EXPECT_EQ(*NormalizeAxis(-3, 3), 0);
  EXPECT_EQ(*NormalizeAxis(2, 3), 2);
  auto bad = NormalizeAxis(3, 3);
  EXPECT_EQ(ge::GetErrorCode(bad.status()), ge::ErrorCode::kOutOfRange);
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("axis 3"));
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("[-3, 2]"));
  EXPECT_FALSE(NormalizeAxis(-4, 3).ok());
  EXPECT_FALSE(NormalizeAxis(0, 0).ok());
  EXPECT_FALSE(NormalizeAxis(0, -1).ok());
  EXPECT_FALSE(NormalizeAxis(std::numeric_limits<int64_t>::min(), 3).ok());
}

TEST(AxisTest, NormalizeAxes) {
  std::vector<int64_t> axes = {-1, 0, 1};
  auto r = NormalizeAxes(axes, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(*r, ElementsAre(3, 0, 1));
  axes = {1, -3};
  auto dup = NormalizeAxes(axes, 4);
  EXPECT_FALSE(dup.ok());
  EXPECT_THAT(std::string(dup.status().message()), HasSubstr("axes[1]"));
  EXPECT_TRUE(NormalizeAxes(axes, 4, /*allow_duplicates=*/true).ok());
  axes = {0, 7};
  auto oor = NormalizeAxes(axes, 4);
  EXPECT_EQ(ge::GetErrorCode(oor.status()), ge::ErrorCode::kOutOfRange);
  EXPECT_THAT(std::string(oor.status().message()), HasSubstr("axes[1]"));
}

// ---------------------------------------------------------- tensor values

TEST(ReadIntTensorTest, Int32AndInt64) {
  auto t32 = MakeHostTensor<int32_t>(ge::DT_INT32, {3}, {1, -2, 3});
  ASSERT_TRUE(t32.ok()) << t32.status();
  auto v = ReadIntTensor(t32->tensor());
  ASSERT_TRUE(v.ok());
  EXPECT_THAT(*v, ElementsAre(1, -2, 3));
  auto t64 = MakeHostTensor<int64_t>(ge::DT_INT64, {2, 1}, {int64_t{1} << 40, -5});
  ASSERT_TRUE(t64.ok());
  v = ReadIntTensor(t64->tensor());
  ASSERT_TRUE(v.ok());
  EXPECT_THAT(*v, ElementsAre(int64_t{1} << 40, -5));
  auto empty = gert::HostTensor::Create(ge::DT_INT64, gert::Shape{0});
  ASSERT_TRUE(empty.ok());
  v = ReadIntTensor(empty->tensor());
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->empty());
}

TEST(ReadIntTensorTest, BadInputs) {
  auto f = MakeHostTensor<float>(ge::DT_FLOAT, {1}, {1.0f});
  ASSERT_TRUE(f.ok());
  auto r = ReadIntTensor(f->tensor());
  EXPECT_EQ(ge::GetErrorCode(r.status()), ge::ErrorCode::kTypeMismatch);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("DT_FLOAT"));
  // Null data, short buffer, unknown shape.
  gert::Tensor null_data(gert::Shape{2}, ge::DT_INT64, nullptr, 0);
  EXPECT_FALSE(ReadIntTensor(null_data).ok());
  int64_t one = 1;
  gert::Tensor short_buf(gert::Shape{2}, ge::DT_INT64, &one, sizeof(one));
  EXPECT_FALSE(ReadIntTensor(short_buf).ok());
  gert::Tensor unknown(gert::Shape{-1}, ge::DT_INT64, &one, sizeof(one));
  EXPECT_FALSE(ReadIntTensor(unknown).ok());
}

TEST(ReadAsDoublesTest, EveryRealType) {
  auto h = MakeHostTensor<fp16_t>(ge::DT_FLOAT16, {2}, {fp16_t{0x3c00}, fp16_t{0xc000}});
  ASSERT_TRUE(h.ok());
  EXPECT_THAT(*ReadAsDoubles(h->tensor()), ElementsAre(1.0, -2.0));
  auto b = MakeHostTensor<bool>(ge::DT_BOOL, {2}, {true, false});
  ASSERT_TRUE(b.ok());
  EXPECT_THAT(*ReadAsDoubles(b->tensor()), ElementsAre(1.0, 0.0));
  auto s = MakeHostTensor<std::string>(ge::DT_STRING, {1}, {std::string("x")});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(ge::GetErrorCode(ReadAsDoubles(s->tensor()).status()), ge::ErrorCode::kNotSupported);
}

// ---------------------------------------------------------- host tensors

TEST(MakeHostTensorTest, ChecksTypeAndCount) {
  auto ok = MakeHostTensor<std::string>(ge::DT_STRING, {2}, {std::string("a"), std::string("bc")});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->GetData<std::string>()[1], "bc");
  auto bits = MakeHostTensor<uint16_t>(ge::DT_BF16, {1}, {uint16_t{0x3f80}});
  ASSERT_TRUE(bits.ok());
  auto wrong = MakeHostTensor<float>(ge::DT_INT32, {1}, {1.0f});
  EXPECT_EQ(ge::GetErrorCode(wrong.status()), ge::ErrorCode::kTypeMismatch);
  auto count = MakeHostTensor<float>(ge::DT_FLOAT, {2, 2}, {1.0f});
  EXPECT_EQ(ge::GetErrorCode(count.status()), ge::ErrorCode::kParamInvalid);
  EXPECT_THAT(std::string(count.status().message()), HasSubstr("[2,2]"));
}

TEST(MakeHostTensorTest, FromDoubles) {
  std::vector<double> v = {1.5, -2.5, 1e10, std::nan("")};
  auto i8 = MakeHostTensorFromDoubles(ge::DT_INT8, {4}, v);
  ASSERT_TRUE(i8.ok());
  const int8_t* p = i8->GetData<int8_t>();
  EXPECT_EQ(p[0], 1);
  EXPECT_EQ(p[1], -2);
  EXPECT_EQ(p[2], 127);
  EXPECT_EQ(p[3], 0);
  auto h = MakeHostTensorFromDoubles(ge::DT_FLOAT16, {4}, v);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->GetData<uint16_t>()[0], 0x3e00);
  EXPECT_EQ(h->GetData<uint16_t>()[2], 0x7c00);
  auto b = MakeHostTensorFromDoubles(ge::DT_BOOL, {4}, v);
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(b->GetData<bool>()[0]);
  EXPECT_FALSE(MakeHostTensorFromDoubles(ge::DT_STRING, {4}, v).ok());
  EXPECT_FALSE(MakeHostTensorFromDoubles(ge::DT_FLOAT, {3}, v).ok());
}

// ------------------------------------------------------- infer functions

TEST(InferFunctionsTest, SameAsInput0) {
  gert::InferShapeContextBuilder b;
  b.Node("relu1", "Relu").Input(gert::Shape{2, -1}, ge::DT_FLOAT16).Outputs(2);
  ASSERT_TRUE(InferSameAsInput0(*b.Build()).ok());
  EXPECT_EQ(b.OutputShape(0), (gert::Shape{2, -1}));
  EXPECT_EQ(b.OutputShape(1), (gert::Shape{2, -1}));
  EXPECT_EQ(b.OutputDataType(0), ge::DT_FLOAT16);
  EXPECT_EQ(b.OutputDataType(1), ge::DT_FLOAT16);

  gert::InferShapeContextBuilder none;
  none.Node("relu2", "Relu").AbsentInput().Outputs(1);
  ge::Status st = InferSameAsInput0(*none.Build());
  EXPECT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("relu2"));
}

TEST(InferFunctionsTest, ShapeSameAsInput0KeepsDtypes) {
  gert::InferShapeContextBuilder b;
  b.Node("isnan1", "IsNaN").Input(gert::Shape{3, -1}, ge::DT_FLOAT).Outputs(1);
  gert::InferShapeContext* ctx = b.Build();
  ctx->SetOutputDataType(0, ge::DT_BOOL);
  ASSERT_TRUE(InferShapeSameAsInput0(*ctx).ok());
  EXPECT_EQ(b.OutputShape(0), (gert::Shape{3, -1}));
  EXPECT_EQ(b.OutputDataType(0), ge::DT_BOOL);
  gert::InferShapeContextBuilder none;
  none.Node("isnan2", "IsNaN").Outputs(1);
  ge::Status st = InferShapeSameAsInput0(*none.Build());
  EXPECT_THAT(std::string(st.message()), HasSubstr("isnan2"));
}

TEST(InferFunctionsTest, Broadcast) {
  gert::InferShapeContextBuilder b;
  b.Node("add1", "Add")
      .Input(gert::Shape{2, 1}, ge::DT_FLOAT)
      .Input(gert::Shape{-1}, ge::DT_FLOAT)
      .Outputs(1);
  ASSERT_TRUE(InferBroadcast(*b.Build()).ok());
  EXPECT_EQ(b.OutputShape(0), (gert::Shape{2, -1}));

  gert::InferShapeContextBuilder opt;
  opt.Node("clip", "Clip").Input(gert::Shape{4}, ge::DT_FLOAT).AbsentInput().Input(
      gert::Shape{}, ge::DT_FLOAT).Outputs(1);
  ASSERT_TRUE(InferBroadcast(*opt.Build()).ok());
  EXPECT_EQ(opt.OutputShape(0), (gert::Shape{4}));

  gert::InferShapeContextBuilder unk;
  unk.Node("add3", "Add").Input(UnknownRank(), ge::DT_FLOAT).Input(gert::Shape{3}, ge::DT_FLOAT)
      .Outputs(1);
  ASSERT_TRUE(InferBroadcast(*unk.Build()).ok());
  EXPECT_TRUE(unk.OutputShape(0).IsUnknownRank());

  gert::InferShapeContextBuilder bad;
  bad.Node("add2", "Add")
      .Input(gert::Shape{2, 3}, ge::DT_FLOAT)
      .Input(gert::Shape{4}, ge::DT_FLOAT)
      .Outputs(1);
  ge::Status st = InferBroadcast(*bad.Build());
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kParamInvalid);
  EXPECT_THAT(std::string(st.message()), HasSubstr("add2"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("input 1"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("[2,3]"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("[4]"));
}

// ------------------------------------------------------------- kernel I/O

class FakeAllocator : public gert::OutputAllocator {
 public:
  ge::Status Allocate(size_t output_index, gert::Tensor* tensor) override {
    ++calls;
    auto t = gert::HostTensor::Create(tensor->GetDataType(), tensor->GetShape());
    if (!t.ok()) return t.status();
    held.push_back(std::move(*t));
    tensor->SetData(held.back().tensor().GetAddr(), held.back().tensor().GetSize());
    return ge::OkStatus();
  }
  int calls = 0;
  std::vector<gert::HostTensor> held;
};

TEST(KernelIoTest, GetKernelInputValidates) {
  auto x = MakeHostTensor<float>(ge::DT_FLOAT, {2}, {1.0f, 2.0f});
  ASSERT_TRUE(x.ok());
  gert::Tensor broken(gert::Shape{4}, ge::DT_FLOAT, nullptr, 0);
  gert::KernelRunContextBuilder b;
  b.Node("k1", "Abs").Inputs({&x->tensor(), nullptr, &broken});
  gert::KernelContext* ctx = b.Build();
  auto in0 = GetKernelInput(*ctx, 0);
  ASSERT_TRUE(in0.ok());
  EXPECT_EQ(*in0, &x->tensor());
  auto in1 = GetKernelInput(*ctx, 1);
  EXPECT_THAT(std::string(in1.status().message()), HasSubstr("k1"));
  EXPECT_THAT(std::string(in1.status().message()), HasSubstr("input 1"));
  auto in2 = GetKernelInput(*ctx, 2);
  EXPECT_THAT(std::string(in2.status().message()), HasSubstr("input 2"));
  EXPECT_FALSE(GetKernelInput(*ctx, 7).ok());
}

TEST(KernelIoTest, PrepareOutputReusesMatchingTensor) {
  auto y = gert::HostTensor::Create(ge::DT_FLOAT, gert::Shape{2, 2});
  ASSERT_TRUE(y.ok());
  gert::KernelRunContextBuilder b;
  b.Node("k2", "Abs").Outputs({y->MutableTensor()});
  gert::KernelContext* ctx = b.Build();
  auto out = PrepareOutput(*ctx, 0, gert::Shape{2, 2}, ge::DT_FLOAT);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, y->MutableTensor());
  auto mismatch = PrepareOutput(*ctx, 0, gert::Shape{4}, ge::DT_FLOAT);
  EXPECT_THAT(std::string(mismatch.status().message()), HasSubstr("k2"));
  EXPECT_THAT(std::string(mismatch.status().message()), HasSubstr("[4]"));
  EXPECT_FALSE(PrepareOutput(*ctx, 0, gert::Shape{2, 2}, ge::DT_INT32).ok());
  EXPECT_FALSE(PrepareOutput(*ctx, 1, gert::Shape{2, 2}, ge::DT_FLOAT).ok());
  EXPECT_FALSE(PrepareOutput(*ctx, 0, gert::Shape{-1}, ge::DT_FLOAT).ok());
}

TEST(KernelIoTest, PrepareOutputAllocatesUnknownShapes) {
  gert::Tensor y(gert::Shape{-1}, ge::DT_INT64, nullptr, 0);
  FakeAllocator alloc;
  gert::KernelRunContextBuilder b;
  b.Node("k3", "NonZero").Outputs({&y}).Allocator(&alloc);
  gert::KernelContext* ctx = b.Build();
  auto out = PrepareOutput(*ctx, 0, gert::Shape{1, 3}, ge::DT_INT64);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(alloc.calls, 1);
  EXPECT_EQ((*out)->GetShape(), (gert::Shape{1, 3}));
  EXPECT_NE((*out)->GetAddr(), nullptr);
  EXPECT_GE((*out)->GetSize(), 3 * sizeof(int64_t));
}

TEST(ErrorsTest, WithNodeKeepsTheCode) {
  gert::KernelRunContextBuilder b;
  b.Node("n1", "Mod");
  gert::KernelContext* ctx = b.Build();
  ge::Status st = WithNode(*ctx, ge::OutOfRange("axis 9"));
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kOutOfRange);
  EXPECT_EQ(std::string(st.message()), "node n1 (Mod): axis 9");
  EXPECT_TRUE(WithNode(*ctx, ge::OkStatus()).ok());
}

}  // namespace
}  // namespace ops
