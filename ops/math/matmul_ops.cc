// ops/math/matmul_ops.cc
//
// MatMul, Gemm, MatMulInteger and QLinearMatMul (ONNX opset 17 semantics).
//   MatMul         numpy.matmul: 1-D operands are promoted (and the added dim
//                  removed), batch dims broadcast.
//   Gemm           Y = alpha * op(A) * op(B) + beta * C, A / B 2-D, C optional
//                  and unidirectionally broadcast to [M, N].
//   MatMulInteger  int32 result of (A - a_zero_point) x (B - b_zero_point);
//                  zero points per tensor, per row of A, per column of B.
//   QLinearMatMul  quantized matmul: the int32 product rescaled by
//                  a_scale * b_scale / y_scale, rounded half to even, plus
//                  y_zero_point, saturated to y's type.
// Float kernels use the packed GEMM of ops/common/gemm.h; FLOAT16 / BF16 compute
// in float.
#include <cmath>
#include <cstdint>
#include <vector>

#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/gemm.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"
#include "ops/math/math_util.h"

namespace ops {
namespace {

const ge::TensorType& MatMulTypes() {
  static const ge::TensorType* t =
      new ge::TensorType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_UINT32, ge::DT_UINT64,
                          ge::DT_INT32, ge::DT_INT64, ge::DT_BF16});
  return *t;
}

const ge::TensorType& Int8Types() {
  static const ge::TensorType* t = new ge::TensorType({ge::DT_INT8, ge::DT_UINT8});
  return *t;
}

ge::Status CheckSameType(const gert::ContextBase& ctx, ge::DataType a, ge::DataType b,
                         const char* a_name, const char* b_name) {
  if (a != b) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, a_name, " is ", DataTypeName(a), " but ",
                             b_name, " is ", DataTypeName(b), "; they must have the same type");
  }
  return ge::OkStatus();
}

ge::Status CheckType(const gert::ContextBase& ctx, ge::DataType dt, ge::DataType want,
                     const char* name) {
  if (dt != want) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, name, " must be ", DataTypeName(want),
                             ", got ", DataTypeName(dt));
  }
  return ge::OkStatus();
}

const gert::Shape* RequireShape(gert::InferShapeContext& ctx, size_t i) {
  return ctx.GetInputShape(i);
}

ge::Status MissingInput(const gert::ContextBase& ctx, size_t i, const char* name) {
  return ctx.Error("input ", i, " (", name, ") is missing");
}

// ---------------------------------------------------------------- batched GEMM

// Y[batch] = A[a_batch] x B[b_batch] for every output batch (float types).
template <typename T>
void RunBatchedFloat(const MatMulPlan& p, const T* a, const T* b, T* y) {
  const int64_t m = p.m, n = p.n, k = p.k;
  // B shared by every batch and A's batches laid out like Y's: one big GEMM.
  if (p.b_batches == 1 && p.a_batches == p.batch) {
    if constexpr (std::is_same<T, float>::value) {
      GemmF32(false, false, p.batch * m, n, k, 1.0f, a, k, b, n, 0.0f, y, n);
    } else {
      GemmF64(false, false, p.batch * m, n, k, 1.0, a, k, b, n, 0.0, y, n);
    }
    return;
  }
  for (int64_t i = 0; i < p.batch; ++i) {
    const T* ab = a + p.ABatch(i) * m * k;
    const T* bb = b + p.BBatch(i) * k * n;
    T* yb = y + i * m * n;
    if constexpr (std::is_same<T, float>::value) {
      GemmF32(false, false, m, n, k, 1.0f, ab, k, bb, n, 0.0f, yb, n);
    } else {
      GemmF64(false, false, m, n, k, 1.0, ab, k, bb, n, 0.0, yb, n);
    }
  }
}

template <typename T>
void RunBatchedInt(const MatMulPlan& p, const T* a, const T* b, T* y) {
  const int64_t m = p.m, n = p.n, k = p.k;
  for (int64_t i = 0; i < p.batch; ++i) {
    const T* ab = a + p.ABatch(i) * m * k;
    const T* bb = b + p.BBatch(i) * k * n;
    GemmInt<T>(false, false, m, n, k, T{1}, ab, k, bb, n, T{0}, y + i * m * n, n);
  }
}

template <typename H>
std::vector<float> ToFloatVector(const H* src, int64_t count) {
  std::vector<float> out(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) out[static_cast<size_t>(i)] = ToCompute(src[i]);
  return out;
}

// ---------------------------------------------------------------- MatMul

