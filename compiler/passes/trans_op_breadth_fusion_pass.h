// TransOpBreadthFusionPass (seed 002 section 2.2, Stage 1 "conversion
// optimisation"): merges the identical trans ops on one producer's fan-out.
//
// Contract: for every output anchor (of every graph, subgraphs included),
// its consumers of a trans type (Transpose, TransposeD, Cast, TransData,
// FormatTransfer) that read the anchor on input 0 are grouped by type, the
// producers of their other inputs, their attributes and their input /
// output descs. In each group of two or more the first (in the producer's
// consumer order) is kept and replaces every other one: it takes over the
// duplicate's consumers, out-control edges and graph-output entries and
// gets its control predecessors; the duplicate is removed. Nodes with subgraphs or side effects
// (pass_utils.h) are left alone. Run() returns true when a node was merged.
//
// Example:
//   x -> Transpose(perm=[0,2,1]) -> a        x -> Transpose(perm=[0,2,1]) -> a
//   x -> Transpose(perm=[0,2,1]) -> b   =>                                -> b
//   x -> Transpose(perm=[1,0,2]) -> c        x -> Transpose(perm=[1,0,2]) -> c
//
//   TransOpBreadthFusionPass pass;
//   ASSIGN_OR_RETURN(bool changed, pass.Run(graph));
#ifndef COMPILER_PASSES_TRANS_OP_BREADTH_FUSION_PASS_H_
#define COMPILER_PASSES_TRANS_OP_BREADTH_FUSION_PASS_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class TransOpBreadthFusionPass : public GraphPass {
 public:
  absl::string_view name() const override { return "TransOpBreadthFusionPass"; }

  // True for the trans op types the pass merges.
  static bool IsTransOpType(absl::string_view type);

  // Nodes removed by the last Run.
  int64_t merged_count() const { return merged_; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  StatusOr<bool> RunOnGraph(const ComputeGraphPtr& graph);
  int64_t merged_ = 0;
};

}  // namespace ge

#endif  // COMPILER_PASSES_TRANS_OP_BREADTH_FUSION_PASS_H_
