// ops/cast/cast_util.h
//
// The conversions behind Cast / CastLike, for other ops (constant folding,
// string ops) that need ONNX cast semantics:
//   CastTensor        every element of `in` converted to out's dtype (see
//                     cast_ops.cc for the rules); out has in's element count
//                     and memory for it.
//   FormatFloat       numpy-style shortest text of a float ("0.1", "3.0",
//                     "1e-05", "nan") for float, double, fp16_t, bf16_t.
//   ParseFloatString  decimal / scientific text, "NaN", "INF", "+INF",
//                     "-INF" (any case); ParamInvalid quoting anything else.
//
// Example
//   ASSIGN_OR_RETURN(gert::Tensor* y, ops::PrepareOutput(ctx, 0, x.GetShape(), ge::DT_STRING));
//   RETURN_IF_ERROR(ops::CastTensor(ctx, x, y));
#ifndef OPS_CAST_CAST_UTIL_H_
#define OPS_CAST_CAST_UTIL_H_

#include <string>

#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "ops/common/op_util.h"

namespace ops {

// Errors name the node (via ctx), the element index and the bad string.
ge::Status CastTensor(const gert::ContextBase& ctx, const gert::Tensor& in, gert::Tensor* out);

// Instantiated for float, double, fp16_t and bf16_t.
template <typename T>
std::string FormatFloat(T v);

ge::StatusOr<double> ParseFloatString(absl::string_view text);

}  // namespace ops

#endif  // OPS_CAST_CAST_UTIL_H_
