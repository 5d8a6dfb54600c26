// ops/compute/conv/conv_geometry.cc
#include "ops/compute/conv/conv_geometry.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace ops {
namespace compute {
namespace {

// oneDNN's jit kernels index with int: dims, attribute values and the
// quantities derived from them stay below this.
constexpr int64_t kMaxValue = (int64_t{1} << 31) - 1;

enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };

std::string ListStr(absl::Span<const int64_t> v) {
  return absl::StrCat("[", absl::StrJoin(v, ","), "]");
}

ge::Status CheckValue(const gert::ContextBase& ctx, const char* what, int64_t v) {
  if (v > kMaxValue) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, what, " ", v,
                             " is beyond oneDNN's 32-bit indexing");
  }
  return ge::OkStatus();
}

// A list attribute of n entries >= min_value (fill when absent or empty).
ge::Status ReadList(const gert::ContextBase& ctx, const char* name, size_t n, int64_t fill,
                    int64_t min_value, std::vector<int64_t>* out) {
  ASSIGN_OR_RETURN(std::vector<int64_t> v, ctx.GetListIntOr(name, {}));
  if (v.empty()) {
    out->assign(n, fill);
    return ge::OkStatus();
  }
  if (v.size() != n) {
    return ctx.Error("attribute ", name, " ", ListStr(v), " has ", v.size(), " entries, expected ",
                     n);
  }
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] < min_value) {
      return ctx.Error("attribute ", name, " ", ListStr(v), ": entry ", i, " (", v[i],
                       ") must be >= ", min_value);
    }
    RETURN_IF_ERROR(CheckValue(ctx, name, v[i]));
  }
  *out = std::move(v);
  return ge::OkStatus();
}

ge::StatusOr<AutoPad> ReadAutoPad(const gert::ContextBase& ctx) {
  ASSIGN_OR_RETURN(std::string s, ctx.GetStrOr("auto_pad", "NOTSET"));
  if (s == "NOTSET" || s.empty()) return AutoPad::kNotSet;
  if (s == "SAME_UPPER") return AutoPad::kSameUpper;
  if (s == "SAME_LOWER") return AutoPad::kSameLower;
  if (s == "VALID") return AutoPad::kValid;
  return ctx.Error("attribute auto_pad \"", s,
                   "\" is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
}

}  // namespace

bool ConvWindow::pointwise() const {
  for (size_t i = 0; i < kernel.size(); ++i) {
    if (kernel[i] != 1 || strides[i] != 1 || pad_l[i] != 0 || pad_r[i] != 0) return false;
  }
  return true;
}

