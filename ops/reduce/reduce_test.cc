// ops/reduce/reduce_test.cc: Reduce*, ArgMax / ArgMin and CumSum through their
// registered infer / kernel functions. Expected values are worked out by hand
// or taken from the ONNX 1.12 node tests (the *_example data).
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/op_util.h"

namespace ops {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

// Infer / RunKernel / Make / ... : the shared op test harness.
using namespace op_test;  // NOLINT(build/namespaces): test harness

// The ONNX reduce example: shape [3, 2, 2].
gert::HostTensor Example(ge::DataType dt = ge::DT_FLOAT) {
  return Make(dt, {3, 2, 2}, {5, 1, 20, 2, 30, 1, 40, 2, 55, 1, 60, 2});
}

gert::HostTensor Axes(std::vector<double> axes) {
  return Make(ge::DT_INT64, {static_cast<int64_t>(axes.size())}, axes);
}

// ================================================================== infer

TEST(ReduceInferTest, ConstantAxesInput) {
  gert::HostTensor ax = Axes({1});
  InferResult r =
      Infer("ReduceSum", {{gert::Shape{2, 3, 4}}, {gert::Shape{1}, ge::DT_INT64, &ax.tensor()}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{2, 1, 4}));
  EXPECT_EQ(r.dtypes[0], ge::DT_FLOAT);

  r = Infer("ReduceSum", {{gert::Shape{2, -1, 4}}, {gert::Shape{1}, ge::DT_INT64, &ax.tensor()}}, 1,
            Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{2, 4}));

  gert::HostTensor neg = Axes({-1, 0});
  r = Infer("ReduceSum", {{gert::Shape{2, 3, -1}}, {gert::Shape{2}, ge::DT_INT64, &neg.tensor()}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{1, 3, 1}));
}

TEST(ReduceInferTest, DefaultAndEmptyAxes) {
  InferResult r = Infer("ReduceSum", {{gert::Shape{2, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{1, 1}));
  r = Infer("ReduceSum", {{gert::Shape{2, 3}}, Absent()}, 1, Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.shapes[0].IsScalar());

  gert::HostTensor empty = Axes({});
  r = Infer("ReduceSum", {{gert::Shape{2, 3}}, {gert::Shape{0}, ge::DT_INT64, &empty.tensor()}}, 1,
            Attrs().Set<int64_t>("noop_with_empty_axes", 1));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{2, 3}));
  // A non-constant axes input of known length 0 is also empty.
  r = Infer("ReduceSum", {{gert::Shape{2, 3}}, {gert::Shape{0}, ge::DT_INT64}}, 1,
            Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.shapes[0].IsScalar());

  // Attribute-axes ops: absent -> all; a list.
  r = Infer("ReduceMean", {{gert::Shape{2, 3, 4}}}, 1, Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.shapes[0].IsScalar());
  r = Infer("ReduceMax", {{gert::Shape{2, 3, 4}}}, 1,
            Attrs().Set<std::vector<int64_t>>("axes", {0, -1}));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{1, 3, 1}));
}

TEST(ReduceInferTest, UnknownAxesAndRank) {
  // Axes known only by shape.
  InferResult r = Infer("ReduceSum", {{gert::Shape{2, 1, 4}}, {gert::Shape{1}, ge::DT_INT64}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 1, -1}));
  r = Infer("ReduceSum", {{gert::Shape{2, 1, 4}}, {gert::Shape{2}, ge::DT_INT64}}, 1,
            Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1}));
  r = Infer("ReduceSum", {{gert::Shape{2, 1, 4}}, {gert::Shape{-1}, ge::DT_INT64}}, 1,
            Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.shapes[0].IsUnknownRank());
  r = Infer("ReduceSum", {{gert::Shape{2}}, {gert::Shape{3}, ge::DT_INT64}}, 1,
            Attrs().Set<int64_t>("keepdims", 0));
  EXPECT_THAT(Msg(r.status), HasSubstr("3 entries"));

  // Unknown input rank.
  r = Infer("ReduceL2", {{UnknownRank()}}, 1, Attrs().Set<std::vector<int64_t>>("axes", {1}));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.shapes[0].IsUnknownRank());
  r = Infer("ReduceL2", {{UnknownRank()}}, 1, Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.shapes[0].IsScalar());
}

