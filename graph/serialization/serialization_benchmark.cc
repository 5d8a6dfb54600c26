// graph/serialization/serialization_benchmark.cc
//
// Serialization cost of N-node graphs (N = 10k and 1M; chains, fan-out,
// control edges, an attribute on every node, the shape of
// //graph:compute_graph_benchmark): ModelSerialize::SerializeModel,
// DeserializeModel and the round trip, in time per node; the memory per
// node of a deserialized graph (VmRSS growth of the first deserialization and
// live heap bytes from mallinfo2) and the serialized bytes per node.
// BM_Summary reports the 1M / 10k per-node cost ratios (linearity).
//
//   bazel run -c opt //graph/serialization:serialization_benchmark
//
// Budget (one core): round trip <= 2 us/node, memory <= 1 KiB/node, per-node
// cost at 1M within 1.5x of 10k.
#include <malloc.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "google/protobuf/arena.h"
#include "graph/proto/ge_ir.pb.h"
#include "graph/serialization/inc/model_serialize.h"
#include "graph/serialization/inc/model_serialize_proto.h"

namespace ge {
namespace {

int64_t VmRssBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  }
  return 0;
}

int64_t HeapBytes() { return static_cast<int64_t>(mallinfo2().uordblks); }

void Check(const Status& st) {
  if (!st.ok()) {
    std::fprintf(stderr, "benchmark failed: %s\n", st.ToString().c_str());
    std::abort();
  }
}

// Node i: one output [1, 64] float; input 0 from node i-1 (the chain); every
// 4th node a second input from an earlier node (fan-out up to ~4 consumers);
// every 16th node a control edge from node i-3; attribute "_index" = i.
ComputeGraphPtr BuildGraph(int64_t n) {
  auto graph = std::make_shared<ComputeGraph>("bench");
  std::vector<Node*> nodes;
  nodes.reserve(static_cast<size_t>(n));
  const GeTensorDesc desc(GeShape({1, 64}), FORMAT_ND, DT_FLOAT);
  for (int64_t i = 0; i < n; ++i) {
    const bool second_input = i >= 8 && i % 4 == 0;
    auto op = std::make_shared<OpDesc>(absl::StrCat("node_", i), i == 0 ? DATA : "Add");
    if (i > 0) Check(op->AddInputDesc(desc));
    if (second_input) Check(op->AddInputDesc(desc));
    Check(op->AddOutputDesc(desc));
    Check(AttrUtils::SetInt(op, "_index", i));
    StatusOr<NodePtr> node = graph->AddNode(op);
    Check(node.status());
    Node* cur = node->get();
    nodes.push_back(cur);
    if (i > 0) Check(nodes[i - 1]->GetOutDataAnchorBarePtr(0)->LinkTo(cur->GetInDataAnchorBarePtr(0)));
    if (second_input) {
      Check(nodes[i - 5 - (i / 4) % 3]->GetOutDataAnchorBarePtr(0)->LinkTo(
          cur->GetInDataAnchorBarePtr(1)));
    }
    if (i >= 3 && i % 16 == 0) {
      Check(nodes[i - 3]->GetOutControlAnchorBarePtr()->LinkTo(cur->GetInControlAnchorBarePtr()));
    }
  }
  return graph;
}

struct Fixture {
  ComputeGraphPtr graph;
  std::string bytes;
};

// One graph and its bytes per size, built once.
Fixture& FixtureFor(int64_t n) {
  static std::map<int64_t, Fixture>* const kFixtures = new std::map<int64_t, Fixture>();
  Fixture& f = (*kFixtures)[n];
  if (f.graph == nullptr) {
    f.graph = BuildGraph(n);
    StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*f.graph);
    Check(bytes.status());
    f.bytes = std::move(bytes).value();
  }
  return f;
}

// Measured seconds per node, by benchmark name and size (for BM_Summary).
std::map<std::pair<std::string, int64_t>, double>& PerNode() {
  static auto* const kPerNode = new std::map<std::pair<std::string, int64_t>, double>();
  return *kPerNode;
}

void SetPerNode(benchmark::State& state, const std::string& name, int64_t n, double seconds) {
  const double per_node = seconds / static_cast<double>(state.iterations()) / static_cast<double>(n);
  PerNode()[{name, n}] = per_node;
  state.counters["s_per_node"] = benchmark::Counter(
      static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                  benchmark::Counter::kInvert);
}

using Clock = std::chrono::steady_clock;
double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

void BM_Serialize(benchmark::State& state) {
  const int64_t n = state.range(0);
  Fixture& f = FixtureFor(n);
  double total = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*f.graph);
    total += Seconds(t0, Clock::now());
    Check(bytes.status());
    state.PauseTiming();
    bytes = std::string();
    state.ResumeTiming();
  }
  SetPerNode(state, "serialize", n, total);
  state.counters["bytes_per_node"] = static_cast<double>(f.bytes.size()) / static_cast<double>(n);
}

