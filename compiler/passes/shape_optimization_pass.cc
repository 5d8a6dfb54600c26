#include "compiler/passes/shape_optimization_pass.h"

namespace ge {

StatusOr<bool> ShapeOptimizationRound::RunImpl(const ComputeGraphPtr& graph) {
  ASSIGN_OR_RETURN(bool inferred, infer_.Run(graph));
  ASSIGN_OR_RETURN(bool folded, fold_.Run(graph));
  return inferred || folded;
}

}  // namespace ge
