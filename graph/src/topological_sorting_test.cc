// graph/src/topological_sorting_test.cc
//
// ComputeGraph::TopologicalSorting on hand-made graphs: every mode, memory
// priority, const-chain delay, control edges, cycles, subgraphs, and a
// 1,000,000-node chain.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/op_types.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using testing::GraphBuilder;
using testing::MakeOp;
using testing::NodeNames;
using Strings = std::vector<std::string>;

Status Sort(const ComputeGraphPtr& g, TopoSortingMode mode, bool memory_priority = false,
            TopoSortOptions::Delay delay = TopoSortOptions::Delay::kAuto) {
  TopoSortOptions o;
  o.mode = mode;
  o.memory_priority = memory_priority;
  o.delay_const_chains = delay;
  return g->TopologicalSorting(o);
}

void ExpectIdsArePositions(const ComputeGraph& g) {
  int64_t i = 0;
  for (const NodePtr& n : g.DirectNodes()) EXPECT_EQ(n->GetOpDesc()->GetId(), i++) << n->GetName();
}

// d(Data) -> a -> a2 ; d -> b -> b2, listed backwards.
ComputeGraphPtr TwoBranches() {
  GraphBuilder b("branches");
  NodePtr a2 = b.AddNode("a2", "T", 1, 0);
  NodePtr b2 = b.AddNode("b2", "T", 1, 0);
  NodePtr a = b.AddNode("a", "T", 1, 1);
  NodePtr bb = b.AddNode("b", "T", 1, 1);
  NodePtr d = b.AddNode("d", DATA, 0, 1);
  b.AddDataEdge(d, 0, a, 0);
  b.AddDataEdge(d, 0, bb, 0);
  b.AddDataEdge(a, 0, a2, 0);
  b.AddDataEdge(bb, 0, b2, 0);
  return b.graph();
}

TEST(TopologicalSortingTest, BfsVisitsLevelByLevel) {
  ComputeGraphPtr g = TwoBranches();
  GE_ASSERT_OK(Sort(g, TopoSortingMode::kBFS));
  EXPECT_EQ(NodeNames(*g), (Strings{"d", "a", "b", "a2", "b2"}));
  ExpectIdsArePositions(*g);
  EXPECT_TRUE(g->IsValid());
  g->InValid();
  EXPECT_FALSE(g->IsValid());
}

TEST(TopologicalSortingTest, DfsVisitsFirstSuccessorFirst) {
  ComputeGraphPtr g = TwoBranches();
  GE_ASSERT_OK(Sort(g, TopoSortingMode::kDFS));
  EXPECT_EQ(NodeNames(*g), (Strings{"d", "a", "a2", "b", "b2"}));
  ExpectIdsArePositions(*g);
  // The default is DFS (inference).
  ComputeGraphPtr h = TwoBranches();
  GE_ASSERT_OK(h->TopologicalSorting());
  EXPECT_EQ(NodeNames(*h), NodeNames(*g));
  EXPECT_EQ(DefaultTopoSortingMode(true), TopoSortingMode::kBFS);
  EXPECT_EQ(DefaultTopoSortingMode(false), TopoSortingMode::kDFS);
  EXPECT_STREQ(TopoSortingModeName(TopoSortingMode::kStableRDFS), "StableRDFS");
}

TEST(TopologicalSortingTest, DataSourcesComeFirst) {
  GraphBuilder b("g");
  NodePtr k = b.AddNode("k", CONSTANT, 0, 1);
  NodePtr x = b.AddNode("x", "T", 0, 1);
  NodePtr d = b.AddNode("d", DATA, 0, 1);
  NodePtr kc = b.AddNode("kc", "T", 1, 0);
  NodePtr xc = b.AddNode("xc", "T", 1, 0);
  NodePtr dc = b.AddNode("dc", "T", 1, 0);
  b.AddDataEdge(k, 0, kc, 0);
  b.AddDataEdge(x, 0, xc, 0);
  b.AddDataEdge(d, 0, dc, 0);
  GE_ASSERT_OK(Sort(b.graph(), TopoSortingMode::kBFS));
  EXPECT_EQ(NodeNames(*b.graph()), (Strings{"d", "k", "x", "dc", "kc", "xc"}));
  GE_ASSERT_OK(Sort(b.graph(), TopoSortingMode::kDFS));
  EXPECT_EQ(NodeNames(*b.graph()), (Strings{"d", "dc", "k", "kc", "x", "xc"}));
}

