// FuseDataNodesWithCommonInputPass (seed 002 section 2.2, Stage 1 "data
// optimisation"): inside the subgraphs of a node, merges the Data nodes that
// stand for parent inputs fed by the same value.
//
// Contract: for every node with subgraphs (recursively, nested subgraphs
// included) whose type passes its inputs to the subgraphs unchanged (If,
// StatelessIf, Case, PartitionedCall, ... : every type except the loops
// Loop, While, For, Scan, whose carried values change per iteration):
// parent inputs are grouped by their producer (out anchor); in each
// subgraph the Data nodes (ATTR_NAME_PARENT_NODE_INDEX) of one group are
// merged into the one with the smallest parent index: its output takes over
// the others' consumers (and control edges), the others are removed. Two
// Data nodes with the same parent index are merged the same way. The
// parent's inputs are not changed (a parent input no Data reads is
// allowed). Run() returns true when a Data node was removed.
//
// Example (If with inputs cond, x, x):
//   then: Data(parent 1) -> Add <- Data(parent 2)   =>   Data(parent 1) -> Add (x, x)
//
//   FuseDataNodesWithCommonInputPass pass;
//   ASSIGN_OR_RETURN(bool changed, pass.Run(root_graph));
#ifndef COMPILER_PASSES_FUSE_DATA_NODES_WITH_COMMON_INPUT_PASS_H_
#define COMPILER_PASSES_FUSE_DATA_NODES_WITH_COMMON_INPUT_PASS_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class FuseDataNodesWithCommonInputPass : public GraphPass {
 public:
  absl::string_view name() const override { return "FuseDataNodesWithCommonInputPass"; }

  // Data nodes removed by the last Run.
  int64_t fused_count() const { return fused_; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  StatusOr<bool> FuseInSubgraphsOf(const Node& parent);
  int64_t fused_ = 0;
};

}  // namespace ge

#endif  // COMPILER_PASSES_FUSE_DATA_NODES_WITH_COMMON_INPUT_PASS_H_
