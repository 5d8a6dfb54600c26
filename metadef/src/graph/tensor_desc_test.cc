#include "metadef/inc/external/graph/tensor_desc.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/graph/shape.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

using ::testing::HasSubstr;
using Range = std::vector<std::pair<int64_t, int64_t>>;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::string Msg(const Status& s) { return std::string(s.message()); }

// A desc whose logical (origin) tensor is `origin_dims` in `origin_format`,
// stored as `format` (physical shape set to whatever is passed as `shape`).
TensorDesc Blocked(const std::vector<int64_t>& origin_dims, Format origin_format, Format format,
                   DataType dt) {
  TensorDesc d(Shape(origin_dims), dt, origin_format);
  d.SetFormat(format);
  return d;
}

int64_t DataSizeOrDie(const TensorDesc& d) {
  auto s = d.GetDataSize();
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? s.value() : -1;
}

int64_t SizeOrDie(const TensorDesc& d) {
  auto s = d.GetSize();
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? s.value() : -1;
}

TEST(TensorDescTest, Defaults) {
  TensorDesc d;
  EXPECT_TRUE(d.GetShape().IsScalar());
  EXPECT_EQ(d.GetDataType(), DT_FLOAT);
  EXPECT_EQ(d.GetFormat(), FORMAT_ND);
  EXPECT_TRUE(d.GetOriginShape().IsScalar());
  EXPECT_EQ(d.GetOriginFormat(), FORMAT_ND);
  EXPECT_EQ(d.GetOriginDataType(), DT_FLOAT);
  EXPECT_EQ(d.GetRealDimCnt(), 0);
  EXPECT_EQ(d.GetSizeMeta(), 0);
  EXPECT_EQ(d.GetWeightSize(), 0);
  EXPECT_FALSE(d.GetReuseInput());
  EXPECT_EQ(d.GetDataOffset(), 0);
  EXPECT_EQ(d.GetDeviceType(), DeviceType::kNpu);
  EXPECT_TRUE(d.GetShapeRange().empty());
}

TEST(TensorDescTest, ConstructorSetsOrigin) {
  TensorDesc d(Shape({1, 3, 224, 224}), DT_FLOAT16, FORMAT_NCHW);
  EXPECT_EQ(d.GetShape(), Shape({1, 3, 224, 224}));
  EXPECT_EQ(d.GetOriginShape(), Shape({1, 3, 224, 224}));
  EXPECT_EQ(d.GetDataType(), DT_FLOAT16);
  EXPECT_EQ(d.GetOriginDataType(), DT_FLOAT16);
  EXPECT_EQ(d.GetFormat(), FORMAT_NCHW);
  EXPECT_EQ(d.GetOriginFormat(), FORMAT_NCHW);

  TensorDesc defaults(Shape({2}));
  EXPECT_EQ(defaults.GetDataType(), DT_FLOAT);
  EXPECT_EQ(defaults.GetFormat(), FORMAT_ND);
}

TEST(TensorDescTest, SettersAreIndependent) {
  TensorDesc d(Shape({4}), DT_INT32, FORMAT_ND);
  d.SetShape(Shape({5, 6}));
  d.SetDataType(DT_INT64);
  d.SetFormat(FORMAT_NHWC);
  EXPECT_EQ(d.GetShape(), Shape({5, 6}));
  EXPECT_EQ(d.GetDataType(), DT_INT64);
  EXPECT_EQ(d.GetFormat(), FORMAT_NHWC);
  // Origin fields keep the constructor values.
  EXPECT_EQ(d.GetOriginShape(), Shape({4}));
  EXPECT_EQ(d.GetOriginDataType(), DT_INT32);
  EXPECT_EQ(d.GetOriginFormat(), FORMAT_ND);

  d.SetOriginShape(Shape({7}));
  d.SetOriginFormat(FORMAT_NCHW);
  d.SetOriginDataType(DT_BF16);
  EXPECT_EQ(d.GetOriginShape(), Shape({7}));
  EXPECT_EQ(d.GetOriginFormat(), FORMAT_NCHW);
  EXPECT_EQ(d.GetOriginDataType(), DT_BF16);
  EXPECT_EQ(d.GetShape(), Shape({5, 6}));

  ASSERT_TRUE(d.MutableShape().SetDim(1, 9).ok());
  EXPECT_EQ(d.GetShape(), Shape({5, 9}));
}

