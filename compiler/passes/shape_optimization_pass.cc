#include "compiler/passes/shape_optimization_pass.h"

#include <string>

#include "compiler/passes/pass_framework/pass_registry.h"

namespace ge {

void ShapeOptimizationRound::Configure(const PassSettings& settings) {
  infer_.Configure(settings);
  fold_.Configure(settings);
  run_infer_ = settings.disabled_passes.count(std::string(infer_.name())) == 0;
  run_fold_ = settings.disabled_passes.count(std::string(fold_.name())) == 0;
}

StatusOr<bool> ShapeOptimizationRound::RunImpl(const ComputeGraphPtr& graph) {
  bool inferred = false;
  bool folded = false;
  if (run_infer_) {
    ASSIGN_OR_RETURN(inferred, infer_.Run(graph));
  }
  if (run_fold_) {
    ASSIGN_OR_RETURN(folded, fold_.Run(graph));
  }
  return inferred || folded;
}

GE_REGISTER_GRAPH_PASS(ShapeOptimizationPass);

}  // namespace ge
