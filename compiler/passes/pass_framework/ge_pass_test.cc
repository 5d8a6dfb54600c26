// compiler/passes/pass_framework/ge_pass_test.cc
#include "compiler/passes/pass_framework/ge_pass.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "compiler/passes/pass_framework/graph_verifier.h"
#include "compiler/passes/pass_framework/pass_manager.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/utils/node_utils.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using testing::GraphBuilder;
using ::testing::HasSubstr;

// Logs "<pass>:<node>" for every run and calls an optional hook, which can
// use the protected request API through the public wrappers.
class TracePass : public BaseNodePass {
 public:
  using Hook = std::function<Status(TracePass&, const NodePtr&)>;
  TracePass(std::string name, std::vector<std::string>* log, Hook hook = nullptr)
      : name_(std::move(name)), log_(log), hook_(std::move(hook)) {}
  absl::string_view name() const override { return name_; }

  void RePass(const NodePtr& n) { AddRePassNode(n); }
  void RePassNow(const NodePtr& n) { AddImmediateRePassNode(n); }
  GraphRewriter& rw() { return rewriter(); }
  // Visits of `node` so far.
  int Seen(const std::string& node) const {
    int n = 0;
    for (const std::string& e : *log_) n += (e == name_ + ":" + node);
    return n;
  }

 protected:
  Status RunImpl(const NodePtr& node) override {
    log_->push_back(name_ + ":" + node->GetName());
    return hook_ == nullptr ? OkStatus() : hook_(*this, node);
  }

 private:
  std::string name_;
  std::vector<std::string>* log_;
  Hook hook_;
};

// a -> b -> c, listed out of order (c, a, b).
struct Chain {
  Chain() : g("g") {
    c = g.AddNode("c", "Relu", 1, 1);
    a = g.AddNode("a", "Data", 0, 1);
    b = g.AddNode("b", "Identity", 1, 1);
    g.AddDataEdge(a, 0, b, 0);
    g.AddDataEdge(b, 0, c, 0);
  }
  GraphBuilder g;
  NodePtr a, b, c;
};

TEST(GEPassTest, VisitsEveryNodeOnceInTopologicalOrderRunningPassesInOrder) {
  Chain t;
  std::vector<std::string> log;
  TracePass p1("P1", &log), p2("P2", &log);
  GEPass driver(t.g.graph());
  auto r = driver.Run({{"P1", &p1}, {"P2", &p2}});
  GE_ASSERT_OK(r);
  EXPECT_FALSE(*r);
  EXPECT_THAT(log, ElementsAre("P1:a", "P2:a", "P1:b", "P2:b", "P1:c", "P2:c"));
  EXPECT_EQ(driver.stats().max_rounds, 1);
  EXPECT_EQ(driver.stats().node_visits, 3);
  EXPECT_EQ(driver.stats().pass_runs, 6);
  // The node list is not reordered.
  EXPECT_THAT(testing::NodeNames(*t.g.graph()), ElementsAre("c", "a", "b"));
}

TEST(GEPassTest, RePassOfAVisitedNodeRunsInTheNextRound) {
  Chain t;
  std::vector<std::string> log;
  TracePass p1("P1", &log, [&](TracePass& self, const NodePtr& n) {
    if (n == t.c && self.Seen("c") == 1) self.RePass(t.a);
    return OkStatus();
  });
  GEPass driver(t.g.graph());
  GE_ASSERT_OK(driver.Run({{"P1", &p1}}));
  EXPECT_THAT(log, ElementsAre("P1:a", "P1:b", "P1:c", "P1:a"));
  EXPECT_EQ(driver.stats().max_rounds, 2);
}

TEST(GEPassTest, RePassOfAPendingNodeIsDroppedBecauseItIsVisitedAnyway) {
  Chain t;
  std::vector<std::string> log;
  TracePass p1("P1", &log, [&](TracePass& self, const NodePtr& n) {
    if (n == t.a) self.RePass(t.c);
    return OkStatus();
  });
  GEPass driver(t.g.graph());
  GE_ASSERT_OK(driver.Run({{"P1", &p1}}));
  EXPECT_THAT(log, ElementsAre("P1:a", "P1:b", "P1:c"));
  EXPECT_EQ(driver.stats().max_rounds, 1);
}

