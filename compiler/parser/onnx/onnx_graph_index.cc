// compiler/parser/onnx/onnx_graph_index.cc
#include "compiler/parser/onnx/onnx_graph_index.h"

#include <queue>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace ge {
namespace onnx_parser {

using onnx::AttributeProto;
using onnx::GraphProto;
using onnx::ModelProto;
using onnx::NodeProto;
using onnx::ValueInfoProto;

bool HasSubgraphs(const NodeProto& n) {
  for (const AttributeProto& a : n.attribute()) {
    if (a.type() == AttributeProto::GRAPH || a.type() == AttributeProto::GRAPHS || a.has_g() ||
        a.graphs_size() > 0) {
      return true;
    }
  }
  return false;
}

std::string SubgraphPath(const std::string& path, const NodeProto& n, int index,
                         const std::string& attr) {
  return absl::StrCat(path, "/", n.name().empty() ? absl::StrCat("#", index) : n.name(), ".", attr);
}

namespace {

// Names a graph defines locally (inputs, initializers, node outputs).
absl::flat_hash_set<std::string> LocalNames(const GraphProto& g) {
  absl::flat_hash_set<std::string> s;
  for (const ValueInfoProto& vi : g.input()) s.insert(vi.name());
  for (const onnx::TensorProto& t : g.initializer()) s.insert(t.name());
  for (const onnx::SparseTensorProto& t : g.sparse_initializer()) s.insert(t.values().name());
  for (const NodeProto& n : g.node()) {
    for (const std::string& o : n.output()) {
      if (!o.empty()) s.insert(o);
    }
  }
  return s;
}

}  // namespace

// Names a graph uses but does not define (its outer-scope references).
void FreeVariables(const GraphProto& g, absl::flat_hash_set<std::string>* out) {
  const absl::flat_hash_set<std::string> local = LocalNames(g);
  auto use = [&](const std::string& name) {
    if (!name.empty() && !local.contains(name)) out->insert(name);
  };
  for (const NodeProto& n : g.node()) {
    for (const std::string& i : n.input()) use(i);
    for (const AttributeProto& a : n.attribute()) {
      absl::flat_hash_set<std::string> inner;
      if (a.has_g()) FreeVariables(a.g(), &inner);
      for (const GraphProto& sub : a.graphs()) FreeVariables(sub, &inner);
      for (const std::string& name : inner) use(name);
    }
  }
  for (const ValueInfoProto& vi : g.output()) use(vi.name());
}

void IndexGraph(const GraphProto& g, GraphIndex* index) {
  const int n = g.node_size();
  index->Reserve(g);
  auto define = [&](const std::string& name) {
    if (name.empty()) return;
    if (index->ids.try_emplace(name, static_cast<int32_t>(index->producer.size())).second) {
      index->producer.push_back(-1);
    }
  };
  for (const ValueInfoProto& vi : g.input()) define(vi.name());
  for (const onnx::TensorProto& t : g.initializer()) define(t.name());
  for (const onnx::SparseTensorProto& t : g.sparse_initializer()) define(t.values().name());
  for (int i = 0; i < n; ++i) {
    index->out_begin.push_back(static_cast<int32_t>(index->out_ids.size()));
    for (const std::string& o : g.node(i).output()) {
      if (o.empty()) {
        index->out_ids.push_back(GraphIndex::kEmpty);
        continue;
      }
      auto [it, inserted] = index->ids.try_emplace(o, static_cast<int32_t>(index->producer.size()));
      if (inserted) {
        index->producer.push_back(i);
      } else if (index->producer[static_cast<size_t>(it->second)] < 0) {
        index->producer[static_cast<size_t>(it->second)] = i;  // first producing node
      }
      index->out_ids.push_back(it->second);
    }
  }
  index->out_begin.push_back(static_cast<int32_t>(index->out_ids.size()));
  for (const NodeProto& node : g.node()) {
    index->in_begin.push_back(static_cast<int32_t>(index->in_ids.size()));
    for (const std::string& in : node.input()) {
      index->in_ids.push_back(in.empty() ? GraphIndex::kEmpty : index->Find(in));
    }
  }
  index->in_begin.push_back(static_cast<int32_t>(index->in_ids.size()));
}

// A topological order of g's nodes that keeps the model order where it is
// one. Nodes on a cycle are reported and left out.
std::vector<int> TopologicalOrder(const GraphProto& g, const GraphIndex& index,
                                  const std::string& path, Problems* problems) {
  const int n = g.node_size();
  // The producer of a dependency of node i (-1: none in this graph).
  auto producer_of = [&](int32_t id) {
    return id < 0 ? -1 : index.producer[static_cast<size_t>(id)];
  };
  std::vector<int> order;
  order.reserve(static_cast<size_t>(n));
  // Fast path: the model order is topological (every dependency is produced
  // by an earlier node, by the node itself, or outside the graph's nodes).
  bool in_order = true;
  for (int i = 0; i < n && in_order; ++i) {
    for (int32_t k = index.in_begin[static_cast<size_t>(i)];
         k < index.in_begin[static_cast<size_t>(i) + 1]; ++k) {
      if (producer_of(index.in_ids[static_cast<size_t>(k)]) > i) in_order = false;
    }
    if (in_order && HasSubgraphs(g.node(i))) {
      ForEachDependency(g.node(i), [&](absl::string_view d) {
        if (producer_of(index.Find(d)) > i) in_order = false;
      });
    }
  }
  if (in_order) {
    for (int i = 0; i < n; ++i) order.push_back(i);
    return order;
  }
  std::vector<std::vector<int>> succ(static_cast<size_t>(n));
  std::vector<int> indeg(static_cast<size_t>(n), 0);
  for (int i = 0; i < n; ++i) {
    absl::flat_hash_set<int> preds;
    ForEachDependency(g.node(i), [&](absl::string_view d) {
      const int p = producer_of(index.Find(d));
      if (p >= 0 && p != i && preds.insert(p).second) {
        succ[static_cast<size_t>(p)].push_back(i);
        ++indeg[static_cast<size_t>(i)];
      }
    });
  }
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int i = 0; i < n; ++i) {
    if (indeg[static_cast<size_t>(i)] == 0) ready.push(i);
  }
  while (!ready.empty()) {
    const int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int s : succ[static_cast<size_t>(i)]) {
      if (--indeg[static_cast<size_t>(s)] == 0) ready.push(s);
    }
  }
  if (static_cast<int>(order.size()) != n) {
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i) {
      if (indeg[static_cast<size_t>(i)] > 0) names.push_back(NodeLabel(g.node(i), i));
    }
    problems->Add(ErrorCode::kGraphCycle, GraphLabel(path),
                  "nodes form a cycle: ", absl::StrJoin(names, ", "));
  }
  return order;
}
}  // namespace onnx_parser
}  // namespace ge