// The sort reads a node's type and writes its id through a copy of the
// OpDesc's body pointer that the node keeps: after UpdateOpDesc both must be
// the new OpDesc's.
TEST(TopologicalSortingTest, ReadsAndRenumbersTheNodesCurrentOpDesc) {
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", "T", 0, 1);
  NodePtr d = b.AddNode("d", "T", 0, 1);
  NodePtr xc = b.AddNode("xc", "T", 1, 0);
  NodePtr dc = b.AddNode("dc", "T", 1, 0);
  b.AddDataEdge(x, 0, xc, 0);
  b.AddDataEdge(d, 0, dc, 0);
  GE_ASSERT_OK(Sort(b.graph(), TopoSortingMode::kBFS));
  EXPECT_EQ(NodeNames(*b.graph()), (Strings{"x", "d", "xc", "dc"}));

  OpDescPtr old_op = d->GetOpDesc();
  OpDescPtr data_op = MakeOp("d", DATA, 0, 1);
  data_op->SetId(7);
  GE_ASSERT_OK(d->UpdateOpDesc(data_op));
  GE_ASSERT_OK(Sort(b.graph(), TopoSortingMode::kBFS));
  EXPECT_EQ(NodeNames(*b.graph()), (Strings{"d", "x", "dc", "xc"}));
  EXPECT_EQ(data_op->GetId(), 0);
  EXPECT_EQ(old_op->GetId(), 1);  // untouched since the first sort
  ExpectIdsArePositions(*b.graph());
}

// d(Data) -> big[1000] / small[1] / mid[100] -> s (inputs 0, 1, 2).
ComputeGraphPtr SizedFanIn() {
  GraphBuilder b("sized");
  NodePtr d = b.AddNode("d", DATA, 0, 1);
  NodePtr big = b.AddNode("p_big", "T", 1, 1, GeShape({1000}));
  NodePtr small = b.AddNode("p_small", "T", 1, 1, GeShape({1}));
  NodePtr mid = b.AddNode("p_mid", "T", 1, 1, GeShape({100}));
  NodePtr s = b.AddNode("s", "T", 3, 1);
  b.AddDataEdge(d, 0, big, 0);
  b.AddDataEdge(d, 0, small, 0);
  b.AddDataEdge(d, 0, mid, 0);
  b.AddDataEdge(big, 0, s, 0);
  b.AddDataEdge(small, 0, s, 1);
  b.AddDataEdge(mid, 0, s, 2);
  return b.graph();
}

TEST(TopologicalSortingTest, RdfsProducesTheLargestInputLast) {
  ComputeGraphPtr g = SizedFanIn();
  GE_ASSERT_OK(Sort(g, TopoSortingMode::kRDFS));
  EXPECT_EQ(NodeNames(*g), (Strings{"d", "p_small", "p_mid", "p_big", "s"}));
  ExpectIdsArePositions(*g);
}

TEST(TopologicalSortingTest, MemoryPriorityTakesLargerOutputsFirst) {
  ComputeGraphPtr plain = SizedFanIn();
  GE_ASSERT_OK(Sort(plain, TopoSortingMode::kDFS));
  EXPECT_EQ(NodeNames(*plain), (Strings{"d", "p_big", "p_small", "p_mid", "s"}));
  for (TopoSortingMode mode : {TopoSortingMode::kDFS, TopoSortingMode::kBFS}) {
    ComputeGraphPtr g = SizedFanIn();
    GE_ASSERT_OK(Sort(g, mode, /*memory_priority=*/true));
    EXPECT_EQ(NodeNames(*g), (Strings{"d", "p_big", "p_mid", "p_small", "s"}))
        << TopoSortingModeName(mode);
  }
}