ge::StatusOr<ConvWindow> PlanConvWindow(const gert::ContextBase& ctx, absl::Span<const int64_t> x,
                                        absl::Span<const int64_t> w, bool transposed) {
  const size_t rank = x.size();
  if (rank < 3 || rank > 5) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input 0 (X) shape ", ListStr(x),
                             " has rank ", rank, "; oneDNN convolutions take 1 to 3 spatial dims");
  }
  if (w.size() != rank) {
    return ctx.Error("input 1 (W) shape ", ListStr(w), " has rank ", w.size(),
                     " but input 0 (X) has rank ", rank);
  }
  for (size_t i = 0; i < rank; ++i) {
    if (x[i] < 1 || w[i] < 1) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "shapes ", ListStr(x), " and ",
                               ListStr(w), " must have every dim known and >= 1");
    }
    RETURN_IF_ERROR(CheckValue(ctx, "dim", x[i]));
    RETURN_IF_ERROR(CheckValue(ctx, "dim", w[i]));
  }
  ConvWindow p;
  p.transposed = transposed;
  ASSIGN_OR_RETURN(p.group, ctx.GetIntOr("group", 1));
  if (p.group < 1) return ctx.Error("attribute group (", p.group, ") must be >= 1");
  p.in_channels = x[1];
  if (!transposed) {
    p.out_channels = w[0];
    if (x[1] != w[1] * p.group) {
      return ctx.Error("input 0 (X) has ", x[1], " channels but W ", ListStr(w), " expects ", w[1],
                       " x group ", p.group);
    }
    if (w[0] % p.group != 0) {
      return ctx.Error("W output channels (", w[0], ") are not divisible by group ", p.group);
    }
  } else {
    if (x[1] != w[0]) {
      return ctx.Error("input 0 (X) has ", x[1], " channels but W ", ListStr(w), " has ", w[0],
                       " input channels");
    }
    if (w[0] % p.group != 0) {
      return ctx.Error("W input channels (", w[0], ") are not divisible by group ", p.group);
    }
    p.out_channels = w[1] * p.group;
    RETURN_IF_ERROR(CheckValue(ctx, "output channels", p.out_channels));
  }
  const size_t nsp = rank - 2;
  ASSIGN_OR_RETURN(AutoPad auto_pad, ReadAutoPad(ctx));
  p.kernel.assign(w.begin() + 2, w.end());
  ASSIGN_OR_RETURN(std::vector<int64_t> kernel_attr, ctx.GetListIntOr("kernel_shape", {}));
  if (!kernel_attr.empty() && kernel_attr != p.kernel) {
    return ctx.Error("attribute kernel_shape ", ListStr(kernel_attr),
                     " does not match the weight's spatial dims ", ListStr(p.kernel));
  }
  std::vector<int64_t> strides, dilations, pads;
  RETURN_IF_ERROR(ReadList(ctx, "strides", nsp, 1, 1, &strides));
  RETURN_IF_ERROR(ReadList(ctx, "dilations", nsp, 1, 1, &dilations));
  RETURN_IF_ERROR(ReadList(ctx, "pads", 2 * nsp, 0, 0, &pads));
  if (auto_pad != AutoPad::kNotSet) std::fill(pads.begin(), pads.end(), 0);

  std::vector<int64_t> out_pad, out_shape;
  if (transposed) {
    RETURN_IF_ERROR(ReadList(ctx, "output_padding", nsp, 0, 0, &out_pad));
    ASSIGN_OR_RETURN(out_shape, ctx.GetListIntOr("output_shape", {}));
    if (!out_shape.empty()) {
      if (out_shape.size() == nsp + 2) out_shape.erase(out_shape.begin(), out_shape.begin() + 2);
      if (out_shape.size() != nsp) {
        return ctx.Error("attribute output_shape ", ListStr(out_shape), " has ", out_shape.size(),
                         " entries, expected ", nsp, " spatial dims");
      }
      for (size_t i = 0; i < nsp; ++i) {
        if (out_shape[i] < 1) {
          return ctx.Error("attribute output_shape ", ListStr(out_shape), ": entry ", i,
                           " must be >= 1");
        }
        RETURN_IF_ERROR(CheckValue(ctx, "output_shape entry", out_shape[i]));
      }
    }
  }

  p.y_dims = {x[0], p.out_channels};
  for (size_t i = 0; i < nsp; ++i) {
    const int64_t in = x[i + 2], k = p.kernel[i], s = strides[i], d = dilations[i];
    const int64_t dk = (k - 1) * d + 1;  // operands < 2^31: no overflow
    RETURN_IF_ERROR(CheckValue(ctx, "dilated kernel", dk));
    int64_t out = 0, pl = 0, pr = 0;
    if (!transposed) {
      switch (auto_pad) {
        case AutoPad::kNotSet:
        case AutoPad::kValid: {
          const int64_t span = in + pads[i] + pads[i + nsp] - dk;
          if (span < 0) {
            return ctx.Error("spatial dim ", i, " of input 0 (size ", in, ", pads ", pads[i], "+",
                             pads[i + nsp], ") is smaller than the dilated kernel (", dk, ")");
          }
          out = span / s + 1;
          pl = pads[i];
          break;
        }
        case AutoPad::kSameUpper:
        case AutoPad::kSameLower: {
          out = (in + s - 1) / s;
          const int64_t total = std::max<int64_t>(0, (out - 1) * s + dk - in);
          pl = auto_pad == AutoPad::kSameUpper ? total / 2 : total - total / 2;
          break;
        }
      }
      pr = (out - 1) * s + dk - in - pl;
    } else {
      const int64_t op = out_pad[i];
      if (op >= s && op >= d) {
        return ctx.Error("attribute output_padding ", ListStr(out_pad), ": entry ", i, " (", op,
                         ") must be smaller than the stride (", s, ") or dilation (", d, ")");
      }
      const int64_t full = s * (in - 1) + op + dk;
      if (!out_shape.empty() || auto_pad == AutoPad::kSameUpper ||
          auto_pad == AutoPad::kSameLower) {
        out = !out_shape.empty() ? out_shape[i] : in * s;
        const int64_t total = full - out;
        if (total < 0) {
          pl = 0;  // positions past the full output only get the bias
        } else if (auto_pad == AutoPad::kSameUpper) {
          pl = total / 2;
        } else {
          pl = total - total / 2;
        }
      } else {
        out = full - pads[i] - pads[i + nsp];
        pl = pads[i];
      }
      if (out < 1) {
        return ctx.Error("output spatial dim ", i, " is ", out, " (input ", in, ", stride ", s,
                         ", kernel ", k, ", dilation ", d, ", pads ", pads[i], "+", pads[i + nsp],
                         ")");
      }
      pr = s * (in - 1) + dk - pl - out;
      if (pr <= -s) {
        // oneDNN's deconvolution takes right padding > -stride: at most
        // stride - 1 output positions past the last window.
        return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "output spatial dim ", i, " (", out,
                                 ") extends ", -pr, " positions past the last window (input ", in,
                                 ", stride ", s, ", kernel ", k, ", dilation ", d,
                                 "); oneDNN takes fewer than the stride");
      }
    }
    RETURN_IF_ERROR(CheckValue(ctx, "output dim", out));
    RETURN_IF_ERROR(CheckValue(ctx, "padding", pl));
    RETURN_IF_ERROR(CheckValue(ctx, "padding", pr < 0 ? -pr : pr));
    p.y_dims.push_back(out);
    p.strides.push_back(s);
    p.dilates.push_back(d - 1);
    p.pad_l.push_back(pl);
    p.pad_r.push_back(pr);
  }
  return p;
}

}  // namespace compute
}  // namespace ops
