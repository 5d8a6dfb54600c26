// ops/control/control_test.cc
//
// If / Loop / Scan: infer shape and kernels with fake subgraph bodies
// (ONNX cases test_if, test_if_seq, test_loop11, test_loop13_seq,
// test_scan9_sum re-enacted by hand).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/control/control_test_util.h"

namespace ops {
namespace test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const gert::Shape kUnknownRank{ge::UNKNOWN_RANK};

// ------------------------------------------------------------ registration

TEST(ControlRegistrationTest, SubgraphSlotsAndFactory) {
  const ge::OpRegistrationData* reg = ge::OpRegistry::Instance().Find("If");
  ASSERT_NE(reg, nullptr);
  ASSERT_EQ(reg->subgraphs.size(), 2u);
  EXPECT_EQ(reg->subgraphs[0].name, "then_branch");
  EXPECT_EQ(reg->subgraphs[1].name, "else_branch");
  for (const char* type : {"Loop", "Scan"}) {
    const ge::OpRegistrationData* r = ge::OpRegistry::Instance().Find(type);
    ASSERT_NE(r, nullptr) << type;
    ASSERT_EQ(r->subgraphs.size(), 1u) << type;
    EXPECT_EQ(r->subgraphs[0].name, "body") << type;
    EXPECT_NE(r->FindKernel(ge::kEngineHostCpu), nullptr) << type;
  }

  // Through the factory and the registry's infer entry point, as the
  // compiler calls it.
  ge::StatusOr<ge::OpDescPtr> op =
      ge::OperatorFactory::CreateOpDesc("if1", "If", {{"input", 1}, {"output", 2}});
  ASSERT_TRUE(op.ok()) << op.status().message();
  EXPECT_EQ((*op)->GetSubgraphInstanceNames().size(), 2u);
  ASSERT_OK((*op)->UpdateInputDesc(0, ge::GeTensorDesc(ge::GeShape(), ge::FORMAT_ND, ge::DT_BOOL)));
  ASSERT_OK(
      (*op)->UpdateInputDesc(1, ge::GeTensorDesc(ge::GeShape({2}), ge::FORMAT_ND, ge::DT_FLOAT)));
  ASSERT_OK(ge::InferShapeAndTypeForOpDesc(**op));
  EXPECT_EQ((*op)->GetOutputDesc(0).GetDataType(), ge::DT_UNDEFINED);
  EXPECT_TRUE((*op)->GetOutputDesc(1).GetShape().IsUnknownDimNum());

  ASSERT_OK(
      (*op)->UpdateInputDesc(0, ge::GeTensorDesc(ge::GeShape({3}), ge::FORMAT_ND, ge::DT_BOOL)));
  const ge::Status st = ge::InferShapeAndTypeForOpDesc(**op);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("if1"));
}

// ------------------------------------------------------------------- If

FakeSubgraphRunner IfBranches() {
  return FakeSubgraphRunner([](size_t index, absl::Span<const gert::Tensor* const> inputs,
                               std::vector<gert::HostTensor>* outs) {
    // then: [1..5]; else: [5..1] (test_if); plus the first input after cond
    // doubled. inputs[0] is cond (runner input k = the If node's input k).
    outs->push_back(index == 0 ? F32({5}, {1, 2, 3, 4, 5}) : F32({5}, {5, 4, 3, 2, 1}));
    if (inputs.empty() || inputs[0]->GetDataType() != ge::DT_BOOL) {
      return ge::Internal("the branch did not receive cond as input 0");
    }
    if (inputs.size() > 1) {
      std::vector<float> v = ValuesOf<float>(*inputs[1]);
      for (float& f : v) f *= 2;
      outs->push_back(F32(inputs[1]->GetShape(), v));
    }
    return ge::OkStatus();
  });
}

TEST(IfTest, InferIsUnknownWithoutHints) {
  OpRunner r("If");
  r.Input(Bool({}, {1})).Outputs(2);
  ASSERT_OK(r.Infer());
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r.InferredShape(i), kUnknownRank);
    EXPECT_EQ(r.InferredType(i), ge::DT_UNDEFINED);
  }
}

