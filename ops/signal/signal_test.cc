// ops/signal/signal_test.cc: DFT, STFT, windows, MelWeightMatrix.
#include <cmath>
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
using optest::I64;
using optest::Near;
using optest::OpTester;

// ONNX 1.12 dft / stft / melweightmatrix node tests. (The window tests'
// expected values use pi = 3.1415; WindowTest checks exact formulas.)
class SignalOnnxTest : public ::testing::TestWithParam<testing::OnnxCase> {};

TEST_P(SignalOnnxTest, Matches) {
  testing::CompareOptions opts;
  opts.atol = 1e-3;  // DFT outputs of size ~1e3 carry float rounding in near-zero bins
  ge::Status st = testing::RunOnnxCase(GetParam(), opts);
  EXPECT_TRUE(st.ok()) << st;
}

INSTANTIATE_TEST_SUITE_P(
    Onnx, SignalOnnxTest,
    ::testing::ValuesIn(optest::LoadCasesOrDie("ops/signal/testdata/onnx_cases.txt")),
    testing::OnnxCaseName<::testing::TestParamInfo<testing::OnnxCase>>);

// ---------------------------------------------------------------- DFT

TEST(DftTest, PowerOfTwoAndOther) {
  // fft([1, 2, 3, 4]) = [10, -2+2i, -2, -2-2i] (radix-2 path).
  OpTester t("DFT");
  t.Input(F32({1, 4, 1}, {1, 2, 3, 4}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 4, 2}));
  EXPECT_TRUE(Near(t.OutValues(0), {10, 0, -2, 2, -2, 0, -2, -2}));
  // fft([1, 2, 3]) = [6, -1.5+0.866i, -1.5-0.866i] (direct path).
  OpTester o("DFT");
  o.Input(F32({1, 3, 1}, {1, 2, 3}));
  ASSERT_TRUE(o.Run(1).ok());
  EXPECT_TRUE(Near(o.OutValues(0), {6, 0, -1.5, 0.8660254038, -1.5, -0.8660254038}));
}

TEST(DftTest, InverseOfComplex) {
  // ifft([1+i, 2-i, 3i]) (numpy).
  OpTester t("DFT");
  t.AttrInt("inverse", 1).Input(F32({1, 3, 2}, {1, 1, 2, -1, 0, 3}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(
      Near(t.OutValues(0), {1, 1, 1.1547005384, 0.5773502692, -1.1547005384, -0.5773502692}));
}

TEST(DftTest, OnesidedLengthAndAxis) {
  OpTester one("DFT");
  one.AttrInt("onesided", 1).Input(F32({1, 4, 1}, {1, 2, 3, 4}));
  ASSERT_TRUE(one.Run(1).ok());
  EXPECT_EQ(one.Out(0).GetShape(), (gert::Shape{1, 3, 2}));
  EXPECT_TRUE(Near(one.OutValues(0), {10, 0, -2, 2, -2, 0}));
  // dft_length 4 zero-pads [1, 2, 3]: [6, -2-2i, 2, -2+2i]; 2 truncates
  // [1, 2, 3, 4] to [1, 2]: [3, -1].
  OpTester pad("DFT");
  pad.Input(F32({1, 3, 1}, {1, 2, 3})).Input(I64({}, {4}));
  ASSERT_TRUE(pad.Run(1).ok());
  EXPECT_TRUE(Near(pad.OutValues(0), {6, 0, -2, -2, 2, 0, -2, 2}));
  OpTester cut("DFT");
  cut.Input(F32({1, 4, 1}, {1, 2, 3, 4})).Input(I32({}, {2}));
  ASSERT_TRUE(cut.Run(1).ok());
  EXPECT_TRUE(Near(cut.OutValues(0), {3, 0, -1, 0}));
  // axis -2 on [1, 2, 2, 1] transforms the last signal dim: rows [1, 2]
  // and [3, 4] -> [3, -1] and [7, -1].
  OpTester ax("DFT");
  ax.AttrInt("axis", -2).Input(F32({1, 2, 2, 1}, {1, 2, 3, 4}));
  ASSERT_TRUE(ax.Run(1).ok());
  EXPECT_TRUE(Near(ax.OutValues(0), {3, 0, -1, 0, 7, 0, -1, 0}));
}

TEST(DftTest, DoubleAndHalf) {
  for (ge::DataType dt : {ge::DT_DOUBLE, ge::DT_FLOAT16, ge::DT_BF16}) {
    OpTester t("DFT");
    t.Input(optest::T(dt, {1, 4, 1}, {1, 2, 3, 4}));
    ASSERT_TRUE(t.Run(1).ok());
    EXPECT_EQ(t.Out(0).GetDataType(), dt);
    EXPECT_TRUE(Near(t.OutValues(0), {10, 0, -2, 2, -2, 0, -2, -2}, 1e-2));
  }
}

TEST(DftTest, InferShapes) {
  OpTester t("DFT");
  t.AttrInt("onesided", 1).AttrInt("axis", 2);
  ASSERT_TRUE(t.InferShapes({{-1, 8, 10, 1}}, {ge::DT_FLOAT}, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 8, 6, 2}));
  // dft_length present but unknown: the axis dim is -1.
  ASSERT_TRUE(t.InferShapes({{2, 8, 10, 1}, {}}, {ge::DT_FLOAT, ge::DT_INT64}, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{2, 8, -1, 2}));
  ASSERT_TRUE(t.InferShapes({{-2}}, {ge::DT_FLOAT}, 1).ok());
  EXPECT_TRUE(t.InferredShape(0).IsUnknownRank());
}

TEST(DftTest, Errors) {
  OpTester t("DFT", "dft1");
  EXPECT_TRUE(ErrorContains(t.InferShapes({{4, 1}}, {ge::DT_FLOAT}, 1), "rank >= 3", "dft1"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 4, 3}}, {ge::DT_FLOAT}, 1),
                            "last dim must be 1 (real) or 2 (complex)", "dft1"));
  OpTester ax("DFT", "dft1");
  ax.AttrInt("axis", 2);
  ge::Status st = ax.InferShapes({{1, 4, 1}}, {ge::DT_FLOAT}, 1);
  EXPECT_TRUE(ErrorContains(st, "axis 2 is out of range [-3, -2] or [0, 1]", "dft1"));
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kOutOfRange);
  OpTester one("DFT", "dft1");
  one.AttrInt("onesided", 1);
  EXPECT_TRUE(
      ErrorContains(one.InferShapes({{1, 4, 2}}, {ge::DT_FLOAT}, 1), "needs a real input", "dft1"));
  OpTester len("DFT", "dft1");
  len.Input(F32({1, 4, 1}, {1, 2, 3, 4})).Input(I64({}, {0}));
  EXPECT_TRUE(ErrorContains(len.Run(1), "dft_length) must be positive, got 0", "dft1"));
  OpTester empty("DFT", "dft1");
  EXPECT_TRUE(
      ErrorContains(empty.InferShapes({{1, 0, 1}}, {ge::DT_FLOAT}, 1), "axis 1 is empty", "dft1"));
  OpTester bad("DFT", "dft1");
  EXPECT_TRUE(ErrorContains(bad.InferShapes({{1, 4, 1}, {}}, {ge::DT_FLOAT, ge::DT_FLOAT}, 1),
                            "dft_length) must be DT_INT32 or DT_INT64", "dft1"));
}

