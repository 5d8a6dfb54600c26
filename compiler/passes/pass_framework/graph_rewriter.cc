// compiler/passes/pass_framework/graph_rewriter.cc
#include "compiler/passes/pass_framework/graph_rewriter.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"

namespace ge {
namespace {

std::string NodeName(const Node* node) {
  return node == nullptr ? std::string("<null>") : "'" + node->GetName() + "'";
}

bool IsConstType(const std::string& type) { return type == CONSTANT || type == CONSTANTOP; }

// Appends `node` unless it is `self` or already listed.
void AddUnique(Node* node, const Node* self, std::vector<Node*>* list,
               absl::flat_hash_set<Node*>* seen) {
  if (node == nullptr || node == self) return;
  if (seen->insert(node).second) list->push_back(node);
}

// True when some out anchor of `src` is linked with some in anchor of `dst`.
bool HasDirectEdge(const Node& src, const Node& dst) {
  for (size_t i = 0; i < src.GetAllOutDataAnchorsSize(); ++i) {
    for (const Anchor* peer : src.GetOutDataAnchorBarePtr(static_cast<int32_t>(i))->PeerAnchors()) {
      if (peer->GetOwnerNodeBarePtr() == &dst) return true;
    }
  }
  for (const Anchor* peer : src.GetOutControlAnchorBarePtr()->PeerAnchors()) {
    if (peer->GetOwnerNodeBarePtr() == &dst) return true;
  }
  return false;
}

bool HasAnyConsumer(const Node& node) {
  for (size_t i = 0; i < node.GetAllOutDataAnchorsSize(); ++i) {
    if (node.GetOutDataAnchorBarePtr(static_cast<int32_t>(i))->IsLinked()) return true;
  }
  return node.GetOutControlAnchorBarePtr()->IsLinked();
}

bool IsGraphOutput(const ComputeGraph& graph, const Node* node, int32_t index) {
  for (const auto& [n, i] : graph.GetGraphOutNodesInfo()) {
    if (n.get() == node && (index < 0 || i == index)) return true;
  }
  return false;
}

// Moves consumer anchor `consumer` from producer `from` to producer `to`,
// keeping its peer position; when `to` already feeds it (control kinds
// only) the link to `from` is just dropped.
Status MovePeer(Anchor* consumer, Anchor* from, Anchor* to) {
  if (consumer->IsLinkedWith(to)) return from->Unlink(consumer);
  return consumer->ReplacePeer(from, to);
}

}  // namespace

GraphRewriter::GraphRewriter(ComputeGraphPtr graph, RewriteListener* listener)
    : graph_(std::move(graph)), listener_(listener) {}

// ------------------------------------------------------------ bookkeeping

Status GraphRewriter::CheckInGraph(const Node* node, const char* what) const {
  if (graph_ == nullptr) return ParamInvalid("graph rewriter has no graph");
  if (node == nullptr) return ParamInvalid("graph '", graph_->GetName(), "': ", what, " is null");
  if (!graph_->HasNode(node)) {
    return ParamInvalid("graph '", graph_->GetName(), "': ", what, " ", NodeName(node),
                        " is not a node of this graph");
  }
  return OkStatus();
}

Status GraphRewriter::CheckAnchorInGraph(const Anchor* anchor, const char* what) const {
  if (graph_ == nullptr) return ParamInvalid("graph rewriter has no graph");
  if (anchor == nullptr) {
    return ParamInvalid("graph '", graph_->GetName(), "': ", what, " anchor is null");
  }
  return CheckInGraph(anchor->GetOwnerNodeBarePtr(), what);
}

void GraphRewriter::Added(const NodePtr& node) {
  NoteGraphEdit();
  changed_ = true;
  ++nodes_added_;
  if (listener_ != nullptr) listener_->OnNodeAdded(node);
}

void GraphRewriter::Changed(Node* node) {
  if (node == nullptr) return;
  NoteGraphEdit();
  changed_ = true;
  if (listener_ != nullptr) listener_->OnNodeChanged(node->shared_from_this());
}

void GraphRewriter::Removed(const NodePtr& node) {
  NoteGraphEdit();
  changed_ = true;
  ++nodes_removed_;
  if (listener_ != nullptr) listener_->OnNodeRemoved(node);
}

void GraphRewriter::MarkChanged(const NodePtr& node) { Changed(node.get()); }

Status GraphRewriter::UpdateInputDesc(const NodePtr& node, uint32_t index,
                                      const GeTensorDesc& desc) {
  RETURN_IF_ERROR(CheckInGraph(node.get(), "node"));
  RETURN_IF_ERROR(node->GetOpDescBarePtr()->UpdateInputDesc(index, desc));
  Changed(node.get());
  return OkStatus();
}

Status GraphRewriter::UpdateOutputDesc(const NodePtr& node, uint32_t index,
                                       const GeTensorDesc& desc) {
  RETURN_IF_ERROR(CheckInGraph(node.get(), "node"));
  RETURN_IF_ERROR(node->GetOpDescBarePtr()->UpdateOutputDesc(index, desc));
  Changed(node.get());
  return OkStatus();
}

Status GraphRewriter::SetAttr(const NodePtr& node, const std::string& name, AttrValue value) {
  RETURN_IF_ERROR(CheckInGraph(node.get(), "node"));
  RETURN_IF_ERROR(node->GetOpDescBarePtr()->SetAttr(name, std::move(value)));
  Changed(node.get());
  return OkStatus();
}

// ------------------------------------------------------------------ nodes

StatusOr<NodePtr> GraphRewriter::AddNode(const OpDescPtr& op_desc) {
  if (graph_ == nullptr) return ParamInvalid("graph rewriter has no graph");
  ASSIGN_OR_RETURN(NodePtr node, graph_->AddNode(op_desc));
  Added(node);
  return node;
}

StatusOr<NodePtr> GraphRewriter::AddNodeAfter(const NodePtr& anchor, const OpDescPtr& op_desc) {
  RETURN_IF_ERROR(CheckInGraph(anchor.get(), "anchor node"));
  ASSIGN_OR_RETURN(NodePtr node, graph_->InsertNode(anchor, op_desc));
  Added(node);
  return node;
}

Status GraphRewriter::RemoveSubgraphsOf(const Node& node) {
  ComputeGraphPtr root = graph_;
  for (ComputeGraphPtr parent = root->GetParentGraph(); parent != nullptr;
       parent = root->GetParentGraph()) {
    root = parent;
  }
  for (const std::string& inst : node.GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
    if (inst.empty()) continue;
    ComputeGraphPtr sub = root->GetSubgraph(inst);
    if (sub == nullptr || sub->GetParentNode().get() != &node) continue;
    for (const NodePtr& inner : sub->GetDirectNode()) RETURN_IF_ERROR(RemoveSubgraphsOf(*inner));
    RETURN_IF_ERROR(root->RemoveSubgraph(inst));
  }
  return OkStatus();
}

Status GraphRewriter::RemoveOrphanedConsts(const std::vector<NodePtr>& producers) {
  if (!remove_orphaned_consts_) return OkStatus();
  for (const NodePtr& p : producers) {
    if (!IsConstType(p->GetType()) || !graph_->HasNode(p) || HasAnyConsumer(*p) ||
        IsGraphOutput(*graph_, p.get(), -1)) {
      continue;
    }
    RETURN_IF_ERROR(EraseNode(p));
  }
  return OkStatus();
}

Status GraphRewriter::EraseNode(const NodePtr& node) {
  const NodePtr keep = node;
  std::vector<Node*> neighbours;
  absl::flat_hash_set<Node*> seen;
  for (const AnchorPtr& anchor : keep->GetAllInAnchors()) {
    for (Anchor* peer : anchor->PeerAnchors()) {
      AddUnique(peer->GetOwnerNodeBarePtr(), keep.get(), &neighbours, &seen);
    }
  }
  const size_t num_producers = neighbours.size();
  for (const AnchorPtr& anchor : keep->GetAllOutAnchors()) {
    for (Anchor* peer : anchor->PeerAnchors()) {
      AddUnique(peer->GetOwnerNodeBarePtr(), keep.get(), &neighbours, &seen);
    }
  }
  RETURN_IF_ERROR(RemoveSubgraphsOf(*keep));
  RETURN_IF_ERROR(graph_->RemoveNodeWithoutRelink(keep));
  Removed(keep);
  for (Node* n : neighbours) Changed(n);
  std::vector<NodePtr> producers;
  for (size_t i = 0; i < num_producers; ++i) producers.push_back(neighbours[i]->shared_from_this());
  return RemoveOrphanedConsts(producers);
}

Status GraphRewriter::RemoveNode(const NodePtr& node) {
  RETURN_IF_ERROR(CheckInGraph(node.get(), "node to remove"));
  int32_t bypass = -1;
  for (size_t i = 0; i < node->GetAllInDataAnchorsSize(); ++i) {
    if (node->GetInDataAnchorBarePtr(static_cast<int32_t>(i))->GetPeerOutAnchorPtr() != nullptr) {
      bypass = static_cast<int32_t>(i);
      break;
    }
  }
  return RemoveNode(node, std::vector<int32_t>(node->GetAllOutDataAnchorsSize(), bypass));
}

Status GraphRewriter::RemoveNode(const NodePtr& node, const std::vector<int32_t>& io_map) {
  RETURN_IF_ERROR(CheckInGraph(node.get(), "node to remove"));
  const NodePtr keep = node;
  const size_t num_in = keep->GetAllInDataAnchorsSize();
  const size_t num_out = keep->GetAllOutDataAnchorsSize();
  if (io_map.size() != num_out) {
    return ParamInvalid("cannot remove node ", NodeName(keep.get()), ": io_map has ", io_map.size(),
                        " entries for ", num_out, " outputs");
  }
  std::vector<OutDataAnchor*> bypass(num_out, nullptr);
  for (size_t i = 0; i < num_out; ++i) {
    const int32_t j = io_map[i];
    if (j < -1 || j >= static_cast<int32_t>(num_in)) {
      return ParamInvalid("cannot remove node ", NodeName(keep.get()), ": io_map[", i, "] = ", j,
                          " is not an input index (the node has ", num_in, " inputs)");
    }
    if (j >= 0) bypass[i] = keep->GetInDataAnchorBarePtr(j)->GetPeerOutAnchorPtr();
    const OutDataAnchor* out = keep->GetOutDataAnchorBarePtr(static_cast<int32_t>(i));
    const bool used =
        out->IsLinked() || IsGraphOutput(*graph_, keep.get(), static_cast<int32_t>(i));
    if (used && bypass[i] == nullptr) {
      std::vector<std::string> users;
      for (const Anchor* peer : out->PeerAnchors()) users.push_back(peer->DebugString());
      if (IsGraphOutput(*graph_, keep.get(), static_cast<int32_t>(i)))
        users.push_back("graph output");
      return ParamInvalid("cannot remove node ", NodeName(keep.get()), ": output ", i, " feeds [",
                          absl::StrJoin(users, ", "), "] and ",
                          j < 0 ? std::string("maps to no input")
                                : absl::StrCat("input ", j, " has no data producer"));
    }
  }

  // Neighbours.
  std::vector<Node*> ctrl_preds, data_producers, data_consumers, ctrl_consumers;
  absl::flat_hash_set<Node*> seen_cp, seen_dp, seen_dc, seen_cc;
  for (size_t j = 0; j < num_in; ++j) {
    for (Anchor* peer : keep->GetInDataAnchorBarePtr(static_cast<int32_t>(j))->PeerAnchors()) {
      if (peer->IsOutData()) {
        AddUnique(peer->GetOwnerNodeBarePtr(), keep.get(), &data_producers, &seen_dp);
      } else {
        AddUnique(peer->GetOwnerNodeBarePtr(), keep.get(), &ctrl_preds, &seen_cp);
      }
    }
  }
  for (Anchor* peer : keep->GetInControlAnchorBarePtr()->PeerAnchors()) {
    AddUnique(peer->GetOwnerNodeBarePtr(), keep.get(), &ctrl_preds, &seen_cp);
  }
  for (size_t i = 0; i < num_out; ++i) {
    for (Anchor* peer : keep->GetOutDataAnchorBarePtr(static_cast<int32_t>(i))->PeerAnchors()) {
      if (peer->IsInData()) {
        AddUnique(peer->GetOwnerNodeBarePtr(), keep.get(), &data_consumers, &seen_dc);
      } else {
        AddUnique(peer->GetOwnerNodeBarePtr(), keep.get(), &ctrl_consumers, &seen_cc);
      }
    }
  }
  for (Anchor* peer : keep->GetOutControlAnchorBarePtr()->PeerAnchors()) {
    AddUnique(peer->GetOwnerNodeBarePtr(), keep.get(), &ctrl_consumers, &seen_cc);
  }

  // Rewire the data consumers (and data -> control consumers) to the bypass.
  for (size_t i = 0; i < num_out; ++i) {
    if (bypass[i] == nullptr) continue;
    OutDataAnchor* out = keep->GetOutDataAnchorBarePtr(static_cast<int32_t>(i));
    const std::vector<Anchor*> consumers = out->GetPeerAnchorsPtr();
    for (Anchor* consumer : consumers) {
      RETURN_IF_ERROR(Annotate(MovePeer(consumer, out, bypass[i]), "removing node ",
                               NodeName(keep.get()), ": "));
    }
  }
  std::vector<std::pair<NodePtr, int32_t>> outputs = graph_->GetGraphOutNodesInfo();
  bool outputs_changed = false;
  for (auto& entry : outputs) {
    if (entry.first != keep) continue;
    OutDataAnchor* by = bypass[static_cast<size_t>(entry.second)];
    entry = {by->GetOwnerNodeBarePtr()->shared_from_this(), by->GetIdx()};
    outputs_changed = true;
  }
  if (outputs_changed) graph_->SetGraphOutNodesInfo(outputs);

  // Control edges that keep the ordering the node imposed.
  auto add_order = [this](Node* src, Node* dst) -> Status {
    if (src == dst || HasDirectEdge(*src, *dst)) return OkStatus();
    Status st = src->GetOutControlAnchorBarePtr()->LinkTo(dst->GetInControlAnchorBarePtr());
    if (st.ok()) {
      Changed(src);
      Changed(dst);
    }
    return st;
  };
  for (Node* p : ctrl_preds) {
    for (Node* c : data_consumers) RETURN_IF_ERROR(add_order(p, c));
    for (Node* c : ctrl_consumers) RETURN_IF_ERROR(add_order(p, c));
  }
  for (Node* p : data_producers) {
    for (Node* c : ctrl_consumers) RETURN_IF_ERROR(add_order(p, c));
  }
  for (Node* c : data_consumers) Changed(c);
  for (Node* c : ctrl_consumers) Changed(c);
  return EraseNode(keep);
}

Status GraphRewriter::RemoveDeadNode(const NodePtr& node) {
  RETURN_IF_ERROR(CheckInGraph(node.get(), "node to remove"));
  std::vector<std::string> users;
  for (const AnchorPtr& anchor : node->GetAllOutAnchors()) {
    for (const Anchor* peer : anchor->PeerAnchors()) users.push_back(peer->DebugString());
  }
  if (IsGraphOutput(*graph_, node.get(), -1)) users.push_back("graph output");
  if (!users.empty()) {
    return ParamInvalid("cannot remove node ", NodeName(node.get()),
                        " as dead: it still has consumers [", absl::StrJoin(users, ", "), "]");
  }
  return EraseNode(node);
}

Status GraphRewriter::ReplaceNode(const NodePtr& old_node, const NodePtr& new_node) {
  RETURN_IF_ERROR(CheckInGraph(old_node.get(), "node to replace"));
  RETURN_IF_ERROR(CheckInGraph(new_node.get(), "replacement node"));
  const NodePtr keep = old_node;
  if (keep == new_node) {
    return ParamInvalid("cannot replace node ", NodeName(keep.get()), " by itself");
  }
  const size_t num_out = keep->GetAllOutDataAnchorsSize();
  if (new_node->GetAllOutDataAnchorsSize() < num_out) {
    return ParamInvalid("cannot replace node ", NodeName(keep.get()), " (", num_out,
                        " outputs) by ", NodeName(new_node.get()), " (",
                        new_node->GetAllOutDataAnchorsSize(), " outputs)");
  }
  for (const AnchorPtr& anchor : new_node->GetAllInAnchors()) {
    for (const Anchor* peer : anchor->PeerAnchors()) {
      if (peer->GetOwnerNodeBarePtr() == keep.get()) {
        return ParamInvalid("cannot replace node ", NodeName(keep.get()), " by ",
                            NodeName(new_node.get()), ": the replacement consumes it (",
                            peer->DebugString(), " -> ", anchor->DebugString(), ")");
      }
    }
  }
  for (size_t i = 0; i < num_out; ++i) {
    OutDataAnchor* from = keep->GetOutDataAnchorBarePtr(static_cast<int32_t>(i));
    OutDataAnchor* to = new_node->GetOutDataAnchorBarePtr(static_cast<int32_t>(i));
    const std::vector<Anchor*> consumers = from->GetPeerAnchorsPtr();
    for (Anchor* consumer : consumers) {
      RETURN_IF_ERROR(MovePeer(consumer, from, to));
      Changed(consumer->GetOwnerNodeBarePtr());
    }
  }
  {
    OutControlAnchor* from = keep->GetOutControlAnchorBarePtr();
    OutControlAnchor* to = new_node->GetOutControlAnchorBarePtr();
    const std::vector<Anchor*> consumers = from->GetPeerAnchorsPtr();
    for (Anchor* consumer : consumers) {
      if (consumer->GetOwnerNodeBarePtr() == new_node.get()) {
        RETURN_IF_ERROR(from->Unlink(consumer));
      } else {
        RETURN_IF_ERROR(MovePeer(consumer, from, to));
      }
      Changed(consumer->GetOwnerNodeBarePtr());
    }
  }
  for (Anchor* pred : keep->GetInControlAnchorBarePtr()->GetPeerAnchorsPtr()) {
    if (pred->GetOwnerNodeBarePtr() == new_node.get()) continue;
    if (!pred->IsLinkedWith(new_node->GetInControlAnchorBarePtr())) {
      RETURN_IF_ERROR(pred->LinkWith(new_node->GetInControlAnchorBarePtr()));
      Changed(pred->GetOwnerNodeBarePtr());
    }
  }
  std::vector<std::pair<NodePtr, int32_t>> outputs = graph_->GetGraphOutNodesInfo();
  bool outputs_changed = false;
  for (auto& entry : outputs) {
    if (entry.first != keep) continue;
    entry.first = new_node;
    outputs_changed = true;
  }
  if (outputs_changed) graph_->SetGraphOutNodesInfo(outputs);
  Changed(new_node.get());
  return EraseNode(keep);
}

// ------------------------------------------------------------------ edges

Status GraphRewriter::LinkData(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst) {
  RETURN_IF_ERROR(CheckAnchorInGraph(src.get(), "source"));
  RETURN_IF_ERROR(CheckAnchorInGraph(dst.get(), "destination"));
  RETURN_IF_ERROR(src->LinkTo(dst));
  Changed(src->GetOwnerNodeBarePtr());
  Changed(dst->GetOwnerNodeBarePtr());
  return OkStatus();
}

Status GraphRewriter::LinkData(const NodePtr& src, int32_t out_index, const NodePtr& dst,
                               int32_t in_index) {
  RETURN_IF_ERROR(CheckInGraph(src.get(), "source node"));
  RETURN_IF_ERROR(CheckInGraph(dst.get(), "destination node"));
  OutDataAnchorPtr out = src->GetOutDataAnchor(out_index);
  InDataAnchorPtr in = dst->GetInDataAnchor(in_index);
  if (out == nullptr) {
    return OutOfRange("node ", NodeName(src.get()), " has no output ", out_index);
  }
  if (in == nullptr) return OutOfRange("node ", NodeName(dst.get()), " has no input ", in_index);
  return LinkData(out, in);
}

Status GraphRewriter::UnlinkData(const InDataAnchorPtr& dst) {
  RETURN_IF_ERROR(CheckAnchorInGraph(dst.get(), "destination"));
  if (!dst->IsLinked()) return OkStatus();
  Anchor* peer = dst->PeerAnchors()[0];
  RETURN_IF_ERROR(dst->Unlink(peer));
  Changed(peer->GetOwnerNodeBarePtr());
  Changed(dst->GetOwnerNodeBarePtr());
  return OkStatus();
}

Status GraphRewriter::ReplaceInput(const InDataAnchorPtr& dst, const OutDataAnchorPtr& new_src) {
  RETURN_IF_ERROR(CheckAnchorInGraph(dst.get(), "destination"));
  RETURN_IF_ERROR(CheckAnchorInGraph(new_src.get(), "new source"));
  OutDataAnchor* old = dst->GetPeerOutAnchorPtr();
  if (old == nullptr) {
    return ParamInvalid("cannot replace the producer of ", dst->DebugString(),
                        ": it has no data producer");
  }
  if (old == new_src.get()) return OkStatus();
  RETURN_IF_ERROR(dst->ReplacePeer(old, new_src.get()));
  Changed(old->GetOwnerNodeBarePtr());
  Changed(new_src->GetOwnerNodeBarePtr());
  Changed(dst->GetOwnerNodeBarePtr());
  return OkStatus();
}

Status GraphRewriter::LinkControl(const NodePtr& src, const NodePtr& dst) {
  RETURN_IF_ERROR(CheckInGraph(src.get(), "control source"));
  RETURN_IF_ERROR(CheckInGraph(dst.get(), "control destination"));
  if (src == dst) {
    return ParamInvalid("cannot link node ", NodeName(src.get()), " to itself by control");
  }
  if (src->GetOutControlAnchorBarePtr()->IsLinkedWith(dst->GetInControlAnchorBarePtr())) {
    return OkStatus();
  }
  RETURN_IF_ERROR(src->GetOutControlAnchorBarePtr()->LinkTo(dst->GetInControlAnchorBarePtr()));
  Changed(src.get());
  Changed(dst.get());
  return OkStatus();
}

Status GraphRewriter::UnlinkControl(const NodePtr& src, const NodePtr& dst) {
  RETURN_IF_ERROR(CheckInGraph(src.get(), "control source"));
  RETURN_IF_ERROR(CheckInGraph(dst.get(), "control destination"));
  if (!src->GetOutControlAnchorBarePtr()->IsLinkedWith(dst->GetInControlAnchorBarePtr())) {
    return NotFound("no control edge ", NodeName(src.get()), " -> ", NodeName(dst.get()));
  }
  RETURN_IF_ERROR(src->GetOutControlAnchorBarePtr()->Unlink(dst->GetInControlAnchorBarePtr()));
  Changed(src.get());
  Changed(dst.get());
  return OkStatus();
}

Status GraphRewriter::ReplaceAllUsesWith(const OutDataAnchorPtr& from, const OutDataAnchorPtr& to) {
  RETURN_IF_ERROR(CheckAnchorInGraph(from.get(), "replaced output"));
  RETURN_IF_ERROR(CheckAnchorInGraph(to.get(), "replacement output"));
  if (from == to) {
    return ParamInvalid("cannot replace the uses of ", from->DebugString(), " by itself");
  }
  Node* to_owner = to->GetOwnerNodeBarePtr();
  const std::vector<Anchor*> consumers = from->GetPeerAnchorsPtr();
  for (Anchor* consumer : consumers) {
    if (consumer->GetOwnerNodeBarePtr() == to_owner) continue;
    RETURN_IF_ERROR(MovePeer(consumer, from.get(), to.get()));
    Changed(consumer->GetOwnerNodeBarePtr());
  }
  std::vector<std::pair<NodePtr, int32_t>> outputs = graph_->GetGraphOutNodesInfo();
  bool outputs_changed = false;
  for (auto& entry : outputs) {
    if (entry.first.get() != from->GetOwnerNodeBarePtr() || entry.second != from->GetIdx()) {
      continue;
    }
    entry = {to_owner->shared_from_this(), to->GetIdx()};
    outputs_changed = true;
  }
  if (outputs_changed) graph_->SetGraphOutNodesInfo(outputs);
  Changed(from->GetOwnerNodeBarePtr());
  Changed(to_owner);
  return OkStatus();
}

Status GraphRewriter::InsertNodeBetween(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst,
                                        const NodePtr& node, int32_t in_index, int32_t out_index) {
  RETURN_IF_ERROR(CheckAnchorInGraph(src.get(), "source"));
  RETURN_IF_ERROR(CheckAnchorInGraph(dst.get(), "destination"));
  RETURN_IF_ERROR(CheckInGraph(node.get(), "inserted node"));
  if (dst->GetPeerOutAnchorPtr() != src.get()) {
    return ParamInvalid("cannot insert node ", NodeName(node.get()), " between ",
                        src->DebugString(), " and ", dst->DebugString(), ": they are not linked");
  }
  InDataAnchor* node_in = node->GetInDataAnchorBarePtr(in_index);
  OutDataAnchor* node_out = node->GetOutDataAnchorBarePtr(out_index);
  if (node_in == nullptr || node_out == nullptr) {
    return OutOfRange("cannot insert node ", NodeName(node.get()), ": it has no input ", in_index,
                      " or no output ", out_index);
  }
  if (node_in->IsLinked()) {
    return ParamInvalid("cannot insert node ", NodeName(node.get()), ": its input ",
                        node_in->DebugString(), " is already linked");
  }
  if (node.get() == src->GetOwnerNodeBarePtr() || node.get() == dst->GetOwnerNodeBarePtr()) {
    return ParamInvalid("cannot insert node ", NodeName(node.get()), " next to itself");
  }
  RETURN_IF_ERROR(src->Insert(dst.get(), node_in, node_out));
  Changed(src->GetOwnerNodeBarePtr());
  Changed(node.get());
  Changed(dst->GetOwnerNodeBarePtr());
  return OkStatus();
}

Status GraphRewriter::MoveOutControlEdges(const NodePtr& from, const NodePtr& to) {
  RETURN_IF_ERROR(CheckInGraph(from.get(), "control source"));
  RETURN_IF_ERROR(CheckInGraph(to.get(), "new control source"));
  if (from == to) return OkStatus();
  OutControlAnchor* from_ctrl = from->GetOutControlAnchorBarePtr();
  OutControlAnchor* to_ctrl = to->GetOutControlAnchorBarePtr();
  const std::vector<Anchor*> consumers = from_ctrl->GetPeerAnchorsPtr();
  bool moved = false;
  for (Anchor* consumer : consumers) {
    if (consumer->GetOwnerNodeBarePtr() == to.get()) continue;
    RETURN_IF_ERROR(MovePeer(consumer, from_ctrl, to_ctrl));
    Changed(consumer->GetOwnerNodeBarePtr());
    moved = true;
  }
  if (moved) {
    Changed(from.get());
    Changed(to.get());
  }
  return OkStatus();
}

Status GraphRewriter::CopyInControlEdges(const NodePtr& from, const NodePtr& to) {
  RETURN_IF_ERROR(CheckInGraph(from.get(), "control destination"));
  RETURN_IF_ERROR(CheckInGraph(to.get(), "new control destination"));
  if (from == to) return OkStatus();
  InControlAnchor* to_ctrl = to->GetInControlAnchorBarePtr();
  bool copied = false;
  for (Anchor* pred : from->GetInControlAnchorBarePtr()->GetPeerAnchorsPtr()) {
    if (pred->GetOwnerNodeBarePtr() == to.get() || pred->IsLinkedWith(to_ctrl)) continue;
    RETURN_IF_ERROR(pred->LinkWith(to_ctrl));
    Changed(pred->GetOwnerNodeBarePtr());
    copied = true;
  }
  if (copied) Changed(to.get());
  return OkStatus();
}

}  // namespace ge