TEST(IfTest, InferTakesHints) {
  OpRunner r("If");
  r.Attr<std::vector<std::vector<int64_t>>>("_output_shapes", {{5}, {-2}})
      .Attr<std::vector<ge::DataType>>("_output_dtypes", {ge::DT_FLOAT, ge::DT_UNDEFINED})
      .Input(Bool({}, {1}))
      .Outputs(2);
  ASSERT_OK(r.Infer());
  EXPECT_EQ(r.InferredShape(0), (gert::Shape{5}));
  EXPECT_EQ(r.InferredType(0), ge::DT_FLOAT);
  EXPECT_EQ(r.InferredShape(1), kUnknownRank);
  EXPECT_EQ(r.InferredType(1), ge::DT_UNDEFINED);
}

TEST(IfTest, InferRejectsBadHintsAndCond) {
  OpRunner wrong_count("If");
  wrong_count.Attr<std::vector<std::vector<int64_t>>>("_output_shapes", {{5}})
      .Input(Bool({}, {1}))
      .Outputs(2);
  EXPECT_TRUE(IsNodeError(wrong_count.Infer(), "has 1 entries for 2 outputs"));

  OpRunner wrong_type("If");
  wrong_type.Attr<int64_t>("_output_shapes", 3).Input(Bool({}, {1}));
  EXPECT_TRUE(IsNodeError(wrong_type.Infer(), "expected list_list_int"));

  OpRunner bad_dim("If");
  bad_dim.Attr<std::vector<std::vector<int64_t>>>("_output_shapes", {{2, -3}}).Input(Bool({}, {1}));
  EXPECT_TRUE(IsNodeError(bad_dim.Infer(), "invalid dim -3"));

  OpRunner two_conds("If");
  two_conds.Input(Bool({2}, {1, 0}));
  EXPECT_TRUE(IsNodeError(two_conds.Infer(), "exactly one element"));
}

TEST(IfTest, RunsThenOrElseBranch) {
  FakeSubgraphRunner branches = IfBranches();
  OpRunner t("If");
  t.Input(Bool({}, {1})).Subgraphs(&branches);
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{5}));
  EXPECT_EQ(t.OutType(0), ge::DT_FLOAT);
  EXPECT_THAT(t.Values<float>(0), ElementsAre(1, 2, 3, 4, 5));

  OpRunner e("If");
  e.Input(Bool({1}, {0})).Subgraphs(&branches);  // a 1-element tensor is fine
  ASSERT_OK(e.Run());
  EXPECT_THAT(e.Values<float>(0), ElementsAre(5, 4, 3, 2, 1));
  EXPECT_THAT(branches.calls(), ElementsAre(0u, 1u));
}

TEST(IfTest, PassesInputsToTheBranch) {
  FakeSubgraphRunner branches = IfBranches();
  OpRunner r("If");
  r.Input(Bool({}, {0})).Input(F32({2}, {1.5f, -2})).Outputs(2).Subgraphs(&branches);
  ASSERT_OK(r.Run());
  EXPECT_THAT(r.Values<float>(0), ElementsAre(5, 4, 3, 2, 1));
  EXPECT_THAT(r.Values<float>(1), ElementsAre(3, -4));
}

TEST(IfTest, HintedOutputIsFilledInPlace) {
  FakeSubgraphRunner branches = IfBranches();
  OpRunner r("If");
  r.Attr<std::vector<std::vector<int64_t>>>("_output_shapes", {{5}})
      .Attr<std::vector<ge::DataType>>("_output_dtypes", {ge::DT_FLOAT})
      .Input(Bool({}, {1}))
      .Subgraphs(&branches);
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.allocations(), 0);  // preallocated from the hint
  EXPECT_THAT(r.Values<float>(0), ElementsAre(1, 2, 3, 4, 5));

  // A wrong hint is caught when the branch disagrees.
  OpRunner wrong("If");
  wrong.Attr<std::vector<std::vector<int64_t>>>("_output_shapes", {{4}})
      .Attr<std::vector<ge::DataType>>("_output_dtypes", {ge::DT_FLOAT})
      .Input(Bool({}, {1}))
      .Subgraphs(&branches);
  EXPECT_TRUE(IsNodeError(wrong.Run(), "prepared as [4]"));
}

