// ops/compute/eltwise/eltwise_loops.h
//
// The elementwise loops some oneDNN-based kernels run around their
// primitives, where oneDNN's result differs from the op's (ONNX / host
// kernel) semantics, on FLOAT and BF16 buffers (threaded with ParallelFor,
// allocation-free):
//   PropagateNan  dst[i] = src[i] where src[i] is NaN: oneDNN's relu (slope
//                 0), exp, clip and binary max / min lose NaN inputs, the
//                 ops keep them.
//   ReplaceNan    dst[i] = value where dst[i] is NaN (HardSigmoid: the host
//                 kernel's fmin / fmax give 1 for a NaN pre-activation).
//   ClampLoop     Clip with bounds known only at run time (a oneDNN
//                 primitive fixes its bounds when it is created): the host
//                 kernel's rule (v < lo -> lo, then v > hi -> hi; NaN stays).
//   ZeroChannelTail  zeroes the padded channels of an NC1HWC0 buffer after
//                 a loop that wrote every element of it.
// `count` is the element count of the buffer (padded buffers included: their
// padding is zero, never NaN).
#ifndef OPS_COMPUTE_ELTWISE_ELTWISE_LOOPS_H_
#define OPS_COMPUTE_ELTWISE_ELTWISE_LOOPS_H_

#include <cstdint>

#include "metadef/inc/external/graph/types.h"

namespace ops {
namespace compute {

// For DT_FLOAT and DT_BF16; other dtypes do nothing.
// `neg_inf_too`: also dst[i] = NaN where src[i] is -inf (a slope-0 leaky
// relu: 0 * -inf).
void PropagateNan(ge::DataType dt, const void* src, void* dst, int64_t count,
                  bool neg_inf_too = false);
void ReplaceNan(ge::DataType dt, void* dst, int64_t count, float value);
// lo / hi are values of dt (BF16 bounds given as their float value).
void ClampLoop(ge::DataType dt, const void* src, void* dst, int64_t count, bool has_lo, float lo,
               bool has_hi, float hi);
// An aBcd<c0>b buffer of logical dims (n, c, hw) with c0-element blocks:
// the channels c..ceil(c/c0)*c0 of the last block become zero.
void ZeroChannelTail(void* data, int64_t elem_bytes, int64_t n, int64_t c, int64_t hw, int64_t c0);

}  // namespace compute
}  // namespace ops

#endif  // OPS_COMPUTE_ELTWISE_ELTWISE_LOOPS_H_