void BM_Deserialize(benchmark::State& state) {
  const int64_t n = state.range(0);
  Fixture& f = FixtureFor(n);
  double total = 0;
  double rss_per_node = -1;
  double heap_per_node = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const int64_t heap0 = HeapBytes();
    const int64_t rss0 = VmRssBytes();
    state.ResumeTiming();
    const auto t0 = Clock::now();
    StatusOr<ComputeGraphPtr> graph = ModelSerialize::DeserializeModel(f.bytes);
    total += Seconds(t0, Clock::now());
    state.PauseTiming();
    Check(graph.status());
    heap_per_node = static_cast<double>(HeapBytes() - heap0) / static_cast<double>(n);
    if (rss_per_node < 0) {  // later iterations reuse freed pages
      rss_per_node = static_cast<double>(VmRssBytes() - rss0) / static_cast<double>(n);
    }
    graph = ComputeGraphPtr();
    state.ResumeTiming();
  }
  SetPerNode(state, "deserialize", n, total);
  state.counters["heap_B_per_node"] = heap_per_node;
  state.counters["rss_B_per_node"] = rss_per_node;
}

void BM_RoundTrip(benchmark::State& state) {
  const int64_t n = state.range(0);
  Fixture& f = FixtureFor(n);
  double total = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*f.graph);
    Check(bytes.status());
    StatusOr<ComputeGraphPtr> graph = ModelSerialize::DeserializeModel(*bytes);
    total += Seconds(t0, Clock::now());
    Check(graph.status());
    state.PauseTiming();
    graph = ComputeGraphPtr();
    bytes = std::string();
    state.ResumeTiming();
  }
  SetPerNode(state, "round_trip", n, total);
}

// Where the time goes: graph -> proto, proto -> bytes, bytes -> proto,
// proto -> graph, and building the same graph through the graph API (ns per
// node in each counter).
void BM_Phases(benchmark::State& state) {
  const int64_t n = state.range(0);
  Fixture& f = FixtureFor(n);
  double to_proto = 0, to_bytes = 0, parse = 0, build = 0, construct = 0;
  for (auto _ : state) {
    const auto c0 = Clock::now();
    ComputeGraphPtr built = BuildGraph(n);
    construct += Seconds(c0, Clock::now());
    state.PauseTiming();
    built = ComputeGraphPtr();
    state.ResumeTiming();
    google::protobuf::Arena arena;
    auto* model = google::protobuf::Arena::CreateMessage<proto::ModelDef>(&arena);
    auto t0 = Clock::now();
    Check(ModelSerializeImp::SerializeModel(*f.graph, model));
    auto t1 = Clock::now();
    StatusOr<std::string> bytes = ModelSerializeImp::ToBytes(*model);
    auto t2 = Clock::now();
    Check(bytes.status());
    google::protobuf::Arena arena2;
    auto* parsed = google::protobuf::Arena::CreateMessage<proto::ModelDef>(&arena2);
    auto t3 = Clock::now();
    Check(ModelSerializeImp::ParseBytes(*bytes, parsed));
    auto t4 = Clock::now();
    StatusOr<ComputeGraphPtr> graph = ModelSerializeImp::UnserializeModel(*parsed);
    auto t5 = Clock::now();
    Check(graph.status());
    to_proto += Seconds(t0, t1);
    to_bytes += Seconds(t1, t2);
    parse += Seconds(t3, t4);
    build += Seconds(t4, t5);
  }
  const double k = 1e9 / static_cast<double>(state.iterations()) / static_cast<double>(n);
  state.counters["graph_to_proto_ns"] = to_proto * k;
  state.counters["proto_to_bytes_ns"] = to_bytes * k;
  state.counters["bytes_to_proto_ns"] = parse * k;
  state.counters["proto_to_graph_ns"] = build * k;
  // The same graph built directly with the graph API, for comparison.
  state.counters["api_construct_ns"] = construct * k;
}

// Ratios of the per-node costs at 1M and 10k nodes (1.0 = linear), and the
// round trip against its budget.
void BM_Summary(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(PerNode().size());
  for (const char* name : {"serialize", "deserialize", "round_trip"}) {
    auto small = PerNode().find({name, 10000});
    auto large = PerNode().find({name, 1000000});
    if (small == PerNode().end() || large == PerNode().end()) continue;
    state.counters[absl::StrCat(name, "_1M_over_10k")] = large->second / small->second;
  }
  auto rt = PerNode().find({"round_trip", 1000000});
  if (rt != PerNode().end()) state.counters["round_trip_1M_ns_per_node"] = rt->second * 1e9;
}

BENCHMARK(BM_Serialize)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Deserialize)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RoundTrip)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Phases)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Summary)->Iterations(1);

}  // namespace
}  // namespace ge
