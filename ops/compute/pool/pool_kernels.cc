// ops/compute/pool/pool_kernels.cc
//
// The compute engine's pooling kernels on oneDNN pooling_v2 (inference):
//   MaxPool            kernel_shape, strides, pads / auto_pad, dilations,
//                      ceil_mode; 1-3 spatial dims; FLOAT and BF16 (plain,
//                      channels-last and NC1HWC0), INT8 / UINT8 (plain). The optional Indices
//                      output, when the executor hands it, is computed by a
//                      loop of the host kernel's rule (first maximum,
//                      storage_order 0 row-major / 1 column-major offsets).
//   AveragePool        count_include_pad 0 -> avg_exclude_padding, 1 ->
//                      avg_include_padding; FLOAT, BF16.
//   GlobalAveragePool  one window over the spatial dims (any number of them,
//   GlobalMaxPool      merged into one); FLOAT, BF16.
//
// Geometry: output dims are the node's (inferred); oneDNN's right padding is
// the attribute's, extended where ceil_mode adds a last window
// (out - 1) * stride + dilated kernel - in - pad_begin, the way ONNX
// Runtime maps ceil_mode. Padding never contributes to a max or to an
// excluding average, as in the host kernel.
//
// Rejected (the host-CPU engine keeps them): a window holding no input
// element (oneDNN's and the host's results differ there); count_include_pad
// 1 where ceil_mode extends a window past the end padding (the host divides
// by the window clipped to the padded input, oneDNN by the whole kernel);
// more than 3 spatial dims; layouts whose dims are not (N, C, spatial...).
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "dnnl.hpp"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "ops/common/element_types.h"
#include "ops/compute/common/dnnl_common.h"
#include "ops/compute/reorder/layout.h"