TEST(TensorDescTest, ExtendedMeta) {
  TensorDesc d;
  d.SetSizeMeta(1024);
  d.SetWeightSize(512);
  d.SetReuseInput(true);
  d.SetDataOffset(128);
  d.SetDeviceType(DeviceType::kCpu);
  EXPECT_EQ(d.GetSizeMeta(), 1024);
  EXPECT_EQ(d.GetWeightSize(), 512);
  EXPECT_TRUE(d.GetReuseInput());
  EXPECT_EQ(d.GetDataOffset(), 128);
  EXPECT_EQ(d.GetDeviceType(), DeviceType::kCpu);
}

TEST(TensorDescTest, RealDimCnt) {
  TensorDesc d(Shape({1, 2, 3}));
  EXPECT_EQ(d.GetRealDimCnt(), 3);
  d.SetRealDimCnt(2);
  EXPECT_EQ(d.GetRealDimCnt(), 2);
  d.SetRealDimCnt(0);  // 0 is a real value (scalar), not "unset"
  EXPECT_EQ(d.GetRealDimCnt(), 0);
  d.SetRealDimCnt(-1);  // back to "unset": the shape's rank
  EXPECT_EQ(d.GetRealDimCnt(), 3);
  EXPECT_EQ(TensorDesc(Shape::UnknownRank()).GetRealDimCnt(), 0);
  EXPECT_EQ(TensorDesc(Shape()).GetRealDimCnt(), 0);
}

TEST(TensorDescTest, ShapeRangeForwardedToShape) {
  TensorDesc d(Shape({-1, 3}));
  ASSERT_TRUE(d.SetShapeRange({{1, 8}, {3, 3}}).ok());
  EXPECT_EQ(d.GetShapeRange(), (Range{{1, 8}, {3, 3}}));
  EXPECT_EQ(d.GetShape().GetShapeRange(), (Range{{1, 8}, {3, 3}}));
  Status st = d.SetShapeRange({{1, 8}});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_EQ(d.GetShapeRange(), (Range{{1, 8}, {3, 3}}));
}

TEST(TensorDescTest, FloatNchwSize) {
  TensorDesc d(Shape({1, 3, 224, 224}), DT_FLOAT, FORMAT_NCHW);
  EXPECT_EQ(DataSizeOrDie(d), 602112);
  EXPECT_EQ(SizeOrDie(d), 602112);  // already a multiple of 64
}

TEST(TensorDescTest, ScalarIsOneElement) {
  TensorDesc d(Shape(), DT_FLOAT);
  EXPECT_EQ(DataSizeOrDie(d), 4);
  EXPECT_EQ(SizeOrDie(d), 64);
  TensorDesc i64(Shape(), DT_INT64);
  EXPECT_EQ(DataSizeOrDie(i64), 8);
}

TEST(TensorDescTest, Alignment) {
  EXPECT_EQ(SizeOrDie(TensorDesc(Shape({3}), DT_FLOAT)), 64);    // 12
  EXPECT_EQ(SizeOrDie(TensorDesc(Shape({16}), DT_FLOAT)), 64);   // 64
  EXPECT_EQ(SizeOrDie(TensorDesc(Shape({17}), DT_FLOAT)), 128);  // 68
  EXPECT_EQ(SizeOrDie(TensorDesc(Shape({1}), DT_INT8)), 64);     // 1
  EXPECT_EQ(SizeOrDie(TensorDesc(Shape({65}), DT_UINT8)), 128);  // 65
  EXPECT_EQ(DataSizeOrDie(TensorDesc(Shape({17}), DT_FLOAT)), 68);
  EXPECT_EQ(kTensorAlignment, 64);
}

TEST(TensorDescTest, EmptyTensorIsZeroBytes) {
  TensorDesc d(Shape({4, 0, 3}), DT_FLOAT);
  EXPECT_EQ(DataSizeOrDie(d), 0);
  EXPECT_EQ(SizeOrDie(d), 0);  // 0 stays 0
}

