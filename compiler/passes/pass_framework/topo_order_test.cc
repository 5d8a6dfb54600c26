// compiler/passes/pass_framework/topo_order_test.cc
#include "compiler/passes/pass_framework/topo_order.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using testing::GraphBuilder;
using ::testing::HasSubstr;
using testing::Names;

TEST(StableTopologicalOrderTest, KeepsAnOrderThatIsAlreadyTopological) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "Data", 0, 1);
  NodePtr c = b.AddNode("c", "Relu", 1, 1);
  NodePtr d = b.AddNode("d", "Relu", 1, 1);
  NodePtr e = b.AddNode("e", "Add", 2, 1);
  b.AddDataEdge(a, 0, c, 0);
  b.AddDataEdge(a, 0, d, 0);
  b.AddDataEdge(c, 0, e, 0);
  b.AddDataEdge(d, 0, e, 1);
  auto order = StableTopologicalOrder(*b.graph());
  GE_ASSERT_OK(order);
  EXPECT_THAT(Names(*order), ElementsAre("a", "c", "d", "e"));
}

TEST(StableTopologicalOrderTest, MovesProducersBeforeConsumersAndCountsControlEdges) {
  GraphBuilder b("g");
  NodePtr sink = b.AddNode("sink", "Add", 2, 1);
  NodePtr late = b.AddNode("late", "Relu", 1, 1);
  NodePtr src = b.AddNode("src", "Data", 0, 1);
  NodePtr ctrl = b.AddNode("ctrl", "NoOp", 0, 0);
  b.AddDataEdge(src, 0, late, 0);
  b.AddDataEdge(late, 0, sink, 0);
  b.AddDataEdge(src, 0, sink, 1);
  b.AddControlEdge(sink, ctrl);  // ctrl comes after sink despite no data
  auto order = StableTopologicalOrder(*b.graph());
  GE_ASSERT_OK(order);
  EXPECT_THAT(Names(*order), ElementsAre("src", "late", "sink", "ctrl"));
  // The graph itself is untouched.
  EXPECT_THAT(testing::NodeNames(*b.graph()), ElementsAre("sink", "late", "src", "ctrl"));
}

TEST(StableTopologicalOrderTest, DataToControlLinksAreDependencies) {
  GraphBuilder b("g");
  NodePtr after = b.AddNode("after", "NoOp", 0, 0);
  NodePtr before = b.AddNode("before", "Data", 0, 1);
  GE_ASSERT_OK(before->GetOutDataAnchor(0)->LinkTo(after->GetInControlAnchor()));
  auto order = StableTopologicalOrder(*b.graph());
  GE_ASSERT_OK(order);
  EXPECT_THAT(Names(*order), ElementsAre("before", "after"));
}

TEST(StableTopologicalOrderTest, ReportsTheNodesOfACycleInEdgeOrder) {
  GraphBuilder b("loop");
  NodePtr in = b.AddNode("in", "Data", 0, 1);
  NodePtr x = b.AddNode("x", "Add", 2, 1);
  NodePtr y = b.AddNode("y", "Relu", 1, 1);
  NodePtr z = b.AddNode("z", "Relu", 1, 1);
  b.AddDataEdge(in, 0, x, 0);
  b.AddDataEdge(x, 0, y, 0);
  b.AddDataEdge(y, 0, z, 0);
  b.AddControlEdge(z, x);
  auto order = StableTopologicalOrder(*b.graph());
  GE_EXPECT_CODE(order, ErrorCode::kGraphCycle);
  EXPECT_THAT(order.status().message(), HasSubstr("graph 'loop' has a cycle: "));
  // Any rotation of x -> y -> z -> x names the same cycle.
  const std::string msg(order.status().message());
  EXPECT_TRUE(msg.find("x -> y -> z -> x") != std::string::npos ||
              msg.find("y -> z -> x -> y") != std::string::npos ||
              msg.find("z -> x -> y -> z") != std::string::npos)
      << msg;
}

TEST(StableTopologicalOrderTest, SelfLoopIsACycle) {
  GraphBuilder b("g");
  NodePtr n = b.AddNode("n", "Relu", 1, 1);
  b.AddControlEdge(n, n);
  auto order = StableTopologicalOrder(*b.graph());
  GE_EXPECT_CODE(order, ErrorCode::kGraphCycle);
  EXPECT_THAT(order.status().message(), HasSubstr("n -> n"));
}

