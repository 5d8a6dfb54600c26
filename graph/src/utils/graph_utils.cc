// graph/src/utils/graph_utils.cc
//
// GraphUtils: edge edits, node insertion, control-edge copies and the deep
// CopyGraph.
#include "graph/inc/graph/utils/graph_utils.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/src/anchor_access.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// ------------------------------------------------------------------- edges

Status GraphUtils::AddEdge(const AnchorPtr& src, const AnchorPtr& dst) {
  if (src == nullptr || dst == nullptr) return ParamInvalid("AddEdge: null anchor");
  if (!src->IsOutAnchor()) {
    return ParamInvalid("AddEdge: the source ", src->DebugString(), " is not an output anchor");
  }
  return src->LinkWith(dst.get());
}
Status GraphUtils::AddEdge(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst) {
  return AddEdge(AnchorPtr(src), AnchorPtr(dst));
}
Status GraphUtils::AddEdge(const OutDataAnchorPtr& src, const InControlAnchorPtr& dst) {
  return AddEdge(AnchorPtr(src), AnchorPtr(dst));
}
Status GraphUtils::AddEdge(const OutControlAnchorPtr& src, const InControlAnchorPtr& dst) {
  return AddEdge(AnchorPtr(src), AnchorPtr(dst));
}
Status GraphUtils::AddEdge(const OutControlAnchorPtr& src, const InDataAnchorPtr& dst) {
  return AddEdge(AnchorPtr(src), AnchorPtr(dst));
}

Status GraphUtils::RemoveEdge(const AnchorPtr& src, const AnchorPtr& dst) {
  if (src == nullptr || dst == nullptr) return ParamInvalid("RemoveEdge: null anchor");
  return src->Unlink(dst.get());
}
Status GraphUtils::RemoveEdge(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst) {
  return RemoveEdge(AnchorPtr(src), AnchorPtr(dst));
}
Status GraphUtils::RemoveEdge(const OutDataAnchorPtr& src, const InControlAnchorPtr& dst) {
  return RemoveEdge(AnchorPtr(src), AnchorPtr(dst));
}
Status GraphUtils::RemoveEdge(const OutControlAnchorPtr& src, const InControlAnchorPtr& dst) {
  return RemoveEdge(AnchorPtr(src), AnchorPtr(dst));
}
Status GraphUtils::RemoveEdge(const OutControlAnchorPtr& src, const InDataAnchorPtr& dst) {
  return RemoveEdge(AnchorPtr(src), AnchorPtr(dst));
}

Status GraphUtils::ReplaceEdgeSrc(const AnchorPtr& src, const AnchorPtr& dst,
                                  const AnchorPtr& new_src) {
  if (src == nullptr || dst == nullptr || new_src == nullptr) {
    return ParamInvalid("ReplaceEdgeSrc: null anchor");
  }
  return dst->ReplacePeer(src.get(), new_src.get());
}

Status GraphUtils::ReplaceEdgeDst(const AnchorPtr& src, const AnchorPtr& dst,
                                  const AnchorPtr& new_dst) {
  if (src == nullptr || dst == nullptr || new_dst == nullptr) {
    return ParamInvalid("ReplaceEdgeDst: null anchor");
  }
  return src->ReplacePeer(dst.get(), new_dst.get());
}

// --------------------------------------------------------- inserting nodes

Status GraphUtils::InsertNodeBetweenDataAnchors(const OutDataAnchorPtr& src,
                                                const InDataAnchorPtr& dst, const NodePtr& node) {
  return InsertNodeAfter(src, {dst}, node, 0, 0);
}

