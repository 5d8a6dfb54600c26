// compiler/passes/common_subexpression_elimination_pass.h
//
// CommonSubexpressionEliminationPass (GraphPass, GE's
// CommonSubexpressionEliminationPass): within each graph of the tree, a node
// that computes exactly what an earlier node computes is replaced by it.
//
// Two nodes are the same computation when they have the same op type, the
// same producer (node and output index) on every data input (unlinked
// inputs match unlinked inputs), the same set of control predecessors, the
// same attributes (AttrValue equality, i.e. equal serialized values), and
// input / output descs that agree (count, data type, shape, format).
// Never merged: Data-like, Const / Constant (ConstantFuseSamePass's job),
// NetOutput, Variable-like and control-flow nodes, nodes with subgraphs,
// nodes with side effects or non-deterministic ones (random ops), and
// nodes without any data input.
//
// Nodes are visited in topological order, so once a node is replaced its
// consumers see the kept node as their producer and chains of duplicates
// collapse in one run. The replaced node's consumers, graph-output entries
// and control successors move to the kept node (GraphRewriter::ReplaceNode).
//
// Example
//   pm.AddPass<CommonSubexpressionEliminationPass>();
#ifndef COMPILER_PASSES_COMMON_SUBEXPRESSION_ELIMINATION_PASS_H_
#define COMPILER_PASSES_COMMON_SUBEXPRESSION_ELIMINATION_PASS_H_

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class CommonSubexpressionEliminationPass : public GraphPass {
 public:
  absl::string_view name() const override { return "CommonSubexpressionEliminationPass"; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  StatusOr<bool> RunOnGraph(const ComputeGraphPtr& graph);
};

}  // namespace ge

#endif  // COMPILER_PASSES_COMMON_SUBEXPRESSION_ELIMINATION_PASS_H_
