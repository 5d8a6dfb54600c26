// ops/rnn/rnn_test.cc: RNN, GRU, LSTM.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ops/common/onnx_case_runner.h"
#include "ops/rnn/case_loader.h"
#include "ops/rnn/op_tester.h"

namespace ops {
namespace {

using optest::ErrorContains;
using optest::F32;
using optest::I32;
using optest::Near;
using optest::OpTester;

// ---------------------------------------------------------------- ONNX cases

// The ONNX 1.12 RNN / GRU / LSTM node tests (outputs the tests leave
// unconnected come from the numpy reference in gen_cases.py, checked against
// the outputs the tests provide) plus reference cases for directions,
// sequence_lens, layouts, clip, activations, peepholes.
class RnnOnnxTest : public ::testing::TestWithParam<testing::OnnxCase> {};

TEST_P(RnnOnnxTest, Matches) {
  testing::CompareOptions opts;
  opts.rtol = 1e-4;
  opts.atol = 1e-5;
  ge::Status st = testing::RunOnnxCase(GetParam(), opts);
  EXPECT_TRUE(st.ok()) << st;
}

INSTANTIATE_TEST_SUITE_P(
    Onnx, RnnOnnxTest,
    ::testing::ValuesIn(optest::LoadCasesOrDie("ops/rnn/testdata/onnx_cases.txt")),
    testing::OnnxCaseName<::testing::TestParamInfo<testing::OnnxCase>>);

TEST(RnnOnnxCasesTest, CoverEveryOp) {
  std::vector<testing::OnnxCase> cases = optest::LoadCasesOrDie("ops/rnn/testdata/onnx_cases.txt");
  int rnn = 0, gru = 0, lstm = 0;
  for (const auto& c : cases) {
    rnn += c.op == "RNN";
    gru += c.op == "GRU";
    lstm += c.op == "LSTM";
  }
  EXPECT_GE(rnn, 8);
  EXPECT_GE(gru, 8);
  EXPECT_GE(lstm, 8);
}

// ---------------------------------------------------------------- kernels

// Values from a float64 evaluation of the ONNX equations (see the comments).
TEST(RnnKernelTest, HiddenOneByHand) {
  // h1 = tanh(0.5 * 1) = 0.462117157; h2 = tanh(0.5 * 2 + 0.5 * h1) = 0.842886103
  OpTester t("RNN");
  t.AttrInt("hidden_size", 1)
      .Input(F32({2, 1, 1}, {1, 2}))
      .Input(F32({1, 1, 1}, {0.5}))
      .Input(F32({1, 1, 1}, {0.5}));
  ASSERT_TRUE(t.Run(2).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{2, 1, 1, 1}));
  EXPECT_EQ(t.Out(1).GetShape(), (gert::Shape{1, 1, 1}));
  EXPECT_TRUE(Near(t.OutValues(0), {0.462117157, 0.842886103}));
  EXPECT_TRUE(Near(t.OutValues(1), {0.842886103}));
}

TEST(RnnKernelTest, OutputsAreOptional) {
  for (const char* type : {"RNN", "GRU", "LSTM"}) {
    const ge::OpRegistrationData* reg = ge::OpRegistry::Instance().Find(type);
    ASSERT_NE(reg, nullptr) << type;
    for (const ge::OpIoDef& out : reg->outputs) {
      EXPECT_EQ(out.kind, ge::IoKind::kOptional) << type << " " << out.name;
    }
  }
  // Only Y_h requested: Y is skipped, Y_h matches the full run.
  OpTester t("RNN");
  t.AttrInt("hidden_size", 1)
      .Input(F32({2, 1, 1}, {1, 2}))
      .Input(F32({1, 1, 1}, {0.5}))
      .Input(F32({1, 1, 1}, {0.5}));
  ASSERT_TRUE(t.Run(2, {0}).ok());
  EXPECT_FALSE(t.HasOut(0));
  EXPECT_TRUE(Near(t.OutValues(1), {0.842886103}));
}

TEST(RnnKernelTest, BidirectionalWithSequenceLens) {
  // Batch 1 has length 1: its Y rows beyond step 0 are zero; the reverse
  // direction of batch 0 runs t = 1 then t = 0.
  OpTester t("RNN");
  t.AttrStr("direction", "bidirectional")
      .Input(F32({2, 2, 1}, {1, 3, 2, 4}))
      .Input(F32({2, 1, 1}, {0.5, 0.25}))
      .Input(F32({2, 1, 1}, {0.5, -0.5}))
      .Absent()
      .Input(I32({2}, {2, 1}));
  ASSERT_TRUE(t.Run(2).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {0.462117157, 0.905148254, 0.018939156, 0.635148952, 0.842886103,
                                    0, 0.462117157, 0}));
  EXPECT_TRUE(Near(t.OutValues(1), {0.842886103, 0.905148254, 0.018939156, 0.635148952}));
}

