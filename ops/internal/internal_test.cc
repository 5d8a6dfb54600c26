// ops/internal/internal_test.cc
//
// GE-internal ops: Data, Const, NetOutput, PartitionedCall, TransData and the
// RTS / TF-style control-flow ops (Switch, Merge, Enter, ..., stream and
// label ops).
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/control/control_test_util.h"

namespace ops {
namespace test {
namespace {

using ::testing::ElementsAre;

const gert::Shape kUnknownRank{ge::UNKNOWN_RANK};

ge::GeTensor FloatGeTensor(std::vector<int64_t> dims, const std::vector<float>& v) {
  ge::GeTensorDesc desc(ge::GeShape(dims), ge::FORMAT_ND, ge::DT_FLOAT);
  return ge::GeTensor(desc, reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(float));
}

// ------------------------------------------------------------------- Data

TEST(DataTest, ForwardsItsInput) {
  OpRunner r("Data");
  r.Attr<int64_t>("index", 1).Input(F32({2}, {1, 2}));
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.InferredShape(0), (gert::Shape{2}));
  EXPECT_EQ(r.InferredType(0), ge::DT_FLOAT);
  EXPECT_THAT(r.Values<float>(0), ElementsAre(1, 2));

  OpRunner seq("Data");
  seq.Input(SeqOf(I64({1}, {4})));
  ASSERT_OK(seq.Run());
  ASSERT_EQ(seq.Elements(0).size(), 1u);
  EXPECT_THAT(ValuesOf<int64_t>(seq.Elements(0)[0].tensor()), ElementsAre(4));
}

TEST(DataTest, InferFromAttributesOrKeepsDesc) {
  OpRunner attrs("Data");
  attrs.Attr<std::vector<int64_t>>("shape", {-1, 3})
      .Attr<ge::DataType>("dtype", ge::DT_INT32)
      .AbsentInput();
  ASSERT_OK(attrs.Infer());
  EXPECT_EQ(attrs.InferredShape(0), (gert::Shape{-1, 3}));
  EXPECT_EQ(attrs.InferredType(0), ge::DT_INT32);

  OpRunner keep("Data");
  keep.AbsentInput().PresetOutput(0, gert::Shape{7}, ge::DT_BOOL);
  ASSERT_OK(keep.Infer());
  EXPECT_EQ(keep.InferredShape(0), (gert::Shape{7}));
  EXPECT_EQ(keep.InferredType(0), ge::DT_BOOL);
}

TEST(DataTest, Errors) {
  OpRunner index("Data");
  index.Attr<int64_t>("index", -1).Input(F32({1}, {1}));
  EXPECT_TRUE(IsNodeError(index.Infer(), "attribute index is -1"));
  OpRunner dims("Data");
  dims.Attr<std::vector<int64_t>>("shape", {2, -5}).AbsentInput();
  EXPECT_TRUE(IsNodeError(dims.Infer(), "invalid dim -5"));
  OpRunner no_input("Data");
  no_input.AbsentInput().PresetOutput(0, gert::Shape{1}, ge::DT_FLOAT);
  EXPECT_TRUE(IsNodeError(no_input.Run(), "no input value to forward"));
}

// ------------------------------------------------------------------ Const

TEST(ConstTest, OutputsTheTensorAttribute) {
  OpRunner r("Const");
  r.Attr<ge::GeTensor>("value", FloatGeTensor({2, 2}, {1, 2, 3, 4}));
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.InferredShape(0), (gert::Shape{2, 2}));
  EXPECT_EQ(r.InferredType(0), ge::DT_FLOAT);
  EXPECT_THAT(r.Values<float>(0), ElementsAre(1, 2, 3, 4));
}

TEST(ConstTest, Errors) {
  OpRunner missing("Const");
  EXPECT_TRUE(IsNodeError(missing.Infer(), "'value' not found"));
  OpRunner wrong_type("Const");
  wrong_type.Attr<int64_t>("value", 3);
  EXPECT_TRUE(IsNodeError(wrong_type.Infer(), "expected tensor"));
  OpRunner short_data("Const");
  short_data.Attr<ge::GeTensor>("value", FloatGeTensor({3}, {1, 2}));
  EXPECT_TRUE(IsNodeError(short_data.Infer(), "needs 12 bytes but holds 8"));
  OpRunner unknown("Const");
  unknown.Attr<ge::GeTensor>("value", FloatGeTensor({-1}, {}));
  EXPECT_TRUE(IsNodeError(unknown.Infer(), "unknown shape"));
}

// -------------------------------------------------------------- NetOutput

TEST(NetOutputTest, AcceptsAnyInputsAndDoesNothing) {
  OpRunner r("NetOutput");
  r.Input(F32({1}, {1})).Input(SeqOf(F32({}, {2}))).Outputs(0);
  ASSERT_OK(r.Run());
}

// --------------------------------------------------------- PartitionedCall

TEST(PartitionedCallTest, RunsSubgraphF) {
  FakeSubgraphRunner f([](size_t index, absl::Span<const gert::Tensor* const> in,
                          std::vector<gert::HostTensor>* outs) {
    if (index != 0) return ge::ParamInvalid("wrong subgraph");
    std::vector<float> a = ValuesOf<float>(*in[0]);
    const std::vector<float> b = ValuesOf<float>(*in[1]);
    for (size_t i = 0; i < a.size(); ++i) a[i] *= b[i];
    outs->push_back(F32(in[0]->GetShape(), a));
    return ge::OkStatus();
  });
  OpRunner r("PartitionedCall");
  r.Input(F32({2}, {1, 2})).Input(F32({2}, {3, 4})).Subgraphs(&f);
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.InferredShape(0), kUnknownRank);
  EXPECT_EQ(r.InferredType(0), ge::DT_UNDEFINED);
  EXPECT_THAT(r.Values<float>(0), ElementsAre(3, 8));

