// compiler/passes/pass_framework/topo_order.h
//
// StableTopologicalOrder: a topological order of one graph's direct nodes
// that never modifies the graph (ComputeGraph::TopologicalSorting reorders
// the node list and renumbers ids; a pass driver must not do that as a side
// effect).
//
// Contract
//   * Data edges, control edges, data -> control and control -> data links
//     are all dependencies.
//   * Among the nodes that are ready, the one earliest in the node list goes
//     first, so a list that is already topological comes back unchanged.
//   * Peers that are not direct nodes of `graph` (dangling links, nodes of
//     another graph) are ignored; GraphVerifier reports them.
//   * A cycle is a GraphCycle error naming the nodes of one cycle in edge
//     order: "graph 'g' has a cycle: a -> b -> c -> a".
//   * O((N + E) log N), iterative (deep chains are fine).
//
// Example
//   ASSIGN_OR_RETURN(std::vector<NodePtr> order, StableTopologicalOrder(*graph));
//   for (const NodePtr& node : order) { ... }
#ifndef COMPILER_PASSES_PASS_FRAMEWORK_TOPO_ORDER_H_
#define COMPILER_PASSES_PASS_FRAMEWORK_TOPO_ORDER_H_

#include <vector>

#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

StatusOr<std::vector<NodePtr>> StableTopologicalOrder(const ComputeGraph& graph);

}  // namespace ge

#endif  // COMPILER_PASSES_PASS_FRAMEWORK_TOPO_ORDER_H_
