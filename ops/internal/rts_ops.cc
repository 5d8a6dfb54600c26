// ops/internal/rts_ops.cc
//
// Runtime-services (RTS) ops the compiler's lowering and stream assignment
// insert, with infer shape and simple kernels on the RTS engine
// (ge::kEngineRts); the data-forwarding ones also get a host CPU kernel so a
// host interpreter can run lowered graphs.
//
// Stream / event / label ops (no data outputs; kernels validate and do
// nothing else on the host):
//   StreamSwitch(x1, x2)[switch_condition]   RT condition code 0..5 (EQUAL,
//       NOT_EQUAL, GREATER, GREATER_OR_EQUAL, LESS, LESS_OR_EQUAL); x1 and x2
//       are one-element INT32 / INT64 tensors of one dtype.
//   StreamActive[active_stream_list], Send[event_id], Recv[event_id],
//   LabelSet[_label_switch_index], LabelGoto[_label_switch_index],
//   LabelSwitchByIndex(index)[_label_switch_list]: index (INT32 / UINT32,
//       one element) must be < the list size.
// Copies:
//   MemcpyAsync(x) -> y, MemcpyAddrAsync(x) -> y.
// TF-style control-flow primitives (used by control-flow lowering):
//   Enter(x)[frame_name, is_constant] -> y, Exit(x) -> y,
//   NextIteration(x) -> y, LoopCond(x: BOOL, one element) -> y: forward x.
//   Switch(data, pred: BOOL) -> (output_false, output_true): data goes to
//       output 1 when pred is true, else output 0. The other output is dead:
//       its tensor's data pointer is set to null (size 0).
//   Merge(x*) -> (y, value_index: INT32 scalar), StreamMerge likewise:
//       forwards the first available input (present, with non-null data:
//       dead inputs are absent or have null data) and its index.
//       Infer: y's dtype is the inputs' (they must agree); its shape the
//       inputs' shapes merged (differing dims -> -1, differing ranks ->
//       unknown rank).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"
#include "ops/control/control_util.h"

namespace ops {
namespace {

ge::Status InferNothing(gert::InferShapeContext& ctx) { return ge::OkStatus(); }

ge::Status NoOpKernel(gert::KernelContext& ctx) { return ge::OkStatus(); }

// Forwards input 0 to output 0.
ge::Status ForwardKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  return WriteOutput(ctx, 0, *x);
}

// An input that must hold one element (when its shape is known).
ge::Status CheckOneElement(const gert::InferShapeContext& ctx, size_t i, const char* name) {
  const gert::Shape* s = ctx.GetInputShape(i);
  if (s == nullptr) return ctx.Error("input ", i, " (", name, ") is missing");
  if (!s->IsUnknownShape() && s->GetShapeSize() != 1) {
    return ctx.Error("input ", i, " (", name, ") must hold exactly one element, got shape ",
                     s->ToString());
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------ StreamSwitch

constexpr int64_t kMaxSwitchCondition = 5;  // RT_LESS_OR_EQUAL

ge::Status VerifyStreamSwitch(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t cond, ctx.GetIntOr("switch_condition", 0));
  if (cond < 0 || cond > kMaxSwitchCondition) {
    return ctx.Error("attribute switch_condition is ", cond, ", expected 0..", kMaxSwitchCondition);
  }
  RETURN_IF_ERROR(CheckOneElement(ctx, 0, "x1"));
  RETURN_IF_ERROR(CheckOneElement(ctx, 1, "x2"));
  if (ctx.GetInputDataType(0) != ctx.GetInputDataType(1)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "inputs x1 (",
                             DataTypeName(ctx.GetInputDataType(0)), ") and x2 (",
                             DataTypeName(ctx.GetInputDataType(1)), ") differ in dtype");
  }
  return ge::OkStatus();
}

ge::Status StreamSwitchKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t cond, ctx.GetIntOr("switch_condition", 0));
  if (cond < 0 || cond > kMaxSwitchCondition) {
    return ctx.Error("attribute switch_condition is ", cond, ", expected 0..", kMaxSwitchCondition);
  }
  for (size_t i = 0; i < 2; ++i) {
    ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, i));
    RETURN_IF_ERROR(ReadIntScalar(ctx, *x, i == 0 ? "input 0 (x1)" : "input 1 (x2)").status());
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------ events / labels

ge::Status VerifyEventId(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t id, ctx.GetIntOr("event_id", 0));
  if (id < 0) return ctx.Error("attribute event_id is ", id, ", expected >= 0");
  return ge::OkStatus();
}

ge::Status VerifyLabelIndex(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t id, ctx.GetIntOr("_label_switch_index", 0));
  if (id < 0) return ctx.Error("attribute _label_switch_index is ", id, ", expected >= 0");
  return ge::OkStatus();
}