TEST(GEPassTest, ImmediateRePassRevisitsWithinTheRound) {
  Chain t;
  std::vector<std::string> log;
  // P1 on b asks (once) for an immediate re-pass of a: a is visited again by
  // every pass right after b, before c, in the same round.
  TracePass p1("P1", &log, [&](TracePass& self, const NodePtr& n) {
    if (n == t.b && self.Seen("b") == 1) self.RePassNow(t.a);
    return OkStatus();
  });
  TracePass p2("P2", &log);
  GEPass driver(t.g.graph());
  GE_ASSERT_OK(driver.Run({{"P1", &p1}, {"P2", &p2}}));
  EXPECT_THAT(log, ElementsAre("P1:a", "P2:a", "P1:b", "P2:b", "P1:a", "P2:a", "P1:c", "P2:c"));
  EXPECT_EQ(driver.stats().max_rounds, 1);
}

TEST(GEPassTest, ImmediateRePassOfTheCurrentNodeAndOfAPendingNode) {
  Chain t;
  std::vector<std::string> log;
  TracePass p1("P1", &log, [&](TracePass& self, const NodePtr& n) {
    if (n == t.b && self.Seen("b") == 1) {
      self.RePassNow(t.b);  // b again, right away
      self.RePassNow(t.c);  // pending: visited once, in order
    }
    return OkStatus();
  });
  TracePass p2("P2", &log);
  GEPass driver(t.g.graph());
  GE_ASSERT_OK(driver.Run({{"P1", &p1}, {"P2", &p2}}));
  EXPECT_THAT(log, ElementsAre("P1:a", "P2:a", "P1:b", "P2:b", "P1:b", "P2:b", "P1:c", "P2:c"));
}

TEST(GEPassTest, DeletedNodesAreNeverVisitedAgain) {
  Chain t;
  std::vector<std::string> log;
  // P1 on a removes b (ahead of the traversal); P1 on c removes c itself, so
  // P2 does not run on c.
  TracePass p1("P1", &log, [&](TracePass& self, const NodePtr& n) {
    if (n == t.a && t.g.graph()->HasNode(t.b)) return self.rw().RemoveNode(t.b);
    if (n == t.c) return self.rw().RemoveNode(t.c);
    return OkStatus();
  });
  TracePass p2("P2", &log);
  GEPass driver(t.g.graph());
  auto r = driver.Run({{"P1", &p1}, {"P2", &p2}});
  GE_ASSERT_OK(r);
  EXPECT_TRUE(*r);
  // Round 1: a, (b skipped), c deleted by P1. Round 2: a was changed by both
  // removals after its visit, so it is re-passed.
  EXPECT_THAT(log, ElementsAre("P1:a", "P2:a", "P1:c", "P1:a", "P2:a"));
  EXPECT_THAT(testing::NodeNames(*t.g.graph()), ElementsAre("a"));
}

TEST(GEPassTest, RewriterEditsScheduleRePassesWithoutExplicitRequests) {
  // x -> id -> y -> z: P1 on y drops its Identity producer. x and y were
  // already visited and changed: both come back in round 2; z is pending
  // in round 1 and is not repeated.
  GraphBuilder g("g");
  NodePtr x = g.AddNode("x", "Data", 0, 1);
  NodePtr id = g.AddNode("id", "Identity", 1, 1);
  NodePtr y = g.AddNode("y", "Relu", 1, 1);
  NodePtr z = g.AddNode("z", "Relu", 1, 1);
  g.AddDataEdge(x, 0, id, 0);
  g.AddDataEdge(id, 0, y, 0);
  g.AddDataEdge(y, 0, z, 0);
  std::vector<std::string> log;
  TracePass p1("P1", &log, [&](TracePass& self, const NodePtr& n) {
    NodePtr in = n->GetInDataNodes().empty() ? nullptr : n->GetInDataNodes()[0];
    if (n == y && in != nullptr && in->GetType() == "Identity") return self.rw().RemoveNode(in);
    return OkStatus();
  });
  GEPass driver(g.graph());
  GE_ASSERT_OK(driver.Run({{"P1", &p1}}));
  EXPECT_THAT(log, ElementsAre("P1:x", "P1:id", "P1:y", "P1:z", "P1:x", "P1:y"));
  EXPECT_EQ(driver.stats().max_rounds, 2);
}

