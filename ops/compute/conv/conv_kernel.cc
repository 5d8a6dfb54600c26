// ops/compute/conv/conv_kernel.cc
#include "ops/compute/conv/conv_kernel.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "graph/inc/graph/ge_tensor.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "ops/compute/conv/conv_geometry.h"
#include "ops/compute/conv/conv_post_ops.h"

namespace ops {
namespace compute {
using conv::AppendPostOps;
using conv::FusedActivation;
using conv::kFusedActivation;
using conv::kFusedActivationAlpha;
using conv::kFusedActivationBeta;
using conv::kFusedSum;
using conv::ReadFusedActivation;
namespace {

using dnnl::memory;
using tag = memory::format_tag;

// Tensors of more elements are refused: oneDNN's jit kernels compute
// offsets in 32 bits.
constexpr int64_t kMaxElements = (int64_t{1} << 31) - 1;

// What the checks need of one input or output (from an OpDesc at compile
// time or a tensor at Prepare).
struct TensorFacts {
  bool present = false;
  ge::DataType dtype = ge::DT_UNDEFINED;
  ge::Format format = ge::FORMAT_ND;
  std::vector<int64_t> dims;
};

struct NodeFacts {
  TensorFacts x, w, b, y;
};

TensorFacts FromDesc(const ge::GeTensorDesc* d) {
  TensorFacts f;
  if (d == nullptr || d->GetDataType() == ge::DT_UNDEFINED) return f;
  f.present = true;
  f.dtype = d->GetDataType();
  f.format = d->GetFormat();
  f.dims = d->GetShape().GetDims();
  return f;
}

TensorFacts FromTensor(const gert::Tensor* t) {
  TensorFacts f;
  if (t == nullptr || t->GetDataType() == ge::DT_UNDEFINED) return f;
  f.present = true;
  f.dtype = t->GetDataType();
  f.format = t->GetFormat();
  f.dims = t->GetShape().ToVector();
  return f;
}

std::string DimsStr(const std::vector<int64_t>& v) {
  return absl::StrCat("[", absl::StrJoin(v, ","), "]");
}

std::string FormatName(ge::Format f) { return ge::TypeUtils::FormatToSerialString(f); }

ge::Format Primary(ge::Format f) { return static_cast<ge::Format>(ge::GetPrimaryFormat(f)); }

// Plain layouts: the logical (N, C, spatial...) order, row-major.
bool IsPlain(ge::Format f) {
  switch (Primary(f)) {
    case ge::FORMAT_ND:
    case ge::FORMAT_NCHW:
    case ge::FORMAT_NCDHW:
    case ge::FORMAT_NCL:
      return true;
    default:
      return false;
  }
}

// X or Y: plain, or NC1HWC0 (nChw16c) for a 4-D tensor whose channels fill
// whole blocks (its buffer then holds exactly the logical elements).
ge::Status CheckActivationFormat(const gert::ContextBase& ctx, const TensorFacts& t,
                                 const char* what) {
  if (IsPlain(t.format)) return ge::OkStatus();
  if (Primary(t.format) == ge::FORMAT_NC1HWC0 && t.dims.size() == 4 && t.dims[1] % 16 == 0) {
    return ge::OkStatus();
  }
  // Channels-last memory of the logical dims (the format pass's conv
  // chains): oneDNN's brgconv reads and writes it directly.
  if ((Primary(t.format) == ge::FORMAT_NHWC && t.dims.size() == 4) ||
      (Primary(t.format) == ge::FORMAT_NDHWC && t.dims.size() == 5)) {
    return ge::OkStatus();
  }
  return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, what, " has format ", FormatName(t.format),
                           " with shape ", DimsStr(t.dims),
                           "; the kernel takes plain layouts, channels-last (NHWC / NDHWC) and "
                           "4-D NC1HWC0 with channels a multiple of 16");
}

ge::Status CheckElements(const gert::ContextBase& ctx, const TensorFacts& t, const char* what) {
  int64_t n = 1;
  for (int64_t d : t.dims) {
    if (d < 1) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, what, " shape ", DimsStr(t.dims),
                               " must have every dim known and >= 1");
    }
    if (__builtin_mul_overflow(n, d, &n) || n > kMaxElements) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, what, " shape ", DimsStr(t.dims),
                               " has more elements than oneDNN's 32-bit indexing takes");
    }
  }
  return ge::OkStatus();
}

