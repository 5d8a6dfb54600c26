// ops/compute/conv/conv_kernel_test.cc
//
// The compute engine's Conv / ConvTranspose against the host kernels
// (ops/nn/conv.cc): FLOAT through ComputeKernelTester (const and non-const
// weights, 1 and 2 threads); BF16 and NC1HWC0 tensors, which the op
// definition / the reference cannot take, by running the kernel directly
// and comparing with the host kernel on FLOAT / NCHW copies; each fused
// activation against the host Conv followed by the host activation; and
// Supports' rejections.
#include "ops/compute/conv/conv_kernel.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/op_util.h"
#include "ops/compute/common/bf16_emulation.h"
#include "ops/compute/common/compute_kernel_tester.h"
#include "ops/compute/common/dnnl_common.h"
#include "ops/compute/conv/conv_post_ops.h"

namespace ops {
namespace compute {
using conv::AppendPostOps;
using conv::FusedActivation;
using conv::kFusedActivation;
using conv::kFusedActivationAlpha;
using conv::kFusedActivationBeta;
using conv::kFusedSum;
using conv::ReadFusedActivation;
namespace {

using testing::ComputeKernelTester;
using testing::RandomTensor;

// One convolution node: shapes and the ONNX attributes that are set.
struct Conf {
  std::vector<int64_t> x, w;
  bool bias = true;
  std::vector<int64_t> strides, pads, dilations, kernel_shape, output_padding, output_shape;
  int64_t group = 0;     // 0: absent
  std::string auto_pad;  // empty: absent
};

template <typename F>
void ForEachAttr(const Conf& c, F&& f) {
  if (!c.strides.empty()) f("strides", c.strides);
  if (!c.pads.empty()) f("pads", c.pads);
  if (!c.dilations.empty()) f("dilations", c.dilations);
  if (!c.kernel_shape.empty()) f("kernel_shape", c.kernel_shape);
  if (!c.output_padding.empty()) f("output_padding", c.output_padding);
  if (!c.output_shape.empty()) f("output_shape", c.output_shape);
  if (c.group != 0) f("group", c.group);
  if (!c.auto_pad.empty()) f("auto_pad", c.auto_pad);
}

int64_t OutChannels(const std::string& type, const Conf& c) {
  return type == "Conv" ? c.w[0] : c.w[1] * (c.group == 0 ? 1 : c.group);
}

// The tester's verdict for `c` in FLOAT with constant or runtime weights.
::testing::AssertionResult FloatMatches(const std::string& type, const Conf& c, bool const_w,
                                        uint32_t seed, bool channels_last = false) {
  ComputeKernelTester t(type);
  t.ChannelsLast(channels_last);
  ForEachAttr(c, [&](const char* n, auto v) { t.Attr(n, v); });
  t.Input(RandomTensor(ge::DT_FLOAT, c.x, seed));
  gert::HostTensor w = RandomTensor(ge::DT_FLOAT, c.w, seed + 1);
  if (const_w) {
    t.Const(std::move(w));
  } else {
    t.Input(std::move(w));
  }
  if (c.bias) t.Const(RandomTensor(ge::DT_FLOAT, {OutChannels(type, c)}, seed + 2));
  return t.MatchesReference(1e-4, 1e-4, {1, 2});
}

void ExpectFloatMatches(const std::string& type, const std::vector<Conf>& confs) {
  uint32_t seed = 1;
  for (size_t i = 0; i < confs.size(); ++i) {
    for (bool const_w : {true, false}) {
      EXPECT_TRUE(FloatMatches(type, confs[i], const_w, seed += 3))
          << type << " case " << i << (const_w ? " (const W)" : " (runtime W)");
    }
    // Channels-last X and Y (the format pass's conv chains), const W.
    if (confs[i].x.size() >= 4) {
      EXPECT_TRUE(FloatMatches(type, confs[i], true, seed += 3, true))
          << type << " case " << i << " (channels-last)";
    }
  }
}

// ------------------------------------------------------------ direct runs

gert::HostTensor Clone(const gert::Tensor& t) {
  ge::StatusOr<gert::HostTensor> c = gert::HostTensor::CopyFrom(t);
  EXPECT_TRUE(c.ok()) << c.status();
  return std::move(*c);
}

// A FLOAT copy of a (BF16) tensor's values.
gert::HostTensor ToFloat(const gert::HostTensor& t) {
  ge::StatusOr<std::vector<double>> v = ReadAsDoubles(t.tensor());
  EXPECT_TRUE(v.ok()) << v.status();
  ge::StatusOr<gert::HostTensor> f = MakeHostTensorFromDoubles(ge::DT_FLOAT, t.GetShape(), *v);
  EXPECT_TRUE(f.ok()) << f.status();
  return std::move(*f);
}

::testing::AssertionResult Near(const gert::Tensor& got, const gert::Tensor& want, double rtol,
                                double atol) {
  if (got.GetShape().ToVector() != want.GetShape().ToVector()) {
    return ::testing::AssertionFailure()
           << "shape " << got.GetShape().ToString() << " vs " << want.GetShape().ToString();
  }
  ge::StatusOr<std::vector<double>> g = ReadAsDoubles(got);
  ge::StatusOr<std::vector<double>> w = ReadAsDoubles(want);
  if (!g.ok() || !w.ok()) return ::testing::AssertionFailure() << "cannot read values";
  for (size_t i = 0; i < w->size(); ++i) {
    const double a = (*g)[i], b = (*w)[i];
    if (!(std::fabs(a - b) <= atol + rtol * std::fabs(b))) {
      return ::testing::AssertionFailure() << "element " << i << ": " << a << " vs " << b;
    }
  }
  return ::testing::AssertionSuccess();
}

// Attributes of a node: the ONNX ones of a Conf plus extra (fused ones).
struct NodeAttrs {
  ge::NamedAttrs holder;
  NodeAttrs(const Conf& c, const std::vector<std::pair<std::string, ge::AttrValue>>& extra) {
    ForEachAttr(c, [&](const char* n, auto v) {
      EXPECT_TRUE(holder.SetAttr(n, ge::AttrValue::CreateFrom<decltype(v)>(v)).ok());
    });
    for (const auto& [n, v] : extra) EXPECT_TRUE(holder.SetAttr(n, v).ok());
  }
};

// The host kernel of `type` (op_test_harness: verify, infer, run).
gert::HostTensor HostRun(const std::string& type, const Conf& c,
                         std::vector<const gert::HostTensor*> inputs,
                         const std::vector<std::pair<std::string, ge::AttrValue>>& extra = {}) {
  op_test::OpTester t(type);
  ForEachAttr(c, [&](const char* n, auto v) { t.Attr(n, v); });
  for (const auto& [n, v] : extra) t.Attr(n, v);
  for (const gert::HostTensor* in : inputs) {
    if (in == nullptr) {
      t.Absent();
    } else {
      t.Input(Clone(in->tensor()));
    }
  }
  const ge::Status st = t.Run(1);
  EXPECT_TRUE(st.ok()) << type << ": " << st;
  if (!st.ok()) return gert::HostTensor();
  return Clone(t.Out(0).tensor());
}

struct DirectResult {
  gert::HostTensor y;
  std::string impl;
  bool reorders_src = false, reorders_dst = false;
};

// The node as the compiler sees it: factory desc with the inputs' and the
// output's descs (no inference: BF16 and NC1HWC0 are beyond the op's
// definition / the reference), checked by the kernel's Supports.
ge::Status SupportsDirect(const std::string& type, const NodeAttrs& attrs,
                          const std::vector<const gert::HostTensor*>& inputs,
                          const gert::HostTensor& y) {
  ASSIGN_OR_RETURN(ge::OpDescPtr op, ge::OperatorFactory::CreateOpDesc("node", type));
  for (const auto& [name, v] : attrs.holder.GetAllAttrs()) RETURN_IF_ERROR(op->SetAttr(name, v));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const gert::Tensor& t = inputs[i]->tensor();
    *op->MutableInputDesc(static_cast<uint32_t>(i)) =
        ge::GeTensorDesc(ge::GeShape(t.GetShape().ToVector()), t.GetFormat(), t.GetDataType());
  }
  *op->MutableOutputDesc(0) = ge::GeTensorDesc(ge::GeShape(y.GetShape().ToVector()),
                                               y.tensor().GetFormat(), y.GetDataType());
  const ge::KernelDef* def = ge::FindKernel(type, ge::kEngineAiCore);
  if (def == nullptr) return ge::NotFound("no kernel");
  return def->CheckSupported(*op);
}

// Prepare (constant inputs' values visible) and Run twice at `threads`;
// Y of `y_dims` / `dt` / `format`.
ge::StatusOr<DirectResult> RunDirect(const std::string& type, const NodeAttrs& attrs,
                                     const std::vector<const gert::HostTensor*>& inputs,
                                     const std::vector<bool>& constant,
                                     const std::vector<int64_t>& y_dims, ge::DataType dt,
                                     ge::Format format, int threads) {
  SetIntraOpThreads(threads);
  DirectResult r;
  ASSIGN_OR_RETURN(r.y, gert::HostTensor::Create(dt, *gert::Shape::FromDims(y_dims), format));
  RETURN_IF_ERROR(SupportsDirect(type, attrs, inputs, r.y));
  const ge::KernelDef* def = ge::FindKernel(type, ge::kEngineAiCore);
  std::unique_ptr<ge::OpKernel> k = NewComputeKernel(*def);
  std::vector<gert::Tensor> facts;
  for (size_t i = 0; i < inputs.size(); ++i) {
    facts.push_back(inputs[i]->tensor());
    if (!constant[i]) facts.back().SetData(nullptr, 0);
  }
  std::vector<const gert::Tensor*> fact_ptrs, in_ptrs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    fact_ptrs.push_back(&facts[i]);
    in_ptrs.push_back(&inputs[i]->tensor());
  }
  gert::Tensor y_fact = r.y.tensor();
  y_fact.SetData(nullptr, 0);
  gert::TilingContextBuilder tb;
  gert::TilingContext* tctx =
      tb.Node("node", type).Attrs(&attrs.holder).Inputs(fact_ptrs).Outputs({&y_fact}).Build();
  RETURN_IF_ERROR(k->Prepare(*tctx));
  std::vector<std::unique_ptr<AlignedBuffer>> ws;
  std::vector<void*> ws_ptrs;
  for (size_t bytes : tctx->GetWorkspaceSizes()) {
    ASSIGN_OR_RETURN(AlignedBuffer b, AlignedBuffer::Allocate(bytes));
    ws.push_back(std::make_unique<AlignedBuffer>(std::move(b)));
    ws_ptrs.push_back(ws.back()->data());
  }
  gert::KernelRunContextBuilder kb;
  gert::KernelContext* kctx = kb.Node("node", type)
                                  .Attrs(&attrs.holder)
                                  .Inputs(in_ptrs)
                                  .Outputs({r.y.MutableTensor()})
                                  .Workspaces(ws_ptrs)
                                  .Build();
  RETURN_IF_ERROR(k->Run(*kctx));
  RETURN_IF_ERROR(k->Run(*kctx));
  const auto* ck = static_cast<const DnnlConvKernel*>(&UnwrapBf16Emulated(*k));
  r.impl = ck->impl_info();
  r.reorders_src = ck->reorders_src();
  r.reorders_dst = ck->reorders_dst();
  SetIntraOpThreads(1);
  return r;
}

// ------------------------------------------------------------ FLOAT

TEST(DnnlConvTest, Conv2dMatchesReference) {
  std::vector<Conf> confs;
  confs.push_back({{1, 3, 7, 9}, {4, 3, 3, 3}, true, {}, {1, 1, 1, 1}});
  confs.push_back({{2, 5, 11, 8}, {6, 5, 3, 2}, false, {2, 3}});
  confs.push_back({{1, 3, 8, 7}, {5, 3, 3, 3}, true, {}, {0, 1, 2, 0}});  // asymmetric pads
  confs.push_back({{1, 4, 12, 9}, {3, 4, 3, 3}, true, {1, 2}, {2, 1, 2, 1}, {2, 3}});
  confs.push_back({{1, 2, 3, 3}, {2, 2, 2, 2}, true, {}, {3, 3, 3, 3}});  // pads past the kernel
  confs.push_back({{1, 1, 1, 1}, {1, 1, 1, 1}});
  confs.push_back({{1, 3, 5, 5}, {2, 3, 5, 5}});     // kernel = image
  confs.push_back({{3, 32, 7, 7}, {16, 32, 1, 1}});  // pointwise, batch 3
  confs.push_back({{1, 32, 8, 9}, {16, 32, 1, 1}, true, {2, 2}});
  confs.push_back({{1, 64, 14, 14}, {64, 64, 3, 3}, true, {}, {1, 1, 1, 1}});
  confs.push_back({{1, 3, 32, 33}, {16, 3, 7, 7}, true, {2, 2}, {3, 3, 3, 3}});  // a stem
  Conf ks{{1, 4, 6, 6}, {4, 4, 3, 1}};
  ks.kernel_shape = {3, 1};
  confs.push_back(ks);
  ExpectFloatMatches("Conv", confs);
}

TEST(DnnlConvTest, ConvGroupsAndDepthwiseMatchReference) {
  std::vector<Conf> confs;
  Conf g2{{1, 4, 9, 9}, {6, 2, 3, 3}, true, {}, {1, 1, 1, 1}};
  g2.group = 2;
  confs.push_back(g2);
  Conf dw{{1, 16, 10, 10}, {16, 1, 3, 3}, true, {}, {1, 1, 1, 1}};
  dw.group = 16;
  confs.push_back(dw);
  Conf dw_odd{{2, 8, 7, 9}, {8, 1, 3, 3}, false, {2, 2}, {1, 1, 1, 1}};
  dw_odd.group = 8;
  confs.push_back(dw_odd);
  Conf dw_mult{{1, 8, 7, 7}, {16, 1, 3, 3}, true, {}, {1, 1, 1, 1}};  // multiplier 2
  dw_mult.group = 8;
  confs.push_back(dw_mult);
  Conf dw_dil{{1, 32, 12, 12}, {32, 1, 3, 3}, true, {}, {2, 2, 2, 2}, {2, 2}};
  dw_dil.group = 32;
  confs.push_back(dw_dil);
  Conf g3{{1, 12, 6, 5}, {9, 4, 1, 1}};
  g3.group = 3;
  confs.push_back(g3);
  ExpectFloatMatches("Conv", confs);
}

TEST(DnnlConvTest, ConvAutoPadMatchesReference) {
  std::vector<Conf> confs;
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER", "VALID", "NOTSET"}) {
    Conf a{{1, 3, 9, 10}, {4, 3, 3, 3}, true, {2, 2}};
    a.auto_pad = mode;
    confs.push_back(a);
    Conf even{{1, 2, 7, 8}, {3, 2, 4, 2}, true, {2, 3}};  // odd total padding
    even.auto_pad = mode;
    confs.push_back(even);
    Conf dil{{1, 2, 10, 10}, {3, 2, 3, 3}, false, {3, 3}, {}, {2, 1}};
    dil.auto_pad = mode;
    confs.push_back(dil);
  }
  ExpectFloatMatches("Conv", confs);
}

