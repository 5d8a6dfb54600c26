// graph/serialization/src/tensor_serialize_utils_test.cc
//
// GeTensorSerializeUtils: the DataType table, formats with sub-format / C0,
// shape checks, and the GeTensorDesc fields that need care (origin shape
// only when it differs, explicit real dim count, stale shape ranges).
#include "graph/serialization/inc/tensor_serialize_utils.h"

#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/src/testing/file_view_testing.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/graph/type_utils.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(TensorSerializeUtilsTest, DataTypeTableIsABijection) {
  std::set<int> seen;
  for (DataType dt : TypeUtils::AllDataTypes()) {
    StatusOr<proto::DataType> p = GeTensorSerializeUtils::DataTypeToProto(dt);
    ASSERT_TRUE(p.ok()) << TypeUtils::DataTypeToSerialString(dt);
    EXPECT_TRUE(seen.insert(*p).second) << "two types map to proto " << *p;
    // Same name on both sides.
    EXPECT_EQ(proto::DataType_Name(*p), TypeUtils::DataTypeToSerialString(dt));
    StatusOr<DataType> back = GeTensorSerializeUtils::DataTypeFromProto(*p);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, dt);
  }
  EXPECT_EQ(static_cast<int>(seen.size()), proto::DataType_ARRAYSIZE);
  EXPECT_EQ(*GeTensorSerializeUtils::DataTypeToProto(DT_FLOAT), proto::DT_FLOAT);
  EXPECT_EQ(*GeTensorSerializeUtils::DataTypeToProto(DT_UNDEFINED), proto::DT_UNDEFINED);
  GE_EXPECT_CODE(GeTensorSerializeUtils::DataTypeToProto(DT_MAX).status(),
                 ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(GeTensorSerializeUtils::DataTypeToProto(static_cast<DataType>(5)).status(),
                 ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(GeTensorSerializeUtils::DataTypeFromProto(proto::DataType_ARRAYSIZE).status(),
                 ErrorCode::kParseFailed);
  GE_EXPECT_CODE(GeTensorSerializeUtils::DataTypeFromProto(-1).status(), ErrorCode::kParseFailed);
}

// IsSerializableFormat answers "yes" for every plain format without its
// tables: each one's layout string must print and parse back to it.
TEST(TensorSerializeUtilsTest, PlainFormatsRoundTrip) {
  for (int32_t f = 0; f < FORMAT_END; ++f) {
    StatusOr<std::string> layout = GeTensorSerializeUtils::FormatToLayout(f);
    ASSERT_TRUE(layout.ok()) << f << ": " << layout.status();
    StatusOr<Format> back = GeTensorSerializeUtils::LayoutToFormat(*layout);
    ASSERT_TRUE(back.ok()) << *layout << ": " << back.status();
    EXPECT_EQ(*back, f) << *layout;
    EXPECT_TRUE(GeTensorSerializeUtils::IsSerializableFormat(f)) << *layout;
  }
  EXPECT_FALSE(GeTensorSerializeUtils::IsSerializableFormat(-1));
  EXPECT_FALSE(GeTensorSerializeUtils::IsSerializableFormat(0x7fffffff));
}

TEST(TensorSerializeUtilsTest, FormatsIncludingPackedOnes) {
  EXPECT_EQ(*GeTensorSerializeUtils::FormatToLayout(FORMAT_NCHW), "NCHW");
  const int32_t packed = GetFormatFromSubAndC0(FORMAT_FRACTAL_Z, 3, 6);
  StatusOr<std::string> layout = GeTensorSerializeUtils::FormatToLayout(packed);
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_EQ(*layout, "FRACTAL_Z:3:C0_32");
  StatusOr<Format> back = GeTensorSerializeUtils::LayoutToFormat(*layout);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, packed);
  EXPECT_EQ(*GeTensorSerializeUtils::CheckedFormat(packed), packed);
  GE_EXPECT_CODE(GeTensorSerializeUtils::FormatToLayout(0x7fffffff).status(),
                 ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(GeTensorSerializeUtils::FormatToLayout(FORMAT_END).status(),
                 ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(GeTensorSerializeUtils::CheckedFormat(int64_t{1} << 40).status(),
                 ErrorCode::kParseFailed);
  StatusOr<Format> bad = GeTensorSerializeUtils::LayoutToFormat("NCHW:x");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("layout 'NCHW:x'"));
}

TEST(TensorSerializeUtilsTest, ShapeChecks) {
  DeserializeContext ctx;
  proto::ShapeDef def;
  GeShape shape;
  GE_EXPECT_OK(GeTensorSerializeUtils::AssembleGeShapeFromProto(def, &shape, ctx));
  EXPECT_TRUE(shape.IsScalar());
  def.add_dim(-2);
  GE_EXPECT_OK(GeTensorSerializeUtils::AssembleGeShapeFromProto(def, &shape, ctx));
  EXPECT_TRUE(shape.IsUnknownDimNum());
  def.add_dim(3);
  GE_EXPECT_CODE(GeTensorSerializeUtils::AssembleGeShapeFromProto(def, &shape, ctx),
                 ErrorCode::kParamInvalid);
  def.Clear();
  def.add_dim(-1);
  def.add_dim(-3);
  Status st = GeTensorSerializeUtils::AssembleGeShapeFromProto(def, &shape, ctx);
  EXPECT_THAT(st.message(), HasSubstr("dim 1 is -3"));
  def.Clear();
  for (int i = 0; i < 9; ++i) def.add_dim(1);
  ctx.options.max_dim_num = 8;
  st = GeTensorSerializeUtils::AssembleGeShapeFromProto(def, &shape, ctx);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kOutOfRange);
  EXPECT_THAT(st.message(), HasSubstr("9 dims, more than the limit of 8"));
}