TEST(IfTest, SequenceOutput) {
  // test_if_seq: the branch returns a sequence.
  FakeSubgraphRunner branches(
      [](size_t, absl::Span<const gert::Tensor* const>, std::vector<gert::HostTensor>* outs) {
        outs->push_back(SeqOf(F32({5}, {1, 2, 3, 4, 5})));
        return ge::OkStatus();
      });
  OpRunner r("If");
  r.Input(Bool({}, {1})).Subgraphs(&branches);
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.OutType(0), ge::DT_VARIANT);
  ASSERT_EQ(r.Elements(0).size(), 1u);
  EXPECT_THAT(ValuesOf<float>(r.Elements(0)[0].tensor()), ElementsAre(1, 2, 3, 4, 5));
}

TEST(IfTest, KernelErrors) {
  FakeSubgraphRunner branches = IfBranches();
  OpRunner no_runner("If");
  no_runner.Input(Bool({}, {1}));
  EXPECT_TRUE(IsNodeError(no_runner.Run(), "no SubgraphRunner"));

  OpRunner count("If");
  count.Input(Bool({}, {1})).Outputs(3).Subgraphs(&branches);
  EXPECT_TRUE(IsNodeError(count.Run(), "produced 1 outputs, expected 3"));

  FakeSubgraphRunner failing(
      [](size_t, absl::Span<const gert::Tensor* const>, std::vector<gert::HostTensor>*) {
        return ge::ParamInvalid("boom");
      });
  OpRunner fails("If");
  fails.Input(Bool({}, {0})).Subgraphs(&failing);
  EXPECT_TRUE(IsNodeError(fails.Run(), "subgraph else_branch (index 1): boom"));

  FakeSubgraphRunner hollow(
      [](size_t, absl::Span<const gert::Tensor* const>, std::vector<gert::HostTensor>* outs) {
        outs->emplace_back();
        return ge::OkStatus();
      });
  OpRunner empty_out("If");
  empty_out.Input(Bool({}, {0})).Subgraphs(&hollow);
  EXPECT_TRUE(IsNodeError(empty_out.Run(), "holds no tensor"));

  // Kernel-level check of the cond tensor (no verify / infer).
  OpRunner not_bool("If");
  not_bool.Input(I64({}, {1})).Subgraphs(&branches);
  ASSERT_OK(not_bool.Infer());
  const ge::OpKernelDef* k = ge::OpRegistry::Instance().Find("If")->FindKernel(ge::kEngineHostCpu);
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(IsNodeError(not_bool.RunKernelOnly(k->fn), "must be DT_BOOL"));
}

// ----------------------------------------------------------------- Loop

// test_loop11's body: y_out = y_in + x[i:i+1] (x = 1..5), scan_out = y_out,
// cond_out = cond_in.
FakeSubgraphRunner Loop11Body() {
  return FakeSubgraphRunner([](size_t index, absl::Span<const gert::Tensor* const> in,
                               std::vector<gert::HostTensor>* outs) {
    if (index != 0 || in.size() != 3) return ge::ParamInvalid("bad body call");
    const int64_t i = in[0]->GetData<int64_t>()[0];
    const float y = in[2]->GetData<float>()[0] + static_cast<float>(i + 1);
    outs->push_back(CopyOf(in[1]));
    outs->push_back(F32({1}, {y}));
    outs->push_back(F32({1}, {y}));
    return ge::OkStatus();
  });
}

TEST(LoopTest, Loop11ForLoopWithScanOutput) {
  FakeSubgraphRunner body = Loop11Body();
  OpRunner r("Loop");
  r.Input(I64({}, {5})).Input(Bool({}, {1})).Input(F32({1}, {-2})).Outputs(2).Subgraphs(&body);
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.OutShape(0), (gert::Shape{1}));
  EXPECT_THAT(r.Values<float>(0), ElementsAre(13));
  EXPECT_EQ(r.OutShape(1), (gert::Shape{5, 1}));
  EXPECT_EQ(r.OutType(1), ge::DT_FLOAT);
  EXPECT_THAT(r.Values<float>(1), ElementsAre(-1, 1, 4, 8, 13));
  EXPECT_EQ(body.calls().size(), 5u);
}