TEST(TensorDescTest, SubByteTypesRoundUp) {
  EXPECT_EQ(DataSizeOrDie(TensorDesc(Shape({1}), DT_INT4)), 1);
  EXPECT_EQ(DataSizeOrDie(TensorDesc(Shape({3}), DT_INT4)), 2);
  EXPECT_EQ(DataSizeOrDie(TensorDesc(Shape({7}), DT_INT4)), 4);
  EXPECT_EQ(DataSizeOrDie(TensorDesc(Shape({2, 3}), DT_INT4)), 3);
  EXPECT_EQ(DataSizeOrDie(TensorDesc(Shape({8}), DT_INT4)), 4);
  EXPECT_EQ(DataSizeOrDie(TensorDesc(Shape(), DT_INT4)), 1);
  EXPECT_EQ(DataSizeOrDie(TensorDesc(Shape({9}), DT_UINT1)), 2);
  EXPECT_EQ(DataSizeOrDie(TensorDesc(Shape({5}), DT_INT2)), 2);
  EXPECT_EQ(SizeOrDie(TensorDesc(Shape({3}), DT_INT4)), 64);
}

TEST(TensorDescTest, Nc1hwc0PhysicalSizeFp16) {
  // C = 3, C0 = 16 -> C1 = 1, padded to 16 channels.
  TensorDesc d = Blocked({1, 3, 224, 224}, FORMAT_NCHW, FORMAT_NC1HWC0, DT_FLOAT16);
  d.SetShape(Shape({1, 1, 224, 224, 16}));
  const int64_t elements = 1 * 1 * 224 * 224 * 16;
  EXPECT_EQ(DataSizeOrDie(d), elements * 2);
  EXPECT_EQ(SizeOrDie(d), elements * 2);  // 1605632, a multiple of 64
  // The plain tensor is 3/16 of that.
  EXPECT_EQ(DataSizeOrDie(TensorDesc(Shape({1, 3, 224, 224}), DT_FLOAT16, FORMAT_NCHW)),
            1 * 3 * 224 * 224 * 2);
}

TEST(TensorDescTest, Nc1hwc0DerivedFromOriginNotShape) {
  // The physical size follows origin shape/format even when shape_ was left
  // as the logical shape.
  TensorDesc d = Blocked({1, 64, 56, 56}, FORMAT_NCHW, FORMAT_NC1HWC0, DT_FLOAT);
  EXPECT_EQ(DataSizeOrDie(d), 1 * 4 * 56 * 56 * 16 * 4);
  TensorDesc nhwc = Blocked({1, 56, 56, 60}, FORMAT_NHWC, FORMAT_NC1HWC0, DT_FLOAT);
  EXPECT_EQ(DataSizeOrDie(nhwc), 1 * 4 * 56 * 56 * 16 * 4);  // C1 = ceil(60/16)
}

TEST(TensorDescTest, Nc1hwc0Int8UsesC0Of32) {
  TensorDesc d = Blocked({1, 3, 4, 4}, FORMAT_NCHW, FORMAT_NC1HWC0, DT_INT8);
  EXPECT_EQ(DataSizeOrDie(d), 1 * 1 * 4 * 4 * 32);
}

TEST(TensorDescTest, PackedFormatC0Overrides) {
  // c0_format 4 -> C0 = 8.
  const Format nc1hwc0_c8 = static_cast<Format>(GetFormatFromSubAndC0(FORMAT_NC1HWC0, 0, 4));
  ASSERT_EQ(GetC0Value(nc1hwc0_c8), 8);
  TensorDesc d = Blocked({1, 3, 2, 2}, FORMAT_NCHW, nc1hwc0_c8, DT_FLOAT16);
  EXPECT_EQ(DataSizeOrDie(d), 1 * 1 * 2 * 2 * 8 * 2);
}

