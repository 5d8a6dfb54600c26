// compiler/passes/cast_remove_pass_test.cc
#include "compiler/passes/cast_remove_pass.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "compiler/passes/pass_framework/ge_pass.h"
#include "compiler/passes/testing/pass_test_util.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using passtest::CountType;
using passtest::InferDescsByRunning;
using passtest::RunNodePass;
using passtest::SameResults;
using passtest::Snapshot;
using reftest::Bool;
using reftest::F32;
using reftest::Inputs;
using reftest::TestGraph;
using ::testing::ElementsAre;
using testing::NodeNames;

reftest::Attrs To(DataType dt) { return {{"to", AttrValue::CreateFrom<DataType>(dt)}}; }

TEST(IsLosslessCastTest, Table) {
  EXPECT_TRUE(IsLosslessCast(DT_FLOAT, DT_FLOAT));
  EXPECT_TRUE(IsLosslessCast(DT_FLOAT, DT_DOUBLE));
  EXPECT_TRUE(IsLosslessCast(DT_INT8, DT_FLOAT16));
  EXPECT_TRUE(IsLosslessCast(DT_UINT8, DT_UINT64));
  EXPECT_TRUE(IsLosslessCast(DT_INT32, DT_DOUBLE));
  EXPECT_TRUE(IsLosslessCast(DT_BOOL, DT_BF16));
  EXPECT_FALSE(IsLosslessCast(DT_DOUBLE, DT_FLOAT));
  EXPECT_FALSE(IsLosslessCast(DT_INT32, DT_FLOAT));    // 2^24 + 1
  EXPECT_FALSE(IsLosslessCast(DT_INT16, DT_FLOAT16));  // 2049
  EXPECT_FALSE(IsLosslessCast(DT_INT8, DT_UINT8));     // negatives
  EXPECT_FALSE(IsLosslessCast(DT_INT64, DT_DOUBLE));
  EXPECT_FALSE(IsLosslessCast(DT_FLOAT16, DT_BF16));
  EXPECT_FALSE(IsLosslessCast(DT_INT32, DT_BOOL));
  EXPECT_FALSE(IsLosslessCast(DT_FLOAT, DT_STRING));
  EXPECT_FALSE(IsLosslessCast(DT_STRING, DT_STRING));
}

TEST(CastRemovePassTest, CollapsesLosslessChainsInOneRound) {
  // bool -> int32 -> int64 -> double becomes bool -> double.
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr c1 = g.Op("c1", "Cast", {x}, To(DT_INT32));
  NodePtr c2 = g.Op("c2", "Cast", {c1}, To(DT_INT64));
  NodePtr c3 = g.Op("c3", "Cast", {c2}, To(DT_DOUBLE));
  g.NetOutput({c3});
  const auto inputs = Inputs(Bool({4}, {true, false, false, true}));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());
  CastRemovePass pass;
  GEPass driver(g.graph());
  auto changed = driver.Run({{"CastRemovePass", &pass}});
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_THAT(NodeNames(*g.graph()), ElementsAre("x", "c3", "output"));
  EXPECT_TRUE(x->GetOutDataAnchor(0)->IsLinkedWith(c3->GetInDataAnchor(0)));
  EXPECT_EQ(c3->GetOpDesc()->GetInputDesc(0).GetDataType(), DT_BOOL);
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
  // c3 was re-visited in round 1 (immediate re-pass); x came back in round 2
  // because it gained consumers after its visit.
  EXPECT_EQ(driver.stats().max_rounds, 2);
}

}  // namespace
}  // namespace ge
