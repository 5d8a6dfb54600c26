// graph/src/topo_sort_algorithms_test.cc
#include "graph/src/topo_sort_algorithms.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace ge {
namespace topo {
namespace {

using Edges = std::vector<std::pair<uint32_t, uint32_t>>;
using Order = std::vector<uint32_t>;

struct Fixture {
  Csr succ;
  Csr pred;
  std::vector<uint8_t> is_data;
  std::vector<int64_t> bytes;
  std::vector<uint32_t> fanout;
  std::vector<std::string> name_storage;
  std::vector<const std::string*> names;

  Fixture(size_t n, const Edges& edges) {
    succ = Csr::FromEdges(n, edges);
    pred = succ.Transpose();
    is_data.assign(n, 0);
    bytes.assign(n, 0);
    fanout.assign(n, 0);
    for (size_t i = 0; i < n; ++i) name_storage.push_back("v" + std::to_string(i));
    for (const std::string& s : name_storage) names.push_back(&s);
  }
  SortInput Input() const {
    SortInput in;
    in.succ = &succ;
    in.pred = &pred;
    in.is_data = [this](uint32_t v) { return is_data[v] != 0; };
    in.out_bytes = bytes;
    in.out_data_nodes = fanout;
    in.names = names;
    return in;
  }
  Order Run(Algo algo, bool mem = false) const {
    Order order;
    EXPECT_TRUE(Sort(Input(), algo, mem, &order));
    return order;
  }
};

bool IsTopological(const Csr& succ, const Order& order) {
  std::vector<uint32_t> pos(order.size());
  for (uint32_t i = 0; i < order.size(); ++i) pos[order[i]] = i;
  for (uint32_t v = 0; v < succ.num_vertices(); ++v) {
    for (uint32_t t : succ.Neighbors(v)) {
      if (pos[v] >= pos[t]) return false;
    }
  }
  return true;
}

TEST(CsrTest, FromEdgesAndTranspose) {
  Csr c = Csr::FromEdges(4, {{2, 1}, {0, 3}, {0, 1}, {2, 0}});
  EXPECT_EQ(c.num_vertices(), 4u);
  EXPECT_EQ(std::vector<uint32_t>(c.Neighbors(0).begin(), c.Neighbors(0).end()), (Order{3, 1}));
  EXPECT_EQ(std::vector<uint32_t>(c.Neighbors(2).begin(), c.Neighbors(2).end()), (Order{1, 0}));
  EXPECT_TRUE(c.Neighbors(3).empty());
  Csr t = c.Transpose();
  EXPECT_EQ(std::vector<uint32_t>(t.Neighbors(1).begin(), t.Neighbors(1).end()), (Order{0, 2}));
  EXPECT_EQ(std::vector<uint32_t>(t.Neighbors(3).begin(), t.Neighbors(3).end()), (Order{0}));
  EXPECT_EQ(Csr().num_vertices(), 0u);
  EXPECT_EQ(Csr().Transpose().num_vertices(), 0u);
}

// 0 -> 1 -> 3 ; 0 -> 2 -> 3 ; 4 isolated ; 5 (Data) -> 2
TEST(TopoAlgorithmsTest, KahnOrders) {
  Fixture f(6, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {5, 2}});
  f.is_data[5] = 1;
  EXPECT_EQ(f.Run(Algo::kBFS), (Order{5, 0, 4, 1, 2, 3}));
  EXPECT_EQ(f.Run(Algo::kDFS), (Order{5, 0, 1, 2, 3, 4}));
}

TEST(TopoAlgorithmsTest, MemoryPriorityOrder) {
  // 0 -> {1, 2, 3}: ready set {1, 2, 3}; 2 is biggest, 1 and 3 tie on bytes,
  // 3 has more consumers.
  Fixture f(5, {{0, 1}, {0, 2}, {0, 3}, {3, 4}, {1, 4}});
  f.bytes = {0, 64, 128, 64, 0};
  f.fanout = {3, 1, 0, 1, 0};
  f.fanout[3] = 2;
  EXPECT_EQ(f.Run(Algo::kBFS, true), (Order{0, 2, 3, 1, 4}));
  f.fanout[3] = 1;  // tie: smaller name first
  EXPECT_EQ(f.Run(Algo::kDFS, true), (Order{0, 2, 1, 3, 4}));
}

TEST(TopoAlgorithmsTest, ReverseDfsOrders) {
  // sink 4 <- {1 (big), 2 (small), 3 (mid)} <- 0
  Fixture f(5, {{0, 1}, {0, 2}, {0, 3}, {1, 4}, {2, 4}, {3, 4}});
  f.bytes = {0, 1000, 10, 100, 0};
  EXPECT_EQ(f.Run(Algo::kRDFS), (Order{0, 2, 3, 1, 4}));
  // StableRDFS keeps an already topological order.
  EXPECT_EQ(f.Run(Algo::kStableRDFS), (Order{0, 1, 2, 3, 4}));
  // ... and otherwise pulls inputs in just before their consumer.
  Fixture g(3, {{2, 0}, {1, 0}});
  EXPECT_EQ(g.Run(Algo::kStableRDFS), (Order{1, 2, 0}));
}

TEST(TopoAlgorithmsTest, MultiEdgesAndSelfLoops) {
  Fixture f(2, {{0, 1}, {0, 1}, {0, 1}});
  for (Algo a : {Algo::kBFS, Algo::kDFS, Algo::kRDFS, Algo::kStableRDFS}) {
    EXPECT_EQ(f.Run(a), (Order{0, 1}));
  }
  Fixture loop(2, {{0, 1}, {1, 1}});
  for (Algo a : {Algo::kBFS, Algo::kDFS, Algo::kRDFS, Algo::kStableRDFS}) {
    Order order;
    EXPECT_FALSE(Sort(loop.Input(), a, false, &order));
  }
  EXPECT_EQ(FindCycle(loop.succ), (Order{1}));
}

TEST(TopoAlgorithmsTest, FindCycleReturnsARealCycle) {
  Csr acyclic = Csr::FromEdges(4, {{0, 1}, {1, 2}, {0, 2}, {2, 3}});
  EXPECT_TRUE(FindCycle(acyclic).empty());
  Csr c = Csr::FromEdges(6, {{0, 1}, {1, 2}, {2, 3}, {3, 1}, {3, 4}, {5, 0}});
  Order cycle = FindCycle(c);
  ASSERT_EQ(cycle, (Order{1, 2, 3}));
  for (size_t i = 0; i < cycle.size(); ++i) {
    const uint32_t from = cycle[i];
    const uint32_t to = cycle[(i + 1) % cycle.size()];
    auto n = c.Neighbors(from);
    EXPECT_NE(std::find(n.begin(), n.end(), to), n.end());
  }
}

TEST(TopoAlgorithmsTest, DelayMovesConstChainsAndPins) {
  // order: 0 w(const) | 1 cast(w) | 2 a | 3 b | 4 c(b, cast) ; cast feeds c
  // only -> moves before c.
  {
    Csr succ = Csr::FromEdges(5, {{0, 1}, {2, 3}, {3, 4}, {1, 4}});
    Csr data_pred = succ.Transpose();
    std::vector<uint8_t> const_like = {1, 0, 0, 0, 0};
    std::vector<uint32_t> num_in = {0, 1, 0, 1, 2};
    DelayInput in{&succ, &data_pred, const_like, num_in};
    Order order = {0, 1, 2, 3, 4};
    DelayConstChains(in, &order);
    EXPECT_EQ(order, (Order{0, 2, 3, 1, 4}));
    EXPECT_TRUE(IsTopological(succ, order));
  }
  // A cast with two consumers (3 and 5) moves before the first (3) and pins
  // it: 3 would otherwise move on towards its own consumer 5.
  {
    Csr succ = Csr::FromEdges(6, {{0, 1}, {1, 3}, {1, 5}, {3, 5}, {2, 4}});
    Csr data_pred = succ.Transpose();
    std::vector<uint8_t> const_like = {1, 0, 0, 0, 0, 0};
    std::vector<uint32_t> num_in = {0, 1, 0, 1, 1, 2};
    DelayInput in{&succ, &data_pred, const_like, num_in};
    Order order = {0, 1, 2, 3, 4, 5};
    DelayConstChains(in, &order);
    EXPECT_EQ(order, (Order{0, 2, 1, 3, 4, 5}));
    EXPECT_TRUE(IsTopological(succ, order));
  }
  // Nodes fed by a non-constant stay.
  {
    Csr succ = Csr::FromEdges(4, {{0, 1}, {1, 3}, {2, 3}});
    Csr data_pred = succ.Transpose();
    std::vector<uint8_t> const_like = {0, 0, 0, 0};
    std::vector<uint32_t> num_in = {0, 1, 0, 2};
    DelayInput in{&succ, &data_pred, const_like, num_in};
    Order order = {0, 1, 2, 3};
    DelayConstChains(in, &order);
    EXPECT_EQ(order, (Order{0, 1, 2, 3}));
  }
}

TEST(TopoAlgorithmsTest, MillionVertexChainIsIterative) {
  constexpr uint32_t kN = 1000000;
  Edges edges;
  edges.reserve(kN);
  for (uint32_t i = 0; i + 1 < kN; ++i) edges.emplace_back(kN - 1 - i, kN - 2 - i);  // reversed
  Fixture f(kN, edges);
  for (Algo a : {Algo::kBFS, Algo::kDFS, Algo::kRDFS, Algo::kStableRDFS}) {
    Order order = f.Run(a, a == Algo::kDFS);
    ASSERT_EQ(order.size(), kN);
    EXPECT_EQ(order.front(), kN - 1);
    EXPECT_EQ(order.back(), 0u);
  }
  edges.emplace_back(0, kN - 1);  // close the ring
  Csr ring = Csr::FromEdges(kN, edges);
  EXPECT_EQ(FindCycle(ring).size(), kN);
}

TEST(TopoAlgorithmsTest, WideFanOutAndFanIn) {
  constexpr uint32_t kN = 100000;
  Edges edges;
  for (uint32_t i = 1; i + 1 < kN; ++i) {
    edges.emplace_back(0, i);
    edges.emplace_back(i, kN - 1);
  }
  Fixture f(kN, edges);
  for (Algo a : {Algo::kBFS, Algo::kDFS, Algo::kRDFS, Algo::kStableRDFS}) {
    Order order = f.Run(a, a == Algo::kBFS);
    ASSERT_EQ(order.size(), kN);
    EXPECT_TRUE(IsTopological(f.succ, order));
  }
}

TEST(TopoAlgorithmsTest, NameKeysOrderLikeTheNames) {
  const std::vector<std::string> names = {"",
                                          "a",
                                          std::string("a\0", 2),
                                          "a\x01",
                                          "ab",
                                          "b",
                                          "\xff",
                                          "\x80z",
                                          "node_1",
                                          "node_10",
                                          "node_2",
                                          "exactly_16_bytes",
                                          "exactly_16_bytes+",
                                          "exactly_16_bytezz",
                                          "a_very_long_shared_prefix_1",
                                          "a_very_long_shared_prefix_2"};
  for (const std::string& a : names) {
    for (const std::string& b : names) {
      uint64_t ka[2], kb[2];
      NameKey(a, &ka[0], &ka[1]);
      NameKey(b, &kb[0], &kb[1]);
      const int by_name = a.compare(b) < 0 ? -1 : a.compare(b) > 0 ? 1 : 0;
      if (ka[0] != kb[0] || ka[1] != kb[1]) {
        const bool key_less = ka[0] != kb[0] ? ka[0] < kb[0] : ka[1] < kb[1];
        EXPECT_EQ(key_less ? -1 : 1, by_name) << "'" << a << "' vs '" << b << "'";
      }
      if (a == b) {
        EXPECT_TRUE(ka[0] == kb[0] && ka[1] == kb[1]);
      }
    }
  }
}

TEST(TopoAlgorithmsTest, NameKeysDoNotChangeTheOrder) {
  // Ties on bytes and fan-out everywhere: names decide. Names share long
  // prefixes so that both the keys and the full comparison are exercised.
  const size_t n = 200;
  Edges edges;
  for (uint32_t v = 1; v < n; ++v) {
    edges.emplace_back(v / 3, v);
    if (v % 7 == 0) edges.emplace_back(v / 2, v);
  }
  Fixture f(n, edges);
  for (size_t i = 0; i < n; ++i) {
    f.name_storage[i] =
        (i % 2 == 0 ? "a_very_long_shared_prefix_" : "n") + std::to_string((i * 7919) % 1000);
  }
  std::vector<uint64_t> keys(2 * n);
  for (size_t i = 0; i < n; ++i) NameKey(f.name_storage[i], &keys[2 * i], &keys[2 * i + 1]);
  for (Algo algo : {Algo::kDFS, Algo::kBFS, Algo::kRDFS}) {
    const bool mem = algo != Algo::kRDFS;
    Order plain;
    ASSERT_TRUE(Sort(f.Input(), algo, mem, &plain));
    SortInput with_keys = f.Input();
    with_keys.name_keys = keys;
    Order keyed;
    ASSERT_TRUE(Sort(with_keys, algo, mem, &keyed));
    EXPECT_EQ(plain, keyed);
    EXPECT_TRUE(IsTopological(f.succ, keyed));
  }
}

TEST(TopoAlgorithmsTest, ReusedBuffersGiveTheSameResultsAcrossSizes) {
  // A large sort then a small one then the large one again on the same
  // thread: the per-thread buffers must not leak state between calls.
  Edges big_edges;
  for (uint32_t v = 1; v < 5000; ++v) big_edges.emplace_back(v - 1, v);
  Fixture big(5000, big_edges);
  Fixture small(4, {{0, 2}, {1, 2}, {2, 3}});
  const Order big_rdfs = big.Run(Algo::kRDFS);
  const Order small_rdfs = small.Run(Algo::kRDFS);
  EXPECT_EQ(small_rdfs, (Order{0, 1, 2, 3}));
  EXPECT_EQ(big.Run(Algo::kRDFS), big_rdfs);
  EXPECT_EQ(small.Run(Algo::kStableRDFS), (Order{0, 1, 2, 3}));
  EXPECT_EQ(small.Run(Algo::kDFS), (Order{0, 1, 2, 3}));
  Csr t;
  big.succ.TransposeInto(&t);
  small.succ.TransposeInto(&t);  // reuses t
  EXPECT_EQ(t.offsets, small.pred.offsets);
  EXPECT_EQ(t.targets, small.pred.targets);
}

}  // namespace
}  // namespace topo
}  // namespace ge