ge::StatusOr<int64_t> ReadLabelIndex(const gert::ContextBase& ctx, const gert::Tensor& t) {
  if (t.GetDataType() == ge::DT_UINT32) {
    if (t.GetShapeSize() != 1) {
      return ctx.Error("input 0 (index) must hold exactly one element, got shape ",
                       t.GetShape().ToString());
    }
    const ge::Status st = CheckTensorData(t);
    if (!st.ok()) return ctx.Error("input 0 (index): ", st.message());
    return static_cast<int64_t>(t.GetData<uint32_t>()[0]);
  }
  return ReadIntScalar(ctx, t, "input 0 (index)");
}

ge::Status CheckLabelIndex(const gert::ContextBase& ctx, int64_t index) {
  ASSIGN_OR_RETURN(const std::vector<int64_t> labels, ctx.GetListIntOr("_label_switch_list", {}));
  if (index < 0 || static_cast<uint64_t>(index) >= labels.size()) {
    return ctx.ErrorWithCode(ge::ErrorCode::kOutOfRange, "index ", index,
                             " is out of range for _label_switch_list of ", labels.size(),
                             " labels");
  }
  return ge::OkStatus();
}

ge::Status VerifyLabelSwitchByIndex(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(CheckOneElement(ctx, 0, "index"));
  ASSIGN_OR_RETURN(const std::vector<int64_t> labels, ctx.GetListIntOr("_label_switch_list", {}));
  if (labels.empty()) return ctx.Error("attribute _label_switch_list is empty");
  if (const gert::Tensor* t = ctx.GetInputTensor(0); t != nullptr) {
    ASSIGN_OR_RETURN(const int64_t index, ReadLabelIndex(ctx, *t));
    RETURN_IF_ERROR(CheckLabelIndex(ctx, index));
  }
  return ge::OkStatus();
}

ge::Status LabelSwitchByIndexKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* t, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const int64_t index, ReadLabelIndex(ctx, *t));
  return CheckLabelIndex(ctx, index);
}

// ------------------------------------------------------------ LoopCond

ge::Status VerifyLoopCond(gert::InferShapeContext& ctx) { return CheckOneElement(ctx, 0, "x"); }

// ------------------------------------------------------------ Switch

ge::Status VerifySwitch(gert::InferShapeContext& ctx) { return CheckOneElement(ctx, 1, "pred"); }

ge::Status InferSwitch(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (data) is missing");
  for (size_t i = 0; i < 2; ++i) {
    gert::Shape* y = ctx.GetOutputShape(i);
    if (y == nullptr) return ctx.Error("output ", i, " has no shape slot");
    *y = *x;
    ctx.SetOutputDataType(i, ctx.GetInputDataType(0));
  }
  return CopyInputRangeToOutputs(ctx, 0);  // both branches carry data's shape
}

ge::Status SwitchKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* data, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* pred_t, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const bool pred, ReadBoolScalar(ctx, *pred_t, "input 1 (pred)"));
  const size_t taken = pred ? 1 : 0;
  gert::Tensor* dead = ctx.GetOutputTensor(1 - taken);
  if (dead == nullptr) return ctx.Error("output ", 1 - taken, " is missing");
  RETURN_IF_ERROR(WriteOutput(ctx, taken, *data));
  dead->SetData(nullptr, 0);
  return ge::OkStatus();
}

// ------------------------------------------------------------ Merge

ge::Status VerifyMerge(gert::InferShapeContext& ctx) {
  if (ctx.GetInputNum() == 0) return ctx.Error("needs at least one input");
  for (size_t i = 1; i < ctx.GetInputNum(); ++i) {
    if (ctx.GetInputShape(i) == nullptr || ctx.GetInputShape(0) == nullptr) continue;
    if (ctx.GetInputDataType(i) != ctx.GetInputDataType(0)) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " is ",
                               DataTypeName(ctx.GetInputDataType(i)), " but input 0 is ",
                               DataTypeName(ctx.GetInputDataType(0)));
    }
  }
  return ge::OkStatus();
}