TEST(DnnlConvTest, Conv1dAnd3dMatchReference) {
  std::vector<Conf> confs;
  confs.push_back({{2, 4, 17}, {5, 4, 3}, true, {2}, {2, 1}, {2}});
  confs.push_back({{1, 16, 9}, {16, 16, 1}});
  Conf dw1{{1, 8, 11}, {8, 1, 5}, true, {}, {2, 2}};
  dw1.group = 8;
  confs.push_back(dw1);
  Conf same1{{1, 3, 10}, {2, 3, 4}, true, {3}};
  same1.auto_pad = "SAME_LOWER";
  confs.push_back(same1);
  confs.push_back({{1, 3, 5, 6, 7}, {4, 3, 3, 3, 3}, true, {1, 2, 1}, {1, 1, 1, 1, 1, 1}});
  Conf g3d{{1, 4, 4, 5, 6}, {4, 2, 2, 3, 3}, false, {}, {0, 1, 1, 1, 0, 1}, {1, 1, 2}};
  g3d.group = 2;
  confs.push_back(g3d);
  Conf same3{{1, 2, 5, 5, 5}, {3, 2, 3, 3, 3}, true, {2, 2, 2}};
  same3.auto_pad = "SAME_UPPER";
  confs.push_back(same3);
  ExpectFloatMatches("Conv", confs);
}