TEST(RnnKernelTest, GruBothResetModes) {
  // W / R rows are z, r, h; B = [Wb, Rb].
  OpTester a("GRU");
  a.AttrInt("hidden_size", 1)
      .Input(F32({2, 1, 1}, {1, 2}))
      .Input(F32({1, 3, 1}, {0.1, 0.2, 0.3}))
      .Input(F32({1, 3, 1}, {0.4, 0.5, 0.6}))
      .Input(F32({1, 6}, {0.1, 0.2, 0.3, 0.0, 0.1, 0.2}));
  ASSERT_TRUE(a.Run(2).ok());
  EXPECT_TRUE(Near(a.OutValues(0), {0.298926779, 0.514045464}));

  OpTester b("GRU");
  b.AttrInt("linear_before_reset", 1)
      .Input(F32({2, 1, 1}, {1, 2}))
      .Input(F32({1, 3, 1}, {0.1, 0.2, 0.3}))
      .Input(F32({1, 3, 1}, {0.4, 0.5, 0.6}))
      .Input(F32({1, 6}, {0.1, 0.2, 0.3, 0.0, 0.1, 0.2}));
  ASSERT_TRUE(b.Run(2).ok());
  EXPECT_TRUE(Near(b.OutValues(0), {0.278960651, 0.494548613}));
}

TEST(RnnKernelTest, LstmWithAndWithoutPeepholes) {
  // Step 1 by hand: i = s(0.1), o = s(0.2), c~ = tanh(0.4), C = i * c~ =
  // 0.199465, H = o * tanh(C) = 0.108241.
  OpTester a("LSTM");
  a.Input(F32({2, 1, 1}, {1, 2}))
      .Input(F32({1, 4, 1}, {0.1, 0.2, 0.3, 0.4}))
      .Input(F32({1, 4, 1}, {0.5, 0.6, 0.7, 0.8}));
  ASSERT_TRUE(a.Run(3).ok());
  EXPECT_TRUE(Near(a.OutValues(0), {0.108241087, 0.299007805}));
  EXPECT_TRUE(Near(a.OutValues(1), {0.299007805}));
  EXPECT_TRUE(Near(a.OutValues(2), {0.531904429}));

  OpTester b("LSTM");
  b.Input(F32({2, 1, 1}, {1, 2}))
      .Input(F32({1, 4, 1}, {0.1, 0.2, 0.3, 0.4}))
      .Input(F32({1, 4, 1}, {0.5, 0.6, 0.7, 0.8}))
      .Absent()
      .Absent()
      .Absent()
      .Absent()
      .Input(F32({1, 3}, {0.1, 0.2, 0.3}));
  ASSERT_TRUE(b.Run(3).ok());
  EXPECT_TRUE(Near(b.OutValues(0), {0.110180821, 0.314704674}));
  EXPECT_TRUE(Near(b.OutValues(2), {0.538689003}));
}

TEST(RnnKernelTest, UnconnectedOutputsAreSkipped) {
  OpTester t("LSTM");
  t.Input(F32({2, 1, 1}, {1, 2}))
      .Input(F32({1, 4, 1}, {0.1, 0.2, 0.3, 0.4}))
      .Input(F32({1, 4, 1}, {0.5, 0.6, 0.7, 0.8}));
  ASSERT_TRUE(t.Run(3, {0, 2}).ok());
  EXPECT_FALSE(t.HasOut(0));
  EXPECT_FALSE(t.HasOut(2));
  EXPECT_TRUE(Near(t.OutValues(1), {0.299007805}));
  // A node with only Y.
  OpTester y("GRU");
  y.Input(F32({1, 1, 1}, {1}))
      .Input(F32({1, 3, 1}, {0.1, 0.2, 0.3}))
      .Input(F32({1, 3, 1}, {0.4, 0.5, 0.6}));
  ASSERT_TRUE(y.Run(1).ok());
  EXPECT_EQ(y.Out(0).GetShape(), (gert::Shape{1, 1, 1, 1}));
}

TEST(RnnKernelTest, DoubleAndHalfMatchFloat) {
  auto run = [](ge::DataType dt) {
    OpTester t("LSTM");
    t.Input(optest::T(dt, {2, 1, 1}, {1, 2}))
        .Input(optest::T(dt, {1, 4, 1}, {0.1, 0.2, 0.3, 0.4}))
        .Input(optest::T(dt, {1, 4, 1}, {0.5, 0.6, 0.7, 0.8}));
    EXPECT_TRUE(t.Run(2).ok());
    EXPECT_EQ(t.Out(0).GetDataType(), dt);
    return t.OutValues(0);
  };
  EXPECT_TRUE(Near(run(ge::DT_DOUBLE), {0.108241087, 0.299007805}, 1e-9));
  EXPECT_TRUE(Near(run(ge::DT_FLOAT16), {0.108241087, 0.299007805}, 2e-3));
}

