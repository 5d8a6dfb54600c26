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

using ::testing::ElementsAre;
using passtest::CountType;
using passtest::InferDescsByRunning;
using passtest::RunNodePass;
using passtest::SameResults;
using passtest::Snapshot;
using reftest::Bool;
using reftest::F32;
using reftest::Inputs;
using reftest::TestGraph;
using testing::NodeNames;

gert::HostTensor I32(std::vector<int32_t> values) {
  auto t = gert::HostTensor::Create(DT_INT32, gert::Shape{static_cast<int64_t>(values.size())});
  EXPECT_TRUE(t.ok()) << t.status();
  std::memcpy(t->MutableData<int32_t>(), values.data(), values.size() * sizeof(int32_t));
  return std::move(t).value();
}

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

TEST(CastRemovePassTest, RemovesACastToTheSameType) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr cast = g.Op("cast", "Cast", {x}, To(DT_FLOAT));
  g.NetOutput({g.Op("relu", "Relu", {cast})});
  const auto inputs = Inputs(F32({3}, {-1.5f, 0, 2.25f}));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());
  CastRemovePass pass;
  auto changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_THAT(NodeNames(*g.graph()), ElementsAre("x", "relu", "output"));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(CastRemovePassTest, RemovesLosslessRoundTrips) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr up = g.Op("up", "Cast", {x}, To(DT_DOUBLE));
  NodePtr down = g.Op("down", "Cast", {up}, To(DT_FLOAT));
  NodePtr i = g.Data("i", 1);
  NodePtr wide = g.Op("wide", "Cast", {i}, To(DT_INT64));
  NodePtr back = g.Op("back", "Cast", {wide}, To(DT_INT32));
  g.NetOutput({down, back});
  const auto inputs = Inputs(F32({3}, {0.1f, -3e38f, 7}), I32({-2147483647 - 1, 5, 2147483647}));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());
  CastRemovePass pass;
  auto changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_EQ(CountType(*g.graph(), "Cast"), 0u);
  EXPECT_THAT(NodeNames(*g.graph()), ElementsAre("x", "i", "output"));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(CastRemovePassTest, KeepsLossyRoundTrips) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr to_int = g.Op("to_int", "Cast", {x}, To(DT_INT32));
  NodePtr to_float = g.Op("to_float", "Cast", {to_int}, To(DT_FLOAT));
  NodePtr half = g.Op("half", "Cast", {x}, To(DT_FLOAT16));
  NodePtr full = g.Op("full", "Cast", {half}, To(DT_FLOAT));
  g.NetOutput({to_float, full});
  const auto inputs = Inputs(F32({3}, {1.5f, -2.75f, 0.1f}));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());
  CastRemovePass pass;
  auto changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
  EXPECT_EQ(CountType(*g.graph(), "Cast"), 4u);
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
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

TEST(CastRemovePassTest, AnInnerCastWithOtherUsersStays) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr up = g.Op("up", "Cast", {x}, To(DT_DOUBLE));
  NodePtr down = g.Op("down", "Cast", {up}, To(DT_FLOAT));
  NodePtr abs = g.Op("abs", "Abs", {up});
  g.NetOutput({down, abs});
  const auto inputs = Inputs(F32({2}, {-0.5f, 8}));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());
  CastRemovePass pass;
  GE_ASSERT_OK(RunNodePass(g.graph(), pass));
  EXPECT_THAT(NodeNames(*g.graph()), ElementsAre("x", "up", "abs", "output"));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(CastRemovePassTest, FoldsControlEdgesOfARemovedRoundTrip) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr gate = g.Op("gate", "Abs", {x});
  NodePtr up = g.Op("up", "Cast", {x}, To(DT_DOUBLE));
  NodePtr down = g.Op("down", "Cast", {up}, To(DT_FLOAT));
  NodePtr relu = g.Op("relu", "Relu", {down});
  g.Control(gate, down);
  g.NetOutput({relu, gate});
  const auto inputs = Inputs(F32({2}, {-0.5f, 8}));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());
  CastRemovePass pass;
  GE_ASSERT_OK(RunNodePass(g.graph(), pass));
  EXPECT_EQ(CountType(*g.graph(), "Cast"), 0u);
  EXPECT_TRUE(gate->GetOutControlAnchor()->IsLinkedWith(relu->GetInControlAnchor()));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(CastRemovePassTest, DescsThatDisagreeAreNotTrusted) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr cast = g.Op("cast", "Cast", {x}, To(DT_FLOAT));
  g.NetOutput({cast});
  const auto inputs = Inputs(I32({1, 2}));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  // The Cast's input desc claims float while x produces int32.
  cast->GetOpDesc()->MutableInputDesc(0)->SetDataType(DT_FLOAT);
  CastRemovePass pass;
  auto changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
  EXPECT_TRUE(g.graph()->HasNode(cast));
  // A Cast without "to" is left alone too.
  GE_ASSERT_OK(cast->GetOpDesc()->DelAttr("to"));
  cast->GetOpDesc()->MutableInputDesc(0)->SetDataType(DT_INT32);
  changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
}

}  // namespace
}  // namespace ge
