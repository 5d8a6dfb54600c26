// runtime/reference/reference_interpreter_test.cc
//
// The interpreter with ops registered here (prefix "Test"): graph inputs and
// outputs, ordering, control flow through subgraphs, data-dependent shapes,
// memory release and every error path. Graphs of real ops are in
// reference_interpreter_ops_test.cc.
#include "runtime/reference/reference_interpreter.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using gert::HostTensor;
using gert::Shape;
using gert::Tensor;
using reftest::Bool;
using reftest::Dims;
using reftest::F32;
using reftest::F32Fill;
using reftest::I64;
using reftest::Inputs;
using reftest::Out;
using reftest::TestGraph;
using reftest::ToF32;
using reftest::ToI64;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

using Interp = ReferenceInterpreter;

// ================================================================ test ops

Status InferSame(gert::InferShapeContext& ctx) {
  const Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 missing");
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) *ctx.GetOutputShape(i) = *x;
  return OkStatus();
}

Status InferUnknownRank(gert::InferShapeContext& ctx) {
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) {
    Shape s;
    s.AppendDim(UNKNOWN_RANK);
    *ctx.GetOutputShape(i) = s;
  }
  return OkStatus();
}

Status InferUndefinedTypes(gert::InferShapeContext& ctx) {
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) ctx.SetOutputDataType(i, DT_UNDEFINED);
  return OkStatus();
}

Status InferInt64(gert::InferShapeContext& ctx) {
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) ctx.SetOutputDataType(i, DT_INT64);
  return OkStatus();
}

Status InferBool(gert::InferShapeContext& ctx) {
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) ctx.SetOutputDataType(i, DT_BOOL);
  return OkStatus();
}

// Copies input 0 to output 0 (same shape, preallocated).
Status CopyKernel(gert::KernelContext& ctx) {
  const Tensor* x = ctx.GetInputTensor(0);
  Tensor* y = ctx.GetOutputTensor(0);
  if (x == nullptr || y == nullptr || y->GetAddr() == nullptr) return ctx.Error("bad I/O");
  return gert::CopyTensorData(*x, y);
}

// TestAdd: float x1 + x2, same shapes or one scalar.
Status InferTestAdd(gert::InferShapeContext& ctx) {
  const Shape* a = ctx.GetInputShape(0);
  const Shape* b = ctx.GetInputShape(1);
  if (a == nullptr || b == nullptr) return ctx.Error("missing input");
  if (a->IsScalar()) {
    *ctx.GetOutputShape(0) = *b;
  } else if (b->IsScalar() || *a == *b) {
    *ctx.GetOutputShape(0) = *a;
  } else {
    return ctx.Error("shapes ", a->ToString(), " and ", b->ToString(), " do not match");
  }
  return OkStatus();
}

Status TestAddKernel(gert::KernelContext& ctx) {
  const Tensor* a = ctx.GetInputTensor(0);
  const Tensor* b = ctx.GetInputTensor(1);
  Tensor* y = ctx.GetOutputTensor(0);
  const int64_t n = y->GetShapeSize();
  const bool sa = a->GetShapeSize() == 1;
  const bool sb = b->GetShapeSize() == 1;
  for (int64_t i = 0; i < n; ++i) {
    y->GetData<float>()[i] = a->GetData<float>()[sa ? 0 : i] + b->GetData<float>()[sb ? 0 : i];
  }
  return OkStatus();
}

Status TestReluKernel(gert::KernelContext& ctx) {
  const Tensor* x = ctx.GetInputTensor(0);
  Tensor* y = ctx.GetOutputTensor(0);
  for (int64_t i = 0; i < x->GetShapeSize(); ++i) {
    const float v = x->GetData<float>()[i];
    y->GetData<float>()[i] = v > 0 ? v : 0;
  }
  return OkStatus();
}

Status TestScaleKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const float alpha, ctx.GetFloat("alpha"));
  const Tensor* x = ctx.GetInputTensor(0);
  Tensor* y = ctx.GetOutputTensor(0);
  for (int64_t i = 0; i < x->GetShapeSize(); ++i) {
    y->GetData<float>()[i] = alpha * x->GetData<float>()[i];
  }
  return OkStatus();
}

// TestFilterPositive: the positive elements of x (1-D, size data-dependent;
// infer never looks at the value).
Status InferFilter(gert::InferShapeContext& ctx) {
  *ctx.GetOutputShape(0) = Shape{-1};
  return OkStatus();
}

Status TestFilterKernel(gert::KernelContext& ctx) {
  const Tensor* x = ctx.GetInputTensor(0);
  std::vector<float> kept;
  for (int64_t i = 0; i < x->GetShapeSize(); ++i) {
    if (x->GetData<float>()[i] > 0) kept.push_back(x->GetData<float>()[i]);
  }
  ASSIGN_OR_RETURN(Tensor * y,
                   ctx.AllocateOutput(0, Shape{static_cast<int64_t>(kept.size())}, DT_FLOAT));
  if (!kept.empty()) std::memcpy(y->GetAddr(), kept.data(), kept.size() * sizeof(float));
  return OkStatus();
}

// TestShapeOf: the dims of x as INT64.
Status InferShapeOf(gert::InferShapeContext& ctx) {
  const Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 missing");
  *ctx.GetOutputShape(0) = Shape{static_cast<int64_t>(x->GetDimNum())};
  return OkStatus();
}

Status TestShapeOfKernel(gert::KernelContext& ctx) {
  const Tensor* x = ctx.GetInputTensor(0);
  Tensor* y = ctx.GetOutputTensor(0);
  for (size_t d = 0; d < x->GetShape().GetDimNum(); ++d) {
    y->GetData<int64_t>()[d] = x->GetShape().GetDim(d);
  }
  return OkStatus();
}

// TestReshape: x reshaped to the INT64 values of input 1 (exact dims).
Status InferTestReshape(gert::InferShapeContext& ctx) {
  const Shape* x = ctx.GetInputShape(0);
  const Shape* s = ctx.GetInputShape(1);
  if (x == nullptr || s == nullptr || s->GetDimNum() != 1) return ctx.Error("bad inputs");
  const Tensor* value = ctx.GetInputTensor(1);
  Shape out;
  for (int64_t d = 0; d < s->GetDim(0); ++d) {
    out.AppendDim(value == nullptr ? -1 : value->GetData<int64_t>()[d]);
  }
  if (value != nullptr && out.GetShapeSize() != x->GetShapeSize()) {
    return ctx.Error("cannot reshape ", x->ToString(), " to ", out.ToString());
  }
  *ctx.GetOutputShape(0) = out;
  return OkStatus();
}

// TestOptBias: x + bias (bias optional, same shape).
Status TestOptBiasKernel(gert::KernelContext& ctx) {
  const Tensor* x = ctx.GetInputTensor(0);
  const Tensor* bias = ctx.GetInputTensor(1);
  if (bias == nullptr && ctx.GetIrInputInstance(1).count != 0) {
    return ctx.Error("IR instance of an absent bias must be empty");
  }
  Tensor* y = ctx.GetOutputTensor(0);
  for (int64_t i = 0; i < x->GetShapeSize(); ++i) {
    y->GetData<float>()[i] =
        x->GetData<float>()[i] + (bias == nullptr ? 0.0f : bias->GetData<float>()[i]);
  }
  return OkStatus();
}

