// compiler/passes/pass_framework/pass_fix_test.cc
#include "compiler/passes/pass_framework/pass_fix.h"

#include <string>

#include "compiler/passes/pass_framework/pass_manager.h"
#include "gmock/gmock.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::HasSubstr;

// Removes one node per run (reports a change) until `keep` nodes are left.
class ShrinkPass : public GraphPass {
 public:
  explicit ShrinkPass(size_t keep = 1) : keep_(keep) {}
  absl::string_view name() const override { return "ShrinkPass"; }
  int runs = 0;

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override {
    ++runs;
    if (graph->GetDirectNodesSize() <= keep_) return false;
    RETURN_IF_ERROR(graph->RemoveNodeWithoutRelink(graph->GetDirectNode().back()));
    return true;
  }

 private:
  size_t keep_;
};

class AlwaysChangedPass : public GraphPass {
 public:
  absl::string_view name() const override { return "AlwaysChanged"; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override { return true; }
};

class FailOnThirdPass : public GraphPass {
 public:
  absl::string_view name() const override { return "FailOnThird"; }
  int runs = 0;

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override {
    if (++runs == 3) return NotFound("node gone");
    return true;
  }
};

ComputeGraphPtr Nodes(int n) {
  testing::GraphBuilder b("g");
  for (int i = 0; i < n; ++i) b.AddNode("n" + std::to_string(i), "NoOp", 0, 0);
  return b.graph();
}

TEST(PassFixTest, RunsUntilNoChange) {
  PassFix<ShrinkPass> fix(2);
  EXPECT_EQ(fix.name(), "ShrinkPass");
  ComputeGraphPtr g = Nodes(6);
  auto r = fix.Run(g);
  GE_ASSERT_OK(r);
  EXPECT_TRUE(*r);
  EXPECT_EQ(g->GetDirectNodesSize(), 2u);
  EXPECT_EQ(fix.last_iterations(), 5);  // 4 changes, 1 confirming run
  EXPECT_EQ(fix.pass().runs, 5);

  // Already at the fixed point: one run, no change.
  r = fix.Run(g);
  GE_ASSERT_OK(r);
  EXPECT_FALSE(*r);
  EXPECT_EQ(fix.last_iterations(), 1);
}

TEST(PassFixTest, CapExceededIsAnErrorNamingThePass) {
  PassFix<AlwaysChangedPass> fix;
  EXPECT_EQ(fix.max_iterations(), PassFix<AlwaysChangedPass>::kDefaultMaxIterations);
  fix.set_max_iterations(7);
  auto r = fix.Run(Nodes(1));
  GE_EXPECT_CODE(r, ErrorCode::kInternal);
  EXPECT_THAT(r.status().message(),
              HasSubstr("pass 'AlwaysChanged' did not reach a fixed point after 7 iterations"));
  EXPECT_EQ(fix.last_iterations(), 7);

  // Converging exactly at the cap is fine: 3 changes + 1 confirming run.
  PassFix<ShrinkPass> tight(1);
  tight.set_max_iterations(4);
  GE_EXPECT_OK(tight.Run(Nodes(4)));
  tight.set_max_iterations(3);
  GE_EXPECT_CODE(tight.Run(Nodes(4)), ErrorCode::kInternal);
  tight.set_max_iterations(0);
  EXPECT_EQ(tight.max_iterations(), 1);
}

TEST(PassFixTest, InnerErrorsStopTheLoop) {
  PassFix<FailOnThirdPass> fix;
  auto r = fix.Run(Nodes(1));
  GE_EXPECT_CODE(r, ErrorCode::kNotFound);
  EXPECT_EQ(r.status().message(), "pass 'FailOnThird' on graph 'g': node gone");
  EXPECT_EQ(fix.pass().runs, 3);
}

TEST(PassFixTest, WrapsAPipeline) {
  PassManager pm("outer");
  auto& fix = pm.AddPass<PassFix<PassManager>>("simplify");
  fix.pass().AddPass<ShrinkPass>(3);
  fix.pass().AddPass<ShrinkPass>(2);
  EXPECT_EQ(pm.pass_names(), std::vector<std::string>{"simplify"});
  ComputeGraphPtr g = Nodes(5);
  auto r = pm.Run(g);
  GE_ASSERT_OK(r);
  EXPECT_TRUE(*r);
  EXPECT_EQ(g->GetDirectNodesSize(), 2u);
  // 5 -> 3 (both shrink), 3 -> 2, then a run with no change.
  EXPECT_EQ(fix.last_iterations(), 3);
}

}  // namespace
}  // namespace ge