TEST(ReduceInferTest, Errors) {
  InferResult r =
      Infer("ReduceProd", {{gert::Shape{2, 3}}}, 1, Attrs().Set<std::vector<int64_t>>("axes", {2}));
  EXPECT_EQ(ge::GetErrorCode(r.status), ge::ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(r.status), HasSubstr("node_ReduceProd"));
  EXPECT_THAT(Msg(r.status), HasSubstr("axis 2"));
  r = Infer("ReduceMin", {{gert::Shape{2, 3}}}, 1,
            Attrs().Set<std::vector<int64_t>>("axes", {1, -1}));
  EXPECT_THAT(Msg(r.status), HasSubstr("node_ReduceMin"));
  gert::HostTensor bad = Make(ge::DT_FLOAT, {1}, {0});
  r = Infer("ReduceSum", {{gert::Shape{2, 3}}, {gert::Shape{1}, ge::DT_FLOAT, &bad.tensor()}});
  EXPECT_THAT(Msg(r.status), HasSubstr("input 1 (axes)"));
  r = Infer("ReduceSum", {{gert::Shape{2, 3}}, {gert::Shape{1, 1}, ge::DT_INT64}});
  EXPECT_THAT(Msg(r.status), HasSubstr("1-D"));
  r = Infer("ReduceMean", {{gert::Shape{2, 3}}}, 1, Attrs().Set<std::string>("axes", "0"));
  EXPECT_FALSE(r.status.ok());
}

// ================================================================== kernels

TEST(ReduceKernelTest, OnnxKeepdimsExample) {
  // axes [1], keepdims 1 on the [3, 2, 2] example.
  struct Case {
    const char* type;
    std::vector<double> want;
  };
  const std::vector<Case> cases = {
      {"ReduceMean", {12.5, 1.5, 35, 1.5, 57.5, 1.5}},
      {"ReduceMax", {20, 2, 40, 2, 60, 2}},
      {"ReduceMin", {5, 1, 30, 1, 55, 1}},
      {"ReduceProd", {100, 2, 1200, 2, 3300, 2}},
      {"ReduceL1", {25, 3, 70, 3, 115, 3}},
      {"ReduceSumSquare", {425, 5, 2500, 5, 6625, 5}},
      {"ReduceL2",
       {std::sqrt(425.0), std::sqrt(5.0), 50, std::sqrt(5.0), std::sqrt(6625.0), std::sqrt(5.0)}},
      {"ReduceLogSum",
       {std::log(25.0), std::log(3.0), std::log(70.0), std::log(3.0), std::log(115.0),
        std::log(3.0)}},
      {"ReduceLogSumExp",
       {20.000000305902272, 2.3132616875182226, 40.00004539889922, 2.3132616875182226,
        60.00671534848912, 2.3132616875182226}},
  };
  gert::HostTensor x = Example(ge::DT_DOUBLE);
  for (const Case& c : cases) {
    KernelRun run;
    RunKernel(c.type, {&x}, &run, 1, Attrs().Set<std::vector<int64_t>>("axes", {1}));
    ASSERT_TRUE(run.status.ok()) << c.type << ": " << run.status;
    EXPECT_EQ(run.Shape(), (gert::Shape{3, 1, 2})) << c.type;
    const std::vector<double> got = run.Values();
    ASSERT_EQ(got.size(), c.want.size()) << c.type;
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_NEAR(got[i], c.want[i], 1e-9) << c.type << " " << i;
  }
  gert::HostTensor ax = Axes({1});
  KernelRun sum;
  RunKernel("ReduceSum", {&x, &ax}, &sum);
  ASSERT_TRUE(sum.status.ok()) << sum.status;
  EXPECT_EQ(sum.Shape(), (gert::Shape{3, 1, 2}));
  EXPECT_THAT(sum.Values(), ElementsAre(25, 3, 70, 3, 115, 3));
}

