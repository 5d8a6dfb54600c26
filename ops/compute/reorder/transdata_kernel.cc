// ops/compute/reorder/transdata_kernel.cc
//
// The compute engine's TransData: one oneDNN reorder between the plain and
// the blocked layout of a 4-D tensor, the formats given by the node's
// src_format / dst_format attributes (as the host kernel reads them):
//   NCHW <-> NC1HWC0   plain abcd        <-> aBcd<C0>b
//   NHWC <-> NC1HWC0   plain acdb (NHWC) <-> aBcd<C0>b
//   same primary format: a copy.
// C0 is the format's packed C0 or metadef's GetCubeC0 of the data type (16
// for 16- / 32-bit types, 32 for 8-bit ones), one of 4, 8, 16, 32. The
// blocked side's dims are the physical ones the op infers (N, C1, H, W,
// C0), or the 4 logical ones (the compute engine's convention for blocked
// tensors, ops/compute/reorder/layout.h); the logical dims come from the
// plain side. oneDNN zeroes the padding going plain -> blocked and drops it
// going back, as metadef's format transfer (the host kernel) does.
// FLOAT, BF16, INT8, UINT8, INT32. Other pairs (FRACTAL_Z, FRACTAL_NZ,
// NDC1HWC0: its physical order N, D, C1, H, W, C0 has no oneDNN tag) stay
// on the host-CPU engine.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dnnl.hpp"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/format_transfer.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "ops/compute/common/dnnl_common.h"
#include "ops/compute/reorder/layout.h"