TEST(GEPassTest, NonConvergenceIsAnErrorNamingThePass) {
  Chain t;
  std::vector<std::string> log;
  TracePass looper("Looper", &log, [](TracePass& self, const NodePtr& n) {
    self.RePass(n);
    return OkStatus();
  });
  GEPassOptions options;
  options.max_rounds = 5;
  GEPass driver(t.g.graph(), options);
  auto r = driver.Run({{"Looper", &looper}});
  GE_EXPECT_CODE(r, ErrorCode::kInternal);
  EXPECT_THAT(r.status().message(),
              HasSubstr("GEPass on graph 'g': node passes did not converge after 5 rounds: "
                        "pass(es) 'Looper' still ask to re-pass 'a', 'b', 'c'"));
  EXPECT_EQ(driver.stats().max_rounds, 5);
}

TEST(GEPassTest, EndlessImmediateRePassIsAnErrorNamingThePass) {
  Chain t;
  std::vector<std::string> log;
  TracePass spinner("Spinner", &log, [&](TracePass& self, const NodePtr& n) {
    if (n == t.b) self.RePassNow(n);
    return OkStatus();
  });
  GEPassOptions options;
  options.max_visits_per_node_per_round = 10;
  auto r = GEPass(t.g.graph(), options).Run({{"Spinner", &spinner}});
  GE_EXPECT_CODE(r, ErrorCode::kInternal);
  EXPECT_THAT(r.status().message(),
              HasSubstr("node 'b' was visited more than 10 times in round 1; pass 'Spinner' keeps "
                        "asking for an immediate re-pass"));
  EXPECT_EQ(spinner.Seen("b"), 10);
}

TEST(GEPassTest, DisabledPassesDoNotRun) {
  Chain t;
  std::vector<std::string> log;
  TracePass p1("P1", &log), p2("P2", &log);
  GEPassOptions options = GEPassOptions::FromOptions({{"ge.disabledPasses", "P1, P3"}});
  EXPECT_EQ(options.disabled_passes, (std::set<std::string>{"P1", "P3"}));
  NamesToPass passes = {{"P1", &p1}, {"P2", &p2}};
  GE_ASSERT_OK(GEPass(t.g.graph(), options).Run(passes));
  EXPECT_THAT(log, ElementsAre("P2:a", "P2:b", "P2:c"));
}

TEST(GEPassTest, PassErrorsStopTheDriver) {
  Chain t;
  std::vector<std::string> log;
  TracePass bad("Bad", &log, [&](TracePass&, const NodePtr& n) {
    return n == t.b ? TypeMismatch("int8 input") : OkStatus();
  });
  auto r = GEPass(t.g.graph()).Run({{"Bad", &bad}});
  GE_EXPECT_CODE(r, ErrorCode::kTypeMismatch);
  EXPECT_EQ(r.status().message(), "GEPass on graph 'g': pass 'Bad' on node 'b': int8 input");
  EXPECT_THAT(log, ElementsAre("Bad:a", "Bad:b"));
}

