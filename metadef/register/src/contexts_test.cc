// metadef/register/src/contexts_test.cc
#include "metadef/register/inc/gert/contexts.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"

namespace gert {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

ge::NamedAttrs MakeAttrs() {
  ge::NamedAttrs a("attrs");
  EXPECT_TRUE(a.SetAttr("axis", ge::AttrValue::CreateFrom<int64_t>(-1)).ok());
  EXPECT_TRUE(a.SetAttr("alpha", ge::AttrValue::CreateFrom<float>(0.5f)).ok());
  EXPECT_TRUE(a.SetAttr("flag", ge::AttrValue::CreateFrom<bool>(true)).ok());
  EXPECT_TRUE(a.SetAttr("int_flag", ge::AttrValue::CreateFrom<int64_t>(0)).ok());
  EXPECT_TRUE(a.SetAttr("bad_flag", ge::AttrValue::CreateFrom<int64_t>(2)).ok());
  EXPECT_TRUE(a.SetAttr("mode", ge::AttrValue::CreateFrom<std::string>("linear")).ok());
  EXPECT_TRUE(a.SetAttr("to", ge::AttrValue::CreateFrom<ge::DataType>(ge::DT_INT8)).ok());
  EXPECT_TRUE(a.SetAttr("perm", ge::AttrValue::CreateFrom<std::vector<int64_t>>({1, 0, 2})).ok());
  EXPECT_TRUE(
      a.SetAttr("scales", ge::AttrValue::CreateFrom<std::vector<float>>({1.0f, 2.0f})).ok());
  EXPECT_TRUE(
      a.SetAttr("names", ge::AttrValue::CreateFrom<std::vector<std::string>>({"a", "b"})).ok());
  ge::GeTensor value(ge::GeTensorDesc(ge::GeShape({2}), ge::FORMAT_ND, ge::DT_UINT8),
                     std::vector<uint8_t>{7, 9});
  EXPECT_TRUE(a.SetAttr("value", ge::AttrValue::CreateFrom<ge::GeTensor>(value)).ok());
  return a;
}

class ContextBaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_.SetNode("relu1", "Relu");
    ctx_.SetAttrHolder(&attrs_);
  }
  ge::NamedAttrs attrs_ = MakeAttrs();
  ContextBase ctx_;
};

TEST_F(ContextBaseTest, Identity) {
  EXPECT_EQ(ctx_.GetNodeName(), "relu1");
  EXPECT_EQ(ctx_.GetNodeType(), "Relu");
  EXPECT_EQ(ctx_.GetAttrHolder(), &attrs_);
  EXPECT_TRUE(ctx_.HasAttr("axis"));
  EXPECT_FALSE(ctx_.HasAttr("nope"));
}

TEST_F(ContextBaseTest, ScalarAccessors) {
  EXPECT_EQ(*ctx_.GetInt("axis"), -1);
  EXPECT_EQ(*ctx_.GetFloat("alpha"), 0.5f);
  EXPECT_EQ(*ctx_.GetBool("flag"), true);
  EXPECT_EQ(*ctx_.GetStr("mode"), "linear");
  EXPECT_EQ(*ctx_.GetDataType("to"), ge::DT_INT8);
}

TEST_F(ContextBaseTest, NotFoundNamesNodeAndAttribute) {
  ge::StatusOr<int64_t> r = ctx_.GetInt("keepdims");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(ge::GetErrorCode(r.status()), ge::ErrorCode::kNotFound);
  EXPECT_THAT(r.status().message(), HasSubstr("node relu1 (Relu)"));
  EXPECT_THAT(r.status().message(), HasSubstr("'keepdims'"));
  EXPECT_EQ(ge::GetErrorCode(ctx_.GetBool("missing").status()), ge::ErrorCode::kNotFound);
  EXPECT_EQ(ge::GetErrorCode(ctx_.GetListStr("missing").status()), ge::ErrorCode::kNotFound);
}