// TestSumN: sum of the dynamic input x0..xN-1.
Status TestSumNKernel(gert::KernelContext& ctx) {
  const gert::IrInstance xs = ctx.GetIrInputInstance(0);
  Tensor* y = ctx.GetOutputTensor(0);
  for (int64_t i = 0; i < y->GetShapeSize(); ++i) {
    float s = 0;
    for (size_t k = xs.start; k < xs.start + xs.count; ++k) {
      s += ctx.GetInputTensor(k)->GetData<float>()[i];
    }
    y->GetData<float>()[i] = s;
  }
  return OkStatus();
}

// TestSplit2: a 1-D x of even length into its halves.
Status InferSplit2(gert::InferShapeContext& ctx) {
  const Shape* x = ctx.GetInputShape(0);
  if (x == nullptr || x->GetDimNum() != 1 || x->GetDim(0) % 2 != 0) {
    return ctx.Error("x must be 1-D of even length");
  }
  *ctx.GetOutputShape(0) = Shape{x->GetDim(0) / 2};
  *ctx.GetOutputShape(1) = Shape{x->GetDim(0) / 2};
  return OkStatus();
}

Status TestSplit2Kernel(gert::KernelContext& ctx) {
  const Tensor* x = ctx.GetInputTensor(0);
  const int64_t half = x->GetShapeSize() / 2;
  for (size_t o = 0; o < 2; ++o) {
    std::memcpy(ctx.GetOutputTensor(o)->GetAddr(), x->GetData<float>() + o * half,
                static_cast<size_t>(half) * sizeof(float));
  }
  return OkStatus();
}

Status TestFailKernel(gert::KernelContext& ctx) { return ctx.Error("deliberate failure"); }
Status TestFailPlainKernel(gert::KernelContext&) { return Internal("plain failure"); }

// Allocates a shape one element longer than infer promised.
Status TestBadShapeKernel(gert::KernelContext& ctx) {
  const Tensor* x = ctx.GetInputTensor(0);
  return ctx.AllocateOutput(0, Shape{x->GetShapeSize() + 1}, DT_FLOAT).status();
}

Status TestNoAllocKernel(gert::KernelContext&) { return OkStatus(); }

// No infer shape function: the kernel allocates.
Status TestNoInferKernel(gert::KernelContext& ctx) {
  const Tensor* x = ctx.GetInputTensor(0);
  ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->GetShape(), x->GetDataType()));
  return gert::CopyTensorData(*x, y);
}

// TestLessThan: BOOL scalar x[0] < limit.
Status InferScalar(gert::InferShapeContext& ctx) {
  *ctx.GetOutputShape(0) = Shape();
  return OkStatus();
}

Status TestLessThanKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const float limit, ctx.GetFloat("limit"));
  ctx.GetOutputTensor(0)->GetData<bool>()[0] = ctx.GetInputTensor(0)->GetData<float>()[0] < limit;
  return OkStatus();
}

// Moves subgraph results into the node's outputs.
Status EmitOutputs(gert::KernelContext& ctx, const std::vector<HostTensor>& outs) {
  if (outs.size() != ctx.GetOutputNum()) {
    return ctx.Error("subgraph gave ", outs.size(), " outputs for ", ctx.GetOutputNum());
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    ASSIGN_OR_RETURN(Tensor * t, ctx.AllocateOutput(i, outs[i].GetShape(), outs[i].GetDataType()));
    RETURN_IF_ERROR(gert::CopyTensorData(outs[i].tensor(), t));
  }
  return OkStatus();
}

// TestIf: runs then_branch (subgraph 0) or else_branch (1) with all inputs.
Status TestIfKernel(gert::KernelContext& ctx) {
  const Tensor* cond = ctx.GetInputTensor(0);
  if (cond == nullptr || cond->GetDataType() != DT_BOOL || cond->GetShapeSize() != 1) {
    return ctx.Error("cond must be one BOOL");
  }
  if (ctx.GetSubgraphRunner() == nullptr) return ctx.Error("no subgraph runner");
  std::vector<const Tensor*> inputs;
  for (size_t i = 0; i < ctx.GetInputNum(); ++i) inputs.push_back(ctx.GetInputTensor(i));
  std::vector<HostTensor> outs;
  RETURN_IF_ERROR(ctx.GetSubgraphRunner()->Run(cond->GetData<bool>()[0] ? 0 : 1, inputs, &outs));
  return EmitOutputs(ctx, outs);
}

// TestLoop (ONNX Loop without scan outputs): body(iter, cond, v...) ->
// (cond, v...), while iter < M (if given) and cond.
Status TestLoopKernel(gert::KernelContext& ctx) {
  const Tensor* m = ctx.GetInputTensor(ctx.GetIrInputInstance(0).start);
  if (ctx.GetIrInputInstance(0).count == 0) m = nullptr;
  const Tensor* c = ctx.GetIrInputInstance(1).count == 0
                        ? nullptr
                        : ctx.GetInputTensor(ctx.GetIrInputInstance(1).start);
  const int64_t trips =
      m == nullptr ? std::numeric_limits<int64_t>::max() : m->GetData<int64_t>()[0];
  bool cond = c == nullptr ? true : c->GetData<bool>()[0];
  const gert::IrInstance vs_ir = ctx.GetIrInputInstance(2);
  std::vector<HostTensor> vs;
  for (size_t k = vs_ir.start; k < vs_ir.start + vs_ir.count; ++k) {
    ASSIGN_OR_RETURN(HostTensor v, HostTensor::CopyFrom(*ctx.GetInputTensor(k)));
    vs.push_back(std::move(v));
  }
  for (int64_t i = 0; i < trips && cond; ++i) {
    ASSIGN_OR_RETURN(HostTensor iter, HostTensor::Create(DT_INT64, Shape()));
    iter.MutableData<int64_t>()[0] = i;
    ASSIGN_OR_RETURN(HostTensor cin, HostTensor::Create(DT_BOOL, Shape()));
    cin.MutableData<bool>()[0] = cond;
    std::vector<const Tensor*> ins = {&iter.tensor(), &cin.tensor()};
    for (const HostTensor& v : vs) ins.push_back(&v.tensor());
    std::vector<HostTensor> outs;
    RETURN_IF_ERROR(ctx.GetSubgraphRunner()->Run(0, ins, &outs));
    if (outs.size() != vs.size() + 1 || outs[0].GetDataType() != DT_BOOL) {
      return ctx.Error("body must give cond and ", vs.size(), " values");
    }
    cond = outs[0].GetData<bool>()[0];
    for (size_t k = 0; k < vs.size(); ++k) vs[k] = std::move(outs[k + 1]);
  }
  return EmitOutputs(ctx, vs);
}

const TensorType kF32(DT_FLOAT);

