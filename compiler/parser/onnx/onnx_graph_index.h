// compiler/parser/onnx/onnx_graph_index.h
//
// Internal to the ONNX parser: name -> value lookup. GraphIndex gives the
// values of one graph dense ids (inputs, initializers, sparse initializers,
// node outputs in model order) with each node's input / output ids, built
// once per graph (IndexGraph, or on the way by the validator); every lookup
// of the build goes through it. Also the scoping helpers: which names a
// graph reads from outer scopes (FreeVariables, ForEachDependency) and the
// topological order of its nodes.
//
// Example
//   GraphIndex index;
//   IndexGraph(g, &index);
//   const int32_t id = index.Find("x");  // GraphIndex::kOuter: not defined in g
//   std::vector<int> order = TopologicalOrder(g, index, path, &problems);
#ifndef COMPILER_PARSER_ONNX_ONNX_GRAPH_INDEX_H_
#define COMPILER_PARSER_ONNX_ONNX_GRAPH_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "compiler/parser/onnx/onnx_problems.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace onnx_parser {

// True when a node carries a graph-valued attribute (If, Loop, Scan, ...).
bool HasSubgraphs(const onnx::NodeProto& n);

// "<path>/<node name or #index>.<attr>": the path of a node's subgraph.
std::string SubgraphPath(const std::string& path, const onnx::NodeProto& n, int index,
                         const std::string& attr);

// Names a graph uses but does not define (its outer-scope references).
void FreeVariables(const onnx::GraphProto& g, absl::flat_hash_set<std::string>* out);

// subgraphs' free variables (views into the proto or into *scratch, which
// must stay alive while fn runs).
template <typename Fn>
void ForEachDependency(const onnx::NodeProto& n, Fn fn) {
  for (const std::string& i : n.input()) {
    if (!i.empty()) fn(absl::string_view(i));
  }
  if (!HasSubgraphs(n)) return;
  for (const onnx::AttributeProto& a : n.attribute()) {
    absl::flat_hash_set<std::string> inner;
    if (a.has_g()) FreeVariables(a.g(), &inner);
    for (const onnx::GraphProto& sub : a.graphs()) FreeVariables(sub, &inner);
    for (const std::string& name : inner) fn(absl::string_view(name));
  }
}

// The values of one graph by dense id, built once per graph: every name

// lookup of the build (topological order, linking, outputs) goes through
// this one table; node inputs / outputs are resolved to ids in one pass.
// Ids: graph inputs, initializers, sparse initializers, then node outputs in
// model order (a name defined twice keeps its first id). Names view the
// proto's strings.
struct GraphIndex {
  static constexpr int32_t kEmpty = -1;  // empty input / output name
  static constexpr int32_t kOuter = -2;  // an input not defined in this graph

  absl::flat_hash_map<absl::string_view, int32_t> ids;
  // Per id: the first node producing it, -1 for inputs and initializers.
  std::vector<int32_t> producer;
  // Node i's input ids are in_ids[in_begin[i], in_begin[i + 1]), its output
  // ids out_ids[out_begin[i], out_begin[i + 1]) (ONNX order).
  std::vector<int32_t> in_begin;
  std::vector<int32_t> in_ids;
  std::vector<int32_t> out_begin;
  std::vector<int32_t> out_ids;

  int32_t Find(absl::string_view name) const {
    auto it = ids.find(name);
    return it == ids.end() ? kOuter : it->second;
  }
  size_t size() const { return producer.size(); }

  // Reserves room for every value and input of g (one counting pass).
  void Reserve(const onnx::GraphProto& g) {
    const size_t n = static_cast<size_t>(g.node_size());
    size_t values =
        static_cast<size_t>(g.input_size() + g.initializer_size() + g.sparse_initializer_size());
    size_t inputs = 0;
    for (const onnx::NodeProto& node : g.node()) {
      values += static_cast<size_t>(node.output_size());
      inputs += static_cast<size_t>(node.input_size());
    }
    ids.reserve(values);
    producer.reserve(values);
    out_begin.reserve(n + 1);
    out_ids.reserve(values);
    in_begin.reserve(n + 1);
    in_ids.reserve(inputs);
  }
};

// Indexes g's values and node inputs / outputs.
void IndexGraph(const onnx::GraphProto& g, GraphIndex* index);

// A topological order of g's nodes that keeps the model order where it is
// one. Nodes on a cycle are reported and left out.
std::vector<int> TopologicalOrder(const onnx::GraphProto& g, const GraphIndex& index,
                                  const std::string& path, Problems* problems);

}  // namespace onnx_parser
}  // namespace ge

#endif  // COMPILER_PARSER_ONNX_ONNX_GRAPH_INDEX_H_
