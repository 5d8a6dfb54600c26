// metadef/register/testdata/variant_plugin.cc
//
// Built several times with different -D flags into small plugin libraries
// for the loader tests: each registers the op type PLUGIN_OP_TYPE with
// inputs x1, x2 and a host kernel y = PLUGIN_FACTOR * x1 + x2, at priority
// PLUGIN_PRIORITY. With PLUGIN_UNRESOLVED it also references a symbol no host
// defines, so loading it must fail (RTLD_NOW).
#include "metadef/register/inc/register/op_registry.h"

#ifndef PLUGIN_OP_TYPE
#error "define PLUGIN_OP_TYPE"
#endif
#ifndef PLUGIN_FACTOR
#define PLUGIN_FACTOR 1
#endif
#ifndef PLUGIN_PRIORITY
#define PLUGIN_PRIORITY 0
#endif

#define PLUGIN_STR_INNER(x) #x
#define PLUGIN_STR(x) PLUGIN_STR_INNER(x)

#ifdef PLUGIN_UNRESOLVED
extern "C" int ge_test_symbol_no_host_defines(void);
#endif

namespace {

ge::Status InferSameAsX1(gert::InferShapeContext& ctx) {
  const gert::Shape* x1 = ctx.GetInputShape(0);
  if (x1 == nullptr) return ctx.Error("input x1 missing");
  *ctx.GetOutputShape(0) = *x1;
  return ge::OkStatus();
}

ge::Status FactorKernel(gert::KernelContext& ctx) {
#ifdef PLUGIN_UNRESOLVED
  if (ge_test_symbol_no_host_defines() != 0) return ctx.Error("unreachable");
#endif
  const gert::Tensor* x1 = ctx.GetInputTensor(0);
  const gert::Tensor* x2 = ctx.GetInputTensor(1);
  gert::Tensor* y = ctx.GetOutputTensor(0);
  for (int64_t i = 0; i < y->GetShapeSize(); ++i) {
    y->GetData<float>()[i] =
        static_cast<float>(PLUGIN_FACTOR) * x1->GetData<float>()[i] + x2->GetData<float>()[i];
  }
  return ge::OkStatus();
}

ge::OpReceiver g_variant_receiver = ge::OpReg(PLUGIN_STR(PLUGIN_OP_TYPE))
                                        .Input("x1", ge::TensorType{ge::DT_FLOAT})
                                        .Input("x2", ge::TensorType{ge::DT_FLOAT})
                                        .Output("y", ge::TensorType{ge::DT_FLOAT})
                                        .InferShape(InferSameAsX1)
                                        .Priority(PLUGIN_PRIORITY);
ge::KernelReceiver g_variant_kernel =
    ge::KernelReg(PLUGIN_STR(PLUGIN_OP_TYPE), ge::kEngineHostCpu).Fn(FactorKernel);

}  // namespace