TEST(StableTopologicalOrderTest, EmptyGraphAndLongChain) {
  GraphBuilder empty("empty");
  auto none = StableTopologicalOrder(*empty.graph());
  GE_ASSERT_OK(none);
  EXPECT_TRUE(none->empty());

  // A reversed 20000-node chain: no recursion, every node once.
  GraphBuilder b("chain");
  std::vector<NodePtr> nodes;
  for (int i = 0; i < 20000; ++i) nodes.push_back(b.AddNode("n" + std::to_string(i), "Relu", 1, 1));
  for (int i = 19999; i > 0; --i) b.AddDataEdge(nodes[i], 0, nodes[i - 1], 0);
  auto order = StableTopologicalOrder(*b.graph());
  GE_ASSERT_OK(order);
  ASSERT_EQ(order->size(), 20000u);
  EXPECT_EQ((*order)[0]->GetName(), "n19999");
  EXPECT_EQ((*order)[19999]->GetName(), "n0");
}

// Ids that do not increase along the list force the general algorithm; the
// result is the same stable order.
TEST(StableTopologicalOrderTest, NonIncreasingIdsGiveTheSameOrder) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "Data", 0, 1);
  NodePtr c = b.AddNode("c", "Relu", 1, 1);
  NodePtr d = b.AddNode("d", "Relu", 1, 1);
  b.AddDataEdge(a, 0, c, 0);
  b.AddDataEdge(c, 0, d, 0);
  a->GetOpDescBarePtr()->SetId(7);
  c->GetOpDescBarePtr()->SetId(7);
  d->GetOpDescBarePtr()->SetId(1);
  auto order = StableTopologicalOrder(*b.graph());
  GE_ASSERT_OK(order);
  EXPECT_THAT(Names(*order), ElementsAre("a", "c", "d"));
  // A back edge by id with a good list order: still correct.
  d->GetOpDescBarePtr()->SetId(0);
  a->GetOpDescBarePtr()->SetId(1);
  c->GetOpDescBarePtr()->SetId(2);
  order = StableTopologicalOrder(*b.graph());
  GE_ASSERT_OK(order);
  EXPECT_THAT(Names(*order), ElementsAre("a", "c", "d"));
}

TEST(NodeIndexTest, DenseIdsAndFallback) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "Data", 0, 1);
  NodePtr c = b.AddNode("c", "Relu", 1, 1);
  NodePtr d = b.AddNode("d", "Relu", 1, 1);
  GraphBuilder other("h");
  NodePtr x = other.AddNode("x", "Data", 0, 1);  // same id as a, other list
  std::vector<NodePtr> nodes = b.graph()->GetDirectNode();
  {
    NodeIndex index(nodes);
    EXPECT_EQ(index.Of(a.get()), 0);
    EXPECT_EQ(index.Of(d.get()), 2);
    EXPECT_EQ(index.Of(x.get()), -1);
    EXPECT_EQ(index.Of(nullptr), -1);
  }
  // Duplicate and huge ids: the hash map path gives the same answers.
  c->GetOpDescBarePtr()->SetId(0);
  d->GetOpDescBarePtr()->SetId(int64_t{1} << 40);
  NodeIndex index(nodes);
  EXPECT_EQ(index.Of(a.get()), 0);
  EXPECT_EQ(index.Of(c.get()), 1);
  EXPECT_EQ(index.Of(d.get()), 2);
  EXPECT_EQ(index.Of(x.get()), -1);
}

TEST(TopoOrderCacheTest, ReusesOrdersUntilTheGraphIsEdited) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "Data", 0, 1);
  NodePtr c = b.AddNode("c", "Relu", 1, 1);
  b.AddDataEdge(a, 0, c, 0);
  TopoOrderCache cache;
  {
    TopoOrderCache::Scope scope(&cache);
    EXPECT_EQ(TopoOrderCache::Current(), &cache);
    GE_ASSERT_OK(StableTopologicalOrder(*b.graph()));
    auto again = StableTopologicalOrder(*b.graph());
    GE_ASSERT_OK(again);
    EXPECT_EQ(cache.hits(), 1);
    EXPECT_THAT(Names(*again), ElementsAre("a", "c"));
    // A raw edit noted by the editor: recomputed, sees the new node.
    NodePtr d = b.AddNode("d", "Relu", 1, 1);
    b.AddDataEdge(c, 0, d, 0);
    NoteGraphEdit();
    auto edited = StableTopologicalOrder(*b.graph());
    GE_ASSERT_OK(edited);
    EXPECT_EQ(cache.hits(), 1);
    EXPECT_THAT(Names(*edited), ElementsAre("a", "c", "d"));
    // Facts last until the next edit.
    EXPECT_FALSE(cache.HasFact(*b.graph(), TopoOrderCache::Fact::kNoDeadCode));
    cache.SetFact(*b.graph(), TopoOrderCache::Fact::kNoDeadCode);
    EXPECT_TRUE(cache.HasFact(*b.graph(), TopoOrderCache::Fact::kNoDeadCode));
    EXPECT_FALSE(cache.HasFact(*b.graph(), TopoOrderCache::Fact::kNothingToFold));
    NoteGraphEdit();
    EXPECT_FALSE(cache.HasFact(*b.graph(), TopoOrderCache::Fact::kNoDeadCode));
  }
  EXPECT_EQ(TopoOrderCache::Current(), nullptr);
}