TEST_F(ContextBaseTest, TypeMismatchNamesTypes) {
  ge::StatusOr<int64_t> r = ctx_.GetInt("mode");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(ge::GetErrorCode(r.status()), ge::ErrorCode::kTypeMismatch);
  EXPECT_THAT(r.status().message(), HasSubstr("node relu1 (Relu)"));
  EXPECT_THAT(r.status().message(), HasSubstr("'mode' is string, expected int"));
  EXPECT_EQ(ge::GetErrorCode(ctx_.GetFloat("axis").status()), ge::ErrorCode::kTypeMismatch);
  EXPECT_EQ(ge::GetErrorCode(ctx_.GetListInt("scales").status()), ge::ErrorCode::kTypeMismatch);
  EXPECT_EQ(ge::GetErrorCode(ctx_.GetDataType("axis").status()), ge::ErrorCode::kTypeMismatch);
}

TEST_F(ContextBaseTest, BoolAcceptsIntZeroOne) {
  EXPECT_EQ(*ctx_.GetBool("int_flag"), false);
  ge::StatusOr<bool> bad = ctx_.GetBool("bad_flag");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(ge::GetErrorCode(bad.status()), ge::ErrorCode::kTypeMismatch);
  EXPECT_THAT(bad.status().message(), HasSubstr("int 2"));
  EXPECT_EQ(ge::GetErrorCode(ctx_.GetBool("mode").status()), ge::ErrorCode::kTypeMismatch);
  EXPECT_EQ(*ctx_.GetBoolOr("absent", true), true);
  EXPECT_EQ(*ctx_.GetBoolOr("int_flag", true), false);
  EXPECT_FALSE(ctx_.GetBoolOr("bad_flag", true).ok());
}

TEST_F(ContextBaseTest, DefaultsOnlyWhenAbsent) {
  EXPECT_EQ(*ctx_.GetIntOr("absent", 42), 42);
  EXPECT_EQ(*ctx_.GetIntOr("axis", 42), -1);
  EXPECT_FALSE(ctx_.GetIntOr("mode", 42).ok());  // present, wrong type
  EXPECT_EQ(*ctx_.GetFloatOr("absent", 1.5f), 1.5f);
  EXPECT_EQ(*ctx_.GetStrOr("absent", "x"), "x");
  EXPECT_EQ(*ctx_.GetStrOr("mode", "x"), "linear");
  EXPECT_THAT(*ctx_.GetListIntOr("absent", {3}), ElementsAre(3));
  EXPECT_THAT(*ctx_.GetListFloatOr("absent", {}), ElementsAre());
  EXPECT_THAT(*ctx_.GetListStrOr("names", {}), ElementsAre("a", "b"));
  EXPECT_FALSE(ctx_.GetListFloatOr("perm", {}).ok());
}

TEST_F(ContextBaseTest, Lists) {
  EXPECT_THAT(*ctx_.GetListInt("perm"), ElementsAre(1, 0, 2));
  EXPECT_THAT(*ctx_.GetListFloat("scales"), ElementsAre(1.0f, 2.0f));
  EXPECT_THAT(*ctx_.GetListStr("names"), ElementsAre("a", "b"));
  ge::StatusOr<absl::Span<const int64_t>> view = ctx_.GetListIntView("perm");
  ASSERT_TRUE(view.ok());
  EXPECT_THAT(*view, ElementsAre(1, 0, 2));
  EXPECT_EQ(view->data(), attrs_.GetAttr("perm")->Get<std::vector<int64_t>>()->data());
  EXPECT_THAT(*ctx_.GetListFloatView("scales"), ElementsAre(1.0f, 2.0f));
  EXPECT_FALSE(ctx_.GetListIntView("scales").ok());
}

TEST_F(ContextBaseTest, TensorAttr) {
  const ge::GeTensor* t = ctx_.GetTensorAttr("value");
  ASSERT_NE(t, nullptr);
  EXPECT_THAT(t->GetData(), ElementsAre(7, 9));
  EXPECT_EQ(ctx_.GetTensorAttr("axis"), nullptr);
  EXPECT_EQ(ctx_.GetTensorAttr("absent"), nullptr);
}