TEST(TopologicalSortingTest, MemoryPriorityBreaksSizeTiesByFanOutThenName) {
  GraphBuilder b("g");
  NodePtr d = b.AddNode("d", DATA, 0, 1);
  NodePtr z = b.AddNode("z", "T", 1, 1);
  NodePtr y = b.AddNode("y", "T", 1, 1);
  NodePtr x = b.AddNode("x", "T", 1, 1);
  NodePtr c1 = b.AddNode("c1", "T", 1, 0);
  NodePtr c2 = b.AddNode("c2", "T", 1, 0);
  NodePtr c3 = b.AddNode("c3", "T", 1, 0);
  NodePtr c4 = b.AddNode("c4", "T", 1, 0);
  b.AddDataEdge(d, 0, z, 0);
  b.AddDataEdge(d, 0, y, 0);
  b.AddDataEdge(d, 0, x, 0);
  b.AddDataEdge(z, 0, c1, 0);
  b.AddDataEdge(z, 0, c2, 0);  // z: two consumers
  b.AddDataEdge(y, 0, c3, 0);
  b.AddDataEdge(x, 0, c4, 0);
  GE_ASSERT_OK(Sort(b.graph(), TopoSortingMode::kBFS, true, TopoSortOptions::Delay::kOff));
  const Strings order = NodeNames(*b.graph());
  // z (fan-out 2) first, then x before y by name.
  EXPECT_EQ(Strings(order.begin(), order.begin() + 4), (Strings{"d", "z", "x", "y"}));
}

TEST(TopologicalSortingTest, StableRdfsKeepsATopologicalOrder) {
  ComputeGraphPtr g = TwoBranches();
  GE_ASSERT_OK(Sort(g, TopoSortingMode::kBFS));
  const Strings bfs = NodeNames(*g);
  GE_ASSERT_OK(Sort(g, TopoSortingMode::kStableRDFS));
  EXPECT_EQ(NodeNames(*g), bfs);
  GE_ASSERT_OK(Sort(g, TopoSortingMode::kDFS));
  const Strings dfs = NodeNames(*g);
  GE_ASSERT_OK(Sort(g, TopoSortingMode::kStableRDFS));
  EXPECT_EQ(NodeNames(*g), dfs);
}

TEST(TopologicalSortingTest, StableRdfsFixesOnlyWhatIsOutOfOrder) {
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", "T", 0, 0);
  NodePtr c = b.AddNode("c", "T", 2, 0);
  NodePtr a = b.AddNode("a", "T", 0, 1);
  NodePtr bb = b.AddNode("b", "T", 0, 1);
  NodePtr y = b.AddNode("y", "T", 0, 0);
  b.AddDataEdge(bb, 0, c, 0);
  b.AddDataEdge(a, 0, c, 1);
  GE_ASSERT_OK(Sort(b.graph(), TopoSortingMode::kStableRDFS));
  EXPECT_EQ(NodeNames(*b.graph()), (Strings{"x", "a", "b", "c", "y"}));
}

TEST(TopologicalSortingTest, ControlEdgesAreDependencies) {
  for (TopoSortingMode mode : {TopoSortingMode::kBFS, TopoSortingMode::kDFS, TopoSortingMode::kRDFS,
                               TopoSortingMode::kStableRDFS}) {
    GraphBuilder b("g");
    NodePtr a = b.AddNode("a", "T", 1, 0);
    NodePtr c = b.AddNode("c", "T", 0, 0);
    NodePtr bb = b.AddNode("b", "T", 0, 1);
    NodePtr e = b.AddNode("e", "T", 1, 0);
    b.AddControlEdge(c, bb);                                                 // c before b
    GE_ASSERT_OK(bb->GetOutDataAnchor(0)->LinkTo(a->GetInControlAnchor()));  // data -> control
    GE_ASSERT_OK(a->GetOutControlAnchor()->LinkTo(e->GetInDataAnchor(0)));   // control -> data
    GE_ASSERT_OK(Sort(b.graph(), mode));
    EXPECT_EQ(NodeNames(*b.graph()), (Strings{"c", "b", "a", "e"})) << TopoSortingModeName(mode);
  }
}