// Output 0's range from inputs a_idx x b_idx (numpy matmul), when an input
// carries a range and both have known rank.
ge::Status SetMatMulRange(gert::InferShapeContext& ctx, size_t a_idx, size_t b_idx) {
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  const gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr || y->IsUnknownRank() || ctx.GetInputShape(a_idx)->IsUnknownRank() ||
      ctx.GetInputShape(b_idx)->IsUnknownRank()) {
    return ge::OkStatus();
  }
  ASSIGN_OR_RETURN(gert::ShapeRange ar, InputRange(ctx, a_idx));
  ASSIGN_OR_RETURN(gert::ShapeRange br, InputRange(ctx, b_idx));
  ge::StatusOr<gert::ShapeRange> r = MatMulShapeRange(ar, br);
  if (!r.ok()) {
    return ctx.Error("input ", a_idx, " range ", ShapeRangeString(ar), " and input ", b_idx,
                     " range ", ShapeRangeString(br), " conflict: ", r.status().message());
  }
  return SetOutputRange(ctx, 0, *std::move(r));
}

ge::Status InferMatMul(gert::InferShapeContext& ctx) {
  const gert::Shape* a = RequireShape(ctx, 0);
  const gert::Shape* b = RequireShape(ctx, 1);
  if (a == nullptr) return MissingInput(ctx, 0, "A");
  if (b == nullptr) return MissingInput(ctx, 1, "B");
  ASSIGN_OR_RETURN(MatMulPlan plan, PlanMatMul(ctx, *a, *b, false));
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 (Y) is missing");
  *y = plan.out;
  return SetMatMulRange(ctx, 0, 1);
}

ge::Status VerifyMatMul(gert::InferShapeContext& ctx) {
  return CheckSameType(ctx, ctx.GetInputDataType(0), ctx.GetInputDataType(1), "input 0 (A)",
                       "input 1 (B)");
}

ge::Status MatMulKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* a, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* b, GetKernelInput(ctx, 1));
  const ge::DataType dt = a->GetDataType();
  RETURN_IF_ERROR(CheckSameType(ctx, dt, b->GetDataType(), "input 0 (A)", "input 1 (B)"));
  ASSIGN_OR_RETURN(MatMulPlan plan, PlanMatMul(ctx, a->GetShape(), b->GetShape(), true));
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, plan.out, dt));
  if (plan.out.GetShapeSize() == 0) return ge::OkStatus();
  return WithNode(
      ctx, DispatchType<kTgAllFloat | kTgInt>(
               dt,
               [&](auto tag) -> ge::Status {
                 using T = typename decltype(tag)::type;
                 if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value) {
                   RunBatchedFloat<T>(plan, a->GetData<T>(), b->GetData<T>(), y->GetData<T>());
                 } else if constexpr (kIsHalf<T>) {
                   std::vector<float> af = ToFloatVector(a->GetData<T>(), a->GetShapeSize());
                   std::vector<float> bf = ToFloatVector(b->GetData<T>(), b->GetShapeSize());
                   const int64_t count = plan.out.GetShapeSize();
                   std::vector<float> yf(static_cast<size_t>(count));
                   RunBatchedFloat<float>(plan, af.data(), bf.data(), yf.data());
                   T* out = y->GetData<T>();
                   for (int64_t i = 0; i < count; ++i) {
                     out[i] = FromCompute<T>(yf[static_cast<size_t>(i)]);
                   }
                 } else if constexpr (std::is_same<T, int32_t>::value ||
                                      std::is_same<T, int64_t>::value ||
                                      std::is_same<T, uint32_t>::value ||
                                      std::is_same<T, uint64_t>::value) {
                   RunBatchedInt<T>(plan, a->GetData<T>(), b->GetData<T>(), y->GetData<T>());
                 } else {
                   return ge::NotSupported("data type ", DataTypeName(dt),
                                           " is not supported for MatMul");
                 }
                 return ge::OkStatus();
               },
               "MatMul input A"));
}

// ---------------------------------------------------------------- Gemm

struct GemmDims {
  int64_t m = -1, n = -1, k = -1;
};

