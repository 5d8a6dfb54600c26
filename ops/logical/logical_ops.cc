// ops/logical/logical_ops.cc
//
// Logical, comparison and selection ops (ONNX opset 17 semantics), all with
// numpy broadcasting:
//   And Or Xor           BOOL x BOOL -> BOOL
//   Not                  BOOL -> BOOL
//   Equal                BOOL / ints / floats -> BOOL
//   Greater GreaterOrEqual Less LessOrEqual
//                        ints / floats -> BOOL (NaN compares false)
//   Where(condition, X, Y)
//                        condition BOOL; X, Y any type (strings, complex and
//                        bool included); output = X's type, shape = the
//                        3-way broadcast.
// FLOAT16 / BF16 are compared as floats.
#include <cstdint>
#include <string>

#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/elementwise/elementwise_util.h"

namespace ops {
namespace {

struct AndOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C a, C b) const {
    return a && b;
  }
};
struct OrOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C a, C b) const {
    return a || b;
  }
};
struct XorOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C a, C b) const {
    return a != b;
  }
};
struct NotOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C a) const {
    return !a;
  }
};

#define OPS_COMPARE_OP_(Name, expr)        \
  struct Name : ElementwiseOpBase {        \
    static constexpr bool kBoolOut = true; \
    template <typename C>                  \
    bool operator()(C a, C b) const {      \
      return expr;                         \
    }                                      \
  };
OPS_COMPARE_OP_(EqualOp, a == b)
OPS_COMPARE_OP_(GreaterOp, a > b)
OPS_COMPARE_OP_(GreaterOrEqualOp, a >= b)
OPS_COMPARE_OP_(LessOp, a < b)
OPS_COMPARE_OP_(LessOrEqualOp, a <= b)
#undef OPS_COMPARE_OP_

// ---------------------------------------------------------------- Where

ge::TensorType WhereTypes() {
  return ge::TensorType{ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_DOUBLE,    ge::DT_BF16,
                        ge::DT_INT8,  ge::DT_INT16,   ge::DT_INT32,     ge::DT_INT64,
                        ge::DT_UINT8, ge::DT_UINT16,  ge::DT_UINT32,    ge::DT_UINT64,
                        ge::DT_BOOL,  ge::DT_STRING,  ge::DT_COMPLEX64, ge::DT_COMPLEX128};
}

ge::Status VerifyWhere(gert::InferShapeContext& ctx) {
  if (ctx.GetInputNum() < 3) return ctx.Error("needs 3 inputs, got ", ctx.GetInputNum());
  if (ctx.GetInputDataType(0) != ge::DT_BOOL) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch,
                             "input 0 (condition) must be DT_BOOL, got ",
                             DataTypeName(ctx.GetInputDataType(0)));
  }
  if (ctx.GetInputDataType(1) != ctx.GetInputDataType(2)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input 1 (X) is ",
                             DataTypeName(ctx.GetInputDataType(1)), " but input 2 (Y) is ",
                             DataTypeName(ctx.GetInputDataType(2)));
  }
  return ge::OkStatus();
}

ge::Status InferWhereDataType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ctx.GetInputDataType(1));
  return ge::OkStatus();
}