// ---------------------------------------------------------------- STFT

TEST(StftTest, FramesWithAndWithoutWindow) {
  // signal 0..5, frame_length 4, step 2: frames [0..3] and [2..5].
  OpTester t("STFT");
  t.Input(F32({1, 6, 1}, {0, 1, 2, 3, 4, 5})).Input(I64({}, {2})).Absent().Input(I64({}, {4}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 2, 3, 2}));
  EXPECT_TRUE(Near(t.OutValues(0), {6, 0, -2, 2, -2, 0, 14, 0, -2, 2, -2, 0}));
  // Window [0, .75, .75, 0], two-sided (numpy).
  OpTester w("STFT");
  w.AttrInt("onesided", 0)
      .Input(F32({1, 6, 1}, {0, 1, 2, 3, 4, 5}))
      .Input(I32({}, {2}))
      .Input(F32({4}, {0, 0.75, 0.75, 0}));
  ASSERT_TRUE(w.Run(1).ok());
  EXPECT_EQ(w.Out(0).GetShape(), (gert::Shape{1, 2, 4, 2}));
  EXPECT_TRUE(Near(w.OutValues(0), {2.25, 0, -1.5, -0.75, 0.75, 0, -1.5, 0.75,  //
                                    5.25, 0, -3, -2.25, 0.75, 0, -3, 2.25}));
}

TEST(StftTest, InferShapes) {
  OpTester t("STFT");
  // frame_step unknown: frames unknown; window gives the frame length.
  ASSERT_TRUE(
      t.InferShapes({{2, 100, 1}, {}, {16}}, {ge::DT_FLOAT, ge::DT_INT64, ge::DT_FLOAT}, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{2, -1, 9, 2}));
  // Values known (Run infers with them).
  OpTester k("STFT");
  k.Input(F32({1, 10, 1}, std::vector<double>(10, 1.0)))
      .Input(I64({}, {3}))
      .Absent()
      .Input(I64({}, {4}));
  ASSERT_TRUE(k.Run(1).ok());
  EXPECT_EQ(k.Out(0).GetShape(), (gert::Shape{1, 3, 3, 2}));
}

