// compiler/passes/reshape_remove_pass_test.cc
#include "compiler/passes/reshape_remove_pass.h"

#include <optional>
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
using reftest::F32;
using reftest::I64;
using reftest::Inputs;
using reftest::TestGraph;
using ::testing::ElementsAre;
using testing::NodeNames;

TEST(ResolveReshapeTargetTest, OnnxRules) {
  const GeShape in({2, 3, 4});
  EXPECT_EQ(ResolveReshapeTarget(in, {6, 4}, false), GeShape({6, 4}));
  EXPECT_EQ(ResolveReshapeTarget(in, {0, -1}, false), GeShape({2, 12}));
  EXPECT_EQ(ResolveReshapeTarget(in, {0, 0, 0}, false), in);
  EXPECT_EQ(ResolveReshapeTarget(in, {-1}, false), GeShape({24}));
  EXPECT_EQ(ResolveReshapeTarget(in, {5, -1}, false), std::nullopt);   // 24 % 5
  EXPECT_EQ(ResolveReshapeTarget(in, {-1, -1}, false), std::nullopt);  // two -1
  EXPECT_EQ(ResolveReshapeTarget(in, {7}, false), std::nullopt);       // wrong size
  EXPECT_EQ(ResolveReshapeTarget(in, {-3, 8}, false), std::nullopt);
  EXPECT_EQ(ResolveReshapeTarget(in, {0, 0, 0, 0}, false), std::nullopt);  // copies past rank
  EXPECT_EQ(ResolveReshapeTarget(GeShape({0, 3}), {0, 3}, true), GeShape({0, 3}));
  EXPECT_EQ(ResolveReshapeTarget(GeShape({0, 3}), {0, -1}, true), std::nullopt);
  EXPECT_EQ(ResolveReshapeTarget(GeShape({-1, 3}), {3, -1}, false), std::nullopt);
}

}  // namespace
}  // namespace ge