TEST(DnnlConvTest, ConvTransposeMatchesReference) {
  std::vector<Conf> confs;
  confs.push_back({{1, 3, 5, 5}, {3, 4, 3, 3}});
  confs.push_back({{1, 3, 5, 4}, {3, 2, 3, 3}, true, {2, 2}, {1, 1, 1, 1}});
  Conf op{{1, 2, 4, 5}, {2, 3, 3, 3}, true, {2, 2}, {1, 1, 1, 1}};
  op.output_padding = {1, 1};
  confs.push_back(op);
  Conf op_past{{1, 2, 3, 4}, {2, 2, 2, 3}, false, {3, 3}};  // output past the last window
  op_past.output_padding = {2, 1};
  confs.push_back(op_past);
  Conf op_dil{{1, 2, 4, 4}, {2, 2, 3, 3}, true, {2, 1}, {}, {2, 2}};  // output_padding < dilation
  op_dil.output_padding = {1, 0};
  confs.push_back(op_dil);
  Conf g2{{1, 4, 5, 5}, {4, 3, 3, 3}, true, {2, 1}, {0, 1, 1, 0}};
  g2.group = 2;
  confs.push_back(g2);
  Conf dw{{1, 8, 5, 6}, {8, 1, 3, 3}, true, {2, 2}, {1, 1, 1, 1}};
  dw.group = 8;
  confs.push_back(dw);
  Conf big_shape{{1, 2, 3, 3}, {2, 3, 3, 3}, true, {2, 2}};
  big_shape.output_shape = {8, 8};  // one past the full output: bias only there
  confs.push_back(big_shape);
  Conf small_shape{{1, 2, 3, 3}, {2, 3, 3, 3}, true, {2, 2}};
  small_shape.output_shape = {1, 3, 6, 6};
  confs.push_back(small_shape);
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER", "VALID"}) {
    Conf a{{1, 2, 4, 5}, {2, 3, 4, 3}, true, {2, 2}};
    a.auto_pad = mode;
    confs.push_back(a);
  }
  confs.push_back({{1, 32, 8, 8}, {32, 16, 4, 4}, true, {2, 2}, {1, 1, 1, 1}});
  confs.push_back({{2, 16, 5, 5}, {16, 8, 1, 1}});
  confs.push_back({{2, 3, 7}, {3, 2, 4}, true, {2}, {1, 2}});
  confs.push_back({{1, 2, 3, 4, 3}, {2, 3, 2, 3, 2}, false, {2, 1, 2}, {0, 1, 0, 1, 0, 1}});
  ExpectFloatMatches("ConvTranspose", confs);
}