// One chain call per line.
// clang-format off
REG_OP(TestAdd)
    .Input("x1", kF32)
    .Input("x2", kF32)
    .Output("y", kF32)
    .InferShape(InferTestAdd); REG_KERNEL(TestAdd, kEngineHostCpu).Fn(TestAddKernel);

REG_OP(TestRelu)
    .Input("x", kF32)
    .Output("y", kF32)
    .InferShape(InferSame); REG_KERNEL(TestRelu, kEngineHostCpu).Fn(TestReluKernel);

REG_OP(TestScale)
    .Input("x", kF32)
    .Output("y", kF32)
    .RequiredAttr("alpha", AttrValue::VT_FLOAT)
    .InferShape(InferSame); REG_KERNEL(TestScale, kEngineHostCpu).Fn(TestScaleKernel);

REG_OP(TestFilterPositive)
    .Input("x", kF32)
    .Output("y", kF32)
    .InferShape(InferFilter); REG_KERNEL(TestFilterPositive, kEngineHostCpu).Fn(TestFilterKernel);

REG_OP(TestShapeOf)
    .Input("x", TensorType::ALL())
    .Output("y", DT_INT64)
    .InferShape(InferShapeOf)
    .InferDataType(InferInt64); REG_KERNEL(TestShapeOf, kEngineHostCpu).Fn(TestShapeOfKernel);

REG_OP(TestReshape)
    .Input("x", kF32)
    .Input("shape", DT_INT64)
    .Output("y", kF32)
    .InferShape(InferTestReshape); REG_KERNEL(TestReshape, kEngineHostCpu).Fn(CopyKernel);

REG_OP(TestOptBias)
    .Input("x", kF32)
    .OptionalInput("bias", kF32)
    .Output("y", kF32)
    .InferShape(InferSame); REG_KERNEL(TestOptBias, kEngineHostCpu).Fn(TestOptBiasKernel);

REG_OP(TestSumN)
    .DynamicInput("x", kF32)
    .Output("y", kF32)
    .InferShape(InferSame); REG_KERNEL(TestSumN, kEngineHostCpu).Fn(TestSumNKernel);

REG_OP(TestSplit2)
    .Input("x", kF32)
    .Output("y0", kF32)
    .Output("y1", kF32)
    .InferShape(InferSplit2); REG_KERNEL(TestSplit2, kEngineHostCpu).Fn(TestSplit2Kernel);

REG_OP(TestIntOnly)
    .Input("x", DT_INT32)
    .Output("y", DT_INT32)
    .InferShape(InferSame); REG_KERNEL(TestIntOnly, kEngineHostCpu).Fn(CopyKernel);

REG_OP(TestFail)
    .Input("x", kF32)
    .Output("y", kF32)
    .InferShape(InferSame); REG_KERNEL(TestFail, kEngineHostCpu).Fn(TestFailKernel);

REG_OP(TestFailPlain)
    .Input("x", kF32)
    .Output("y", kF32)
    .InferShape(InferSame); REG_KERNEL(TestFailPlain, kEngineHostCpu).Fn(TestFailPlainKernel);

REG_OP(TestAiCoreOnly)
    .Input("x", kF32)
    .Output("y", kF32)
    .InferShape(InferSame); REG_KERNEL(TestAiCoreOnly, kEngineAiCore).Fn(CopyKernel);

REG_OP(TestBadShape)
    .Input("x", kF32)
    .Output("y", kF32)
    .InferShape(InferSame); REG_KERNEL(TestBadShape, kEngineHostCpu).Fn(TestBadShapeKernel);

REG_OP(TestNoAlloc)
    .Input("x", kF32)
    .Output("y", kF32)
    .InferShape(InferFilter); REG_KERNEL(TestNoAlloc, kEngineHostCpu).Fn(TestNoAllocKernel);

REG_OP(TestNoInfer)
    .Input("x", TensorType::ALL())
    .Output("y", TensorType::ALL()); REG_KERNEL(TestNoInfer, kEngineHostCpu).Fn(TestNoInferKernel);

REG_OP(TestLessThan)
    .Input("x", kF32)
    .Output("y", DT_BOOL)
    .RequiredAttr("limit", AttrValue::VT_FLOAT)
    .InferShape(InferScalar)
    .InferDataType(InferBool); REG_KERNEL(TestLessThan, kEngineHostCpu).Fn(TestLessThanKernel);

REG_OP(TestIf)
    .Input("cond", DT_BOOL)
    .DynamicInput("x", TensorType::ALL())
    .DynamicOutput("y", TensorType::ALL())
    .Subgraph("then_branch")
    .Subgraph("else_branch")
    .InferShape(InferUnknownRank)
    .InferDataType(InferUndefinedTypes); REG_KERNEL(TestIf, kEngineHostCpu).Fn(TestIfKernel);

REG_OP(TestLoop)
    .OptionalInput("M", DT_INT64)
    .OptionalInput("cond", DT_BOOL)
    .DynamicInput("v", TensorType::ALL())
    .DynamicOutput("v_final", TensorType::ALL())
    .Subgraph("body")
    .InferShape(InferUnknownRank)
    .InferDataType(InferUndefinedTypes); REG_KERNEL(TestLoop, kEngineHostCpu).Fn(TestLoopKernel);
// clang-format on

// ================================================================ helpers

reftest::Attrs Alpha(float a) { return {{"alpha", AttrValue::CreateFrom<float>(a)}}; }

std::vector<std::string> RunOrder(const ComputeGraph& graph, std::vector<HostTensor> inputs) {
  std::vector<std::string> order;
  Interp::Options opts;
  opts.node_callback = [&order](const Interp::NodeRunInfo& info) {
    order.push_back(std::string(info.depth, '>') + info.node->GetName());
    return OkStatus();
  };
  StatusOr<std::vector<HostTensor>> r = Interp::Run(graph, std::move(inputs), opts);
  EXPECT_TRUE(r.ok()) << r.status();
  return order;
}

// ================================================================ basics

TEST(ReferenceInterpreterTest, RunsAChainWithAConstAndScalarBroadcast) {
  TestGraph g("chain");
  NodePtr x = g.Data("x", 0);
  NodePtr one = g.Const("one", F32({}, {-1.5f}));
  NodePtr add = g.Op("add", "TestAdd", {x, one});
  NodePtr relu = g.Op("relu", "TestRelu", {add});
  NodePtr scale = g.Op("scale", "TestScale", {relu}, Alpha(2));
  g.NetOutput({scale});
  Interp::Stats stats;
  Interp::Options opts;
  opts.stats = &stats;
  auto out = Interp::Run(*g.graph(), Inputs(F32({2, 3}, {0, 1, 2, 3, 4, -5})), opts);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 1u);
  EXPECT_THAT(Dims((*out)[0]), ElementsAre(2, 3));
  EXPECT_EQ((*out)[0].GetDataType(), DT_FLOAT);
  EXPECT_THAT(ToF32((*out)[0]), ElementsAre(0, 0, 1, 3, 5, 0));
  EXPECT_EQ(stats.nodes_executed, 6);
  EXPECT_EQ(stats.kernels_executed, 3);
  EXPECT_EQ(stats.subgraph_runs, 0);
  EXPECT_EQ(stats.live_bytes, 0);
}

