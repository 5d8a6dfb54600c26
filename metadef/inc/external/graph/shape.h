// metadef/inc/external/graph/shape.h
//
// Shape: the dimensions of a tensor, with dynamic-shape markers.
//   * UNKNOWN_DIM (-1): one dimension unknown until run time.
//   * UNKNOWN_RANK (-2): the rank itself is unknown; represented as the single
//     dim {-2}. Any other negative dim is invalid.
//   * A scalar has rank 0 (no dims); its element count is 1.
//   * Shape ranges ({min, max} per dim, max == -1 for unbounded) describe what
//     an unknown dim may take.
// Fallible operations return Status naming the offending index / value.
//
// Example
//   ASSIGN_OR_RETURN(Shape s, Shape::Create({1, -1, 224, 224}));
//   s.IsUnknownShape();            // true
//   RETURN_IF_ERROR(s.SetDim(1, 3));
//   ASSIGN_OR_RETURN(int64_t n, s.GetShapeSize());  // 150528
#ifndef METADEF_INC_EXTERNAL_GRAPH_SHAPE_H_
#define METADEF_INC_EXTERNAL_GRAPH_SHAPE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {

class Shape {
 public:
  Shape() = default;  // scalar (rank 0)
  // Unchecked: dims are taken as given (use Create or Validate for user input).
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}

  // Checked: every dim is >= 0, or -1, or the shape is exactly {-2}.
  static StatusOr<Shape> Create(std::vector<int64_t> dims);
  Status Validate() const;

  static Shape UnknownRank() { return Shape(std::vector<int64_t>{UNKNOWN_RANK}); }

  size_t GetDimNum() const;  // 0 for scalar; 0 for unknown rank as well
  const std::vector<int64_t>& GetDims() const { return dims_; }
  StatusOr<int64_t> GetDim(size_t idx) const;  // OutOfRange past the rank
  Status SetDim(size_t idx, int64_t value);    // bounds and value checked
  void SetDims(std::vector<int64_t> dims) { dims_ = std::move(dims); }

  bool IsScalar() const { return dims_.empty(); }
  bool IsUnknownRank() const;   // dims == {-2}
  bool IsUnknownShape() const;  // any -1 or unknown rank
  bool IsUnknownDimNum() const { return IsUnknownRank(); }

  // Product of dims (1 for scalar). Errors: unknown dims / rank (ParamInvalid),
  // negative dims (ParamInvalid), int64 overflow (Overflow); the message names
  // the dim index and the shape.
  StatusOr<int64_t> GetShapeSize() const;

  // Shape range for dynamic dims: one {min, max} pair per dim; max -1 means
  // unbounded. Set fails if the count differs from the rank, min < 0,
  // max < min (when max != -1), or a known dim lies outside its range.
  Status SetShapeRange(std::vector<std::pair<int64_t, int64_t>> range);
  const std::vector<std::pair<int64_t, int64_t>>& GetShapeRange() const { return range_; }

  std::string ToString() const;  // "[1,-1,224,224]", "[]" for scalar, "[-2]"

  bool operator==(const Shape& other) const { return dims_ == other.dims_; }
  bool operator!=(const Shape& other) const { return !(*this == other); }

 private:
  std::vector<int64_t> dims_;
  std::vector<std::pair<int64_t, int64_t>> range_;
};

}  // namespace ge

#endif  // METADEF_INC_EXTERNAL_GRAPH_SHAPE_H_
