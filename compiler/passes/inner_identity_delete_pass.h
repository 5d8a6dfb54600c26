// compiler/passes/inner_identity_delete_pass.h
//
// InnerIdentityDeletePass (node pass, stage 2, after partitioning and
// subgraph merging): removes the Identity / IdentityN nodes that are strictly
// inside a (sub)graph, where they only copy a tensor from one compute node to
// another. Stage 2 graphs give identities jobs the data flow does not show,
// so every identity at a boundary or carrying control edges is kept:
//   * fed by a Data-like, Const / Constant, Variable-like or control-flow
//     node (a copy that gives its consumer a buffer of its own, e.g. before
//     an in-place op, or a branch pivot);
//   * feeding a NetOutput or a control-flow node (output / loop-carried
//     buffers must not alias an input), or being a graph-output entry;
//   * any control edge in or out (stage-2 control edges order streams and
//     memory reuse; IdentityDeletePass folds them in stage 1 instead).
// Removal bypasses output i to the producer of input i.
//
// Example
//   stage2.AddPass<InnerIdentityDeletePass>();
#ifndef COMPILER_PASSES_INNER_IDENTITY_DELETE_PASS_H_
#define COMPILER_PASSES_INNER_IDENTITY_DELETE_PASS_H_

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/passes/pass_framework/node_pass.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class InnerIdentityDeletePass : public BaseNodePass {
 public:
  absl::string_view name() const override { return "InnerIdentityDeletePass"; }
  absl::Span<const char* const> TargetTypes() const override {
    static constexpr const char* kTypes[] = {"Identity", "IdentityN"};
    return kTypes;
  }

 protected:
  Status RunImpl(const NodePtr& node) override;
};

}  // namespace ge

#endif  // COMPILER_PASSES_INNER_IDENTITY_DELETE_PASS_H_