Status GraphUtils::InsertNodeAfter(const OutDataAnchorPtr& src,
                                   const std::vector<InDataAnchorPtr>& dsts, const NodePtr& node,
                                   uint32_t input_index, uint32_t output_index) {
  if (src == nullptr || node == nullptr) return ParamInvalid("InsertNodeAfter: null argument");
  InDataAnchor* in = node->GetInDataAnchorBarePtr(static_cast<int32_t>(input_index));
  OutDataAnchor* out = node->GetOutDataAnchorBarePtr(static_cast<int32_t>(output_index));
  if (in == nullptr || out == nullptr) {
    return OutOfRange("InsertNodeAfter: node ", node->DebugString(), " has no input ", input_index,
                      " or no output ", output_index);
  }
  if (in->IsLinked()) {
    return AlreadyExists("InsertNodeAfter: ", in->DebugString(), " is already linked");
  }
  std::vector<InDataAnchor*> targets;
  if (dsts.empty()) {
    targets = src->GetPeerInDataAnchorsPtr();
  } else {
    absl::flat_hash_set<InDataAnchor*> seen;
    for (const InDataAnchorPtr& dst : dsts) {
      if (dst == nullptr) return ParamInvalid("InsertNodeAfter: null destination anchor");
      if (!src->IsLinkedWith(dst.get())) {
        return NotFound("InsertNodeAfter: ", src->DebugString(), " is not linked to ",
                        dst->DebugString());
      }
      if (!seen.insert(dst.get()).second) {
        return ParamInvalid("InsertNodeAfter: ", dst->DebugString(), " is listed twice");
      }
      targets.push_back(dst.get());
    }
  }
  if (targets.empty()) {
    return NotFound("InsertNodeAfter: ", src->DebugString(), " has no data consumer");
  }
  RETURN_IF_ERROR(src->Insert(targets[0], in, out));
  for (size_t i = 1; i < targets.size(); ++i) {
    RETURN_IF_ERROR(targets[i]->ReplacePeer(src.get(), out));
  }
  return OkStatus();
}

Status GraphUtils::InsertNodeBefore(const InDataAnchorPtr& dst, const NodePtr& node,
                                    uint32_t input_index, uint32_t output_index) {
  if (dst == nullptr || node == nullptr) return ParamInvalid("InsertNodeBefore: null argument");
  OutDataAnchorPtr src = dst->GetPeerOutAnchor();
  if (src == nullptr) {
    return NotFound("InsertNodeBefore: ", dst->DebugString(), " has no data producer");
  }
  return InsertNodeAfter(src, {dst}, node, input_index, output_index);
}

// ---------------------------------------------------------- removing nodes

Status GraphUtils::IsolateNode(const NodePtr& node, const std::vector<int32_t>& io_map) {
  return ComputeGraph::IsolateNode(node, io_map);
}

Status GraphUtils::IsolateNodeOneIO(const NodePtr& node) {
  if (node == nullptr) return ParamInvalid("IsolateNodeOneIO: null node");
  if (node->GetAllInDataAnchorsSize() != 1 || node->GetAllOutDataAnchorsSize() != 1) {
    return ParamInvalid("IsolateNodeOneIO: node ", node->DebugString(), " has ",
                        node->GetAllInDataAnchorsSize(), " inputs and ",
                        node->GetAllOutDataAnchorsSize(), " outputs, not 1 and 1");
  }
  return ComputeGraph::IsolateNode(node, {0});
}

Status GraphUtils::RemoveNodeWithoutRelink(const ComputeGraphPtr& graph, const NodePtr& node) {
  if (graph == nullptr) return ParamInvalid("RemoveNodeWithoutRelink: null graph");
  return graph->RemoveNodeWithoutRelink(node);
}

// ----------------------------------------------------------- control edges

namespace {
// Links every peer of `from` to `to` as well (skipping peers owned by
// `skip_owner` and peers `to` already has).
Status CopyPeers(Anchor* from, Anchor* to, const Node* skip_owner, bool only_control_peers) {
  for (Anchor* peer : from->GetPeerAnchorsPtr()) {
    if (peer->GetOwnerNodeBarePtr() == skip_owner || peer->IsLinkedWith(to)) continue;
    if (only_control_peers && !peer->IsControlAnchor()) continue;
    RETURN_IF_ERROR(to->LinkWith(peer));
  }
  return OkStatus();
}
// Moves every peer of `from` to `to` (a peer owned by `skip_owner` or
// already linked with `to` is just unlinked from `from`).
Status MovePeers(Anchor* from, Anchor* to, const Node* skip_owner) {
  for (Anchor* peer : from->GetPeerAnchorsPtr()) {
    if (peer->GetOwnerNodeBarePtr() == skip_owner || peer->IsLinkedWith(to)) {
      RETURN_IF_ERROR(from->Unlink(peer));
    } else {
      RETURN_IF_ERROR(peer->ReplacePeer(from, to));
    }
  }
  return OkStatus();
}
}  // namespace