// Validates A / B / C shapes for Gemm; dims may be -1 (infer).
ge::StatusOr<GemmDims> GemmShapes(const gert::ContextBase& ctx, const gert::Shape& a,
                                  const gert::Shape& b, const gert::Shape* c, bool trans_a,
                                  bool trans_b) {
  GemmDims d;
  if (a.IsUnknownRank() || b.IsUnknownRank()) return d;
  if (a.GetDimNum() != 2) {
    return ctx.Error("input 0 (A) must be 2-D, got shape ", a.ToString());
  }
  if (b.GetDimNum() != 2) {
    return ctx.Error("input 1 (B) must be 2-D, got shape ", b.ToString());
  }
  d.m = trans_a ? a.GetDim(1) : a.GetDim(0);
  const int64_t ka = trans_a ? a.GetDim(0) : a.GetDim(1);
  const int64_t kb = trans_b ? b.GetDim(1) : b.GetDim(0);
  d.n = trans_b ? b.GetDim(0) : b.GetDim(1);
  for (int64_t v : {d.m, ka, kb, d.n}) {
    if (v < -1) return ctx.Error("invalid dim ", v, " in A ", a.ToString(), " or B ", b.ToString());
  }
  if (ka >= 0 && kb >= 0 && ka != kb) {
    return ctx.Error("inner dimensions do not match: A ", a.ToString(),
                     (trans_a ? " (transA)" : ""), " has K=", ka, ", B ", b.ToString(),
                     (trans_b ? " (transB)" : ""), " has K=", kb);
  }
  d.k = ka >= 0 ? ka : kb;
  if (c != nullptr && !c->IsUnknownRank()) {
    const size_t rc = c->GetDimNum();
    if (rc > 2) {
      return ctx.Error("input 2 (C) ", c->ToString(), " has rank ", rc,
                       "; it must broadcast to [M, N] (rank <= 2)");
    }
    const int64_t want[2] = {d.m, d.n};
    for (size_t i = 0; i < rc; ++i) {
      const int64_t cd = c->GetDim(i);
      const int64_t w = want[2 - rc + i];
      if (cd < -1 || (cd >= 0 && cd != 1 && w >= 0 && cd != w)) {
        return ctx.Error("input 2 (C) ", c->ToString(), " does not broadcast to [M, N] = [", d.m,
                         ", ", d.n, "]");
      }
    }
  }
  return d;
}

ge::Status ReadGemmAttrs(const gert::ContextBase& ctx, bool* ta, bool* tb, float* alpha,
                         float* beta) {
  ASSIGN_OR_RETURN(int64_t trans_a, ctx.GetIntOr("transA", 0));
  ASSIGN_OR_RETURN(int64_t trans_b, ctx.GetIntOr("transB", 0));
  ASSIGN_OR_RETURN(*alpha, ctx.GetFloatOr("alpha", 1.0f));
  ASSIGN_OR_RETURN(*beta, ctx.GetFloatOr("beta", 1.0f));
  *ta = trans_a != 0;
  *tb = trans_b != 0;
  return ge::OkStatus();
}

ge::Status InferGemm(gert::InferShapeContext& ctx) {
  bool ta = false, tb = false;
  float alpha = 1, beta = 1;
  RETURN_IF_ERROR(ReadGemmAttrs(ctx, &ta, &tb, &alpha, &beta));
  const gert::Shape* a = ctx.GetInputShape(0);
  const gert::Shape* b = ctx.GetInputShape(1);
  if (a == nullptr) return MissingInput(ctx, 0, "A");
  if (b == nullptr) return MissingInput(ctx, 1, "B");
  ASSIGN_OR_RETURN(GemmDims d, GemmShapes(ctx, *a, *b, ctx.GetInputShape(2), ta, tb));
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 (Y) is missing");
  *y = gert::Shape{d.m, d.n};
  if (!AnyInputRange(ctx) || a->IsUnknownRank() || b->IsUnknownRank()) return ge::OkStatus();
  // M and N from A and B (after the transposes); K must agree; C broadcasts
  // into [M, N].
  ASSIGN_OR_RETURN(gert::ShapeRange ar, InputRange(ctx, 0));
  ASSIGN_OR_RETURN(gert::ShapeRange br, InputRange(ctx, 1));
  if (ar.size() != 2 || br.size() != 2) return ge::OkStatus();
  const DimRange m = ta ? ar[1] : ar[0], ka = ta ? ar[0] : ar[1];
  const DimRange kb = tb ? br[1] : br[0], n = tb ? br[0] : br[1];
  if (!IntersectDimRange(ka, kb).ok()) {
    return ctx.Error("K ranges of input 0 (A) ", DimRangeString(ka), " and input 1 (B) ",
                     DimRangeString(kb), " do not overlap");
  }
  gert::ShapeRange range = {m, n};
  const gert::Shape* c = ctx.GetInputShape(2);
  if (c != nullptr && !c->IsUnknownRank()) {
    ASSIGN_OR_RETURN(gert::ShapeRange cr, InputRange(ctx, 2));
    for (size_t i = 0; i < cr.size(); ++i) {
      // A C dim that may be 1 broadcasts; otherwise it is the output's.
      if (InDimRange(1, cr[i])) continue;
      DimRange& w = range[2 - cr.size() + i];
      ge::StatusOr<DimRange> both = IntersectDimRange(w, cr[i]);
      if (!both.ok()) {
        return ctx.Error("input 2 (C) range ", ShapeRangeString(cr),
                         " does not broadcast to the [M, N] range ", ShapeRangeString(range));
      }
      w = *both;
    }
  }
  return SetOutputRange(ctx, 0, std::move(range));
}

ge::Status VerifyGemm(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(CheckSameType(ctx, ctx.GetInputDataType(0), ctx.GetInputDataType(1),
                                "input 0 (A)", "input 1 (B)"));
  if (ctx.GetInputShape(2) != nullptr) {
    RETURN_IF_ERROR(CheckSameType(ctx, ctx.GetInputDataType(0), ctx.GetInputDataType(2),
                                  "input 0 (A)", "input 2 (C)"));
  }
  return ge::OkStatus();
}