TEST(TensorDescTest, FractalZSize) {
  // {N=32, C=20, H=3, W=3} -> {C1*H*W = 2*9, N1 = 2, 16, C0 = 16}.
  TensorDesc d = Blocked({32, 20, 3, 3}, FORMAT_NCHW, FORMAT_FRACTAL_Z, DT_FLOAT16);
  EXPECT_EQ(DataSizeOrDie(d), 18 * 2 * 16 * 16 * 2);
  // N = 1 is padded to 16.
  TensorDesc n1 = Blocked({1, 16, 1, 1}, FORMAT_NCHW, FORMAT_FRACTAL_Z, DT_FLOAT16);
  EXPECT_EQ(DataSizeOrDie(n1), 1 * 1 * 16 * 16 * 2);
}

TEST(TensorDescTest, FractalNzSize) {
  // ND {2, 3, H=20, W=30} -> {2, 3, W1 = 2, H1 = 2, 16, 16}.
  TensorDesc d = Blocked({2, 3, 20, 30}, FORMAT_ND, FORMAT_FRACTAL_NZ, DT_FLOAT16);
  EXPECT_EQ(DataSizeOrDie(d), 2 * 3 * 2 * 2 * 16 * 16 * 2);
}

TEST(TensorDescTest, Ndc1hwc0Size) {
  // NCDHW {1, C=20, D=2, 4, 4} -> {1, 2, C1 = 2, 4, 4, 16}.
  TensorDesc d = Blocked({1, 20, 2, 4, 4}, FORMAT_NCDHW, FORMAT_NDC1HWC0, DT_FLOAT16);
  EXPECT_EQ(DataSizeOrDie(d), 1 * 2 * 2 * 4 * 4 * 16 * 2);
}

TEST(TensorDescTest, BlockedFormatAlreadyPhysical) {
  // Origin in the same format: the shape is taken as the physical one.
  TensorDesc d(Shape({1, 1, 4, 4, 16}), DT_FLOAT16, FORMAT_NC1HWC0);
  EXPECT_EQ(DataSizeOrDie(d), 1 * 1 * 4 * 4 * 16 * 2);
}

TEST(TensorDescTest, OtherFormatsUseShapeAsIs) {
  // Not one of the four derived formats: the shape is the physical one.
  TensorDesc d(Shape({2, 3, 5}), DT_FLOAT16, FORMAT_FRACTAL_Z_3D);
  d.SetOriginShape(Shape({100}));
  EXPECT_EQ(DataSizeOrDie(d), 2 * 3 * 5 * 2);
  TensorDesc nhwc(Shape({1, 2, 2, 3}), DT_FLOAT, FORMAT_NHWC);
  EXPECT_EQ(DataSizeOrDie(nhwc), 48);
}

TEST(TensorDescTest, UnsupportedTransferIsAnError) {
  // NC1HWC0 from a rank-1 ND origin is not a supported transfer.
  TensorDesc d = Blocked({5}, FORMAT_ND, FORMAT_NC1HWC0, DT_FLOAT16);
  auto s = d.GetDataSize();
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Msg(s.status()), HasSubstr("[5]"));
  EXPECT_FALSE(d.GetSize().ok());
}