TEST(ContextBaseNoAttrsTest, EverythingAbsent) {
  ContextBase ctx;
  ctx.SetNode("n", "T");
  EXPECT_EQ(ctx.GetAttr("x"), nullptr);
  EXPECT_EQ(ge::GetErrorCode(ctx.GetInt("x").status()), ge::ErrorCode::kNotFound);
  EXPECT_EQ(*ctx.GetIntOr("x", 3), 3);
}

TEST(ContextBaseErrorTest, Prefix) {
  ContextBase ctx;
  ctx.SetNode("conv1", "Conv2D");
  ge::Status st = ctx.Error("input ", 0, " missing");
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kParamInvalid);
  EXPECT_EQ(st.message(), "node conv1 (Conv2D): input 0 missing");
  ge::Status nf = ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "x");
  EXPECT_EQ(ge::GetErrorCode(nf), ge::ErrorCode::kNotSupported);
  EXPECT_EQ(nf.message(), "node conv1 (Conv2D): x");
}

TEST(InferShapeContextBuilderTest, InputsOutputsAndIr) {
  ge::NamedAttrs attrs = MakeAttrs();
  HostTensor value = *HostTensor::Create(ge::DT_INT64, Shape{2});
  const ShapeRange range{{1, 8}, {3, 3}};
  InferShapeContextBuilder b;
  b.Node("cat", "Concat")
      .Attrs(&attrs)
      .Input(Shape{-1, 3}, ge::DT_FLOAT, nullptr, &range)
      .Input(Shape{2, 3}, ge::DT_FLOAT)
      .AbsentInput()
      .Input(Shape{2}, ge::DT_INT64, &value.tensor())
      .Outputs(2)
      .IrInputs({{0, 2}, {2, 0}, {3, 1}});
  InferShapeContext* ctx = b.Build();
  EXPECT_EQ(ctx->GetNodeName(), "cat");
  EXPECT_EQ(*ctx->GetInt("axis"), -1);
  EXPECT_EQ(ctx->GetInputNum(), 4u);
  EXPECT_EQ(*ctx->GetInputShape(0), (Shape{-1, 3}));
  EXPECT_EQ(ctx->GetInputShape(2), nullptr);
  EXPECT_EQ(ctx->GetInputShape(9), nullptr);
  EXPECT_EQ(ctx->GetInputDataType(1), ge::DT_FLOAT);
  EXPECT_EQ(ctx->GetInputDataType(2), ge::DT_UNDEFINED);
  EXPECT_EQ(ctx->GetInputDataType(9), ge::DT_UNDEFINED);
  EXPECT_EQ(ctx->GetInputTensor(0), nullptr);
  EXPECT_EQ(ctx->GetInputTensor(3), &value.tensor());
  ASSERT_NE(ctx->GetInputShapeRange(0), nullptr);
  EXPECT_EQ(*ctx->GetInputShapeRange(0), range);
  EXPECT_EQ(ctx->GetInputShapeRange(1), nullptr);
  EXPECT_EQ(ctx->GetIrInputInstance(0).count, 2u);
  EXPECT_EQ(ctx->GetIrInputInstance(2).start, 3u);
  EXPECT_EQ(ctx->GetIrInputInstance(7).count, 0u);

  ASSERT_EQ(ctx->GetOutputNum(), 2u);
  *ctx->GetOutputShape(1) = Shape{4, 3};
  ctx->SetOutputDataType(1, ge::DT_FLOAT16);
  ctx->SetOutputDataType(5, ge::DT_FLOAT16);  // ignored
  ctx->GetOutputShapeRange(1)->push_back({4, 4});
  EXPECT_EQ(ctx->GetOutputShape(2), nullptr);
  EXPECT_EQ(ctx->GetOutputShapeRange(2), nullptr);
  EXPECT_EQ(b.OutputShape(1), (Shape{4, 3}));
  EXPECT_EQ(b.OutputDataType(1), ge::DT_FLOAT16);
  EXPECT_EQ(b.OutputDataType(0), ge::DT_UNDEFINED);
  EXPECT_EQ(b.OutputShapeRange(1).size(), 1u);
}

