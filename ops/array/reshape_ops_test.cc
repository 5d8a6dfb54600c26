// ops/array/reshape_ops_test.cc
// Reshape, Flatten, Squeeze, Unsqueeze, Identity, Shape, Size.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "ops/array/array_test_util.h"

namespace ops {
namespace test {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

std::vector<float> IotaValues(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

// ------------------------------------------------------------------ Reshape

struct ReshapeCase {
  std::vector<int64_t> spec;
  gert::Shape expected;
  int64_t allowzero;
};

class ReshapeOnnxTest : public ::testing::TestWithParam<ReshapeCase> {};

// The shapes of the ONNX test_reshape_* models (data [2, 3, 4]).
TEST_P(ReshapeOnnxTest, MatchesOnnx) {
  const ReshapeCase& c = GetParam();
  OpTester t("Reshape");
  t.Attr<int64_t>("allowzero", c.allowzero)
      .Input(Iota({2, 3, 4}))
      .Input(I64({static_cast<int64_t>(c.spec.size())}, c.spec));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), c.expected);
  EXPECT_THAT(t.Values<float>(0), ElementsAreArray(IotaValues(24)));
}

INSTANTIATE_TEST_SUITE_P(
    Onnx, ReshapeOnnxTest,
    ::testing::Values(ReshapeCase{{4, 2, 3}, {4, 2, 3}, 0},           // reordered_all_dims
                      ReshapeCase{{2, 4, 3}, {2, 4, 3}, 0},           // reordered_last_dims
                      ReshapeCase{{2, 12}, {2, 12}, 0},               // reduced_dims
                      ReshapeCase{{2, 3, 2, 2}, {2, 3, 2, 2}, 0},     // extended_dims
                      ReshapeCase{{24}, {24}, 0},                     // one_dim
                      ReshapeCase{{2, -1, 2}, {2, 6, 2}, 0},          // negative_dim
                      ReshapeCase{{-1, 2, 3, 4}, {1, 2, 3, 4}, 0},    // negative_extended
                      ReshapeCase{{2, 0, 4, 1}, {2, 3, 4, 1}, 0},     // zero_dim
                      ReshapeCase{{2, 0, 1, -1}, {2, 3, 1, 4}, 0}));  // zero_and_negative

TEST(ReshapeTest, AllowZeroKeepsRealZero) {
  // ONNX test_reshape_allowzero_reordered: [0, 3, 4] -> [3, 4, 0].
  OpTester t("Reshape");
  t.Attr<int64_t>("allowzero", 1).Input(F32({0, 3, 4}, {})).Input(I64({3}, {3, 4, 0}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{3, 4, 0}));
}

TEST(ReshapeTest, StringsAreCopied) {
  OpTester t("Reshape");
  t.Input(Str({2, 2}, {"a", "bb", "", "dddd"})).Input(I64({1}, {-1}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{4}));
  EXPECT_THAT(t.Values<std::string>(0), ElementsAre("a", "bb", "", "dddd"));
}

TEST(ReshapeInferTest, UnknownShapeValueGivesRankFromShapeInput) {
  ge::NamedAttrs a;
  auto r = InferOp("Reshape", &a, {In{{2, 3}}, In{{3}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1, -1}));
  EXPECT_EQ(r.dtypes[0], ge::DT_FLOAT);
  r = InferOp("Reshape", &a, {In{{2, 3}}, In{{-1}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_TRUE(r.shapes[0].IsUnknownRank());
}

TEST(ReshapeInferTest, UnknownInputDimsPropagate) {
  ge::NamedAttrs a;
  gert::HostTensor s = I64({3}, {0, -1, 4});
  auto r = InferOp("Reshape", &a, {In{{-1, 6, 4}}, Val(s)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1, 4}));
  // Known product: the -1 is inferred even with a copied unknown dim absent.
  gert::HostTensor s2 = I64({2}, {-1, 4});
  r = InferOp("Reshape", &a, {In{{2, 6, 4}}, Val(s2)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{12, 4}));
  // Unknown rank input with 0 (copy) gives -1 there.
  gert::HostTensor s3 = I64({2}, {0, 5});
  r = InferOp("Reshape", &a, {In{{-2}}, Val(s3)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 5}));
}

TEST(ReshapeInferTest, Errors) {
  ge::NamedAttrs a;
  gert::HostTensor bad_count = I64({2}, {5, 5});
  EXPECT_TRUE(IsNodeError(InferOp("Reshape", &a, {In{{2, 3}}, Val(bad_count)}, 1).status,
                          "cannot reshape"));
  gert::HostTensor two_neg = I64({2}, {-1, -1});
  EXPECT_TRUE(IsNodeError(InferOp("Reshape", &a, {In{{2, 3}}, Val(two_neg)}, 1).status,
                          "more than one -1"));
  gert::HostTensor not_div = I64({2}, {4, -1});
  EXPECT_TRUE(IsNodeError(InferOp("Reshape", &a, {In{{2, 3}}, Val(not_div)}, 1).status,
                          "cannot be inferred"));
  gert::HostTensor below = I64({1}, {-3});
  EXPECT_TRUE(IsNodeError(InferOp("Reshape", &a, {In{{2, 3}}, Val(below)}, 1).status, "-3"));
  gert::HostTensor copy_oob = I64({3}, {1, 6, 0});
  EXPECT_TRUE(IsNodeError(InferOp("Reshape", &a, {In{{2, 3}}, Val(copy_oob)}, 1).status, "rank 2"));
  EXPECT_TRUE(
      IsNodeError(InferOp("Reshape", &a, {In{{2, 3}}, In{{1, 2}, ge::DT_INT64}}, 1).status, "1-D"));
  ge::NamedAttrs az;
  ASSERT_OK(az.SetAttr("allowzero", ge::AttrValue::CreateFrom<int64_t>(1)));
  gert::HostTensor zero_neg = I64({2}, {0, -1});
  EXPECT_TRUE(
      IsNodeError(InferOp("Reshape", &az, {In{{2, 3}}, Val(zero_neg)}, 1).status, "allowzero"));
}

TEST(ReshapeTest, KernelRejectsMismatch) {
  OpTester t("Reshape");
  t.Input(Iota({2, 3})).Input(I64({1}, {7}));
  EXPECT_TRUE(IsNodeError(t.Run(), "cannot reshape"));
}

// ------------------------------------------------------------------ Flatten

TEST(FlattenTest, OnnxAxes) {
  // ONNX test_flatten_*: data [2, 3, 4, 5].
  const std::vector<std::pair<int64_t, gert::Shape>> cases = {
      {0, {1, 120}}, {1, {2, 60}},  {2, {6, 20}},  {3, {24, 5}},  {4, {120, 1}},
      {-1, {24, 5}}, {-2, {6, 20}}, {-3, {2, 60}}, {-4, {1, 120}}};
  for (const auto& c : cases) {
    OpTester t("Flatten");
    t.Attr<int64_t>("axis", c.first).Input(Iota({2, 3, 4, 5}));
    ASSERT_OK(t.Run());
    EXPECT_EQ(t.OutShape(0), c.second) << "axis " << c.first;
    EXPECT_THAT(t.Values<float>(0), ElementsAreArray(IotaValues(120)));
  }
}

TEST(FlattenInferTest, UnknownDimsAndErrors) {
  ge::NamedAttrs a;
  auto r = InferOp("Flatten", &a, {In{{2, -1, 4}}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{2, -1}));
  r = InferOp("Flatten", &a, {In{{-2}}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1}));
  ge::NamedAttrs bad;
  ASSERT_OK(bad.SetAttr("axis", ge::AttrValue::CreateFrom<int64_t>(4)));
  EXPECT_TRUE(IsNodeError(InferOp("Flatten", &bad, {In{{2, 3, 4}}}, 1).status, "axis 4"));
}

// ------------------------------------------------------------ Squeeze

TEST(SqueezeTest, OnnxCases) {
  // test_squeeze: [1, 3, 4, 5] axes [0]; test_squeeze_negative_axes: [1, 3, 1, 5] axes [-2].
  OpTester t("Squeeze");
  t.Input(Iota({1, 3, 4, 5})).Input(I64({1}, {0}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{3, 4, 5}));
  OpTester n("Squeeze");
  n.Input(Iota({1, 3, 1, 5})).Input(I64({1}, {-2}));
  ASSERT_OK(n.Run());
  EXPECT_EQ(n.OutShape(0), (gert::Shape{1, 3, 5}));
  EXPECT_THAT(n.Values<float>(0), ElementsAreArray(IotaValues(15)));
}

TEST(SqueezeTest, NoAxesRemovesAllOnes) {
  OpTester t("Squeeze");
  t.Input(Iota({1, 3, 1, 2})).AbsentInput();
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{3, 2}));
}