// y[i, j] = scale * C broadcast (C of rank <= 2 with dims 1 or [M, N]).
template <typename T, typename S>
void FillFromC(const T* c, const gert::Shape& cs, int64_t m, int64_t n, S scale, S* y) {
  const size_t rc = cs.GetDimNum();
  const int64_t cm = rc == 2 ? cs.GetDim(0) : 1;
  const int64_t cn = rc >= 1 ? cs.GetDim(rc - 1) : 1;
  for (int64_t i = 0; i < m; ++i) {
    const T* crow = c + (cm == 1 ? 0 : i) * cn;
    S* yrow = y + i * n;
    for (int64_t j = 0; j < n; ++j) {
      yrow[j] = scale * static_cast<S>(ToCompute(crow[cn == 1 ? 0 : j]));
    }
  }
}

// Everything a typed Gemm run needs (shapes validated by the caller).
struct GemmRun {
  bool ta = false, tb = false;
  float alpha = 1, beta = 1;
  int64_t m = 0, n = 0, k = 0, lda = 0, ldb = 0;
  const gert::Tensor* a = nullptr;
  const gert::Tensor* b = nullptr;
  const gert::Tensor* c = nullptr;  // null when absent or beta == 0
  gert::Tensor* y = nullptr;
};

template <typename T>
void GemmFloat(const GemmRun& r) {
  T* out = r.y->GetData<T>();
  if (r.c != nullptr) FillFromC<T, T>(r.c->GetData<T>(), r.c->GetShape(), r.m, r.n, T(r.beta), out);
  const T beta_eff = r.c != nullptr ? T{1} : T{0};
  if constexpr (std::is_same<T, float>::value) {
    GemmF32(r.ta, r.tb, r.m, r.n, r.k, r.alpha, r.a->GetData<T>(), r.lda, r.b->GetData<T>(), r.ldb,
            beta_eff, out, r.n);
  } else {
    GemmF64(r.ta, r.tb, r.m, r.n, r.k, r.alpha, r.a->GetData<T>(), r.lda, r.b->GetData<T>(), r.ldb,
            beta_eff, out, r.n);
  }
}

template <typename T>
void GemmHalf(const GemmRun& r) {
  std::vector<float> af = ToFloatVector(r.a->GetData<T>(), r.a->GetShapeSize());
  std::vector<float> bf = ToFloatVector(r.b->GetData<T>(), r.b->GetShapeSize());
  const int64_t count = r.m * r.n;
  std::vector<float> yf(static_cast<size_t>(count), 0.0f);
  if (r.c != nullptr) {
    FillFromC<T, float>(r.c->GetData<T>(), r.c->GetShape(), r.m, r.n, r.beta, yf.data());
  }
  GemmF32(r.ta, r.tb, r.m, r.n, r.k, r.alpha, af.data(), r.lda, bf.data(), r.ldb,
          r.c != nullptr ? 1.0f : 0.0f, yf.data(), r.n);
  T* out = r.y->GetData<T>();
  for (int64_t i = 0; i < count; ++i) out[i] = FromCompute<T>(yf[static_cast<size_t>(i)]);
}

template <typename T>
void GemmInteger(const GemmRun& r) {
  T* out = r.y->GetData<T>();
  const bool integral_coeffs = r.alpha == std::trunc(r.alpha) && r.beta == std::trunc(r.beta) &&
                               std::fabs(r.alpha) < 2147483648.0f &&
                               std::fabs(r.beta) < 2147483648.0f;
  if (integral_coeffs) {
    // Exact integer arithmetic (wrap-around like MatMul).
    const T ia = static_cast<T>(static_cast<int64_t>(r.alpha));
    const T ib = static_cast<T>(static_cast<int64_t>(r.beta));
    if (r.c != nullptr) FillFromC<T, T>(r.c->GetData<T>(), r.c->GetShape(), r.m, r.n, T{1}, out);
    GemmInt<T>(r.ta, r.tb, r.m, r.n, r.k, ia, r.a->GetData<T>(), r.lda, r.b->GetData<T>(), r.ldb,
               r.c != nullptr ? ib : T{0}, out, r.n);
    return;
  }
  // Fractional alpha / beta: the product in integers, the scaling in double,
  // truncated and saturated back to T.
  const int64_t count = r.m * r.n;
  std::vector<T> prod(static_cast<size_t>(count));
  GemmInt<T>(r.ta, r.tb, r.m, r.n, r.k, T{1}, r.a->GetData<T>(), r.lda, r.b->GetData<T>(), r.ldb,
             T{0}, prod.data(), r.n);
  std::vector<double> cf(static_cast<size_t>(count), 0.0);
  if (r.c != nullptr) {
    FillFromC<T, double>(r.c->GetData<T>(), r.c->GetShape(), r.m, r.n, 1.0, cf.data());
  }
  for (int64_t i = 0; i < count; ++i) {
    const size_t s = static_cast<size_t>(i);
    out[i] = SaturateCast<T>(static_cast<double>(r.alpha) * static_cast<double>(prod[s]) +
                             static_cast<double>(r.beta) * cf[s]);
  }
}