TEST(ReferenceInterpreterTest, MapsInputsByDataIndexAttribute) {
  TestGraph g("by_index");
  NodePtr b = g.Data("b", 1);  // first in the list, second input
  NodePtr a = g.Data("a", 0);
  NodePtr scaled = g.Op("scaled", "TestScale", {b}, Alpha(2));
  NodePtr add = g.Op("add", "TestAdd", {a, scaled});
  g.NetOutput({add});
  auto out = Interp::Run(*g.graph(), Inputs(F32({1}, {1}), F32({1}, {10})));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_THAT(ToF32((*out)[0]), ElementsAre(21));  // a + 2b; swapped would be 12
}

TEST(ReferenceInterpreterTest, FallsBackToInputNodeOrderWithoutIndex) {
  TestGraph g("by_order");
  NodePtr a = g.Data("a", -1);
  NodePtr b = g.Data("b", -1);
  NodePtr scaled = g.Op("scaled", "TestScale", {b}, Alpha(2));
  NodePtr add = g.Op("add", "TestAdd", {a, scaled});
  g.NetOutput({add});
  auto out = Interp::Run(*g.graph(), Inputs(F32({1}, {1}), F32({1}, {10})));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_THAT(ToF32((*out)[0]), ElementsAre(21));
}

TEST(ReferenceInterpreterTest, NetOutputOrderPassThroughAndRepeatedOutputs) {
  TestGraph g("outs");
  NodePtr x = g.Data("x", 0);
  NodePtr c = g.Const("c", F32({2}, {7, 8}));
  NodePtr relu = g.Op("relu", "TestRelu", {x});
  g.NetOutput({relu, x, c, relu});
  auto out = Interp::Run(*g.graph(), Inputs(F32({2}, {-1, 4})));
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 4u);
  EXPECT_THAT(ToF32((*out)[0]), ElementsAre(0, 4));
  EXPECT_THAT(ToF32((*out)[1]), ElementsAre(-1, 4));
  EXPECT_THAT(ToF32((*out)[2]), ElementsAre(7, 8));
  EXPECT_THAT(ToF32((*out)[3]), ElementsAre(0, 4));
  // Independent tensors, not aliases.
  EXPECT_NE((*out)[0].tensor().GetAddr(), (*out)[3].tensor().GetAddr());
}

TEST(ReferenceInterpreterTest, NetOutputParentIndicesReorderOutputs) {
  TestGraph g("reorder");
  NodePtr x = g.Data("x", 0);
  NodePtr relu = g.Op("relu", "TestRelu", {x});
  NodePtr out = g.NetOutput({relu, x});
  ASSERT_TRUE(out->GetOpDesc()
                  ->MutableInputDesc(0)
                  ->SetAttr(ATTR_NAME_PARENT_NODE_INDEX, AttrValue::CreateFrom<int64_t>(1))
                  .ok());
  ASSERT_TRUE(out->GetOpDesc()
                  ->MutableInputDesc(1)
                  ->SetAttr(ATTR_NAME_PARENT_NODE_INDEX, AttrValue::CreateFrom<int64_t>(0))
                  .ok());
  auto r = Interp::Run(*g.graph(), Inputs(F32({1}, {-3})));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(-3));
  EXPECT_THAT(ToF32((*r)[1]), ElementsAre(0));
}

TEST(ReferenceInterpreterTest, UsesGraphOutNodesInfoWithoutNetOutput) {
  TestGraph g("no_netoutput");
  NodePtr x = g.Data("x", 0);
  NodePtr split = g.Op("split", "TestSplit2", {x});
  g.graph()->SetGraphOutNodesInfo({{split, 1}, {split, 0}});
  auto r = Interp::Run(*g.graph(), Inputs(F32({4}, {1, 2, 3, 4})));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(3, 4));
  EXPECT_THAT(ToF32((*r)[1]), ElementsAre(1, 2));
}

TEST(ReferenceInterpreterTest, GraphWithoutOutputsGivesNone) {
  TestGraph g("sink");
  NodePtr x = g.Data("x", 0);
  g.Op("relu", "TestRelu", {x});
  Interp::Stats stats;
  Interp::Options opts;
  opts.stats = &stats;
  auto r = Interp::Run(*g.graph(), Inputs(F32({1}, {1})), opts);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->empty());
  EXPECT_EQ(stats.kernels_executed, 1);
  EXPECT_EQ(stats.live_bytes, 0);
}

TEST(ReferenceInterpreterTest, MultipleOutputsAndMultipleConsumers) {
  TestGraph g("fan");
  NodePtr x = g.Data("x", 0);
  NodePtr split = g.Op("split", "TestSplit2", {x});
  NodePtr r0 = g.Op("r0", "TestRelu", {Out(split, 0)});
  NodePtr s1 = g.Op("s1", "TestScale", {Out(split, 1)}, Alpha(10));
  NodePtr add = g.Op("add", "TestAdd", {r0, s1});
  NodePtr add2 = g.Op("add2", "TestAdd", {add, Out(split, 0)});
  g.NetOutput({add2});
  auto r = Interp::Run(*g.graph(), Inputs(F32({4}, {-1, 2, 3, 4})));
  ASSERT_TRUE(r.ok()) << r.status();
  // r0 = [0, 2], s1 = [30, 40], add = [30, 42], add2 = [29, 44]
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(29, 44));
}

TEST(ReferenceInterpreterTest, OptionalInputAbsentOrPresent) {
  TestGraph g("opt");
  NodePtr x = g.Data("x", 0);
  NodePtr b = g.Data("b", 1);
  NodePtr without = g.Op("without", "TestOptBias", {x});
  NodePtr with = g.Op("with", "TestOptBias", {x, b});
  g.NetOutput({without, with});
  auto r = Interp::Run(*g.graph(), Inputs(F32({2}, {1, 2}), F32({2}, {10, 20})));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(1, 2));
  EXPECT_THAT(ToF32((*r)[1]), ElementsAre(11, 22));
}

TEST(ReferenceInterpreterTest, DynamicInputs) {
  TestGraph g("sum");
  NodePtr a = g.Data("a", 0);
  NodePtr b = g.Data("b", 1);
  NodePtr sum = g.Op("sum", "TestSumN", {a, b, a}, {}, {{"x", 3}});
  g.NetOutput({sum});
  auto r = Interp::Run(*g.graph(), Inputs(F32({2}, {1, 2}), F32({2}, {10, 20})));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(12, 24));
}

// ================================================================ ordering

TEST(ReferenceInterpreterTest, RunsAnUnsortedListInTopologicalOrder) {
  TestGraph g("unsorted");
  // Consumers are added before their producers.
  NodePtr out = g.RawOp("output", NETOUTPUT, {}, 1, 0);
  NodePtr relu = g.RawOp("relu_placeholder", "TestRelu", {}, 1, 1);
  NodePtr x = g.Data("x", 0);
  g.Link(relu, out, 0);
  g.Link(x, relu, 0);
  EXPECT_THAT(RunOrder(*g.graph(), Inputs(F32({1}, {-2}))),
              ElementsAre("x", "relu_placeholder", "output"));
}

