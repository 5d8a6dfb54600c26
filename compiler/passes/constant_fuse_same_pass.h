// compiler/passes/constant_fuse_same_pass.h
//
// ConstantFuseSamePass (GraphPass, GE's ConstantFuseSamePass): within each
// graph of the tree, Const / Constant nodes holding the same value are
// merged into the first of them (in node-list order).
//
// Candidates: Const / Constant nodes with a weights tensor, one output, no
// data inputs and no control predecessors (a control predecessor ties the
// constant to a point in the schedule, e.g. inside a loop body).
// Grouping: a hash of (op type, weights data type, shape, bytes); within a
// bucket two constants merge only when their weights are byte-identical
// with the same data type and shape, their output descs agree (data type,
// shape, format) and every other attribute is equal. The duplicate's
// consumers, graph-output entries and control successors move to the kept
// constant and the duplicate is removed.
//
// Example
//   pm.AddPass<ConstantFuseSamePass>();
#ifndef COMPILER_PASSES_CONSTANT_FUSE_SAME_PASS_H_
#define COMPILER_PASSES_CONSTANT_FUSE_SAME_PASS_H_

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class ConstantFuseSamePass : public GraphPass {
 public:
  absl::string_view name() const override { return "ConstantFuseSamePass"; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  StatusOr<bool> RunOnGraph(const ComputeGraphPtr& graph);
};

}  // namespace ge

#endif  // COMPILER_PASSES_CONSTANT_FUSE_SAME_PASS_H_
