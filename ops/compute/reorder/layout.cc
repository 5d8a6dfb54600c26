// ops/compute/reorder/layout.cc
#include "ops/compute/reorder/layout.h"

#include "metadef/inc/external/graph/type_utils.h"
#include "ops/compute/common/dnnl_common.h"

namespace ops {
namespace compute {

bool IsNc1hwc0(ge::Format f) { return ge::GetPrimaryFormat(f) == ge::FORMAT_NC1HWC0; }

bool IsChannelsLast(ge::Format f) {
  const int32_t p = ge::GetPrimaryFormat(f);
  return p == ge::FORMAT_NHWC || p == ge::FORMAT_NDHWC;
}

namespace {

// The rank a channels-last format holds (NHWC 4, NDHWC 5).
size_t ChannelsLastRank(ge::Format f) { return ge::GetPrimaryFormat(f) == ge::FORMAT_NHWC ? 4 : 5; }

}  // namespace

bool IsNchwOrder(ge::Format f) {
  switch (static_cast<ge::Format>(ge::GetPrimaryFormat(f))) {
    case ge::FORMAT_ND:
    case ge::FORMAT_NCHW:
    case ge::FORMAT_NCDHW:
      return true;
    default:
      return false;
  }
}

std::string FormatName(ge::Format f) { return ge::TypeUtils::FormatToSerialString(f); }

ge::Status CheckSameLayout(const ge::GeTensorDesc& in, const ge::GeTensorDesc& out) {
  if (IsChannelsLast(in.GetFormat()) || IsChannelsLast(out.GetFormat())) {
    if (ge::GetPrimaryFormat(in.GetFormat()) != ge::GetPrimaryFormat(out.GetFormat()) ||
        in.GetShape() != out.GetShape() ||
        in.GetShape().GetDimNum() != ChannelsLastRank(in.GetFormat())) {
      return ge::NotSupported("input 0 is ", FormatName(in.GetFormat()), " ",
                              in.GetShape().ToString(), " and output 0 is ",
                              FormatName(out.GetFormat()), " ", out.GetShape().ToString(),
                              ": a channels-last kernel keeps the layout and the shape");
    }
    return ge::OkStatus();
  }
  const bool bin = IsNc1hwc0(in.GetFormat());
  const bool bout = IsNc1hwc0(out.GetFormat());
  if (bin != bout) {
    return ge::NotSupported("input 0 is ", FormatName(in.GetFormat()), " and output 0 is ",
                            FormatName(out.GetFormat()), ": the kernel keeps the layout");
  }
  if (bin && in.GetShape().GetDimNum() != 4) {
    return ge::NotSupported("an NC1HWC0 tensor must have its 4 logical dims (N, C, H, W), got ",
                            in.GetShape().GetDimNum());
  }
  return ge::OkStatus();
}

ge::Status CheckNchwLayout(const ge::GeTensorDesc& d, const std::string& what, bool allow_blocked) {
  const ge::Format f = d.GetFormat();
  if (IsChannelsLast(f)) {
    if (!allow_blocked) {
      return ge::NotSupported(what, " is ", FormatName(f), ", which the kernel does not take");
    }
    if (d.GetShape().GetDimNum() != ChannelsLastRank(f)) {
      return ge::NotSupported(what, " is ", FormatName(f), " with ", d.GetShape().GetDimNum(),
                              " dims");
    }
    return ge::OkStatus();
  }
  if (IsNc1hwc0(f)) {
    if (!allow_blocked)
      return ge::NotSupported(what, " is NC1HWC0, which the kernel does not take");
    if (d.GetShape().GetDimNum() != 4) {
      return ge::NotSupported(what, " is NC1HWC0 with ", d.GetShape().GetDimNum(),
                              " dims; the kernel takes its 4 logical dims (N, C, H, W)");
    }
    return ge::OkStatus();
  }
  if (!IsNchwOrder(f)) {
    return ge::NotSupported(what, " is ", FormatName(f),
                            "; the kernel takes (N, C, spatial...) dims (ND, NCHW, NCDHW)");
  }
  return ge::OkStatus();
}

gert::ContextBase AttrsOf(const ge::OpDesc& op) {
  gert::ContextBase c;
  c.SetNode(op.GetName(), op.GetType());
  c.SetAttrHolder(&op);
  return c;
}

ge::StatusOr<dnnl::memory::desc> ElementwiseDesc(const gert::Tensor& t, int64_t* count) {
  ASSIGN_OR_RETURN(dnnl::memory::data_type dt, DnnlType(t.GetDataType()));
  if (IsNc1hwc0(t.GetFormat())) {
    ASSIGN_OR_RETURN(dnnl::memory::desc md, DescOf(t));
    *count = static_cast<int64_t>(md.get_size() / dnnl::memory::data_type_size(dt));
    return md;
  }
  const int64_t n = t.GetShapeSize();
  if (n < 0) return ge::ParamInvalid("tensor shape ", t.GetShape().ToString(), " is not static");
  *count = n;
  dnnl::memory::desc md;
  RETURN_IF_ERROR(DnnlCall("elementwise memory desc",
                           [&] { md = dnnl::memory::desc({n}, dt, dnnl::memory::format_tag::a); }));
  return md;
}

}  // namespace compute
}  // namespace ops
