// metadef/register/inc/register/op_infer_runner.h
//
// RunOpInfer: the one place that runs an op's registered functions over an
// InferShapeContext in their fixed order, verify -> infer data type ->
// infer shape, for every caller (OpDesc inference, the compiler's
// inference pass, the reference interpreter, the static executor's check,
// the op test harnesses).
//
// Contract:
//   - verify runs when registered; infer data type runs when registered,
//     else every output takes input 0's data type when input 0 is present
//     (outputs keep what the context holds otherwise); infer shape runs
//     when registered, else the run fails with NotSupported (kFail) or ends
//     there (kSkip);
//   - the first failing step stops the run; its status is returned as the
//     function gave it (callers prefix their node head, InferStepName names
//     the step) and *failed_step says which step it was;
//   - with check_value_reads, a successful run also checks that the
//     functions read only the values of inputs the registration declares
//     value-dependent (CheckValueReadsDeclared; the test harnesses);
//   - nothing is allocated on the success path (the compiler runs it on
//     every node).
//
// Example
//   InferStep step = InferStep::kNone;
//   if (Status st = RunOpInfer(*reg, ctx, {}, &step); !st.ok()) {
//     return Annotate(st, "node ", name, ": ", InferStepName(step), ": ");
//   }
#ifndef METADEF_REGISTER_INC_REGISTER_OP_INFER_RUNNER_H_
#define METADEF_REGISTER_INC_REGISTER_OP_INFER_RUNNER_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/op_registry.h"

namespace ge {

// A step of RunOpInfer.
enum class InferStep : uint8_t {
  kNone,  // nothing failed
  kVerify,
  kInferDataType,
  kInferShape,
  kNoInferShape,  // the registration has no infer shape function (kFail)
  kValueReads,    // check_value_reads found an undeclared value read
};

// "verify", "infer data type", "infer shape", "no infer shape function",
// "value reads" ("" for kNone).
absl::string_view InferStepName(InferStep step);

struct OpInferOptions {
  // A registration without an infer shape function: the run fails with
  // NotSupported (kFail) or stops after infer data type, successfully
  // (kSkip: the caller gets the output shapes some other way).
  enum class MissingInferShape : uint8_t { kFail, kSkip };
  MissingInferShape missing_infer_shape = MissingInferShape::kFail;
  // Only verify (VerifyOpDesc).
  bool verify_only = false;
  // After a successful run, CheckValueReadsDeclared (test harnesses).
  bool check_value_reads = false;
};

// Runs the functions of `reg` over `ctx` as the header describes.
// `failed_step` may be null.
Status RunOpInfer(const OpRegistrationData& reg, gert::InferShapeContext& ctx,
                  const OpInferOptions& options = {}, InferStep* failed_step = nullptr);

}  // namespace ge

#endif  // METADEF_REGISTER_INC_REGISTER_OP_INFER_RUNNER_H_
