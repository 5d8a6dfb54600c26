// InferShapePass (seed 002 sections 2.2 and 8): shape and data type inference
// over a whole graph.
//
// Contract: nodes are visited in stable topological order. Each node's input
// descs are refreshed from its producers' output descs; Const nodes take
// their output desc from their "value"; registered ops run
// ge::InferShapeAndTypeForOpDesc with the values of Const producers passed
// as const inputs (so Reshape with a Const shape infers statically). Nodes
// of unregistered types keep their output descs. If nodes recurse: each
// branch's Data nodes (ATTR_NAME_PARENT_NODE_INDEX = the If's input index, cond = 0)
// get the parent's input desc, the branches are inferred, and output k of
// the If is the branches' NetOutput input k when both agree, else the same
// rank with -1 in the differing dims (unknown rank when ranks differ).
// Loop nodes (ONNX: inputs [M, cond, v...], body inputs [iter, cond, v...]
// by parent index, body outputs [cond, v..., scans...]) iterate: the body is
// inferred with the carried descs, each carried desc is merged with the
// body's output (dims that change become -1), until stable (cap
// kMaxLoopIterations); Loop outputs are the carried descs and [-1] + the
// scan element shapes.
// Other subgraph owners (While / Case ...) get their subgraphs'
// Data descs refreshed and inferred the same way, outputs via their own
// infer function. Run() returns true when any desc changed.
//
// Example:
//   InferShapePass pass;
//   ASSIGN_OR_RETURN(bool changed, pass.Run(graph));
#ifndef COMPILER_PASSES_INFER_SHAPE_PASS_H_
#define COMPILER_PASSES_INFER_SHAPE_PASS_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class InferShapePass : public GraphPass {
 public:
  // Cap of the Loop body shape fixed point (merging only widens shapes, so
  // rank + 2 rounds always suffice).
  static constexpr int32_t kMaxLoopIterations = 32;

  absl::string_view name() const override { return "InferShapePass"; }

  // Lenient: a node whose inference fails (unsupported input type, an input
  // desc without a data type, ...) keeps its output descs instead of failing
  // the pass (the compile pipeline uses this: the executors infer at run
  // time). Subgraph structure errors still fail. Default: strict.
  void set_lenient(bool lenient) { lenient_ = lenient; }
  bool lenient() const { return lenient_; }

  // Infers one graph (and, recursively, its nodes' subgraphs); true when a
  // desc changed. Used by the Loop body fixed point too.
  static StatusOr<bool> InferGraph(ComputeGraph& graph, int32_t depth = 0);

  // Merges two descs of the same value: equal dims stay, differing dims
  // become -1, differing ranks give unknown rank. Data type from `a`.
  static GeTensorDesc MergeDescs(const GeTensorDesc& a, const GeTensorDesc& b);

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  bool lenient_ = false;
};

}  // namespace ge

#endif  // COMPILER_PASSES_INFER_SHAPE_PASS_H_