// The checks Supports and Prepare share; the window when the node is one
// the kernel runs exactly.
ge::StatusOr<ConvWindow> CheckNode(const gert::ContextBase& ctx, const NodeFacts& f,
                                   bool transposed) {
  if (!f.x.present || !f.w.present || !f.y.present) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "needs inputs X, W and output Y");
  }
  if (f.x.dtype != ge::DT_FLOAT && f.x.dtype != ge::DT_BF16) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input 0 (X) has data type ",
                             ge::TypeUtils::DataTypeToSerialString(f.x.dtype),
                             "; the kernel takes FLOAT and BF16");
  }
  const std::pair<const TensorFacts*, const char*> others[] = {
      {&f.w, "input 1 (W)"}, {&f.b, "input 2 (B)"}, {&f.y, "output 0 (Y)"}};
  for (const auto& [t, what] : others) {
    if (t->present && t->dtype != f.x.dtype) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, what, " has data type ",
                               ge::TypeUtils::DataTypeToSerialString(t->dtype), " but X has ",
                               ge::TypeUtils::DataTypeToSerialString(f.x.dtype));
    }
  }
  RETURN_IF_ERROR(CheckElements(ctx, f.x, "input 0 (X)"));
  RETURN_IF_ERROR(CheckElements(ctx, f.w, "input 1 (W)"));
  RETURN_IF_ERROR(CheckElements(ctx, f.y, "output 0 (Y)"));
  RETURN_IF_ERROR(CheckActivationFormat(ctx, f.x, "input 0 (X)"));
  RETURN_IF_ERROR(CheckActivationFormat(ctx, f.y, "output 0 (Y)"));
  if (!IsPlain(f.w.format)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input 1 (W) has format ",
                             FormatName(f.w.format), "; the kernel takes plain weights");
  }
  ASSIGN_OR_RETURN(ConvWindow win, PlanConvWindow(ctx, f.x.dims, f.w.dims, transposed));
  if (f.b.present) {
    if (f.b.dims != std::vector<int64_t>{win.out_channels} || !IsPlain(f.b.format)) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input 2 (B) shape ",
                               DimsStr(f.b.dims), " format ", FormatName(f.b.format),
                               ": expected a plain [", win.out_channels, "]");
    }
  }
  if (f.y.dims != win.y_dims) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "output 0 (Y) shape ", DimsStr(f.y.dims),
                             " is not the convolution's ", DimsStr(win.y_dims));
  }
  RETURN_IF_ERROR(ReadFusedActivation(ctx).status());
  return win;
}

// oneDNN's desc of W in its plain ONNX layout: Conv (M, C / g, k...) and
// ConvTranspose (C, M / g, k...) as oneDNN's (g,) out, in, k... dims.
memory::desc PlainWeightsDesc(const ConvWindow& win, const std::vector<int64_t>& w,
                              memory::data_type dt) {
  const size_t nsp = win.spatial_rank();
  int64_t k_size = 1;
  memory::dims k_strides(nsp);
  for (size_t i = nsp; i-- > 0;) {
    k_strides[i] = k_size;
    k_size *= w[i + 2];
  }
  // Strides of ONNX's dims 0 and 1.
  const int64_t s1 = k_size, s0 = w[1] * k_size;
  memory::dims dims, strides;
  const bool grouped = win.group > 1;
  if (grouped) {
    dims.push_back(win.group);
    strides.push_back(w[0] / win.group * s0);
  }
  if (!win.transposed) {
    // (g, M / g, C / g, k...): ONNX order.
    dims.push_back(w[0] / win.group);
    strides.push_back(s0);
    dims.push_back(w[1]);
    strides.push_back(s1);
  } else {
    // (g, M / g, C / g, k...) from ONNX's (C, M / g, k...).
    dims.push_back(w[1]);
    strides.push_back(s1);
    dims.push_back(w[0] / win.group);
    strides.push_back(s0);
  }
  for (size_t i = 0; i < nsp; ++i) {
    dims.push_back(w[i + 2]);
    strides.push_back(k_strides[i]);
  }
  return memory::desc(dims, dt, strides);
}

