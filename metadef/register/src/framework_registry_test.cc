// metadef/register/src/framework_registry_test.cc
#include "metadef/register/inc/register/framework_registry.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Stands in for a framework node (e.g. onnx::NodeProto).
struct FakeNode {
  int64_t group = 1;
  bool broken = false;
};

Status MapConvAttrs(const void* framework_node, OpDesc& op) {
  const auto* node = static_cast<const FakeNode*>(framework_node);
  if (node == nullptr) return ParamInvalid("null node");
  if (node->broken) return ParamInvalid("attribute group is malformed");
  return op.SetAttr("groups", AttrValue::CreateFrom<int64_t>(node->group));
}

REGISTER_CUSTOM_OP("Conv2D")
    .Framework(FrameworkType::ONNX)
    .OriginOpType("Conv")
    .VersionRange(1, 10)
    .AttrMapping(MapConvAttrs);
REGISTER_CUSTOM_OP("Conv2DV11")
    .Framework(FrameworkType::ONNX)
    .OriginOpType("Conv")
    .Domain("ai.onnx")  // the default domain, spelled out
    .VersionRange(11, kMaxVersion);
REGISTER_CUSTOM_OP("FusedConv")
    .Framework(FrameworkType::ONNX)
    .OriginOpType("FusedConv")
    .Domain("com.microsoft");
REGISTER_CUSTOM_OP("Conv2D")
    .Framework(FrameworkType::TENSORFLOW)
    .OriginOpType("Conv2D")
    .OriginOpType("DepthwiseConv2dNative");
REGISTER_CUSTOM_OP("Conv2D").Framework(FrameworkType::CAFFE).OriginOpType("Convolution");
// Overlaps Conv [1, 10] in the default domain: kept as an error.
REGISTER_CUSTOM_OP("Conv2DOld")
    .Framework(FrameworkType::ONNX)
    .OriginOpType("Conv")
    .VersionRange(5, 6);

TEST(FrameworkRegistryTest, EnumValuesAndNames) {
  EXPECT_EQ(static_cast<int32_t>(FrameworkType::CAFFE), 0);
  EXPECT_EQ(static_cast<int32_t>(FrameworkType::MINDSPORE), 1);
  EXPECT_EQ(static_cast<int32_t>(FrameworkType::TENSORFLOW), 3);
  EXPECT_EQ(static_cast<int32_t>(FrameworkType::ONNX), 5);
  EXPECT_EQ(FrameworkTypeName(FrameworkType::ONNX), "ONNX");
  EXPECT_EQ(FrameworkTypeName(static_cast<FrameworkType>(2)), "FRAMEWORK(2)");
}

TEST(FrameworkRegistryTest, VersionSelection) {
  FrameworkRegistry& r = FrameworkRegistry::Instance();
  EXPECT_EQ(r.Find(FrameworkType::ONNX, "Conv", "", 7)->op_type, "Conv2D");
  EXPECT_EQ(r.Find(FrameworkType::ONNX, "Conv", "", 10)->op_type, "Conv2D");
  EXPECT_EQ(r.Find(FrameworkType::ONNX, "Conv", "", 11)->op_type, "Conv2DV11");
  EXPECT_EQ(r.Find(FrameworkType::ONNX, "Conv", "ai.onnx", 18)->op_type, "Conv2DV11");
  EXPECT_EQ(r.Find(FrameworkType::ONNX, "Conv")->op_type, "Conv2DV11");  // any: latest
  EXPECT_EQ(r.Find(FrameworkType::TENSORFLOW, "DepthwiseConv2dNative")->op_type, "Conv2D");
  EXPECT_EQ(r.Find(FrameworkType::CAFFE, "Convolution")->op_type, "Conv2D");
  EXPECT_EQ(r.Find(FrameworkType::ONNX, "FusedConv", "com.microsoft", 1)->op_type, "FusedConv");
  EXPECT_EQ(r.Find(FrameworkType::ONNX, "Conv", "", 3)->source, "builtin");
}

TEST(FrameworkRegistryTest, LookupErrorsNameFrameworkAndType) {
  FrameworkRegistry& r = FrameworkRegistry::Instance();
  StatusOr<FrameworkOpMapping> v0 = r.Find(FrameworkType::ONNX, "Conv", "", 0);
  ASSERT_FALSE(v0.ok());
  EXPECT_EQ(GetErrorCode(v0.status()), ErrorCode::kNotFound);
  EXPECT_EQ(v0.status().message(),
            "framework ONNX: op type 'Conv' (domain '' (default)) has no mapping for version 0; "
            "registered versions: [1, 10], [11, max]");

  StatusOr<FrameworkOpMapping> dom = r.Find(FrameworkType::ONNX, "FusedConv");
  ASSERT_FALSE(dom.ok());
  EXPECT_THAT(dom.status().message(),
              HasSubstr("framework ONNX: op type 'FusedConv' is not registered in domain '' "
                        "(default); registered domains: 'com.microsoft'"));

  StatusOr<FrameworkOpMapping> typo = r.Find(FrameworkType::ONNX, "Cnv");
  ASSERT_FALSE(typo.ok());
  EXPECT_THAT(typo.status().message(),
              HasSubstr("framework ONNX: op type 'Cnv' is not registered; did you mean 'Conv'?"));

  // Types of another framework are neither found nor suggested.
  StatusOr<FrameworkOpMapping> tf = r.Find(FrameworkType::TENSORFLOW, "Convolution");
  ASSERT_FALSE(tf.ok());
  EXPECT_THAT(tf.status().message(), HasSubstr("framework TENSORFLOW: op type 'Convolution'"));
  EXPECT_FALSE(r.Find(FrameworkType::MINDSPORE, "Conv").ok());

  EXPECT_EQ(GetErrorCode(r.Find(FrameworkType::ONNX, "Conv", "", -7).status()),
            ErrorCode::kParamInvalid);
}

