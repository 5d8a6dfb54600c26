// graph/src/op_desc_test.cc
#include "graph/inc/graph/op_desc.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

GeTensorDesc Desc(int64_t dim, DataType dt = DT_FLOAT) {
  return GeTensorDesc(GeShape({dim}), FORMAT_ND, dt);
}

TEST(OpDescTest, Identity) {
  OpDesc op("conv", "Conv2D");
  EXPECT_EQ(op.GetName(), "conv");
  EXPECT_EQ(op.GetType(), "Conv2D");
  op.SetName("conv2");
  op.SetType("Conv3D");
  EXPECT_EQ(op.DebugString(), "conv2(Conv3D)");
  OpDesc empty;
  EXPECT_EQ(empty.GetName(), "");
  EXPECT_EQ(empty.GetAllInputsSize(), 0u);
}

TEST(OpDescTest, InputsByIndexAndByName) {
  OpDesc op("a", "Add");
  GE_ASSERT_OK(op.AddInputDesc("x1", Desc(1)));
  GE_ASSERT_OK(op.AddInputDesc("x2", Desc(2)));
  GE_ASSERT_OK(op.AddInputDesc(Desc(3)));  // unnamed -> __input2
  EXPECT_EQ(op.GetAllInputsSize(), 3u);
  EXPECT_EQ(op.GetInputIndexByName("x2"), 1);
  EXPECT_EQ(op.GetInputIndexByName("__input2"), 2);
  EXPECT_EQ(op.GetInputIndexByName("nope"), -1);
  EXPECT_EQ(op.GetInputNameByIndex(0), "x1");
  EXPECT_EQ(op.GetInputNameByIndex(9), "");
  EXPECT_EQ(op.GetInputDesc(1).GetShape(), GeShape({2}));
  EXPECT_EQ(op.GetInputDesc("x1").GetShape(), GeShape({1}));
  EXPECT_EQ(op.GetInputDesc(17), GeTensorDesc());
  EXPECT_EQ(op.MutableInputDesc(17), nullptr);
  EXPECT_EQ(op.MutableInputDesc("nope"), nullptr);
  EXPECT_EQ(op.GetAllInputName(),
            (std::map<std::string, uint32_t>{{"x1", 0}, {"x2", 1}, {"__input2", 2}}));
  EXPECT_EQ(op.GetAllInputNames(), (std::vector<std::string>{"x1", "x2", "__input2"}));
}