// ------------------------------------------------------------ BF16

// The kernel on BF16 tensors against the host kernel on their FLOAT values
// (oneDNN accumulates in FLOAT; Y is rounded to BF16).
void ExpectBf16Matches(const std::string& type, const Conf& c, bool const_w, uint32_t seed) {
  const gert::HostTensor x = RandomTensor(ge::DT_BF16, c.x, seed);
  const gert::HostTensor w = RandomTensor(ge::DT_BF16, c.w, seed + 1);
  const gert::HostTensor b = RandomTensor(ge::DT_BF16, {OutChannels(type, c)}, seed + 2);
  const gert::HostTensor xf = ToFloat(x), wf = ToFloat(w), bf = ToFloat(b);
  std::vector<const gert::HostTensor*> in = {&x, &w}, in_f = {&xf, &wf};
  if (c.bias) {
    in.push_back(&b);
    in_f.push_back(&bf);
  }
  const gert::HostTensor want = HostRun(type, c, in_f);
  const NodeAttrs attrs(c, {});
  for (int threads : {1, 2}) {
    ge::StatusOr<DirectResult> r =
        RunDirect(type, attrs, in, {false, const_w, true}, want.GetShape().ToVector(), ge::DT_BF16,
                  ge::FORMAT_ND, threads);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(Near(r->y.tensor(), want.tensor(), 1e-2, 1e-2))
        << type << " " << r->impl << " threads " << threads << (const_w ? " const W" : "");
  }
}

TEST(DnnlConvTest, Bf16MatchesReferenceOnFloatValues) {
  Conf c3{{1, 16, 9, 9}, {32, 16, 3, 3}, true, {}, {1, 1, 1, 1}};
  Conf pw{{1, 32, 7, 7}, {16, 32, 1, 1}, false};
  Conf stem{{1, 3, 20, 20}, {16, 3, 7, 7}, true, {2, 2}, {3, 3, 3, 3}};
  Conf dw{{1, 16, 8, 8}, {16, 1, 3, 3}, true, {}, {1, 1, 1, 1}};
  dw.group = 16;
  Conf c1{{2, 8, 13}, {4, 8, 3}, true, {2}, {1, 1}};
  Conf c3d{{1, 4, 4, 5, 5}, {8, 4, 3, 3, 3}, true, {}, {1, 1, 1, 1, 1, 1}};
  uint32_t seed = 100;
  for (const Conf& c : {c3, pw, stem, dw, c1, c3d}) {
    for (bool const_w : {true, false}) ExpectBf16Matches("Conv", c, const_w, seed += 3);
  }
  Conf t{{1, 16, 5, 5}, {16, 8, 4, 4}, true, {2, 2}, {1, 1, 1, 1}};
  for (bool const_w : {true, false}) ExpectBf16Matches("ConvTranspose", t, const_w, seed += 3);
}