TEST(ReduceKernelTest, AxesLayouts) {
  // [2, 3, 4] iota from 0: reduce the outer and inner axes, keep the middle.
  gert::HostTensor x = Make(ge::DT_INT64, {2, 3, 4}, Iota(24, 0));
  gert::HostTensor ax = Axes({0, 2});
  KernelRun sum;
  RunKernel("ReduceSum", {&x, &ax}, &sum, 1, Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(sum.status.ok()) << sum.status;
  EXPECT_EQ(sum.Shape(), (gert::Shape{3}));
  EXPECT_THAT(sum.Values(), ElementsAre(60, 92, 124));
  KernelRun mx;
  RunKernel("ReduceMax", {&x}, &mx, 1, Attrs().Set<std::vector<int64_t>>("axes", {2, 0}));
  ASSERT_TRUE(mx.status.ok()) << mx.status;
  EXPECT_EQ(mx.Shape(), (gert::Shape{1, 3, 1}));
  EXPECT_THAT(mx.Values(), ElementsAre(15, 19, 23));

  // Reduce everything (no axes input) and a single inner axis of length 9
  // (exercises the 4-way partial sums and the tail).
  KernelRun all;
  RunKernel("ReduceSum", {&x}, &all, 1, Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(all.status.ok()) << all.status;
  EXPECT_TRUE(all.Shape().IsScalar());
  EXPECT_THAT(all.Values(), ElementsAre(276));
  gert::HostTensor row = Make(ge::DT_FLOAT, {2, 9}, Iota(18));
  gert::HostTensor last = Axes({-1});
  KernelRun rs;
  RunKernel("ReduceSum", {&row, &last}, &rs);
  ASSERT_TRUE(rs.status.ok()) << rs.status;
  EXPECT_EQ(rs.Shape(), (gert::Shape{2, 1}));
  EXPECT_THAT(rs.Values(), ElementsAre(45, 126));

  // Size-1 dims reduced or kept change nothing but the shape.
  gert::HostTensor ones = Make(ge::DT_FLOAT, {1, 3, 1}, {1, 2, 3});
  gert::HostTensor a0 = Axes({0, 2});
  KernelRun squeeze;
  RunKernel("ReduceSum", {&ones, &a0}, &squeeze, 1, Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(squeeze.status.ok()) << squeeze.status;
  EXPECT_EQ(squeeze.Shape(), (gert::Shape{3}));
  EXPECT_THAT(squeeze.Values(), ElementsAre(1, 2, 3));
}

TEST(ReduceKernelTest, NoopWithEmptyAxes) {
  gert::HostTensor x = Make(ge::DT_FLOAT, {2, 2}, {1, 2, 3, 4});
  gert::HostTensor empty = Axes({});
  KernelRun noop;
  RunKernel("ReduceSum", {&x, &empty}, &noop, 1, Attrs().Set<int64_t>("noop_with_empty_axes", 1));
  ASSERT_TRUE(noop.status.ok()) << noop.status;
  EXPECT_EQ(noop.Shape(), (gert::Shape{2, 2}));
  EXPECT_THAT(noop.Values(), ElementsAre(1, 2, 3, 4));
  KernelRun all;
  RunKernel("ReduceSum", {&x, &empty}, &all);
  ASSERT_TRUE(all.status.ok()) << all.status;
  EXPECT_EQ(all.Shape(), (gert::Shape{1, 1}));
  EXPECT_THAT(all.Values(), ElementsAre(10));
}

TEST(ReduceKernelTest, EmptyReductionsGiveIdentities) {
  gert::HostTensor x = Make(ge::DT_FLOAT, {2, 0}, {});
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    const char* type;
    double want;
  };
  for (const Case& c : std::vector<Case>{{"ReduceMin", inf},
                                         {"ReduceMax", -inf},
                                         {"ReduceProd", 1},
                                         {"ReduceL1", 0},
                                         {"ReduceL2", 0},
                                         {"ReduceSumSquare", 0},
                                         {"ReduceLogSum", -inf},
                                         {"ReduceLogSumExp", -inf}}) {
    KernelRun run;
    RunKernel(c.type, {&x}, &run, 1, Attrs().Set<std::vector<int64_t>>("axes", {1}));
    ASSERT_TRUE(run.status.ok()) << c.type << ": " << run.status;
    EXPECT_EQ(run.Shape(), (gert::Shape{2, 1})) << c.type;
    EXPECT_THAT(run.Values(), ElementsAre(c.want, c.want)) << c.type;
  }
  KernelRun mean;
  RunKernel("ReduceMean", {&x}, &mean, 1, Attrs().Set<std::vector<int64_t>>("axes", {1}));
  ASSERT_TRUE(mean.status.ok()) << mean.status;
  EXPECT_TRUE(std::isnan(mean.Values()[0]));
  gert::HostTensor ax = Axes({1});
  KernelRun sum;
  RunKernel("ReduceSum", {&x, &ax}, &sum, 1, Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(sum.status.ok()) << sum.status;
  EXPECT_THAT(sum.Values(), ElementsAre(0, 0));

  gert::HostTensor xi = Make(ge::DT_INT32, {0, 3}, {});
  KernelRun imax;
  RunKernel("ReduceMax", {&xi}, &imax, 1, Attrs().Set<std::vector<int64_t>>("axes", {0}));
  ASSERT_TRUE(imax.status.ok()) << imax.status;
  const double lo = std::numeric_limits<int32_t>::lowest();
  EXPECT_THAT(imax.Values(), ElementsAre(lo, lo, lo));
  // An empty output (kept dim of size 0) is fine too.
  KernelRun none;
  RunKernel("ReduceMax", {&xi}, &none, 1, Attrs().Set<std::vector<int64_t>>("axes", {1}));
  ASSERT_TRUE(none.status.ok()) << none.status;
  EXPECT_EQ(none.Shape(), (gert::Shape{0, 1}));
}

TEST(ReduceKernelTest, TypesAndSpecialValues) {
  // int32 sum wraps; int mean truncates toward zero.
  gert::HostTensor big = Make(ge::DT_INT32, {2}, {2147483647, 1});
  KernelRun wrap;
  RunKernel("ReduceSum", {&big}, &wrap, 1, Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(wrap.status.ok()) << wrap.status;
  EXPECT_THAT(wrap.Values(), ElementsAre(-2147483648.0));
  gert::HostTensor xi = Make(ge::DT_INT32, {3}, {-1, -2, -4});
  KernelRun imean;
  RunKernel("ReduceMean", {&xi}, &imean, 1, Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(imean.status.ok()) << imean.status;
  EXPECT_THAT(imean.Values(), ElementsAre(-2));  // -7 / 3 = -2.33
  KernelRun il1;
  RunKernel("ReduceL1", {&xi}, &il1, 1, Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(il1.status.ok()) << il1.status;
  EXPECT_THAT(il1.Values(), ElementsAre(7));

  // int8 / uint8 ReduceMax and ReduceMin.
  gert::HostTensor i8 = Make(ge::DT_INT8, {4}, {-128, 5, 127, -3});
  KernelRun mn, mx;
  RunKernel("ReduceMin", {&i8}, &mn);
  RunKernel("ReduceMax", {&i8}, &mx);
  ASSERT_TRUE(mn.status.ok() && mx.status.ok());
  EXPECT_EQ(mn.outs[0].GetDataType(), ge::DT_INT8);
  EXPECT_THAT(mn.Values(), ElementsAre(-128));
  EXPECT_THAT(mx.Values(), ElementsAre(127));

  // FLOAT16 / BF16 compute in float.
  for (ge::DataType dt : {ge::DT_FLOAT16, ge::DT_BF16}) {
    gert::HostTensor h = Make(dt, {2, 2}, {0.5, 1.5, 2, 4});
    KernelRun run;
    RunKernel("ReduceMean", {&h}, &run, 1, Attrs().Set<std::vector<int64_t>>("axes", {0}));
    ASSERT_TRUE(run.status.ok()) << run.status;
    EXPECT_EQ(run.outs[0].GetDataType(), dt);
    EXPECT_THAT(run.Values(), ElementsAre(1.25, 2.75));
  }

  // NaN propagates through Max / Min; LogSumExp is stable for large inputs.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  gert::HostTensor withnan = Make(ge::DT_FLOAT, {3}, {1, nan, 3});
  KernelRun nmax;
  RunKernel("ReduceMax", {&withnan}, &nmax);
  ASSERT_TRUE(nmax.status.ok());
  EXPECT_TRUE(std::isnan(nmax.Values()[0]));
  gert::HostTensor large = Make(ge::DT_FLOAT, {2}, {1000, 1000});
  KernelRun lse;
  RunKernel("ReduceLogSumExp", {&large}, &lse);
  ASSERT_TRUE(lse.status.ok());
  EXPECT_NEAR(lse.Values()[0], 1000.6931471805599, 1e-3);
  const double inf = std::numeric_limits<double>::infinity();
  gert::HostTensor infs = Make(ge::DT_DOUBLE, {2}, {-inf, -inf});
  KernelRun lse_inf;
  RunKernel("ReduceLogSumExp", {&infs}, &lse_inf);
  ASSERT_TRUE(lse_inf.status.ok());
  EXPECT_EQ(lse_inf.Values()[0], -inf);
}

TEST(ReduceKernelTest, Errors) {
  gert::HostTensor x = Make(ge::DT_FLOAT, {2, 2}, {1, 2, 3, 4});
  gert::HostTensor bad_axes = Axes({3});
  KernelRun run;
  RunKernel("ReduceSum", {&x, &bad_axes}, &run);
  EXPECT_THAT(Msg(run.status), HasSubstr("node_ReduceSum"));
  EXPECT_THAT(Msg(run.status), HasSubstr("axis 3"));
  gert::HostTensor dup = Axes({0, -2});
  KernelRun dup_run;
  RunKernel("ReduceSum", {&x, &dup}, &dup_run);
  EXPECT_FALSE(dup_run.status.ok());
  gert::HostTensor s = Make(ge::DT_BOOL, {2}, {1, 0});
  KernelRun bool_run;
  RunKernel("ReduceL1", {&s}, &bool_run);
  EXPECT_EQ(ge::GetErrorCode(bool_run.status), ge::ErrorCode::kNotSupported);
  KernelRun missing;
  RunKernel("ReduceMax", {nullptr}, &missing);
  EXPECT_THAT(Msg(missing.status), HasSubstr("input 0"));
}

// ================================================================== ArgMax / ArgMin

TEST(ArgTest, OnnxExamples) {
  gert::HostTensor x = Make(ge::DT_FLOAT, {2, 2}, {2, 1, 3, 10});
  KernelRun amax;
  RunKernel("ArgMax", {&x}, &amax, 1, Attrs().Set<int64_t>("axis", 1));
  ASSERT_TRUE(amax.status.ok()) << amax.status;
  EXPECT_EQ(amax.outs[0].GetDataType(), ge::DT_INT64);
  EXPECT_EQ(amax.Shape(), (gert::Shape{2, 1}));
  EXPECT_THAT(amax.Values(), ElementsAre(0, 1));
  KernelRun amin;
  RunKernel("ArgMin", {&x}, &amin, 1, Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(amin.status.ok()) << amin.status;
  EXPECT_EQ(amin.Shape(), (gert::Shape{2}));
  EXPECT_THAT(amin.Values(), ElementsAre(0, 0));

  // select_last_index with ties: [[2, 2], [3, 10]].
  gert::HostTensor ties = Make(ge::DT_INT32, {2, 2}, {2, 2, 3, 10});
  KernelRun first, last, last_min;
  RunKernel("ArgMax", {&ties}, &first, 1, Attrs().Set<int64_t>("axis", -1));
  RunKernel("ArgMax", {&ties}, &last, 1,
            Attrs().Set<int64_t>("axis", -1).Set<int64_t>("select_last_index", 1));
  RunKernel("ArgMin", {&ties}, &last_min, 1,
            Attrs().Set<int64_t>("axis", 1).Set<int64_t>("select_last_index", 1));
  ASSERT_TRUE(first.status.ok() && last.status.ok() && last_min.status.ok());
  EXPECT_THAT(first.Values(), ElementsAre(0, 1));
  EXPECT_THAT(last.Values(), ElementsAre(1, 1));
  EXPECT_THAT(last_min.Values(), ElementsAre(1, 0));
}

TEST(ArgTest, MiddleAxisNanAndHalf) {
  // [2, 3, 2] along axis 1.
  gert::HostTensor x = Make(ge::DT_DOUBLE, {2, 3, 2}, {1, 9, 5, 2, 3, 4, 7, 0, 7, 8, -1, 8});
  KernelRun run;
  RunKernel("ArgMax", {&x}, &run, 1, Attrs().Set<int64_t>("axis", 1));
  ASSERT_TRUE(run.status.ok()) << run.status;
  EXPECT_EQ(run.Shape(), (gert::Shape{2, 1, 2}));
  EXPECT_THAT(run.Values(), ElementsAre(1, 0, 0, 1));
  KernelRun rl;
  RunKernel("ArgMax", {&x}, &rl, 1,
            Attrs().Set<int64_t>("axis", 1).Set<int64_t>("select_last_index", 1));
  ASSERT_TRUE(rl.status.ok()) << rl.status;
  EXPECT_THAT(rl.Values(), ElementsAre(1, 0, 1, 2));

  const double nan = std::numeric_limits<double>::quiet_NaN();
  gert::HostTensor xn = Make(ge::DT_FLOAT, {4}, {1, nan, 5, nan});
  KernelRun n1, n2;
  RunKernel("ArgMin", {&xn}, &n1);
  RunKernel("ArgMax", {&xn}, &n2, 1, Attrs().Set<int64_t>("select_last_index", 1));
  ASSERT_TRUE(n1.status.ok() && n2.status.ok());
  EXPECT_THAT(n1.Values(), ElementsAre(1));
  EXPECT_THAT(n2.Values(), ElementsAre(3));

  gert::HostTensor h = Make(ge::DT_FLOAT16, {3}, {0.5, -2, 0.25});
  KernelRun hr;
  RunKernel("ArgMin", {&h}, &hr, 1, Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(hr.status.ok()) << hr.status;
  EXPECT_TRUE(hr.Shape().IsScalar());
  EXPECT_THAT(hr.Values(), ElementsAre(1));
}

TEST(ArgTest, InferAndErrors) {
  InferResult r = Infer("ArgMax", {{gert::Shape{-1, 3}}}, 1, Attrs().Set<int64_t>("axis", 1));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 1}));
  EXPECT_EQ(r.dtypes[0], ge::DT_INT64);
  r = Infer("ArgMin", {{gert::Shape{4, 3}}}, 1, Attrs().Set<int64_t>("keepdims", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{3}));
  r = Infer("ArgMin", {{UnknownRank()}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.shapes[0].IsUnknownRank());
  r = Infer("ArgMax", {{gert::Shape{4, 3}}}, 1, Attrs().Set<int64_t>("axis", 2));
  EXPECT_THAT(Msg(r.status), HasSubstr("node_ArgMax"));
  EXPECT_THAT(Msg(r.status), HasSubstr("axis"));
  r = Infer("ArgMax", {{gert::Shape{0, 3}}});
  EXPECT_THAT(Msg(r.status), HasSubstr("empty axis"));
  gert::HostTensor e = Make(ge::DT_FLOAT, {3, 0}, {});
  KernelRun run;
  RunKernel("ArgMin", {&e}, &run, 1, Attrs().Set<int64_t>("axis", 1));
  EXPECT_THAT(Msg(run.status), HasSubstr("node_ArgMin"));
  KernelRun ok_empty;  // a zero-size non-reduced dim is fine
  RunKernel("ArgMin", {&e}, &ok_empty, 1, Attrs().Set<int64_t>("axis", 0));
  ASSERT_TRUE(ok_empty.status.ok()) << ok_empty.status;
  EXPECT_EQ(ok_empty.Shape(), (gert::Shape{1, 0}));
}

// ================================================================== CumSum

TEST(CumSumTest, OnnxCases) {
  gert::HostTensor x = Make(ge::DT_DOUBLE, {5}, {1, 2, 3, 4, 5});
  gert::HostTensor axis = Make(ge::DT_INT32, {}, {0});
  struct Case {
    int64_t exclusive, reverse;
    std::vector<double> want;
  };
  for (const Case& c : std::vector<Case>{{0, 0, {1, 3, 6, 10, 15}},
                                         {1, 0, {0, 1, 3, 6, 10}},
                                         {0, 1, {15, 14, 12, 9, 5}},
                                         {1, 1, {14, 12, 9, 5, 0}}}) {
    KernelRun run;
    RunKernel("CumSum", {&x, &axis}, &run, 1,
              Attrs().Set<int64_t>("exclusive", c.exclusive).Set<int64_t>("reverse", c.reverse));
    ASSERT_TRUE(run.status.ok()) << run.status;
    EXPECT_EQ(run.Shape(), (gert::Shape{5}));
    EXPECT_THAT(run.Values(), ElementsAreArray(c.want)) << c.exclusive << c.reverse;
  }

  gert::HostTensor m = Make(ge::DT_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  gert::HostTensor a0 = Make(ge::DT_INT64, {1}, {0});
  gert::HostTensor a1 = Make(ge::DT_INT32, {}, {1});
  gert::HostTensor an = Make(ge::DT_INT64, {}, {-1});
  KernelRun r0, r1, rn;
  RunKernel("CumSum", {&m, &a0}, &r0);
  RunKernel("CumSum", {&m, &a1}, &r1);
  RunKernel("CumSum", {&m, &an}, &rn);
  ASSERT_TRUE(r0.status.ok() && r1.status.ok() && rn.status.ok());
  EXPECT_THAT(r0.Values(), ElementsAre(1, 2, 3, 5, 7, 9));
  EXPECT_THAT(r1.Values(), ElementsAre(1, 3, 6, 4, 9, 15));
  EXPECT_THAT(rn.Values(), ElementsAre(1, 3, 6, 4, 9, 15));
}

TEST(CumSumTest, TypesAndErrors) {
  gert::HostTensor xi = Make(ge::DT_INT32, {3}, {2147483647, 1, 1});
  gert::HostTensor axis = Make(ge::DT_INT64, {}, {0});
  KernelRun wrap;
  RunKernel("CumSum", {&xi, &axis}, &wrap);
  ASSERT_TRUE(wrap.status.ok()) << wrap.status;
  EXPECT_THAT(wrap.Values(), ElementsAre(2147483647.0, -2147483648.0, -2147483647.0));
  gert::HostTensor h = Make(ge::DT_FLOAT16, {3}, {0.5, 0.25, 1});
  KernelRun half;
  RunKernel("CumSum", {&h, &axis}, &half, 1, Attrs().Set<int64_t>("reverse", 1));
  ASSERT_TRUE(half.status.ok()) << half.status;
  EXPECT_THAT(half.Values(), ElementsAre(1.75, 1.25, 1));

  gert::HostTensor bad = Make(ge::DT_INT64, {}, {1});
  KernelRun out_of_range;
  RunKernel("CumSum", {&xi, &bad}, &out_of_range);
  EXPECT_THAT(Msg(out_of_range.status), HasSubstr("node_CumSum"));
  EXPECT_THAT(Msg(out_of_range.status), HasSubstr("axis"));
  gert::HostTensor two = Make(ge::DT_INT64, {2}, {0, 0});
  KernelRun two_axes;
  RunKernel("CumSum", {&xi, &two}, &two_axes);
  EXPECT_THAT(Msg(two_axes.status), HasSubstr("one-element"));
  gert::HostTensor scalar = Make(ge::DT_FLOAT, {}, {1});
  KernelRun sc;
  RunKernel("CumSum", {&scalar, &axis}, &sc);
  EXPECT_THAT(Msg(sc.status), HasSubstr("rank >= 1"));

  InferResult r = Infer("CumSum", {{gert::Shape{-1, 3}}, {gert::Shape{}, ge::DT_INT32}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 3}));
  r = Infer("CumSum", {{gert::Shape{2, 3}}, {gert::Shape{}, ge::DT_INT32, &bad.tensor()}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  gert::HostTensor five = Make(ge::DT_INT64, {}, {5});
  r = Infer("CumSum", {{gert::Shape{2, 3}}, {gert::Shape{}, ge::DT_INT64, &five.tensor()}});
  EXPECT_THAT(Msg(r.status), HasSubstr("axis 5"));
  r = Infer("CumSum", {{gert::Shape{2, 3}}, {gert::Shape{}, ge::DT_FLOAT}});
  EXPECT_EQ(ge::GetErrorCode(r.status), ge::ErrorCode::kTypeMismatch);
}

TEST(RegistrationTest, AllReduceOps) {
  for (const char* t :
       {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
        "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare", "ArgMax", "ArgMin", "CumSum"}) {
    const ge::OpRegistrationData* r = Reg(t);
    ASSERT_NE(r, nullptr);
    EXPECT_NE(r->infer_shape, nullptr) << t;
    EXPECT_NE(r->FindKernel(ge::kEngineHostCpu), nullptr) << t;
  }
  EXPECT_EQ(Reg("ReduceSum")->inputs.size(), 2u);
  EXPECT_NE(Reg("ReduceSum")->FindAttr("noop_with_empty_axes"), nullptr);
  EXPECT_NE(Reg("ReduceMean")->FindAttr("axes"), nullptr);
  EXPECT_TRUE(Reg("ReduceMax")->inputs[0].types.Contains(ge::DT_INT8));
  EXPECT_FALSE(Reg("ReduceMean")->inputs[0].types.Contains(ge::DT_INT8));
}

}  // namespace
}  // namespace ops
