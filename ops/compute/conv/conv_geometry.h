// ops/compute/conv/conv_geometry.h
//
// The window of a Conv / ConvTranspose node in oneDNN's terms: its ONNX
// attributes (auto_pad, kernel_shape, strides, dilations, pads, group,
// output_padding, output_shape) and static input shapes turned into the
// output dims and oneDNN's strides, dilations (d - 1) and left / right
// padding, computed exactly as the host kernels (ops/nn/conv.cc) do.
//
//   Conv           out = floor((in + pb + pe - dk) / s) + 1 (NOTSET),
//                  ceil(in / s) with SAME_* pads, floor((in - dk) / s) + 1
//                  (VALID), dk = (k - 1) * d + 1. oneDNN's right padding
//                  is the one that makes its output formula give `out`:
//                  (out - 1) * s + dk - in - pb, which can be negative (a
//                  stride that does not divide the input drops the tail).
//   ConvTranspose  full = s * (in - 1) + output_padding + dk; out is
//                  output_shape's entry, in * s (SAME_*), or full - pads;
//                  the begin pad follows auto_pad as in ONNX. oneDNN's
//                  right padding is s * (in - 1) + dk - pb - out (negative
//                  when output_padding or output_shape extends the output
//                  past the last window: those positions get the bias);
//                  oneDNN takes it down to 1 - s only, so an output more
//                  than s - 1 positions past the last window is
//                  NotSupported.
//
// Errors: ParamInvalid naming the node and the attribute, as the host
// kernel's; NotSupported for a value beyond oneDNN's 32-bit kernels.
#ifndef OPS_COMPUTE_CONV_CONV_GEOMETRY_H_
#define OPS_COMPUTE_CONV_CONV_GEOMETRY_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "dnnl.hpp"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"

namespace ops {
namespace compute {

struct ConvWindow {
  bool transposed = false;
  int64_t group = 1;
  int64_t in_channels = 0;   // C
  int64_t out_channels = 0;  // M
  std::vector<int64_t> kernel;
  std::vector<int64_t> y_dims;  // N, M, spatial...
  dnnl::memory::dims strides, dilates, pad_l, pad_r;
  size_t spatial_rank() const { return kernel.size(); }
  bool pointwise() const;  // 1x1..., stride 1, no padding
};

// x: (N, C, spatial...); w: (M, C / group, k...) for Conv, (C, M / group,
// k...) for ConvTranspose; rank 3 to 5, every dim known and >= 1.
ge::StatusOr<ConvWindow> PlanConvWindow(const gert::ContextBase& ctx, absl::Span<const int64_t> x,
                                        absl::Span<const int64_t> w, bool transposed);

}  // namespace compute
}  // namespace ops

#endif  // OPS_COMPUTE_CONV_CONV_GEOMETRY_H_