TEST(LoopTest, InferCarriedKeepDtypeScanOutputsUnknown) {
  OpRunner r("Loop");
  r.Input(I64({}, {5}))
      .Input(Bool({}, {1}))
      .Input(F32({1}, {-2}))
      .Input(SeqOf(F32({1}, {0})))
      .Outputs(3);
  ASSERT_OK(r.Infer());
  EXPECT_EQ(r.InferredType(0), ge::DT_FLOAT);
  EXPECT_EQ(r.InferredShape(0), kUnknownRank);
  EXPECT_EQ(r.InferredType(1), ge::DT_VARIANT);
  EXPECT_EQ(r.InferredShape(1), (gert::Shape{-1}));
  EXPECT_EQ(r.InferredType(2), ge::DT_UNDEFINED);
  EXPECT_EQ(r.InferredShape(2), kUnknownRank);
}

TEST(LoopTest, InferErrors) {
  OpRunner too_few("Loop");
  too_few.Input(I64({}, {5})).Input(Bool({}, {1})).Input(F32({1}, {0})).Input(F32({1}, {0}));
  EXPECT_TRUE(IsNodeError(too_few.Infer(), "2 loop-carried inputs but only 1 outputs"));
  OpRunner two_m("Loop");
  two_m.Input(I64({2}, {5, 6})).AbsentInput().Input(F32({1}, {0}));
  EXPECT_TRUE(IsNodeError(two_m.Infer(), "input 0 (M) must hold exactly one element"));
}

TEST(LoopTest, WhileLoopStopsOnBodyCond) {
  // cond only: the body stops after iteration 2 (3 iterations); counts in v.
  FakeSubgraphRunner body(
      [](size_t, absl::Span<const gert::Tensor* const> in, std::vector<gert::HostTensor>* outs) {
        const int64_t i = in[0]->GetData<int64_t>()[0];
        outs->push_back(Bool({}, {i < 2}));
        outs->push_back(I64({}, {in[2]->GetData<int64_t>()[0] + 10}));
        outs->push_back(I64({}, {i}));
        return ge::OkStatus();
      });
  OpRunner r("Loop");
  r.AbsentInput().Input(Bool({}, {1})).Input(I64({}, {0})).Outputs(2).Subgraphs(&body);
  ASSERT_OK(r.Run());
  EXPECT_THAT(r.Values<int64_t>(0), ElementsAre(30));
  EXPECT_EQ(r.OutShape(1), (gert::Shape{3}));
  EXPECT_THAT(r.Values<int64_t>(1), ElementsAre(0, 1, 2));

  // cond false up front: no iteration; v_final = v_initial.
  OpRunner none("Loop");
  none.AbsentInput().Input(Bool({}, {0})).Input(I64({}, {7})).Subgraphs(&body);
  ASSERT_OK(none.Run());
  EXPECT_THAT(none.Values<int64_t>(0), ElementsAre(7));
}

TEST(LoopTest, ForLoopIgnoresBodyCond) {
  FakeSubgraphRunner body(
      [](size_t, absl::Span<const gert::Tensor* const> in, std::vector<gert::HostTensor>* outs) {
        // The incoming cond is true when the node has no cond input.
        if (!in[1]->GetData<bool>()[0]) return ge::ParamInvalid("cond_in should be true");
        outs->push_back(Bool({}, {0}));
        outs->push_back(I64({}, {in[2]->GetData<int64_t>()[0] * 2}));
        return ge::OkStatus();
      });
  OpRunner r("Loop");
  r.Input(I64({}, {4})).AbsentInput().Input(I64({}, {1})).Subgraphs(&body);
  ASSERT_OK(r.Run());
  EXPECT_THAT(r.Values<int64_t>(0), ElementsAre(16));
  EXPECT_EQ(body.calls().size(), 4u);
}

TEST(LoopTest, ZeroIterationsGiveEmptyScanOutputs) {
  FakeSubgraphRunner body = Loop11Body();
  OpRunner r("Loop");
  r.Input(I64({}, {0})).Input(Bool({}, {1})).Input(F32({1}, {-2})).Outputs(2).Subgraphs(&body);
  ASSERT_OK(r.Run());
  EXPECT_THAT(r.Values<float>(0), ElementsAre(-2));
  EXPECT_EQ(r.OutShape(1), (gert::Shape{0}));
  EXPECT_EQ(r.OutType(1), ge::DT_FLOAT);
  EXPECT_TRUE(body.calls().empty());

  // With a hinted element shape the empty scan output keeps it.
  OpRunner hinted("Loop");
  hinted.Attr<std::vector<std::vector<int64_t>>>("_output_shapes", {{1}, {-1, 1}})
      .Attr<std::vector<ge::DataType>>("_output_dtypes", {ge::DT_FLOAT, ge::DT_FLOAT})
      .Input(I64({}, {-3}))
      .AbsentInput()
      .Input(F32({1}, {-2}))
      .Outputs(2)
      .Subgraphs(&body);
  ASSERT_OK(hinted.Run());
  EXPECT_EQ(hinted.OutShape(1), (gert::Shape{0, 1}));
}

