// ops/common/axes.h
//
// Axis normalisation: NormalizeAxis maps an axis in [-rank, rank - 1] to
// [0, rank - 1]; NormalizeAxes does it for a list (order kept, duplicates
// rejected unless allowed). Errors are OutOfRange / ParamInvalid naming the
// axis and the range, without a node prefix (wrap them with WithNode).
//
// Example
//   ASSIGN_OR_RETURN(int64_t a, ops::NormalizeAxis(-1, 4));  // 3
#ifndef OPS_COMMON_AXES_H_
#define OPS_COMMON_AXES_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"

namespace ops {

// Maps axis in [-rank, rank - 1] to [0, rank - 1]; otherwise OutOfRange
// naming the axis and the range ("axis 3 is out of range [-3, 2] for rank 3").
// rank < 0 is ParamInvalid.
ge::StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank);
// Every axis normalised, order kept; duplicates (after normalisation) are
// ParamInvalid unless allow_duplicates.
ge::StatusOr<std::vector<int64_t>> NormalizeAxes(absl::Span<const int64_t> axes, int64_t rank,
                                                 bool allow_duplicates = false);

}  // namespace ops

#endif  // OPS_COMMON_AXES_H_