namespace ops {
namespace compute {
namespace {

enum class PoolKind { kMax, kAvg, kGlobalMax, kGlobalAvg };

bool IsGlobal(PoolKind k) { return k == PoolKind::kGlobalMax || k == PoolKind::kGlobalAvg; }
bool IsMax(PoolKind k) { return k == PoolKind::kMax || k == PoolKind::kGlobalMax; }

constexpr int kMaxSpatial = 3;

// The window of every spatial dim, in oneDNN's terms.
struct PoolGeometry {
  int nsp = 0;
  int64_t in[kMaxSpatial] = {};
  int64_t out[kMaxSpatial] = {};
  int64_t kernel[kMaxSpatial] = {};
  int64_t stride[kMaxSpatial] = {};
  int64_t dilation[kMaxSpatial] = {};  // ONNX's (1 = none)
  int64_t pad_l[kMaxSpatial] = {};
  int64_t pad_r[kMaxSpatial] = {};  // oneDNN's (ceil_mode extended)
  bool extended = false;            // some pad_r beyond the attribute's
  bool include_pad = false;
};

int64_t CeilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0 && a > 0 ? 1 : 0); }

ge::StatusOr<std::vector<int64_t>> ListOr(const gert::ContextBase& attrs, const char* name,
                                          size_t n, int64_t dflt) {
  ASSIGN_OR_RETURN(std::vector<int64_t> v, attrs.GetListIntOr(name, {}));
  if (v.empty()) v.assign(n, dflt);
  if (v.size() != n) {
    return ge::NotSupported("attribute ", name, " has ", v.size(), " values, expected ", n);
  }
  return v;
}

// The geometry of a windowed pool on `x` (N, C, spatial...) giving `y`.
ge::StatusOr<PoolGeometry> WindowGeometry(const gert::ContextBase& attrs, PoolKind kind,
                                          absl::Span<const int64_t> x,
                                          absl::Span<const int64_t> y) {
  if (x.size() < 3 || x.size() > 2 + kMaxSpatial) {
    return ge::NotSupported("input has ", x.size(), " dims; the kernel takes 1 to ", kMaxSpatial,
                            " spatial dims");
  }
  if (y.size() != x.size()) return ge::NotSupported("output rank differs from the input's");
  PoolGeometry g;
  g.nsp = static_cast<int>(x.size()) - 2;
  const size_t n = static_cast<size_t>(g.nsp);
  ASSIGN_OR_RETURN(std::vector<int64_t> kernel, attrs.GetListIntOr("kernel_shape", {}));
  if (kernel.size() != n) {
    return ge::NotSupported("attribute kernel_shape has ", kernel.size(), " values, expected ", n);
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> strides, ListOr(attrs, "strides", n, 1));
  ASSIGN_OR_RETURN(std::vector<int64_t> pads, ListOr(attrs, "pads", 2 * n, 0));
  std::vector<int64_t> dil(n, 1);
  if (kind == PoolKind::kMax) {
    ASSIGN_OR_RETURN(dil, ListOr(attrs, "dilations", n, 1));
  }
  ASSIGN_OR_RETURN(std::string auto_pad, attrs.GetStrOr("auto_pad", "NOTSET"));
  ASSIGN_OR_RETURN(int64_t ceil_mode, attrs.GetIntOr("ceil_mode", 0));
  if (kind == PoolKind::kAvg) {
    ASSIGN_OR_RETURN(int64_t cip, attrs.GetIntOr("count_include_pad", 0));
    g.include_pad = cip != 0;
  }
  if (auto_pad != "NOTSET" && auto_pad != "VALID" && auto_pad != "SAME_UPPER" &&
      auto_pad != "SAME_LOWER") {
    return ge::NotSupported("attribute auto_pad \"", auto_pad, "\" is not an ONNX mode");
  }
  for (size_t i = 0; i < n; ++i) {
    const int64_t in = x[i + 2];
    const int64_t k = kernel[i];
    const int64_t s = strides[i];
    const int64_t d = dil[i];
    if (k < 1 || s < 1 || d < 1 || pads[i] < 0 || pads[i + n] < 0) {
      return ge::NotSupported("kernel, stride and dilation must be >= 1 and pads >= 0");
    }
    const int64_t dk = (k - 1) * d + 1;
    int64_t pb = 0, pe = 0, out = 0;
    if (auto_pad == "NOTSET") {
      pb = pads[i];
      pe = pads[i + n];
      const int64_t span = in + pb + pe - dk;
      if (span < 0) return ge::NotSupported("spatial dim ", i, " is smaller than the kernel");
      if (ceil_mode != 0) {
        out = CeilDiv(span, s) + 1;
        if ((out - 1) * s >= in + pb) --out;
      } else {
        out = span / s + 1;
      }
    } else if (auto_pad == "VALID") {
      if (in < dk) return ge::NotSupported("spatial dim ", i, " is smaller than the kernel");
      out = (in - dk) / s + 1;
    } else {
      out = CeilDiv(in, s);
      const int64_t total = std::max<int64_t>(0, (out - 1) * s + dk - in);
      if (auto_pad == "SAME_UPPER") {
        pb = total / 2;
        pe = total - pb;
      } else {
        pe = total / 2;
        pb = total - pe;
      }
    }
    if (out != y[i + 2]) {
      return ge::NotSupported("output spatial dim ", i, " is ", y[i + 2], ", the attributes give ",
                              out);
    }
    // oneDNN: out == floor((in + pb + pr - dk) / s) + 1.
    int64_t pr = pe;
    if ((in + pb + pr - dk) / s + 1 != out) {
      pr = (out - 1) * s + dk - in - pb;
      if (pr > pe) g.extended = true;
    }
    // Every window must hold an input element.
    for (int64_t o = 0; o < out; ++o) {
      bool any = false;
      for (int64_t j = 0; j < k && !any; ++j) {
        const int64_t p = o * s - pb + j * d;
        any = p >= 0 && p < in;
      }
      if (!any) {
        return ge::NotSupported("window ", o, " of spatial dim ", i, " holds padding only (pads ",
                                pb, "/", pe, ", kernel ", k, ", dilation ", d, ")");
      }
    }
    g.in[i] = in;
    g.out[i] = out;
    g.kernel[i] = k;
    g.stride[i] = s;
    g.dilation[i] = d;
    g.pad_l[i] = pb;
    g.pad_r[i] = pr;
  }
  if (g.include_pad && g.extended) {
    return ge::NotSupported(
        "count_include_pad with ceil_mode windows past the end padding: the host divides by the "
        "window inside the padded input, oneDNN by the whole kernel");
  }
  return g;
}

// A global pool as one window; the spatial dims merged unless the layout is
// blocked (then H and W stay).
PoolGeometry GlobalGeometry(absl::Span<const int64_t> x, bool blocked) {
  PoolGeometry g;
  if (blocked) {
    g.nsp = 2;
    for (int i = 0; i < 2; ++i) g.in[i] = x[i + 2];
  } else {
    g.nsp = 1;
    g.in[0] = 1;
    for (size_t i = 2; i < x.size(); ++i) g.in[0] *= x[i];
  }
  for (int i = 0; i < g.nsp; ++i) {
    g.out[i] = 1;
    g.kernel[i] = g.in[i];
    g.stride[i] = 1;
    g.dilation[i] = 1;
  }
  return g;
}

ge::StatusOr<PoolGeometry> GeometryOf(const gert::ContextBase& attrs, PoolKind kind,
                                      absl::Span<const int64_t> x, absl::Span<const int64_t> y,
                                      bool blocked) {
  if (!IsGlobal(kind)) return WindowGeometry(attrs, kind, x, y);
  if (x.size() < 2) return ge::NotSupported("input has ", x.size(), " dims; expected (N, C, ...)");
  PoolGeometry g = GlobalGeometry(x, blocked);
  for (int i = 0; i < g.nsp; ++i) {
    if (g.in[i] == 0) return ge::NotSupported("the spatial dims hold no element");
  }
  return g;
}

// ------------------------------------------------------------ Supports

template <PoolKind kKind>
ge::Status PoolSupports(const ge::OpDesc& op) {
  const ge::GeTensorDesc* x = op.GetInputDescBarePtr(0);
  const ge::GeTensorDesc* y = op.GetOutputDescBarePtr(0);
  if (x == nullptr || y == nullptr) return ge::NotSupported("the node needs input 0 and output 0");
  const bool blocked_ok = x->GetDataType() == ge::DT_FLOAT || x->GetDataType() == ge::DT_BF16;
  RETURN_IF_ERROR(CheckNchwLayout(*x, "input 0", blocked_ok));
  RETURN_IF_ERROR(CheckNchwLayout(*y, "output 0", blocked_ok));
  const bool blocked = IsNc1hwc0(x->GetFormat());
  const bool last = IsChannelsLast(x->GetFormat());
  if (blocked != IsNc1hwc0(y->GetFormat()) || last != IsChannelsLast(y->GetFormat())) {
    return ge::NotSupported("input 0 is ", FormatName(x->GetFormat()), " and output 0 is ",
                            FormatName(y->GetFormat()), ": the kernel keeps the layout");
  }
  if (x->GetDataType() != y->GetDataType()) {
    return ge::NotSupported("input and output data types differ");
  }
  if (x->GetDataType() != ge::DT_FLOAT && x->GetDataType() != ge::DT_BF16 &&
      !(kKind == PoolKind::kMax &&
        (x->GetDataType() == ge::DT_INT8 || x->GetDataType() == ge::DT_UINT8))) {
    return ge::NotSupported("input data type is not one of the kernel's");
  }
  if (op.GetOutputsSize() > 1) {
    const ge::GeTensorDesc* ind = op.GetOutputDescBarePtr(1);
    // An unused Indices keeps its unset (RESERVED) format: fine.
    if (ind != nullptr && ind->GetDataType() != ge::DT_UNDEFINED && IsNc1hwc0(ind->GetFormat())) {
      return ge::NotSupported("output 1 (Indices) is ", FormatName(ind->GetFormat()),
                              "; the kernel writes it plain");
    }
  }
  if (kKind == PoolKind::kMax) {
    ASSIGN_OR_RETURN(int64_t so, AttrsOf(op).GetIntOr("storage_order", 0));
    if (so != 0 && so != 1) return ge::NotSupported("attribute storage_order must be 0 or 1");
  }
  return GeometryOf(AttrsOf(op), kKind, x->GetShape().GetDims(), y->GetShape().GetDims(), blocked)
      .status();
}

// ------------------------------------------------------------ Indices

// The host kernel's MaxPool indices from the input buffer (plain or
// aBcd16b), written as int64 in NCHW order.
template <typename T>
void ComputeIndices(const PoolGeometry& g, int64_t n, int64_t c, bool blocked, bool channels_last,
                    bool column_major, const T* x, int64_t* ind) {
  int64_t in_size = 1, out_size = 1;
  for (int i = 0; i < g.nsp; ++i) {
    in_size *= g.in[i];
    out_size *= g.out[i];
  }
  int64_t row_stride[kMaxSpatial], col_stride[kMaxSpatial];
  row_stride[g.nsp - 1] = 1;
  for (int i = g.nsp - 1; i > 0; --i) row_stride[i - 1] = row_stride[i] * g.in[i];
  col_stride[0] = 1;
  for (int i = 1; i < g.nsp; ++i) col_stride[i] = col_stride[i - 1] * g.in[i - 1];
  const int64_t c1 = (c + 15) / 16;
  ParallelFor(n * c, 1, [&](int64_t begin, int64_t end) {
    for (int64_t pl = begin; pl < end; ++pl) {
      const int64_t b = pl / c, ch = pl % c;
      // Element (spatial offset p) of plane pl.
      const T* base = blocked         ? x + ((b * c1 + ch / 16) * in_size) * 16 + ch % 16
                      : channels_last ? x + b * in_size * c + ch
                                      : x + pl * in_size;
      const int64_t step = blocked ? 16 : channels_last ? c : 1;
      int64_t o[kMaxSpatial] = {0, 0, 0};
      for (int64_t op = 0; op < out_size; ++op) {
        int64_t best = -1;
        ComputeType<T> best_v = ComputeType<T>();
        int64_t j[kMaxSpatial] = {0, 0, 0};
        while (true) {
          int64_t off = 0;
          bool inside = true;
          for (int i = 0; i < g.nsp && inside; ++i) {
            const int64_t p = o[i] * g.stride[i] - g.pad_l[i] + j[i] * g.dilation[i];
            inside = p >= 0 && p < g.in[i];
            off += p * row_stride[i];
          }
          if (inside) {
            const ComputeType<T> v = ToCompute(base[off * step]);
            if (best < 0 || v > best_v) {
              best = off;
              best_v = v;
            }
          }
          int i = g.nsp - 1;
          while (i >= 0 && ++j[i] == g.kernel[i]) j[i--] = 0;
          if (i < 0) break;
        }
        int64_t flat = best;
        if (column_major && best >= 0) {
          flat = 0;
          int64_t rem = best;
          for (int i = 0; i < g.nsp; ++i) {
            flat += (rem / row_stride[i]) * col_stride[i];
            rem %= row_stride[i];
          }
        }
        ind[pl * out_size + op] = best < 0 ? -1 : pl * in_size + flat;
        int i = g.nsp - 1;
        while (i >= 0 && ++o[i] == g.out[i]) o[i--] = 0;
      }
    }
  });
}

// ------------------------------------------------------------ kernel

template <typename T>
ge::StatusOr<T*> Required(const gert::ContextBase& ctx, T* t, const char* what) {
  if (t == nullptr) return ctx.Error(what, " is missing");
  return t;
}

dnnl::algorithm AlgorithmOf(PoolKind kind, bool include_pad) {
  if (IsMax(kind)) return dnnl::algorithm::pooling_max;
  return include_pad ? dnnl::algorithm::pooling_avg_include_padding
                     : dnnl::algorithm::pooling_avg_exclude_padding;
}

template <PoolKind kKind>
class DnnlPoolKernel final : public ge::OpKernel {
 public:
  ge::Status Prepare(gert::TilingContext& ctx) override {
    ASSIGN_OR_RETURN(const gert::Tensor* x, Required(ctx, ctx.GetInputTensor(0), "input 0"));
    ASSIGN_OR_RETURN(const gert::Tensor* y, Required(ctx, ctx.GetOutputTensor(0), "output 0"));
    blocked_ = IsNc1hwc0(x->GetFormat());
    channels_last_ = IsChannelsLast(x->GetFormat());
    if (blocked_ != IsNc1hwc0(y->GetFormat()) || channels_last_ != IsChannelsLast(y->GetFormat())) {
      return ctx.Error("input and output layouts differ");
    }
    ge::StatusOr<PoolGeometry> g =
        GeometryOf(ctx, kKind, x->GetShape().GetDims(), y->GetShape().GetDims(), blocked_);
    if (!g.ok()) return ctx.ErrorWithCode(ge::GetErrorCode(g.status()), g.status().message());
    geo_ = *g;
    dt_ = x->GetDataType();
    n_ = x->GetShape().GetDim(0);
    c_ = x->GetShape().GetDim(1);
    if (kKind == PoolKind::kMax) {
      ASSIGN_OR_RETURN(int64_t so, ctx.GetIntOr("storage_order", 0));
      column_major_ = so == 1;
    }
    if (x->GetShapeSize() == 0 || y->GetShapeSize() == 0) return ge::OkStatus();
    ASSIGN_OR_RETURN(dnnl::memory::data_type t, DnnlType(dt_));
    dnnl::memory::dims src{n_, c_}, dst{n_, c_}, kernel, strides, dilation, pad_l, pad_r;
    for (int i = 0; i < geo_.nsp; ++i) {
      src.push_back(geo_.in[i]);
      dst.push_back(geo_.out[i]);
      kernel.push_back(geo_.kernel[i]);
      strides.push_back(geo_.stride[i]);
      dilation.push_back(geo_.dilation[i] - 1);
      pad_l.push_back(geo_.pad_l[i]);
      pad_r.push_back(geo_.pad_r[i]);
    }
    dnnl::memory::desc ms, md;
    if (channels_last_) {
      // The pooled geometry's dims (global pools flatten the spatial dims)
      // with channels innermost: nwc / nhwc / ndhwc.
      const dnnl::memory::format_tag last = src.size() == 3   ? dnnl::memory::format_tag::acb
                                            : src.size() == 4 ? dnnl::memory::format_tag::acdb
                                                              : dnnl::memory::format_tag::acdeb;
      RETURN_IF_ERROR(DnnlCall("pooling memory descs", [&] {
        ms = dnnl::memory::desc(src, t, last);
        md = dnnl::memory::desc(dst, t, last);
      }));
    } else if (blocked_) {
      ASSIGN_OR_RETURN(ms, DescOf(*x));
      ASSIGN_OR_RETURN(md, DescOf(*y));
    } else {
      ASSIGN_OR_RETURN(dnnl::memory::format_tag tag, PlainTag(src.size()));
      RETURN_IF_ERROR(DnnlCall("pooling memory descs", [&] {
        ms = dnnl::memory::desc(src, t, tag);
        md = dnnl::memory::desc(dst, t, tag);
      }));
    }
    dnnl::primitive prim;
    dnnl::memory::desc scratchpad;
    RETURN_IF_ERROR(DnnlCall("pooling primitive", [&] {
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      auto d = dnnl::pooling_v2_forward::desc(dnnl::prop_kind::forward_inference,
                                              AlgorithmOf(kKind, geo_.include_pad), ms, md, strides,
                                              kernel, dilation, pad_l, pad_r);
      auto pd = dnnl::pooling_v2_forward::primitive_desc(d, attr, CpuEngine());
      prim = dnnl::pooling_v2_forward(pd);
      scratchpad = pd.scratchpad_desc();
    }));
    RETURN_IF_ERROR(prim_.Init(std::move(prim), scratchpad));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_SRC, ms));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_DST, md));
    if (prim_.scratchpad_bytes() > 0) {
      RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, prim_.scratchpad_bytes()));
    }
    return ge::OkStatus();
  }

  ge::Status Run(gert::KernelContext& ctx) const override {
    if (!prim_.initialized()) return ge::OkStatus();
    ASSIGN_OR_RETURN(const gert::Tensor* x, Required(ctx, ctx.GetInputTensor(0), "input 0"));
    ASSIGN_OR_RETURN(gert::Tensor * y, Required(ctx, ctx.GetOutputTensor(0), "output 0"));
    RETURN_IF_ERROR(prim_.Execute({x->GetAddr(), y->GetAddr()}, ctx.GetWorkspaces()));
    if (kKind != PoolKind::kMax) return ge::OkStatus();
    gert::Tensor* ind = ctx.GetOutputTensor(1);
    if (ind == nullptr || ind->GetAddr() == nullptr) return ge::OkStatus();
    int64_t* out = ind->GetData<int64_t>();
    switch (dt_) {
      case ge::DT_FLOAT:
        ComputeIndices(geo_, n_, c_, blocked_, channels_last_, column_major_, x->GetData<float>(),
                       out);
        break;
      case ge::DT_BF16:
        ComputeIndices(geo_, n_, c_, blocked_, channels_last_, column_major_,
                       x->GetData<ops::bf16_t>(), out);
        break;
      case ge::DT_INT8:
        ComputeIndices(geo_, n_, c_, blocked_, channels_last_, column_major_, x->GetData<int8_t>(),
                       out);
        break;
      case ge::DT_UINT8:
        ComputeIndices(geo_, n_, c_, blocked_, channels_last_, column_major_, x->GetData<uint8_t>(),
                       out);
        break;
      default:
        return ctx.Error("MaxPool Indices: unexpected data type");
    }
    return ge::OkStatus();
  }

 private:
  PreparedPrimitive prim_;
  PoolGeometry geo_;
  bool blocked_ = false;
  bool channels_last_ = false;
  bool column_major_ = false;
  ge::DataType dt_ = ge::DT_FLOAT;
  int64_t n_ = 0, c_ = 0;
};