class VectorAllocator : public OutputAllocator {
 public:
  ge::Status Allocate(size_t output_index, Tensor* tensor) override {
    if (fail) return ge::MemoryAllocFailed("pool exhausted");
    ge::StatusOr<HostTensor> t = HostTensor::Create(tensor->GetDataType(), tensor->GetShape());
    if (!t.ok()) return t.status();
    owned.push_back(std::move(t).value());
    tensor->SetData(owned.back().tensor().GetAddr(), owned.back().tensor().GetSize());
    last_index = output_index;
    return ge::OkStatus();
  }
  std::vector<HostTensor> owned;
  size_t last_index = 99;
  bool fail = false;
};

TEST(KernelContextTest, AllocateOutput) {
  Tensor out0, out1;
  VectorAllocator alloc;
  KernelRunContextBuilder b;
  KernelContext* ctx = b.Node("nz", "NonZero").Outputs({&out0, &out1}).Allocator(&alloc).Build();
  ge::StatusOr<Tensor*> t = ctx->AllocateOutput(1, Shape{2, 5}, ge::DT_INT64);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(*t, &out1);
  EXPECT_EQ(alloc.last_index, 1u);
  EXPECT_EQ(out1.GetShape(), (Shape{2, 5}));
  EXPECT_EQ(out1.GetDataType(), ge::DT_INT64);
  EXPECT_EQ(out1.GetSize(), 80u);
  EXPECT_NE(out1.GetAddr(), nullptr);

  ge::StatusOr<Tensor*> oob = ctx->AllocateOutput(2, Shape{1}, ge::DT_INT64);
  ASSERT_FALSE(oob.ok());
  EXPECT_EQ(ge::GetErrorCode(oob.status()), ge::ErrorCode::kOutOfRange);
  EXPECT_THAT(oob.status().message(), HasSubstr("node nz (NonZero)"));

  EXPECT_EQ(ge::GetErrorCode(ctx->AllocateOutput(0, Shape{-1}, ge::DT_INT64).status()),
            ge::ErrorCode::kParamInvalid);

  alloc.fail = true;
  ge::StatusOr<Tensor*> failed = ctx->AllocateOutput(0, Shape{1}, ge::DT_INT64);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(ge::GetErrorCode(failed.status()), ge::ErrorCode::kMemoryAllocFailed);
  EXPECT_THAT(failed.status().message(), HasSubstr("node nz (NonZero): pool exhausted"));
}

TEST(KernelContextTest, AllocateOutputWithoutAllocator) {
  Tensor out;
  KernelRunContextBuilder b;
  KernelContext* ctx = b.Node("u", "Unique").Outputs({&out}).Build();
  ge::StatusOr<Tensor*> t = ctx->AllocateOutput(0, Shape{3}, ge::DT_FLOAT);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(ge::GetErrorCode(t.status()), ge::ErrorCode::kNotSupported);
  EXPECT_THAT(t.status().message(), HasSubstr("node u (Unique)"));
  EXPECT_THAT(t.status().message(), HasSubstr("no OutputAllocator"));
}

class CountingRunner : public SubgraphRunner {
 public:
  ge::Status Run(size_t subgraph_index, absl::Span<const Tensor* const> inputs,
                 std::vector<HostTensor>* outputs) override {
    ++calls;
    last = subgraph_index;
    return ge::OkStatus();
  }
  int calls = 0;
  size_t last = 0;
};