  OpRunner no_runner("PartitionedCall");
  no_runner.Input(F32({1}, {1}));
  EXPECT_TRUE(IsNodeError(no_runner.Run(), "no SubgraphRunner"));
}

// --------------------------------------------------------------- TransData

TEST(TransDataTest, NchwToNc1hwc0AndBack) {
  std::vector<float> v(12);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i + 1);
  OpRunner to("TransData");
  to.Attr<std::string>("src_format", "NCHW")
      .Attr<std::string>("dst_format", "NC1HWC0")
      .Input(F32({1, 3, 2, 2}, v));
  ASSERT_OK(to.Run());
  EXPECT_EQ(to.InferredShape(0), (gert::Shape{1, 1, 2, 2, 16}));
  EXPECT_EQ(to.Out(0).GetFormat(), ge::FORMAT_NC1HWC0);
  const std::vector<float> blocked = to.Values<float>(0);
  ASSERT_EQ(blocked.size(), 64u);
  // (h, w) = (0, 1): channels 0..2 are x[0, c, 0, 1] = 2, 6, 10; the rest 0.
  EXPECT_EQ(blocked[16 + 0], 2);
  EXPECT_EQ(blocked[16 + 1], 6);
  EXPECT_EQ(blocked[16 + 2], 10);
  EXPECT_EQ(blocked[16 + 3], 0);

  OpRunner back("TransData");
  back.Attr<std::string>("src_format", "NC1HWC0")
      .Attr<std::string>("dst_format", "NCHW")
      .Input(F32({1, 1, 2, 2, 16}, blocked))
      .PresetOutput(0, gert::Shape{1, 3, 2, 2}, ge::DT_FLOAT);
  ASSERT_OK(back.Run());
  EXPECT_EQ(back.InferredShape(0), (gert::Shape{1, 3, 2, 2}));
  EXPECT_EQ(back.Values<float>(0), v);
}