TEST(OpDescTest, DuplicateAndEmptyNamesAreRejected) {
  OpDesc op("a", "Add");
  GE_ASSERT_OK(op.AddInputDesc("x", Desc(1)));
  const Status dup = op.AddInputDesc("x", Desc(2));
  GE_EXPECT_CODE(dup, ErrorCode::kAlreadyExists);
  EXPECT_NE(std::string(dup.message()).find("'x'"), std::string::npos);
  GE_EXPECT_CODE(op.AddInputDesc("", Desc(1)), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(op.AddOutputDesc("", Desc(1)), ErrorCode::kParamInvalid);
  EXPECT_EQ(op.GetAllInputsSize(), 1u);
  // Inputs and outputs have separate name spaces.
  GE_EXPECT_OK(op.AddOutputDesc("x", Desc(1)));
}

TEST(OpDescTest, DynamicInputs) {
  OpDesc op("c", "Concat");
  GE_ASSERT_OK(op.AddInputDesc("axis", Desc(1, DT_INT32)));
  GE_ASSERT_OK(op.AddDynamicInputDesc("x", 3));
  EXPECT_EQ(op.GetAllInputNames(), (std::vector<std::string>{"axis", "x0", "x1", "x2"}));
  // Adding the same dynamic name again collides and changes nothing.
  GE_EXPECT_CODE(op.AddDynamicInputDesc("x", 2), ErrorCode::kAlreadyExists);
  EXPECT_EQ(op.GetAllInputsSize(), 4u);
  GE_ASSERT_OK(op.AddDynamicInputDesc("y", 2, /*is_push_back=*/false));
  EXPECT_EQ(op.GetAllInputNames(),
            (std::vector<std::string>{"y0", "y1", "axis", "x0", "x1", "x2"}));
  GE_ASSERT_OK(op.AddDynamicInputDescByIndex("z", 1, 3));
  EXPECT_EQ(op.GetInputIndexByName("z0"), 3);
  EXPECT_EQ(op.GetInputIndexByName("x0"), 4);
  GE_ASSERT_OK(op.AddDynamicOutputDesc("out", 2));
  EXPECT_EQ(op.GetAllOutputNames(), (std::vector<std::string>{"out0", "out1"}));
}

TEST(OpDescTest, MiddleAndForwardRenumberAndKeepDescs) {
  OpDesc op("n", "N");
  GE_ASSERT_OK(op.AddInputDesc("a", Desc(10)));
  GE_ASSERT_OK(op.AddInputDesc("b", Desc(20)));
  GeTensorDescPtr b_desc = op.MutableInputDesc("b");
  GE_ASSERT_OK(op.AddInputDescMiddle("m", 2, 1));
  EXPECT_EQ(op.GetAllInputNames(), (std::vector<std::string>{"a", "m0", "m1", "b"}));
  EXPECT_EQ(op.GetInputIndexByName("b"), 3);
  EXPECT_EQ(op.MutableInputDesc(3), b_desc);  // the same description object
  EXPECT_EQ(b_desc->GetShape(), GeShape({20}));
  GE_ASSERT_OK(op.AddInputDescForward("f", 2));
  EXPECT_EQ(op.GetAllInputNames(), (std::vector<std::string>{"f0", "f1", "a", "m0", "m1", "b"}));
  EXPECT_EQ(op.GetInputIndexByName("a"), 2);
  const Status bad = op.AddInputDescMiddle("late", 1, 7);
  GE_EXPECT_CODE(bad, ErrorCode::kOutOfRange);
  EXPECT_NE(std::string(bad.message()).find("7"), std::string::npos);
  GE_ASSERT_OK(op.AddOutputDesc("y", Desc(1)));
  GE_ASSERT_OK(op.AddOutputDescForward("o", 1));
  GE_ASSERT_OK(op.AddOutputDescMiddle("p", 1, 1));
  EXPECT_EQ(op.GetAllOutputNames(), (std::vector<std::string>{"o0", "p0", "y"}));
}

TEST(OpDescTest, UpdateInputNameIsAllOrNothing) {
  OpDesc op("n", "N");
  GE_ASSERT_OK(op.AddInputDesc("in_a", Desc(1)));
  GE_ASSERT_OK(op.AddInputDesc("in_b", Desc(2)));
  GE_ASSERT_OK(op.AddInputDesc("in_c", Desc(3)));
  GE_ASSERT_OK(op.UpdateInputName({{"x", 0}, {"y", 1}}));
  EXPECT_EQ(op.GetAllInputNames(), (std::vector<std::string>{"x", "y", "in_c"}));
  EXPECT_EQ(op.GetInputDesc("y").GetShape(), GeShape({2}));  // descs unchanged
  // Out of range index.
  GE_EXPECT_CODE(op.UpdateInputName({{"q", 5}}), ErrorCode::kOutOfRange);
  // Two names for one index.
  GE_EXPECT_CODE(op.UpdateInputName({{"p", 0}, {"q", 0}}), ErrorCode::kParamInvalid);
  // Result would clash with an untouched name.
  GE_EXPECT_CODE(op.UpdateInputName({{"in_c", 0}}), ErrorCode::kAlreadyExists);
  EXPECT_EQ(op.GetAllInputNames(), (std::vector<std::string>{"x", "y", "in_c"}));
  // Swapping names is fine.
  GE_ASSERT_OK(op.UpdateInputName({{"y", 0}, {"x", 1}}));
  EXPECT_EQ(op.GetInputIndexByName("y"), 0);
  GE_ASSERT_OK(op.AddOutputDesc("out", Desc(1)));
  GE_ASSERT_OK(op.UpdateOutputName({{"z", 0}}));
  EXPECT_EQ(op.GetOutputNameByIndex(0), "z");
}

TEST(OpDescTest, OptionalAndInvalidInputs) {
  OpDesc op("n", "N");
  GE_ASSERT_OK(op.AddInputDesc("x", Desc(1)));
  GeTensorDesc absent;
  absent.SetDataType(DT_UNDEFINED);
  absent.SetFormat(FORMAT_RESERVED);
  GE_ASSERT_OK(op.AddOptionalInputDesc("bias", absent));
  EXPECT_TRUE(op.IsOptionalInput("bias"));
  EXPECT_TRUE(op.IsOptionalInput(1u));
  EXPECT_FALSE(op.IsOptionalInput("x"));
  EXPECT_FALSE(op.IsOptionalInput(9u));
  EXPECT_EQ(op.GetOptionalInputNames(), std::vector<std::string>{"bias"});
  EXPECT_EQ(op.GetAllInputsSize(), 2u);
  EXPECT_EQ(op.GetInputsSize(), 1u);
  EXPECT_EQ(op.GetAllInputsDesc().size(), 1u);
  EXPECT_EQ(op.GetAllInputsDescPtr().size(), 1u);
  EXPECT_FALSE(op.InputIsSet("bias"));
  EXPECT_TRUE(op.InputIsSet("x"));
  GE_ASSERT_OK(op.UpdateInputDesc("bias", Desc(4)));
  EXPECT_TRUE(op.InputIsSet("bias"));
  EXPECT_EQ(op.GetInputsSize(), 2u);
}

TEST(OpDescTest, UpdateAndRemoveDescs) {
  OpDesc op("n", "N");
  GE_ASSERT_OK(op.AddInputDesc("x", Desc(1)));
  GeTensorDescPtr held = op.MutableInputDesc(0);
  GE_ASSERT_OK(op.UpdateInputDesc(0, Desc(5, DT_INT8)));
  EXPECT_EQ(held->GetDataType(), DT_INT8);  // updated in place
  GE_EXPECT_CODE(op.UpdateInputDesc(3, Desc(1)), ErrorCode::kOutOfRange);
  GE_EXPECT_CODE(op.UpdateInputDesc("zz", Desc(1)), ErrorCode::kNotFound);
  GE_ASSERT_OK(op.AddOutputDesc("y", Desc(1)));
  GE_ASSERT_OK(op.UpdateOutputDesc("y", Desc(2)));
  EXPECT_EQ(op.GetOutputDesc(0).GetShape(), GeShape({2}));
  GE_EXPECT_CODE(op.UpdateOutputDesc(4, Desc(1)), ErrorCode::kOutOfRange);
  GE_ASSERT_OK(op.RemoveInputDesc(0));
  EXPECT_EQ(op.GetAllInputsSize(), 0u);
  EXPECT_EQ(held->GetDataType(), DT_INT8);  // still valid for its holder
  GE_EXPECT_CODE(op.RemoveInputDesc(0), ErrorCode::kOutOfRange);
  GE_ASSERT_OK(op.RemoveOutputDesc(0));
  EXPECT_EQ(op.GetOutputsSize(), 0u);
}

TEST(OpDescTest, IrMetadataIsSharedCopyOnWrite) {
  OpDesc proto("", "Add");
  GE_ASSERT_OK(proto.AppendIrInput("x1", kIrInputRequired));
  GE_ASSERT_OK(proto.RegisterIrInput("x2", kIrInputOptional));
  GE_ASSERT_OK(proto.AppendIrInput("xs", kIrInputDynamic));
  GE_ASSERT_OK(proto.AppendIrOutput("y", kIrOutputRequired));
  GE_ASSERT_OK(proto.AppendIrAttrName("alpha"));
  GE_ASSERT_OK(proto.RegisterSubgraphIrName("body", kStatic));
  GE_ASSERT_OK(proto.RegisterSubgraphIrName("branches", kDynamic));
  GE_EXPECT_CODE(proto.AppendIrInput("x1", kIrInputRequired), ErrorCode::kAlreadyExists);
  GE_EXPECT_CODE(proto.AppendIrAttrName("alpha"), ErrorCode::kAlreadyExists);
  GE_EXPECT_CODE(proto.RegisterSubgraphIrName("body", kDynamic), ErrorCode::kAlreadyExists);

  OpDesc inst(proto);
  EXPECT_TRUE(inst.SharesIrMetaWith(proto));
  EXPECT_EQ(inst.GetIrInputs().size(), 3u);
  EXPECT_EQ(inst.GetIrInputs()[1].second, kIrInputOptional);
  EXPECT_EQ(inst.GetIrOutputs()[0].first, "y");
  EXPECT_EQ(inst.GetIrAttrNames(), std::vector<std::string>{"alpha"});
  EXPECT_EQ(inst.GetOrderedSubgraphIrNames()[1].first, "branches");
  EXPECT_EQ(*inst.GetSubgraphTypeByIrName("branches"), kDynamic);
  GE_EXPECT_CODE(inst.GetSubgraphTypeByIrName("nope"), ErrorCode::kNotFound);
  EXPECT_EQ(inst.GetSubgraphIrNames().size(), 2u);

  GE_ASSERT_OK(inst.AppendIrAttrName("beta"));  // unshares
  EXPECT_FALSE(inst.SharesIrMetaWith(proto));
  EXPECT_EQ(proto.GetIrAttrNames().size(), 1u);
  EXPECT_EQ(inst.GetIrAttrNames().size(), 2u);
}

TEST(OpDescTest, SubgraphSlotsAndInstances) {
  OpDesc op("if", "If");
  EXPECT_TRUE(op.GetSubgraphInstanceNames().empty());
  GE_ASSERT_OK(op.AddSubgraphName("then_branch"));
  GE_ASSERT_OK(op.AddSubgraphName("else_branch"));
  GE_EXPECT_CODE(op.AddSubgraphName("then_branch"), ErrorCode::kAlreadyExists);
  EXPECT_EQ(op.GetSubgraphInstanceNames(), (std::vector<std::string>{"", ""}));
  EXPECT_EQ(op.GetSubgraphNameIndexes(),
            (std::map<std::string, uint32_t>{{"then_branch", 0}, {"else_branch", 1}}));
  GE_ASSERT_OK(op.SetSubgraphInstanceName(1, "if_else"));
  GE_EXPECT_CODE(op.SetSubgraphInstanceName(2, "x"), ErrorCode::kOutOfRange);
  EXPECT_EQ(op.GetSubgraphInstanceName(1), "if_else");
  EXPECT_EQ(op.GetSubgraphInstanceName(5), "");
  EXPECT_EQ(*op.GetSubgraphNameByIndex(0), "then_branch");
  GE_EXPECT_CODE(op.GetSubgraphNameByIndex(3), ErrorCode::kNotFound);
  EXPECT_EQ(*op.GetSubgraphNameByInstanceName("if_else"), "else_branch");
  GE_EXPECT_CODE(op.GetSubgraphNameByInstanceName("zzz"), ErrorCode::kNotFound);
  GE_ASSERT_OK(op.RemoveSubgraphInstanceName("if_else"));
  EXPECT_EQ(op.GetSubgraphInstanceName(1), "");
  GE_EXPECT_CODE(op.RemoveSubgraphInstanceName("if_else"), ErrorCode::kNotFound);
  op.AddSubgraphInstanceName("extra");
  EXPECT_EQ(op.GetSubgraphInstanceNames().size(), 3u);
}

TEST(OpDescTest, CompileStateFields) {
  OpDesc op("n", "N");
  EXPECT_EQ(op.GetId(), 0);
  EXPECT_EQ(op.GetStreamId(), 0);
  EXPECT_TRUE(op.GetInputOffset().empty());
  EXPECT_EQ(op.GetOpEngineName(), "");
  op.SetId(12);
  op.SetStreamId(3);
  op.SetInputOffset({0, 64});
  op.SetOutputOffset({128});
  op.SetWorkspace({256});
  op.SetWorkspaceBytes({32});
  op.SetOpEngineName("compute_engine");
  op.SetOpKernelLibName("dnnl");
  op.SetSrcName({"a"});
  op.SetSrcIndex({0});
  op.SetDstName({"b"});
  op.SetDstIndex({1});
  op.SetIsInputConst({true, false});
  EXPECT_EQ(op.GetId(), 12);
  EXPECT_EQ(op.GetStreamId(), 3);
  EXPECT_EQ(op.GetInputOffset(), (std::vector<int64_t>{0, 64}));
  EXPECT_EQ(op.GetOutputOffset(), (std::vector<int64_t>{128}));
  EXPECT_EQ(op.GetWorkspace(), (std::vector<int64_t>{256}));
  EXPECT_EQ(op.GetWorkspaceBytes(), (std::vector<int64_t>{32}));
  EXPECT_EQ(op.GetOpEngineName(), "compute_engine");
  EXPECT_EQ(op.GetOpKernelLibName(), "dnnl");
  EXPECT_EQ(op.GetSrcName(), std::vector<std::string>{"a"});
  EXPECT_EQ(op.GetSrcIndex(), std::vector<int64_t>{0});
  EXPECT_EQ(op.GetDstName(), std::vector<std::string>{"b"});
  EXPECT_EQ(op.GetDstIndex(), std::vector<int64_t>{1});
  EXPECT_EQ(op.GetIsInputConst(), (std::vector<bool>{true, false}));
}

TEST(OpDescTest, FunctionSlots) {
  OpDesc op("n", "N");
  EXPECT_FALSE(op.HasInferFunc());
  GE_EXPECT_CODE(op.CallInferFunc(), ErrorCode::kNotFound);
  GE_EXPECT_CODE(op.CallInferFormatFunc(), ErrorCode::kNotFound);
  GE_EXPECT_CODE(op.CallVerifyFunc(), ErrorCode::kNotFound);
  GE_ASSERT_OK(op.AddOutputDesc("y", Desc(1)));
  op.SetInferFunc(
      [](OpDesc& self) { return self.UpdateOutputDesc(0, GeTensorDesc(GeShape({7}))); });
  op.SetInferFormatFunc([](OpDesc& self) {
    self.MutableOutputDesc(0)->SetFormat(FORMAT_NCHW);
    return OkStatus();
  });
  op.SetVerifyFunc([](OpDesc& self) {
    return self.GetOutputDesc(0).GetShape().GetDim(0) == 7 ? OkStatus() : ParamInvalid("bad shape");
  });
  EXPECT_TRUE(op.HasInferFunc());
  EXPECT_TRUE(op.HasInferFormatFunc());
  EXPECT_TRUE(op.HasVerifyFunc());
  GE_EXPECT_CODE(op.CallVerifyFunc(), ErrorCode::kParamInvalid);
  GE_ASSERT_OK(op.CallInferFunc());
  GE_ASSERT_OK(op.CallInferFormatFunc());
  EXPECT_EQ(op.GetOutputDesc(0).GetFormat(), FORMAT_NCHW);
  GE_EXPECT_OK(op.CallVerifyFunc());
  OpDesc copy(op);
  EXPECT_TRUE(copy.HasInferFunc());
}

TEST(OpDescTest, CopyIsDeep) {
  OpDesc op("n", "N");
  GE_ASSERT_OK(op.AddInputDesc("x", Desc(1)));
  GE_ASSERT_OK(op.AddOutputDesc("y", Desc(2)));
  GE_ASSERT_OK(op.SetAttr("k", AttrValue::CreateFrom<int64_t>(1)));
  op.SetWorkspace({1});
  GE_ASSERT_OK(op.AddSubgraphName("body"));
  OpDesc copy(op);
  EXPECT_NE(copy.MutableInputDesc(0), op.MutableInputDesc(0));
  copy.MutableInputDesc(0)->SetDataType(DT_INT64);
  GE_ASSERT_OK(copy.SetAttr("k", AttrValue::CreateFrom<int64_t>(2)));
  copy.SetWorkspace({9});
  GE_ASSERT_OK(copy.SetSubgraphInstanceName(0, "b1"));
  EXPECT_EQ(op.GetInputDesc(0).GetDataType(), DT_FLOAT);
  EXPECT_EQ(*op.GetAttr("k")->Get<int64_t>(), 1);
  EXPECT_EQ(op.GetWorkspace(), std::vector<int64_t>{1});
  EXPECT_EQ(op.GetSubgraphInstanceName(0), "");
  OpDesc assigned("other", "T");
  assigned = op;
  EXPECT_EQ(assigned.GetName(), "n");
  EXPECT_EQ(assigned.GetAllInputNames(), std::vector<std::string>{"x"});
}

TEST(OpDescTest, RenameEpochOnlyMovesForAttachedDescs) {
  OpDesc op("n", "N");
  const uint64_t before = GetOpDescRenameEpoch();
  op.SetName("m");
  EXPECT_EQ(GetOpDescRenameEpoch(), before);
}

}  // namespace
}  // namespace ge

