// ShapeOptimizationPass (seed 002 section 8): InferShapePass and
// ConstantFoldingPass alternate until neither changes the graph, through the
// framework's PassFix fixed-point wrapper.
//
// Contract: one round = InferShapePass then ConstantFoldingPass (either one
// left out when Configure finds its name disabled); the round
// reports a change when either did. PassFix repeats rounds until a round
// changes nothing (Internal error after max_iterations rounds). Folding
// Shape of a static desc makes downstream shape inputs Const, which lets the
// next inference make consumers (Reshape, ...) static: the chain
// Data[3,4,5,6] -> Shape -> Gather(indices=[1,0,2,3]) -> Reshape ends with
// Reshape output [4,3,5,6].
//
// Example:
//   ShapeOptimizationPass pass;   // PassFix<ShapeOptimizationRound>
//   ASSIGN_OR_RETURN(bool changed, pass.Run(graph));
//   pass.last_iterations();       // rounds run
#ifndef COMPILER_PASSES_SHAPE_OPTIMIZATION_PASS_H_
#define COMPILER_PASSES_SHAPE_OPTIMIZATION_PASS_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "compiler/passes/constant_folding_pass.h"
#include "compiler/passes/infer_shape_pass.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "compiler/passes/pass_framework/pass_fix.h"
#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class ShapeOptimizationRound : public GraphPass {
 public:
  ShapeOptimizationRound() = default;
  explicit ShapeOptimizationRound(int64_t max_fold_bytes) : fold_(max_fold_bytes) {}

  absl::string_view name() const override { return "ShapeOptimizationPass"; }
  // Configures both halves; a half whose name (InferShapePass,
  // ConstantFoldingPass) is in settings.disabled_passes is skipped.
  void Configure(const PassSettings& settings) override;

  InferShapePass& infer() { return infer_; }
  ConstantFoldingPass& folding() { return fold_; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  InferShapePass infer_;
  ConstantFoldingPass fold_;
  bool run_infer_ = true;
  bool run_fold_ = true;
};

using ShapeOptimizationPass = PassFix<ShapeOptimizationRound>;

}  // namespace ge

#endif  // COMPILER_PASSES_SHAPE_OPTIMIZATION_PASS_H_