TEST(StftTest, Errors) {
  OpTester t("STFT", "stft");
  t.Input(F32({1, 6, 1}, {0, 1, 2, 3, 4, 5})).Input(I64({}, {2}));
  EXPECT_TRUE(ErrorContains(t.Run(1), "needs input 2 (window) or input 3 (frame_length)", "stft"));
  OpTester mismatch("STFT", "stft");
  mismatch.Input(F32({1, 6, 1}, {0, 1, 2, 3, 4, 5}))
      .Input(I64({}, {2}))
      .Input(F32({4}, {1, 1, 1, 1}))
      .Input(I64({}, {3}));
  EXPECT_TRUE(
      ErrorContains(mismatch.Run(1), "frame_length) is 3 but input 2 (window) has 4", "stft"));
  OpTester step("STFT", "stft");
  step.Input(F32({1, 6, 1}, {0, 1, 2, 3, 4, 5})).Input(I64({}, {0})).Absent().Input(I64({}, {4}));
  EXPECT_TRUE(ErrorContains(step.Run(1), "frame_step) must be positive, got 0", "stft"));
  OpTester longer("STFT", "stft");
  longer.Input(F32({1, 3, 1}, {0, 1, 2})).Input(I64({}, {1})).Absent().Input(I64({}, {4}));
  EXPECT_TRUE(ErrorContains(longer.Run(1), "frame length 4 exceeds the signal length 3", "stft"));
  OpTester cplx("STFT", "stft");
  EXPECT_TRUE(ErrorContains(
      cplx.InferShapes({{1, 8, 2}, {}, {4}}, {ge::DT_FLOAT, ge::DT_INT64, ge::DT_FLOAT}, 1),
      "needs a real signal", "stft"));
  OpTester rank("STFT", "stft");
  EXPECT_TRUE(ErrorContains(
      rank.InferShapes({{8, 1}, {}, {4}}, {ge::DT_FLOAT, ge::DT_INT64, ge::DT_FLOAT}, 1),
      "must be [batch, length, 1|2]", "stft"));
}

// ---------------------------------------------------------------- windows

std::vector<double> RunWindow(const std::string& op, int64_t size, int64_t periodic,
                              ge::DataType dt = ge::DT_FLOAT) {
  OpTester t(op);
  t.AttrInt("periodic", periodic).Input(I64({}, {static_cast<double>(size)}));
  if (dt != ge::DT_FLOAT) t.AttrDtype("output_datatype", dt);
  ge::Status st = t.Run(1);
  EXPECT_TRUE(st.ok()) << st;
  if (!st.ok()) return {};
  EXPECT_EQ(t.Out(0).GetDataType(), dt);
  EXPECT_EQ(t.Out(0).GetShape(), gert::Shape{size});
  return t.OutValues(0);
}

TEST(WindowTest, Formulas) {
  EXPECT_TRUE(Near(RunWindow("HannWindow", 4, 1), {0, 0.5, 1, 0.5}));
  // Symmetric Hann of 10 = numpy.hanning(10).
  EXPECT_TRUE(
      Near(RunWindow("HannWindow", 10, 0), {0, 0.1169777784, 0.4131759112, 0.75, 0.9698463104,
                                            0.9698463104, 0.75, 0.4131759112, 0.1169777784, 0}));
  // Hamming: a0 = 25/46.
  EXPECT_TRUE(Near(RunWindow("HammingWindow", 4, 1), {4.0 / 46, 25.0 / 46, 1, 25.0 / 46}));
  EXPECT_TRUE(Near(RunWindow("BlackmanWindow", 4, 1), {0, 0.34, 1, 0.34}));
  // Symmetric Blackman of 7 = numpy.blackman(7).
  EXPECT_TRUE(Near(RunWindow("BlackmanWindow", 7, 0), {0, 0.13, 0.63, 1, 0.63, 0.13, 0}));
  EXPECT_TRUE(Near(RunWindow("HannWindow", 1, 0), {1}));
  EXPECT_TRUE(RunWindow("HannWindow", 0, 1).empty());
}

TEST(WindowTest, OutputDatatypes) {
  EXPECT_TRUE(Near(RunWindow("HannWindow", 4, 1, ge::DT_INT32), {0, 0, 1, 0}));
  EXPECT_TRUE(Near(RunWindow("HammingWindow", 4, 1, ge::DT_DOUBLE),
                   {4.0 / 46, 25.0 / 46, 1, 25.0 / 46}, 1e-12));
  EXPECT_TRUE(Near(RunWindow("BlackmanWindow", 4, 1, ge::DT_FLOAT16), {0, 0.34, 1, 0.34}, 1e-3));
}

