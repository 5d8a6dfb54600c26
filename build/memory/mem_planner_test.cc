// build/memory/mem_planner_test.cc
#include "build/memory/mem_planner.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "build/model/build_test_util.h"
#include "gtest/gtest.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"

namespace ge {
namespace {

using buildtest::GraphMaker;

std::vector<Node*> Number(const ComputeGraphPtr& g) {
  std::vector<Node*> nodes;
  for (const NodePtr& n : g->DirectNodes()) {
    n->GetOpDesc()->SetId(static_cast<int64_t>(nodes.size()));
    nodes.push_back(n.get());
  }
  return nodes;
}

// Every node output in the arena, `bytes` each.
std::vector<NodeMemory> AllArena(const std::vector<Node*>& nodes, uint64_t bytes) {
  std::vector<NodeMemory> mem(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    mem[i].outputs.resize(nodes[i]->GetAllOutDataAnchorsSize());
    for (TensorSlot& s : mem[i].outputs) s.size = bytes;
  }
  return mem;
}

TEST(MemPlannerTest, ChainReusesTwoBlocks) {
  GraphMaker g("chain");
  NodePtr x = g.Data("x", 0, {4});
  for (int i = 0; i < 6; ++i) x = g.Unary(absl::StrCat("r", i), "Relu", x);
  std::vector<Node*> nodes = Number(g.graph());
  std::vector<NodeMemory> mem = AllArena(nodes, 100);
  auto stats = PlanArena(nodes, mem, MemPlanOptions{});
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->arena_size, 2 * 128u);  // 100 bytes -> 128 aligned
  EXPECT_EQ(stats->no_reuse_size, 7 * 128u);
  EXPECT_EQ(stats->num_blocks, 2u);
  EXPECT_TRUE(VerifyArenaPlan(nodes, mem, stats->arena_size).ok());
  for (size_t i = 1; i < nodes.size(); ++i) {
    EXPECT_NE(mem[i].outputs[0].offset, mem[i - 1].outputs[0].offset);
  }
}

TEST(MemPlannerTest, DisableReuseGivesDisjointBlocks) {
  GraphMaker g("chain");
  NodePtr x = g.Data("x", 0, {4});
  for (int i = 0; i < 6; ++i) x = g.Unary(absl::StrCat("r", i), "Relu", x);
  std::vector<Node*> nodes = Number(g.graph());
  std::vector<NodeMemory> mem = AllArena(nodes, 64);
  MemPlanOptions o;
  o.disable_reuse = true;
  auto stats = PlanArena(nodes, mem, o);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->arena_size, 7 * 64u);
  for (size_t i = 0; i < nodes.size(); ++i) EXPECT_EQ(mem[i].outputs[0].offset, 64 * i);
}

TEST(MemPlannerTest, FanOutKeepsTensorAliveUntilLastConsumer) {
  GraphMaker g("fan");
  NodePtr x = g.Data("x", 0, {4});
  NodePtr a = g.Unary("a", "Relu", x);
  NodePtr b = g.Unary("b", "Relu", a);
  NodePtr c = g.Unary("c", "Relu", b);
  NodePtr d = g.Binary("d", "Add", a, c);  // a lives until d
  (void)d;
  std::vector<Node*> nodes = Number(g.graph());
  std::vector<NodeMemory> mem = AllArena(nodes, 64);
  auto stats = PlanArena(nodes, mem, MemPlanOptions{});
  ASSERT_TRUE(stats.ok());
  const uint64_t a_off = mem[1].outputs[0].offset;
  EXPECT_NE(mem[2].outputs[0].offset, a_off);
  EXPECT_NE(mem[3].outputs[0].offset, a_off);
  EXPECT_NE(mem[4].outputs[0].offset, a_off);
  EXPECT_TRUE(VerifyArenaPlan(nodes, mem, stats->arena_size).ok());
}

TEST(MemPlannerTest, KeepAliveAndNonArenaSlots) {
  GraphMaker g("keep");
  NodePtr x = g.Data("x", 0, {4});
  NodePtr a = g.Unary("a", "Relu", x);
  NodePtr b = g.Unary("b", "Relu", a);
  NodePtr c = g.Unary("c", "Relu", b);
  NodePtr d = g.Unary("d", "Relu", c);
  (void)d;
  std::vector<Node*> nodes = Number(g.graph());
  std::vector<NodeMemory> mem = AllArena(nodes, 64);
  mem[0].outputs[0].kind = proto::MEM_MODEL_INPUT;
  mem[0].outputs[0].offset = 12345;  // untouched
  mem[1].outputs[0].keep_alive = true;
  auto stats = PlanArena(nodes, mem, MemPlanOptions{});
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(mem[0].outputs[0].offset, 12345u);
  for (size_t i = 2; i < nodes.size(); ++i) EXPECT_NE(mem[i].outputs[0].offset, mem[1].outputs[0].offset);
  EXPECT_TRUE(VerifyArenaPlan(nodes, mem, stats->arena_size).ok());
}

