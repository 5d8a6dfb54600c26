// compiler/passes/pass_framework/pass_manager_test.cc
#include "compiler/passes/pass_framework/pass_manager.h"

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Appends its name to a log; reports `changed`.
class LogPass : public GraphPass {
 public:
  LogPass(std::string name, std::vector<std::string>* log, bool changed = false)
      : name_(std::move(name)), log_(log), changed_(changed) {}
  absl::string_view name() const override { return name_; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override {
    log_->push_back(name_);
    return changed_;
  }

 private:
  std::string name_;
  std::vector<std::string>* log_;
  bool changed_;
};

// Links the last node back to the first: a cycle the verifier must catch.
class CorruptingPass : public GraphPass {
 public:
  absl::string_view name() const override { return "CorruptingPass"; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override {
    std::vector<NodePtr> nodes = graph->GetDirectNode();
    RETURN_IF_ERROR(
        nodes.back()->GetOutControlAnchor()->LinkTo(nodes.front()->GetInControlAnchor()));
    return true;
  }
};

class FailingPass : public GraphPass {
 public:
  absl::string_view name() const override { return "FailingPass"; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override {
    return TypeMismatch("bad dtype");
  }
};

ComputeGraphPtr Chain() {
  testing::GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "Data", 0, 1);
  NodePtr r = b.AddNode("r", "Relu", 1, 1);
  b.AddDataEdge(a, 0, r, 0);
  return b.graph();
}

TEST(PassManagerTest, RunsPassesInRegistrationOrder) {
  std::vector<std::string> log;
  PassManager pm("pipe");
  GE_ASSERT_OK(pm.AddPass("first", std::make_unique<LogPass>("first", &log)));
  pm.AddPass<LogPass>("second", &log, true);
  GE_ASSERT_OK(pm.AddPass("third", std::make_unique<LogPass>("third", &log)));
  EXPECT_EQ(pm.size(), 3u);
  EXPECT_THAT(pm.pass_names(), ElementsAre("first", "second", "third"));
  auto r = pm.Run(Chain());
  GE_ASSERT_OK(r);
  EXPECT_TRUE(*r);  // "second" changed it
  EXPECT_THAT(log, ElementsAre("first", "second", "third"));
  ASSERT_EQ(pm.last_run().size(), 3u);
  EXPECT_TRUE(pm.last_run()[1].ran);
  EXPECT_TRUE(pm.last_run()[1].changed);
  EXPECT_FALSE(pm.last_run()[0].changed);
}

TEST(PassManagerTest, NoChangeWhenNoPassChanges) {
  std::vector<std::string> log;
  PassManager pm;
  pm.AddPass<LogPass>("a", &log);
  auto r = pm.Run(Chain());
  GE_ASSERT_OK(r);
  EXPECT_FALSE(*r);
}

TEST(PassManagerTest, DisabledPassesFromTheOptionAreSkipped) {
  std::vector<std::string> log;
  PassManager pm("pipe", PassManagerOptions::FromOptions({{"ge.disabledPasses", "second, third"}}));
  pm.AddPass<LogPass>("first", &log);
  pm.AddPass<LogPass>("second", &log, true);
  pm.AddPass<LogPass>("third", &log);
  pm.AddPass<LogPass>("second", &log, true);  // same name twice: both skipped
  auto r = pm.Run(Chain());
  GE_ASSERT_OK(r);
  EXPECT_FALSE(*r);
  EXPECT_THAT(log, ElementsAre("first"));
  ASSERT_EQ(pm.last_run().size(), 4u);
  EXPECT_TRUE(pm.last_run()[0].ran);
  EXPECT_FALSE(pm.last_run()[1].ran);
  EXPECT_FALSE(pm.last_run()[3].ran);
}

TEST(PassManagerTest, VerifierCatchesTheCorruptingPassByName) {
  std::vector<std::string> log;
  PassManager pm("pipe");
  ASSERT_TRUE(pm.options().verify);  // on in test builds
  pm.AddPass<CorruptingPass>();
  pm.AddPass<LogPass>("after", &log);
  auto r = pm.Run(Chain());
  GE_EXPECT_CODE(r, ErrorCode::kGraphCycle);
  EXPECT_THAT(r.status().message(), HasSubstr("is invalid after pass 'CorruptingPass'"));
  EXPECT_TRUE(log.empty());  // the pipeline stopped

  // Without verification the corruption goes unnoticed here.
  PassManager unchecked("pipe");
  unchecked.mutable_options().verify = false;
  unchecked.AddPass<CorruptingPass>();
  GE_EXPECT_OK(unchecked.Run(Chain()));
}

TEST(PassManagerTest, AnInvalidInputGraphIsNotBlamedOnAPass) {
  ComputeGraphPtr g = Chain();
  std::vector<NodePtr> nodes = g->GetDirectNode();
  GE_ASSERT_OK(nodes[1]->GetOutControlAnchor()->LinkTo(nodes[0]->GetInControlAnchor()));
  std::vector<std::string> log;
  PassManager pm("pipe");
  pm.AddPass<LogPass>("first", &log);
  auto r = pm.Run(g);
  GE_EXPECT_CODE(r, ErrorCode::kGraphCycle);
  EXPECT_THAT(r.status().message(), HasSubstr("the input graph is invalid"));
  EXPECT_TRUE(log.empty());
}

TEST(PassManagerTest, PassErrorsStopThePipelineAndKeepTheirCode) {
  std::vector<std::string> log;
  PassManager pm("pipe");
  pm.AddPass<LogPass>("first", &log);
  pm.AddPass<FailingPass>();
  pm.AddPass<LogPass>("never", &log);
  auto r = pm.Run(Chain());
  GE_EXPECT_CODE(r, ErrorCode::kTypeMismatch);
  EXPECT_THAT(r.status().message(), HasSubstr("pass 'FailingPass' on graph 'g': bad dtype"));
  EXPECT_THAT(log, ElementsAre("first"));
}

TEST(PassManagerTest, DumpHookSeesEveryPassThatRan) {
  std::vector<std::string> log;
  std::vector<std::tuple<std::string, bool, size_t>> dumps;
  PassManagerOptions options;
  options.disabled_passes = {"skipped"};
  options.dump_hook = [&dumps](const ComputeGraph& g, absl::string_view pass, bool changed) {
    dumps.emplace_back(std::string(pass), changed, g.GetDirectNodesSize());
    return OkStatus();
  };
  PassManager pm("pipe", options);
  pm.AddPass<LogPass>("a", &log, true);
  pm.AddPass<LogPass>("skipped", &log);
  pm.AddPass<LogPass>("b", &log);
  GE_ASSERT_OK(pm.Run(Chain()));
  ASSERT_EQ(dumps.size(), 2u);
  EXPECT_EQ(dumps[0], std::make_tuple(std::string("a"), true, size_t{2}));
  EXPECT_EQ(dumps[1], std::make_tuple(std::string("b"), false, size_t{2}));

  pm.mutable_options().dump_hook = [](const ComputeGraph&, absl::string_view, bool) {
    return IoError("disk full");
  };
  auto r = pm.Run(Chain());
  GE_EXPECT_CODE(r, ErrorCode::kIoError);
  EXPECT_THAT(r.status().message(), HasSubstr("dump after pass 'a': disk full"));
}

TEST(PassManagerTest, AddPassRejectsNullAndUnnamedPasses) {
  std::vector<std::string> log;
  PassManager pm("pipe");
  GE_EXPECT_CODE(pm.AddPass("x", nullptr), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(pm.AddPass("", std::make_unique<LogPass>("x", &log)), ErrorCode::kParamInvalid);
  EXPECT_EQ(pm.size(), 0u);
}

TEST(PassManagerTest, PipelinesNest) {
  std::vector<std::string> log;
  PassManager outer("outer");
  outer.AddPass<LogPass>("a", &log);
  PassManager& inner = outer.AddPass<PassManager>("inner");
  inner.AddPass<LogPass>("b", &log, true);
  inner.AddPass<LogPass>("c", &log);
  outer.AddPass<LogPass>("d", &log);
  EXPECT_THAT(outer.pass_names(), ElementsAre("a", "inner", "d"));
  auto r = outer.Run(Chain());
  GE_ASSERT_OK(r);
  EXPECT_TRUE(*r);
  EXPECT_THAT(log, ElementsAre("a", "b", "c", "d"));

  // Disabling the inner pipeline's name skips all of it.
  log.clear();
  outer.mutable_options().disabled_passes = {"inner"};
  r = outer.Run(Chain());
  GE_ASSERT_OK(r);
  EXPECT_FALSE(*r);
  EXPECT_THAT(log, ElementsAre("a", "d"));
}

}  // namespace
}  // namespace ge
