// ops/compute/norm/norm_test.cc
//
// BatchNormalization and LayerNormalization on the compute engine against
// the host-CPU reference kernels (every output, running stats and Mean /
// InvStdDev included): BN on ranks 2 to 6 with constant and runtime
// parameters, LayerNorm on every axis with broadcast Scale / B, fp32 and
// bf16, 1 and 2 threads; LayerNorm runs that ask for some statistics only;
// and what Supports rejects.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "ops/compute/common/compute_kernel_tester.h"
#include "ops/compute/common/dnnl_common.h"

namespace ops {
namespace compute {
namespace {

using testing::ComputeKernelTester;
using testing::RandomTensor;
using Dims = std::vector<int64_t>;

std::string Str(const Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

double Tol(ge::DataType dt) { return dt == ge::DT_BF16 ? 2e-2 : 1e-4; }

// ---------------------------------------------------------------- BatchNormalization

// dt: X's type; pdt: the parameters' type; const_mask bit i: parameter i
// (scale, B, input_mean, input_var) is a constant.
::testing::AssertionResult BatchNormMatches(const Dims& x, int const_mask, ge::DataType dt,
                                            ge::DataType pdt, float eps = 1e-5f) {
  ComputeKernelTester t("BatchNormalization");
  t.Attr("epsilon", eps);
  t.Input(RandomTensor(dt, x, 1, -2, 2));
  const int64_t c = x[1];
  for (int i = 0; i < 4; ++i) {
    // input_var (i == 3) positive.
    gert::HostTensor p = RandomTensor(pdt, {c}, 10 + i, i == 3 ? 0.25 : -1.0, i == 3 ? 2.0 : 1.0);
    if (const_mask & (1 << i)) {
      t.Const(std::move(p));
    } else {
      t.Input(std::move(p));
    }
  }
  return t.MatchesReference(Tol(dt), Tol(dt), {1, 2});
}

TEST(ComputeBatchNormTest, RanksAndParameters) {
  const std::vector<Dims> shapes = {{4, 3},        {2, 5, 7},       {2, 3, 5, 4},
                                    {1, 16, 7, 9}, {1, 4, 3, 2, 5}, {1, 2, 2, 2, 2, 3}};
  for (const Dims& x : shapes) {
    for (int mask : {0, 15, 0b0011, 0b1100, 0b0110}) {
      EXPECT_TRUE(BatchNormMatches(x, mask, ge::DT_FLOAT, ge::DT_FLOAT))
          << Str(x) << " const mask " << mask;
    }
  }
  EXPECT_TRUE(BatchNormMatches({2, 3, 4, 4}, 15, ge::DT_FLOAT, ge::DT_FLOAT, 0.5f));
  // A large plane and many small ones: both split over the threads.
  EXPECT_TRUE(BatchNormMatches({1, 8, 64, 64}, 15, ge::DT_FLOAT, ge::DT_FLOAT));
  EXPECT_TRUE(BatchNormMatches({64, 512}, 0, ge::DT_FLOAT, ge::DT_FLOAT));
}

TEST(ComputeBatchNormTest, Bf16) {
  for (const Dims& x : std::vector<Dims>{{4, 3}, {2, 3, 5, 4}, {1, 4, 3, 2, 5}}) {
    for (int mask : {0, 15, 0b1010}) {
      EXPECT_TRUE(BatchNormMatches(x, mask, ge::DT_BF16, ge::DT_BF16))
          << Str(x) << " const mask " << mask;
    }
  }
}

void ExpectNotSupported(ComputeKernelTester& t, const std::string& what) {
  ge::Status st = t.Supported();
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << what << ": " << st;
}

// ONNX lets X and the parameters differ in type (T, T1, T2).
TEST(ComputeBatchNormTest, MixedTypes) {
  for (int mask : {0, 15}) {
    EXPECT_TRUE(BatchNormMatches({2, 3, 5, 4}, mask, ge::DT_BF16, ge::DT_FLOAT)) << mask;
    EXPECT_TRUE(BatchNormMatches({2, 3, 5, 4}, mask, ge::DT_FLOAT, ge::DT_BF16)) << mask;
  }
}

TEST(ComputeBatchNormTest, Rejections) {
  auto make = [](ComputeKernelTester& t, ge::DataType dt, const Dims& x) {
    t.Input(RandomTensor(dt, x, 1));
    for (int i = 0; i < 4; ++i) t.Const(RandomTensor(dt, {x[1]}, 2 + i, 0.5, 1.0));
  };
  {
    ComputeKernelTester t("BatchNormalization");
    t.Attr("training_mode", int64_t{1});
    make(t, ge::DT_FLOAT, {2, 3, 4, 4});
    ge::Status st = t.Supported();
    EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
    EXPECT_NE(st.message().find("training_mode"), std::string::npos) << st;
  }
  {
    ComputeKernelTester t("BatchNormalization");
    make(t, ge::DT_DOUBLE, {2, 3, 4});
    ExpectNotSupported(t, "double");
  }
  {
    ComputeKernelTester t("BatchNormalization");
    make(t, ge::DT_FLOAT, {0, 3, 4});
    ExpectNotSupported(t, "empty batch");
  }
}

// ---------------------------------------------------------------- LayerNormalization

struct LnCase {
  Dims x;
  int64_t axis;
  Dims scale;  // Scale's shape (empty: the normalised dims)
  bool bias = true;
  bool params_const = true;
  ge::DataType dt = ge::DT_FLOAT;
};

Dims NormDims(const LnCase& c) {
  const int64_t r = static_cast<int64_t>(c.x.size());
  const int64_t a = c.axis < 0 ? c.axis + r : c.axis;
  return Dims(c.x.begin() + a, c.x.end());
}

std::string Describe(const LnCase& c) {
  return Str(c.x) + " axis " + std::to_string(c.axis) + " scale " +
         Str(c.scale.empty() ? NormDims(c) : c.scale) + (c.bias ? " bias" : "") +
         (c.params_const ? " const" : "") + (c.dt == ge::DT_BF16 ? " bf16" : "");
}

void AddLayerNorm(ComputeKernelTester& t, const LnCase& c) {
  t.Attr("axis", c.axis).Attr("epsilon", 1e-5f);
  t.Input(RandomTensor(c.dt, c.x, 1, -2, 2));
  const Dims s = c.scale.empty() ? NormDims(c) : c.scale;
  gert::HostTensor scale = RandomTensor(c.dt, s, 2, 0.5, 1.5);
  gert::HostTensor bias = RandomTensor(c.dt, s, 3);
  if (c.params_const) {
    t.Const(std::move(scale));
    if (c.bias) t.Const(std::move(bias));
  } else {
    t.Input(std::move(scale));
    if (c.bias) t.Input(std::move(bias));
  }
}

::testing::AssertionResult LayerNormMatches(const LnCase& c) {
  ComputeKernelTester t("LayerNormalization");
  AddLayerNorm(t, c);
  return t.MatchesReference(Tol(c.dt), Tol(c.dt), {1, 2});
}

TEST(DnnlLayerNormTest, EveryAxis) {
  const std::vector<Dims> shapes = {{5}, {4, 6}, {2, 3, 4}, {2, 3, 4, 5}};
  for (const Dims& x : shapes) {
    const int64_t r = static_cast<int64_t>(x.size());
    for (int64_t axis = -r; axis < r; ++axis) {
      for (bool bias : {false, true}) {
        for (bool params_const : {false, true}) {
          LnCase c{x, axis, {}, bias, params_const};
          EXPECT_TRUE(LayerNormMatches(c)) << Describe(c);
        }
      }
    }
  }
}

TEST(DnnlLayerNormTest, BroadcastScaleAndBias) {
  const std::vector<LnCase> cases = {
      {{2, 3, 4}, 1, {4}}, {{2, 3, 4}, 1, {1, 4}}, {{2, 3, 4}, 1, {3, 1}},    {{2, 3, 4}, 1, {1}},
      {{2, 3, 4}, 1, {}},  {{2, 3, 4}, -1, {1}},   {{2, 3, 4, 5}, 1, {4, 1}},
  };
  for (LnCase c : cases) {
    for (bool params_const : {false, true}) {
      c.params_const = params_const;
      EXPECT_TRUE(LayerNormMatches(c)) << Describe(c);
    }
  }
}

TEST(DnnlLayerNormTest, BertShapesAndBf16) {
  EXPECT_TRUE(LayerNormMatches({{1, 128, 768}, -1}));
  for (bool params_const : {false, true}) {
    for (const LnCase& base :
         std::vector<LnCase>{{{3, 7, 16}, -1}, {{3, 7, 16}, 1}, {{4, 6}, -1, {1}}}) {
      LnCase c = base;
      c.params_const = params_const;
      c.dt = ge::DT_BF16;
      EXPECT_TRUE(LayerNormMatches(c)) << Describe(c);
    }
  }
}

// The kernel run directly with some of the optional outputs absent (null):
// the values it writes must equal those of the run with every output (which
// MatchesReference checks against the host kernel).
class LayerNormRun {
 public:
  explicit LayerNormRun(const Dims& x) : x_(RandomTensor(ge::DT_FLOAT, x, 1)) {
    const gert::Shape& xs = x_.GetShape();
    scale_ = RandomTensor(ge::DT_FLOAT, {xs.GetDim(xs.GetDimNum() - 1)}, 2, 0.5, 1.5);
    gert::Shape stat = xs;
    stat.SetDim(xs.GetDimNum() - 1, 1);
    y_ = *gert::HostTensor::Create(ge::DT_FLOAT, xs);
    mean_ = *gert::HostTensor::Create(ge::DT_FLOAT, stat);
    inv_ = *gert::HostTensor::Create(ge::DT_FLOAT, stat);
  }

  // Prepares a kernel and runs it with the outputs chosen.
  ge::Status Run(bool with_mean, bool with_inv) {
    const ge::KernelDef* def = ge::FindKernel("LayerNormalization", ge::kEngineAiCore);
    if (def == nullptr) return ge::NotFound("no kernel");
    std::unique_ptr<ge::OpKernel> k = def->NewKernel();
    gert::Tensor x_fact = x_.tensor();
    x_fact.SetData(nullptr, 0);
    gert::Tensor facts[3] = {y_.tensor(), mean_.tensor(), inv_.tensor()};
    for (gert::Tensor& f : facts) f.SetData(nullptr, 0);
    ge::NamedAttrs attrs;
    gert::TilingContextBuilder tb;
    gert::TilingContext* tctx = tb.Node("ln", "LayerNormalization")
                                    .Attrs(&attrs)
                                    .Inputs({&x_fact, &scale_.tensor(), nullptr})
                                    .Outputs({&facts[0], &facts[1], &facts[2]})
                                    .Build();
    RETURN_IF_ERROR(k->Prepare(*tctx));
    std::vector<std::unique_ptr<AlignedBuffer>> ws;
    std::vector<void*> ws_ptrs;
    for (size_t bytes : tctx->GetWorkspaceSizes()) {
      ASSIGN_OR_RETURN(AlignedBuffer b, AlignedBuffer::Allocate(bytes));
      ws.push_back(std::make_unique<AlignedBuffer>(std::move(b)));
      ws_ptrs.push_back(ws.back()->data());
    }
    gert::KernelRunContextBuilder b;
    b.Node("ln", "LayerNormalization")
        .Attrs(&attrs)
        .Inputs({&x_.tensor(), &scale_.tensor(), nullptr})
        .Outputs({y_.MutableTensor(), with_mean ? mean_.MutableTensor() : nullptr,
                  with_inv ? inv_.MutableTensor() : nullptr})
        .Workspaces(ws_ptrs);
    return k->Run(*b.Build());
  }

  std::vector<float> y() const { return Values(y_); }
  std::vector<float> mean() const { return Values(mean_); }
  std::vector<float> inv() const { return Values(inv_); }

 private:
  static std::vector<float> Values(const gert::HostTensor& t) {
    const float* p = t.GetData<float>();
    return std::vector<float>(p, p + t.GetShape().GetShapeSize());
  }

  gert::HostTensor x_, scale_, y_, mean_, inv_;
};

TEST(DnnlLayerNormTest, SomeStatisticsOnly) {
  LayerNormRun all({6, 10});
  ASSERT_TRUE(all.Run(true, true).ok());
  for (auto [with_mean, with_inv] :
       std::vector<std::pair<bool, bool>>{{false, false}, {true, false}, {false, true}}) {
    LayerNormRun some({6, 10});
    ge::Status st = some.Run(with_mean, with_inv);
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_EQ(some.y(), all.y()) << with_mean << with_inv;
    if (with_mean) {
      EXPECT_EQ(some.mean(), all.mean());
    }
    if (with_inv) {
      EXPECT_EQ(some.inv(), all.inv());
    }
  }
}

TEST(DnnlLayerNormTest, Rejections) {
  {
    ComputeKernelTester t("LayerNormalization");
    t.Attr("stash_type", int64_t{16});  // BF16 statistics: declared types pass
    AddLayerNorm(t, {{2, 3}, -1});
    ge::Status st = t.Supported();
    EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
    EXPECT_NE(st.message().find("stash_type"), std::string::npos) << st;
  }
  {
    ComputeKernelTester t("LayerNormalization");
    LnCase c{{2, 3}, -1};
    c.dt = ge::DT_DOUBLE;
    AddLayerNorm(t, c);
    ExpectNotSupported(t, "double");
  }
  {
    ComputeKernelTester t("LayerNormalization");
    AddLayerNorm(t, {{0, 3}, -1});
    ExpectNotSupported(t, "empty");
  }
}

}  // namespace
}  // namespace compute
}  // namespace ops