ge::Status WhereKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* c, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Tensor* y, GetKernelInput(ctx, 2));
  if (c->GetDataType() != ge::DT_BOOL) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch,
                             "input 0 (condition) must be DT_BOOL, got ",
                             DataTypeName(c->GetDataType()));
  }
  const ge::DataType dt = x->GetDataType();
  if (y->GetDataType() != dt) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input 1 (X) is ", DataTypeName(dt),
                             " but input 2 (Y) is ", DataTypeName(y->GetDataType()));
  }
  const gert::Shape* shapes[3] = {&c->GetShape(), &x->GetShape(), &y->GetShape()};
  gert::Shape out_shape;
  ge::Status st = InferBroadcastShape(absl::MakeConstSpan(shapes), &out_shape);
  if (!st.ok()) return ctx.Error(st.message());
  ASSIGN_OR_RETURN(gert::Tensor* out, PrepareOutput(ctx, 0, out_shape, dt));
  ge::StatusOr<BroadcastIndex> bi = BroadcastIndex::Create(absl::MakeConstSpan(shapes), out_shape);
  if (!bi.ok()) return WithNode(ctx, bi.status());
  const bool* pc = c->GetData<bool>();
  return WithNode(ctx, DispatchType<kTgAll>(
                           dt,
                           [&](auto tag) {
                             using T = typename decltype(tag)::type;
                             const T* px = x->GetData<T>();
                             const T* py = y->GetData<T>();
                             T* po = out->GetData<T>();
                             bi->ForEach3([&](int64_t o, int64_t ic, int64_t ix, int64_t iy) {
                               po[o] = pc[ic] ? px[ix] : py[iy];
                             });
                             return ge::OkStatus();
                           },
                           "inputs X / Y"));
}

// ---------------------------------------------------------- registration

#define OPS_REG_BOOL_BINARY_(Type, OpT) \
  REG_OP(Type)                          \
      .Input("A", BoolTypes())          \
      .Input("B", BoolTypes())          \
      .Output("C", BoolTypes())         \
      .InferShape(InferBroadcast)       \
      .InferDataType(InferDataTypeBool) \
      .Verify(VerifySameInputTypes);    \
  REG_KERNEL(Type, ge::kEngineHostCpu).Fn(BinaryKernel<kTgBool, OpT>);
OPS_REG_BOOL_BINARY_(And, AndOp)
OPS_REG_BOOL_BINARY_(Or, OrOp)
OPS_REG_BOOL_BINARY_(Xor, XorOp)
#undef OPS_REG_BOOL_BINARY_

REG_OP(Not)
    .Input("X", BoolTypes())
    .Output("Y", BoolTypes())
    .InferShape(InferSameAsInput0)
    .InferDataType(InferDataTypeBool);
REG_KERNEL(Not, ge::kEngineHostCpu).Fn(UnaryKernel<kTgBool, NotOp>);

REG_OP(Equal)
    .Input("A", NumericBoolTypes())
    .Input("B", NumericBoolTypes())
    .Output("C", BoolTypes())
    .InferShape(InferBroadcast)
    .InferDataType(InferDataTypeBool)
    .Verify(VerifySameInputTypes);
REG_KERNEL(Equal, ge::kEngineHostCpu).Fn(BinaryKernel<kTgRealBool, EqualOp>);

#define OPS_REG_COMPARE_(Type, OpT)     \
  REG_OP(Type)                          \
      .Input("A", NumericTypes())       \
      .Input("B", NumericTypes())       \
      .Output("C", BoolTypes())         \
      .InferShape(InferBroadcast)       \
      .InferDataType(InferDataTypeBool) \
      .Verify(VerifySameInputTypes);    \
  REG_KERNEL(Type, ge::kEngineHostCpu).Fn(BinaryKernel<kTgReal, OpT>);
OPS_REG_COMPARE_(Greater, GreaterOp)
OPS_REG_COMPARE_(GreaterOrEqual, GreaterOrEqualOp)
OPS_REG_COMPARE_(Less, LessOp)
OPS_REG_COMPARE_(LessOrEqual, LessOrEqualOp)
#undef OPS_REG_COMPARE_

REG_OP(Where)
    .Input("condition", BoolTypes())
    .Input("X", WhereTypes())
    .Input("Y", WhereTypes())
    .Output("output", WhereTypes())
    .InferShape(InferBroadcast)
    .InferDataType(InferWhereDataType)
    .Verify(VerifyWhere);
REG_KERNEL(Where, ge::kEngineHostCpu).Fn(WhereKernel);

}  // namespace
}  // namespace ops