TEST(LoopTest, Loop13SequenceCarried) {
  // test_loop13_seq: seq_out = SequenceInsert(seq_in, x[0:i+1]).
  FakeSubgraphRunner body(
      [](size_t, absl::Span<const gert::Tensor* const> in, std::vector<gert::HostTensor>* outs) {
        const int64_t i = in[0]->GetData<int64_t>()[0];
        auto elems = gert::VariantElements(*in[2]);
        if (!elems.ok()) return elems.status();
        std::vector<gert::HostTensor> next;
        for (const gert::HostTensor& e : *elems) next.push_back(CopyOf(&e.tensor()));
        std::vector<float> slice;
        for (int64_t k = 0; k <= i; ++k) slice.push_back(static_cast<float>(k + 1));
        next.push_back(F32({i + 1}, slice));
        outs->push_back(CopyOf(in[1]));
        outs->push_back(Seq(std::move(next)));
        return ge::OkStatus();
      });
  OpRunner r("Loop");
  r.Input(I64({}, {5})).Input(Bool({}, {1})).Input(Seq({})).Subgraphs(&body);
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.OutType(0), ge::DT_VARIANT);
  absl::Span<const gert::HostTensor> e = r.Elements(0);
  ASSERT_EQ(e.size(), 5u);
  EXPECT_THAT(ValuesOf<float>(e[0].tensor()), ElementsAre(1));
  EXPECT_THAT(ValuesOf<float>(e[4].tensor()), ElementsAre(1, 2, 3, 4, 5));
}

TEST(LoopTest, KernelErrors) {
  FakeSubgraphRunner body = Loop11Body();
  OpRunner forever("Loop");
  forever.AbsentInput().AbsentInput().Input(F32({1}, {0})).Outputs(2).Subgraphs(&body);
  const ge::Status st = forever.Run();
  EXPECT_TRUE(IsNodeError(st, "never terminates"));
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported);

  FakeSubgraphRunner changes_type(
      [](size_t, absl::Span<const gert::Tensor* const> in, std::vector<gert::HostTensor>* outs) {
        outs->push_back(Bool({}, {1}));
        outs->push_back(I64({1}, {1}));
        return ge::OkStatus();
      });
  OpRunner type("Loop");
  type.Input(I64({}, {2})).AbsentInput().Input(F32({1}, {0})).Subgraphs(&changes_type);
  EXPECT_TRUE(IsNodeError(type.Run(), "is DT_INT64, expected DT_FLOAT"));

  FakeSubgraphRunner ragged(
      [](size_t, absl::Span<const gert::Tensor* const> in, std::vector<gert::HostTensor>* outs) {
        const int64_t i = in[0]->GetData<int64_t>()[0];
        outs->push_back(Bool({}, {1}));
        outs->push_back(F32({i + 1}, std::vector<float>(i + 1, 0.0f)));
        return ge::OkStatus();
      });
  OpRunner scan_shape("Loop");
  scan_shape.Input(I64({}, {3})).AbsentInput().Subgraphs(&ragged);
  EXPECT_TRUE(IsNodeError(scan_shape.Run(), "iteration 1 produced [2]"));

  FakeSubgraphRunner bad_cond(
      [](size_t, absl::Span<const gert::Tensor* const> in, std::vector<gert::HostTensor>* outs) {
        outs->push_back(I64({}, {1}));
        return ge::OkStatus();
      });
  OpRunner cond_type("Loop");
  cond_type.AbsentInput().Input(Bool({}, {1})).Outputs(0).Subgraphs(&bad_cond);
  EXPECT_TRUE(IsNodeError(cond_type.Run(), "body output 0 (cond) must be DT_BOOL"));

  OpRunner m_type("Loop");
  m_type.Input(Bool({}, {1})).AbsentInput().Outputs(0).Subgraphs(&bad_cond);
  ASSERT_OK(m_type.Infer());
  const ge::OpKernelDef* k =
      ge::OpRegistry::Instance().Find("Loop")->FindKernel(ge::kEngineHostCpu);
  EXPECT_TRUE(IsNodeError(m_type.RunKernelOnly(k->fn), "input 0 (M) must be DT_INT32 or"));
}

