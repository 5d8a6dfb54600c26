// metadef/inc/external/graph/tensor_type.h
//
// TensorType: the set of data types an op input / output accepts (seed 003).
// ListTensorType: the same constraint for a dynamic (list) input.
// Promote: the result type of mixing data types (FLOAT + FLOAT16 -> FLOAT,
// INT32 + FLOAT -> FLOAT, BF16 + FLOAT16 -> FLOAT; STRING + FLOAT -> error).
//
// Promotion rules (symmetric, associative over a list):
//   * equal types -> that type; BOOL promotes to anything numeric;
//   * float x float -> the wider; FLOAT16 x BF16 -> FLOAT; FP8/FP6/FP4 x a
//     16-bit float -> that float; two different 8-bit-or-less floats -> FLOAT16;
//   * int x float -> the float (at least FLOAT16); int64 x FLOAT16 -> FLOAT16;
//   * signed x signed / unsigned x unsigned -> the wider; unsigned x signed ->
//     a signed type wider than the unsigned (UINT64 x signed -> error);
//   * complex x real -> the complex type wide enough;
//   * STRING, RESOURCE, VARIANT, UNDEFINED mixed with anything else -> error.
//     So are STRING_REF and the quantized / dual types (QINT*, QUINT*, DUAL*).
//   Errors: a value outside the enum -> ParamInvalid; a pair that does not
//   promote -> TypeMismatch naming both types.
//
// Example
//   TensorType t{DT_FLOAT, DT_FLOAT16};
//   RETURN_IF_ERROR(t.Check("x1", DT_INT8));  // ParamInvalid naming "x1"
//   ASSIGN_OR_RETURN(DataType r, Promote(DT_INT32, DT_FLOAT));  // DT_FLOAT
#ifndef METADEF_INC_EXTERNAL_GRAPH_TENSOR_TYPE_H_
#define METADEF_INC_EXTERNAL_GRAPH_TENSOR_TYPE_H_

#include <initializer_list>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {

class TensorType {
 public:
  TensorType() = default;   // empty: accepts nothing
  TensorType(DataType dt);  // NOLINT(runtime/explicit): as GE allows
  TensorType(std::initializer_list<DataType> types);
  explicit TensorType(const std::vector<DataType>& types);

  // Predefined sets in the style of GE's TensorType::ALL(), FLOAT(), ...
  static TensorType ALL();               // every valid DataType except DT_UNDEFINED
  static TensorType FloatingDataType();  // DOUBLE, FLOAT, FLOAT16, BF16
  static TensorType IntegerDataType();   // INT8..INT64, UINT8..UINT64
  static TensorType NumberType();        // ints, floats, complex
  static TensorType RealNumberType();    // ints and floats

  const std::set<DataType>& GetAllowedDataTypes() const { return allowed_; }
  bool Contains(DataType dt) const { return allowed_.count(dt) != 0; }
  // OK if allowed; otherwise ParamInvalid naming `input_name`, the type and the
  // allowed set.
  Status Check(absl::string_view input_name, DataType dt) const;
  // "{DT_FLOAT, DT_FLOAT16}" (enum order); "{}" when empty.
  std::string ToString() const;

 private:
  std::set<DataType> allowed_;
};

class ListTensorType {
 public:
  explicit ListTensorType(TensorType type) : type_(std::move(type)) {}
  const TensorType& GetTensorType() const { return type_; }
  // Checks every element; the error names "<list_name>[<i>]".
  Status Check(absl::string_view list_name, const std::vector<DataType>& types) const;

 private:
  TensorType type_;
};

StatusOr<DataType> Promote(DataType a, DataType b);
// Promotes a list (a fold of the pairwise Promote); empty list: ParamInvalid.
// The pairwise rules are not associative in a few corner cases (e.g.
// {FLOAT8_E5M2, FLOAT8_E4M3FN, BF16}: FLOAT16 x BF16 = FLOAT, but each FP8 x
// BF16 = BF16; {UINT64, INT8, FLOAT}), so the fold runs in a canonical order
// (widest category first: complex, >=16-bit floats, smaller floats, ints,
// BOOL) and the result never depends on the order of `types`. A value outside
// the enum is ParamInvalid; a failing pair is TypeMismatch naming the types and
// the index "types[i]".
StatusOr<DataType> Promote(const std::vector<DataType>& types);

}  // namespace ge

#endif  // METADEF_INC_EXTERNAL_GRAPH_TENSOR_TYPE_H_