// data -> a -> b -> b2 -> c(0) ; w(Const) -> cast -> reshape -> c(1) ; c -> out
ComputeGraphPtr ConstChain() {
  GraphBuilder b("chain");
  NodePtr data = b.AddNode("data", DATA, 0, 1);
  NodePtr w = b.AddNode("w", CONSTANT, 0, 1);
  NodePtr cast = b.AddNode("cast", "Cast", 1, 1);
  NodePtr reshape = b.AddNode("reshape", "Reshape", 1, 1);
  NodePtr a = b.AddNode("a", "T", 1, 1);
  NodePtr bb = b.AddNode("b", "T", 1, 1);
  NodePtr b2 = b.AddNode("b2", "T", 1, 1);
  NodePtr c = b.AddNode("c", "Mul", 2, 1);
  NodePtr out = b.AddNode("out", NETOUTPUT, 1, 0);
  b.AddDataEdge(data, 0, a, 0);
  b.AddDataEdge(a, 0, bb, 0);
  b.AddDataEdge(bb, 0, b2, 0);
  b.AddDataEdge(b2, 0, c, 0);
  b.AddDataEdge(w, 0, cast, 0);
  b.AddDataEdge(cast, 0, reshape, 0);
  b.AddDataEdge(reshape, 0, c, 1);
  b.AddDataEdge(c, 0, out, 0);
  return b.graph();
}

TEST(TopologicalSortingTest, DelayMovesConstChainsNextToTheirConsumer) {
  ComputeGraphPtr g = ConstChain();
  GE_ASSERT_OK(Sort(g, TopoSortingMode::kBFS, false, TopoSortOptions::Delay::kOff));
  EXPECT_EQ(NodeNames(*g), (Strings{"data", "w", "a", "cast", "b", "reshape", "b2", "c", "out"}));
  ComputeGraphPtr h = ConstChain();
  GE_ASSERT_OK(Sort(h, TopoSortingMode::kBFS, false, TopoSortOptions::Delay::kOn));
  EXPECT_EQ(NodeNames(*h), (Strings{"data", "w", "a", "b", "b2", "cast", "reshape", "c", "out"}));
  ExpectIdsArePositions(*h);
  // Memory priority turns the delay on by default.
  ComputeGraphPtr m = ConstChain();
  GE_ASSERT_OK(Sort(m, TopoSortingMode::kBFS, true));
  const Strings order = NodeNames(*m);
  EXPECT_EQ(Strings(order.end() - 4, order.end()), (Strings{"cast", "reshape", "c", "out"}));
}

TEST(TopologicalSortingTest, RdfsOnTheConstChain) {
  ComputeGraphPtr g = ConstChain();
  GE_ASSERT_OK(Sort(g, TopoSortingMode::kRDFS));
  EXPECT_EQ(NodeNames(*g), (Strings{"data", "a", "b", "b2", "w", "cast", "reshape", "c", "out"}));
}

TEST(TopologicalSortingTest, CycleIsAnErrorNamingTheCycle) {
  for (TopoSortingMode mode : {TopoSortingMode::kBFS, TopoSortingMode::kDFS, TopoSortingMode::kRDFS,
                               TopoSortingMode::kStableRDFS}) {
    GraphBuilder b("cyclic");
    NodePtr d = b.AddNode("d", DATA, 0, 1);
    NodePtr a = b.AddNode("a", "T", 2, 1);
    NodePtr bb = b.AddNode("b", "T", 1, 1);
    NodePtr c = b.AddNode("c", "T", 1, 1);
    NodePtr sink = b.AddNode("sink", "T", 1, 0);
    b.AddDataEdge(d, 0, a, 0);
    b.AddDataEdge(a, 0, bb, 0);
    b.AddDataEdge(bb, 0, c, 0);
    b.AddDataEdge(c, 0, a, 1);
    b.AddDataEdge(c, 0, sink, 0);
    const Strings before = NodeNames(*b.graph());
    const Status st = Sort(b.graph(), mode);
    GE_EXPECT_CODE(st, ErrorCode::kGraphCycle);
    EXPECT_NE(std::string(st.message()).find("a -> b -> c -> a"), std::string::npos)
        << TopoSortingModeName(mode) << ": " << st;
    EXPECT_NE(std::string(st.message()).find("cyclic"), std::string::npos) << st;
    EXPECT_EQ(NodeNames(*b.graph()), before);  // untouched on error
  }
}