ge::Status GemmKernel(gert::KernelContext& ctx) {
  GemmRun r;
  RETURN_IF_ERROR(ReadGemmAttrs(ctx, &r.ta, &r.tb, &r.alpha, &r.beta));
  ASSIGN_OR_RETURN(r.a, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(r.b, GetKernelInput(ctx, 1));
  if (ctx.GetInputTensor(2) != nullptr) {
    ASSIGN_OR_RETURN(r.c, GetKernelInput(ctx, 2));
  }
  const ge::DataType dt = r.a->GetDataType();
  RETURN_IF_ERROR(CheckSameType(ctx, dt, r.b->GetDataType(), "input 0 (A)", "input 1 (B)"));
  if (r.c != nullptr) {
    RETURN_IF_ERROR(CheckSameType(ctx, dt, r.c->GetDataType(), "input 0 (A)", "input 2 (C)"));
  }
  ASSIGN_OR_RETURN(GemmDims d, GemmShapes(ctx, r.a->GetShape(), r.b->GetShape(),
                                          r.c ? &r.c->GetShape() : nullptr, r.ta, r.tb));
  ASSIGN_OR_RETURN(r.y, PrepareOutput(ctx, 0, gert::Shape{d.m, d.n}, dt));
  r.m = d.m;
  r.n = d.n;
  r.k = d.k;
  if (r.m == 0 || r.n == 0) return ge::OkStatus();
  r.lda = r.a->GetShape().GetDim(1);
  r.ldb = r.b->GetShape().GetDim(1);
  if (r.beta == 0.0f) r.c = nullptr;
  return WithNode(ctx, DispatchType<kTgAllFloat | kTgInt>(
                           dt,
                           [&](auto tag) -> ge::Status {
                             using T = typename decltype(tag)::type;
                             if constexpr (std::is_floating_point<T>::value) {
                               GemmFloat<T>(r);
                             } else if constexpr (kIsHalf<T>) {
                               GemmHalf<T>(r);
                             } else if constexpr (sizeof(T) >= 4) {
                               GemmInteger<T>(r);
                             } else {
                               return ge::NotSupported("data type ", DataTypeName(dt),
                                                       " is not supported for Gemm");
                             }
                             return ge::OkStatus();
                           },
                           "Gemm input A"));
}

// ------------------------------------------------- MatMulInteger / QLinearMatMul

// Quantized operand geometry shared by MatMulInteger and QLinearMatMul.
struct QuantOperands {
  MatMulPlan plan;
  QuantParamIndex a_idx;  // per row of A
  QuantParamIndex b_idx;  // per column of B
};

// (x - zero_point) as int32 for every element of an int8 / uint8 operand.
// `per_row`: the parameter index runs over rows (A) rather than columns (B).
template <typename T, typename Z>
void Centered(const T* x, int64_t batches, int64_t rows, int64_t cols, const Z* zp,
              const QuantParamIndex& idx, bool per_row, int32_t* out) {
  for (int64_t bt = 0; bt < batches; ++bt) {
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t base = (bt * rows + r) * cols;
      if (per_row || idx.count == 1) {
        const int32_t z = zp ? static_cast<int32_t>(zp[idx.Index(bt, per_row ? r : 0)]) : 0;
        for (int64_t c = 0; c < cols; ++c) out[base + c] = static_cast<int32_t>(x[base + c]) - z;
      } else {
        for (int64_t c = 0; c < cols; ++c) {
          const int32_t z = zp ? static_cast<int32_t>(zp[idx.Index(bt, c)]) : 0;
          out[base + c] = static_cast<int32_t>(x[base + c]) - z;
        }
      }
    }
  }
}

// Reads an int8 / uint8 operand and its optional zero point into int32.
ge::Status CenterOperand(const gert::ContextBase& ctx, const gert::Tensor& x,
                         const gert::Tensor* zp, int64_t batches, int64_t rows, int64_t cols,
                         const QuantParamIndex& idx, bool per_row, std::vector<int32_t>* out) {
  out->assign(static_cast<size_t>(batches * rows * cols), 0);
  return DispatchType<kTgSigned | kTgUnsigned>(
      x.GetDataType(),
      [&](auto tag) -> ge::Status {
        using T = typename decltype(tag)::type;
        if constexpr (sizeof(T) != 1) {
          return ctx.Error("quantized operand must be INT8 or UINT8, got ",
                           DataTypeName(x.GetDataType()));
        } else {
          Centered<T, T>(x.GetData<T>(), batches, rows, cols, zp ? zp->GetData<T>() : nullptr, idx,
                         per_row, out->data());
          return ge::OkStatus();
        }
      },
      "quantized operand");
}