TEST(TopoOrderCacheTest, NodeCountChangeAloneInvalidates) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "Data", 0, 1);
  TopoOrderCache cache;
  TopoOrderCache::Scope scope(&cache);
  GE_ASSERT_OK(StableTopologicalOrder(*b.graph()));
  b.AddNode("late", "Relu", 0, 1);  // not noted
  auto order = StableTopologicalOrder(*b.graph());
  GE_ASSERT_OK(order);
  EXPECT_THAT(Names(*order), ElementsAre("a", "late"));
}

TEST(TopoOrderCacheTest, SharedOrdersAreSnapshotsAndSurviveStructureKeepingEdits) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "Data", 0, 1);
  NodePtr c = b.AddNode("c", "Relu", 1, 1);
  b.AddDataEdge(a, 0, c, 0);
  auto uncached = SharedTopologicalOrder(*b.graph());
  GE_ASSERT_OK(uncached.status());
  ASSERT_NE(*uncached, nullptr);
  EXPECT_THAT(Names(**uncached), ElementsAre("a", "c"));
  TopoOrderCache cache;
  TopoOrderCache::Scope scope(&cache);
  auto first = SharedTopologicalOrder(*b.graph());
  auto second = SharedTopologicalOrder(*b.graph());
  GE_ASSERT_OK(first.status());
  GE_ASSERT_OK(second.status());
  EXPECT_EQ(first->get(), second->get());  // the same snapshot, not a copy
  EXPECT_EQ(cache.hits(), 1);
  // An edit declared not to touch the structure keeps the order.
  const uint64_t before = GraphEditEpoch();
  NoteGraphEdit();
  EXPECT_EQ(cache.Find(*b.graph()), nullptr);
  cache.KeepStructureSince(before);
  EXPECT_EQ(cache.Find(*b.graph()), first->get());
  // A structural edit: a new snapshot; the one held stays as it was.
  NodePtr d = b.AddNode("d", "Relu", 1, 1);
  b.AddDataEdge(c, 0, d, 0);
  const uint64_t stale = GraphEditEpoch();
  NoteGraphEdit();
  auto third = SharedTopologicalOrder(*b.graph());
  GE_ASSERT_OK(third.status());
  EXPECT_NE(third->get(), first->get());
  EXPECT_THAT(Names(**third), ElementsAre("a", "c", "d"));
  EXPECT_THAT(Names(**first), ElementsAre("a", "c"));
  // Only entries valid at the given epoch are kept.
  NoteGraphEdit();
  cache.KeepStructureSince(stale);
  EXPECT_EQ(cache.Find(*b.graph()), nullptr);
}

TEST(GraphTreeHasAnyTypeTest, WithAndWithoutCache) {
  GraphBuilder b("g");
  b.AddNode("a", "Data", 0, 1);
  b.AddNode("c", "Relu", 1, 1);
  static constexpr const char* kRelu[] = {"Relu"};
  static constexpr const char* kCast[] = {"Cast", "Identity"};
  EXPECT_TRUE(GraphTreeHasAnyType(*b.graph(), kRelu));
  EXPECT_FALSE(GraphTreeHasAnyType(*b.graph(), kCast));
  TopoOrderCache cache;
  TopoOrderCache::Scope scope(&cache);
  EXPECT_TRUE(GraphTreeHasAnyType(*b.graph(), kRelu));
  EXPECT_FALSE(GraphTreeHasAnyType(*b.graph(), kCast));
  EXPECT_FALSE(GraphTreeHasAnyType(*b.graph(), kCast));  // cached census
  b.AddNode("cast", "Cast", 1, 1);
  NoteGraphEdit();
  EXPECT_TRUE(GraphTreeHasAnyType(*b.graph(), kCast));
}

}  // namespace
}  // namespace ge