memory::dims AnyWeightsDims(const ConvWindow& win, const std::vector<int64_t>& w) {
  memory::dims dims;
  if (win.group > 1) dims.push_back(win.group);
  dims.push_back(win.out_channels / win.group);
  dims.push_back(win.in_channels / win.group);
  for (size_t i = 0; i < win.spatial_rank(); ++i) dims.push_back(w[i + 2]);
  return dims;
}

// The convolution or deconvolution op descriptor (the two share one C
// type); throws dnnl::error when the shapes and window are inconsistent.
dnnl_convolution_desc_t OpDesc(const ConvWindow& win, const memory::desc& src,
                               const memory::desc& wei, const memory::desc& bias,
                               const memory::desc& dst) {
  const auto prop = dnnl::prop_kind::forward_inference;
  if (!win.transposed) {
    return dnnl::convolution_forward::desc(prop, dnnl::algorithm::convolution_direct, src, wei,
                                           bias, dst, win.strides, win.dilates, win.pad_l,
                                           win.pad_r)
        .data;
  }
  return dnnl::deconvolution_forward::desc(prop, dnnl::algorithm::deconvolution_direct, src, wei,
                                           bias, dst, win.strides, win.dilates, win.pad_l,
                                           win.pad_r)
      .data;
}

dnnl::primitive_desc MakePd(const ConvWindow& win, const memory::desc& src, const memory::desc& wei,
                            const memory::desc& bias, const memory::desc& dst,
                            const dnnl::primitive_attr& attr) {
  const dnnl_convolution_desc_t d = OpDesc(win, src, wei, bias, dst);
  return dnnl::primitive_desc(reinterpret_cast<const_dnnl_op_desc_t>(&d), &attr, CpuEngine(),
                              nullptr);
}

// The op descriptor's consistency checks alone, with every layout `any`
// (no implementation search: the same verdict on every machine).
ge::Status CheckOpDesc(const ConvWindow& win, const NodeFacts& f) {
  const memory::data_type dt =
      f.x.dtype == ge::DT_BF16 ? memory::data_type::bf16 : memory::data_type::f32;
  return DnnlCall("convolution descriptor", [&] {
    OpDesc(win, memory::desc(memory::dims(f.x.dims.begin(), f.x.dims.end()), dt, tag::any),
           memory::desc(AnyWeightsDims(win, f.w.dims), dt, tag::any),
           f.b.present ? memory::desc({win.out_channels}, dt, tag::a) : memory::desc(),
           memory::desc(memory::dims(f.y.dims.begin(), f.y.dims.end()), dt, tag::any));
  });
}

// How good an implementation is for a layout choice: AMX, then JIT /
// BRGEMM kernels (and GEMM for a pointwise convolution, which is one plain
// matrix product), then im2col + GEMM, then the reference.
int ImplRank(const std::string& impl, bool pointwise) {
  if (impl.rfind("ref", 0) == 0) return 0;
  if (impl.find("gemm") != std::string::npos) return pointwise ? 2 : 1;
  if (impl.find("amx") != std::string::npos) return 3;
  return 2;
}

dnnl::primitive_attr MakeAttr(const FusedActivation& act, ge::Status* st) {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  dnnl::post_ops ops;
  *st = AppendPostOps(act, &ops);
  if (st->ok() && ops.len() > 0) attr.set_post_ops(ops);
  return attr;
}