TEST(ReferenceInterpreterTest, KeepsListOrderAndHonoursControlEdges) {
  TestGraph g("ctrl");
  NodePtr x = g.Data("x", 0);
  NodePtr a = g.Op("a", "TestRelu", {x});
  NodePtr b = g.Op("b", "TestRelu", {x});
  NodePtr c = g.Op("c", "TestRelu", {x});
  g.NetOutput({a, b, c});
  EXPECT_THAT(RunOrder(*g.graph(), Inputs(F32({1}, {1}))),
              ElementsAre("x", "a", "b", "c", "output"));
  g.Control(c, a);  // c must now run before a
  EXPECT_THAT(RunOrder(*g.graph(), Inputs(F32({1}, {1}))),
              ElementsAre("x", "b", "c", "a", "output"));
}

TEST(ReferenceInterpreterTest, ReportsACycle) {
  TestGraph g("cyclic");
  NodePtr x = g.Data("x", 0);
  NodePtr a = g.RawOp("a", "TestAdd", {x}, 2, 1);
  NodePtr b = g.Op("b", "TestRelu", {a});
  g.Link(b, a, 1);
  g.NetOutput({b});
  auto r = Interp::Run(*g.graph(), Inputs(F32({1}, {1})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kGraphCycle);
  EXPECT_THAT(r.status().message(), HasSubstr("graph 'cyclic'"));
  const std::string msg(r.status().message());
  EXPECT_TRUE(msg.find("a -> b -> a") != std::string::npos ||
              msg.find("b -> a -> b") != std::string::npos)
      << msg;
}

TEST(ReferenceInterpreterTest, CallbackSeesTensorsAndCanStopTheRun) {
  TestGraph g("traced");
  NodePtr x = g.Data("x", 0);
  NodePtr relu = g.Op("relu", "TestRelu", {x});
  NodePtr scale = g.Op("scale", "TestScale", {relu}, Alpha(3));
  g.NetOutput({scale});

  std::vector<std::string> seen;
  Interp::Options opts;
  opts.node_callback = [&seen](const Interp::NodeRunInfo& info) {
    std::string line = info.node->GetName() + ":";
    for (const Tensor* t : info.inputs) {
      line += t == nullptr ? std::string(" in-") : " in" + t->GetShape().ToString();
    }
    for (const Tensor* t : info.outputs) {
      line += " out" + t->GetShape().ToString();
      if (t->GetDataType() == DT_FLOAT) line += "=" + std::to_string(int(t->GetData<float>()[0]));
    }
    seen.push_back(line);
    return OkStatus();
  };
  auto r = Interp::Run(*g.graph(), Inputs(F32({1}, {2})), opts);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(seen, ElementsAre("x: in- out[1]=2", "relu: in[1] out[1]=2", "scale: in[1] out[1]=6",
                                "output: in[1]"));

  opts.node_callback = [](const Interp::NodeRunInfo& info) {
    return info.node->GetName() == "relu" ? ParamInvalid("stop here") : OkStatus();
  };
  Interp::Stats stats;
  opts.stats = &stats;
  r = Interp::Run(*g.graph(), Inputs(F32({1}, {2})), opts);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(r.status().message(), HasSubstr("node relu (TestRelu)"));
  EXPECT_THAT(r.status().message(), HasSubstr("stop here"));
  EXPECT_EQ(stats.kernels_executed, 1);
  EXPECT_EQ(stats.live_bytes, 0);  // freed on the error path too
}

// ================================================================ inputs

TEST(ReferenceInterpreterTest, RejectsBadInputLists) {
  TestGraph g("inputs");
  NodePtr a = g.Data("a", 0);
  NodePtr b = g.Data("b", 1);
  g.NetOutput({g.Op("add", "TestAdd", {a, b})});

  auto r = Interp::Run(*g.graph(), Inputs(F32({1}, {1})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(r.status().message(), HasSubstr("2 Data nodes but 1 input tensors"));

  std::vector<HostTensor> moved = Inputs(F32({1}, {1}), F32({1}, {2}));
  HostTensor taken = std::move(moved[1]);
  r = Interp::Run(*g.graph(), std::move(moved));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("input tensor 1 owns no storage"));

  ASSERT_TRUE(b->GetOpDesc()->SetAttr("index", AttrValue::CreateFrom<int64_t>(0)).ok());
  r = Interp::Run(*g.graph(), Inputs(F32({1}, {1}), F32({1}, {2})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kGraphInvalid);
  EXPECT_THAT(r.status().message(), HasSubstr("Data nodes a and b both have input index 0"));

  ASSERT_TRUE(b->GetOpDesc()->SetAttr("index", AttrValue::CreateFrom<int64_t>(5)).ok());
  r = Interp::Run(*g.graph(), Inputs(F32({1}, {1}), F32({1}, {2})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kOutOfRange);
  EXPECT_THAT(r.status().message(), HasSubstr("node b (Data): input index 5 is out of range"));

  ASSERT_TRUE(b->GetOpDesc()->SetAttr("index", AttrValue::CreateFrom<std::string>("1")).ok());
  r = Interp::Run(*g.graph(), Inputs(F32({1}, {1}), F32({1}, {2})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kTypeMismatch);
  EXPECT_THAT(r.status().message(), HasSubstr("node b (Data): attribute 'index'"));
}

TEST(ReferenceInterpreterTest, RunWithViewsMapsByParentIndex) {
  TestGraph g("body");
  NodePtr a = g.Data("a", 0, /*parent_index=*/2);
  NodePtr b = g.Data("b", 1, /*parent_index=*/0);
  NodePtr scaled = g.Op("scaled", "TestScale", {b}, Alpha(2));
  g.NetOutput({g.Op("add", "TestAdd", {a, scaled})});
  HostTensor t0 = F32({1}, {1});
  HostTensor t1 = F32({1}, {100});  // unused
  HostTensor t2 = F32({1}, {10});
  std::vector<const Tensor*> views = {&t0.tensor(), &t1.tensor(), &t2.tensor()};
  auto r = Interp::RunWithViews(*g.graph(), views);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(12));  // a = t2, b = t0
  EXPECT_THAT(ToF32(t2), ElementsAre(10));       // inputs untouched

  views.pop_back();
  r = Interp::RunWithViews(*g.graph(), views);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kOutOfRange);
  EXPECT_THAT(r.status().message(), HasSubstr("node a (Data): input index 2"));
}

// ================================================================ constants

TEST(ReferenceInterpreterTest, ConstErrors) {
  {
    TestGraph g("no_value");
    NodePtr c = g.RawOp("c", CONSTANT, {}, 0, 1);
    g.NetOutput({c});
    auto r = Interp::Run(*g.graph(), {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotFound);
    EXPECT_THAT(r.status().message(), HasSubstr("node c (Const): has no 'value' tensor"));
  }
  {
    TestGraph g("short_value");
    NodePtr c = g.RawOp("c", CONSTANT, {}, 0, 1);
    GeTensor t(GeTensorDesc(GeShape({4}), FORMAT_ND, DT_FLOAT), std::vector<uint8_t>(8, 0));
    ASSERT_TRUE(
        c->GetOpDesc()->SetAttr(ATTR_NAME_WEIGHTS, AttrValue::CreateFrom<GeTensor>(t)).ok());
    g.NetOutput({c});
    auto r = Interp::Run(*g.graph(), {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kGraphInvalid);
    EXPECT_THAT(r.status().message(), HasSubstr("value holds 8 bytes but [4] DT_FLOAT needs 16"));
  }
  {
    TestGraph g("wrong_attr");
    NodePtr c = g.RawOp("c", CONSTANT, {}, 0, 1);
    ASSERT_TRUE(c->GetOpDesc()->SetAttr(ATTR_NAME_WEIGHTS, AttrValue::CreateFrom<int64_t>(1)).ok());
    g.NetOutput({c});
    auto r = Interp::Run(*g.graph(), {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kTypeMismatch);
  }
  {
    TestGraph g("empty_value");
    NodePtr c = g.Const("c", F32({0, 3}, {}));
    g.NetOutput({g.Op("relu", "TestRelu", {c})});
    auto r = Interp::Run(*g.graph(), {});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_THAT(Dims((*r)[0]), ElementsAre(0, 3));
  }
}

// ================================================================ node errors

TEST(ReferenceInterpreterTest, UnknownOpTypeNamesNodeAndSuggests) {
  TestGraph g("unknown");
  NodePtr x = g.Data("x", 0);
  NodePtr bad = g.RawOp("bad", "TestReluu", {x}, 1, 1);
  g.NetOutput({bad});
  auto r = Interp::Run(*g.graph(), Inputs(F32({1}, {1})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotFound);
  EXPECT_THAT(r.status().message(), HasSubstr("node bad (TestReluu)"));
  EXPECT_THAT(r.status().message(), HasSubstr("TestRelu"));  // the suggestion
}

TEST(ReferenceInterpreterTest, MissingKernelForEngineAndEngineOption) {
  TestGraph g("engine");
  NodePtr x = g.Data("x", 0);
  g.NetOutput({g.Op("aicore", "TestAiCoreOnly", {x})});
  auto r = Interp::Run(*g.graph(), Inputs(F32({1}, {5})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotSupported);
  EXPECT_THAT(r.status().message(), HasSubstr("node aicore (TestAiCoreOnly)"));
  EXPECT_THAT(r.status().message(), HasSubstr(kEngineHostCpu));
  EXPECT_THAT(r.status().message(), HasSubstr(kEngineAiCore));  // what exists

  Interp::Options opts;
  opts.engine = kEngineAiCore;
  r = Interp::Run(*g.graph(), Inputs(F32({1}, {5})), opts);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(5));
}

TEST(ReferenceInterpreterTest, UnconnectedRequiredInput) {
  TestGraph g("missing");
  NodePtr x = g.Data("x", 0);
  NodePtr add = g.Op("add", "TestAdd", {x});  // x2 left unconnected
  g.NetOutput({add});
  auto r = Interp::Run(*g.graph(), Inputs(F32({1}, {1})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kGraphInvalid);
  EXPECT_THAT(r.status().message(), HasSubstr("node add (TestAdd): input 'x2' (index 1)"));
  EXPECT_THAT(r.status().message(), HasSubstr("not connected"));
}

TEST(ReferenceInterpreterTest, NetOutputErrors) {
  {
    TestGraph g("dangling");
    NodePtr x = g.Data("x", 0);
    NodePtr out = g.RawOp("output", NETOUTPUT, {x}, 2, 0);
    (void)out;
    auto r = Interp::Run(*g.graph(), Inputs(F32({1}, {1})));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kGraphInvalid);
    EXPECT_THAT(r.status().message(),
                HasSubstr("node output (NetOutput): input 1 is not connected"));
  }
  {
    TestGraph g("two");
    NodePtr x = g.Data("x", 0);
    g.NetOutput({x}, "out1");
    g.NetOutput({x}, "out2");
    auto r = Interp::Run(*g.graph(), Inputs(F32({1}, {1})));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kGraphInvalid);
    EXPECT_THAT(r.status().message(), HasSubstr("two NetOutput nodes: out1 and out2"));
  }
}

TEST(ReferenceInterpreterTest, KernelErrorsNameTheNode) {
  TestGraph g("fail");
  NodePtr x = g.Data("x", 0);
  NodePtr boom = g.Op("boom", "TestFail", {x});
  g.NetOutput({boom});
  auto r = Interp::Run(*g.graph(), Inputs(F32({1}, {1})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  EXPECT_EQ(r.status().message(), "node boom (TestFail): deliberate failure");

  TestGraph g2("fail_plain");
  NodePtr x2 = g2.Data("x", 0);
  g2.NetOutput({g2.Op("plain", "TestFailPlain", {x2})});
  r = Interp::Run(*g2.graph(), Inputs(F32({1}, {1})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kInternal);
  EXPECT_EQ(r.status().message(), "node plain (TestFailPlain): kernel: plain failure");
}

TEST(ReferenceInterpreterTest, InferErrorsNameTheNode) {
  TestGraph g("infer");
  NodePtr a = g.Data("a", 0);
  NodePtr b = g.Data("b", 1);
  g.NetOutput({g.Op("add", "TestAdd", {a, b})});
  auto r = Interp::Run(*g.graph(), Inputs(F32({2}, {1, 2}), F32({3}, {1, 2, 3})));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(),
              HasSubstr("node add (TestAdd): shapes [2] and [3] do not match"));
}

TEST(ReferenceInterpreterTest, ChecksDataTypesAndAttributesAgainstTheIr) {
  TestGraph g("types");
  NodePtr x = g.Data("x", 0);
  g.NetOutput({g.Op("ints", "TestIntOnly", {x})});
  auto r = Interp::Run(*g.graph(), Inputs(F32({1}, {1})));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("node ints (TestIntOnly)"));
  EXPECT_THAT(r.status().message(), HasSubstr("'x' (index 0)"));
  EXPECT_THAT(r.status().message(), HasSubstr("DT_FLOAT"));

  TestGraph g2("attrs");
  NodePtr x2 = g2.Data("x", 0);
  NodePtr scale = g2.Op("scale", "TestScale", {x2});
  g2.NetOutput({scale});
  r = Interp::Run(*g2.graph(), Inputs(F32({1}, {1})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(r.status().message(),
              HasSubstr("node scale (TestScale): required attribute 'alpha'"));

  ASSERT_TRUE(scale->GetOpDesc()->SetAttr("alpha", AttrValue::CreateFrom<std::string>("2")).ok());
  r = Interp::Run(*g2.graph(), Inputs(F32({1}, {1})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kTypeMismatch);
  EXPECT_THAT(r.status().message(), HasSubstr("attribute 'alpha'"));
}

TEST(ReferenceInterpreterTest, KernelOutputsMustAgreeWithInfer) {
  TestGraph g("bad_shape");
  NodePtr x = g.Data("x", 0);
  g.NetOutput({g.Op("liar", "TestBadShape", {x})});
  Interp::Stats stats;
  Interp::Options opts;
  opts.stats = &stats;
  auto r = Interp::Run(*g.graph(), Inputs(F32({2}, {1, 2})), opts);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kInternal);
  EXPECT_THAT(r.status().message(),
              HasSubstr("node liar (TestBadShape): output 0: infer shape gave [2] but the "
                        "kernel produced [3]"));
  EXPECT_EQ(stats.live_bytes, 0);

  TestGraph g2("no_alloc");
  NodePtr x2 = g2.Data("x", 0);
  g2.NetOutput({g2.Op("lazy", "TestNoAlloc", {x2})});
  r = Interp::Run(*g2.graph(), Inputs(F32({2}, {1, 2})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kInternal);
  EXPECT_THAT(r.status().message(),
              HasSubstr("node lazy (TestNoAlloc): the kernel did not allocate output 0"));
}

TEST(ReferenceInterpreterTest, OpWithoutInferFunctionAllocatesInItsKernel) {
  TestGraph g("no_infer");
  NodePtr x = g.Data("x", 0);
  g.NetOutput({g.Op("copy", "TestNoInfer", {x})});
  auto r = Interp::Run(*g.graph(), Inputs(I64({3}, {4, 5, 6})));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].GetDataType(), DT_INT64);
  EXPECT_THAT(ToI64((*r)[0]), ElementsAre(4, 5, 6));
}

// ================================================================ dynamic shapes

TEST(ReferenceInterpreterTest, DataDependentOutputShape) {
  TestGraph g("filter");
  NodePtr x = g.Data("x", 0);
  NodePtr pos = g.Op("pos", "TestFilterPositive", {x});
  NodePtr one = g.Const("one", F32({}, {1}));
  g.NetOutput({g.Op("add", "TestAdd", {pos, one})});
  auto r = Interp::Run(*g.graph(), Inputs(F32({6}, {3, -1, 0, 5, -2, 7})));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(Dims((*r)[0]), ElementsAre(3));
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(4, 6, 8));

  r = Interp::Run(*g.graph(), Inputs(F32({2}, {-3, -1})));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(Dims((*r)[0]), ElementsAre(0));
}

TEST(ReferenceInterpreterTest, ReshapeWithAComputedShape) {
  TestGraph g("reshape");
  NodePtr x = g.Data("x", 0);
  NodePtr like = g.Data("like", 1);
  NodePtr shape = g.Op("shape", "TestShapeOf", {like});
  g.NetOutput({g.Op("reshape", "TestReshape", {x, shape}), shape});
  auto r = Interp::Run(*g.graph(), Inputs(F32({6}, {1, 2, 3, 4, 5, 6}), F32Fill({3, 2}, 0)));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(Dims((*r)[0]), ElementsAre(3, 2));
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_THAT(ToI64((*r)[1]), ElementsAre(3, 2));

  r = Interp::Run(*g.graph(), Inputs(F32({6}, {1, 2, 3, 4, 5, 6}), F32Fill({4}, 0)));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(),
              HasSubstr("node reshape (TestReshape): cannot reshape [6] to [4]"));
}

// ================================================================ control flow

// An If node with cond + one float input; then: x * 2, else: x + 100.
struct IfGraph {
  TestGraph root{"root"};
  NodePtr cond;
  NodePtr x;
  NodePtr if_node;
  std::unique_ptr<TestGraph> then_g;
  std::unique_ptr<TestGraph> else_g;

  IfGraph() {
    cond = root.Data("cond", 0);
    x = root.Data("x", 1);
    if_node = root.Op("if1", "TestIf", {cond, x}, {}, {{"x", 1}, {"y", 1}});
    root.NetOutput({if_node});
    then_g = std::make_unique<TestGraph>("then", if_node, 0);
    NodePtr tx = then_g->Data("tx", -1, /*parent_index=*/1);
    then_g->NetOutput({then_g->Op("double", "TestScale", {tx}, Alpha(2))});
    else_g = std::make_unique<TestGraph>("else", if_node, 1);
    NodePtr ex = else_g->Data("ex", -1, /*parent_index=*/1);
    NodePtr hundred = else_g->Const("hundred", F32({}, {100}));
    else_g->NetOutput({else_g->Op("plus", "TestAdd", {ex, hundred})});
  }
};

TEST(ReferenceInterpreterTest, IfRunsTheChosenBranch) {
  IfGraph g;
  Interp::Stats stats;
  Interp::Options opts;
  opts.stats = &stats;
  auto r = Interp::Run(*g.root.graph(), Inputs(Bool({}, {true}), F32({2}, {1, 2})), opts);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(2, 4));
  EXPECT_EQ(stats.subgraph_runs, 1);
  EXPECT_EQ(stats.live_bytes, 0);

  r = Interp::Run(*g.root.graph(), Inputs(Bool({}, {false}), F32({2}, {1, 2})));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(101, 102));

  EXPECT_THAT(RunOrder(*g.root.graph(), Inputs(Bool({}, {false}), F32({1}, {1}))),
              ElementsAre("cond", "x", ">ex", ">hundred", ">plus", ">output", "if1", "output"));
}

TEST(ReferenceInterpreterTest, SubgraphErrorsNameTheSubgraphAndBothNodes) {
  IfGraph g;
  NodePtr tx = g.then_g->graph()->FindNode("tx");
  NodePtr boom = g.then_g->Op("boom", "TestFail", {tx});
  (void)boom;
  auto r = Interp::Run(*g.root.graph(), Inputs(Bool({}, {true}), F32({1}, {1})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "node if1 (TestIf): kernel: subgraph 'then': node boom (TestFail): deliberate failure");
}

TEST(ReferenceInterpreterTest, UnboundSubgraphSlot) {
  TestGraph root("root");
  NodePtr cond = root.Data("cond", 0);
  NodePtr x = root.Data("x", 1);
  NodePtr if_node = root.Op("if1", "TestIf", {cond, x}, {}, {{"x", 1}, {"y", 1}});
  root.NetOutput({if_node});
  auto r = Interp::Run(*root.graph(), Inputs(Bool({}, {true}), F32({1}, {1})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotFound);
  EXPECT_THAT(r.status().message(), HasSubstr("node if1 (TestIf): subgraph slot 0 is not bound"));

  ASSERT_TRUE(if_node->GetOpDesc()->SetSubgraphInstanceName(0, "nowhere").ok());
  r = Interp::Run(*root.graph(), Inputs(Bool({}, {true}), F32({1}, {1})));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("subgraph 'nowhere' (slot 0) is not registered"));
}

// A TestLoop over one float value; the body is built by the caller.
struct LoopGraph {
  TestGraph root{"root"};
  NodePtr loop;
  std::unique_ptr<TestGraph> body;
  NodePtr iter, cond, v;  // body Data nodes

  explicit LoopGraph(bool with_m) {
    NodePtr m = with_m ? root.Data("m", 0) : nullptr;
    NodePtr v0 = root.Data("v0", with_m ? 1 : 0);
    loop = root.Op("loop", "TestLoop", {Out(m), Out(), v0}, {}, {{"v", 1}, {"v_final", 1}});
    root.NetOutput({loop});
    body = std::make_unique<TestGraph>("body", loop, 0);
    iter = body->Data("iter", -1, 0);
    cond = body->Data("cond", -1, 1);
    v = body->Data("v", -1, 2);
  }
};

TEST(ReferenceInterpreterTest, LoopRunsItsBodyMTimes) {
  LoopGraph g(/*with_m=*/true);
  NodePtr one = g.body->Const("one", F32({}, {1}));
  g.body->NetOutput({g.cond, g.body->Op("inc", "TestAdd", {g.v, one})});
  Interp::Stats stats;
  Interp::Options opts;
  opts.stats = &stats;
  auto r = Interp::Run(*g.root.graph(), Inputs(I64({}, {5}), F32({2}, {0, 10})), opts);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(5, 15));
  EXPECT_EQ(stats.subgraph_runs, 5);
  EXPECT_EQ(stats.kernels_executed, 1 + 5);
  EXPECT_EQ(stats.live_bytes, 0);

  r = Interp::Run(*g.root.graph(), Inputs(I64({}, {0}), F32({1}, {3})));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(3));
}

TEST(ReferenceInterpreterTest, LoopStopsOnTheConditionItsBodyComputes) {
  LoopGraph g(/*with_m=*/false);
  NodePtr one = g.body->Const("one", F32({}, {1}));
  NodePtr inc = g.body->Op("inc", "TestAdd", {g.v, one});
  NodePtr more =
      g.body->Op("more", "TestLessThan", {inc}, {{"limit", AttrValue::CreateFrom<float>(7)}});
  g.body->NetOutput({more, inc});
  auto r = Interp::Run(*g.root.graph(), Inputs(F32({1}, {0.5f})));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(7.5f));
}

TEST(ReferenceInterpreterTest, EndlessLoopHitsTheIterationGuard) {
  LoopGraph g(/*with_m=*/false);
  g.body->NetOutput({g.cond, g.v});  // cond stays true forever
  Interp::Options opts;
  opts.max_loop_iterations = 10;
  Interp::Stats stats;
  opts.stats = &stats;
  auto r = Interp::Run(*g.root.graph(), Inputs(F32({1}, {0})), opts);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kOutOfRange);
  EXPECT_THAT(r.status().message(), HasSubstr("node loop (TestLoop)"));
  EXPECT_THAT(r.status().message(), HasSubstr("max_loop_iterations"));
  EXPECT_EQ(stats.subgraph_runs, 10);
  EXPECT_EQ(stats.live_bytes, 0);
}

TEST(ReferenceInterpreterTest, NestedIfInsideALoopBody) {
  LoopGraph g(/*with_m=*/true);
  // body: v' = (v < 3) ? v * 2 : v + 100 (the If's cond is computed in the body)
  NodePtr small =
      g.body->Op("small", "TestLessThan", {g.v}, {{"limit", AttrValue::CreateFrom<float>(3)}});
  NodePtr inner = g.body->Op("inner_if", "TestIf", {small, g.v}, {}, {{"x", 1}, {"y", 1}});
  g.body->NetOutput({g.cond, inner});
  TestGraph then_g("inner_then", inner, 0);
  then_g.NetOutput({then_g.Op("double", "TestScale", {then_g.Data("tx", -1, 1)}, Alpha(2))});
  TestGraph else_g("inner_else", inner, 1);
  NodePtr hundred = else_g.Const("hundred", F32({}, {100}));
  else_g.NetOutput({else_g.Op("plus", "TestAdd", {else_g.Data("ex", -1, 1), hundred})});

  auto r = Interp::Run(*g.root.graph(), Inputs(I64({}, {4}), F32({1}, {1})));
  ASSERT_TRUE(r.ok()) << r.status();
  // 1 -> 2 -> 4 -> 104 -> 204
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(204));
}

