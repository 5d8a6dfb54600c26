// ops/elementwise/elementwise_util.h
//
// Kernel templates shared by the elementwise, logical and cast families:
// type sets for REG_OP constraints, a verify function for "all inputs have
// the same type", InferDataTypeBool, and generic unary / binary / variadic
// host kernels parameterised by a functor.
//
// Functor contract (a struct deriving from ElementwiseOpBase):
//   ge::Status Init(const gert::ContextBase& ctx, ge::DataType dt);  // attrs
//   template <typename C> C operator()(C x) const;         // unary
//   template <typename C> C operator()(C a, C b) const;    // binary
// C is ComputeType<T> (float for FLOAT16 / BF16). kBoolOut = true makes the
// output BOOL (the functor returns bool). Binary functors may define
//   template <typename T> ge::Status CheckRhs(const gert::ContextBase&,
//                                              const T* b, int64_t n) const;
// to reject right-hand values before the loop (integer division by zero).
//
// Example
//   struct NegOp : ElementwiseOpBase {
//     template <typename C> C operator()(C x) const { return -x; }
//   };
//   REG_OP(Neg)..; REG_KERNEL(Neg, ge::kEngineHostCpu).Fn(UnaryKernel<kTgSigned | kTgAllFloat,
//   NegOp>);
#ifndef OPS_ELEMENTWISE_ELEMENTWISE_UTIL_H_
#define OPS_ELEMENTWISE_ELEMENTWISE_UTIL_H_

#include <cstdint>
#include <type_traits>
#include <vector>

#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "ops/common/op_util.h"

namespace ops {

// ---------------------------------------------------------------- type sets

// FLOAT, FLOAT16, DOUBLE, BF16 (BF16 is accepted wherever a float is: it is
// computed in float).
inline ge::TensorType FloatTypes() {
  return ge::TensorType{ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_DOUBLE, ge::DT_BF16};
}
inline ge::TensorType SignedIntTypes() {
  return ge::TensorType{ge::DT_INT8, ge::DT_INT16, ge::DT_INT32, ge::DT_INT64};
}
inline ge::TensorType UnsignedIntTypes() {
  return ge::TensorType{ge::DT_UINT8, ge::DT_UINT16, ge::DT_UINT32, ge::DT_UINT64};
}
// Every integer and float type.
inline ge::TensorType NumericTypes() {
  return ge::TensorType{ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_DOUBLE, ge::DT_BF16,
                        ge::DT_INT8,  ge::DT_INT16,   ge::DT_INT32,  ge::DT_INT64,
                        ge::DT_UINT8, ge::DT_UINT16,  ge::DT_UINT32, ge::DT_UINT64};
}
// Signed integers and floats.
inline ge::TensorType SignedNumericTypes() {
  return ge::TensorType{ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_DOUBLE, ge::DT_BF16,
                        ge::DT_INT8,  ge::DT_INT16,   ge::DT_INT32,  ge::DT_INT64};
}
inline ge::TensorType NumericBoolTypes() {
  return ge::TensorType{ge::DT_FLOAT,  ge::DT_FLOAT16, ge::DT_DOUBLE, ge::DT_BF16,  ge::DT_INT8,
                        ge::DT_INT16,  ge::DT_INT32,   ge::DT_INT64,  ge::DT_UINT8, ge::DT_UINT16,
                        ge::DT_UINT32, ge::DT_UINT64,  ge::DT_BOOL};
}
inline ge::TensorType BoolTypes() { return ge::TensorType{ge::DT_BOOL}; }

// ------------------------------------------------------ verify / infer dtype

// Every present input has input 0's dtype; TypeMismatch naming the node, the
// index and both types otherwise.
inline ge::Status VerifySameInputTypes(gert::InferShapeContext& ctx) {
  const ge::DataType dt0 = ctx.GetInputDataType(0);
  for (size_t i = 1; i < ctx.GetInputNum(); ++i) {
    if (ctx.GetInputShape(i) == nullptr) continue;  // absent optional input
    const ge::DataType dt = ctx.GetInputDataType(i);
    if (dt != dt0) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " is ", DataTypeName(dt),
                               " but input 0 is ", DataTypeName(dt0),
                               "; they must have the same type");
    }
  }
  return ge::OkStatus();
}