TEST(FrameworkRegistryTest, AttrMapping) {
  FrameworkRegistry& r = FrameworkRegistry::Instance();
  StatusOr<FrameworkOpMapping> m = r.Find(FrameworkType::ONNX, "Conv", "", 9);
  ASSERT_TRUE(m.ok());
  OpDesc op("conv1", m->op_type);
  FakeNode node;
  node.group = 4;
  ASSERT_TRUE(m->MapAttrs(&node, op).ok());
  EXPECT_EQ(*op.GetAttr("groups")->Get<int64_t>(), 4);
  node.broken = true;
  Status st = m->MapAttrs(&node, op);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(),
            "framework ONNX: op type 'Conv' -> Conv2D: attribute mapping: attribute group is "
            "malformed");
  // No mapping function: nothing to do.
  StatusOr<FrameworkOpMapping> v11 = r.Find(FrameworkType::ONNX, "Conv", "", 11);
  EXPECT_TRUE(v11->MapAttrs(nullptr, op).ok());
}

TEST(FrameworkRegistryTest, RegistrationErrors) {
  FrameworkRegistry& r = FrameworkRegistry::Instance();
  const std::vector<std::string> errors = r.GetRegistrationErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0], HasSubstr("framework ONNX: op type 'Conv' (domain '' (default)): "
                                   "versions [5, 6] mapping to 'Conv2DOld'"));
  EXPECT_THAT(errors[0], HasSubstr("overlap versions [1, 10] mapping to 'Conv2D'"));

  FrameworkOpMapping bad;
  bad.framework = FrameworkType::ONNX;
  bad.origin_type = "Relu";
  bad.op_type = "Relu";
  bad.min_version = 7;
  bad.max_version = 6;
  EXPECT_THAT(r.Register(bad).message(), HasSubstr("invalid version range [7, 6]"));
  bad.min_version = -1;
  EXPECT_EQ(GetErrorCode(r.Register(bad)), ErrorCode::kParamInvalid);
  bad.min_version = 1;
  bad.max_version = 5;
  bad.op_type = "";
  EXPECT_THAT(r.Register(bad).message(), HasSubstr("empty target op type"));
  bad.op_type = "Relu";
  bad.framework = static_cast<FrameworkType>(2);
  EXPECT_THAT(r.Register(bad).message(), HasSubstr("unknown framework FRAMEWORK(2)"));
  bad.framework = FrameworkType::ONNX;
  bad.source = "libmine.so";
  ASSERT_TRUE(r.Register(bad).ok());
  bad.min_version = 5;
  bad.max_version = 9;
  bad.op_type = "Relu2";
  bad.source = "libother.so";
  Status overlap = r.Register(bad);
  EXPECT_EQ(GetErrorCode(overlap), ErrorCode::kAlreadyExists);
  EXPECT_THAT(overlap.message(), HasSubstr("libother.so"));
  EXPECT_THAT(overlap.message(), HasSubstr("libmine.so"));
  // Another domain does not overlap.
  bad.domain = "custom";
  EXPECT_TRUE(r.Register(bad).ok());
  EXPECT_EQ(r.Find(FrameworkType::ONNX, "Relu", "custom", 9)->op_type, "Relu2");
  EXPECT_TRUE(r.UnregisterForTest(FrameworkType::ONNX, "Relu"));
  EXPECT_FALSE(r.UnregisterForTest(FrameworkType::ONNX, "Relu"));

  // A chain without OriginOpType, or listing a type twice, registers nothing.
  EXPECT_EQ(GetErrorCode(r.Register(FrameworkRegistrationData("X"))), ErrorCode::kParamInvalid);
  Status twice = r.Register(FrameworkRegistrationData("Y").OriginOpType("Yy").OriginOpType("Yy"));
  EXPECT_EQ(GetErrorCode(twice), ErrorCode::kAlreadyExists);
  EXPECT_FALSE(r.Find(FrameworkType::ONNX, "Yy").ok());
}

TEST(FrameworkRegistryTest, OriginTypesSorted) {
  EXPECT_THAT(FrameworkRegistry::Instance().GetOriginTypes(FrameworkType::TENSORFLOW),
              ElementsAre("Conv2D", "DepthwiseConv2dNative"));
  EXPECT_THAT(FrameworkRegistry::Instance().GetOriginTypes(FrameworkType::MINDSPORE),
              ElementsAre());
}

}  // namespace
}  // namespace ge