TEST(SqueezeInferTest, UnknownAndErrors) {
  ge::NamedAttrs a;
  // Without axes a -1 dim may or may not be squeezed.
  auto r = InferOp("Squeeze", &a, {In{{1, -1}}, AbsentIn()}, 1);
  ASSERT_OK(r.status);
  EXPECT_TRUE(r.shapes[0].IsUnknownRank());
  // Unknown axes value with a known count.
  r = InferOp("Squeeze", &a, {In{{1, 3, 1}}, In{{2}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1}));
  // A -1 dim named in axes is assumed to be 1.
  gert::HostTensor ax = I64({1}, {1});
  r = InferOp("Squeeze", &a, {In{{2, -1, 3}}, Val(ax)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{2, 3}));
  gert::HostTensor ax0 = I64({1}, {0});
  EXPECT_TRUE(IsNodeError(InferOp("Squeeze", &a, {In{{2, 3}}, Val(ax0)}, 1).status,
                          "cannot squeeze axis 0"));
  gert::HostTensor ax5 = I64({1}, {5});
  EXPECT_TRUE(IsNodeError(InferOp("Squeeze", &a, {In{{1, 3}}, Val(ax5)}, 1).status, "5"));
}

// ---------------------------------------------------------- Unsqueeze

TEST(UnsqueezeTest, OnnxCases) {
  // test_unsqueeze_*: data [3, 4, 5].
  const std::vector<std::pair<std::vector<int64_t>, gert::Shape>> cases = {
      {{0}, {1, 3, 4, 5}},
      {{1}, {3, 1, 4, 5}},
      {{2}, {3, 4, 1, 5}},
      {{3}, {3, 4, 5, 1}},
      {{-2}, {3, 4, 1, 5}},
      {{1, 4}, {3, 1, 4, 5, 1}},
      {{2, 4, 0}, {1, 3, 1, 4, 1, 5}},
      {{5, 4, 2}, {3, 4, 1, 5, 1, 1}},
      {{0, 4}, {1, 3, 4, 5, 1}}};
  for (const auto& c : cases) {
    OpTester t("Unsqueeze");
    t.Input(Iota({3, 4, 5})).Input(I64({static_cast<int64_t>(c.first.size())}, c.first));
    ASSERT_OK(t.Run());
    EXPECT_EQ(t.OutShape(0), c.second);
  }
}

