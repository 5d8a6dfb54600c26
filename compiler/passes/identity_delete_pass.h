// compiler/passes/identity_delete_pass.h
//
// IdentityDeletePass (node pass, GE's IdentityPass, stage 1): removes
// Identity / IdentityN nodes, each output i bypassed to the producer of
// input i (GraphRewriter::RemoveNode with io_map i -> i), folding the node's
// control edges onto its neighbours: its control predecessors get control
// edges to its consumers, its producers to its control successors.
//
// Kept (GE semantics: identities whose edges carry meaning):
//   * control-flow pivots (unless `force`): an identity fed by a Switch /
//     RefSwitch / StreamSwitch output or feeding a Merge / RefMerge /
//     StreamMerge marks a branch; removing it would merge the branch's
//     control dependencies into the switch;
//   * variable snapshots: an identity reading a Variable-like node
//     (Variable, VariableV2, VarHandleOp, RefData) that has control
//     successors takes the value before those successors (e.g. an Assign)
//     run; bypassing it would read the variable after them;
//   * an identity with an input that has no producer (nothing to bypass to).
// An IdentityN with different numbers of inputs and outputs is ParamInvalid.
//
// Example
//   group.AddPass<IdentityDeletePass>();          // stage 1
//   group.AddPass<IdentityDeletePass>(true);      // force: pivots too
#ifndef COMPILER_PASSES_IDENTITY_DELETE_PASS_H_
#define COMPILER_PASSES_IDENTITY_DELETE_PASS_H_

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/passes/pass_framework/node_pass.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

inline constexpr char kIdentityType[] = "Identity";
inline constexpr char kIdentityNType[] = "IdentityN";

class IdentityDeletePass : public BaseNodePass {
 public:
  explicit IdentityDeletePass(bool force = false) : force_(force) {}
  absl::string_view name() const override { return "IdentityDeletePass"; }
  absl::Span<const char* const> TargetTypes() const override {
    static constexpr const char* kTypes[] = {"Identity", "IdentityN"};
    return kTypes;
  }

 protected:
  Status RunImpl(const NodePtr& node) override;

 private:
  bool force_;
};

// Shared by the identity passes: true for Identity / IdentityN; checks the
// input / output counts.
StatusOr<bool> IsRemovableIdentityShape(const Node& node);

}  // namespace ge

#endif  // COMPILER_PASSES_IDENTITY_DELETE_PASS_H_