// A reorder between two layouts of X or Y, prepared; grows *scratch to its
// scratchpad.
ge::Status PrepareReorder(const memory::desc& from, const memory::desc& to, PreparedPrimitive* p,
                          size_t* scratch) {
  dnnl::reorder::primitive_desc rpd;
  dnnl::primitive prim;
  RETURN_IF_ERROR(DnnlCall("activation reorder", [&] {
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    rpd = dnnl::reorder::primitive_desc(CpuEngine(), from, CpuEngine(), to, attr);
    prim = dnnl::reorder(rpd);
  }));
  *p = PreparedPrimitive();
  RETURN_IF_ERROR(p->Init(std::move(prim), rpd.scratchpad_desc()));
  *scratch = std::max(*scratch, rpd.scratchpad_desc().get_size());
  RETURN_IF_ERROR(p->AddArg(DNNL_ARG_FROM, from));
  return p->AddArg(DNNL_ARG_TO, to);
}

ge::Status Supports(const ge::OpDesc& op, bool transposed) {
  gert::ContextBase ctx;
  ctx.SetNode(op.GetName(), op.GetType());
  ctx.SetAttrHolder(&op);
  if (op.GetAllInputsSize() > 3 || op.GetOutputsSize() != 1) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, op.GetAllInputsSize(), " inputs and ",
                             op.GetOutputsSize(),
                             " outputs; the kernel takes X, W, optional B and one output");
  }
  NodeFacts f;
  f.x = FromDesc(op.GetInputDescBarePtr(0));
  f.w = FromDesc(op.GetAllInputsSize() > 1 ? op.GetInputDescBarePtr(1) : nullptr);
  f.b = FromDesc(op.GetAllInputsSize() > 2 ? op.GetInputDescBarePtr(2) : nullptr);
  f.y = FromDesc(op.GetOutputDescBarePtr(0));
  ge::Status st = [&]() -> ge::Status {
    ASSIGN_OR_RETURN(ConvWindow win, CheckNode(ctx, f, transposed));
    ASSIGN_OR_RETURN(FusedActivation act, ReadFusedActivation(ctx));
    dnnl::post_ops ops;
    RETURN_IF_ERROR(AppendPostOps(act, &ops));
    return ge::Annotate(CheckOpDesc(win, f), "node ", op.GetName(), " (", op.GetType(), "): ");
  }();
  if (st.ok() || ge::GetErrorCode(st) == ge::ErrorCode::kNotSupported) return st;
  return ge::NotSupported(st.message());
}

}  // namespace

ge::Status DnnlConvSupports(const ge::OpDesc& op) { return Supports(op, false); }
ge::Status DnnlConvTransposeSupports(const ge::OpDesc& op) { return Supports(op, true); }