TEST(TransDataTest, LogicalDimsChangeOnlyTheLayout) {
  // x[n, c, h, w] = 100n + 10c + 2h + w; NHWC memory holds (n, h, w, c).
  std::vector<float> v;
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 3; ++c)
      for (int h = 0; h < 2; ++h)
        for (int w = 0; w < 2; ++w) v.push_back(100 * n + 10 * c + 2 * h + w);
  OpRunner to("TransData");
  to.Attr<std::string>("src_format", "NCHW")
      .Attr<std::string>("dst_format", "NHWC")
      .Attr<bool>("_logical_dims", true)
      .Input(F32({2, 3, 2, 2}, v));
  ASSERT_OK(to.Run());
  EXPECT_EQ(to.InferredShape(0), (gert::Shape{2, 3, 2, 2}));  // dims stay logical
  const std::vector<float> last = to.Values<float>(0);
  // (n=1, h=1, w=0, c=2) at ((1*2 + 1)*2 + 0)*3 + 2.
  EXPECT_EQ(last[((1 * 2 + 1) * 2 + 0) * 3 + 2], 100 + 20 + 2);
  EXPECT_EQ(last[1], 10);  // (0, 0, 0, c=1)

  OpRunner back("TransData");
  back.Attr<std::string>("src_format", "NHWC")
      .Attr<std::string>("dst_format", "NCHW")
      .Attr<bool>("_logical_dims", true)
      .Input(F32({2, 3, 2, 2}, last));
  ASSERT_OK(back.Run());
  EXPECT_EQ(back.Values<float>(0), v);

  OpRunner bad("TransData");
  bad.Attr<std::string>("src_format", "NCHW")
      .Attr<std::string>("dst_format", "NHWC")
      .Attr<bool>("_logical_dims", true)
      .Input(F32({2, 3}, {1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(IsNodeError(bad.Infer(), "channels-first <-> channels-last"));
}

TEST(TransDataTest, BlockedToPlainNeedsTheLogicalShape) {
  OpRunner r("TransData");
  r.Attr<std::string>("src_format", "NC1HWC0")
      .Attr<std::string>("dst_format", "NCHW")
      .Input(F32({1, 1, 1, 1, 16}, std::vector<float>(16, 1.0f)));
  ASSERT_OK(r.Infer());
  EXPECT_EQ(r.InferredShape(0), kUnknownRank);
  EXPECT_TRUE(IsNodeError(r.Run(), "needs the logical output shape"));

  OpRunner wrong("TransData");
  wrong.Attr<std::string>("src_format", "NC1HWC0")
      .Attr<std::string>("dst_format", "NCHW")
      .Input(F32({1, 1, 1, 1, 16}, std::vector<float>(16, 1.0f)))
      .PresetOutput(0, gert::Shape{1, 17, 1, 1}, ge::DT_FLOAT);
  EXPECT_TRUE(IsNodeError(wrong.Infer(), "does not match input shape"));
}

TEST(TransDataTest, IdentityAndErrors) {
  OpRunner same("TransData");
  same.Attr<std::string>("src_format", "NCHW")
      .Attr<std::string>("dst_format", "FORMAT_NCHW")
      .Input(F32({1, 1, 1, 2}, {1, 2}));
  ASSERT_OK(same.Run());
  EXPECT_THAT(same.Values<float>(0), ElementsAre(1, 2));

  OpRunner unsupported("TransData");
  unsupported.Attr<std::string>("src_format", "ND")
      .Attr<std::string>("dst_format", "NC1HWC0")
      .Input(F32({2}, {1, 2}));
  EXPECT_TRUE(IsNodeError(unsupported.Infer(), "is not supported"));

  OpRunner bad_name("TransData");
  bad_name.Attr<std::string>("src_format", "NCWH")
      .Attr<std::string>("dst_format", "NCHW")
      .Input(F32({2}, {1, 2}));
  EXPECT_TRUE(IsNodeError(bad_name.Infer(), "src_format \"NCWH\""));

  OpRunner missing("TransData");
  missing.Attr<std::string>("src_format", "NCHW").Input(F32({2}, {1, 2}));
  EXPECT_TRUE(IsNodeError(missing.Infer(), "dst_format"));
}

// ------------------------------------------------------ forwarding RTS ops

TEST(ForwardingOpsTest, CopyTheirInputOnBothEngines) {
  for (const char* type : {"MemcpyAsync", "MemcpyAddrAsync", "Exit", "NextIteration"}) {
    for (const char* engine : {ge::kEngineRts, ge::kEngineHostCpu}) {
      OpRunner r(type);
      r.Input(Str({2}, {"p", "q"}));
      ASSERT_OK(r.Run(engine));
      EXPECT_EQ(r.InferredShape(0), (gert::Shape{2})) << type;
      EXPECT_THAT(r.Values<std::string>(0), ElementsAre("p", "q")) << type << " " << engine;
    }
  }
  OpRunner enter("Enter");
  enter.Attr<std::string>("frame_name", "while/frame").Input(I64({}, {5}));
  ASSERT_OK(enter.Run());
  EXPECT_THAT(enter.Values<int64_t>(0), ElementsAre(5));
  OpRunner no_frame("Enter");
  no_frame.Input(I64({}, {5}));
  ASSERT_OK(no_frame.Infer());  // the registry's attribute check rejects it in the compiler
  EXPECT_NE(ge::OpRegistry::Instance().Find("Enter")->FindAttr("frame_name"), nullptr);
  EXPECT_TRUE(ge::OpRegistry::Instance().Find("Enter")->FindAttr("frame_name")->required);

  OpRunner cond("LoopCond");
  cond.Input(Bool({}, {1}));
  ASSERT_OK(cond.Run(ge::kEngineRts));
  EXPECT_THAT(cond.Values<bool>(0), ElementsAre(true));
  OpRunner conds("LoopCond");
  conds.Input(Bool({2}, {1, 0}));
  EXPECT_TRUE(IsNodeError(conds.Infer(), "exactly one element"));
}

// ------------------------------------------------------------ Switch / Merge

TEST(SwitchTest, RoutesDataByPred) {
  for (int pred : {0, 1}) {
    OpRunner r("Switch");
    r.Input(F32({2}, {1, 2})).Input(Bool({}, {pred})).Outputs(2);
    ASSERT_OK(r.Run());
    EXPECT_EQ(r.InferredShape(0), (gert::Shape{2}));
    EXPECT_EQ(r.InferredShape(1), (gert::Shape{2}));
    const size_t taken = pred ? 1 : 0;
    EXPECT_THAT(r.Values<float>(taken), ElementsAre(1, 2));
    EXPECT_EQ(r.Out(1 - taken).GetAddr(), nullptr);  // dead
  }
  OpRunner preds("Switch");
  preds.Input(F32({1}, {1})).Input(Bool({2}, {1, 1})).Outputs(2);
  EXPECT_TRUE(IsNodeError(preds.Infer(), "(pred) must hold exactly one element"));
}

TEST(MergeTest, ForwardsFirstAvailableInput) {
  // A dead input: a tensor without data (what Switch leaves behind).
  for (const char* type : {"Merge", "StreamMerge"}) {
    OpRunner r(type);
    r.DeadInput(gert::Shape{2}, ge::DT_FLOAT).Input(F32({2}, {3, 4})).Outputs(2);
    ASSERT_OK(r.Run());
    EXPECT_EQ(r.OutShape(0), (gert::Shape{2}));
    EXPECT_THAT(r.Values<float>(0), ElementsAre(3, 4));
    EXPECT_EQ(r.InferredType(1), ge::DT_INT32);
    EXPECT_THAT(r.Values<int32_t>(1), ElementsAre(1));
  }
  OpRunner absent("Merge");
  absent.AbsentInput().Input(I64({}, {9})).Outputs(2);
  ASSERT_OK(absent.Run());
  EXPECT_THAT(absent.Values<int64_t>(0), ElementsAre(9));
  EXPECT_THAT(absent.Values<int32_t>(1), ElementsAre(1));

  OpRunner none("Merge");
  none.AbsentInput().AbsentInput().Outputs(2);
  EXPECT_TRUE(IsNodeError(none.Infer(), "no present input"));
  const ge::OpKernelDef* k =
      ge::OpRegistry::Instance().Find("Merge")->FindKernel(ge::kEngineHostCpu);
  EXPECT_TRUE(IsNodeError(none.RunKernelOnly(k->fn), "none of its 2 inputs is available"));
}

TEST(MergeTest, InferMergesShapesAndChecksDtypes) {
  OpRunner dims("Merge");
  dims.Input(F32({2, 3}, std::vector<float>(6)))
      .Input(F32({2, 4}, std::vector<float>(8)))
      .Outputs(2);
  ASSERT_OK(dims.Infer());
  EXPECT_EQ(dims.InferredShape(0), (gert::Shape{2, -1}));
  EXPECT_EQ(dims.InferredShape(1), gert::Shape());

  OpRunner ranks("Merge");
  ranks.Input(F32({2}, {1, 2})).Input(F32({1, 2}, {1, 2})).Outputs(2);
  ASSERT_OK(ranks.Infer());
  EXPECT_EQ(ranks.InferredShape(0), kUnknownRank);

  OpRunner types("Merge");
  types.Input(F32({1}, {1})).Input(I64({1}, {1})).Outputs(2);
  EXPECT_TRUE(IsNodeError(types.Infer(), "input 1 is DT_INT64 but input 0 is DT_FLOAT"));
}

// ---------------------------------------------------- stream / label ops

TEST(StreamOpsTest, RegisteredOnRtsOnly) {
  for (const char* type : {"StreamSwitch", "StreamActive", "Send", "Recv", "LabelSet", "LabelGoto",
                           "LabelSwitchByIndex"}) {
    const ge::OpRegistrationData* reg = ge::OpRegistry::Instance().Find(type);
    ASSERT_NE(reg, nullptr) << type;
    EXPECT_NE(reg->FindKernel(ge::kEngineRts), nullptr) << type;
    EXPECT_EQ(reg->FindKernel(ge::kEngineHostCpu), nullptr) << type;
    EXPECT_NE(reg->infer_shape, nullptr) << type;
  }
  OpRunner active("StreamActive");
  active.Attr<std::vector<int64_t>>("active_stream_list", {1, 2}).Outputs(0);
  ASSERT_OK(active.Run(ge::kEngineRts));
  OpRunner send("Send");
  send.Attr<int64_t>("event_id", 3).Outputs(0);
  ASSERT_OK(send.Run(ge::kEngineRts));
  OpRunner bad_event("Recv");
  bad_event.Attr<int64_t>("event_id", -1).Outputs(0);
  EXPECT_TRUE(IsNodeError(bad_event.Infer(), "event_id is -1"));
  OpRunner label("LabelSet");
  label.Attr<int64_t>("_label_switch_index", -2).Outputs(0);
  EXPECT_TRUE(IsNodeError(label.Infer(), "_label_switch_index is -2"));
}

TEST(StreamOpsTest, StreamSwitch) {
  OpRunner ok("StreamSwitch");
  ok.Attr<int64_t>("switch_condition", 4).Input(I64({}, {1})).Input(I64({1}, {2})).Outputs(0);
  ASSERT_OK(ok.Run(ge::kEngineRts));

  OpRunner cond("StreamSwitch");
  cond.Attr<int64_t>("switch_condition", 6).Input(I64({}, {1})).Input(I64({}, {2})).Outputs(0);
  EXPECT_TRUE(IsNodeError(cond.Infer(), "switch_condition is 6"));
  OpRunner types("StreamSwitch");
  types.Input(I64({}, {1})).Input(I32({}, {2})).Outputs(0);
  EXPECT_TRUE(IsNodeError(types.Infer(), "differ in dtype"));
  OpRunner shape("StreamSwitch");
  shape.Input(I64({2}, {1, 2})).Input(I64({}, {2})).Outputs(0);
  EXPECT_TRUE(IsNodeError(shape.Infer(), "(x1) must hold exactly one element"));
}

TEST(StreamOpsTest, LabelSwitchByIndex) {
  OpRunner ok("LabelSwitchByIndex");
  ok.Attr<std::vector<int64_t>>("_label_switch_list", {4, 5}).Input(I32({}, {1})).Outputs(0);
  ASSERT_OK(ok.Run(ge::kEngineRts));

  OpRunner range("LabelSwitchByIndex");
  range.Attr<std::vector<int64_t>>("_label_switch_list", {4, 5}).Input(I32({}, {2})).Outputs(0);
  const ge::Status st = range.Infer();
  EXPECT_TRUE(IsNodeError(st, "index 2 is out of range for _label_switch_list of 2 labels"));
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kOutOfRange);
  OpRunner kernel_range("LabelSwitchByIndex");
  kernel_range.Attr<std::vector<int64_t>>("_label_switch_list", {4})
      .Input(I32({}, {-1}))
      .Outputs(0)
      .InferWithValues(false);
  EXPECT_TRUE(IsNodeError(kernel_range.Run(ge::kEngineRts), "index -1 is out of range"));
  OpRunner empty("LabelSwitchByIndex");
  empty.Input(I32({}, {0})).Outputs(0);
  EXPECT_TRUE(IsNodeError(empty.Infer(), "_label_switch_list is empty"));
}

}  // namespace
}  // namespace test
}  // namespace ops