TEST(RnnKernelTest, SequenceLensZeroGivesZeroState) {
  OpTester t("RNN");
  t.Input(F32({2, 2, 1}, {1, 3, 2, 4}))
      .Input(F32({1, 1, 1}, {0.5}))
      .Input(F32({1, 1, 1}, {0.5}))
      .Absent()
      .Input(I32({2}, {0, 2}))
      .Input(F32({1, 2, 1}, {0.7, 0.0}));
  ASSERT_TRUE(t.Run(2).ok());
  std::vector<double> y = t.OutValues(0);
  EXPECT_EQ(y[0], 0.0);
  EXPECT_EQ(y[2], 0.0);
  EXPECT_EQ(t.OutValues(1)[0], 0.0);
}

TEST(RnnKernelTest, BadSequenceLensValue) {
  OpTester t("RNN");
  t.Input(F32({2, 1, 1}, {1, 2}))
      .Input(F32({1, 1, 1}, {0.5}))
      .Input(F32({1, 1, 1}, {0.5}))
      .Absent()
      .Input(I32({1}, {3}));
  EXPECT_TRUE(ErrorContains(t.Run(2), "sequence_lens[0] = 3 is out of range [0, 2]"));
}

TEST(RnnKernelTest, KernelRechecksShapes) {
  // Inference skipped: the kernel must reject a mismatched R itself.
  OpTester t("RNN");
  t.Input(F32({2, 1, 1}, {1, 2})).Input(F32({1, 1, 1}, {0.5})).Input(F32({1, 2, 1}, {0.5, 1}));
  EXPECT_TRUE(
      ErrorContains(t.RunKernelOnly({{2, 1, 1, 1}, {1, 1, 1}}, {ge::DT_FLOAT, ge::DT_FLOAT}),
                    "input 2 (R) has shape [1,2,1], expected [1,1,1]"));
}

// ---------------------------------------------------------------- infer shape

TEST(RnnInferTest, Layouts) {
  OpTester t("LSTM");
  t.AttrInt("hidden_size", 5).AttrStr("direction", "bidirectional");
  ASSERT_TRUE(t.InferShapes({{7, 3, 4}, {2, 20, 4}, {2, 20, 5}}, {ge::DT_FLOAT}, 3).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{7, 2, 3, 5}));
  EXPECT_EQ(t.InferredShape(1), (gert::Shape{2, 3, 5}));
  EXPECT_EQ(t.InferredShape(2), (gert::Shape{2, 3, 5}));
  EXPECT_EQ(t.InferredDtype(2), ge::DT_FLOAT);

  OpTester l("GRU");
  l.AttrInt("layout", 1);
  ASSERT_TRUE(l.InferShapes({{3, 7, 4}, {1, 15, 4}, {1, 15, 5}}, {ge::DT_DOUBLE}, 2).ok());
  EXPECT_EQ(l.InferredShape(0), (gert::Shape{3, 7, 1, 5}));
  EXPECT_EQ(l.InferredShape(1), (gert::Shape{3, 1, 5}));
  EXPECT_EQ(l.InferredDtype(0), ge::DT_DOUBLE);
}

TEST(RnnInferTest, UnknownDims) {
  // Batch unknown in X but known from initial_h; hidden from W when R is
  // of unknown rank.
  OpTester t("RNN");
  ASSERT_TRUE(
      t.InferShapes(
           {{-1, -1, 4}, {1, 6, 4}, {-2}, {-2}, {-2}, {1, 9, 6}},
           {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT32, ge::DT_FLOAT}, 2)
          .ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 1, 9, 6}));
  EXPECT_EQ(t.InferredShape(1), (gert::Shape{1, 9, 6}));

  OpTester u("LSTM");
  ASSERT_TRUE(u.InferShapes({{-2}, {-2}, {-2}}, {ge::DT_FLOAT}, 3).ok());
  EXPECT_EQ(u.InferredShape(0), (gert::Shape{-1, 1, -1, -1}));
  EXPECT_EQ(u.InferredShape(2), (gert::Shape{1, -1, -1}));
}

