// ops/math/math_util.h
//
// Helpers shared by the ops/math kernels (internal to the family):
//   * PlanMatMul: numpy.matmul geometry (1-D operands, broadcast batch dims)
//     used by MatMul, MatMulInteger and QLinearMatMul for both infer shape
//     (shapes may hold -1 dims or unknown rank) and kernels (known shapes).
//   * RoundHalfEven (with ops::SaturateCast<T>): quantization arithmetic.
//   * Quantization parameter lookups (per tensor / per row / per column).
//
// Example
//   ASSIGN_OR_RETURN(ops::MatMulPlan plan, ops::PlanMatMul(ctx, a_shape, b_shape, true));
//   // plan.out == numpy.matmul's result shape; for kernels plan.a_batch[i] /
//   // plan.b_batch[i] are the operand batch indices of output batch i.
#ifndef OPS_MATH_MATH_UTIL_H_
#define OPS_MATH_MATH_UTIL_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ops {

struct MatMulPlan {
  gert::Shape out;  // result shape (may hold -1 dims / unknown rank in infer)
  int64_t m = 0;    // rows of A (1 for a 1-D A)
  int64_t n = 0;    // columns of B (1 for a 1-D B)
  int64_t k = 0;    // inner dimension
  // Filled only when `for_kernel` (every dim known):
  int64_t batch = 1;      // output batch count
  int64_t a_batches = 1;  // batch count of A (product of its batch dims)
  int64_t b_batches = 1;
  std::vector<int64_t> a_batch;  // per output batch: index of A's batch
  std::vector<int64_t> b_batch;  // per output batch: index of B's batch
};

// numpy.matmul shapes: rank-0 operands, an inner-dimension mismatch and
// batch dims that do not broadcast are errors naming the node, the inputs
// (`a_name` / `b_name`, e.g. "input 0 (A)") and the shapes. Unknown rank on
// either side gives out = unknown rank. With `for_kernel`, unknown dims are
// errors and the batch maps are filled.
ge::StatusOr<MatMulPlan> PlanMatMul(const gert::ContextBase& ctx, const gert::Shape& a,
                                    const gert::Shape& b, bool for_kernel,
                                    const char* a_name = "input 0 (A)",
                                    const char* b_name = "input 1 (B)");

// Round to nearest, ties to even (the default FP rounding mode).
inline double RoundHalfEven(double v) { return std::nearbyint(v); }
inline float RoundHalfEven(float v) { return std::nearbyintf(v); }

// SaturateCast<T>(double) (clamp to T, NaN -> 0) is in ops/common/op_util.h.

// Where a quantization parameter (scale / zero point) applies:
//   count 1             per tensor
//   count == rows       per row (per column), shared by every batch
//   count == batches*rows  per row of each batch
// Index(batch, row) gives the element to use.
struct QuantParamIndex {
  int64_t count = 1;
  int64_t rows = 1;
  int64_t Index(int64_t batch, int64_t row) const {
    if (count == 1) return 0;
    if (count == rows) return row;
    return batch * rows + row;
  }
};

// Validates a parameter's element count for `rows` rows and `batches`
// batches (see QuantParamIndex); the error names the node and `what`.
ge::StatusOr<QuantParamIndex> MakeQuantParamIndex(const gert::ContextBase& ctx,
                                                  const gert::Shape& shape, int64_t rows,
                                                  int64_t batches, const char* what);

}  // namespace ops

#endif  // OPS_MATH_MATH_UTIL_H_