TEST(UnsqueezeInferTest, UnknownAndErrors) {
  ge::NamedAttrs a;
  auto r = InferOp("Unsqueeze", &a, {In{{3, -1}}, In{{2}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1, -1, -1}));
  gert::HostTensor ax = I64({1}, {-1});
  r = InferOp("Unsqueeze", &a, {In{{3, -1}}, Val(ax)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{3, -1, 1}));
  gert::HostTensor dup = I64({2}, {1, 1});
  EXPECT_TRUE(IsNodeError(InferOp("Unsqueeze", &a, {In{{3}}, Val(dup)}, 1).status, ""));
  gert::HostTensor oob = I64({1}, {3});
  EXPECT_TRUE(IsNodeError(InferOp("Unsqueeze", &a, {In{{3}}, Val(oob)}, 1).status, "3"));
}

// ---------------------------------------------------------- Identity

TEST(IdentityTest, CopiesEveryType) {
  OpTester f("Identity");
  f.Input(F32({2, 2}, {1, 2, 3, 4}));
  ASSERT_OK(f.Run());
  EXPECT_THAT(f.Values<float>(0), ElementsAre(1, 2, 3, 4));
  OpTester b("Identity");
  b.Input(Bool({3}, {1, 0, 1}));
  ASSERT_OK(b.Run());
  EXPECT_THAT(b.Values<bool>(0), ElementsAre(true, false, true));
  OpTester s("Identity");
  s.Input(Str({}, {"scalar"}));
  ASSERT_OK(s.Run());
  EXPECT_THAT(s.Values<std::string>(0), ElementsAre("scalar"));
}