ge::Status DnnlConvKernel::Prepare(gert::TilingContext& ctx) {
  const gert::Tensor* x = ctx.GetInputTensor(0);
  const gert::Tensor* w = ctx.GetInputTensor(1);
  const gert::Tensor* b = ctx.GetInputNum() > 2 ? ctx.GetInputTensor(2) : nullptr;
  const gert::Tensor* y = ctx.GetOutputTensor(0);
  if (ctx.GetInputNum() > 3) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, ctx.GetInputNum(),
                             " inputs; the kernel takes X, W and optional B");
  }
  NodeFacts f;
  f.x = FromTensor(x);
  f.w = FromTensor(w);
  f.b = FromTensor(b);
  f.y = FromTensor(y);
  ASSIGN_OR_RETURN(ConvWindow win, CheckNode(ctx, f, transposed_));
  ASSIGN_OR_RETURN(FusedActivation act, ReadFusedActivation(ctx));
  ge::Status st;
  dnnl::primitive_attr attr = MakeAttr(act, &st);
  RETURN_IF_ERROR(st);

  has_bias_ = f.b.present;
  weights_fixed_ = w->GetAddr() != nullptr;
  ASSIGN_OR_RETURN(memory::data_type dt, DnnlType(f.x.dtype));
  ASSIGN_OR_RETURN(memory::desc x_md, DescOf(*x));
  ASSIGN_OR_RETURN(memory::desc y_md, DescOf(*y));
  const memory::desc w_plain = PlainWeightsDesc(win, f.w.dims, dt);
  const memory::desc b_md =
      has_bias_ ? memory::desc({win.out_channels}, dt, tag::a) : memory::desc();
  x_bytes_ = x_md.get_size();
  y_bytes_ = y_md.get_size();
  w_bytes_ = w_plain.get_size();
  b_bytes_ = has_bias_ ? b_md.get_size() : 0;
  if (weights_fixed_ && w->GetSize() < w_bytes_) {
    return ctx.Error("input 1 (W) holds ", w->GetSize(), " bytes, its shape needs ", w_bytes_);
  }
  const memory::desc w_arg =
      weights_fixed_ ? memory::desc(AnyWeightsDims(win, f.w.dims), dt, tag::any) : w_plain;

  // The layouts the primitive may take X / Y in when it does not take the
  // tensors' own: oneDNN's choice, except depthwise FLOAT 2-D convolutions,
  // whose fastest kernel (jit_dw) is on nChw16c.
  const bool depthwise = win.group > 1 && win.in_channels == win.group;
  const bool blocked_dw = depthwise && dt == memory::data_type::f32 && x_md.data.ndims == 4;
  const memory::desc x_any(x_md.dims(), dt, blocked_dw ? tag::aBcd16b : tag::any);
  const memory::desc y_any(y_md.dims(), dt, blocked_dw ? tag::aBcd16b : tag::any);

  // Candidates: the tensors' layouts, Y in the primitive's, both in the
  // primitive's. Kept: the best implementation class, then fewest reorders.
  const std::pair<const memory::desc*, const memory::desc*> candidates[] = {
      {&x_md, &y_md}, {&x_md, &y_any}, {&x_any, &y_any}};
  dnnl::primitive_desc best;
  int best_rank = -1, best_reorders = 0;
  ge::Status last_error;
  for (const auto& [src, dst] : candidates) {
    dnnl::primitive_desc pd;
    ge::Status made = DnnlCall("convolution primitive descriptor",
                               [&] { pd = MakePd(win, *src, w_arg, b_md, *dst, attr); });
    if (!made.ok()) {
      last_error = made;
      continue;
    }
    const int rank = ImplRank(pd.impl_info_str(), win.pointwise());
    const int reorders = (pd.src_desc() != x_md ? 1 : 0) + (pd.dst_desc() != y_md ? 1 : 0);
    if (rank > best_rank || (rank == best_rank && reorders < best_reorders)) {
      best = pd;
      best_rank = rank;
      best_reorders = reorders;
    }
  }
  if (best_rank < 0) return ge::Annotate(last_error, "node ", ctx.GetNodeName(), ": ");
  impl_ = best.impl_info_str();

  const memory::desc src_md = best.src_desc(), dst_md = best.dst_desc();
  const memory::desc w_md = best.weights_desc();
  if (weights_fixed_) {
    ASSIGN_OR_RETURN(weights_, ReorderOnce(w_plain, w->GetAddr(), w_md));
  }
  size_t scratch = best.scratchpad_desc().get_size();
  conv_ = PreparedPrimitive();
  dnnl::primitive prim;
  RETURN_IF_ERROR(DnnlCall("convolution primitive", [&] { prim = dnnl::primitive(best); }));
  RETURN_IF_ERROR(conv_.Init(std::move(prim), best.scratchpad_desc()));
  RETURN_IF_ERROR(conv_.AddArg(DNNL_ARG_SRC, src_md));
  RETURN_IF_ERROR(conv_.AddArg(DNNL_ARG_WEIGHTS, w_md, weights_fixed_ ? weights_.data() : nullptr));
  if (has_bias_) RETURN_IF_ERROR(conv_.AddArg(DNNL_ARG_BIAS, b_md));
  RETURN_IF_ERROR(conv_.AddArg(DNNL_ARG_DST, dst_md));

  src_reorder_ = PreparedPrimitive();
  dst_reorder_ = PreparedPrimitive();
  if (src_md != x_md) RETURN_IF_ERROR(PrepareReorder(x_md, src_md, &src_reorder_, &scratch));
  if (dst_md != y_md) RETURN_IF_ERROR(PrepareReorder(dst_md, y_md, &dst_reorder_, &scratch));
  if (reorders_src() || reorders_dst()) {
    RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, scratch));
    RETURN_IF_ERROR(ctx.SetWorkspaceSize(1, reorders_src() ? src_md.get_size() : 0));
    RETURN_IF_ERROR(ctx.SetWorkspaceSize(2, reorders_dst() ? dst_md.get_size() : 0));
  } else if (scratch > 0) {
    RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, scratch));
  }
  return ge::OkStatus();
}