ge::Status InferMerge(gert::InferShapeContext& ctx) {
  gert::Shape merged;
  ge::DataType dt = ge::DT_UNDEFINED;
  bool first = true;
  for (size_t i = 0; i < ctx.GetInputNum(); ++i) {
    const gert::Shape* s = ctx.GetInputShape(i);
    if (s == nullptr) continue;
    if (first) {
      merged = *s;
      dt = ctx.GetInputDataType(i);
      first = false;
      continue;
    }
    if (merged.IsUnknownRank()) continue;
    if (s->IsUnknownRank() || s->GetDimNum() != merged.GetDimNum()) {
      merged = gert::Shape{ge::UNKNOWN_RANK};
      continue;
    }
    for (size_t d = 0; d < merged.GetDimNum(); ++d) {
      if (merged.GetDim(d) != s->GetDim(d)) merged.SetDim(d, -1);
    }
  }
  if (first) return ctx.Error("has no present input");
  gert::Shape* y = ctx.GetOutputShape(0);
  gert::Shape* idx = ctx.GetOutputShape(1);
  if (y == nullptr || idx == nullptr) return ctx.Error("needs outputs y and value_index");
  *y = merged;
  ctx.SetOutputDataType(0, dt);
  *idx = gert::Shape();
  ctx.SetOutputDataType(1, ge::DT_INT32);
  if (!AnyInputRange(ctx) || merged.IsUnknownRank()) return ge::OkStatus();
  // Whichever input arrives: the union of the present inputs' ranges.
  gert::ShapeRange range;
  bool have = false;
  for (size_t i = 0; i < ctx.GetInputNum(); ++i) {
    if (ctx.GetInputShape(i) == nullptr) continue;
    ASSIGN_OR_RETURN(gert::ShapeRange r, InputRange(ctx, i));
    if (r.size() != merged.GetDimNum()) return ge::OkStatus();
    if (!have) {
      range = std::move(r);
      have = true;
      continue;
    }
    for (size_t d = 0; d < range.size(); ++d) range[d] = UnionDimRange(range[d], r[d]);
  }
  return SetOutputRange(ctx, 0, std::move(range));
}

ge::Status MergeKernel(gert::KernelContext& ctx) {
  for (size_t i = 0; i < ctx.GetInputNum(); ++i) {
    const gert::Tensor* x = ctx.GetInputTensor(i);
    if (x == nullptr || x->GetAddr() == nullptr) continue;  // dead
    ASSIGN_OR_RETURN(x, GetKernelInput(ctx, i));
    RETURN_IF_ERROR(WriteOutput(ctx, 0, *x));
    ASSIGN_OR_RETURN(gert::Tensor * vi, PrepareOutput(ctx, 1, gert::Shape(), ge::DT_INT32));
    vi->GetData<int32_t>()[0] = static_cast<int32_t>(i);
    return ge::OkStatus();
  }
  return ctx.Error("none of its ", ctx.GetInputNum(), " inputs is available");
}

// ------------------------------------------------------------ registration

ge::TensorType SwitchValueTypes() { return ge::TensorType({ge::DT_INT32, ge::DT_INT64}); }

REG_OP(StreamSwitch)
    .Input("x1", SwitchValueTypes())
    .Input("x2", SwitchValueTypes())
    .Attr("switch_condition", ge::AttrValue::CreateFrom<int64_t>(0))
    .Verify(VerifyStreamSwitch)
    .InferShape(InferNothing)
    .SideEffect();
REG_KERNEL(StreamSwitch, ge::kEngineRts).Fn(StreamSwitchKernel);

REG_OP(StreamActive)
    .Attr("active_stream_list", ge::AttrValue::CreateFrom<std::vector<int64_t>>({}))
    .InferShape(InferNothing)
    .SideEffect();
REG_KERNEL(StreamActive, ge::kEngineRts).Fn(NoOpKernel);

REG_OP(StreamMerge)
    .DynamicInput("x", ge::TensorType::ALL())
    .Output("y", ge::TensorType::ALL())
    .Output("value_index", ge::TensorType({ge::DT_INT32}))
    .Verify(VerifyMerge)
    .InferDataType(InferMerge)
    .InferShape(InferMerge);
REG_KERNEL(StreamMerge, ge::kEngineRts).Fn(MergeKernel);
REG_KERNEL(StreamMerge, ge::kEngineHostCpu).Fn(MergeKernel);

REG_OP(Send)
    .Attr("event_id", ge::AttrValue::CreateFrom<int64_t>(0))
    .Verify(VerifyEventId)
    .InferShape(InferNothing)
    .SideEffect();
REG_KERNEL(Send, ge::kEngineRts).Fn(NoOpKernel);

REG_OP(Recv)
    .Attr("event_id", ge::AttrValue::CreateFrom<int64_t>(0))
    .Verify(VerifyEventId)
    .InferShape(InferNothing)
    .SideEffect();
REG_KERNEL(Recv, ge::kEngineRts).Fn(NoOpKernel);

REG_OP(LabelSet)
    .Attr("_label_switch_index", ge::AttrValue::CreateFrom<int64_t>(0))
    .Verify(VerifyLabelIndex)
    .InferShape(InferNothing)
    .SideEffect();
