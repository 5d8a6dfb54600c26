// ops/compute/eltwise/eltwise_loops.h
//
// Elementwise loops of the compute engine's kernels where a oneDNN
// primitive alone differs from the op (ONNX / host kernel) semantics, on
// FLOAT and BF16 buffers (threaded with ParallelFor, allocation-free,
// memory-bound like the primitives they stand for):
//   ReluLoop      Relu with NaN kept (oneDNN's relu gives 0 for NaN)
//   ZeroSlopeLoop LeakyRelu with alpha 0: x < 0 ? 0 * x : x (NaN kept,
//                 -inf gives NaN; oneDNN gives 0 for both)
//   ClampLoop     Clip: v < lo -> lo, then v > hi -> hi, NaN kept (oneDNN's
//                 clip gives lo for NaN and max(lo, min(hi, v)) for lo > hi)
//   PropagateNan  after a primitive: dst[i] = src[i] where src[i] is NaN
//                 (oneDNN's exp gives inf, its binary max / min the other
//                 operand)
//   ReplaceNan    dst[i] = value where dst[i] is NaN (HardSigmoid: the host
//                 kernel's fmin / fmax give 1 for a NaN pre-activation)
//   ZeroChannelTail  zeroes the padded channels of an NC1HWC0 buffer after
//                 a loop that wrote every element of it.
// The NaN passes scan blocks with a vectorised test first and touch only
// blocks holding a NaN. `count` is the buffer's element count (a padded
// buffer's padding is zero, never NaN).
#ifndef OPS_COMPUTE_ELTWISE_ELTWISE_LOOPS_H_
#define OPS_COMPUTE_ELTWISE_ELTWISE_LOOPS_H_

#include <cstdint>

#include "metadef/inc/external/graph/types.h"

namespace ops {
namespace compute {

// For DT_FLOAT and DT_BF16; other dtypes do nothing.
void ReluLoop(ge::DataType dt, const void* src, void* dst, int64_t count);
void ZeroSlopeLoop(ge::DataType dt, const void* src, void* dst, int64_t count);
// lo / hi are values of dt (BF16 bounds given as their float value).
void ClampLoop(ge::DataType dt, const void* src, void* dst, int64_t count, bool has_lo, float lo,
               bool has_hi, float hi);
void PropagateNan(ge::DataType dt, const void* src, void* dst, int64_t count);
void ReplaceNan(ge::DataType dt, void* dst, int64_t count, float value);
// An aBcd<c0>b buffer of logical dims (n, c, hw) with c0-element blocks:
// the channels c..ceil(c/c0)*c0 of the last block become zero.
void ZeroChannelTail(void* data, int64_t elem_bytes, int64_t n, int64_t c, int64_t hw, int64_t c0);

// A BF16 value (its bits) as float.
float Bf16ToFloat(uint16_t bits);

}  // namespace compute
}  // namespace ops

#endif  // OPS_COMPUTE_ELTWISE_ELTWISE_LOOPS_H_