TEST(IdentityTest, DeepCopiesSequences) {
  std::vector<gert::HostTensor> elems;
  elems.push_back(F32({2}, {1, 2}));
  elems.push_back(F32({1}, {3}));
  ge::StatusOr<gert::HostTensor> seq = gert::HostTensor::CreateSequence(std::move(elems));
  ASSERT_OK(seq.status());
  OpTester t("Identity");
  t.Input(std::move(*seq));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutType(0), ge::DT_VARIANT);
  ge::StatusOr<absl::Span<const gert::HostTensor>> out = gert::VariantElements(t.Out(0).tensor());
  ASSERT_OK(out.status());
  ASSERT_EQ(out->size(), 2u);
  EXPECT_EQ((*out)[0].GetShape(), (gert::Shape{2}));
  EXPECT_EQ((*out)[0].GetData<float>()[1], 2.0f);
  EXPECT_EQ((*out)[1].GetData<float>()[0], 3.0f);
}

// ------------------------------------------------------------- Shape / Size

TEST(ShapeTest, StartEndClamping) {
  // ONNX test_shape_*: data [3, 4, 5].
  struct C {
    std::vector<std::pair<std::string, int64_t>> attrs;
    std::vector<int64_t> expected;
  };
  const std::vector<C> cases = {
      {{}, {3, 4, 5}},
      {{{"start", 1}}, {4, 5}},
      {{{"end", 1}}, {3}},
      {{{"start", -1}}, {5}},
      {{{"end", -1}}, {3, 4}},
      {{{"start", 1}, {"end", 2}}, {4}},
      {{{"start", 1}, {"end", -1}}, {4}},
      {{{"start", -10}}, {3, 4, 5}},  // clip_start
      {{{"end", 10}}, {3, 4, 5}},     // clip_end
      {{{"start", 2}, {"end", 1}}, {}},
  };
  for (const C& c : cases) {
    OpTester t("Shape");
    for (const auto& kv : c.attrs) t.Attr<int64_t>(kv.first, kv.second);
    t.Input(Iota({3, 4, 5}));
    ASSERT_OK(t.Run());
    EXPECT_EQ(t.OutType(0), ge::DT_INT64);
    EXPECT_EQ(t.InferredType(0), ge::DT_INT64);
    EXPECT_THAT(t.Values<int64_t>(0), ElementsAreArray(c.expected));
  }
}

TEST(ShapeInferTest, UnknownRank) {
  ge::NamedAttrs a;
  auto r = InferOp("Shape", &a, {In{{-2}}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1}));
  r = InferOp("Shape", &a, {In{{-1, 7}}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{2}));
  EXPECT_EQ(r.dtypes[0], ge::DT_INT64);
}

TEST(SizeTest, CountsElements) {
  OpTester t("Size");
  t.Input(Str({3, 4}, std::vector<std::string>(12)));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), gert::Shape{});
  EXPECT_THAT(t.Values<int64_t>(0), ElementsAre(12));
  OpTester e("Size");
  e.Input(F32({0, 4}, {}));
  ASSERT_OK(e.Run());
  EXPECT_THAT(e.Values<int64_t>(0), ElementsAre(0));
}

// Through the registry's OpDesc path (what the compiler uses).
ge::GeTensorDesc Desc(std::vector<int64_t> dims, ge::DataType dt) {
  return ge::GeTensorDesc(ge::GeShape(dims), ge::FORMAT_ND, dt);
}

