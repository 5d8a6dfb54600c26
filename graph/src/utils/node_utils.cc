// graph/src/utils/node_utils.cc
#include "graph/inc/graph/utils/node_utils.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

std::vector<NodePtr> NodeUtils::GetInDataNodes(const NodePtr& node) {
  return node == nullptr ? std::vector<NodePtr>() : node->GetInDataNodes();
}
std::vector<NodePtr> NodeUtils::GetOutDataNodes(const NodePtr& node) {
  return node == nullptr ? std::vector<NodePtr>() : node->GetOutDataNodes();
}
std::vector<NodePtr> NodeUtils::GetInControlNodes(const NodePtr& node) {
  return node == nullptr ? std::vector<NodePtr>() : node->GetInControlNodes();
}
std::vector<NodePtr> NodeUtils::GetOutControlNodes(const NodePtr& node) {
  return node == nullptr ? std::vector<NodePtr>() : node->GetOutControlNodes();
}

namespace {
// Moves every peer of `from` to `to` (same kind); a peer already linked with
// `to` just loses `from`.
Status MovePeers(Anchor* from, Anchor* to) {
  const std::vector<Anchor*> peers = from->GetPeerAnchorsPtr();
  for (Anchor* peer : peers) {
    if (peer->IsLinkedWith(to)) {
      RETURN_IF_ERROR(peer->Unlink(from));
    } else {
      RETURN_IF_ERROR(peer->ReplacePeer(from, to));
    }
  }
  return OkStatus();
}
}  // namespace

Status NodeUtils::MoveOutputEdges(const NodePtr& origin, const NodePtr& new_node) {
  if (origin == nullptr || new_node == nullptr) return ParamInvalid("MoveOutputEdges: null node");
  if (origin == new_node) return OkStatus();
  if (origin->GetAllOutDataAnchorsSize() != new_node->GetAllOutDataAnchorsSize()) {
    return ParamInvalid("MoveOutputEdges from ", origin->DebugString(), " (",
                        origin->GetAllOutDataAnchorsSize(), " outputs) to ",
                        new_node->DebugString(), " (", new_node->GetAllOutDataAnchorsSize(),
                        " outputs): the output counts differ");
  }
  // A data consumer cannot be moved onto an anchor that already feeds it
  // through another input: impossible (an in-data anchor has one peer), so
  // only control duplicates need care (handled in MovePeers).
  for (size_t i = 0; i < origin->GetAllOutDataAnchorsSize(); ++i) {
    RETURN_IF_ERROR(MovePeers(origin->GetOutDataAnchorBarePtr(static_cast<int32_t>(i)),
                              new_node->GetOutDataAnchorBarePtr(static_cast<int32_t>(i))));
  }
  return MovePeers(origin->GetOutControlAnchorBarePtr(), new_node->GetOutControlAnchorBarePtr());
}

Status NodeUtils::AppendInputAnchor(const NodePtr& node, uint32_t num) {
  if (node == nullptr) return ParamInvalid("AppendInputAnchor: null node");
  OpDesc& op = *node->GetOpDescBarePtr();
  for (size_t i = op.GetAllInputsSize(); i < num; ++i) {
    RETURN_IF_ERROR(op.AddInputDesc(GeTensorDesc()));
  }
  if (node->GetAllInDataAnchorsSize() < num) {
    RETURN_IF_ERROR(node->AppendInDataAnchors(num - node->GetAllInDataAnchorsSize()));
  }
  return OkStatus();
}

Status NodeUtils::RemoveInputAnchor(const NodePtr& node, uint32_t num) {
  if (node == nullptr) return ParamInvalid("RemoveInputAnchor: null node");
  OpDesc& op = *node->GetOpDescBarePtr();
  if (node->GetAllInDataAnchorsSize() > num) {
    RETURN_IF_ERROR(node->RemoveInDataAnchors(node->GetAllInDataAnchorsSize() - num));
  }
  while (op.GetAllInputsSize() > num) {
    RETURN_IF_ERROR(op.RemoveInputDesc(static_cast<uint32_t>(op.GetAllInputsSize() - 1)));
  }
  return OkStatus();
}