GeTensorDesc RoundTrip(const GeTensorDesc& d, proto::TensorDescriptor* def = nullptr) {
  SerializeContext sctx;
  proto::TensorDescriptor local;
  if (def == nullptr) def = &local;
  Status st = GeTensorSerializeUtils::GeTensorDescAsProto(d, def, sctx);
  EXPECT_TRUE(st.ok()) << st;
  DeserializeContext dctx;
  GeTensorDesc back;
  st = GeTensorSerializeUtils::AssembleGeTensorDescFromProto(*def, &back, dctx);
  EXPECT_TRUE(st.ok()) << st;
  return back;
}

TEST(TensorSerializeUtilsTest, OriginShapeOnlyWhenDifferent) {
  GeTensorDesc d(GeShape({2, 3}), FORMAT_NHWC, DT_INT8);
  proto::TensorDescriptor def;
  GeTensorDesc back = RoundTrip(d, &def);
  EXPECT_FALSE(def.has_origin_shape());
  EXPECT_FALSE(def.has_origin_format());
  EXPECT_FALSE(def.has_origin_dtype());
  EXPECT_EQ(def.format(), FORMAT_NHWC);
  EXPECT_EQ(back, d);
  d.SetOriginShape(GeShape({6}));
  def.Clear();
  back = RoundTrip(d, &def);
  EXPECT_THAT(def.origin_shape().dim(), ElementsAre(6));
  EXPECT_EQ(back.GetOriginShape(), GeShape({6}));
  EXPECT_EQ(back, d);
}

TEST(TensorSerializeUtilsTest, RealDimCntExplicitOrNot) {
  GeTensorDesc d(GeShape({2, 3}));
  EXPECT_FALSE(GeTensorSerializeUtils::HasExplicitRealDimCnt(d));
  proto::TensorDescriptor def;
  GeTensorDesc back = RoundTrip(d, &def);
  EXPECT_FALSE(def.has_real_dim_cnt());
  back.SetShape(GeShape({1, 2, 3}));
  EXPECT_EQ(back.GetRealDimCnt(), 3);  // still follows the shape

  d.SetRealDimCnt(2);  // explicit, equal to the rank
  EXPECT_TRUE(GeTensorSerializeUtils::HasExplicitRealDimCnt(d));
  def.Clear();
  back = RoundTrip(d, &def);
  EXPECT_TRUE(def.has_real_dim_cnt());
  EXPECT_EQ(back, d);
  back.SetShape(GeShape({1, 2, 3}));
  EXPECT_EQ(back.GetRealDimCnt(), 2);  // pinned
}

TEST(TensorSerializeUtilsTest, StaleShapeRangeSurvives) {
  GeTensorDesc d(GeShape({-1, 4}));
  GE_ASSERT_OK(d.SetShapeRange({{1, 8}, {4, 4}}));
  d.SetShape(GeShape({5}));  // the range no longer matches the rank
  const GeTensorDesc back = RoundTrip(d);
  EXPECT_EQ(back, d);
  EXPECT_EQ(back.GetShape(), GeShape({5}));
  EXPECT_EQ(back.GetOriginShape(), GeShape({-1, 4}));
  EXPECT_EQ(back.GetShapeRange(), (GeTensorDesc::ShapeRange{{1, 8}, {4, 4}}));
}

TEST(TensorSerializeUtilsTest, ExtendedMetaAndTensorData) {
  GeTensorDesc d(GeShape({4}), FORMAT_ND, DT_UINT8);
  d.SetSizeMeta(64);
  d.SetWeightSize(4);
  d.SetReuseInput(true);
  d.SetReuseInputIndex(1);
  d.SetDataOffset(128);
  d.SetDeviceType(DeviceType::kCpu);
  d.SetInputTensor(true);
  d.SetOutputTensor(true);
  d.SetName("w");
  EXPECT_EQ(RoundTrip(d), d);

  const GeTensor t(d, std::vector<uint8_t>{9, 8, 7, 6});
  SerializeContext sctx;
  proto::TensorDef def;
  GE_ASSERT_OK(GeTensorSerializeUtils::GeTensorAsProto(t, &def, sctx));
  EXPECT_EQ(def.data(), std::string("\x09\x08\x07\x06"));
  DeserializeContext dctx;
  GeTensor back;
  GE_ASSERT_OK(GeTensorSerializeUtils::AssembleGeTensorFromProto(def, &back, dctx));
  EXPECT_EQ(back, t);

  // A FileView of unaligned bytes is written as they are, without its
  // aligned copy.
  GeTensor viewed(d);
  viewed.SetData(testing::UnalignedFileView(t.GetData()));
  proto::TensorDef viewed_def;
  GE_ASSERT_OK(GeTensorSerializeUtils::GeTensorAsProto(viewed, &viewed_def, sctx));
  EXPECT_EQ(viewed_def.data(), def.data());
  EXPECT_FALSE(viewed.GetBuffer()->has_copy());
}

}  // namespace
}  // namespace ge
