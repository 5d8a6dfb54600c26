// ops/compute/lrn/lrn_kernel.cc
//
// The compute engine's LRN on oneDNN lrn_forward (across channels,
// inference): y = x / (bias + alpha / size * sum of x^2 over the channel
// window)^beta, the ONNX formula. FLOAT / BF16; plain (N, C, spatial...)
// of any rank >= 2 viewed as (N, C, spatial product, 1), and NC1HWC0.
// Even sizes are rejected: oneDNN's window is (size - 1) / 2 channels on
// each side, ONNX's takes one more after the channel.
#include <cstdint>
#include <string>
#include <utility>

#include "dnnl.hpp"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "ops/compute/common/dnnl_common.h"
#include "ops/compute/reorder/layout.h"

namespace ops {
namespace compute {
namespace {

struct LrnParams {
  int64_t size = 0;
  float alpha = 0.0f, beta = 0.0f, bias = 0.0f;
};

ge::StatusOr<LrnParams> ReadParams(const gert::ContextBase& attrs) {
  LrnParams p;
  ASSIGN_OR_RETURN(p.size, attrs.GetInt("size"));
  ASSIGN_OR_RETURN(p.alpha, attrs.GetFloatOr("alpha", 1e-4f));
  ASSIGN_OR_RETURN(p.beta, attrs.GetFloatOr("beta", 0.75f));
  ASSIGN_OR_RETURN(p.bias, attrs.GetFloatOr("bias", 1.0f));
  if (p.size < 1) return ge::NotSupported("attribute size ", p.size, " must be >= 1");
  if (p.size % 2 == 0) {
    return ge::NotSupported("attribute size ", p.size,
                            " is even: oneDNN's channel window is symmetric, ONNX's is not");
  }
  return p;
}

ge::Status LrnSupports(const ge::OpDesc& op) {
  const ge::GeTensorDesc* x = op.GetInputDescBarePtr(0);
  const ge::GeTensorDesc* y = op.GetOutputDescBarePtr(0);
  if (x == nullptr || y == nullptr) return ge::NotSupported("the node needs input 0 and output 0");
  RETURN_IF_ERROR(CheckNchwLayout(*x, "input 0", true));
  RETURN_IF_ERROR(CheckNchwLayout(*y, "output 0", true));
  RETURN_IF_ERROR(CheckSameLayout(*x, *y));
  if (x->GetShape().GetDimNum() < 2) {
    return ge::NotSupported("input has ", x->GetShape().GetDimNum(), " dims; expected (N, C, ...)");
  }
  return ReadParams(AttrsOf(op)).status();
}

class DnnlLrnKernel final : public ge::OpKernel {
 public:
  ge::Status Prepare(gert::TilingContext& ctx) override {
    const gert::Tensor* x = ctx.GetInputTensor(0);
    const gert::Tensor* y = ctx.GetOutputTensor(0);
    if (x == nullptr || y == nullptr) return ctx.Error("LRN needs input 0 and output 0");
    ge::StatusOr<LrnParams> p = ReadParams(ctx);
    if (!p.ok()) return ctx.ErrorWithCode(ge::GetErrorCode(p.status()), p.status().message());
    const gert::Shape& s = x->GetShape();
    if (s.GetDimNum() < 2) return ctx.Error("input has fewer than 2 dims");
    if (x->GetShapeSize() == 0) return ge::OkStatus();
    dnnl::memory::desc md;
    if (IsNc1hwc0(x->GetFormat())) {
      ASSIGN_OR_RETURN(md, DescOf(*x));
    } else {
      ASSIGN_OR_RETURN(dnnl::memory::data_type dt, DnnlType(x->GetDataType()));
      int64_t spatial = 1;
      for (size_t i = 2; i < s.GetDimNum(); ++i) spatial *= s.GetDim(i);
      RETURN_IF_ERROR(DnnlCall("LRN memory desc", [&] {
        md = dnnl::memory::desc({s.GetDim(0), s.GetDim(1), spatial, 1}, dt,
                                dnnl::memory::format_tag::abcd);
      }));
    }
    dnnl::primitive prim;
    dnnl::memory::desc scratchpad;
    RETURN_IF_ERROR(DnnlCall("LRN primitive", [&] {
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      auto d = dnnl::lrn_forward::desc(dnnl::prop_kind::forward_inference,
                                       dnnl::algorithm::lrn_across_channels, md, p->size, p->alpha,
                                       p->beta, p->bias);
      auto pd = dnnl::lrn_forward::primitive_desc(d, attr, CpuEngine());
      prim = dnnl::lrn_forward(pd);
      scratchpad = pd.scratchpad_desc();
    }));
    RETURN_IF_ERROR(prim_.Init(std::move(prim), scratchpad));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_SRC, md));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_DST, md));
    if (prim_.scratchpad_bytes() > 0) {
      RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, prim_.scratchpad_bytes()));
    }
    return ge::OkStatus();
  }

  ge::Status Run(gert::KernelContext& ctx) const override {
    if (!prim_.initialized()) return ge::OkStatus();
    const gert::Tensor* x = ctx.GetInputTensor(0);
    gert::Tensor* y = ctx.GetOutputTensor(0);
    if (x == nullptr || y == nullptr) return ctx.Error("LRN needs input 0 and output 0");
    return prim_.Execute({x->GetAddr(), y->GetAddr()}, ctx.GetWorkspaces());
  }

 private:
  PreparedPrimitive prim_;
};

REG_KERNEL(LRN, ge::kEngineAiCore)
    .Kernel<DnnlLrnKernel>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .Formats({ge::FORMAT_ND, ge::FORMAT_NCHW, ge::FORMAT_NCDHW, ge::FORMAT_NC1HWC0})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(LrnSupports);

}  // namespace
}  // namespace compute
}  // namespace ops
