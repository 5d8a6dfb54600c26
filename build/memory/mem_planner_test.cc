// build/memory/mem_planner_test.cc
#include "build/memory/mem_planner.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "build/model/build_test_util.h"
#include "build/model/ge_model.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"

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
  for (size_t i = 2; i < nodes.size(); ++i)
    EXPECT_NE(mem[i].outputs[0].offset, mem[1].outputs[0].offset);
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

// The planner as it was first written (std::set best fit, a heap of pending
// frees): the reference the faster PlanArenaWithLifetimes must match offset
// for offset. Returns the arena size; writes offsets into `mem`.
uint64_t ReferencePlan(std::vector<NodeMemory>& mem, bool disable_reuse) {
  constexpr uint64_t kNone = ~uint64_t{0};
  std::vector<uint64_t> block_size;
  std::set<std::pair<uint64_t, uint64_t>> free_list;
  using Pending = std::pair<uint64_t, uint64_t>;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending;
  auto alloc = [&](uint64_t size) {
    const uint64_t aligned = (size + kMemAlign - 1) / kMemAlign * kMemAlign;
    if (aligned == 0) return kNone;
    if (!disable_reuse) {
      auto it = free_list.lower_bound({aligned, 0});
      if (it != free_list.end()) {
        const uint64_t b = it->second;
        free_list.erase(it);
        return b;
      }
    }
    block_size.push_back(aligned);
    return static_cast<uint64_t>(block_size.size() - 1);
  };
  auto release = [&](uint64_t b) {
    if (b != kNone && !disable_reuse) free_list.emplace(block_size[b], b);
  };
  std::vector<std::vector<uint64_t>> out_block(mem.size()), ws_block(mem.size());
  for (size_t i = 0; i < mem.size(); ++i) {
    for (const TensorSlot& slot : mem[i].outputs) {
      const uint64_t b = slot.kind == proto::MEM_ARENA ? alloc(slot.size) : kNone;
      out_block[i].push_back(b);
      if (b != kNone && !slot.keep_alive) pending.emplace(slot.last_use, b);
    }
    for (const TensorSlot& slot : mem[i].workspaces) ws_block[i].push_back(alloc(slot.size));
    for (uint64_t b : ws_block[i]) release(b);
    while (!pending.empty() && pending.top().first <= i) {
      release(pending.top().second);
      pending.pop();
    }
  }
  std::vector<uint64_t> offset(block_size.size());
  uint64_t total = 0;
  for (size_t b = 0; b < block_size.size(); ++b) {
    offset[b] = total;
    total += block_size[b];
  }
  for (size_t i = 0; i < mem.size(); ++i) {
    for (size_t k = 0; k < mem[i].outputs.size(); ++k) {
      if (mem[i].outputs[k].kind != proto::MEM_ARENA) continue;
      mem[i].outputs[k].offset = out_block[i][k] == kNone ? 0 : offset[out_block[i][k]];
    }
    for (size_t w = 0; w < mem[i].workspaces.size(); ++w) {
      mem[i].workspaces[w].kind = proto::MEM_ARENA;
      mem[i].workspaces[w].offset = ws_block[i][w] == kNone ? 0 : offset[ws_block[i][w]];
    }
  }
  return total;
}

// A random plan input: `n` nodes with 0..3 outputs and 0..2 workspaces of
// sizes drawn from `num_sizes` distinct values (some 0), some non-ARENA and
// keep-alive outputs, random lifetimes.
std::vector<NodeMemory> RandomMemory(size_t n, uint64_t num_sizes, uint32_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](uint64_t bound) { return static_cast<uint64_t>(rng() % bound); };
  std::vector<NodeMemory> mem(n);
  for (size_t i = 0; i < n; ++i) {
    mem[i].outputs.resize(pick(4));
    for (TensorSlot& s : mem[i].outputs) {
      s.size = pick(20) == 0 ? 0 : (pick(num_sizes) + 1) * 64 - pick(64);
      const uint64_t kind = pick(10);
      if (kind == 0) s.kind = proto::MEM_MODEL_INPUT;
      if (kind == 1) s.kind = proto::MEM_WEIGHTS;
      s.keep_alive = pick(25) == 0;
      const uint64_t span = pick(5) == 0 ? n - i : std::min<uint64_t>(n - i, 8);
      s.last_use = static_cast<uint32_t>(i + pick(span));
    }
    mem[i].workspaces.resize(pick(6) == 0 ? pick(3) : 0);
    for (TensorSlot& s : mem[i].workspaces) s.size = pick(num_sizes) * 64 + pick(64);
  }
  return mem;
}