// Runs the int32 batched product of the centered operands into acc.
void QuantProduct(const MatMulPlan& p, const std::vector<int32_t>& a, const std::vector<int32_t>& b,
                  int32_t* acc) {
  RunBatchedInt<int32_t>(p, a.data(), b.data(), acc);
}

ge::Status CheckInt8(const gert::ContextBase& ctx, ge::DataType dt, const char* name) {
  if (dt != ge::DT_INT8 && dt != ge::DT_UINT8) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, name, " must be INT8 or UINT8, got ",
                             DataTypeName(dt));
  }
  return ge::OkStatus();
}

ge::Status InferMatMulInteger(gert::InferShapeContext& ctx) {
  const gert::Shape* a = ctx.GetInputShape(0);
  const gert::Shape* b = ctx.GetInputShape(1);
  if (a == nullptr) return MissingInput(ctx, 0, "A");
  if (b == nullptr) return MissingInput(ctx, 1, "B");
  ASSIGN_OR_RETURN(MatMulPlan plan, PlanMatMul(ctx, *a, *b, false));
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 (Y) is missing");
  *y = plan.out;
  return SetMatMulRange(ctx, 0, 1);
}

ge::Status InferMatMulIntegerType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ge::DT_INT32);
  return ge::OkStatus();
}

ge::Status VerifyMatMulInteger(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(CheckInt8(ctx, ctx.GetInputDataType(0), "input 0 (A)"));
  RETURN_IF_ERROR(CheckInt8(ctx, ctx.GetInputDataType(1), "input 1 (B)"));
  if (ctx.GetInputShape(2) != nullptr) {
    RETURN_IF_ERROR(CheckSameType(ctx, ctx.GetInputDataType(0), ctx.GetInputDataType(2),
                                  "input 0 (A)", "input 2 (a_zero_point)"));
  }
  if (ctx.GetInputShape(3) != nullptr) {
    RETURN_IF_ERROR(CheckSameType(ctx, ctx.GetInputDataType(1), ctx.GetInputDataType(3),
                                  "input 1 (B)", "input 3 (b_zero_point)"));
  }
  return ge::OkStatus();
}

ge::Status MatMulIntegerKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* a, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* b, GetKernelInput(ctx, 1));
  const gert::Tensor* az = nullptr;
  const gert::Tensor* bz = nullptr;
  if (ctx.GetInputTensor(2) != nullptr) {
    ASSIGN_OR_RETURN(az, GetKernelInput(ctx, 2));
  }
  if (ctx.GetInputTensor(3) != nullptr) {
    ASSIGN_OR_RETURN(bz, GetKernelInput(ctx, 3));
  }
  RETURN_IF_ERROR(CheckInt8(ctx, a->GetDataType(), "input 0 (A)"));
  RETURN_IF_ERROR(CheckInt8(ctx, b->GetDataType(), "input 1 (B)"));
  if (az) {
    RETURN_IF_ERROR(CheckSameType(ctx, a->GetDataType(), az->GetDataType(), "input 0 (A)",
                                  "input 2 (a_zero_point)"));
  }
  if (bz) {
    RETURN_IF_ERROR(CheckSameType(ctx, b->GetDataType(), bz->GetDataType(), "input 1 (B)",
                                  "input 3 (b_zero_point)"));
  }
  ASSIGN_OR_RETURN(MatMulPlan p, PlanMatMul(ctx, a->GetShape(), b->GetShape(), true));
  QuantParamIndex ai, bi;
  if (az) {
    ASSIGN_OR_RETURN(
        ai, MakeQuantParamIndex(ctx, az->GetShape(), p.m, p.a_batches, "input 2 (a_zero_point)"));
  }
  if (bz) {
    ASSIGN_OR_RETURN(
        bi, MakeQuantParamIndex(ctx, bz->GetShape(), p.n, p.b_batches, "input 3 (b_zero_point)"));
  }
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, p.out, ge::DT_INT32));
  if (p.out.GetShapeSize() == 0) return ge::OkStatus();
  std::vector<int32_t> ac, bc;
  RETURN_IF_ERROR(WithNode(ctx, CenterOperand(ctx, *a, az, p.a_batches, p.m, p.k, ai, true, &ac)));
  RETURN_IF_ERROR(WithNode(ctx, CenterOperand(ctx, *b, bz, p.b_batches, p.k, p.n, bi, false, &bc)));
  QuantProduct(p, ac, bc, y->GetData<int32_t>());
  return ge::OkStatus();
}