TEST(MemPlannerTest, WorkspacesDoNotOverlapOutputsOrInputs) {
  GraphMaker g("ws");
  NodePtr x = g.Data("x", 0, {4});
  NodePtr a = g.Unary("a", "Relu", x);
  NodePtr b = g.Unary("b", "Relu", a);
  std::vector<Node*> nodes = Number(g.graph());
  std::vector<NodeMemory> mem = AllArena(nodes, 64);
  mem[2].workspaces.resize(2);
  mem[2].workspaces[0].size = 64;
  mem[2].workspaces[1].size = 200;
  auto stats = PlanArena(nodes, mem, MemPlanOptions{});
  ASSERT_TRUE(stats.ok());
  std::vector<uint64_t> offs = {mem[1].outputs[0].offset, mem[2].outputs[0].offset,
                                mem[2].workspaces[0].offset, mem[2].workspaces[1].offset};
  for (size_t i = 0; i < offs.size(); ++i) {
    EXPECT_EQ(offs[i] % 64, 0u);
    for (size_t j = i + 1; j < offs.size(); ++j) EXPECT_NE(offs[i], offs[j]);
  }
  EXPECT_TRUE(VerifyArenaPlan(nodes, mem, stats->arena_size).ok());
  (void)b;
}

TEST(MemPlannerTest, BestFitPicksSmallestLargeEnoughBlock) {
  // p (64) and q (1024) die at r; s (64) then takes p's block, not q's.
  GraphMaker g("fit");
  NodePtr p = g.Data("p", 0, {4});
  NodePtr q = g.Unary("q", "Relu", p);
  NodePtr r = g.Binary("r", "Add", p, q);
  NodePtr s = g.Unary("s", "Relu", r);
  std::vector<Node*> nodes = Number(g.graph());
  std::vector<NodeMemory> mem = AllArena(nodes, 64);
  mem[1].outputs[0].size = 1024;
  auto stats = PlanArena(nodes, mem, MemPlanOptions{});
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(mem[3].outputs[0].offset, mem[0].outputs[0].offset);
  EXPECT_EQ(stats->arena_size, 64u + 1024u + 64u);
  EXPECT_TRUE(VerifyArenaPlan(nodes, mem, stats->arena_size).ok());
  (void)s;
}

TEST(MemPlannerTest, VerifyCatchesOverlap) {
  GraphMaker g("bad");
  NodePtr x = g.Data("x", 0, {4});
  NodePtr a = g.Unary("a", "Relu", x);
  NodePtr b = g.Binary("b", "Add", x, a);
  (void)b;
  std::vector<Node*> nodes = Number(g.graph());
  std::vector<NodeMemory> mem = AllArena(nodes, 64);
  // x and a both live at b: put them at the same offset.
  mem[0].outputs[0].offset = 0;
  mem[1].outputs[0].offset = 0;
  mem[2].outputs[0].offset = 64;
  Status st = VerifyArenaPlan(nodes, mem, 128);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kInternal);
  EXPECT_NE(std::string(st.message()).find("overlaps"), std::string::npos) << st;
  mem[1].outputs[0].offset = 32;  // unaligned
  EXPECT_FALSE(VerifyArenaPlan(nodes, mem, 128).ok());
  mem[1].outputs[0].offset = 128;  // beyond the arena
  EXPECT_FALSE(VerifyArenaPlan(nodes, mem, 128).ok());
}

TEST(MemPlannerTest, BadInputsRejected) {
  GraphMaker g("ids");
  NodePtr x = g.Data("x", 0, {4});
  NodePtr a = g.Unary("a", "Relu", x);
  std::vector<Node*> nodes = Number(g.graph());
  std::vector<NodeMemory> mem = AllArena(nodes, 64);
  a->GetOpDesc()->SetId(7);
  Status st = PlanArena(nodes, mem, MemPlanOptions{}).status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(std::string(st.message()).find("'a'"), std::string::npos);
  a->GetOpDesc()->SetId(1);
  std::vector<NodeMemory> short_mem(1);
  EXPECT_EQ(GetErrorCode(PlanArena(nodes, short_mem, MemPlanOptions{}).status()),
            ErrorCode::kParamInvalid);
  mem[1].outputs[0].size = ~uint64_t{0} - 3;
  EXPECT_EQ(GetErrorCode(PlanArena(nodes, mem, MemPlanOptions{}).status()), ErrorCode::kOverflow);
}

TEST(MemPlannerTest, ZeroSizedTensorsTakeNoSpace) {
  GraphMaker g("zero");
  NodePtr x = g.Data("x", 0, {0});
  NodePtr a = g.Unary("a", "Relu", x);
  std::vector<Node*> nodes = Number(g.graph());
  std::vector<NodeMemory> mem = AllArena(nodes, 0);
  auto stats = PlanArena(nodes, mem, MemPlanOptions{});
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->arena_size, 0u);
  (void)a;
}

}  // namespace
}  // namespace ge