// ----------------------------------------------------------------- Scan

// test_scan9_sum: state += x_t; scan_out = state.
FakeSubgraphRunner SumBody() {
  return FakeSubgraphRunner(
      [](size_t, absl::Span<const gert::Tensor* const> in, std::vector<gert::HostTensor>* outs) {
        if (in.size() != 2) return ge::ParamInvalid("bad body call");
        std::vector<float> s = ValuesOf<float>(*in[0]);
        std::vector<float> x = ValuesOf<float>(*in[1]);
        if (s.size() != x.size()) return ge::ParamInvalid("slice size ", x.size());
        for (size_t i = 0; i < s.size(); ++i) s[i] += x[i];
        outs->push_back(F32(in[0]->GetShape(), s));
        outs->push_back(F32(in[0]->GetShape(), s));
        return ge::OkStatus();
      });
}

TEST(ScanTest, Scan9Sum) {
  FakeSubgraphRunner body = SumBody();
  OpRunner r("Scan");
  r.Attr<int64_t>("num_scan_inputs", 1)
      .Input(F32({2}, {0, 0}))
      .Input(F32({3, 2}, {1, 2, 3, 4, 5, 6}))
      .Outputs(2)
      .Subgraphs(&body);
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.InferredShape(0), (gert::Shape{2}));
  EXPECT_EQ(r.InferredType(0), ge::DT_FLOAT);
  EXPECT_EQ(r.InferredShape(1), kUnknownRank);
  EXPECT_THAT(r.Values<float>(0), ElementsAre(9, 12));
  EXPECT_EQ(r.OutShape(1), (gert::Shape{3, 2}));
  EXPECT_THAT(r.Values<float>(1), ElementsAre(1, 2, 4, 6, 9, 12));
}

TEST(ScanTest, AxesAndDirections) {
  // x is [2, 3] scanned along axis 1 in reverse: slices [3,6], [2,5], [1,4].
  // Running sums: [3,6], [5,11], [6,15]. The scan output is stacked along
  // axis 1 and prepended (reverse): column t holds the sum of step 2 - t.
  FakeSubgraphRunner body = SumBody();
  OpRunner r("Scan");
  r.Attr<int64_t>("num_scan_inputs", 1)
      .Attr<std::vector<int64_t>>("scan_input_axes", {-1})
      .Attr<std::vector<int64_t>>("scan_input_directions", {1})
      .Attr<std::vector<int64_t>>("scan_output_axes", {1})
      .Attr<std::vector<int64_t>>("scan_output_directions", {1})
      .Input(F32({2}, {0, 0}))
      .Input(F32({2, 3}, {1, 2, 3, 4, 5, 6}))
      .Outputs(2)
      .Subgraphs(&body);
  ASSERT_OK(r.Run());
  EXPECT_THAT(r.Values<float>(0), ElementsAre(6, 15));
  EXPECT_EQ(r.OutShape(1), (gert::Shape{2, 3}));
  EXPECT_THAT(r.Values<float>(1), ElementsAre(6, 5, 3, 15, 11, 6));
}

TEST(ScanTest, StringsAlongAxisOneAndTwoScanInputs) {
  // Zip of a string matrix column by column with an int vector; no states.
  FakeSubgraphRunner body(
      [](size_t, absl::Span<const gert::Tensor* const> in, std::vector<gert::HostTensor>* outs) {
        std::vector<std::string> col = ValuesOf<std::string>(*in[0]);
        const int64_t k = in[1]->GetData<int64_t>()[0];
        for (std::string& s : col) s += std::to_string(k);
        outs->push_back(Str(in[0]->GetShape(), col));
        return ge::OkStatus();
      });
  OpRunner r("Scan");
  r.Attr<int64_t>("num_scan_inputs", 2)
      .Attr<std::vector<int64_t>>("scan_input_axes", {1, 0})
      .Input(Str({2, 2}, {"a", "b", "c", "d"}))
      .Input(I64({2}, {7, 8}))
      .Outputs(1)
      .Subgraphs(&body);
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.OutShape(0), (gert::Shape{2, 2}));
  // Step 0: column [a, c] + "7"; step 1: column [b, d] + "8"; stacked on axis 0.
  EXPECT_THAT(r.Values<std::string>(0), ElementsAre("a7", "c7", "b8", "d8"));
}