// QLinearMatMul inputs: a, a_scale, a_zero_point, b, b_scale, b_zero_point,
// y_scale, y_zero_point.
ge::Status InferQLinearMatMul(gert::InferShapeContext& ctx) {
  const gert::Shape* a = ctx.GetInputShape(0);
  const gert::Shape* b = ctx.GetInputShape(3);
  if (a == nullptr) return MissingInput(ctx, 0, "a");
  if (b == nullptr) return MissingInput(ctx, 3, "b");
  ASSIGN_OR_RETURN(MatMulPlan plan, PlanMatMul(ctx, *a, *b, false, "input 0 (a)", "input 3 (b)"));
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 (y) is missing");
  *y = plan.out;
  return SetMatMulRange(ctx, 0, 3);
}

ge::Status InferQLinearMatMulType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ctx.GetInputDataType(7));
  return ge::OkStatus();
}

ge::Status VerifyQLinearMatMul(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(CheckInt8(ctx, ctx.GetInputDataType(0), "input 0 (a)"));
  RETURN_IF_ERROR(CheckInt8(ctx, ctx.GetInputDataType(3), "input 3 (b)"));
  RETURN_IF_ERROR(CheckInt8(ctx, ctx.GetInputDataType(7), "input 7 (y_zero_point)"));
  RETURN_IF_ERROR(CheckSameType(ctx, ctx.GetInputDataType(0), ctx.GetInputDataType(2),
                                "input 0 (a)", "input 2 (a_zero_point)"));
  RETURN_IF_ERROR(CheckSameType(ctx, ctx.GetInputDataType(3), ctx.GetInputDataType(5),
                                "input 3 (b)", "input 5 (b_zero_point)"));
  RETURN_IF_ERROR(CheckType(ctx, ctx.GetInputDataType(1), ge::DT_FLOAT, "input 1 (a_scale)"));
  RETURN_IF_ERROR(CheckType(ctx, ctx.GetInputDataType(4), ge::DT_FLOAT, "input 4 (b_scale)"));
  RETURN_IF_ERROR(CheckType(ctx, ctx.GetInputDataType(6), ge::DT_FLOAT, "input 6 (y_scale)"));
  return ge::OkStatus();
}

template <typename Y>
void Requantize(const MatMulPlan& p, const int32_t* acc, const float* as, const QuantParamIndex& ai,
                const float* bs, const QuantParamIndex& bi, float ys, int32_t yz, Y* y) {
  const bool per_tensor = ai.count == 1 && bi.count == 1;
  const float scale0 = as[0] * bs[0] / ys;
  for (int64_t bt = 0; bt < p.batch; ++bt) {
    const int64_t ab = p.ABatch(bt);
    const int64_t bb = p.BBatch(bt);
    for (int64_t i = 0; i < p.m; ++i) {
      const float a_scale = as[ai.Index(ab, i)];
      const int64_t base = (bt * p.m + i) * p.n;
      for (int64_t j = 0; j < p.n; ++j) {
        const float scale = per_tensor ? scale0 : a_scale * bs[bi.Index(bb, j)] / ys;
        const float v = RoundHalfEven(static_cast<float>(acc[base + j]) * scale);
        y[base + j] = SaturateCast<Y>(static_cast<double>(v) + yz);
      }
    }
  }
}