// Every output is BOOL.
inline ge::Status InferDataTypeBool(gert::InferShapeContext& ctx) {
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) ctx.SetOutputDataType(i, ge::DT_BOOL);
  return ge::OkStatus();
}

// -------------------------------------------------------------- functors

struct ElementwiseOpBase {
  static constexpr bool kBoolOut = false;
  ge::Status Init(const gert::ContextBase& /*ctx*/, ge::DataType /*dt*/) { return ge::OkStatus(); }
  template <typename T>
  ge::Status CheckRhs(const gert::ContextBase& /*ctx*/, const T* /*b*/, int64_t /*n*/) const {
    return ge::OkStatus();
  }
};

namespace elementwise_internal {

template <typename T, typename Op>
using OutType = std::conditional_t<Op::kBoolOut, bool, T>;

template <typename T, typename Op, typename R>
inline OutType<T, Op> Store(R r) {
  if constexpr (Op::kBoolOut) {
    return static_cast<bool>(r);
  } else {
    return FromCompute<T>(static_cast<ComputeType<T>>(r));
  }
}

// y[o] = op(a[ia], b[ib]) over a broadcast, with flat fast paths.
template <typename T, typename Op>
void RunBinary(const BroadcastIndex& bi, const T* a, const T* b, OutType<T, Op>* y, const Op& op) {
  const int64_t n = bi.output_size();
  if (bi.IsSameAsOutput(0) && bi.IsSameAsOutput(1)) {
    for (int64_t i = 0; i < n; ++i) y[i] = Store<T, Op>(op(ToCompute(a[i]), ToCompute(b[i])));
  } else if (bi.IsSameAsOutput(0) && bi.IsScalar(1)) {
    const auto bv = ToCompute(b[0]);
    for (int64_t i = 0; i < n; ++i) y[i] = Store<T, Op>(op(ToCompute(a[i]), bv));
  } else if (bi.IsScalar(0) && bi.IsSameAsOutput(1)) {
    const auto av = ToCompute(a[0]);
    for (int64_t i = 0; i < n; ++i) y[i] = Store<T, Op>(op(av, ToCompute(b[i])));
  } else {
    bi.ForEach2([&](int64_t o, int64_t ia, int64_t ib) {
      y[o] = Store<T, Op>(op(ToCompute(a[ia]), ToCompute(b[ib])));
    });
  }
}

}  // namespace elementwise_internal

// ----------------------------------------------------------------- kernels

// y = op(x) for every element of input 0.
template <uint32_t kGroups, typename Op>
ge::Status UnaryKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const ge::DataType dt = x->GetDataType();
  if (!IsInGroups(dt, kGroups)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input 0 data type ", DataTypeName(dt),
                             " is not supported");
  }
  Op op;
  RETURN_IF_ERROR(op.Init(ctx, dt));
  ASSIGN_OR_RETURN(gert::Tensor* y,
                   PrepareOutput(ctx, 0, x->GetShape(), Op::kBoolOut ? ge::DT_BOOL : dt));
  const int64_t n = x->GetShapeSize();
  return WithNode(ctx, DispatchType<kGroups>(
                           dt,
                           [&](auto tag) {
                             using T = typename decltype(tag)::type;
                             using Out = elementwise_internal::OutType<T, Op>;
                             const T* in = x->GetData<T>();
                             Out* out = y->GetData<Out>();
                             for (int64_t i = 0; i < n; ++i) {
                               out[i] = elementwise_internal::Store<T, Op>(op(ToCompute(in[i])));
                             }
                             return ge::OkStatus();
                           },
                           "input 0"));
}