TEST(ScanTest, ZeroLengthScan) {
  FakeSubgraphRunner body = SumBody();
  OpRunner r("Scan");
  r.Attr<int64_t>("num_scan_inputs", 1)
      .Input(F32({2}, {1, 2}))
      .Input(F32({0, 2}, {}))
      .Outputs(2)
      .Subgraphs(&body);
  ASSERT_OK(r.Run());
  EXPECT_THAT(r.Values<float>(0), ElementsAre(1, 2));
  EXPECT_EQ(r.OutShape(1), (gert::Shape{0}));
  EXPECT_TRUE(body.calls().empty());
}

TEST(ScanTest, InferAndVerifyErrors) {
  OpRunner missing("Scan");
  missing.Input(F32({2}, {0, 0}));
  EXPECT_TRUE(IsNodeError(missing.Infer(), "num_scan_inputs"));

  OpRunner too_many("Scan");
  too_many.Attr<int64_t>("num_scan_inputs", 3).Input(F32({2}, {0, 0}));
  EXPECT_TRUE(IsNodeError(too_many.Infer(), "num_scan_inputs is 3, expected 1..1"));

  OpRunner axes_len("Scan");
  axes_len.Attr<int64_t>("num_scan_inputs", 1)
      .Attr<std::vector<int64_t>>("scan_input_axes", {0, 1})
      .Input(F32({3}, {1, 2, 3}))
      .Outputs(1);
  EXPECT_TRUE(IsNodeError(axes_len.Infer(), "scan_input_axes has 2 entries, expected 1"));

  OpRunner dirs("Scan");
  dirs.Attr<int64_t>("num_scan_inputs", 1)
      .Attr<std::vector<int64_t>>("scan_input_directions", {2})
      .Input(F32({3}, {1, 2, 3}))
      .Outputs(1);
  EXPECT_TRUE(IsNodeError(dirs.Infer(), "expected 0 (forward) or 1 (reverse)"));

  OpRunner axis("Scan");
  axis.Attr<int64_t>("num_scan_inputs", 1)
      .Attr<std::vector<int64_t>>("scan_input_axes", {2})
      .Input(F32({3}, {1, 2, 3}))
      .Outputs(1);
  EXPECT_TRUE(IsNodeError(axis.Infer(), "axis 2 is out of range"));

  OpRunner lens("Scan");
  lens.Attr<int64_t>("num_scan_inputs", 2)
      .Input(F32({3}, {1, 2, 3}))
      .Input(F32({2}, {1, 2}))
      .Outputs(1);
  EXPECT_TRUE(IsNodeError(lens.Infer(), "sequence length 2 but scan input 0 has 3"));

  OpRunner scalar("Scan");
  scalar.Attr<int64_t>("num_scan_inputs", 1).Input(F32({}, {1})).Outputs(1);
  EXPECT_TRUE(IsNodeError(scalar.Infer(), "rank >= 1"));
}

TEST(ScanTest, StateMustKeepShape) {
  FakeSubgraphRunner body(
      [](size_t, absl::Span<const gert::Tensor* const> in, std::vector<gert::HostTensor>* outs) {
        outs->push_back(F32({3}, {0, 0, 0}));
        return ge::OkStatus();
      });
  OpRunner r("Scan");
  r.Attr<int64_t>("num_scan_inputs", 1)
      .Input(F32({2}, {0, 0}))
      .Input(F32({1, 2}, {1, 2}))
      .Outputs(1)
      .Subgraphs(&body);
  EXPECT_TRUE(IsNodeError(r.Run(), "states keep shape and dtype"));
}

}  // namespace
}  // namespace test
}  // namespace ops
