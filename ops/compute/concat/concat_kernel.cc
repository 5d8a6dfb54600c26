// ops/compute/concat/concat_kernel.cc
//
// The compute engine's Concat on oneDNN concat: FLOAT, BF16, INT8, UINT8,
// INT32 (data movement, bit exact), any number of inputs.
//   plain    any rank: every input is viewed as (outer, dim_i, inner) around
//            the (normalised) axis and concatenated along the middle dim;
//            inputs with no elements are left out.
//   NC1HWC0  4-D inputs and output all NC1HWC0, any axis; along C (axis 1)
//            every input but the last must hold a multiple of 16 channels
//            (oneDNN cannot place a padded channel block inside the output).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

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

ge::StatusOr<int64_t> NormalisedAxis(int64_t axis, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) {
    return ge::NotSupported("axis ", axis, " is outside rank ", rank);
  }
  return axis < 0 ? axis + r : axis;
}

ge::Status ConcatSupports(const ge::OpDesc& op) {
  const size_t n = op.GetAllInputsSize();
  const ge::GeTensorDesc* y = op.GetOutputDescBarePtr(0);
  if (n == 0 || y == nullptr) return ge::NotSupported("the node needs inputs and output 0");
  const bool blocked = IsNc1hwc0(y->GetFormat());
  const bool last = IsChannelsLast(y->GetFormat());
  const std::vector<int64_t> ydims = y->GetShape().GetDims();
  ASSIGN_OR_RETURN(int64_t axis, AttrsOf(op).GetInt("axis"));
  ASSIGN_OR_RETURN(axis, NormalisedAxis(axis, ydims.size()));
  for (size_t i = 0; i < n; ++i) {
    const ge::GeTensorDesc* d = op.GetInputDescBarePtr(static_cast<uint32_t>(i));
    if (d == nullptr) return ge::NotSupported("input ", i, " is missing");
    if (d->GetDataType() != y->GetDataType()) {
      return ge::NotSupported("input ", i, " has another data type than the output");
    }
    if (IsNc1hwc0(d->GetFormat()) != blocked) {
      return ge::NotSupported("input ", i, " is ", FormatName(d->GetFormat()), " and the output ",
                              FormatName(y->GetFormat()), ": NC1HWC0 only on every tensor");
    }
    if (last) {
      // Channels-last: every tensor in the output's layout and rank.
      if (d->GetFormat() != y->GetFormat() ||
          d->GetShape().GetDimNum() !=
              (ge::GetPrimaryFormat(y->GetFormat()) == ge::FORMAT_NHWC ? 4u : 5u) ||
          d->GetShape().GetDimNum() != ydims.size()) {
        return ge::NotSupported("input ", i, " is ", FormatName(d->GetFormat()), " ",
                                d->GetShape().ToString(),
                                ": channels-last only on every tensor of "
                                "the output's rank");
      }
      continue;
    }
    if (!blocked) continue;
    if (ydims.size() != 4 || d->GetShape().GetDimNum() != 4) {
      return ge::NotSupported("NC1HWC0 tensors must have their 4 logical dims");
    }
    if (d->GetDataType() != ge::DT_FLOAT && d->GetDataType() != ge::DT_BF16) {
      return ge::NotSupported("NC1HWC0 with C0 16 holds FLOAT / BF16 only");
    }
    if (axis == 1 && i + 1 < n && d->GetShape().GetDim(1) % 16 != 0) {
      return ge::NotSupported("input ", i, " has ", d->GetShape().GetDim(1),
                              " channels: along C, NC1HWC0 inputs but the last need a multiple "
                              "of 16");
    }
  }
  return ge::OkStatus();
}

