// ops/compute/softmax/softmax_kernels.cc
//
// Softmax and LogSoftmax (opset 13: along the single dim `axis`) on the
// compute engine, with oneDNN 2.6's softmax_v2 (softmax_accurate /
// softmax_log: the row max is subtracted first, as the host kernel does).
// X is viewed as [outer, n, inner] with n the axis dim ([outer, n] when
// inner is 1, the last-axis case oneDNN's JIT kernels take), so every axis
// and rank is taken. fp32 and bf16.
#include <cstdint>

#include "absl/types/span.h"
#include "dnnl.hpp"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "ops/common/op_util.h"
#include "ops/compute/common/dnnl_common.h"

namespace ops {
namespace compute {
namespace {

template <bool kLog>
class DnnlSoftmax final : public ge::OpKernel {
 public:
  ge::Status Prepare(gert::TilingContext& ctx) override {
    const gert::Tensor* x = ctx.GetInputTensor(0);
    const gert::Tensor* y = ctx.GetOutputTensor(0);
    if (x == nullptr || y == nullptr) return ctx.Error("input and output are required");
    ASSIGN_OR_RETURN(dnnl::memory::data_type dt, DnnlType(x->GetDataType()));
    if (y->GetDataType() != x->GetDataType()) return ctx.Error("output must have input's type");
    const gert::Shape& xs = x->GetShape();
    ASSIGN_OR_RETURN(int64_t axis_attr, ctx.GetIntOr("axis", -1));
    ge::StatusOr<int64_t> axis = NormalizeAxis(axis_attr, static_cast<int64_t>(xs.GetDimNum()));
    if (!axis.ok()) return WithNode(ctx, axis.status());
    int64_t outer = 1, inner = 1;
    const size_t a = static_cast<size_t>(*axis);
    for (size_t i = 0; i < a; ++i) outer *= xs.GetDim(i);
    for (size_t i = a + 1; i < xs.GetDimNum(); ++i) inner *= xs.GetDim(i);
    const int64_t n = xs.GetDim(a);
    dnnl::memory::desc md;
    dnnl::softmax_v2_forward::primitive_desc pd;
    RETURN_IF_ERROR(DnnlCall("softmax primitive", [&] {
      md = inner == 1 ? dnnl::memory::desc({outer, n}, dt, dnnl::memory::format_tag::ab)
                      : dnnl::memory::desc({outer, n, inner}, dt, dnnl::memory::format_tag::abc);
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      pd = dnnl::softmax_v2_forward::primitive_desc(
          dnnl::softmax_v2_forward::desc(
              dnnl::prop_kind::forward_inference,
              kLog ? dnnl::algorithm::softmax_log : dnnl::algorithm::softmax_accurate, md, md, 1),
          attr, CpuEngine());
    }));
    RETURN_IF_ERROR(prim_.Init(dnnl::softmax_v2_forward(pd), pd.scratchpad_desc()));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_SRC, md));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_DST, md));
    if (prim_.scratchpad_bytes() > 0) {
      RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, prim_.scratchpad_bytes()));
    }
    return ge::OkStatus();
  }

  ge::Status Run(gert::KernelContext& ctx) const override {
    const gert::Tensor* x = ctx.GetInputTensor(0);
    gert::Tensor* y = ctx.GetOutputTensor(0);
    if (x == nullptr || y == nullptr) return ctx.Error("input and output are required");
    const void* handles[2] = {x->GetAddr(), y->GetAddr()};
    return WithNode(ctx, prim_.Execute(absl::MakeConstSpan(handles, 2), ctx.GetWorkspaces()));
  }

 private:
  PreparedPrimitive prim_;
};

ge::Status SoftmaxSupports(const ge::OpDesc& op) {
  const ge::GeTensorDesc* x = op.GetInputDescBarePtr(0);
  const ge::GeTensorDesc* y = op.GetOutputDescBarePtr(0);
  if (x == nullptr || y == nullptr) return ge::NotSupported("input and output are required");
  if (y->GetDataType() != x->GetDataType()) {
    return ge::NotSupported("output must have the input's data type");
  }
  absl::Span<const int64_t> xd = x->GetShape().GetDimsSpan();
  if (xd.empty()) return ge::NotSupported("softmax of a scalar");
  for (int64_t d : xd) {
    if (d <= 0) {
      return ge::NotSupported("input has dim ", d,
                              "; the kernel takes known, non-empty shapes only");
    }
  }
  gert::ContextBase attrs;
  attrs.SetNode(op.GetName(), op.GetType());
  attrs.SetAttrHolder(&op);
  ge::StatusOr<int64_t> axis = attrs.GetIntOr("axis", -1);
  if (!axis.ok()) return ge::NotSupported(axis.status().message());
  ge::StatusOr<int64_t> a = NormalizeAxis(*axis, static_cast<int64_t>(xd.size()));
  if (!a.ok()) return ge::NotSupported(a.status().message());
  return ge::OkStatus();
}

}  // namespace

REG_KERNEL(Softmax, ge::kEngineAiCore)
    .Kernel<DnnlSoftmax<false>>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(SoftmaxSupports);

REG_KERNEL(LogSoftmax, ge::kEngineAiCore)
    .Kernel<DnnlSoftmax<true>>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(SoftmaxSupports);

}  // namespace compute
}  // namespace ops