TEST(WindowTest, ShapesAndErrors) {
  OpTester t("HannWindow", "w");
  ASSERT_TRUE(t.InferShapes({{}}, {ge::DT_INT32}, 1).ok());
  EXPECT_EQ(t.InferredShape(0), gert::Shape{-1});
  EXPECT_EQ(t.InferredDtype(0), ge::DT_FLOAT);
  EXPECT_TRUE(ErrorContains(t.InferShapes({{3}}, {ge::DT_INT32}, 1), "must be a scalar", "w"));
  EXPECT_TRUE(
      ErrorContains(t.InferShapes({{}}, {ge::DT_FLOAT}, 1), "must be DT_INT32 or DT_INT64", "w"));
  OpTester neg("HannWindow", "w");
  neg.Input(I64({}, {-3}));
  EXPECT_TRUE(ErrorContains(neg.Run(1), "size) must be >= 0, got -3", "w"));
  OpTester dt("BlackmanWindow", "w");
  dt.AttrDtype("output_datatype", ge::DT_STRING);
  ge::Status st = dt.InferShapes({{}}, {ge::DT_INT64}, 1);
  EXPECT_TRUE(ErrorContains(st, "output_datatype DT_STRING is not supported", "w"));
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported);
}

// ---------------------------------------------------------------- mel

TEST(MelWeightMatrixTest, SmallByHand) {
  // 2 mel bins over [0, 4000] Hz at 8000 Hz, dft_length 8 (5 bins):
  // mel points m_i = i * mel(4000) / 4, i < 4 (the ONNX reference's
  // spacing) -> hz [0, 426.8, 1113.8, 2219.8] -> bins floor(9 * hz / 8000)
  // = [0, 0, 1, 2].
  // Filter 0: lo = center = 0 -> out[0][0] = 1; center..hi: out[0][0] = 1.
  // Filter 1: lo 0, center 1, hi 2: out[0][1] = 0, out[1][1] = 1.
  OpTester t("MelWeightMatrix");
  t.Input(I64({}, {2}))
      .Input(I64({}, {8}))
      .Input(I64({}, {8000}))
      .Input(F32({}, {0}))
      .Input(F32({}, {4000}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{5, 2}));
  EXPECT_TRUE(Near(t.OutValues(0), {1, 0, 0, 1, 0, 0, 0, 0, 0, 0}));
}

TEST(MelWeightMatrixTest, InferAndErrors) {
  OpTester t("MelWeightMatrix", "mel");
  const std::vector<ge::DataType> dts = {ge::DT_INT64, ge::DT_INT64, ge::DT_INT64, ge::DT_FLOAT,
                                         ge::DT_FLOAT};
  ASSERT_TRUE(t.InferShapes({{}, {}, {}, {}, {}}, dts, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, -1}));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{}, {}, {}, {}, {}}, {ge::DT_FLOAT}, 1),
                            "input 0 must be DT_INT32 or DT_INT64", "mel"));
  OpTester nyq("MelWeightMatrix", "mel");
  nyq.Input(I64({}, {4}))
      .Input(I64({}, {16}))
      .Input(I64({}, {8000}))
      .Input(F32({}, {0}))
      .Input(F32({}, {8000}));
  EXPECT_TRUE(ErrorContains(nyq.Run(1), "outside [0, 9)", "mel"));
  OpTester edges("MelWeightMatrix", "mel");
  edges.Input(I64({}, {4}))
      .Input(I64({}, {16}))
      .Input(I64({}, {8000}))
      .Input(F32({}, {100}))
      .Input(F32({}, {50}));
  EXPECT_TRUE(ErrorContains(edges.Run(1), "lower_edge_hertz < upper_edge_hertz", "mel"));
  OpTester inf("MelWeightMatrix", "mel");
  inf.Input(I64({}, {4}))
      .Input(I64({}, {16}))
      .Input(I64({}, {8000}))
      .Input(F32({}, {0}))
      .Input(F32({}, {HUGE_VAL}));
  EXPECT_TRUE(ErrorContains(inf.Run(1), "(finite)", "mel"));
  OpTester huge("MelWeightMatrix", "mel");
  huge.Input(I64({}, {4}))
      .Input(I64({}, {16}))
      .Input(I64({}, {1}))
      .Input(F32({}, {0}))
      .Input(F32({}, {3e38}));
  EXPECT_TRUE(ErrorContains(huge.Run(1), "outside [0, 9)", "mel"));
  OpTester bins("MelWeightMatrix", "mel");
  bins.Input(I64({}, {0}))
      .Input(I64({}, {16}))
      .Input(I64({}, {8000}))
      .Input(F32({}, {0}))
      .Input(F32({}, {4000}));
  EXPECT_TRUE(ErrorContains(bins.Run(1), "num_mel_bins) must be positive", "mel"));
}

}  // namespace
}  // namespace ops
