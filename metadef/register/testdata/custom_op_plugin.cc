// metadef/register/testdata/custom_op_plugin.cc
//
// A custom op plugin library (built as libcustom_op_plugin.so): one op,
// PluginScaleAdd (y = x1 + alpha * x2, same shapes), with an infer shape
// function and a host CPU kernel, registered with REG_OP. It is compiled
// against the registry headers only; every registry symbol resolves to the
// host process when the library is loaded (see ops_proto_manager.h).
#include "metadef/register/inc/register/op_registry.h"

namespace {

ge::Status InferScaleAdd(gert::InferShapeContext& ctx) {
  const gert::Shape* x1 = ctx.GetInputShape(0);
  const gert::Shape* x2 = ctx.GetInputShape(1);
  if (x1 == nullptr || x2 == nullptr) return ctx.Error("two inputs expected");
  if (*x1 != *x2) {
    return ctx.Error("input shapes ", x1->ToString(), " and ", x2->ToString(), " differ");
  }
  *ctx.GetOutputShape(0) = *x1;
  return ge::OkStatus();
}

ge::Status ScaleAddKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const float alpha, ctx.GetFloatOr("alpha", 2.0f));
  const gert::Tensor* x1 = ctx.GetInputTensor(0);
  const gert::Tensor* x2 = ctx.GetInputTensor(1);
  gert::Tensor* y = ctx.GetOutputTensor(0);
  if (x1 == nullptr || x2 == nullptr || y == nullptr) return ctx.Error("missing tensors");
  const int64_t n = y->GetShapeSize();
  for (int64_t i = 0; i < n; ++i) {
    y->GetData<float>()[i] = x1->GetData<float>()[i] + alpha * x2->GetData<float>()[i];
  }
  return ge::OkStatus();
}

}  // namespace

REG_OP(PluginScaleAdd)
    .Input("x1", ge::TensorType{ge::DT_FLOAT})
    .Input("x2", ge::TensorType{ge::DT_FLOAT})
    .Output("y", ge::TensorType{ge::DT_FLOAT})
    .Attr("alpha", ge::AttrValue::CreateFrom<float>(2.0f))
    .InferShape(InferScaleAdd);
REG_KERNEL(PluginScaleAdd, ge::kEngineHostCpu).Fn(ScaleAddKernel);
