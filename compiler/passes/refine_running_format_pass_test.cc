// Tests of RefineRunningFormatPass: a chain of compute-engine nodes with a
// convolution runs channels-last, with one TransData per tensor entering or
// leaving it; chains without a convolution and host nodes are left alone.
#include "compiler/passes/refine_running_format_pass.h"

#include <string>
#include <vector>

#include "compiler/passes/testing/pass_test_util.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using passtest::CountType;
using passtest::InferDescsByRunning;
using reftest::F32;
using reftest::Inputs;
using reftest::TestGraph;

Status Unused(gert::KernelContext&) { return Internal("not run in this test"); }

// Compute-engine kernels declaring channels-last for the op types the tests
// use, unless the build links real ones.
void EnsureKernels() {
  for (const char* type : {"Conv", "Relu", "Add"}) {
    if (FindKernel(type, kEngineAiCore) != nullptr) continue;
    ASSERT_TRUE(KernelRegistry::Instance()
                    .Register(KernelReg(type, kEngineAiCore)
                                  .Fn(Unused)
                                  .DataTypes({DT_FLOAT})
                                  .Formats({FORMAT_NCHW, FORMAT_NHWC})
                                  .Release())
                    .ok());
  }
}

void OnComputeEngine(const std::vector<NodePtr>& nodes) {
  for (const NodePtr& n : nodes) n->GetOpDescBarePtr()->SetOpEngineName(kEngineAiCore);
}

Format InFormat(const NodePtr& n, uint32_t i) {
  return n->GetOpDescBarePtr()->GetInputDescBarePtr(i)->GetFormat();
}
Format OutFormat(const NodePtr& n, uint32_t i) {
  return n->GetOpDescBarePtr()->GetOutputDescBarePtr(i)->GetFormat();
}

reftest::Attrs Kernel3() {
  return {{"kernel_shape", AttrValue::CreateFrom<std::vector<int64_t>>({3, 3})},
          {"pads", AttrValue::CreateFrom<std::vector<int64_t>>({1, 1, 1, 1})}};
}

TEST(RefineRunningFormatPassTest, ConvChainRunsChannelsLastWithEdgeTransData) {
  EnsureKernels();
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr w1 = g.Const("w1", F32({4, 3, 3, 3}, std::vector<float>(108, 0.1f)));
  NodePtr w2 = g.Const("w2", F32({4, 4, 3, 3}, std::vector<float>(144, 0.1f)));
  NodePtr c1 = g.Op("c1", "Conv", {x, w1}, Kernel3());
  NodePtr r1 = g.Op("r1", "Relu", {c1});
  NodePtr c2 = g.Op("c2", "Conv", {r1, w2}, Kernel3());
  NodePtr add = g.Op("add", "Add", {c2, r1});
  NodePtr flat = g.Op("flat", "Flatten", {r1});  // stays on the host
  g.NetOutput({add, flat});
  GE_ASSERT_OK(
      InferDescsByRunning(g.graph(), Inputs(F32({1, 3, 5, 5}, std::vector<float>(75, 1.0f)))));
  OnComputeEngine({c1, r1, c2, add});

  RefineRunningFormatPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(pass.converted_nodes(), 4);
  // x enters once; r1 leaves once (to flat), add once (to NetOutput).
  EXPECT_EQ(pass.inserted_transdata(), 3);
  EXPECT_EQ(CountType(*g.graph(), "TransData"), 3u);
  EXPECT_EQ(InFormat(c1, 0), FORMAT_NHWC);
  EXPECT_EQ(InFormat(c1, 1), FORMAT_ND);  // weights keep their layout
  EXPECT_EQ(OutFormat(c1, 0), FORMAT_NHWC);
  EXPECT_EQ(InFormat(c2, 0), FORMAT_NHWC);
  EXPECT_EQ(InFormat(add, 0), FORMAT_NHWC);
  EXPECT_EQ(InFormat(add, 1), FORMAT_NHWC);
  EXPECT_NE(InFormat(flat, 0), FORMAT_NHWC);
  // Dims stay logical; the TransData nodes say so.
  EXPECT_EQ(c1->GetOpDescBarePtr()->GetOutputDescBarePtr(0)->GetShape().GetDims(),
            (std::vector<int64_t>{1, 4, 5, 5}));
  const NodePtr in_td = c1->GetInDataNodes()[0];
  ASSERT_EQ(in_td->GetType(), "TransData");
  EXPECT_EQ(in_td->GetInDataNodes()[0], x);
  EXPECT_EQ(*AttrUtils::GetStr(*in_td->GetOpDescBarePtr(), "dst_format"), "NHWC");
  EXPECT_TRUE(*AttrUtils::GetBool(*in_td->GetOpDescBarePtr(), "_logical_dims"));
  const NodePtr out_td = flat->GetInDataNodes()[0];
  ASSERT_EQ(out_td->GetType(), "TransData");
  EXPECT_EQ(out_td->GetInDataNodes()[0], r1);
  EXPECT_EQ(*AttrUtils::GetStr(*out_td->GetOpDescBarePtr(), "dst_format"), "NCHW");
  // c2 still reads r1 directly (inside the chain).
  EXPECT_EQ(c2->GetInDataNodes()[0], r1);
}

TEST(RefineRunningFormatPassTest, ChainsWithoutConvolutionOrOnTheHostStay) {
  EnsureKernels();
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr r1 = g.Op("r1", "Relu", {x});
  NodePtr r2 = g.Op("r2", "Relu", {r1});
  NodePtr w = g.Const("w", F32({2, 2, 1, 1}, {1, 0, 0, 1}));
  NodePtr host_conv = g.Op("host_conv", "Conv", {r2, w},
                           {{"kernel_shape", AttrValue::CreateFrom<std::vector<int64_t>>({1, 1})}});
  g.NetOutput({host_conv});
  GE_ASSERT_OK(
      InferDescsByRunning(g.graph(), Inputs(F32({1, 2, 2, 2}, std::vector<float>(8, 1.0f)))));
  OnComputeEngine({r1, r2});  // the conv stays on the host CPU

  RefineRunningFormatPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_FALSE(*changed);
  EXPECT_EQ(CountType(*g.graph(), "TransData"), 0u);
  EXPECT_NE(OutFormat(r1, 0), FORMAT_NHWC);
}

}  // namespace
}  // namespace ge