TEST(ReferenceInterpreterTest, RecursiveSubgraphHitsTheDepthGuard) {
  IfGraph g;
  // Inside "then", another TestIf whose then-branch is "then" itself.
  NodePtr tcond = g.then_g->Data("tcond", -1, 0);
  NodePtr tx = g.then_g->graph()->FindNode("tx");
  NodePtr again = g.then_g->Op("again", "TestIf", {tcond, tx}, {}, {{"x", 1}, {"y", 1}});
  (void)again;
  ASSERT_TRUE(again->GetOpDesc()->SetSubgraphInstanceName(0, "then").ok());
  Interp::Options opts;
  opts.max_subgraph_depth = 5;
  auto r = Interp::Run(*g.root.graph(), Inputs(Bool({}, {true}), F32({1}, {1})), opts);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kOutOfRange);
  EXPECT_THAT(r.status().message(), HasSubstr("max_subgraph_depth is 5"));
}

// ================================================================ memory

TEST(ReferenceInterpreterTest, FreesIntermediatesAfterTheirLastConsumer) {
  constexpr int kChain = 12;
  constexpr int64_t kBytes = 256 * 1024 * sizeof(float);  // 1 MiB per tensor
  TestGraph g("long_chain");
  NodePtr prev = g.Data("x", 0);
  for (int i = 0; i < kChain; ++i) {
    prev = g.Op("relu" + std::to_string(i), "TestRelu", {prev});
  }
  g.NetOutput({prev});
  Interp::Stats stats;
  Interp::Options opts;
  opts.stats = &stats;
  auto r = Interp::Run(*g.graph(), Inputs(F32Fill({256, 1024}, -1.0f)), opts);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ::testing::Each(0.0f));
  // One node's input and output are alive at once, never the whole chain.
  EXPECT_EQ(stats.peak_live_bytes, 2 * kBytes);
  EXPECT_EQ(stats.live_bytes, 0);
  EXPECT_EQ(stats.nodes_executed, kChain + 2);
}

TEST(ReferenceInterpreterTest, KeepsAValueUntilItsLastConsumer) {
  constexpr int64_t kBytes = 1024 * sizeof(float);
  TestGraph g("fan_out");
  NodePtr x = g.Data("x", 0);
  NodePtr r0 = g.Op("r0", "TestRelu", {x});
  NodePtr a = g.Op("a", "TestRelu", {r0});
  NodePtr b = g.Op("b", "TestRelu", {a});
  NodePtr c = g.Op("c", "TestAdd", {b, r0});  // r0 is alive until here
  g.NetOutput({c});
  Interp::Stats stats;
  Interp::Options opts;
  opts.stats = &stats;
  auto r = Interp::Run(*g.graph(), Inputs(F32Fill({1024}, 2.0f)), opts);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ::testing::Each(4.0f));
  EXPECT_EQ(stats.peak_live_bytes, 3 * kBytes);  // r0, b and c while c runs
  EXPECT_EQ(stats.live_bytes, 0);
}

}  // namespace
}  // namespace ge
