// compiler/passes/inner_identity_delete_pass.cc
#include "compiler/passes/inner_identity_delete_pass.h"

#include <cstdint>
#include <vector>

#include "compiler/passes/identity_delete_pass.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/op_types.h"

namespace ge {
namespace {

bool IsBoundaryProducer(absl::string_view type) {
  return IsDataLikeType(type) || IsConstType(type) || IsVariableType(type) ||
         IsControlFlowType(type);
}

bool IsBoundaryConsumer(absl::string_view type) {
  return type == NETOUTPUT || IsControlFlowType(type);
}

bool IsInner(const Node& node) {
  if (HasControlEdges(node)) return false;
  for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
    const OutDataAnchor* producer = ProducerOf(node, static_cast<int32_t>(i));
    if (producer == nullptr || IsBoundaryProducer(producer->GetOwnerNodeBarePtr()->GetType())) {
      return false;
    }
  }
  for (size_t i = 0; i < node.GetAllOutDataAnchorsSize(); ++i) {
    for (const Anchor* peer :
         node.GetOutDataAnchorBarePtr(static_cast<int32_t>(i))->PeerAnchors()) {
      if (IsBoundaryConsumer(peer->GetOwnerNodeBarePtr()->GetType())) return false;
    }
  }
  const ComputeGraph* graph = node.GetOwnerComputeGraphBarePtr();
  for (const auto& entry : graph->GetGraphOutNodesInfo()) {
    if (entry.first.get() == &node) return false;
  }
  return true;
}

}  // namespace

Status InnerIdentityDeletePass::RunImpl(const NodePtr& node) {
  ASSIGN_OR_RETURN(bool removable, IsRemovableIdentityShape(*node));
  if (!removable || !IsInner(*node)) return OkStatus();
  std::vector<int32_t> io_map(node->GetAllOutDataAnchorsSize());
  for (size_t i = 0; i < io_map.size(); ++i) io_map[i] = static_cast<int32_t>(i);
  return rewriter().RemoveNode(node, io_map);
}

GE_REGISTER_NODE_PASS(InnerIdentityDeletePass);

}  // namespace ge