Status NodeUtils::AppendOutputAnchor(const NodePtr& node, uint32_t num) {
  if (node == nullptr) return ParamInvalid("AppendOutputAnchor: null node");
  OpDesc& op = *node->GetOpDescBarePtr();
  for (size_t i = op.GetAllOutputsDescSize(); i < num; ++i) {
    RETURN_IF_ERROR(op.AddOutputDesc(GeTensorDesc()));
  }
  if (node->GetAllOutDataAnchorsSize() < num) {
    RETURN_IF_ERROR(node->AppendOutDataAnchors(num - node->GetAllOutDataAnchorsSize()));
  }
  return OkStatus();
}

Status NodeUtils::RemoveOutputAnchor(const NodePtr& node, uint32_t num) {
  if (node == nullptr) return ParamInvalid("RemoveOutputAnchor: null node");
  OpDesc& op = *node->GetOpDescBarePtr();
  if (node->GetAllOutDataAnchorsSize() > num) {
    RETURN_IF_ERROR(node->RemoveOutDataAnchors(node->GetAllOutDataAnchorsSize() - num));
  }
  while (op.GetAllOutputsDescSize() > num) {
    RETURN_IF_ERROR(op.RemoveOutputDesc(static_cast<uint32_t>(op.GetAllOutputsDescSize() - 1)));
  }
  return OkStatus();
}

void NodeUtils::UnlinkAll(const Node& node) {
  for (InDataAnchor* a : node.GetAllInDataAnchorsPtr()) a->UnlinkAll();
  for (OutDataAnchor* a : node.GetAllOutDataAnchorsPtr()) a->UnlinkAll();
  node.GetInControlAnchorBarePtr()->UnlinkAll();
  node.GetOutControlAnchorBarePtr()->UnlinkAll();
}

StatusOr<std::pair<NodePtr, OutDataAnchorPtr>> NodeUtils::GetParentInputAndAnchor(
    const Node& data_node) {
  if (data_node.GetType() != DATA) {
    return ParamInvalid("GetParentInput: node ", data_node.DebugString(), " is not a ", DATA,
                        " node");
  }
  const ComputeGraph* graph = data_node.GetOwnerComputeGraphBarePtr();
  const NodePtr parent = graph == nullptr ? nullptr : graph->GetParentNode();
  if (parent == nullptr) {
    return NotFound("GetParentInput: node ", data_node.DebugString(),
                    " is not in a subgraph with a parent node");
  }
  auto index = AttrUtils::GetInt(data_node.GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX);
  if (!index.ok()) {
    return Annotate(index.status(), "GetParentInput: node ", data_node.DebugString(), ": ");
  }
  if (*index < 0 || static_cast<uint64_t>(*index) >= parent->GetAllInDataAnchorsSize()) {
    return OutOfRange("GetParentInput: node ", data_node.DebugString(), " has ",
                      ATTR_NAME_PARENT_NODE_INDEX, " ", *index, " but parent node ",
                      parent->DebugString(), " has ", parent->GetAllInDataAnchorsSize(), " inputs");
  }
  OutDataAnchorPtr peer = parent->GetInDataAnchor(static_cast<int32_t>(*index))->GetPeerOutAnchor();
  if (peer == nullptr) {
    return NotFound("GetParentInput: input ", *index, " of parent node ", parent->DebugString(),
                    " (for ", data_node.DebugString(), ") is not linked");
  }
  NodePtr producer = peer->GetOwnerNode();
  return std::make_pair(std::move(producer), std::move(peer));
}

StatusOr<NodePtr> NodeUtils::GetParentInput(const Node& data_node) {
  ASSIGN_OR_RETURN(auto pair, GetParentInputAndAnchor(data_node));
  return pair.first;
}