// ------------------------------------------------------------ registration

#define GE_COMPUTE_POOL_(Type, Kind, ...)                                             \
  REG_KERNEL(Type, ge::kEngineAiCore)                                                 \
      .Kernel<DnnlPoolKernel<Kind>>()                                                 \
      .DataTypes(__VA_ARGS__)                                                         \
      .Formats({ge::FORMAT_ND, ge::FORMAT_NCHW, ge::FORMAT_NCDHW, ge::FORMAT_NC1HWC0, \
                ge::FORMAT_NHWC, ge::FORMAT_NDHWC})                                   \
      .ShapeKinds(ge::kKernelStaticShape)                                             \
      .Supports(PoolSupports<Kind>)

// INT64: MaxPool's Indices output.
GE_COMPUTE_POOL_(MaxPool, PoolKind::kMax,
                 {ge::DT_FLOAT, ge::DT_BF16, ge::DT_INT8, ge::DT_UINT8, ge::DT_INT64});
GE_COMPUTE_POOL_(AveragePool, PoolKind::kAvg, {ge::DT_FLOAT, ge::DT_BF16});
GE_COMPUTE_POOL_(GlobalMaxPool, PoolKind::kGlobalMax, {ge::DT_FLOAT, ge::DT_BF16});
GE_COMPUTE_POOL_(GlobalAveragePool, PoolKind::kGlobalAvg, {ge::DT_FLOAT, ge::DT_BF16});
#undef GE_COMPUTE_POOL_

}  // namespace
}  // namespace compute
}  // namespace ops