TEST(KernelRunContextBuilderTest, Wiring) {
  HostTensor a = *HostTensor::Create(ge::DT_FLOAT, Shape{2});
  HostTensor y = *HostTensor::Create(ge::DT_FLOAT, Shape{2});
  CountingRunner runner;
  float ws[4];
  ge::NamedAttrs attrs = MakeAttrs();
  KernelRunContextBuilder b;
  KernelContext* ctx = b.Node("if1", "If")
                           .Attrs(&attrs)
                           .Inputs({&a.tensor(), nullptr})
                           .Outputs({&y.tensor()})
                           .IrInputs({{0, 1}, {1, 0}})
                           .Subgraphs(&runner)
                           .Workspaces({ws})
                           .Build();
  EXPECT_EQ(ctx->GetInputNum(), 2u);
  EXPECT_EQ(ctx->GetInputTensor(0), &a.tensor());
  EXPECT_EQ(ctx->GetInputTensor(1), nullptr);
  EXPECT_EQ(ctx->GetInputTensor(2), nullptr);
  EXPECT_EQ(ctx->GetOutputTensor(0), &y.tensor());
  EXPECT_EQ(ctx->GetOutputTensor(1), nullptr);
  EXPECT_EQ(ctx->GetIrInputInstance(1).start, 1u);
  EXPECT_EQ(*ctx->GetStr("mode"), "linear");
  ASSERT_EQ(ctx->GetWorkspaces().size(), 1u);
  EXPECT_EQ(ctx->GetWorkspaces()[0], ws);
  ASSERT_NE(ctx->GetSubgraphRunner(), nullptr);
  std::vector<HostTensor> outs;
  EXPECT_TRUE(ctx->GetSubgraphRunner()->Run(1, {}, &outs).ok());
  EXPECT_EQ(runner.calls, 1);
  EXPECT_EQ(runner.last, 1u);
}

TEST(TilingContextTest, DataWorkspacesAndBuilder) {
  HostTensor a = *HostTensor::Create(ge::DT_FLOAT, Shape{16, 16});
  Tensor out(Shape{16, 16}, ge::DT_FLOAT, nullptr, 0);
  TilingContextBuilder b;
  TilingContext* ctx = b.Node("mm", "MatMul").Inputs({&a.tensor()}).Outputs({&out}).Build();
  EXPECT_EQ(ctx->GetNodeType(), "MatMul");
  EXPECT_EQ(ctx->GetInputNum(), 1u);
  EXPECT_EQ(ctx->GetInputTensor(0)->GetShape(), (Shape{16, 16}));
  EXPECT_EQ(ctx->GetOutputTensor(0), &out);
  EXPECT_EQ(ctx->GetOutputTensor(3), nullptr);
  ctx->SetTilingKey(7);
  ctx->SetBlockDim(4);
  EXPECT_EQ(ctx->GetTilingKey(), 7u);
  EXPECT_EQ(ctx->GetBlockDim(), 4u);
  EXPECT_TRUE(ctx->AppendTilingData<int64_t>(123).ok());
  EXPECT_EQ(ctx->GetTilingData().size(), 8u);
  int64_t back = 0;
  __builtin_memcpy(&back, ctx->GetTilingData().data(), 8);
  EXPECT_EQ(back, 123);
  for (size_t i = 1; i < TilingContext::kMaxTilingDataBytes / 8; ++i) {
    ASSERT_TRUE(ctx->AppendTilingData<int64_t>(0).ok());
  }
  ge::Status full = ctx->AppendTilingData<int8_t>(1);
  EXPECT_EQ(ge::GetErrorCode(full), ge::ErrorCode::kOutOfRange);
  EXPECT_THAT(full.message(), HasSubstr("mm"));
  EXPECT_TRUE(ctx->SetWorkspaceSize(2, 64).ok());
  EXPECT_THAT(ctx->GetWorkspaceSizes(), ElementsAre(0, 0, 64));
  EXPECT_EQ(ge::GetErrorCode(ctx->SetWorkspaceSize(TilingContext::kMaxWorkspaces, 1)),
            ge::ErrorCode::kOutOfRange);
  // Rebuilding gives a fresh context (tiling state reset).
  TilingContext* again = b.Build();
  EXPECT_EQ(again->GetTilingData().size(), 0u);
  EXPECT_EQ(again->GetTilingKey(), 0u);
}

}  // namespace
}  // namespace gert
