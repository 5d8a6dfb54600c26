// CondRemovePass (seed 002 section 2.2, Stage 2): an If (or StatelessIf /
// Case) whose condition is a constant is replaced by the branch it takes,
// inlined into the If's graph.
//
// Contract:
//   * If / StatelessIf: input 0 (cond) fed by a Const / Constant holding one
//     element (bool or any numeric type; non-zero = true) selects
//     then_branch (true) or else_branch (false). Case: input 0 (branch
//     index, INT32 / INT64, one element) selects branches[index]; an index
//     outside [0, n) selects the last branch (TF's default branch).
//   * Inlining: every node of the branch except its Data / NetOutput nodes
//     is copied into the parent graph as "<if name>/<node name>" (made
//     unique); a branch Data with parent index k reads the If's input k; the
//     If's output j becomes whatever feeds the branch NetOutput's input j.
//     Control edges inside the branch are copied; the copies get the If's
//     control predecessors and, when the If has control successors, every
//     copy precedes them. Subgraphs of copied nodes are re-parented to the
//     copies. The If and both branch graphs are then removed, and the
//     condition Const when nothing else reads it.
//   * A non-constant condition, a condition with other than one element or
//     a missing selected branch leaves the node alone. An If output with
//     consumers but no value in the branch is GraphInvalid naming both.
//   Run() returns true when a node was replaced.
//
// Example:
//   Const(true) -> If(x){then: Relu, else: Neg} -> y   =>   x -> If/relu -> y
//
//   CondRemovePass pass;
//   ASSIGN_OR_RETURN(bool changed, pass.Run(root_graph));
#ifndef COMPILER_PASSES_COND_REMOVE_PASS_H_
#define COMPILER_PASSES_COND_REMOVE_PASS_H_

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class CondRemovePass : public GraphPass {
 public:
  absl::string_view name() const override { return "CondRemovePass"; }

  // The subgraph slot `node` (If / StatelessIf / Case) takes when its
  // condition is constant; nullopt otherwise.
  static std::optional<uint32_t> TakenBranch(const Node& node);

  // Inlines subgraph slot `branch` of `node` in place of the node.
  static Status InlineBranch(const NodePtr& node, uint32_t branch);

  // Nodes replaced by the last Run.
  int64_t removed_count() const { return removed_; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  int64_t removed_ = 0;
};

}  // namespace ge

#endif  // COMPILER_PASSES_COND_REMOVE_PASS_H_