TEST(TopologicalSortingTest, SelfLoopAndSinklessCycle) {
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", "T", 0, 0);
  b.AddControlEdge(x, x);
  const Status st = Sort(b.graph(), TopoSortingMode::kDFS);
  GE_EXPECT_CODE(st, ErrorCode::kGraphCycle);
  EXPECT_NE(std::string(st.message()).find("x -> x"), std::string::npos) << st;
  GraphBuilder c("h");
  NodePtr p = c.AddNode("p", "T", 0, 0);
  NodePtr q = c.AddNode("q", "T", 0, 0);
  c.AddControlEdge(p, q);
  c.AddControlEdge(q, p);
  const Status st2 = Sort(c.graph(), TopoSortingMode::kRDFS);  // no sink at all
  GE_EXPECT_CODE(st2, ErrorCode::kGraphCycle);
  EXPECT_NE(std::string(st2.message()).find("p -> q -> p"), std::string::npos) << st2;
}

TEST(TopologicalSortingTest, SubgraphsAreSortedAndIdsRenumberedOverAllNodes) {
  GraphBuilder r("root");
  NodePtr data = r.AddNode("data", DATA, 0, 1);
  NodePtr out = r.AddNode("out", NETOUTPUT, 1, 0);
  NodePtr if_node = r.AddNode("if", IF, 1, 1);
  r.AddDataEdge(data, 0, if_node, 0);
  r.AddDataEdge(if_node, 0, out, 0);
  GraphBuilder t("then");
  NodePtr t_out = t.AddNode("t_out", NETOUTPUT, 1, 0);
  NodePtr t_data = t.AddNode("t_data", DATA, 0, 1);
  t.AddDataEdge(t_data, 0, t_out, 0);
  GE_ASSERT_OK(if_node->GetOpDesc()->AddSubgraphName("then_branch"));
  GE_ASSERT_OK(if_node->GetOpDesc()->SetSubgraphInstanceName(0, "then"));
  t.graph()->SetParentGraph(r.graph());
  t.graph()->SetParentNode(if_node);
  GE_ASSERT_OK(r.graph()->AddSubgraph("then", t.graph()));
  GE_ASSERT_OK(r.graph()->TopologicalSorting(TopoSortingMode::kDFS));
  EXPECT_EQ(NodeNames(*r.graph()), (Strings{"data", "if", "out"}));
  EXPECT_EQ(NodeNames(*t.graph()), (Strings{"t_data", "t_out"}));
  int64_t id = 0;
  for (const NodePtr& n : r.graph()->GetAllNodes()) EXPECT_EQ(n->GetOpDesc()->GetId(), id++);
  EXPECT_EQ(t_out->GetOpDesc()->GetId(), 3);
  EXPECT_EQ(out->GetOpDesc()->GetId(), 4);
  // A cycle inside the subgraph is reported with the subgraph's name.
  t.AddControlEdge(t_out, t_data);
  const Status st = r.graph()->TopologicalSorting(TopoSortingMode::kDFS);
  GE_EXPECT_CODE(st, ErrorCode::kGraphCycle);
  EXPECT_NE(std::string(st.message()).find("subgraph 'then'"), std::string::npos) << st;
  TopoSortOptions only_root;
  only_root.sort_subgraphs = false;
  GE_EXPECT_OK(r.graph()->TopologicalSorting(only_root));
}

TEST(TopologicalSortingTest, EmptyGraphAndInvalidMode) {
  auto g = std::make_shared<ComputeGraph>("empty");
  GE_EXPECT_OK(g->TopologicalSorting());
  TopoSortOptions bad;
  bad.mode = static_cast<TopoSortingMode>(9);
  GE_EXPECT_CODE(g->TopologicalSorting(bad), ErrorCode::kParamInvalid);
}

TEST(TopologicalSortingTest, Deterministic) {
  for (TopoSortingMode mode : {TopoSortingMode::kBFS, TopoSortingMode::kDFS, TopoSortingMode::kRDFS,
                               TopoSortingMode::kStableRDFS}) {
    ComputeGraphPtr g1 = ConstChain();
    ComputeGraphPtr g2 = ConstChain();
    GE_ASSERT_OK(Sort(g1, mode, true));
    GE_ASSERT_OK(Sort(g2, mode, true));
    EXPECT_EQ(NodeNames(*g1), NodeNames(*g2));
    GE_ASSERT_OK(Sort(g1, mode, true));  // sorting a sorted graph keeps it
    EXPECT_EQ(NodeNames(*g1), NodeNames(*g2));
  }
}