Status GraphUtils::CopyInCtrlEdges(const NodePtr& src, const NodePtr& dst) {
  if (src == nullptr || dst == nullptr) return ParamInvalid("CopyInCtrlEdges: null node");
  return CopyPeers(src->GetInControlAnchorBarePtr(), dst->GetInControlAnchorBarePtr(), dst.get(),
                   false);
}

Status GraphUtils::MoveInCtrlEdges(const NodePtr& src, const NodePtr& dst) {
  if (src == nullptr || dst == nullptr) return ParamInvalid("MoveInCtrlEdges: null node");
  if (src == dst) return OkStatus();
  return MovePeers(src->GetInControlAnchorBarePtr(), dst->GetInControlAnchorBarePtr(), dst.get());
}

Status GraphUtils::CopyOutCtrlEdges(const NodePtr& src, const NodePtr& dst) {
  if (src == nullptr || dst == nullptr) return ParamInvalid("CopyOutCtrlEdges: null node");
  // Control -> data peers have their single producer already: only control
  // peers can be shared.
  return CopyPeers(src->GetOutControlAnchorBarePtr(), dst->GetOutControlAnchorBarePtr(), dst.get(),
                   true);
}

Status GraphUtils::MoveOutCtrlEdges(const NodePtr& src, const NodePtr& dst) {
  if (src == nullptr || dst == nullptr) return ParamInvalid("MoveOutCtrlEdges: null node");
  if (src == dst) return OkStatus();
  return MovePeers(src->GetOutControlAnchorBarePtr(), dst->GetOutControlAnchorBarePtr(), dst.get());
}

// --------------------------------------------------------------- CopyGraph

namespace {

class GraphCopier {
 public:
  StatusOr<ComputeGraphPtr> Copy(const ComputeGraphPtr& src, const std::string& name);

 private:
  Status CopyNodes(const ComputeGraph& src, const ComputeGraphPtr& dst);
  Status CopyEdges(const ComputeGraph& src);
  Status CopyIo(const ComputeGraph& src, const ComputeGraphPtr& dst);
  StatusOr<Anchor*> MapAnchor(const Anchor* old_anchor, const Anchor* from) const;
  // Deep-copies graph-valued attributes (recursively through named attrs,
  // tensor descs and tensors).
  Status DeepCopyAttrs(AttrStore& store);
  Status DeepCopyValue(AttrValue& value);
  Status DeepCopyGraph(ComputeGraphPtr& graph);