class DnnlConcatKernel final : public ge::OpKernel {
 public:
  ge::Status Prepare(gert::TilingContext& ctx) override {
    const gert::Tensor* y = ctx.GetOutputTensor(0);
    if (y == nullptr || ctx.GetInputNum() == 0)
      return ctx.Error("Concat needs inputs and output 0");
    const gert::Shape& ys = y->GetShape();
    ASSIGN_OR_RETURN(int64_t axis, ctx.GetInt("axis"));
    ge::StatusOr<int64_t> a = NormalisedAxis(axis, ys.GetDimNum());
    if (!a.ok()) return ctx.Error(a.status().message());
    axis = *a;
    // Blocked and channels-last tensors keep their logical dims (DescOf).
    const bool blocked = IsNc1hwc0(y->GetFormat()) || IsChannelsLast(y->GetFormat());
    ASSIGN_OR_RETURN(dnnl::memory::data_type dt, DnnlType(y->GetDataType()));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= ys.GetDim(d);
    for (size_t d = static_cast<size_t>(axis) + 1; d < ys.GetDimNum(); ++d) inner *= ys.GetDim(d);
    std::vector<dnnl::memory::desc> srcs;
    used_.clear();
    for (size_t i = 0; i < ctx.GetInputNum(); ++i) {
      const gert::Tensor* x = ctx.GetInputTensor(i);
      if (x == nullptr) return ctx.Error("input ", i, " is missing");
      if (x->GetDataType() != y->GetDataType()) {
        return ctx.Error("input ", i, " has another data type than the output");
      }
      if (x->GetShapeSize() == 0) continue;
      dnnl::memory::desc md;
      if (blocked) {
        ASSIGN_OR_RETURN(md, DescOf(*x));
      } else {
        RETURN_IF_ERROR(DnnlCall("concat input desc", [&] {
          md = dnnl::memory::desc({outer, x->GetShape().GetDim(static_cast<size_t>(axis)), inner},
                                  dt, dnnl::memory::format_tag::abc);
        }));
      }
      srcs.push_back(md);
      used_.push_back(i);
    }
    handles_.assign(used_.size() + 1, nullptr);
    if (used_.empty() || y->GetShapeSize() == 0) {
      used_.clear();
      return ge::OkStatus();
    }
    dnnl::memory::desc dst;
    if (blocked) {
      ASSIGN_OR_RETURN(dst, DescOf(*y));
    } else {
      RETURN_IF_ERROR(DnnlCall("concat output desc", [&] {
        dst = dnnl::memory::desc({outer, ys.GetDim(static_cast<size_t>(axis)), inner}, dt,
                                 dnnl::memory::format_tag::abc);
      }));
    }
    const int dim = blocked ? static_cast<int>(axis) : 1;
    dnnl::primitive prim;
    dnnl::memory::desc scratchpad;
    RETURN_IF_ERROR(DnnlCall("concat primitive", [&] {
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      auto pd = dnnl::concat::primitive_desc(dst, dim, srcs, CpuEngine(), attr);
      prim = dnnl::concat(pd);
      scratchpad = pd.scratchpad_desc();
    }));
    RETURN_IF_ERROR(prim_.Init(std::move(prim), scratchpad));
    for (size_t k = 0; k < srcs.size(); ++k) {
      RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_MULTIPLE_SRC + static_cast<int>(k), srcs[k]));
    }
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_DST, dst));
    if (prim_.scratchpad_bytes() > 0) {
      RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, prim_.scratchpad_bytes()));
    }
    return ge::OkStatus();
  }

  // Runs are serialised per prepared kernel (as PreparedPrimitive's are):
  // handles_ is filled in place, sized at Prepare.
  ge::Status Run(gert::KernelContext& ctx) const override {
    if (used_.empty()) return ge::OkStatus();
    for (size_t k = 0; k < used_.size(); ++k) {
      const gert::Tensor* x = ctx.GetInputTensor(used_[k]);
      if (x == nullptr) return ctx.Error("input ", used_[k], " is missing");
      handles_[k] = x->GetAddr();
    }
    gert::Tensor* y = ctx.GetOutputTensor(0);
    if (y == nullptr) return ctx.Error("output 0 is missing");
    handles_.back() = y->GetAddr();
    return prim_.Execute(handles_, ctx.GetWorkspaces());
  }

 private:
  PreparedPrimitive prim_;
  std::vector<size_t> used_;  // inputs with elements, in order
  mutable std::vector<const void*> handles_;
};

REG_KERNEL(Concat, ge::kEngineAiCore)
    .Kernel<DnnlConcatKernel>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16, ge::DT_INT8, ge::DT_UINT8, ge::DT_INT32})
    .Formats({ge::FORMAT_ND, ge::FORMAT_NCHW, ge::FORMAT_NC1HWC0, ge::FORMAT_NHWC,
              ge::FORMAT_NDHWC})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(ConcatSupports);

}  // namespace
}  // namespace compute
}  // namespace ops
