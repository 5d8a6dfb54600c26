// compiler/passes/cast_remove_pass.h
//
// CastRemovePass (node pass, GE's CastRemovePass): removes Cast nodes that
// do not change values. It reads data types from the descs (run it after
// shape / type inference) and only acts when they agree: the producer's
// output desc, the Cast's input desc, its "to" attribute and its output
// desc.
//
//   1. Same type: Cast(x: T, to = T) is bypassed (consumers read x).
//   2. Lossless round trip: y = Cast(Cast(x: A, to = B), to = A) where every
//      A value is exact in B (IsLosslessCast) is x: y's consumers read x.
//   3. Lossless chain: Cast(Cast(x: A, to = B), to = C) where A -> B and
//      A -> C are both exact reads x directly (both sides then hold x's
//      exact value in C): the outer Cast's input becomes x (input desc type
//      A) and it is re-passed immediately, so longer chains fold in one
//      round. Lossy steps are never folded: int64 -> int8 -> int64 wraps,
//      float -> fp16 -> float rounds, and float -> int conversions differ by
//      source type for out-of-range values. STRING never folds (text of a
//      float depends on its type).
// An inner Cast left without consumers is removed. "to" may be stored as a
// data type or as an int.
//
// Example
//   group.AddPass<CastRemovePass>();
#ifndef COMPILER_PASSES_CAST_REMOVE_PASS_H_
#define COMPILER_PASSES_CAST_REMOVE_PASS_H_

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/passes/pass_framework/node_pass.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {

// True when every value of `from` is exactly representable in `to` (the
// same type included). Only real numeric types and BOOL qualify.
bool IsLosslessCast(DataType from, DataType to);

class CastRemovePass : public BaseNodePass {
 public:
  absl::string_view name() const override { return "CastRemovePass"; }
  absl::Span<const char* const> TargetTypes() const override {
    static constexpr const char* kTypes[] = {"Cast"};
    return kTypes;
  }

 protected:
  Status RunImpl(const NodePtr& node) override;
};

}  // namespace ge

#endif  // COMPILER_PASSES_CAST_REMOVE_PASS_H_
