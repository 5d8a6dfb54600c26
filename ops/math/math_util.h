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
//   // plan.out == numpy.matmul's result shape; for kernels plan.ABatch(i) /
//   // plan.BBatch(i) are the operand batch indices of output batch i.
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
  // Output batch dims and the operands' element strides (in batches) along
  // them, 0 where an operand broadcasts: ABatch / BBatch map an output batch
  // to the operand batches without per-call storage.
  gert::Shape out_batch;
  int64_t a_stride[gert::kMaxDimNum] = {};
  int64_t b_stride[gert::kMaxDimNum] = {};

  // Index of A's (B's) batch used by output batch `o` (0 <= o < batch).
  int64_t ABatch(int64_t o) const { return OperandBatch(o, a_stride); }
  int64_t BBatch(int64_t o) const { return OperandBatch(o, b_stride); }

 private:
  int64_t OperandBatch(int64_t o, const int64_t* stride) const {
    int64_t idx = 0;
    for (size_t d = out_batch.GetDimNum(); d-- > 0;) {
      const int64_t dim = out_batch.GetDim(d);
      idx += (o % dim) * stride[d];
      o /= dim;
    }
    return idx;
  }
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
