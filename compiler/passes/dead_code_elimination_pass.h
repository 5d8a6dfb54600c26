// compiler/passes/dead_code_elimination_pass.h
//
// DeadCodeEliminationPass (GraphPass): removes the nodes whose results can
// never be observed.
//
// A node is live when a path of data or control edges leads from it to a
// root: a NetOutput node, a graph-output entry (GetGraphOutNodesInfo), a
// Data-like node (Data / RefData / AippData are always kept: they are the
// graph's interface), or a node with side effects (pass_utils.h:
// communication, assignment, printing, stream / label control, variables,
// the _has_side_effect attribute, or subgraphs containing any of these).
// Every other node is dead and removed, consumers first, with the
// subgraphs it owns. A graph with neither a NetOutput node nor graph-output
// entries declares no outputs yet and is left alone.
//
// Runs on the root graph, then on every remaining subgraph (a subgraph's
// NetOutput is its root). Returns true when a node was removed. A cycle is a
// GraphCycle error.
//
// Example
//   pm.AddPass<DeadCodeEliminationPass>();
#ifndef COMPILER_PASSES_DEAD_CODE_ELIMINATION_PASS_H_
#define COMPILER_PASSES_DEAD_CODE_ELIMINATION_PASS_H_

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class DeadCodeEliminationPass : public GraphPass {
 public:
  absl::string_view name() const override { return "DeadCodeEliminationPass"; }

 protected:
  // Inside a TopoOrderCache scope a graph unedited since a run that found
  // nothing dead is skipped; an all-live DAG (every sink is a root) is
  // recognised in one scan without liveness bookkeeping.
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  // The graph, then (for a root) every subgraph.
  StatusOr<bool> RunAllGraphs(const ComputeGraphPtr& graph);
  StatusOr<bool> RunOnGraph(const ComputeGraphPtr& graph);
};

}  // namespace ge

#endif  // COMPILER_PASSES_DEAD_CODE_ELIMINATION_PASS_H_