// Re-sorting a sorted graph gives the same order (the pass rewriting the
// list is then skipped), but ids changed in between are still renumbered.
TEST(TopologicalSortingTest, ResortKeepsOrderAndRestoresIds) {
  for (TopoSortingMode mode : {TopoSortingMode::kBFS, TopoSortingMode::kDFS, TopoSortingMode::kRDFS,
                               TopoSortingMode::kStableRDFS}) {
    ComputeGraphPtr g = TwoBranches();  // listed backwards: the first sort reorders
    GE_ASSERT_OK(Sort(g, mode));
    const Strings sorted = NodeNames(*g);
    EXPECT_EQ(sorted.front(), "d");
    ExpectIdsArePositions(*g);
    GE_ASSERT_OK(Sort(g, mode));
    EXPECT_EQ(NodeNames(*g), sorted);
    ExpectIdsArePositions(*g);
    // A stale id: the same order, the id is rewritten.
    g->GetDirectNodePtr()[2]->GetOpDesc()->SetId(99);
    GE_ASSERT_OK(Sort(g, mode));
    EXPECT_EQ(NodeNames(*g), sorted);
    ExpectIdsArePositions(*g);
  }
}

// A sort that keeps the order skips the ids only while no id can have
// changed: every way of changing one (or the list) after a sort is seen by
// the next.
TEST(TopologicalSortingTest, EveryIdChangeAfterASortIsSeenByTheNext) {
  for (TopoSortingMode mode : {TopoSortingMode::kBFS, TopoSortingMode::kDFS, TopoSortingMode::kRDFS,
                               TopoSortingMode::kStableRDFS}) {
    SCOPED_TRACE(TopoSortingModeName(mode));
    GraphBuilder b("chain");
    NodePtr d = b.AddNode("d", DATA, 0, 1);
    NodePtr x = b.AddNode("x", "T", 1, 1);
    NodePtr y = b.AddNode("y", "T", 1, 1);
    NodePtr z = b.AddNode("z", "T", 1, 1);
    b.AddDataEdge(d, 0, x, 0);
    b.AddDataEdge(x, 0, y, 0);
    b.AddDataEdge(y, 0, z, 0);
    ComputeGraphPtr g = b.graph();
    GE_ASSERT_OK(Sort(g, mode));
    const Strings sorted = NodeNames(*g);
    ASSERT_EQ(sorted, (Strings{"d", "x", "y", "z"}));
    ExpectIdsArePositions(*g);

    // Assigned over: the same OpDesc object, another id.
    OpDesc renumbered(*y->GetOpDesc());
    renumbered.SetId(77);
    *y->GetOpDesc() = renumbered;
    ASSERT_EQ(y->GetOpDesc()->GetId(), 77);
    GE_ASSERT_OK(Sort(g, mode));
    EXPECT_EQ(NodeNames(*g), sorted);
    ExpectIdsArePositions(*g);

    // Another OpDesc for a node.
    OpDescPtr replacement = std::make_shared<OpDesc>(*x->GetOpDesc());
    replacement->SetId(5);
    GE_ASSERT_OK(x->UpdateOpDesc(replacement));
    GE_ASSERT_OK(Sort(g, mode));
    EXPECT_EQ(NodeNames(*g), sorted);
    ExpectIdsArePositions(*g);

    // A node appended where the sort keeps it, with an id of its own.
    OpDescPtr tail_op = MakeOp("t", "T", 1, 0);
    auto tail = g->AddNode(tail_op, 42);
    GE_ASSERT_OK(tail.status());
    GE_ASSERT_OK(z->GetOutDataAnchor(0)->LinkTo((*tail)->GetInDataAnchor(0)));
    GE_ASSERT_OK(Sort(g, mode));
    EXPECT_EQ(NodeNames(*g), (Strings{"d", "x", "y", "z", "t"}));
    ExpectIdsArePositions(*g);

    // A node removed: the later ones move up by one.
    GE_ASSERT_OK(g->RemoveNode(x));
    GE_ASSERT_OK(Sort(g, mode));
    EXPECT_EQ(NodeNames(*g), (Strings{"d", "y", "z", "t"}));
    ExpectIdsArePositions(*g);

    // Nothing changed: still right.
    GE_ASSERT_OK(Sort(g, mode));
    ExpectIdsArePositions(*g);
  }
}