REG_KERNEL(LabelSet, ge::kEngineRts).Fn(NoOpKernel);

REG_OP(LabelGoto)
    .Attr("_label_switch_index", ge::AttrValue::CreateFrom<int64_t>(0))
    .Verify(VerifyLabelIndex)
    .InferShape(InferNothing)
    .SideEffect();
REG_KERNEL(LabelGoto, ge::kEngineRts).Fn(NoOpKernel);

REG_OP(LabelSwitchByIndex)
    .Input("index", ge::TensorType({ge::DT_INT32, ge::DT_UINT32}))
    .Attr("_label_switch_list", ge::AttrValue::CreateFrom<std::vector<int64_t>>({}))
    .Verify(VerifyLabelSwitchByIndex)
    .InferShape(InferNothing)
    .SideEffect()
    .ValueDependentInput("index");
REG_KERNEL(LabelSwitchByIndex, ge::kEngineRts).Fn(LabelSwitchByIndexKernel);

REG_OP(MemcpyAsync)
    .Input("x", ge::TensorType::ALL())
    .Output("y", ge::TensorType::ALL())
    .InferShape(InferSameAsInput0);
REG_KERNEL(MemcpyAsync, ge::kEngineRts).Fn(ForwardKernel);
REG_KERNEL(MemcpyAsync, ge::kEngineHostCpu).Fn(ForwardKernel);

REG_OP(MemcpyAddrAsync)
    .Input("x", ge::TensorType::ALL())
    .Output("y", ge::TensorType::ALL())
    .InferShape(InferSameAsInput0);
REG_KERNEL(MemcpyAddrAsync, ge::kEngineRts).Fn(ForwardKernel);
REG_KERNEL(MemcpyAddrAsync, ge::kEngineHostCpu).Fn(ForwardKernel);

REG_OP(Enter)
    .Input("x", ge::TensorType::ALL())
    .Output("y", ge::TensorType::ALL())
    .RequiredAttr("frame_name", ge::AttrValue::VT_STRING)
    .Attr("is_constant", ge::AttrValue::CreateFrom<bool>(false))
    .InferShape(InferSameAsInput0);
REG_KERNEL(Enter, ge::kEngineRts).Fn(ForwardKernel);
REG_KERNEL(Enter, ge::kEngineHostCpu).Fn(ForwardKernel);

REG_OP(Exit)
    .Input("x", ge::TensorType::ALL())
    .Output("y", ge::TensorType::ALL())
    .InferShape(InferSameAsInput0);
REG_KERNEL(Exit, ge::kEngineRts).Fn(ForwardKernel);
REG_KERNEL(Exit, ge::kEngineHostCpu).Fn(ForwardKernel);

REG_OP(NextIteration)
    .Input("x", ge::TensorType::ALL())
    .Output("y", ge::TensorType::ALL())
    .InferShape(InferSameAsInput0);
REG_KERNEL(NextIteration, ge::kEngineRts).Fn(ForwardKernel);
REG_KERNEL(NextIteration, ge::kEngineHostCpu).Fn(ForwardKernel);

REG_OP(LoopCond)
    .Input("x", ge::TensorType({ge::DT_BOOL}))
    .Output("y", ge::TensorType({ge::DT_BOOL}))
    .Verify(VerifyLoopCond)
    .InferShape(InferSameAsInput0);
REG_KERNEL(LoopCond, ge::kEngineRts).Fn(ForwardKernel);
REG_KERNEL(LoopCond, ge::kEngineHostCpu).Fn(ForwardKernel);

REG_OP(Switch)
    .Input("data", ge::TensorType::ALL())
    .Input("pred", ge::TensorType({ge::DT_BOOL}))
    .Output("output_false", ge::TensorType::ALL())
    .Output("output_true", ge::TensorType::ALL())
    .Verify(VerifySwitch)
    .InferDataType(InferSwitch)
    .InferShape(InferSwitch);
REG_KERNEL(Switch, ge::kEngineRts).Fn(SwitchKernel);
REG_KERNEL(Switch, ge::kEngineHostCpu).Fn(SwitchKernel);

REG_OP(Merge)
    .DynamicInput("x", ge::TensorType::ALL())
    .Output("y", ge::TensorType::ALL())
    .Output("value_index", ge::TensorType({ge::DT_INT32}))
    .Verify(VerifyMerge)
    .InferDataType(InferMerge)
    .InferShape(InferMerge);
REG_KERNEL(Merge, ge::kEngineRts).Fn(MergeKernel);
REG_KERNEL(Merge, ge::kEngineHostCpu).Fn(MergeKernel);

}  // namespace
}  // namespace ops
