// ops/common/axes.cc
#include "ops/common/axes.h"

#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"

namespace ops {

ge::StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank) {
  if (rank < 0) return ge::ParamInvalid("cannot normalise axis ", axis, " for rank ", rank);
  if (axis < -rank || axis >= rank) {
    return ge::OutOfRange("axis ", axis, " is out of range [", -rank, ", ", rank - 1, "] for rank ",
                          rank);
  }
  return axis < 0 ? axis + rank : axis;
}

ge::StatusOr<std::vector<int64_t>> NormalizeAxes(absl::Span<const int64_t> axes, int64_t rank,
                                                 bool allow_duplicates) {
  std::vector<int64_t> out;
  out.reserve(axes.size());
  for (size_t i = 0; i < axes.size(); ++i) {
    ge::StatusOr<int64_t> a = NormalizeAxis(axes[i], rank);
    if (!a.ok()) return ge::Annotate(a.status(), "axes[", i, "]: ");
    if (!allow_duplicates && std::find(out.begin(), out.end(), *a) != out.end()) {
      return ge::ParamInvalid("axes[", i, "] = ", axes[i], " duplicates axis ", *a);
    }
    out.push_back(*a);
  }
  return out;
}

}  // namespace ops
