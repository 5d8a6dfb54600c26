// ops/math/math_util.cc
#include "ops/math/math_util.h"

#include <utility>
#include <vector>

#include "ops/common/op_util.h"

namespace ops {

ge::StatusOr<MatMulPlan> PlanMatMul(const gert::ContextBase& ctx, const gert::Shape& a,
                                    const gert::Shape& b, bool for_kernel, const char* a_name,
                                    const char* b_name) {
  MatMulPlan plan;
  if (a.IsUnknownRank() || b.IsUnknownRank()) {
    if (for_kernel) return ctx.Error("MatMul operands must have known shapes");
    plan.out = gert::Shape{ge::UNKNOWN_RANK};
    return plan;
  }
  const size_t ra = a.GetDimNum();
  const size_t rb = b.GetDimNum();
  if (ra == 0) return ctx.Error(a_name, " must have rank >= 1, got a scalar");
  if (rb == 0) return ctx.Error(b_name, " must have rank >= 1, got a scalar");
  for (const gert::Shape* s : {&a, &b}) {
    for (int64_t d : s->GetDims()) {
      if (d < -1 || (for_kernel && d < 0)) {
        return ctx.Error(s == &a ? a_name : b_name, " has invalid dim ", d, " in shape ",
                         s->ToString());
      }
    }
  }
  const int64_t ka = a.GetDim(ra - 1);
  const int64_t kb = rb == 1 ? b.GetDim(0) : b.GetDim(rb - 2);
  if (ka >= 0 && kb >= 0 && ka != kb) {
    return ctx.Error("inner dimensions do not match: ", a_name, " ", a.ToString(), " has K=", ka,
                     ", ", b_name, " ", b.ToString(), " has K=", kb);
  }
  plan.k = ka >= 0 ? ka : kb;
  plan.m = ra == 1 ? 1 : a.GetDim(ra - 2);
  plan.n = rb == 1 ? 1 : b.GetDim(rb - 1);

  gert::Shape a_batch, b_batch, out_batch;
  for (size_t i = 0; i + 2 < ra; ++i) a_batch.AppendDim(a.GetDim(i));
  for (size_t i = 0; i + 2 < rb; ++i) b_batch.AppendDim(b.GetDim(i));
  ge::Status st = InferBroadcastShape(a_batch, b_batch, &out_batch);
  if (!st.ok()) {
    return ctx.Error("batch dims of ", a_name, " ", a.ToString(), " and ", b_name, " ",
                     b.ToString(), " do not broadcast: ", st.message());
  }
  plan.out = out_batch;
  if (ra >= 2) plan.out.AppendDim(plan.m);
  if (rb >= 2) plan.out.AppendDim(plan.n);
  if (!for_kernel) return plan;

  plan.a_batches = a_batch.GetShapeSize();
  plan.b_batches = b_batch.GetShapeSize();
  plan.batch = out_batch.GetShapeSize();
  if (plan.a_batches < 0 || plan.b_batches < 0 || plan.batch < 0 || plan.out.GetShapeSize() < 0) {
    return ctx.ErrorWithCode(ge::ErrorCode::kOverflow, "MatMul shapes ", a.ToString(), " x ",
                             b.ToString(), " overflow the element count");
  }
  plan.out_batch = out_batch;
  const size_t rank = out_batch.GetDimNum();
  // Row-major strides of each operand's batch dims, aligned to the output's
  // from the right; broadcast (size-1) dims get stride 0.
  for (const auto& [shape, stride] :
       {std::pair<const gert::Shape*, int64_t*>{&a_batch, plan.a_stride},
        std::pair<const gert::Shape*, int64_t*>{&b_batch, plan.b_stride}}) {
    int64_t s = 1;
    const size_t r = shape->GetDimNum();
    for (size_t j = 0; j < r; ++j) {
      const int64_t dim = shape->GetDim(r - 1 - j);
      stride[rank - 1 - j] = dim == 1 ? 0 : s;
      s *= dim;
    }
  }
  return plan;
}

ge::StatusOr<QuantParamIndex> MakeQuantParamIndex(const gert::ContextBase& ctx,
                                                  const gert::Shape& shape, int64_t rows,
                                                  int64_t batches, const char* what) {
  QuantParamIndex idx;
  idx.rows = rows;
  idx.count = shape.GetShapeSize();
  if (idx.count == 1 || (idx.count == rows && rows > 0) ||
      (idx.count == batches * rows && idx.count > 0)) {
    return idx;
  }
  return ctx.Error(what, " has shape ", shape.ToString(), " with ", idx.count,
                   " elements; expected 1 (per tensor), ", rows, " or ", batches * rows);
}

}  // namespace ops
