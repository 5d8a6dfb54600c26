// compiler/passes/reshape_remove_pass.h
//
// ReshapeRemovePass (node pass): removes Reshape nodes that do not change
// their input, and folds Reshape -> Reshape chains. Shapes come from the
// descs (run it after shape inference) and must agree with the producer.
//
//   1. No-op: the input shape S (producer output desc == Reshape input desc)
//      is static and equals the output desc shape; when the "shape" input is
//      a constant, the target it spells out for S (0 copies the input dim
//      unless allowzero, one -1 takes the rest) must be S as well. The
//      Reshape is bypassed; its shape constant goes when unused.
//   2. Chain: Reshape(Reshape(x, s1), s2) = Reshape(x, s2) when s2 is a
//      constant with no 0 (or allowzero = 1): its target depends only on the
//      element count, which the inner Reshape keeps. The outer Reshape's
//      input becomes x (input desc copied from x) and it is re-passed
//      immediately (it may now be a no-op); the inner Reshape goes when
//      unused.
//
// Example
//   group.AddPass<ReshapeRemovePass>();
#ifndef COMPILER_PASSES_RESHAPE_REMOVE_PASS_H_
#define COMPILER_PASSES_RESHAPE_REMOVE_PASS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/passes/pass_framework/node_pass.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// The shape Reshape(input of `in`, target) produces (ONNX rules: 0 copies
// the input dim unless allowzero, at most one -1); nullopt when invalid.
std::optional<GeShape> ResolveReshapeTarget(const GeShape& in, const std::vector<int64_t>& target,
                                            bool allowzero);

class ReshapeRemovePass : public BaseNodePass {
 public:
  absl::string_view name() const override { return "ReshapeRemovePass"; }
  absl::Span<const char* const> TargetTypes() const override {
    static constexpr const char* kTypes[] = {"Reshape"};
    return kTypes;
  }

 protected:
  Status RunImpl(const NodePtr& node) override;
};

}  // namespace ge

#endif  // COMPILER_PASSES_RESHAPE_REMOVE_PASS_H_