TEST(GEPassTest, BadArgumentsAndCycles) {
  Chain t;
  GE_EXPECT_CODE(GEPass(nullptr).Run({}), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(GEPass(t.g.graph()).Run({{"null", nullptr}}), ErrorCode::kParamInvalid);
  t.g.AddControlEdge(t.c, t.a);
  std::vector<std::string> log;
  TracePass p("P", &log);
  auto r = GEPass(t.g.graph()).Run({{"P", &p}});
  GE_EXPECT_CODE(r, ErrorCode::kGraphCycle);
  EXPECT_TRUE(log.empty());
}

TEST(GEPassTest, SubgraphsRunBeforeTheirParentNode) {
  GraphBuilder root("root");
  NodePtr x = root.AddNode("x", "Data", 0, 1);
  auto op = testing::MakeOp("if", "If", 1, 1);
  GE_ASSERT_OK(op->AddSubgraphName("then_branch"));
  auto if_node = root.graph()->AddNode(op);
  GE_ASSERT_OK(if_node);
  root.AddDataEdge(x, 0, *if_node, 0);
  NodePtr y = root.AddNode("y", "Relu", 1, 1);
  root.AddDataEdge(*if_node, 0, y, 0);
  auto sub = std::make_shared<ComputeGraph>("then");
  GE_ASSERT_OK(NodeUtils::SetSubgraph(**if_node, 0, sub));
  GraphBuilder inner(sub);
  NodePtr sd = inner.AddNode("sd", "Data", 0, 1);
  NodePtr sr = inner.AddNode("sr", "Relu", 1, 1);
  inner.AddDataEdge(sd, 0, sr, 0);

  std::vector<std::string> log;
  TracePass p("P", &log);
  GEPass driver(root.graph());
  GE_ASSERT_OK(driver.Run({{"P", &p}}));
  EXPECT_THAT(log, ElementsAre("P:x", "P:sd", "P:sr", "P:if", "P:y"));
  EXPECT_EQ(driver.stats().graphs, 2);

  log.clear();
  GEPassOptions root_only;
  root_only.include_subgraphs = false;
  GE_ASSERT_OK(GEPass(root.graph(), root_only).Run({{"P", &p}}));
  EXPECT_THAT(log, ElementsAre("P:x", "P:if", "P:y"));
}

// Removes Identity nodes (the smallest useful node pass).
class IdentityDropper : public BaseNodePass {
 public:
  absl::string_view name() const override { return "IdentityDropper"; }

 protected:
  Status RunImpl(const NodePtr& node) override {
    return node->GetType() == "Identity" ? rewriter().RemoveNode(node) : OkStatus();
  }
};

TEST(NodePassGroupTest, RunsItsPassesThroughTheDriverInsideAPipeline) {
  Chain t;
  PassManager pm("pipe");
  auto& group = pm.AddPass<NodePassGroup>("NodeOpt");
  group.AddPass<IdentityDropper>();
  std::vector<std::string> log;
  GE_ASSERT_OK(group.AddPass("Trace", std::make_unique<TracePass>("Trace", &log)));
  GE_EXPECT_CODE(group.AddPass("x", nullptr), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(group.AddPass("", std::make_unique<IdentityDropper>()), ErrorCode::kParamInvalid);
  EXPECT_EQ(group.size(), 2u);
  auto r = pm.Run(t.g.graph());
  GE_ASSERT_OK(r);
  EXPECT_TRUE(*r);
  EXPECT_THAT(testing::NodeNames(*t.g.graph()), ElementsAre("c", "a"));
  // IdentityDropper deleted b before Trace ran on it; a (visited, changed)
  // is re-passed in round 2, c (still pending when changed) is not.
  EXPECT_THAT(log, ElementsAre("Trace:a", "Trace:c", "Trace:a"));
  EXPECT_EQ(group.last_stats().max_rounds, 2);
  GE_EXPECT_OK(GraphVerifier::Verify(*t.g.graph()));

  // Nothing left to do: no change.
  r = pm.Run(t.g.graph());
  GE_ASSERT_OK(r);
  EXPECT_FALSE(*r);

  // Disabled through the group's options.
  Chain t2;
  group.mutable_options().disabled_passes = {"IdentityDropper"};
  r = pm.Run(t2.g.graph());
  GE_ASSERT_OK(r);
  EXPECT_FALSE(*r);
  EXPECT_EQ(t2.g.graph()->GetDirectNodesSize(), 3u);
}

}  // namespace
}  // namespace ge