ge::Status QLinearMatMulKernel(gert::KernelContext& ctx) {
  const gert::Tensor* in[8];
  for (size_t i = 0; i < 8; ++i) {
    ASSIGN_OR_RETURN(in[i], GetKernelInput(ctx, i));
  }
  const gert::Tensor& a = *in[0];
  const gert::Tensor& b = *in[3];
  RETURN_IF_ERROR(CheckInt8(ctx, a.GetDataType(), "input 0 (a)"));
  RETURN_IF_ERROR(CheckInt8(ctx, b.GetDataType(), "input 3 (b)"));
  RETURN_IF_ERROR(CheckInt8(ctx, in[7]->GetDataType(), "input 7 (y_zero_point)"));
  RETURN_IF_ERROR(CheckSameType(ctx, a.GetDataType(), in[2]->GetDataType(), "input 0 (a)",
                                "input 2 (a_zero_point)"));
  RETURN_IF_ERROR(CheckSameType(ctx, b.GetDataType(), in[5]->GetDataType(), "input 3 (b)",
                                "input 5 (b_zero_point)"));
  RETURN_IF_ERROR(CheckType(ctx, in[1]->GetDataType(), ge::DT_FLOAT, "input 1 (a_scale)"));
  RETURN_IF_ERROR(CheckType(ctx, in[4]->GetDataType(), ge::DT_FLOAT, "input 4 (b_scale)"));
  RETURN_IF_ERROR(CheckType(ctx, in[6]->GetDataType(), ge::DT_FLOAT, "input 6 (y_scale)"));
  ASSIGN_OR_RETURN(MatMulPlan p,
                   PlanMatMul(ctx, a.GetShape(), b.GetShape(), true, "input 0 (a)", "input 3 (b)"));
  ASSIGN_OR_RETURN(QuantParamIndex ai, MakeQuantParamIndex(ctx, in[2]->GetShape(), p.m, p.a_batches,
                                                           "input 2 (a_zero_point)"));
  ASSIGN_OR_RETURN(QuantParamIndex bi, MakeQuantParamIndex(ctx, in[5]->GetShape(), p.n, p.b_batches,
                                                           "input 5 (b_zero_point)"));
  if (in[1]->GetShapeSize() != ai.count) {
    return ctx.Error("input 1 (a_scale) ", in[1]->GetShape().ToString(),
                     " must have as many elements as input 2 (a_zero_point) ",
                     in[2]->GetShape().ToString());
  }
  if (in[4]->GetShapeSize() != bi.count) {
    return ctx.Error("input 4 (b_scale) ", in[4]->GetShape().ToString(),
                     " must have as many elements as input 5 (b_zero_point) ",
                     in[5]->GetShape().ToString());
  }
  if (in[6]->GetShapeSize() != 1 || in[7]->GetShapeSize() != 1) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported,
                             "y_scale and y_zero_point must have one element (per tensor), got ",
                             in[6]->GetShape().ToString(), " and ", in[7]->GetShape().ToString());
  }
  const float ys = in[6]->GetData<float>()[0];
  if (!(ys > 0.0f) || !std::isfinite(ys)) {
    return ctx.Error("input 6 (y_scale) must be a positive finite number, got ", ys);
  }
  const ge::DataType ydt = in[7]->GetDataType();
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, p.out, ydt));
  if (p.out.GetShapeSize() == 0) return ge::OkStatus();
  std::vector<int32_t> ac, bc;
  RETURN_IF_ERROR(
      WithNode(ctx, CenterOperand(ctx, a, in[2], p.a_batches, p.m, p.k, ai, true, &ac)));
  RETURN_IF_ERROR(
      WithNode(ctx, CenterOperand(ctx, b, in[5], p.b_batches, p.k, p.n, bi, false, &bc)));
  std::vector<int32_t> acc(static_cast<size_t>(p.out.GetShapeSize()));
  QuantProduct(p, ac, bc, acc.data());
  const float* as = in[1]->GetData<float>();
  const float* bs = in[4]->GetData<float>();
  if (ydt == ge::DT_UINT8) {
    Requantize<uint8_t>(p, acc.data(), as, ai, bs, bi, ys, in[7]->GetData<uint8_t>()[0],
                        y->GetData<uint8_t>());
  } else {
    Requantize<int8_t>(p, acc.data(), as, ai, bs, bi, ys, in[7]->GetData<int8_t>()[0],
                       y->GetData<int8_t>());
  }
  return ge::OkStatus();
}

}  // namespace

REG_OP(MatMul)
    .Input("A", MatMulTypes())
    .Input("B", MatMulTypes())
    .Output("Y", MatMulTypes())
    .InferShape(InferMatMul)
    .Verify(VerifyMatMul);
REG_KERNEL(MatMul, ge::kEngineHostCpu).Fn(MatMulKernel);

REG_OP(Gemm)
    .Input("A", MatMulTypes())
    .Input("B", MatMulTypes())
    .OptionalInput("C", MatMulTypes())
    .Output("Y", MatMulTypes())
    .Attr("alpha", ge::AttrValue::CreateFrom<float>(1.0f))
    .Attr("beta", ge::AttrValue::CreateFrom<float>(1.0f))
    .Attr("transA", ge::AttrValue::CreateFrom<int64_t>(0))
    .Attr("transB", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferGemm)
    .Verify(VerifyGemm);
REG_KERNEL(Gemm, ge::kEngineHostCpu).Fn(GemmKernel);

REG_OP(MatMulInteger)
    .Input("A", Int8Types())
    .Input("B", Int8Types())
    .OptionalInput("a_zero_point", Int8Types())
    .OptionalInput("b_zero_point", Int8Types())
    .Output("Y", ge::TensorType(ge::DT_INT32))
    .InferShape(InferMatMulInteger)
    .InferDataType(InferMatMulIntegerType)
    .Verify(VerifyMatMulInteger);
REG_KERNEL(MatMulInteger, ge::kEngineHostCpu).Fn(MatMulIntegerKernel);

REG_OP(QLinearMatMul)
    .Input("a", Int8Types())
    .Input("a_scale", ge::TensorType(ge::DT_FLOAT))
    .Input("a_zero_point", Int8Types())
    .Input("b", Int8Types())
    .Input("b_scale", ge::TensorType(ge::DT_FLOAT))
    .Input("b_zero_point", Int8Types())
    .Input("y_scale", ge::TensorType(ge::DT_FLOAT))
    .Input("y_zero_point", Int8Types())
    .Output("y", Int8Types())
    .InferShape(InferQLinearMatMul)
    .InferDataType(InferQLinearMatMulType)
    .Verify(VerifyQLinearMatMul);
REG_KERNEL(QLinearMatMul, ge::kEngineHostCpu).Fn(QLinearMatMulKernel);

}  // namespace ops
