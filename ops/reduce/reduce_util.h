// ops/reduce/reduce_util.h
//
// Helpers of the ops/reduce family (internal):
//   * ReduceGeometry: an input shape plus per-dim "reduced" flags, with size-1
//     dims dropped and neighbouring dims of equal kind merged, so kernels
//     walk the input once in memory order with an innermost contiguous row
//     that is either reduced into one accumulator or accumulated
//     element-wise into a row of accumulators.
//   * OuterAxisInner: the [outer, axis, inner] split of a shape around one
//     axis (ArgMax / ArgMin / CumSum).
//   * (integer results are clamped with ops::SaturateCast<T> from op_util.h)
//
// Example
//   ReduceGeometry g = MakeReduceGeometry(Shape{2, 3, 4}, {false, true, false});
//   // g.dims == {2, 3, 4}, g.reduced == {0, 1, 0}, g.out_strides == {4, 0, 1},
//   // g.out_count == 8, g.reduce_count == 3
#ifndef OPS_REDUCE_REDUCE_UTIL_H_
#define OPS_REDUCE_REDUCE_UTIL_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "metadef/register/inc/gert/tensor.h"

namespace ops {

struct ReduceGeometry {
  std::vector<int64_t> dims;         // coalesced input dims, outermost first
  std::vector<bool> reduced;         // per coalesced dim
  std::vector<int64_t> out_strides;  // output element stride per dim (0 if reduced)
  int64_t in_count = 0;              // input elements
  int64_t out_count = 0;             // output elements
  int64_t reduce_count = 0;          // input elements per output element
};

// `reduced` has one flag per dim of x (all dims known and >= 0).
inline ReduceGeometry MakeReduceGeometry(const gert::Shape& x, const std::vector<bool>& reduced) {
  ReduceGeometry g;
  g.in_count = 1;
  g.out_count = 1;
  g.reduce_count = 1;
  for (size_t i = 0; i < x.GetDimNum(); ++i) {
    const int64_t d = x.GetDim(i);
    const bool r = i < reduced.size() && reduced[i];
    g.in_count *= d;
    (r ? g.reduce_count : g.out_count) *= d;
    if (d == 1) continue;
    if (!g.dims.empty() && g.reduced.back() == r) {
      g.dims.back() *= d;
    } else {
      g.dims.push_back(d);
      g.reduced.push_back(r);
    }
  }
  g.out_strides.assign(g.dims.size(), 0);
  int64_t stride = 1;
  for (size_t i = g.dims.size(); i-- > 0;) {
    if (!g.reduced[i]) {
      g.out_strides[i] = stride;
      stride *= g.dims[i];
    }
  }
  return g;
}

struct OuterAxisInner {
  int64_t outer = 1;
  int64_t axis = 1;
  int64_t inner = 1;
};

// axis must be in [0, rank).
inline OuterAxisInner SplitAtAxis(const gert::Shape& x, size_t axis) {
  OuterAxisInner s;
  for (size_t i = 0; i < x.GetDimNum(); ++i) {
    const int64_t d = x.GetDim(i);
    if (i < axis) {
      s.outer *= d;
    } else if (i == axis) {
      s.axis = d;
    } else {
      s.inner *= d;
    }
  }
  return s;
}

}  // namespace ops

#endif  // OPS_REDUCE_REDUCE_UTIL_H_