TEST(RnnInferTest, Errors) {
  OpTester t("LSTM", "lstm7");
  t.AttrInt("hidden_size", 5);
  EXPECT_TRUE(ErrorContains(t.InferShapes({{7, 3}, {1, 20, 4}, {1, 20, 5}}, {ge::DT_FLOAT}, 3),
                            "input 0 (X) must have rank 3", "lstm7"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{7, 3, 4}, {1, 16, 4}, {1, 20, 5}}, {ge::DT_FLOAT}, 3),
                            "dim 1 must be 4*hidden_size = 20", "lstm7"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{7, 3, 4}, {1, 20, 3}, {1, 20, 5}}, {ge::DT_FLOAT}, 3),
                            "input 1 (W) has shape [1,20,3]: dim 2 is 3 but input_size", "lstm7"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{7, 3, 4}, {2, 20, 4}, {1, 20, 5}}, {ge::DT_FLOAT}, 3),
                            "dim 0 must be num_directions = 1", "lstm7"));
  EXPECT_TRUE(
      ErrorContains(t.InferShapes({{7, 3, 4}, {1, 20, 4}, {1, 20, 5}, {1, 41}}, {ge::DT_FLOAT}, 3),
                    "input 3 (B) has shape [1,41]: dim 1 must be 2*4*hidden_size = 40", "lstm7"));
  EXPECT_TRUE(ErrorContains(
      t.InferShapes({{7, 3, 4}, {1, 20, 4}, {1, 20, 5}, {1, 40}, {4}},
                    {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT32}, 3),
      "input 4 (sequence_lens) has shape [4]: dim 0 is 4 but batch_size is 3", "lstm7"));
  EXPECT_TRUE(ErrorContains(
      t.InferShapes({{7, 3, 4}, {1, 20, 4}, {1, 20, 5}, {1, 40}, {3}},
                    {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT64}, 3),
      "input 4 (sequence_lens) must be DT_INT32", "lstm7"));
  EXPECT_TRUE(ErrorContains(
      t.InferShapes(
          {{7, 3, 4}, {1, 20, 4}, {1, 20, 5}, {1, 40}, {3}, {1, 3, 5}, {1, 3, 5}, {1, 12}},
          {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT32, ge::DT_FLOAT}, 3),
      "input 7 (P) has shape [1,12]: dim 1 must be 3*hidden_size = 15", "lstm7"));
  EXPECT_TRUE(ErrorContains(
      t.InferShapes({{7, 3, 4}, {1, 20, 4}, {1, 20, 5}}, {ge::DT_FLOAT, ge::DT_DOUBLE}, 3),
      "input 1 (W) is DT_DOUBLE but X is DT_FLOAT", "lstm7"));
}

TEST(RnnInferTest, AttributeErrors) {
  const std::vector<gert::Shape> shapes = {{2, 1, 1}, {1, 1, 1}, {1, 1, 1}};
  OpTester dir("RNN");
  dir.AttrStr("direction", "sideways");
  EXPECT_TRUE(ErrorContains(dir.InferShapes(shapes, {ge::DT_FLOAT}, 2), "\"sideways\""));
  OpTester acts("RNN");
  acts.AttrStrs("activations", {"Tanh", "Relu", "Tanh"});
  EXPECT_TRUE(ErrorContains(acts.InferShapes(shapes, {ge::DT_FLOAT}, 2),
                            "activations has 3 entries (Tanh, Relu, Tanh), expected 1"));
  OpTester unknown("GRU");
  unknown.AttrStrs("activations", {"Sigmoid", "Swish"});
  ge::Status st = unknown.InferShapes({{2, 1, 1}, {1, 3, 1}, {1, 3, 1}}, {ge::DT_FLOAT}, 2);
  EXPECT_TRUE(ErrorContains(st, "activation \"Swish\" is not supported"));
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported);
  OpTester hs("RNN");
  hs.AttrInt("hidden_size", 0);
  EXPECT_TRUE(
      ErrorContains(hs.InferShapes(shapes, {ge::DT_FLOAT}, 2), "hidden_size must be positive"));
  OpTester clip("RNN");
  clip.AttrFloat("clip", -1.f);
  EXPECT_TRUE(ErrorContains(clip.InferShapes(shapes, {ge::DT_FLOAT}, 2), "clip must be positive"));
  OpTester layout("RNN");
  layout.AttrInt("layout", 2);
  EXPECT_TRUE(
      ErrorContains(layout.InferShapes(shapes, {ge::DT_FLOAT}, 2), "layout must be 0 or 1"));
}

TEST(RnnInferTest, ActivationNamesAreCaseInsensitiveAndShared) {
  // One per-direction list serves both directions.
  OpTester t("RNN");
  t.AttrStr("direction", "bidirectional").AttrStrs("activations", {"relu"});
  t.Input(F32({1, 1, 1}, {-2})).Input(F32({2, 1, 1}, {1, 1})).Input(F32({2, 1, 1}, {1, 1}));
  ASSERT_TRUE(t.Run(2).ok());
  EXPECT_TRUE(Near(t.OutValues(1), {0, 0}));
}

}  // namespace
}  // namespace ops
