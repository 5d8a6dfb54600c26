// compiler/passes/pass_framework/graph_verifier.h
//
// GraphVerifier: structural invariants of a ComputeGraph tree, checked by the
// PassManager before the first pass and after every pass (in debug and test
// builds, see PassManagerOptions::verify). A pass that corrupts the graph is
// caught right after it runs, with the message naming the pass, instead of
// crashing a later stage.
//
// Checks, for the graph and (from a root graph) every registered subgraph:
//   * every node is non-null, has an OpDesc, and its owner graph is the
//     graph whose node list holds it;
//   * anchor counts match the OpDesc (one in-data anchor per input desc, one
//     out-data anchor per output desc)            [check_desc_anchor_counts];
//   * anchor symmetry: every peer lists the anchor back;
//   * at most one producer per input (an InDataAnchor has <= 1 peer), and
//     peers have a kind that may be linked (in <-> out);
//   * no dangling peers: every peer's node is a direct node of the same
//     graph (not removed, not in another graph);
//   * input nodes and graph output entries are nodes of the graph, output
//     indices in range;
//   * no cycles (data and control edges; GraphCycle naming the cycle);
//   * subgraph links: every registered subgraph has a live parent graph of
//     the tree and a parent node in it whose OpDesc names the subgraph, and
//     every subgraph instance name on a node resolves to a registered
//     subgraph whose parent node is that node;
//   * unique node names within a graph                [check_unique_names].
// Errors are GraphInvalid (GraphCycle for a cycle) and name the graph, the
// node, the anchor ("relu:0(in_data)") and the peer.
//
// Example
//   RETURN_IF_ERROR(GraphVerifier::Verify(*graph));
#ifndef COMPILER_PASSES_PASS_FRAMEWORK_GRAPH_VERIFIER_H_
#define COMPILER_PASSES_PASS_FRAMEWORK_GRAPH_VERIFIER_H_

#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

struct GraphVerifierOptions {
  // Also verify the subgraphs registered at a root graph and the links
  // between them and their parent nodes.
  bool check_subgraphs = true;
  bool check_desc_anchor_counts = true;
  // GE tolerates duplicate names (FindNode returns the first); off by default.
  bool check_unique_names = false;
  bool check_cycles = true;
};

class GraphVerifier {
 public:
  static Status Verify(const ComputeGraph& graph,
                       const GraphVerifierOptions& options = GraphVerifierOptions());
};

}  // namespace ge

#endif  // COMPILER_PASSES_PASS_FRAMEWORK_GRAPH_VERIFIER_H_