TEST(MemPlannerTest, WithLifetimesMatchesTheReferencePlan) {
  struct Case {
    size_t nodes;
    uint64_t sizes;
  };
  // One size (the ladder), a few (CNNs), and more size classes than one
  // bitmap word (64) and one summary word (4096) cover.
  for (const Case& c : {Case{2000, 1}, Case{2000, 7}, Case{3000, 300}, Case{20000, 9000}}) {
    for (bool disable_reuse : {false, true}) {
      SCOPED_TRACE(
          absl::StrCat(c.nodes, " nodes, ", c.sizes, " sizes, disable_reuse ", disable_reuse));
      std::vector<NodeMemory> mem =
          RandomMemory(c.nodes, c.sizes, static_cast<uint32_t>(c.nodes + c.sizes));
      std::vector<NodeMemory> expected = mem;
      const uint64_t expected_size = ReferencePlan(expected, disable_reuse);
      MemPlanOptions o;
      o.disable_reuse = disable_reuse;
      auto stats = PlanArenaWithLifetimes(mem, o);
      ASSERT_TRUE(stats.ok()) << stats.status();
      EXPECT_EQ(stats->arena_size, expected_size);
      if (disable_reuse) {
        EXPECT_EQ(stats->arena_size, stats->no_reuse_size);
      } else {
        EXPECT_LT(stats->arena_size, stats->no_reuse_size);
      }
      size_t mismatches = 0;
      for (size_t i = 0; i < mem.size(); ++i) {
        for (size_t k = 0; k < mem[i].outputs.size(); ++k) {
          mismatches += mem[i].outputs[k].offset != expected[i].outputs[k].offset;
        }
        for (size_t w = 0; w < mem[i].workspaces.size(); ++w) {
          mismatches += mem[i].workspaces[w].offset != expected[i].workspaces[w].offset;
          EXPECT_EQ(mem[i].workspaces[w].kind, proto::MEM_ARENA);
        }
      }
      EXPECT_EQ(mismatches, 0u);
    }
  }
}

TEST(MemPlannerTest, GraphLifetimesEqualGivenLifetimes) {
  // PlanArena fills last_use from the graph: the fan-out tensor a lives
  // until d, so handing the same lifetimes to PlanArenaWithLifetimes gives
  // the same plan, and a shorter given lifetime a different (tighter) one.
  GraphMaker g("fan");
  NodePtr x = g.Data("x", 0, {4});
  NodePtr a = g.Unary("a", "Relu", x);
  NodePtr b = g.Unary("b", "Relu", a);
  NodePtr c = g.Unary("c", "Relu", b);
  g.Binary("d", "Add", a, c);
  std::vector<Node*> nodes = Number(g.graph());
  std::vector<NodeMemory> mem = AllArena(nodes, 64);
  auto from_graph = PlanArena(nodes, mem, MemPlanOptions{});
  ASSERT_TRUE(from_graph.ok());
  EXPECT_EQ(mem[1].outputs[0].last_use, 4u);  // a: read by d
  EXPECT_EQ(mem[0].outputs[0].last_use, 1u);  // x: read by a
  EXPECT_EQ(mem[4].outputs[0].last_use, 4u);  // d: read by nobody
  std::vector<NodeMemory> given = mem;
  auto same = PlanArenaWithLifetimes(given, MemPlanOptions{});
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->arena_size, from_graph->arena_size);
  for (size_t i = 0; i < mem.size(); ++i)
    EXPECT_EQ(given[i].outputs[0].offset, mem[i].outputs[0].offset);
  given[1].outputs[0].last_use = 2;  // pretend a dies at b
  auto tighter = PlanArenaWithLifetimes(given, MemPlanOptions{});
  ASSERT_TRUE(tighter.ok());
  EXPECT_LT(tighter->arena_size, from_graph->arena_size);
  // ... which the graph-based check rejects.
  EXPECT_EQ(GetErrorCode(VerifyArenaPlan(nodes, given, tighter->arena_size)), ErrorCode::kInternal);
}

TEST(MemPlannerTest, WithLifetimesRejectsBadLifetimes) {
  std::vector<NodeMemory> mem(3);
  for (NodeMemory& m : mem) {
    m.outputs.resize(2);
    for (TensorSlot& s : m.outputs) s.size = 64;
  }
  for (size_t i = 0; i < mem.size(); ++i) {
    for (TensorSlot& s : mem[i].outputs) s.last_use = static_cast<uint32_t>(i);
  }
  ASSERT_TRUE(PlanArenaWithLifetimes(mem, MemPlanOptions{}).ok());
  mem[2].outputs[1].last_use = 1;  // before its producer
  Status st = PlanArenaWithLifetimes(mem, MemPlanOptions{}).status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(std::string(st.message()).find("output 1 of node 2"), std::string::npos) << st;
  mem[2].outputs[1].last_use = 3;  // past the last node
  st = PlanArenaWithLifetimes(mem, MemPlanOptions{}).status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(std::string(st.message()).find("last use 3"), std::string::npos) << st;
  // Lifetimes of keep-alive and non-ARENA slots are not read.
  mem[2].outputs[1].keep_alive = true;
  EXPECT_TRUE(PlanArenaWithLifetimes(mem, MemPlanOptions{}).ok());
  mem[2].outputs[1].keep_alive = false;
  mem[2].outputs[1].kind = proto::MEM_WEIGHTS;
  EXPECT_TRUE(PlanArenaWithLifetimes(mem, MemPlanOptions{}).ok());
  // An empty plan is fine.
  std::vector<NodeMemory> none;
  auto empty = PlanArenaWithLifetimes(none, MemPlanOptions{});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->arena_size, 0u);
  EXPECT_EQ(empty->num_blocks, 0u);
}

TEST(MemPlannerTest, WithLifetimesOverflowIsAnError) {
  std::vector<NodeMemory> mem(2);
  mem[0].outputs.resize(1);
  mem[0].outputs[0].size = ~uint64_t{0} - 3;  // does not align
  EXPECT_EQ(GetErrorCode(PlanArenaWithLifetimes(mem, MemPlanOptions{}).status()),
            ErrorCode::kOverflow);
  mem[0].outputs[0].size = uint64_t{1} << 63;  // aligns, but two of them overflow the arena
  mem[0].outputs[0].keep_alive = true;
  mem[1].workspaces.resize(1);
  mem[1].workspaces[0].size = uint64_t{1} << 63;
  Status st = PlanArenaWithLifetimes(mem, MemPlanOptions{}).status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kOverflow) << st;
}

}  // namespace
}  // namespace ge