TEST(RegistryIntegrationTest, ReshapeWithConstShape) {
  auto op = ge::OperatorFactory::CreateOpDesc("r1", "Reshape");
  ASSERT_TRUE(op.ok()) << op.status().message();
  ASSERT_OK((*op)->UpdateInputDesc(0, Desc({2, 3}, ge::DT_BF16)));
  ASSERT_OK((*op)->UpdateInputDesc(1, Desc({2}, ge::DT_INT64)));
  ASSERT_OK(ge::InferShapeAndTypeForOpDesc(**op));
  EXPECT_EQ((*op)->GetOutputDesc(0).GetShape(), ge::GeShape({-1, -1}));
  gert::HostTensor shape = I64({2}, {3, -1});
  ASSERT_OK(ge::InferShapeAndTypeForOpDesc(**op, {nullptr, &shape.tensor()}));
  EXPECT_EQ((*op)->GetOutputDesc(0).GetShape(), ge::GeShape({3, 2}));
  EXPECT_EQ((*op)->GetOutputDesc(0).GetDataType(), ge::DT_BF16);
}

TEST(RegistryIntegrationTest, DynamicInputsAndOutputs) {
  auto cat = ge::OperatorFactory::CreateOpDesc("cat", "Concat", {{"inputs", 3}});
  ASSERT_TRUE(cat.ok()) << cat.status().message();
  for (uint32_t i = 0; i < 3; ++i) {
    ASSERT_OK((*cat)->UpdateInputDesc(i, Desc({2, i + 1}, ge::DT_STRING)));
  }
  ASSERT_OK((*cat)->SetAttr("axis", ge::AttrValue::CreateFrom<int64_t>(-1)));
  ASSERT_OK(ge::InferShapeAndTypeForOpDesc(**cat));
  EXPECT_EQ((*cat)->GetOutputDesc(0).GetShape(), ge::GeShape({2, 6}));
  EXPECT_EQ((*cat)->GetOutputDesc(0).GetDataType(), ge::DT_STRING);

  auto split = ge::OperatorFactory::CreateOpDesc("sp", "Split", {{"outputs", 2}});
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_OK((*split)->UpdateInputDesc(0, Desc({4, 6}, ge::DT_INT8)));
  ASSERT_OK((*split)->SetAttr("axis", ge::AttrValue::CreateFrom<int64_t>(1)));
  ASSERT_OK(ge::InferShapeAndTypeForOpDesc(**split));
  EXPECT_EQ((*split)->GetOutputDesc(1).GetShape(), ge::GeShape({4, 3}));
  EXPECT_EQ((*split)->GetOutputDesc(1).GetDataType(), ge::DT_INT8);

  auto topk = ge::OperatorFactory::CreateOpDesc("tk", "TopK");
  ASSERT_TRUE(topk.ok());
  ASSERT_OK((*topk)->UpdateInputDesc(0, Desc({4, 6}, ge::DT_FLOAT16)));
  ASSERT_OK((*topk)->UpdateInputDesc(1, Desc({1}, ge::DT_INT64)));
  ASSERT_OK(ge::InferShapeAndTypeForOpDesc(**topk));
  EXPECT_EQ((*topk)->GetOutputDesc(0).GetShape(), ge::GeShape({4, -1}));
  EXPECT_EQ((*topk)->GetOutputDesc(0).GetDataType(), ge::DT_FLOAT16);
  EXPECT_EQ((*topk)->GetOutputDesc(1).GetDataType(), ge::DT_INT64);
}

TEST(RegistryIntegrationTest, AllArrayOpsRegistered) {
  const std::vector<std::string> types = {
      "Reshape",        "Transpose", "Concat",          "Split",           "Slice",     "Gather",
      "GatherElements", "GatherND",  "Scatter",         "ScatterElements", "ScatterND", "Pad",
      "Tile",           "Expand",    "Squeeze",         "Unsqueeze",       "Flatten",   "Shape",
      "Size",           "Range",     "ConstantOfShape", "Constant",        "Identity",  "EyeLike",
      "Trilu",          "Compress",  "ReverseSequence", "OneHot",          "NonZero",   "Unique",
      "TopK",           "Resize",    "Upsample"};
  for (const std::string& t : types) {
    const ge::OpRegistrationData* reg = ge::OpRegistry::Instance().Find(t);
    ASSERT_NE(reg, nullptr) << t;
    EXPECT_NE(reg->FindKernel(ge::kEngineHostCpu), nullptr) << t;
    EXPECT_NE(reg->infer_shape, nullptr) << t;
    EXPECT_TRUE(reg->decl_error.empty()) << t << ": " << reg->decl_error;
  }
}

}  // namespace
}  // namespace test
}  // namespace ops