ge::Status DnnlConvKernel::Run(gert::KernelContext& ctx) const {
  if (!conv_.initialized()) return ctx.ErrorWithCode(ge::ErrorCode::kInternal, "run unprepared");
  const gert::Tensor* x = ctx.GetInputTensor(0);
  const gert::Tensor* w = ctx.GetInputTensor(1);
  const gert::Tensor* b = has_bias_ ? ctx.GetInputTensor(2) : nullptr;
  gert::Tensor* y = ctx.GetOutputTensor(0);
  auto covers = [](const gert::Tensor* t, size_t bytes) {
    return t != nullptr && t->GetAddr() != nullptr && t->GetSize() >= bytes;
  };
  if (!covers(x, x_bytes_)) return ctx.Error("input 0 (X) needs ", x_bytes_, " bytes of data");
  if (!weights_fixed_ && !covers(w, w_bytes_)) {
    return ctx.Error("input 1 (W) needs ", w_bytes_, " bytes of data");
  }
  if (has_bias_ && !covers(b, b_bytes_)) {
    return ctx.Error("input 2 (B) needs ", b_bytes_, " bytes of data");
  }
  if (!covers(y, y_bytes_)) return ctx.Error("output 0 (Y) needs ", y_bytes_, " bytes");
  const absl::Span<void* const> ws = ctx.GetWorkspaces();
  const void* src = x->GetAddr();
  void* dst = y->GetAddr();
  if (reorders_src() || reorders_dst()) {
    if (ws.size() < 3 || (reorders_src() && ws[1] == nullptr) ||
        (reorders_dst() && ws[2] == nullptr)) {
      return ctx.ErrorWithCode(ge::ErrorCode::kInternal,
                               "the reordered activations need workspaces 1 and 2");
    }
  }
  if (reorders_src()) {
    RETURN_IF_ERROR(src_reorder_.Execute({src, ws[1]}, ws));
    src = ws[1];
  }
  if (reorders_dst()) dst = ws[2];
  std::array<const void*, 4> handles;
  size_t n = 0;
  handles[n++] = src;
  if (!weights_fixed_) handles[n++] = w->GetAddr();
  if (has_bias_) handles[n++] = b->GetAddr();
  handles[n++] = dst;
  RETURN_IF_ERROR(conv_.Execute(absl::MakeConstSpan(handles.data(), n), ws));
  if (reorders_dst()) RETURN_IF_ERROR(dst_reorder_.Execute({dst, y->GetAddr()}, ws));
  return ge::OkStatus();
}

// Plain layouts (ND stands for all of them; Supports keeps the logical
// ones) and NC1HWC0 for activation chains in blocks of 16 channels.
REG_KERNEL(Conv, ge::kEngineAiCore)
    .Kernel<DnnlConv>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .Formats({ge::FORMAT_ND, ge::FORMAT_NCL, ge::FORMAT_NCHW, ge::FORMAT_NCDHW, ge::FORMAT_NC1HWC0,
              ge::FORMAT_NHWC, ge::FORMAT_NDHWC})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(DnnlConvSupports);

REG_KERNEL(ConvTranspose, ge::kEngineAiCore)
    .Kernel<DnnlConvTranspose>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .Formats({ge::FORMAT_ND, ge::FORMAT_NCL, ge::FORMAT_NCHW, ge::FORMAT_NCDHW, ge::FORMAT_NC1HWC0,
              ge::FORMAT_NHWC, ge::FORMAT_NDHWC})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(DnnlConvTransposeSupports);

}  // namespace compute
}  // namespace ops
