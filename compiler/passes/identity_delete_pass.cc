// compiler/passes/identity_delete_pass.cc
#include "compiler/passes/identity_delete_pass.h"

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"

namespace ge {
namespace {

bool IsSwitchType(absl::string_view type) {
  return type == "Switch" || type == "RefSwitch" || type == "StreamSwitch";
}

bool IsMergeType(absl::string_view type) {
  return type == "Merge" || type == "RefMerge" || type == "StreamMerge";
}

bool IsControlFlowPivot(const Node& node) {
  for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
    const OutDataAnchor* producer = ProducerOf(node, static_cast<int32_t>(i));
    if (producer != nullptr && IsSwitchType(producer->GetOwnerNodeBarePtr()->GetType())) {
      return true;
    }
  }
  for (size_t i = 0; i < node.GetAllOutDataAnchorsSize(); ++i) {
    for (const Anchor* peer :
         node.GetOutDataAnchorBarePtr(static_cast<int32_t>(i))->PeerAnchors()) {
      if (peer->IsInData() && IsMergeType(peer->GetOwnerNodeBarePtr()->GetType())) return true;
    }
  }
  return false;
}

bool HasControlSuccessors(const Node& node) {
  if (node.GetOutControlAnchorBarePtr()->IsLinked()) return true;
  for (size_t i = 0; i < node.GetAllOutDataAnchorsSize(); ++i) {
    for (const Anchor* peer :
         node.GetOutDataAnchorBarePtr(static_cast<int32_t>(i))->PeerAnchors()) {
      if (peer->IsInControl()) return true;
    }
  }
  return false;
}

bool IsVariableSnapshot(const Node& node) {
  if (!HasControlSuccessors(node)) return false;
  for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
    const OutDataAnchor* producer = ProducerOf(node, static_cast<int32_t>(i));
    if (producer != nullptr && IsVariableType(producer->GetOwnerNodeBarePtr()->GetType())) {
      return true;
    }
  }
  return false;
}

}  // namespace

StatusOr<bool> IsRemovableIdentityShape(const Node& node) {
  if (node.GetType() != kIdentityType && node.GetType() != kIdentityNType) return false;
  const size_t n_in = node.GetAllInDataAnchorsSize();
  const size_t n_out = node.GetAllOutDataAnchorsSize();
  if (n_in != n_out) {
    return ParamInvalid(node.GetType(), " node '", node.GetName(), "' has ", n_in, " inputs but ",
                        n_out, " outputs");
  }
  for (size_t i = 0; i < n_in; ++i) {
    if (ProducerOf(node, static_cast<int32_t>(i)) == nullptr) return false;
  }
  return true;
}

Status IdentityDeletePass::RunImpl(const NodePtr& node) {
  ASSIGN_OR_RETURN(bool removable, IsRemovableIdentityShape(*node));
  if (!removable) return OkStatus();
  if (!force_ && IsControlFlowPivot(*node)) return OkStatus();
  if (IsVariableSnapshot(*node)) return OkStatus();
  std::vector<int32_t> io_map(node->GetAllOutDataAnchorsSize());
  for (size_t i = 0; i < io_map.size(); ++i) io_map[i] = static_cast<int32_t>(i);
  return rewriter().RemoveNode(node, io_map);
}

GE_REGISTER_NODE_PASS(IdentityDeletePass);

}  // namespace ge
