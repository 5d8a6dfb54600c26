// ops/common/common_infer.cc
#include "ops/common/common_infer.h"

#include "ops/common/broadcast.h"
#include "ops/common/node_status.h"
#include "ops/common/shape_range.h"

namespace ops {

ge::Status InferSameAsInput0(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 is missing");
  const ge::DataType dt = ctx.GetInputDataType(0);
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) {
    gert::Shape* y = ctx.GetOutputShape(i);
    if (y == nullptr) return ctx.Error("output ", i, " has no shape slot");
    *y = *x;
    ctx.SetOutputDataType(i, dt);
  }
  return CopyInputRangeToOutputs(ctx, 0);
}

ge::Status InferShapeSameAsInput0(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 is missing");
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) {
    gert::Shape* y = ctx.GetOutputShape(i);
    if (y == nullptr) return ctx.Error("output ", i, " has no shape slot");
    *y = *x;
  }
  return CopyInputRangeToOutputs(ctx, 0);
}

ge::Status InferBroadcast(gert::InferShapeContext& ctx) {
  const size_t n = ctx.GetInputNum();
  gert::Shape acc;
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    const gert::Shape* s = ctx.GetInputShape(i);
    if (s == nullptr) continue;  // absent optional input
    if (!any) {
      RETURN_IF_ERROR(WithNode(ctx, InferBroadcastShape(*s, gert::Shape(), &acc)));
      any = true;
      continue;
    }
    const gert::Shape prev = acc;
    ge::Status st = InferBroadcastShape(prev, *s, &acc);
    if (!st.ok()) {
      return ctx.Error("input ", i, " shape ", s->ToString(), " does not broadcast with ",
                       prev.ToString(), " (inputs 0..", i - 1, "): ", st.message());
    }
  }
  if (!any) return ctx.Error("no inputs to broadcast");
  if (ctx.GetOutputNum() == 0) return ctx.Error("has no outputs");
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) {
    gert::Shape* y = ctx.GetOutputShape(i);
    if (y == nullptr) return ctx.Error("output ", i, " has no shape slot");
    *y = acc;
  }
  return BroadcastInputRangesToOutputs(ctx);
}

}  // namespace ops
