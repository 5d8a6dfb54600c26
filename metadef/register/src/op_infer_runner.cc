// metadef/register/src/op_infer_runner.cc
#include "metadef/register/inc/register/op_infer_runner.h"

#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/op_registry.h"

namespace ge {

absl::string_view InferStepName(InferStep step) {
  switch (step) {
    case InferStep::kNone:
      return "";
    case InferStep::kVerify:
      return "verify";
    case InferStep::kInferDataType:
      return "infer data type";
    case InferStep::kInferShape:
      return "infer shape";
    case InferStep::kNoInferShape:
      return "no infer shape function";
    case InferStep::kValueReads:
      return "value reads";
  }
  return "";
}

Status RunOpInfer(const OpRegistrationData& reg, gert::InferShapeContext& ctx,
                  const OpInferOptions& options, InferStep* failed_step) {
  InferStep unused = InferStep::kNone;
  InferStep& step = failed_step != nullptr ? *failed_step : unused;
  step = InferStep::kNone;
  if (reg.verify != nullptr) {
    Status st = reg.verify(ctx);
    if (!st.ok()) {
      step = InferStep::kVerify;
      return st;
    }
  }
  if (!options.verify_only) {
    if (reg.infer_data_type != nullptr) {
      Status st = reg.infer_data_type(ctx);
      if (!st.ok()) {
        step = InferStep::kInferDataType;
        return st;
      }
    } else if (ctx.GetInputShape(0) != nullptr) {
      for (size_t i = 0; i < ctx.GetOutputNum(); ++i) {
        ctx.SetOutputDataType(i, ctx.GetInputDataType(0));
      }
    }
    if (reg.infer_shape != nullptr) {
      Status st = reg.infer_shape(ctx);
      if (!st.ok()) {
        step = InferStep::kInferShape;
        return st;
      }
    } else if (options.missing_infer_shape == OpInferOptions::MissingInferShape::kFail) {
      step = InferStep::kNoInferShape;
      return NotSupported("op type ", reg.type, " (from ",
                          reg.source.empty() ? "builtin" : reg.source,
                          ") registers no infer shape function");
    }
  }
  if (options.check_value_reads) {
    Status st = CheckValueReadsDeclared(reg, ctx);
    if (!st.ok()) {
      step = InferStep::kValueReads;
      return st;
    }
  }
  return OkStatus();
}

}  // namespace ge