TEST(TensorDescTest, UnknownShapeIsAnError) {
  for (const Shape& shape : {Shape({2, -1}), Shape::UnknownRank()}) {
    TensorDesc d(shape, DT_FLOAT, FORMAT_ND);
    auto s = d.GetDataSize();
    ASSERT_FALSE(s.ok()) << shape.ToString();
    EXPECT_EQ(GetErrorCode(s.status()), ErrorCode::kParamInvalid);
    EXPECT_THAT(Msg(s.status()), HasSubstr(shape.ToString()));
    EXPECT_FALSE(d.GetSize().ok());
  }
  TensorDesc blocked = Blocked({1, -1, 4, 4}, FORMAT_NCHW, FORMAT_NC1HWC0, DT_FLOAT16);
  blocked.SetShape(Shape({1, 1, 4, 4, 16}));  // even with a known physical shape
  auto s = blocked.GetDataSize();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(GetErrorCode(s.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(s.status()), HasSubstr("[1,-1,4,4]"));
}

TEST(TensorDescTest, InvalidDimIsAnError) {
  auto s = TensorDesc(Shape({2, -3}), DT_FLOAT).GetDataSize();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(GetErrorCode(s.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(s.status()), HasSubstr("-3"));
  auto b = Blocked({1, -3, 4, 4}, FORMAT_NCHW, FORMAT_NC1HWC0, DT_FLOAT16).GetDataSize();
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(GetErrorCode(b.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(b.status()), HasSubstr("-3"));
}

TEST(TensorDescTest, StringAndUndefinedAreErrors) {
  for (DataType dt : {DT_STRING, DT_UNDEFINED}) {
    TensorDesc d(Shape({2, 2}), dt);
    auto s = d.GetDataSize();
    ASSERT_FALSE(s.ok()) << dt;
    EXPECT_EQ(GetErrorCode(s.status()), ErrorCode::kNotSupported);
    EXPECT_FALSE(d.GetSize().ok());
  }
  EXPECT_FALSE(TensorDesc(Shape({2}), DT_RESOURCE).GetDataSize().ok());
  EXPECT_FALSE(TensorDesc(Shape({2}), static_cast<DataType>(999)).GetDataSize().ok());
}

TEST(TensorDescTest, ElementCountOverflow) {
  TensorDesc d(Shape({kMax, 2}), DT_INT8);
  auto s = d.GetDataSize();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(GetErrorCode(s.status()), ErrorCode::kOverflow);
  EXPECT_FALSE(d.GetSize().ok());
}

TEST(TensorDescTest, ByteCountOverflow) {
  // kMax elements fit, kMax * 4 bytes do not.
  auto s = TensorDesc(Shape({kMax}), DT_FLOAT).GetDataSize();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(GetErrorCode(s.status()), ErrorCode::kOverflow);
  // Sub-byte: kMax bits / 8 rounds up without overflowing.
  EXPECT_EQ(DataSizeOrDie(TensorDesc(Shape({kMax}), DT_UINT1)), kMax / 8 + 1);
}

TEST(TensorDescTest, AlignmentOverflow) {
  TensorDesc d(Shape({kMax}), DT_INT8);
  EXPECT_EQ(DataSizeOrDie(d), kMax);
  auto s = d.GetSize();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(GetErrorCode(s.status()), ErrorCode::kOverflow);
  // The largest multiple of 64 is still representable.
  const int64_t top = kMax / 64 * 64;
  EXPECT_EQ(SizeOrDie(TensorDesc(Shape({top}), DT_INT8)), top);
}

TEST(TensorDescTest, EqualityComparesAllFields) {
  const TensorDesc base(Shape({-1, 3}), DT_FLOAT16, FORMAT_NCHW);
  EXPECT_EQ(base, base);
  EXPECT_EQ(base, TensorDesc(Shape({-1, 3}), DT_FLOAT16, FORMAT_NCHW));

  std::vector<TensorDesc> variants;
  auto add = [&](auto mutate) {
    TensorDesc d = base;
    mutate(d);
    variants.push_back(d);
  };
  add([](TensorDesc& d) { d.SetShape(Shape({-1, 4})); });
  add([](TensorDesc& d) { ASSERT_TRUE(d.SetShapeRange({{1, 2}, {3, 3}}).ok()); });
  add([](TensorDesc& d) { d.SetDataType(DT_FLOAT); });
  add([](TensorDesc& d) { d.SetFormat(FORMAT_NHWC); });
  add([](TensorDesc& d) { d.SetOriginShape(Shape({1, 3})); });
  add([](TensorDesc& d) { d.SetOriginFormat(FORMAT_ND); });
  add([](TensorDesc& d) { d.SetOriginDataType(DT_INT8); });
  add([](TensorDesc& d) { d.SetRealDimCnt(2); });
  add([](TensorDesc& d) { d.SetSizeMeta(64); });
  add([](TensorDesc& d) { d.SetWeightSize(64); });
  add([](TensorDesc& d) { d.SetReuseInput(true); });
  add([](TensorDesc& d) { d.SetDataOffset(32); });
  add([](TensorDesc& d) { d.SetDeviceType(DeviceType::kCpu); });
  for (size_t i = 0; i < variants.size(); ++i) {
    EXPECT_NE(base, variants[i]) << "variant " << i;
    EXPECT_FALSE(base == variants[i]) << "variant " << i;
    EXPECT_EQ(variants[i], variants[i]) << "variant " << i;
  }
}

}  // namespace
}  // namespace ge