// BF16 through the tester (host kernel on the same BF16 values), plain and
// channels-last, on resnet50's shapes: the strided 3x3 ones too.
TEST(DnnlConvTest, Bf16ResnetShapes) {
  const std::vector<Conf> confs = {
      {{1, 256, 28, 28}, {256, 256, 3, 3}, true, {2, 2}, {1, 1, 1, 1}},
      {{1, 128, 56, 56}, {128, 128, 3, 3}, true, {2, 2}, {1, 1, 1, 1}},
      {{1, 64, 14, 14}, {256, 64, 1, 1}, true},
      {{1, 32, 15, 15}, {32, 32, 3, 3}, true, {2, 2}, {1, 1, 1, 1}},
  };
  uint32_t seed = 700;
  for (size_t i = 0; i < confs.size(); ++i) {
    const Conf& c = confs[i];
    // Channels-last with constant W only: the tester makes every
    // non-constant rank-4 input channels-last, and W is taken plain.
    for (int variant = 0; variant < 3; ++variant) {
      const bool last = variant == 2, const_w = variant != 1;
      ComputeKernelTester t("Conv");
      t.ChannelsLast(last);
      ForEachAttr(c, [&](const char* n, auto v) { t.Attr(n, v); });
      t.Input(RandomTensor(ge::DT_BF16, c.x, seed));
      gert::HostTensor w = RandomTensor(ge::DT_BF16, c.w, seed + 1, -0.1, 0.1);
      if (const_w) {
        t.Const(std::move(w));
      } else {
        t.Input(std::move(w));
      }
      t.Const(RandomTensor(ge::DT_BF16, {c.w[0]}, seed + 2));
      seed += 3;
      EXPECT_TRUE(t.MatchesReference(2e-2, 2e-2, {1, 2}))
          << "case " << i << " channels-last " << last << " const W " << const_w;
    }
  }
}

// ------------------------------------------------------------ NC1HWC0

// `t` (NCHW FLOAT) reordered to nChw16c, marked NC1HWC0.
gert::HostTensor ToBlocked(const gert::HostTensor& t) {
  const dnnl::memory::dims d = Dims(t.GetShape());
  const dnnl::memory::desc plain(d, dnnl::memory::data_type::f32, dnnl::memory::format_tag::nchw);
  const dnnl::memory::desc blocked(d, dnnl::memory::data_type::f32,
                                   dnnl::memory::format_tag::nChw16c);
  ge::StatusOr<AlignedBuffer> b = ReorderOnce(plain, t.GetData<float>(), blocked);
  EXPECT_TRUE(b.ok()) << b.status();
  ge::StatusOr<gert::HostTensor> h =
      gert::HostTensor::CreateFrom(ge::DT_FLOAT, t.GetShape(), b->data(), blocked.get_size());
  EXPECT_TRUE(h.ok()) << h.status();
  h->tensor().SetFormat(ge::FORMAT_NC1HWC0);
  return std::move(*h);
}

gert::HostTensor FromBlocked(const gert::HostTensor& t) {
  const dnnl::memory::dims d = Dims(t.GetShape());
  const dnnl::memory::desc plain(d, dnnl::memory::data_type::f32, dnnl::memory::format_tag::nchw);
  const dnnl::memory::desc blocked(d, dnnl::memory::data_type::f32,
                                   dnnl::memory::format_tag::nChw16c);
  ge::StatusOr<AlignedBuffer> b = ReorderOnce(blocked, t.GetData<float>(), plain);
  EXPECT_TRUE(b.ok()) << b.status();
  ge::StatusOr<gert::HostTensor> h =
      gert::HostTensor::CreateFrom(ge::DT_FLOAT, t.GetShape(), b->data(), plain.get_size());
  EXPECT_TRUE(h.ok()) << h.status();
  return std::move(*h);
}

TEST(DnnlConvTest, Nc1hwc0TensorsMatchReference) {
  Conf c3{{1, 32, 9, 11}, {16, 32, 3, 3}, true, {}, {1, 1, 1, 1}};
  Conf pw{{2, 16, 7, 7}, {32, 16, 1, 1}, true, {2, 2}};
  Conf dw{{1, 32, 10, 10}, {32, 1, 3, 3}, true, {2, 2}, {1, 1, 1, 1}};
  dw.group = 32;
  Conf t{{1, 16, 5, 5}, {16, 16, 3, 3}, true, {2, 2}, {1, 1, 1, 1}};
  t.output_padding = {1, 1};
  uint32_t seed = 200;
  for (const auto& [type, c] : std::vector<std::pair<std::string, Conf>>{
           {"Conv", c3}, {"Conv", pw}, {"Conv", dw}, {"ConvTranspose", t}}) {
    const gert::HostTensor x = RandomTensor(ge::DT_FLOAT, c.x, seed += 3);
    const gert::HostTensor w = RandomTensor(ge::DT_FLOAT, c.w, seed + 1);
    const gert::HostTensor b = RandomTensor(ge::DT_FLOAT, {OutChannels(type, c)}, seed + 2);
    const gert::HostTensor want = HostRun(type, c, {&x, &w, &b});
    const gert::HostTensor xb = ToBlocked(x);
    const NodeAttrs attrs(c, {});
    for (bool const_w : {true, false}) {
      for (int threads : {1, 2}) {
        ge::StatusOr<DirectResult> r =
            RunDirect(type, attrs, {&xb, &w, &b}, {false, const_w, true},
                      want.GetShape().ToVector(), ge::DT_FLOAT, ge::FORMAT_NC1HWC0, threads);
        ASSERT_TRUE(r.ok()) << r.status();
        EXPECT_TRUE(Near(FromBlocked(r->y).tensor(), want.tensor(), 1e-4, 1e-4))
            << type << " " << r->impl << (const_w ? " const W" : " runtime W");
      }
    }
  }
}