// y = op(a, b) with numpy broadcasting; a and b must have the same dtype.
template <uint32_t kGroups, typename Op>
ge::Status BinaryKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* a, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* b, GetKernelInput(ctx, 1));
  const ge::DataType dt = a->GetDataType();
  if (b->GetDataType() != dt) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input 1 is ",
                             DataTypeName(b->GetDataType()), " but input 0 is ", DataTypeName(dt));
  }
  if (!IsInGroups(dt, kGroups)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input data type ", DataTypeName(dt),
                             " is not supported");
  }
  gert::Shape ys;
  ge::Status st = InferBroadcastShape(a->GetShape(), b->GetShape(), &ys);
  if (!st.ok()) return ctx.Error("inputs 0 and 1: ", st.message());
  Op op;
  RETURN_IF_ERROR(op.Init(ctx, dt));
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, ys, Op::kBoolOut ? ge::DT_BOOL : dt));
  ge::StatusOr<BroadcastIndex> bi = BroadcastIndex::Create({&a->GetShape(), &b->GetShape()}, ys);
  if (!bi.ok()) return WithNode(ctx, bi.status());
  return WithNode(ctx, DispatchType<kGroups>(
                           dt,
                           [&](auto tag) {
                             using T = typename decltype(tag)::type;
                             using Out = elementwise_internal::OutType<T, Op>;
                             const T* pb = b->GetData<T>();
                             RETURN_IF_ERROR(op.CheckRhs(ctx, pb, b->GetShapeSize()));
                             elementwise_internal::RunBinary<T, Op>(*bi, a->GetData<T>(), pb,
                                                                    y->GetData<Out>(), op);
                             return ge::OkStatus();
                           },
                           "the inputs"));
}

// Variadic reduction over inputs with broadcasting (Max, Min, Sum, Mean):
//   acc = x0; acc = op(acc, xi) for i >= 1; y = op.Finish(acc, n).
// The functor is binary and also defines
//   template <typename C> C Finish(C acc, int64_t n) const;
// Accumulates in ComputeType (float for FLOAT16 / BF16).
template <uint32_t kGroups, typename Op>
ge::Status VariadicKernel(gert::KernelContext& ctx) {
  const size_t n = ctx.GetInputNum();
  if (n == 0) return ctx.Error("needs at least one input");
  std::vector<const gert::Tensor*> xs(n);
  std::vector<const gert::Shape*> shapes(n);
  for (size_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(xs[i], GetKernelInput(ctx, i));
    shapes[i] = &xs[i]->GetShape();
    if (xs[i]->GetDataType() != xs[0]->GetDataType()) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " is ",
                               DataTypeName(xs[i]->GetDataType()), " but input 0 is ",
                               DataTypeName(xs[0]->GetDataType()));
    }
  }
  const ge::DataType dt = xs[0]->GetDataType();
  if (!IsInGroups(dt, kGroups)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input data type ", DataTypeName(dt),
                             " is not supported");
  }
  gert::Shape ys;
  ge::Status st = InferBroadcastShape(shapes, &ys);
  if (!st.ok()) return ctx.Error(st.message());
  Op op;
  RETURN_IF_ERROR(op.Init(ctx, dt));
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, ys, dt));
  const int64_t total = ys.GetShapeSize();
  return WithNode(
      ctx,
      DispatchType<kGroups>(
          dt,
          [&](auto tag) -> ge::Status {
            using T = typename decltype(tag)::type;
            using C = ComputeType<T>;
            T* out = y->GetData<T>();
            std::vector<C> scratch;
            C* acc;
            if constexpr (std::is_same_v<C, T>) {
              acc = out;
            } else {
              scratch.resize(static_cast<size_t>(total));
              acc = scratch.data();
            }
            for (size_t i = 0; i < n; ++i) {
              const T* x = xs[i]->GetData<T>();
              ASSIGN_OR_RETURN(BroadcastIndex bi, BroadcastIndex::Create({shapes[i]}, ys));
              if (i == 0) {
                if (bi.IsSameAsOutput(0)) {
                  for (int64_t o = 0; o < total; ++o) acc[o] = ToCompute(x[o]);
                } else {
                  bi.ForEach([&](int64_t o, const int64_t* off) { acc[o] = ToCompute(x[off[0]]); });
                }
              } else if (bi.IsSameAsOutput(0)) {
                for (int64_t o = 0; o < total; ++o) acc[o] = op(acc[o], ToCompute(x[o]));
              } else {
                bi.ForEach([&](int64_t o, const int64_t* off) {
                  acc[o] = op(acc[o], ToCompute(x[off[0]]));
                });
              }
            }
            for (int64_t o = 0; o < total; ++o) {
              out[o] = FromCompute<T>(op.Finish(acc[o], static_cast<int64_t>(n)));
            }
            return ge::OkStatus();
          },
          "the inputs"));
}

}  // namespace ops

#endif  // OPS_ELEMENTWISE_ELEMENTWISE_UTIL_H_
