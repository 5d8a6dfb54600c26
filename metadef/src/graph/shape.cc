// metadef/src/graph/shape.cc
//
// Shape: dims with dynamic markers (UNKNOWN_DIM -1, UNKNOWN_RANK {-2}), checked
// accessors, element count with overflow detection, and shape ranges.
#include "metadef/inc/external/graph/shape.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

bool IsUnknownRankDims(const std::vector<int64_t>& dims) {
  return dims.size() == 1 && dims[0] == UNKNOWN_RANK;
}

std::string DimsToString(const std::vector<int64_t>& dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

std::string RangeToString(const std::pair<int64_t, int64_t>& r) {
  return absl::StrCat("{", r.first, ",", r.second, "}");
}

Status ValidateDims(const std::vector<int64_t>& dims) {
  if (IsUnknownRankDims(dims)) return OkStatus();
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = dims[i];
    if (d >= 0 || d == UNKNOWN_DIM) continue;
    if (d == UNKNOWN_RANK) {
      return ParamInvalid("dim ", i, " of shape ", DimsToString(dims),
                          " is -2 (unknown rank), which is only valid as the "
                          "single dim of shape [-2]");
    }
    return ParamInvalid("dim ", i, " of shape ", DimsToString(dims), " is ", d,
                        "; dims must be >= 0 or -1 (unknown)");
  }
  return OkStatus();
}

// Checks `range` against `dims` (see Shape::SetShapeRange). An empty range is
// always valid (it means "no range").
Status ValidateRange(const std::vector<int64_t>& dims,
                     const std::vector<std::pair<int64_t, int64_t>>& range) {
  if (range.empty()) return OkStatus();
  if (IsUnknownRankDims(dims)) {
    return ParamInvalid("shape range with ", range.size(),
                        " entries given for shape [-2] of unknown rank; only "
                        "an empty range is allowed");
  }
  if (range.size() != dims.size()) {
    return ParamInvalid("shape range has ", range.size(), " entries but shape ", DimsToString(dims),
                        " has rank ", dims.size());
  }
  for (size_t i = 0; i < range.size(); ++i) {
    const int64_t lo = range[i].first;
    const int64_t hi = range[i].second;
    if (lo < 0) {
      return ParamInvalid("shape range ", RangeToString(range[i]), " of dim ", i,
                          " has negative min ", lo);
    }
    if (hi != -1 && hi < lo) {
      return ParamInvalid("shape range ", RangeToString(range[i]), " of dim ", i, " has max ", hi,
                          " < min ", lo, " (max must be >= min, or -1 for unbounded)");
    }
    const int64_t d = dims[i];
    if (d >= 0 && (d < lo || (hi != -1 && d > hi))) {
      return ParamInvalid("known dim ", i, " = ", d, " of shape ", DimsToString(dims),
                          " lies outside its range ", RangeToString(range[i]));
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<Shape> Shape::Create(std::vector<int64_t> dims) {
  RETURN_IF_ERROR(ValidateDims(dims));
  return Shape(std::move(dims));
}

Status Shape::Validate() const {
  RETURN_IF_ERROR(ValidateDims(dims_));
  return ValidateRange(dims_, range_);
}

size_t Shape::GetDimNum() const {
  if (IsUnknownRank()) return 0;
  return dims_.size();
}

StatusOr<int64_t> Shape::GetDim(size_t idx) const {
  if (IsUnknownRank()) {
    return OutOfRange("dim index ", idx, " requested from shape [-2] of unknown rank");
  }
  if (idx >= dims_.size()) {
    return OutOfRange("dim index ", idx, " out of range for shape ", ToString(), " of rank ",
                      dims_.size());
  }
  return dims_[idx];
}

Status Shape::SetDim(size_t idx, int64_t value) {
  if (IsUnknownRank()) {
    return OutOfRange("cannot set dim ", idx, " of shape [-2] of unknown rank");
  }
  if (idx >= dims_.size()) {
    return OutOfRange("dim index ", idx, " out of range for shape ", ToString(), " of rank ",
                      dims_.size());
  }
  if (value < 0 && value != UNKNOWN_DIM) {
    return ParamInvalid("cannot set dim ", idx, " of shape ", ToString(), " to ", value,
                        "; dims must be >= 0 or -1 (unknown)");
  }
  if (value >= 0 && !range_.empty() && idx < range_.size()) {
    const auto& r = range_[idx];
    if (value < r.first || (r.second != -1 && value > r.second)) {
      return ParamInvalid("cannot set dim ", idx, " of shape ", ToString(), " to ", value,
                          ": outside its shape range ", RangeToString(r));
    }
  }
  dims_[idx] = value;
  return OkStatus();
}

bool Shape::IsUnknownRank() const { return IsUnknownRankDims(dims_); }

bool Shape::IsUnknownShape() const {
  for (int64_t d : dims_) {
    if (d == UNKNOWN_DIM || d == UNKNOWN_RANK) return true;
  }
  return false;
}

StatusOr<int64_t> Shape::GetShapeSize() const {
  if (IsUnknownRank()) {
    return ParamInvalid("cannot compute the size of shape [-2] of unknown rank");
  }
  bool has_zero = false;
  for (size_t i = 0; i < dims_.size(); ++i) {
    const int64_t d = dims_[i];
    if (d == UNKNOWN_DIM) {
      return ParamInvalid("cannot compute the size of shape ", ToString(), ": dim ", i,
                          " is unknown (-1)");
    }
    if (d < 0) {
      return ParamInvalid("cannot compute the size of shape ", ToString(), ": dim ", i,
                          " is negative (", d, ")");
    }
    if (d == 0) has_zero = true;
  }
  // A zero dim makes the tensor empty however large the other dims are.
  if (has_zero) return int64_t{0};
  int64_t size = 1;
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (__builtin_mul_overflow(size, dims_[i], &size)) {
      return Overflow("size of shape ", ToString(), " overflows int64 at dim ", i, " (", dims_[i],
                      ")");
    }
  }
  return size;
}

Status Shape::SetShapeRange(std::vector<std::pair<int64_t, int64_t>> range) {
  RETURN_IF_ERROR(ValidateRange(dims_, range));
  range_ = std::move(range);
  return OkStatus();
}

std::string Shape::ToString() const { return DimsToString(dims_); }

}  // namespace ge