// ------------------------------------------------------------ post-ops

struct ActCase {
  const char* op;
  std::vector<std::pair<std::string, float>> params;  // _fused_activation_alpha / beta
};

// The host Conv (or ConvTranspose), then the host activation.
gert::HostTensor HostConvThenActivation(const std::string& type, const Conf& c,
                                        std::vector<const gert::HostTensor*> in,
                                        const ActCase& act) {
  const gert::HostTensor y = HostRun(type, c, std::move(in));
  const std::string op = act.op;
  auto param = [&](const char* name, float dflt) {
    for (const auto& [n, v] : act.params) {
      if (n == name) return v;
    }
    return dflt;
  };
  if (op == "Clip") {
    ge::StatusOr<gert::HostTensor> lo = MakeHostTensor<float>(
        ge::DT_FLOAT, gert::Shape{}, {param(kFusedActivationAlpha, -INFINITY)});
    ge::StatusOr<gert::HostTensor> hi =
        MakeHostTensor<float>(ge::DT_FLOAT, gert::Shape{}, {param(kFusedActivationBeta, INFINITY)});
    return HostRun(op, {}, {&y, &*lo, &*hi});
  }
  std::vector<std::pair<std::string, ge::AttrValue>> attrs;
  if (op == "LeakyRelu" || op == "Elu" || op == "HardSigmoid") {
    for (const auto& [n, v] : act.params) {
      attrs.emplace_back(n == kFusedActivationAlpha ? "alpha" : "beta",
                         ge::AttrValue::CreateFrom<float>(v));
    }
  }
  return HostRun(op, {}, {&y}, attrs);
}

TEST(DnnlConvTest, FusedActivationsMatchConvThenActivation) {
  const std::vector<ActCase> acts = {
      {"Relu", {}},
      {"LeakyRelu", {}},
      {"LeakyRelu", {{kFusedActivationAlpha, 0.2f}}},
      {"Elu", {{kFusedActivationAlpha, 0.7f}}},
      {"Sigmoid", {}},
      {"Tanh", {}},
      {"Clip", {{kFusedActivationAlpha, 0.0f}, {kFusedActivationBeta, 6.0f}}},
      {"Clip", {{kFusedActivationAlpha, -0.25f}, {kFusedActivationBeta, 0.5f}}},
      {"Clip", {{kFusedActivationBeta, 0.1f}}},  // no lower bound
      {"HardSigmoid", {}},
      {"HardSigmoid", {{kFusedActivationAlpha, 0.3f}, {kFusedActivationBeta, 0.4f}}},
      {"HardSwish", {}},
      {"Softplus", {}},
  };
  Conf conv{{1, 8, 9, 9}, {16, 8, 3, 3}, true, {}, {1, 1, 1, 1}};
  Conf dw{{1, 16, 7, 7}, {16, 1, 3, 3}, true, {}, {1, 1, 1, 1}};
  dw.group = 16;
  Conf tr{{1, 8, 4, 4}, {8, 4, 3, 3}, true, {2, 2}, {1, 1, 1, 1}};
  uint32_t seed = 300;
  for (const ActCase& act : acts) {
    for (const auto& [type, c] : std::vector<std::pair<std::string, Conf>>{
             {"Conv", conv}, {"Conv", dw}, {"ConvTranspose", tr}}) {
      // Values of the size where the activations bend (|y| up to ~3).
      const gert::HostTensor x = RandomTensor(ge::DT_FLOAT, c.x, seed += 3, -1.5, 1.5);
      const gert::HostTensor w = RandomTensor(ge::DT_FLOAT, c.w, seed + 1, -0.5, 0.5);
      const gert::HostTensor b = RandomTensor(ge::DT_FLOAT, {OutChannels(type, c)}, seed + 2);
      const gert::HostTensor want = HostConvThenActivation(type, c, {&x, &w, &b}, act);
      std::vector<std::pair<std::string, ge::AttrValue>> extra = {
          {kFusedActivation, ge::AttrValue::CreateFrom<std::string>(act.op)}};
      for (const auto& [n, v] : act.params) extra.emplace_back(n, ge::AttrValue::CreateFrom(v));
      const NodeAttrs attrs(c, extra);
      for (bool const_w : {true, false}) {
        for (int threads : {1, 2}) {
          ge::StatusOr<DirectResult> r =
              RunDirect(type, attrs, {&x, &w, &b}, {false, const_w, true},
                        want.GetShape().ToVector(), ge::DT_FLOAT, ge::FORMAT_ND, threads);
          ASSERT_TRUE(r.ok()) << act.op << ": " << r.status();
          EXPECT_TRUE(Near(r->y.tensor(), want.tensor(), 1e-4, 1e-5))
              << type << " + " << act.op << " (" << r->impl << ")";
        }
      }
    }
  }
}

