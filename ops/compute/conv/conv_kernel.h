// ops/compute/conv/conv_kernel.h
//
// Conv and ConvTranspose on the compute engine (AIcoreEngine) with oneDNN's
// convolution_forward / deconvolution_forward (forward inference).
//
// Prepare builds the primitive once:
//   * Weights constant at Prepare: the primitive takes them in the layout it
//     prefers (format_tag::any) and the kernel reorders them once into a
//     buffer it owns. Non-constant weights stay in their plain ONNX layout
//     (described by strides), so Run needs no reorder.
//   * Activations: X and Y in their tensors' layouts (plain NCHW-style, or
//     NC1HWC0 = nChw16c for 2-D). When oneDNN has only a slow kernel for
//     that layout (im2col + GEMM, reference), the primitive takes the layout
//     it prefers for X and / or Y and Run reorders X in and Y out through
//     workspaces 1 and 2; the candidate kept is the fastest class of kernel
//     (AMX > JIT / BRGEMM, and plain GEMM for pointwise kernels > GEMM >
//     reference), with the fewest reorders among equals.
//   * The fused activation of conv_post_ops.h as oneDNN post-ops.
//   * Workspace 0: the scratchpad (the largest of the primitives'); 1 / 2:
//     the reordered X / Y when Run reorders them.
// Run binds the buffers and executes: nothing allocated.
//
// Supports (the compile-time check) takes FLOAT (and BF16, which oneDNN
// computes with FLOAT accumulation) with the same data type on every input
// and output, rank 3 to 5, static dims, X / Y plain or (rank 4, channels a
// multiple of 16) NC1HWC0, W / B plain, every ONNX attribute value the host
// kernel accepts that fits oneDNN's 32-bit kernels.
#ifndef OPS_COMPUTE_CONV_CONV_KERNEL_H_
#define OPS_COMPUTE_CONV_CONV_KERNEL_H_

#include <cstddef>
#include <string>

#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "ops/compute/common/dnnl_common.h"

namespace ops {
namespace compute {

class DnnlConvKernel : public ge::OpKernel {
 public:
  explicit DnnlConvKernel(bool transposed) : transposed_(transposed) {}
  ge::Status Prepare(gert::TilingContext& ctx) override;
  ge::Status Run(gert::KernelContext& ctx) const override;

  // oneDNN's implementation (pd.impl_info_str()) chosen by Prepare.
  const std::string& impl_info() const { return impl_; }
  // Whether Run reorders X in / Y out around the convolution.
  bool reorders_src() const { return src_reorder_.initialized(); }
  bool reorders_dst() const { return dst_reorder_.initialized(); }

 private:
  bool transposed_;
  bool has_bias_ = false;
  bool weights_fixed_ = false;  // reordered at Prepare into weights_
  PreparedPrimitive conv_;
  PreparedPrimitive src_reorder_;  // X -> workspace 1, when initialized
  PreparedPrimitive dst_reorder_;  // workspace 2 -> Y, when initialized
  AlignedBuffer weights_;
  // Bytes each buffer must hold (checked by Run).
  size_t x_bytes_ = 0, w_bytes_ = 0, b_bytes_ = 0, y_bytes_ = 0;
  std::string impl_;
};

class DnnlConv final : public DnnlConvKernel {
 public:
  DnnlConv() : DnnlConvKernel(false) {}
};

class DnnlConvTranspose final : public DnnlConvKernel {
 public:
  DnnlConvTranspose() : DnnlConvKernel(true) {}
};

ge::Status DnnlConvSupports(const ge::OpDesc& op);
ge::Status DnnlConvTransposeSupports(const ge::OpDesc& op);

}  // namespace compute
}  // namespace ops

#endif  // OPS_COMPUTE_CONV_CONV_KERNEL_H_