StatusOr<NodePtr> NodeUtils::GetParentInput(const NodePtr& data_node) {
  if (data_node == nullptr) return ParamInvalid("GetParentInput: null node");
  return GetParentInput(*data_node);
}

ComputeGraphPtr NodeUtils::GetSubgraph(const Node& node, uint32_t index) {
  const std::string name = node.GetOpDescBarePtr()->GetSubgraphInstanceName(index);
  const ComputeGraph* graph = node.GetOwnerComputeGraphBarePtr();
  if (name.empty() || graph == nullptr) return nullptr;
  return graph->GetSubgraph(name);
}

Status NodeUtils::SetSubgraph(Node& node, uint32_t index, const ComputeGraphPtr& subgraph) {
  if (subgraph == nullptr)
    return ParamInvalid("SetSubgraph on ", node.DebugString(), ": null graph");
  OpDesc& op = *node.GetOpDescBarePtr();
  if (index >= op.GetSubgraphInstanceNames().size()) {
    return OutOfRange("SetSubgraph on ", node.DebugString(), ": subgraph index ", index,
                      " is out of range (", op.GetSubgraphInstanceNames().size(), " slots)");
  }
  ComputeGraphPtr owner = node.GetOwnerComputeGraph();
  if (owner == nullptr) {
    return NotFound("SetSubgraph on ", node.DebugString(), ": the node is not in a graph");
  }
  ComputeGraphPtr root =
      const_cast<ComputeGraph*>(owner->GetRootGraphBarePtr())->weak_from_this().lock();
  if (root == nullptr) {
    return NotFound("SetSubgraph on ", node.DebugString(), ": the root graph is not shared");
  }
  if (root->GetSubgraph(subgraph->GetName()) != nullptr &&
      root->GetSubgraph(subgraph->GetName()) != subgraph) {
    return AlreadyExists("SetSubgraph on ", node.DebugString(), ": another subgraph named '",
                         subgraph->GetName(), "' exists in ", root->DebugString());
  }
  const std::string old_name = op.GetSubgraphInstanceName(index);
  subgraph->SetParentGraph(owner);
  subgraph->SetParentNode(node.shared_from_this());
  if (root->GetSubgraph(subgraph->GetName()) == nullptr) {
    RETURN_IF_ERROR(root->AddSubgraph(subgraph->GetName(), subgraph));
  }
  if (!old_name.empty() && old_name != subgraph->GetName()) {
    RETURN_IF_ERROR(root->RemoveSubgraph(old_name));
  }
  return op.SetSubgraphInstanceName(index, subgraph->GetName());
}

bool NodeUtils::IsConst(const Node& node) {
  return node.GetType() == CONSTANT || node.GetType() == CONSTANTOP;
}

void NodeUtils::SetAllAnchorStatus(Node& node) {
  for (InDataAnchor* in : node.GetAllInDataAnchorsPtr()) {
    const Anchor* peer = in->IsLinked() ? in->PeerAnchors()[0] : nullptr;
    if (peer == nullptr) {
      in->SetStatus(ANCHOR_SUSPEND);
    } else if (IsConst(*peer->GetOwnerNodeBarePtr())) {
      in->SetStatus(ANCHOR_CONST);
    } else {
      in->SetStatus(ANCHOR_DATA);
    }
  }
  for (OutDataAnchor* out : node.GetAllOutDataAnchorsPtr()) {
    out->SetStatus(out->IsLinked() ? ANCHOR_DATA : ANCHOR_SUSPEND);
  }
}

bool NodeUtils::IsAnchorStatusSet(const Node& node) {
  for (InDataAnchor* in : node.GetAllInDataAnchorsPtr()) {
    if (in->IsLinked() && in->GetStatus() == ANCHOR_SUSPEND) return false;
  }
  for (OutDataAnchor* out : node.GetAllOutDataAnchorsPtr()) {
    if (out->IsLinked() && out->GetStatus() == ANCHOR_SUSPEND) return false;
  }
  return true;
}

}  // namespace ge