TEST(DnnlConvTest, FusedActivationOnBf16) {
  Conf c{{1, 16, 6, 6}, {16, 16, 3, 3}, true, {}, {1, 1, 1, 1}};
  const gert::HostTensor x = RandomTensor(ge::DT_BF16, c.x, 400);
  const gert::HostTensor w = RandomTensor(ge::DT_BF16, c.w, 401);
  const gert::HostTensor b = RandomTensor(ge::DT_BF16, {16}, 402);
  const gert::HostTensor xf = ToFloat(x), wf = ToFloat(w), bf = ToFloat(b);
  const gert::HostTensor want = HostConvThenActivation("Conv", c, {&xf, &wf, &bf}, {"Relu", {}});
  const NodeAttrs attrs(c, {{kFusedActivation, ge::AttrValue::CreateFrom<std::string>("Relu")}});
  ge::StatusOr<DirectResult> r =
      RunDirect("Conv", attrs, {&x, &w, &b}, {false, true, true}, want.GetShape().ToVector(),
                ge::DT_BF16, ge::FORMAT_ND, 2);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(Near(r->y.tensor(), want.tensor(), 1e-2, 1e-2)) << r->impl;
}

// ------------------------------------------------------------ layouts chosen

// Which oneDNN kernel and reorders Prepare picks for NCHW tensors (printed:
// the choice depends on the CPU); the results match either way.
TEST(DnnlConvTest, ReportsTheChosenImplementation) {
  Conf c3{{1, 64, 14, 14}, {64, 64, 3, 3}, true, {}, {1, 1, 1, 1}};
  Conf pw{{1, 64, 14, 14}, {32, 64, 1, 1}};
  Conf dw{{1, 32, 14, 14}, {32, 1, 3, 3}, true, {}, {1, 1, 1, 1}};
  dw.group = 32;
  Conf stem{{1, 3, 32, 32}, {16, 3, 7, 7}, true, {2, 2}, {3, 3, 3, 3}};
  uint32_t seed = 500;
  for (const auto& [name, c] : std::vector<std::pair<std::string, Conf>>{
           {"3x3", c3}, {"1x1", pw}, {"depthwise", dw}, {"stem", stem}}) {
    const gert::HostTensor x = RandomTensor(ge::DT_FLOAT, c.x, seed += 3);
    const gert::HostTensor w = RandomTensor(ge::DT_FLOAT, c.w, seed + 1);
    const gert::HostTensor b = RandomTensor(ge::DT_FLOAT, {c.w[0]}, seed + 2);
    const gert::HostTensor want = HostRun("Conv", c, {&x, &w, &b});
    for (bool const_w : {true, false}) {
      ge::StatusOr<DirectResult> r =
          RunDirect("Conv", NodeAttrs(c, {}), {&x, &w, &b}, {false, const_w, true},
                    want.GetShape().ToVector(), ge::DT_FLOAT, ge::FORMAT_ND, 1);
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_FALSE(r->impl.empty());
      std::printf("%-9s %-10s W: %-28s reorders X %d, Y %d\n", name.c_str(),
                  const_w ? "const" : "runtime", r->impl.c_str(), r->reorders_src, r->reorders_dst);
      EXPECT_TRUE(Near(r->y.tensor(), want.tensor(), 1e-4, 1e-4)) << name;
    }
  }
}

// ------------------------------------------------------------ Supports

::testing::AssertionResult Rejected(ComputeKernelTester& t, const std::string& reason) {
  const ge::Status st = t.Supported();
  if (st.ok()) return ::testing::AssertionFailure() << "accepted";
  if (ge::GetErrorCode(st) != ge::ErrorCode::kNotSupported) {
    return ::testing::AssertionFailure() << "not NotSupported: " << st;
  }
  if (std::string(st.message()).find(reason) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "reason \"" << st.message() << "\" lacks \"" << reason << "\"";
  }
  return ::testing::AssertionSuccess();
}

ComputeKernelTester Basic(ge::DataType dt = ge::DT_FLOAT, std::vector<int64_t> x = {1, 16, 5, 5},
                          std::vector<int64_t> w = {8, 16, 3, 3}) {
  ComputeKernelTester t("Conv");
  t.Input(RandomTensor(dt, x, 1)).Const(RandomTensor(dt, w, 2));
  return t;
}