namespace ge {
namespace {

TEST(OpDescTest, OptionalFlagsFollowInsertionsAndRemovals) {
  OpDesc op("n", "N");
  GE_ASSERT_OK(op.AddInputDesc("a", GeTensorDesc()));
  GE_ASSERT_OK(op.AddOptionalInputDesc("opt", GeTensorDesc()));
  GE_ASSERT_OK(op.AddInputDesc("b", GeTensorDesc()));
  GE_ASSERT_OK(op.AddInputDescForward("f", 2));  // f0 f1 a opt b
  EXPECT_TRUE(op.IsOptionalInput("opt"));
  EXPECT_EQ(op.GetInputIndexByName("opt"), 3);
  EXPECT_TRUE(op.IsOptionalInput(3u));
  EXPECT_FALSE(op.IsOptionalInput(4u));
  GE_ASSERT_OK(op.AddInputDescMiddle("m", 1, 5));  // f0 f1 a opt b m0
  EXPECT_FALSE(op.IsOptionalInput("m0"));
  GE_ASSERT_OK(op.RemoveInputDesc(0));  // f1 a opt b m0
  EXPECT_EQ(op.GetOptionalInputNames(), std::vector<std::string>{"opt"});
  EXPECT_TRUE(op.IsOptionalInput(2u));
  OpDesc copy(op);
  EXPECT_TRUE(copy.IsOptionalInput("opt"));
}

TEST(OpDescTest, HasExtStateTracksTheCompileStateExtension) {
  OpDesc op("a", "Add");
  EXPECT_FALSE(op.HasExtState());
  GE_ASSERT_OK(op.AddInputDesc(GeTensorDesc()));
  GE_ASSERT_OK(op.AddOutputDesc(GeTensorDesc()));
  op.SetId(3);
  op.SetStreamId(1);
  EXPECT_FALSE(op.HasExtState());  // ports, id and stream live inline
  EXPECT_TRUE(op.GetSubgraphInstanceNames().empty());
  EXPECT_TRUE(op.GetInputOffset().empty());
  // Engine and kernel lib names are set on every compiled op: inline too.
  op.SetOpEngineName("engine");
  op.SetOpKernelLibName("kernels");
  EXPECT_FALSE(op.HasExtState());
  EXPECT_EQ(op.GetOpEngineName(), "engine");
  EXPECT_EQ(op.GetOpKernelLibName(), "kernels");
  op.SetWorkspaceBytes({64});
  EXPECT_TRUE(op.HasExtState());
  OpDesc copy(op);
  EXPECT_TRUE(copy.HasExtState());
  OpDesc with_subgraph("b", "If");
  GE_ASSERT_OK(with_subgraph.AddSubgraphName("then_branch"));
  EXPECT_TRUE(with_subgraph.HasExtState());
  OpDesc optional_input("c", "T");
  GE_ASSERT_OK(optional_input.AddOptionalInputDesc("x", GeTensorDesc()));
  EXPECT_TRUE(optional_input.HasExtState());
}

TEST(OpDescTest, EngineNamesAreCopiedAssignedAndReset) {
  OpDesc op("a", "Add");
  EXPECT_EQ(op.GetOpEngineName(), "");
  EXPECT_EQ(op.GetOpKernelLibName(), "");
  op.SetOpEngineName("AIcoreEngine");
  op.SetOpKernelLibName("AIcoreKernel");
  OpDesc copy(op);
  EXPECT_EQ(copy.GetOpEngineName(), "AIcoreEngine");
  EXPECT_EQ(copy.GetOpKernelLibName(), "AIcoreKernel");
  copy.SetOpEngineName("DNN_VM_HOST_CPU");
  EXPECT_EQ(copy.GetOpEngineName(), "DNN_VM_HOST_CPU");
  EXPECT_EQ(op.GetOpEngineName(), "AIcoreEngine");  // independent
  OpDesc assigned("b", "Mul");
  assigned.SetOpKernelLibName("other");
  assigned = op;
  EXPECT_EQ(assigned.GetOpEngineName(), "AIcoreEngine");
  EXPECT_EQ(assigned.GetOpKernelLibName(), "AIcoreKernel");
  op.SetOpEngineName("");
  EXPECT_EQ(op.GetOpEngineName(), "");
  EXPECT_FALSE(op.HasExtState());
  // Long names (beyond any small-string buffer) round-trip too.
  const std::string long_name(200, 'e');
  op.SetOpEngineName(long_name);
  EXPECT_EQ(op.GetOpEngineName(), long_name);
}

// ---- shared (copy-on-write) extension state

// Copies of a prototype share its function slots, subgraph names and
// compile state until one side writes; writes never leak to the other side.
TEST(OpDescTest, ExtensionStateIsSharedCopyOnWrite) {
  OpDesc proto("p", "If");
  int calls = 0;
  proto.SetInferFunc([&calls](OpDesc& o) {
    ++calls;
    o.SetId(42);
    return OkStatus();
  });
  proto.SetVerifyFunc([](OpDesc& o) { return NotFound("verify ", o.GetName()); });
  GE_ASSERT_OK(proto.AddSubgraphName("then_branch"));
  GE_ASSERT_OK(proto.AddOptionalInputDesc("x", GeTensorDesc()));
  proto.SetInputOffset({1, 2});

  OpDesc a(proto);
  OpDesc b(proto);
  ASSERT_TRUE(a.HasInferFunc());
  // Reading shares: the function object is the prototype's.
  EXPECT_EQ(&a.GetInferFunc(), &proto.GetInferFunc());
  EXPECT_EQ(&a.GetSubgraphInstanceNames(), &b.GetSubgraphInstanceNames());
  GE_ASSERT_OK(a.CallInferFunc());
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(a.GetId(), 42);
  EXPECT_EQ(proto.GetId(), 0);
  EXPECT_EQ(GetErrorCode(b.CallVerifyFunc()), ErrorCode::kNotFound);

  // Writes unshare.
  GE_ASSERT_OK(a.SetSubgraphInstanceName(0, "then_a"));
  EXPECT_NE(&a.GetSubgraphInstanceNames(), &b.GetSubgraphInstanceNames());
  EXPECT_EQ(a.GetSubgraphInstanceName(0), "then_a");
  EXPECT_EQ(b.GetSubgraphInstanceName(0), "");
  EXPECT_EQ(proto.GetSubgraphInstanceName(0), "");
  EXPECT_TRUE(a.HasInferFunc());  // everything else came along
  EXPECT_TRUE(a.IsOptionalInput("x"));
  EXPECT_EQ(a.GetInputOffset(), (std::vector<int64_t>{1, 2}));

  b.SetInferFunc(nullptr);
  EXPECT_FALSE(b.HasInferFunc());
  EXPECT_TRUE(proto.HasInferFunc());
  b.SetInputOffset({9});
  EXPECT_EQ(proto.GetInputOffset(), (std::vector<int64_t>{1, 2}));

  OpDesc c(proto);
  EXPECT_EQ(GetErrorCode(c.RemoveSubgraphInstanceName("then_c")), ErrorCode::kNotFound);
  GE_ASSERT_OK(proto.SetSubgraphInstanceName(0, "then_p"));
  EXPECT_EQ(c.GetSubgraphInstanceName(0), "");
  GE_ASSERT_OK(c.SetSubgraphInstanceName(0, "then_p"));
  GE_ASSERT_OK(c.RemoveSubgraphInstanceName("then_p"));
  EXPECT_EQ(c.GetSubgraphInstanceName(0), "");
  EXPECT_EQ(proto.GetSubgraphInstanceName(0), "then_p");

  // Optional-input flags move with inserted / removed inputs per copy.
  OpDesc d(proto);
  GE_ASSERT_OK(d.AddInputDesc("y", GeTensorDesc()));
  GE_ASSERT_OK(d.AddDynamicInputDescByIndex("z", 1, 0));  // z0 x y
  EXPECT_TRUE(d.IsOptionalInput(1u));
  EXPECT_FALSE(d.IsOptionalInput(0u));
  GE_ASSERT_OK(d.RemoveInputDesc(1));  // z0 y
  EXPECT_TRUE(d.GetOptionalInputNames().empty());
  EXPECT_TRUE(proto.IsOptionalInput(0u));
  EXPECT_EQ(proto.GetAllInputsSize(), 1u);
}

// A function that replaces itself (or otherwise writes the shared state)
// while it runs sees a consistent object.
TEST(OpDescTest, FunctionReplacingItselfOnASharedCopy) {
  OpDesc proto("p", "Relu");
  proto.SetInferFunc([](OpDesc& o) {
    o.SetInferFunc(nullptr);
    o.AddSubgraphInstanceName("late");
    return OkStatus();
  });
  OpDesc copy(proto);
  GE_ASSERT_OK(copy.CallInferFunc());
  EXPECT_FALSE(copy.HasInferFunc());
  EXPECT_TRUE(proto.HasInferFunc());
  EXPECT_EQ(copy.GetSubgraphInstanceNames(), std::vector<std::string>{"late"});
  EXPECT_TRUE(proto.GetSubgraphInstanceNames().empty());
}

// Removed pinned descriptions stay valid for outstanding pointers even when
// the extension state holding them is shared with copies or assigned over.
TEST(OpDescTest, RetiredDescriptionsSurviveSharingAndAssignment) {
  auto op = OpDesc::Create("a", "Add");
  GE_ASSERT_OK(op->AddInputDesc("x", GeTensorDesc(GeShape({7}))));
  GE_ASSERT_OK(op->AddInputDesc("y", GeTensorDesc(GeShape({8}))));
  op->SetInputOffset({0, 0});
  const GeTensorDesc* x = op->GetInputDescBarePtr(0);
  GE_ASSERT_OK(op->RemoveInputDesc(0));
  OpDesc copy(*op);  // shares the extension with the retired x
  EXPECT_EQ(x->GetShape().GetDim(0), 7);
  OpDesc other("o", "Mul");
  *op = other;  // op's old state is still shared with copy
  EXPECT_EQ(x->GetShape().GetDim(0), 7);
  copy = other;
  EXPECT_EQ(x->GetShape().GetDim(0), 7);
  const GeTensorDesc* y = copy.GetInputDescBarePtr(0);
  EXPECT_EQ(y, nullptr);  // other has no inputs
  EXPECT_EQ(op->GetAllInputsSize(), 0u);
}

// ---- shared (copy-on-write) descriptions

TEST(OpDescTest, EqualDescsAddedInARowAreSharedUntilAPointerIsHandedOut) {
  OpDesc a("a", "Add");
  OpDesc b("b", "Add");
  GE_ASSERT_OK(a.AddInputDesc(Desc(7)));
  GE_ASSERT_OK(b.AddInputDesc(Desc(7)));
  GE_ASSERT_OK(b.AddOutputDesc(Desc(8)));
  EXPECT_EQ(a.PeekInputDesc(0), b.PeekInputDesc(0));  // one shared object
  EXPECT_NE(b.PeekInputDesc(0), b.PeekOutputDesc(0));
  EXPECT_EQ(a.PeekInputDesc(1), nullptr);
  EXPECT_EQ(b.PeekOutputDesc(1), nullptr);

  GeTensorDescPtr pa = a.MutableInputDesc(0);
  ASSERT_NE(pa, nullptr);
  pa->SetDataType(DT_INT32);
  pa->MutableShape().SetDims({3, 3});
  EXPECT_EQ(a.GetInputDesc(0).GetDataType(), DT_INT32);
  EXPECT_EQ(b.GetInputDesc(0).GetDataType(), DT_FLOAT);  // b unaffected
  EXPECT_EQ(b.GetInputDesc(0).GetShape(), GeShape({7}));
  // Pinned: every later pointer is the same object.
  EXPECT_EQ(a.GetInputDescBarePtr(0), pa.get());
  EXPECT_EQ(a.PeekInputDesc(0), pa.get());
  EXPECT_EQ(a.MutableInputDesc("__input0").get(), pa.get());
  const GeTensorDesc* pb = b.GetInputDescBarePtr(0);
  EXPECT_NE(pb, pa.get());
  EXPECT_EQ(b.GetInputDescBarePtr(0), pb);
}

TEST(OpDescTest, CopiesShareUnpinnedDescsAndDeepCopyPinnedOnes) {
  OpDesc a("a", "Add");
  GE_ASSERT_OK(a.AddInputDesc(Desc(1)));
  GE_ASSERT_OK(a.AddOutputDesc(Desc(2)));
  GeTensorDesc* pinned = a.MutableOutputDesc(0).get();
  OpDesc c(a);
  EXPECT_EQ(c.PeekInputDesc(0), a.PeekInputDesc(0));    // unpinned: shared
  EXPECT_NE(c.PeekOutputDesc(0), a.PeekOutputDesc(0));  // pinned: copied
  pinned->SetFormat(FORMAT_NCHW);                       // through the old pointer
  EXPECT_EQ(a.GetOutputDesc(0).GetFormat(), FORMAT_NCHW);
  EXPECT_EQ(c.GetOutputDesc(0).GetFormat(), FORMAT_ND);
  c.MutableInputDesc(0)->SetDataType(DT_INT8);
  EXPECT_EQ(a.GetInputDesc(0).GetDataType(), DT_FLOAT);
  EXPECT_EQ(c.GetInputDesc(0).GetDataType(), DT_INT8);

  // Assignment keeps the old pinned description alive for its pointer.
  OpDesc d("d", "Relu");
  GE_ASSERT_OK(d.AddOutputDesc(Desc(5)));
  GeTensorDescPtr old = d.MutableOutputDesc(0);
  d = a;
  EXPECT_EQ(old->GetShape(), GeShape({5}));
  EXPECT_EQ(d.GetOutputDesc(0).GetFormat(), FORMAT_NCHW);
  EXPECT_NE(d.GetOutputDescBarePtr(0), old.get());
}

TEST(OpDescTest, UpdatesReachPinnedPointersAndNotOtherSharers) {
  OpDesc a("a", "Add");
  OpDesc b("b", "Add");
  GE_ASSERT_OK(a.AddOutputDesc(Desc(4)));
  GE_ASSERT_OK(b.AddOutputDesc(Desc(4)));
  GE_ASSERT_OK(a.UpdateOutputDesc(0, Desc(9)));  // a shared one: replaced
  EXPECT_EQ(a.GetOutputDesc(0).GetShape(), GeShape({9}));
  EXPECT_EQ(b.GetOutputDesc(0).GetShape(), GeShape({4}));
  GeTensorDescPtr pb = b.MutableOutputDesc(0);
  GE_ASSERT_OK(b.UpdateOutputDesc(0, Desc(6)));  // a pinned one: written in place
  EXPECT_EQ(pb->GetShape(), GeShape({6}));
  EXPECT_EQ(b.GetOutputDescBarePtr(0), pb.get());
  EXPECT_EQ(a.GetOutputDesc(0).GetShape(), GeShape({9}));
}

TEST(OpDescTest, RemovedPinnedDescStaysValidAndSharedOnesAreReleased) {
  OpDesc a("a", "Add");
  OpDesc b("b", "Add");
  GE_ASSERT_OK(a.AddInputDesc(Desc(3)));
  GE_ASSERT_OK(a.AddInputDesc(Desc(3)));
  GE_ASSERT_OK(b.AddInputDesc(Desc(3)));
  GeTensorDescPtr p0 = a.MutableInputDesc(0);
  GE_ASSERT_OK(a.RemoveInputDesc(0));
  GE_ASSERT_OK(a.RemoveInputDesc(0));  // the shared one
  EXPECT_EQ(a.GetAllInputsSize(), 0u);
  EXPECT_EQ(p0->GetShape(), GeShape({3}));  // still alive (ASan checks)
  EXPECT_EQ(b.GetInputDesc(0).GetShape(), GeShape({3}));
  EXPECT_FALSE(a.RemoveInputDesc(0).ok());
}

TEST(OpDescTest, ConcurrentReadersUnshareOnce) {
  OpDesc other("other", "Add");
  GE_ASSERT_OK(other.AddInputDesc(Desc(11)));
  auto op = OpDesc::Create("op", "Add");
  GE_ASSERT_OK(op->AddInputDesc(Desc(11)));
  ASSERT_EQ(op->PeekInputDesc(0), other.PeekInputDesc(0));
  constexpr int kThreads = 4;
  std::vector<const GeTensorDesc*> seen(kThreads, nullptr);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&op, &seen, t] { seen[t] = op->GetInputDescBarePtr(0); });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(seen[t], seen[0]) << t;
  EXPECT_EQ(op->GetInputDescBarePtr(0), seen[0]);
  EXPECT_NE(seen[0], other.PeekInputDesc(0));
  EXPECT_EQ(*seen[0], *other.PeekInputDesc(0));
}

}  // namespace
}  // namespace ge

