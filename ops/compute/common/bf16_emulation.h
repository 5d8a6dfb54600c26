// ops/compute/common/bf16_emulation.h
//
// BF16 on a CPU without native BF16. The compiler's precision modes put
// BF16 tensors in a model whatever machine ran atc (the OM bytes never
// depend on the ISA), and oneDNN 2.6 creates no BF16 convolution, matmul,
// eltwise, binary or pooling primitive on a CPU without AVX512. The
// compute engine then wraps its kernels in this decorator:
//
//   * Prepare first prepares the kernel as it is. When that succeeds (the
//     node has no BF16 tensor, or the kernel handles BF16 itself: reorders,
//     concat, our own loops) the decorator only forwards.
//   * Otherwise, when the node has BF16 tensors, it prepares a fresh
//     instance on FLOAT copies of the node's facts (constant inputs
//     converted once, here), and Run converts the BF16 inputs to FLOAT in a
//     workspace, runs the kernel, and rounds its FLOAT outputs to BF16
//     (round to nearest even). Results are then at least as accurate as a
//     native BF16 kernel's; speed is the FLOAT kernel's plus the
//     conversions.
//
// The conversion buffers are one extra workspace after the kernel's own;
// its bytes are asked at load, where the executor re-plans a workspace the
// compile-time plan did not hold (see kernel_registry.h).
//
// Example (the compute engine's NewKernel)
//   std::unique_ptr<ge::OpKernel> k = NewComputeKernel(def);
#ifndef OPS_COMPUTE_COMMON_BF16_EMULATION_H_
#define OPS_COMPUTE_COMMON_BF16_EMULATION_H_

#include <memory>

#include "metadef/register/inc/register/kernel_registry.h"

namespace ops {
namespace compute {

// How the decorator treats a node with BF16 tensors.
enum class Bf16Emulation {
  kFallback,  // prepare natively first, emulate when that fails
  kAlways,    // emulate without trying natively (tests, on any CPU)
};

// A kernel of `def` (which must be stateful and outlive the result) that
// runs BF16 nodes through FLOAT as the file comment says.
std::unique_ptr<ge::OpKernel> NewBf16Emulated(const ge::KernelDef& def,
                                              Bf16Emulation mode = Bf16Emulation::kFallback);

// A kernel of `def` for one node as the compute engine makes it: decorated
// when `def` is stateful, takes BF16 and the CPU lacks native BF16; the
// registration's own otherwise (null for a stateless one).
std::unique_ptr<ge::OpKernel> NewComputeKernel(const ge::KernelDef& def);

// The kernel a decorator runs once prepared (`k` itself for any other).
const ge::OpKernel& UnwrapBf16Emulated(const ge::OpKernel& k);
// Whether `k` is a decorator running its node through FLOAT.
bool IsBf16Emulating(const ge::OpKernel& k);

}  // namespace compute
}  // namespace ops

#endif  // OPS_COMPUTE_COMMON_BF16_EMULATION_H_