TEST(DnnlConvTest, SupportsRejectsWhatItCannotRunExactly) {
  {
    ComputeKernelTester t = Basic(ge::DT_DOUBLE);
    EXPECT_TRUE(Rejected(t, "data type"));
  }
  {
    ComputeKernelTester t = Basic(ge::DT_FLOAT16);
    EXPECT_TRUE(Rejected(t, "data type"));
  }
  {
    ComputeKernelTester t = Basic(ge::DT_FLOAT, {1, 2, 3, 3, 3, 3}, {2, 2, 1, 1, 1, 1});
    EXPECT_TRUE(Rejected(t, "rank 6"));
  }
  {
    ComputeKernelTester t = Basic();
    t.InputFormat(0, ge::FORMAT_HWCN);
    EXPECT_TRUE(Rejected(t, "format HWCN"));
  }
  {
    ComputeKernelTester t = Basic(ge::DT_FLOAT, {1, 8, 5, 5}, {8, 8, 3, 3});
    t.InputFormat(0, ge::FORMAT_NC1HWC0);
    EXPECT_TRUE(Rejected(t, "multiple of 16"));
  }
  {
    ComputeKernelTester t = Basic();
    t.InputFormat(1, ge::FORMAT_NC1HWC0);
    EXPECT_TRUE(Rejected(t, "plain weights"));
  }
  {
    // ConvTranspose outputs more than stride - 1 positions past the last
    // window: output_shape, or output_padding >= stride (< dilation).
    ComputeKernelTester t("ConvTranspose");
    t.Input(RandomTensor(ge::DT_FLOAT, {1, 2, 3, 3}, 1))
        .Const(RandomTensor(ge::DT_FLOAT, {2, 3, 3, 3}, 2))
        .Attr("strides", std::vector<int64_t>{2, 2})
        .Attr("output_shape", std::vector<int64_t>{10, 9});
    EXPECT_TRUE(Rejected(t, "past the last window"));
    ComputeKernelTester d("ConvTranspose");
    d.Input(RandomTensor(ge::DT_FLOAT, {1, 2, 4, 4}, 1))
        .Const(RandomTensor(ge::DT_FLOAT, {2, 2, 3, 3}, 2))
        .Attr("dilations", std::vector<int64_t>{2, 2})
        .Attr("output_padding", std::vector<int64_t>{1, 0});
    EXPECT_TRUE(Rejected(d, "past the last window"));
  }
  {
    ComputeKernelTester t = Basic();
    t.Attr(kFusedSum, true);
    EXPECT_TRUE(Rejected(t, "residual"));
  }
  {
    ComputeKernelTester t = Basic();
    t.Attr(kFusedActivation, std::string("Gelu"));
    EXPECT_TRUE(Rejected(t, "no oneDNN post-op"));
  }
  {
    ComputeKernelTester t = Basic();
    t.Attr(kFusedActivation, std::string("Clip"))
        .Attr(kFusedActivationAlpha, 2.0f)
        .Attr(kFusedActivationBeta, 1.0f);
    EXPECT_TRUE(Rejected(t, "not ordered"));
  }
  {
    ComputeKernelTester t = Basic();
    t.Attr(kFusedActivation, int64_t{1});  // wrong attribute type
    EXPECT_TRUE(Rejected(t, kFusedActivation));
  }
  // Accepted: NC1HWC0 X with whole channel blocks, plain formats, ConvTranspose.
  {
    ComputeKernelTester t = Basic();
    t.InputFormat(0, ge::FORMAT_NC1HWC0);
    EXPECT_TRUE(t.Supported().ok()) << t.Supported();
  }
  {
    ComputeKernelTester t = Basic();
    t.InputFormat(0, ge::FORMAT_NCHW);
    EXPECT_TRUE(t.Supported().ok()) << t.Supported();
  }
  {
    ComputeKernelTester t("ConvTranspose");
    t.Input(RandomTensor(ge::DT_FLOAT, {1, 4, 3, 3}, 1))
        .Const(RandomTensor(ge::DT_FLOAT, {4, 2, 3, 3}, 2))
        .Attr("output_padding", std::vector<int64_t>{0, 0});
    EXPECT_TRUE(t.Supported().ok()) << t.Supported();
  }
}

TEST(DnnlConvTest, SupportsRejectsUnknownDimsAndMismatchedTypes) {
  // Descs set by hand (inference would not produce these).
  ge::StatusOr<ge::OpDescPtr> op = ge::OperatorFactory::CreateOpDesc("c", "Conv");
  ASSERT_TRUE(op.ok());
  auto set = [&](std::vector<int64_t> x, ge::DataType wdt) {
    *(*op)->MutableInputDesc(0) = ge::GeTensorDesc(ge::GeShape(x), ge::FORMAT_NCHW, ge::DT_FLOAT);
    *(*op)->MutableInputDesc(1) = ge::GeTensorDesc(ge::GeShape({4, 3, 3, 3}), ge::FORMAT_NCHW, wdt);
    *(*op)->MutableOutputDesc(0) =
        ge::GeTensorDesc(ge::GeShape({1, 4, 3, 3}), ge::FORMAT_NCHW, ge::DT_FLOAT);
  };
  set({1, 3, -1, 5}, ge::DT_FLOAT);
  ge::Status st = DnnlConvSupports(**op);
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
  EXPECT_NE(std::string(st.message()).find("known"), std::string::npos) << st;
  set({1, 3, 5, 5}, ge::DT_BF16);
  st = DnnlConvSupports(**op);
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
  EXPECT_NE(std::string(st.message()).find("BF16"), std::string::npos) << st;
  set({1, 3, 5, 5}, ge::DT_FLOAT);
  EXPECT_TRUE(DnnlConvSupports(**op).ok()) << DnnlConvSupports(**op);
  // An output shape that is not the convolution's.
  *(*op)->MutableOutputDesc(0) =
      ge::GeTensorDesc(ge::GeShape({1, 4, 5, 5}), ge::FORMAT_NCHW, ge::DT_FLOAT);
  st = DnnlConvSupports(**op);
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
}

}  // namespace
}  // namespace compute
}  // namespace ops