namespace ge {
namespace {

TEST(OpDescTest, ShareIrMetaFromSharesCopyOnWrite) {
  OpDesc proto("p", "Conv2D");
  ASSERT_TRUE(proto.AppendIrInput("x", kIrInputRequired).ok());
  ASSERT_TRUE(proto.AppendIrAttrName("strides").ok());
  OpDesc inst("i", "Conv2D");
  ASSERT_TRUE(inst.AppendIrInput("old", kIrInputDynamic).ok());
  inst.ShareIrMetaFrom(proto);  // replaces the old metadata
  EXPECT_TRUE(inst.SharesIrMetaWith(proto));
  ASSERT_EQ(inst.GetIrInputs().size(), 1u);
  EXPECT_EQ(inst.GetIrInputs()[0].first, "x");
  inst.ShareIrMetaFrom(inst);  // self: no change
  EXPECT_TRUE(inst.SharesIrMetaWith(proto));
  ASSERT_TRUE(inst.AppendIrInput("y", kIrInputOptional).ok());
  EXPECT_FALSE(inst.SharesIrMetaWith(proto));
  EXPECT_EQ(proto.GetIrInputs().size(), 1u);
  EXPECT_EQ(inst.GetIrInputs().size(), 2u);
  OpDesc empty;
  inst.ShareIrMetaFrom(empty);  // an op without metadata
  EXPECT_TRUE(inst.GetIrInputs().empty());
  EXPECT_FALSE(inst.SharesIrMetaWith(empty));
}

TEST(OpDescTest, ReservePortsKeepsPortsAndPointers) {
  OpDesc op("r", "Add");
  ASSERT_TRUE(op.AddInputDesc("x", GeTensorDesc(GeShape({2}))).ok());
  const GeTensorDesc* x = op.GetInputDescBarePtr(0);
  op.ReservePorts(100);
  op.ReservePorts(0);
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(op.AddOutputDesc(GeTensorDesc(GeShape({i}))).ok());
  }
  EXPECT_EQ(op.GetInputDescBarePtr(0), x);  // descriptions are stable
  EXPECT_EQ(op.GetAllInputsSize(), 1u);
  EXPECT_EQ(op.GetOutputsSize(), 50u);
  EXPECT_EQ(op.GetOutputDesc(49).GetShape().GetDim(0), 49);
  EXPECT_EQ(op.GetOutputNameByIndex(3), "__output3");
}

// std::make_shared and OpDesc::Create give equivalent, independent objects
// (the state lives in a pooled body either way).
TEST(OpDescTest, MakeSharedAndCreateAreEquivalent) {
  OpDescPtr a = std::make_shared<OpDesc>("a", "Relu");
  OpDescPtr b = OpDesc::Create("a", "Relu");
  for (const OpDescPtr& op : {a, b}) {
    ASSERT_TRUE(op->AddInputDesc(GeTensorDesc(GeShape({1, 2}))).ok());
    ASSERT_TRUE(op->AddOutputDesc("y", GeTensorDesc(GeShape({1, 2}))).ok());
    op->SetInputOffset({16});
    EXPECT_TRUE(op->HasExtState());
  }
  EXPECT_EQ(a->GetName(), b->GetName());
  EXPECT_EQ(a->GetInternedType(), b->GetInternedType());
  EXPECT_EQ(a->GetInputOffset(), b->GetInputOffset());
  // A desc pointer keeps the OpDesc (and its body) alive.
  GeTensorDescPtr y = a->MutableOutputDesc(0);
  a.reset();
  EXPECT_EQ(y->GetShape().GetDim(1), 2);
  // Copies own their own body.
  OpDesc copy(*b);
  copy.SetName("c");
  ASSERT_TRUE(copy.UpdateOutputDesc(0, GeTensorDesc(GeShape({7}))).ok());
  EXPECT_EQ(b->GetName(), "a");
  EXPECT_EQ(b->GetOutputDesc(0).GetShape().GetDim(0), 1);
  EXPECT_EQ(copy.GetInputOffset(), std::vector<int64_t>({16}));
  copy = *b;
  EXPECT_EQ(copy.GetName(), "a");
  EXPECT_EQ(copy.GetOutputDesc(0).GetShape().GetDim(0), 1);
}

}  // namespace
}  // namespace ge