  absl::flat_hash_map<const Node*, Node*> node_map_;
  // Source graph -> copy, for every graph copied so far (the tree being
  // copied, enclosing trees and graphs referenced by attributes): each graph
  // is copied once and every reference to it points to its copy, so shared
  // and self references keep their shape.
  absl::flat_hash_map<const ComputeGraph*, ComputeGraphPtr> graph_map_;
};

Status GraphCopier::DeepCopyGraph(ComputeGraphPtr& graph) {
  if (graph == nullptr) return OkStatus();
  auto known = graph_map_.find(graph.get());
  if (known != graph_map_.end()) {
    graph = known->second;
    return OkStatus();
  }
  // Attribute graphs are rare and shallow: copied by a nested copier that
  // shares the graph map.
  GraphCopier nested;
  nested.graph_map_ = std::move(graph_map_);
  auto copy = nested.Copy(graph, "");
  graph_map_ = std::move(nested.graph_map_);
  if (!copy.ok()) return copy.status();
  graph = *std::move(copy);
  return OkStatus();
}

Status GraphCopier::DeepCopyValue(AttrValue& value) {
  switch (value.GetValueType()) {
    case AttrValue::VT_GRAPH:
      return DeepCopyGraph(*value.GetMutable<ComputeGraphPtr>());
    case AttrValue::VT_LIST_GRAPH:
      for (ComputeGraphPtr& g : *value.GetMutable<std::vector<ComputeGraphPtr>>()) {
        RETURN_IF_ERROR(DeepCopyGraph(g));
      }
      return OkStatus();
    case AttrValue::VT_NAMED_ATTRS:
      return DeepCopyAttrs(value.GetMutable<NamedAttrs>()->MutableAttrStore());
    case AttrValue::VT_LIST_NAMED_ATTRS:
      for (NamedAttrs& na : *value.GetMutable<std::vector<NamedAttrs>>()) {
        RETURN_IF_ERROR(DeepCopyAttrs(na.MutableAttrStore()));
      }
      return OkStatus();
    case AttrValue::VT_TENSOR_DESC:
      return DeepCopyAttrs(value.GetMutable<GeTensorDesc>()->MutableAttrStore());
    case AttrValue::VT_LIST_TENSOR_DESC:
      for (GeTensorDesc& d : *value.GetMutable<std::vector<GeTensorDesc>>()) {
        RETURN_IF_ERROR(DeepCopyAttrs(d.MutableAttrStore()));
      }
      return OkStatus();
    case AttrValue::VT_TENSOR:
      return DeepCopyAttrs(value.GetMutable<GeTensor>()->MutableTensorDesc().MutableAttrStore());
    case AttrValue::VT_LIST_TENSOR:
      for (GeTensor& t : *value.GetMutable<std::vector<GeTensor>>()) {
        RETURN_IF_ERROR(DeepCopyAttrs(t.MutableTensorDesc().MutableAttrStore()));
      }
      return OkStatus();
    default:
      return OkStatus();
  }
}

Status GraphCopier::DeepCopyAttrs(AttrStore& store) {
  for (size_t i = 0; i < store.size(); ++i) {
    RETURN_IF_ERROR(DeepCopyValue(store.MutableValueAt(i)));
  }
  return OkStatus();
}

StatusOr<Anchor*> GraphCopier::MapAnchor(const Anchor* old_anchor, const Anchor* from) const {
  auto it = node_map_.find(old_anchor->GetOwnerNodeBarePtr());
  if (it == node_map_.end()) {
    return GraphInvalid("CopyGraph: the edge ", from->DebugString(), " -> ",
                        old_anchor->DebugString(), " leaves the graph tree");
  }
  Node* n = it->second;
  const int32_t idx = old_anchor->GetIdx();
  Anchor* mapped = nullptr;
  switch (old_anchor->GetKind()) {
    case Anchor::Kind::kInData:
      mapped = n->GetInDataAnchorBarePtr(idx);
      break;
    case Anchor::Kind::kOutData:
      mapped = n->GetOutDataAnchorBarePtr(idx);
      break;
    case Anchor::Kind::kInControl:
      mapped = n->GetInControlAnchorBarePtr();
      break;
    case Anchor::Kind::kOutControl:
      mapped = n->GetOutControlAnchorBarePtr();
      break;
  }
  if (mapped == nullptr) {
    return Internal("CopyGraph: no anchor for ", old_anchor->DebugString(), " in the copy");
  }
  return mapped;
}

Status GraphCopier::CopyNodes(const ComputeGraph& src, const ComputeGraphPtr& dst) {
  dst->SetGraphID(src.GetGraphID());
  dst->MutableAttrStore() = src.GetAttrStore();
  RETURN_IF_ERROR(DeepCopyAttrs(dst->MutableAttrStore()));
  for (const NodePtr& node : src.DirectNodes()) {
    OpDescPtr op = OpDesc::Create(*node->GetOpDescBarePtr());
    RETURN_IF_ERROR(DeepCopyAttrs(op->MutableAttrStore()));
    for (const GeTensorDescPtr& d : op->GetAllInputsDescPtr()) {
      RETURN_IF_ERROR(DeepCopyAttrs(d->MutableAttrStore()));
    }
    for (const GeTensorDescPtr& d : op->GetAllOutputsDescPtr()) {
      RETURN_IF_ERROR(DeepCopyAttrs(d->MutableAttrStore()));
    }
    ASSIGN_OR_RETURN(NodePtr copy, dst->AddNode(op, node->GetOpDescBarePtr()->GetId()));
    // Anchors may differ from the descs (NodeUtils / Node edits).
    const size_t in = node->GetAllInDataAnchorsSize();
    const size_t out = node->GetAllOutDataAnchorsSize();
    if (copy->GetAllInDataAnchorsSize() < in) {
      RETURN_IF_ERROR(copy->AppendInDataAnchors(in - copy->GetAllInDataAnchorsSize()));
    } else {
      RETURN_IF_ERROR(copy->RemoveInDataAnchors(copy->GetAllInDataAnchorsSize() - in));
    }
    if (copy->GetAllOutDataAnchorsSize() < out) {
      RETURN_IF_ERROR(copy->AppendOutDataAnchors(out - copy->GetAllOutDataAnchorsSize()));
    } else {
      RETURN_IF_ERROR(copy->RemoveOutDataAnchors(copy->GetAllOutDataAnchorsSize() - out));
    }
    for (size_t i = 0; i < in; ++i) {
      copy->GetInDataAnchorBarePtr(static_cast<int32_t>(i))
          ->SetStatus(node->GetInDataAnchorBarePtr(static_cast<int32_t>(i))->GetStatus());
    }
    for (size_t i = 0; i < out; ++i) {
      copy->GetOutDataAnchorBarePtr(static_cast<int32_t>(i))
          ->SetStatus(node->GetOutDataAnchorBarePtr(static_cast<int32_t>(i))->GetStatus());
    }
    node_map_.emplace(node.get(), copy.get());
  }
  return OkStatus();
}

Status GraphCopier::CopyEdges(const ComputeGraph& src) {
  for (const NodePtr& node : src.DirectNodes()) {
    Node* copy = node_map_.at(node.get());
    for (size_t k = 0; k < node->GetAllOutDataAnchorsSize(); ++k) {
      const OutDataAnchor* old_out = node->GetOutDataAnchorBarePtr(static_cast<int32_t>(k));
      OutDataAnchor* new_out = copy->GetOutDataAnchorBarePtr(static_cast<int32_t>(k));
      for (const Anchor* peer : old_out->PeerAnchors()) {
        ASSIGN_OR_RETURN(Anchor * mapped, MapAnchor(peer, old_out));
        RETURN_IF_ERROR(new_out->LinkWith(mapped));
      }
    }
    if (node->OutControlPeers().empty()) continue;
    const OutControlAnchor* old_ctrl = node->GetOutControlAnchorBarePtr();
    for (const Anchor* peer : old_ctrl->PeerAnchors()) {
      ASSIGN_OR_RETURN(Anchor * mapped, MapAnchor(peer, old_ctrl));
      RETURN_IF_ERROR(copy->GetOutControlAnchorBarePtr()->LinkWith(mapped));
    }
  }
  return OkStatus();
}

Status GraphCopier::CopyIo(const ComputeGraph& src, const ComputeGraphPtr& dst) {
  // Input nodes in the source's order (AddNode registered Data nodes in
  // list order).
  const std::vector<NodePtr> auto_inputs = dst->GetInputNodes();
  for (const NodePtr& n : auto_inputs) RETURN_IF_ERROR(dst->RemoveInputNode(n));
  for (const NodePtr& n : src.GetInputNodes()) {
    auto it = node_map_.find(n.get());
    if (it == node_map_.end()) {
      return GraphInvalid("CopyGraph: input node ", n->DebugString(), " of ", src.DebugString(),
                          " is not in the graph tree");
    }
    RETURN_IF_ERROR(dst->AddInputNode(it->second->shared_from_this()));
  }
  std::vector<std::pair<NodePtr, int32_t>> outputs;
  for (const auto& [n, index] : src.GetGraphOutNodesInfo()) {
    auto it = node_map_.find(n.get());
    if (it == node_map_.end()) {
      return GraphInvalid("CopyGraph: output node ", n->DebugString(), " of ", src.DebugString(),
                          " is not in the graph tree");
    }
    outputs.emplace_back(it->second->shared_from_this(), index);
  }
  dst->SetGraphOutNodesInfo(outputs);
  return OkStatus();
}

StatusOr<ComputeGraphPtr> GraphCopier::Copy(const ComputeGraphPtr& src, const std::string& name) {
  std::vector<ComputeGraphPtr> sources = {src};
  for (const ComputeGraphPtr& sg : src->GetAllSubgraphs()) {
    if (sg != nullptr) sources.push_back(sg);
  }
  std::vector<ComputeGraphPtr> copies;
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::string copy_name = (i == 0 && !name.empty()) ? name : sources[i]->GetName();
    copies.push_back(std::make_shared<ComputeGraph>(copy_name));
    graph_map_.emplace(sources[i].get(), copies.back());
  }
  for (size_t i = 0; i < sources.size(); ++i) RETURN_IF_ERROR(CopyNodes(*sources[i], copies[i]));
  for (size_t i = 0; i < sources.size(); ++i) RETURN_IF_ERROR(CopyEdges(*sources[i]));
  // Control peers of in-control anchors: restore the source's order.
  for (const auto& [old_node, new_node] : node_map_) {
    if (old_node->InControlPeers().size() < 2) continue;
    const InControlAnchor* old_ic = old_node->GetInControlAnchorBarePtr();
    std::vector<Anchor*> order;
    for (const Anchor* peer : old_ic->PeerAnchors()) {
      ASSIGN_OR_RETURN(Anchor * mapped, MapAnchor(peer, old_ic));
      order.push_back(mapped);
    }
    RETURN_IF_ERROR(
        internal::AnchorAccess::SetPeerOrder(new_node->GetInControlAnchorBarePtr(), order));
  }
  for (size_t i = 0; i < sources.size(); ++i) RETURN_IF_ERROR(CopyIo(*sources[i], copies[i]));
  // Subgraph tree: parents, then registration at the new root.
  for (size_t i = 1; i < sources.size(); ++i) {
    const ComputeGraphPtr parent = sources[i]->GetParentGraph();
    const NodePtr parent_node = sources[i]->GetParentNode();
    auto pg = parent == nullptr ? graph_map_.end() : graph_map_.find(parent.get());
    if (pg != graph_map_.end()) copies[i]->SetParentGraph(pg->second);
    if (parent_node != nullptr) {
      auto pn = node_map_.find(parent_node.get());
      if (pn != node_map_.end()) copies[i]->SetParentNode(pn->second->shared_from_this());
    }
  }
  const ComputeGraphPtr& root = copies[0];
  for (size_t i = 1; i < sources.size(); ++i) {
    // The name the source registered it under: its own name or the instance
    // name its parent node uses.
    std::string key = sources[i]->GetName();
    if (src->GetSubgraph(key) != sources[i]) {
      const NodePtr parent_node = sources[i]->GetParentNode();
      if (parent_node != nullptr) {
        for (const std::string& inst :
             parent_node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
          if (!inst.empty() && src->GetSubgraph(inst) == sources[i]) key = inst;
        }
      }
    }
    if (copies[i]->GetParentGraph() != nullptr && copies[i]->GetParentNode() != nullptr) {
      RETURN_IF_ERROR(root->AddSubgraph(key, copies[i]));
    } else {
      RETURN_IF_ERROR(root->AddSubGraph(copies[i]));
    }
  }
  return root;
}

}  // namespace

StatusOr<ComputeGraphPtr> GraphUtils::CopyGraph(const ComputeGraphPtr& graph,
                                                const std::string& name) {
  if (graph == nullptr) return ParamInvalid("CopyGraph: null graph");
  GraphCopier copier;
  return copier.Copy(graph, name);
}

NodePtr GraphUtils::FindNodeFromAllNodes(const ComputeGraphPtr& graph, const std::string& name) {
  if (graph == nullptr) return nullptr;
  for (const NodePtr& node : graph->GetAllNodes()) {
    if (node->GetName() == name) return node;
  }
  return nullptr;
}

ComputeGraphPtr GraphUtils::FindRootGraph(const ComputeGraphPtr& graph) {
  ComputeGraphPtr g = graph;
  while (g != nullptr && g->GetParentGraph() != nullptr) g = g->GetParentGraph();
  return g;
}

}  // namespace ge