namespace ops {
namespace compute {
namespace {

using tag = dnnl::memory::format_tag;

// A TransData node's plan: which side is blocked, the logical dims.
struct TransPlan {
  bool identity = false;
  bool to_blocked = false;  // plain -> blocked
  ge::Format plain = ge::FORMAT_NCHW;
  int64_t c0 = 16;
  std::vector<int64_t> logical;  // N, C, H, W
  // A logical-dims TransData (_logical_dims): the same dims, channels-first
  // <-> channels-last memory (NCHW <-> NHWC, NCDHW <-> NDHWC).
  bool layout_only = false;
  ge::Format src_layout = ge::FORMAT_NCHW, dst_layout = ge::FORMAT_NHWC;
};

ge::StatusOr<ge::Format> FormatAttr(const gert::ContextBase& attrs, const char* name) {
  ASSIGN_OR_RETURN(std::string s, attrs.GetStr(name));
  ge::StatusOr<ge::Format> f = ge::TypeUtils::SerialStringToFormat(s);
  if (!f.ok()) return ge::NotSupported("attribute ", name, " \"", s, "\" is not a format");
  return *f;
}

bool IsPlainPairFormat(ge::Format f) {
  const int32_t p = ge::GetPrimaryFormat(f);
  return p == ge::FORMAT_NCHW || p == ge::FORMAT_NHWC;
}

// `src` / `dst`: the tensors' dims (input, output).
ge::StatusOr<TransPlan> PlanOf(const gert::ContextBase& attrs, ge::DataType dt,
                               const std::vector<int64_t>& src, const std::vector<int64_t>& dst) {
  ASSIGN_OR_RETURN(ge::Format sf, FormatAttr(attrs, "src_format"));
  ASSIGN_OR_RETURN(ge::Format df, FormatAttr(attrs, "dst_format"));
  TransPlan p;
  ASSIGN_OR_RETURN(const bool logical_dims, attrs.GetBoolOr("_logical_dims", false));
  if (logical_dims && ge::GetPrimaryFormat(sf) != ge::GetPrimaryFormat(df)) {
    const int32_t s = ge::GetPrimaryFormat(sf), d = ge::GetPrimaryFormat(df);
    const bool ok4 = src.size() == 4 && ((s == ge::FORMAT_NCHW && d == ge::FORMAT_NHWC) ||
                                         (s == ge::FORMAT_NHWC && d == ge::FORMAT_NCHW));
    const bool ok5 = src.size() == 5 && ((s == ge::FORMAT_NCDHW && d == ge::FORMAT_NDHWC) ||
                                         (s == ge::FORMAT_NDHWC && d == ge::FORMAT_NCDHW));
    if (!(ok4 || ok5) || src != dst) {
      return ge::NotSupported(
          "a logical-dims TransData is channels-first <-> channels-last of "
          "one 4-D / 5-D shape");
    }
    p.layout_only = true;
    p.src_layout = static_cast<ge::Format>(s);
    p.dst_layout = static_cast<ge::Format>(d);
    p.logical = src;
    return p;
  }
  if (ge::GetPrimaryFormat(sf) == ge::GetPrimaryFormat(df)) {
    p.identity = true;
    if (src != dst) return ge::NotSupported("a same-format TransData changes the dims");
    return p;
  }
  if (IsPlainPairFormat(sf) && IsNc1hwc0(df)) {
    p.to_blocked = true;
  } else if (IsNc1hwc0(sf) && IsPlainPairFormat(df)) {
    p.to_blocked = false;
  } else {
    return ge::NotSupported("transfer ", FormatName(sf), " -> ", FormatName(df),
                            " is not a oneDNN reorder here (NCHW / NHWC <-> NC1HWC0 only)");
  }
  const ge::Format blocked = p.to_blocked ? df : sf;
  p.plain = static_cast<ge::Format>(ge::GetPrimaryFormat(p.to_blocked ? sf : df));
  const std::vector<int64_t>& plain_dims = p.to_blocked ? src : dst;
  const std::vector<int64_t>& blocked_dims = p.to_blocked ? dst : src;
  const int64_t packed = ge::GetC0Value(blocked);
  if (packed > 0) {
    p.c0 = packed;
  } else {
    ASSIGN_OR_RETURN(p.c0, ge::GetCubeC0(dt));
  }
  if (p.c0 != 4 && p.c0 != 8 && p.c0 != 16 && p.c0 != 32) {
    return ge::NotSupported("C0 ", p.c0, " has no oneDNN blocked layout");
  }
  if (plain_dims.size() != 4) {
    return ge::NotSupported("the plain side has ", plain_dims.size(), " dims, expected 4");
  }
  for (int64_t d : plain_dims) {
    if (d < 0) return ge::NotSupported("the plain side's dims are not static");
  }
  p.logical = plain_dims;
  if (p.plain == ge::FORMAT_NHWC) {
    p.logical = {plain_dims[0], plain_dims[3], plain_dims[1], plain_dims[2]};
  }
  const std::vector<int64_t> physical = {p.logical[0], (p.logical[1] + p.c0 - 1) / p.c0,
                                         p.logical[2], p.logical[3], p.c0};
  if (blocked_dims != physical && blocked_dims != p.logical) {
    return ge::NotSupported(
        "the blocked side's dims match neither the physical NC1HWC0 dims nor "
        "the logical ones of the plain side");
  }
  return p;
}

ge::StatusOr<tag> BlockedTag(int64_t c0) {
  switch (c0) {
    case 4:
      return tag::aBcd4b;
    case 8:
      return tag::aBcd8b;
    case 16:
      return tag::aBcd16b;
    case 32:
      return tag::aBcd32b;
    default:
      return ge::NotSupported("C0 ", c0, " has no oneDNN blocked layout");
  }
}

ge::Status TransDataSupports(const ge::OpDesc& op) {
  const ge::GeTensorDesc* x = op.GetInputDescBarePtr(0);
  const ge::GeTensorDesc* y = op.GetOutputDescBarePtr(0);
  if (x == nullptr || y == nullptr) return ge::NotSupported("the node needs input 0 and output 0");
  if (x->GetDataType() != y->GetDataType()) return ge::NotSupported("the data type changes");
  return PlanOf(AttrsOf(op), x->GetDataType(), x->GetShape().GetDims(), y->GetShape().GetDims())
      .status();
}

class DnnlTransDataKernel final : public ge::OpKernel {
 public:
  ge::Status Prepare(gert::TilingContext& ctx) override {
    const gert::Tensor* x = ctx.GetInputTensor(0);
    const gert::Tensor* y = ctx.GetOutputTensor(0);
    if (x == nullptr || y == nullptr) return ctx.Error("TransData needs input 0 and output 0");
    const ge::DataType dt = x->GetDataType();
    ge::StatusOr<TransPlan> plan =
        PlanOf(ctx, dt, x->GetShape().ToVector(), y->GetShape().ToVector());
    if (!plan.ok()) {
      return ctx.ErrorWithCode(ge::GetErrorCode(plan.status()), plan.status().message());
    }
    if (x->GetShapeSize() == 0 || y->GetShapeSize() == 0) return ge::OkStatus();
    ASSIGN_OR_RETURN(dnnl::memory::data_type t, DnnlType(dt));
    dnnl::memory::desc from, to;
    if (plan->identity) {
      RETURN_IF_ERROR(DnnlCall(
          "copy desc", [&] { from = to = dnnl::memory::desc({x->GetShapeSize()}, t, tag::a); }));
    } else if (plan->layout_only) {
      ASSIGN_OR_RETURN(tag from_tag, TagOf(plan->src_layout, plan->logical.size()));
      ASSIGN_OR_RETURN(tag to_tag, TagOf(plan->dst_layout, plan->logical.size()));
      const dnnl::memory::dims dims(plan->logical.begin(), plan->logical.end());
      RETURN_IF_ERROR(DnnlCall("layout descs", [&] {
        from = dnnl::memory::desc(dims, t, from_tag);
        to = dnnl::memory::desc(dims, t, to_tag);
      }));
    } else {
      ASSIGN_OR_RETURN(tag blocked_tag, BlockedTag(plan->c0));
      const tag plain_tag = plan->plain == ge::FORMAT_NHWC ? tag::acdb : tag::abcd;
      const dnnl::memory::dims dims(plan->logical.begin(), plan->logical.end());
      RETURN_IF_ERROR(DnnlCall("reorder descs", [&] {
        dnnl::memory::desc plain(dims, t, plain_tag);
        dnnl::memory::desc blocked(dims, t, blocked_tag);
        from = plan->to_blocked ? plain : blocked;
        to = plan->to_blocked ? blocked : plain;
      }));
    }
    if (y->GetSize() != 0 && to.get_size() > y->GetSize()) {
      return ctx.Error("output holds ", y->GetSize(), " bytes, the layout needs ", to.get_size());
    }
    dnnl::primitive prim;
    dnnl::memory::desc scratchpad;
    RETURN_IF_ERROR(DnnlCall("reorder primitive", [&] {
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      auto pd = dnnl::reorder::primitive_desc(CpuEngine(), from, CpuEngine(), to, attr);
      prim = dnnl::reorder(pd);
      scratchpad = pd.scratchpad_desc();
    }));
    RETURN_IF_ERROR(prim_.Init(std::move(prim), scratchpad));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_FROM, from));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_TO, to));
    if (prim_.scratchpad_bytes() > 0) {
      RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, prim_.scratchpad_bytes()));
    }
    return ge::OkStatus();
  }

  ge::Status Run(gert::KernelContext& ctx) const override {
    if (!prim_.initialized()) return ge::OkStatus();
    const gert::Tensor* x = ctx.GetInputTensor(0);
    gert::Tensor* y = ctx.GetOutputTensor(0);
    if (x == nullptr || y == nullptr) return ctx.Error("TransData needs input 0 and output 0");
    return prim_.Execute({x->GetAddr(), y->GetAddr()}, ctx.GetWorkspaces());
  }

 private:
  PreparedPrimitive prim_;
};

REG_KERNEL(TransData, ge::kEngineAiCore)
    .Kernel<DnnlTransDataKernel>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16, ge::DT_INT8, ge::DT_UINT8, ge::DT_INT32})
    .Formats({ge::FORMAT_ND, ge::FORMAT_NCHW, ge::FORMAT_NHWC, ge::FORMAT_NC1HWC0, ge::FORMAT_NCDHW,
              ge::FORMAT_NDHWC})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(TransDataSupports);

}  // namespace
}  // namespace compute
}  // namespace ops