// A chain of 1,000,000 nodes (control edges: the cheapest nodes to build in
// a debug build; data edges take the same code paths) sorted by every mode:
// nothing may recurse on the graph size.
TEST(TopologicalSortingTest, MillionNodeChainDoesNotRecurse) {
  constexpr int kNodes = 1000000;
  auto graph = std::make_shared<ComputeGraph>("chain");
  std::vector<NodePtr> nodes(kNodes);
  // Added last-to-first so that the sort has to reverse the whole list.
  for (int i = kNodes - 1; i >= 0; --i) {
    auto node = graph->AddNode(std::make_shared<OpDesc>("n" + std::to_string(i), "T"));
    ASSERT_TRUE(node.ok());
    nodes[i] = *node;
  }
  for (int i = 0; i + 1 < kNodes; ++i) {
    GE_ASSERT_OK(
        nodes[i]->GetOutControlAnchorBarePtr()->LinkTo(nodes[i + 1]->GetInControlAnchorBarePtr()));
  }
  for (TopoSortingMode mode : {TopoSortingMode::kDFS, TopoSortingMode::kRDFS,
                               TopoSortingMode::kStableRDFS, TopoSortingMode::kBFS}) {
    const auto start = std::chrono::steady_clock::now();
    GE_ASSERT_OK(graph->TopologicalSorting(mode));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s on %d nodes: %.3f s\n", TopoSortingModeName(mode), kNodes, seconds);
    EXPECT_EQ(graph->DirectNodes().front(), nodes[0]);
    EXPECT_EQ(graph->DirectNodes().back(), nodes[kNodes - 1]);
    EXPECT_EQ(nodes[kNodes / 2]->GetOpDesc()->GetId(), kNodes / 2);
  }
  // A cycle closing the chain is found and named without recursion.
  GE_ASSERT_OK(nodes[kNodes - 1]->GetOutControlAnchorBarePtr()->LinkTo(
      nodes[0]->GetInControlAnchorBarePtr()));
  const Status st = graph->TopologicalSorting(TopoSortingMode::kRDFS);
  GE_EXPECT_CODE(st, ErrorCode::kGraphCycle);
  EXPECT_NE(std::string(st.message()).find("n0 -> n1 -> n2"), std::string::npos);
  EXPECT_NE(std::string(st.message()).find("(1000000 nodes)"), std::string::npos);
}

// The same with data edges at a size a debug build handles in well under a
// second per sort.
TEST(TopologicalSortingTest, LongDataChain) {
  constexpr int kNodes = 100000;
  auto graph = std::make_shared<ComputeGraph>("data_chain");
  std::vector<NodePtr> nodes(kNodes);
  for (int i = kNodes - 1; i >= 0; --i) {
    auto op = std::make_shared<OpDesc>("n" + std::to_string(i), i == 0 ? DATA : "T");
    if (i > 0) GE_ASSERT_OK(op->AddInputDesc(GeTensorDesc(GeShape({4}))));
    GE_ASSERT_OK(op->AddOutputDesc(GeTensorDesc(GeShape({4}))));
    nodes[i] = *graph->AddNode(op);
  }
  for (int i = 0; i + 1 < kNodes; ++i) {
    GE_ASSERT_OK(
        nodes[i]->GetOutDataAnchorBarePtr(0)->LinkTo(nodes[i + 1]->GetInDataAnchorBarePtr(0)));
  }
  for (TopoSortingMode mode : {TopoSortingMode::kDFS, TopoSortingMode::kRDFS,
                               TopoSortingMode::kStableRDFS, TopoSortingMode::kBFS}) {
    GE_ASSERT_OK(graph->TopologicalSorting(mode));
    EXPECT_EQ(graph->DirectNodes().front(), nodes[0]);
    EXPECT_EQ(nodes[kNodes - 1]->GetOpDesc()->GetId(), kNodes - 1);
  }
  GE_ASSERT_OK(Sort(graph, TopoSortingMode::kDFS, true));
  EXPECT_EQ(graph->DirectNodes().back(), nodes[kNodes - 1]);
}

}  // namespace
}  // namespace ge
