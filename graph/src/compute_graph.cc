// graph/src/compute_graph.cc
//
// ComputeGraph: node list, name index, inputs / outputs, RemoveNode and
// IsolateNode, FuseNodeKeepTopo, subgraphs, GetAllNodes. The topological
// sorts are in compute_graph_topo.cc.
#include "graph/inc/graph/compute_graph.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// Name -> first node with that name, built lazily, kept current by AddNode /
// RemoveNode, dropped when any attached OpDesc is renamed.
struct ComputeGraph::NameIndex {
  absl::Mutex mu;
  absl::flat_hash_map<absl::string_view, Node*> map ABSL_GUARDED_BY(mu);
  uint64_t epoch ABSL_GUARDED_BY(mu) = 0;
  bool valid ABSL_GUARDED_BY(mu) = false;
  bool has_duplicates ABSL_GUARDED_BY(mu) = false;

  void Invalidate() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    map.clear();
    valid = false;
    has_duplicates = false;
  }
  // False when the index cannot be maintained incrementally any more.
  bool Current() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    if (valid && epoch != GetOpDescRenameEpoch()) Invalidate();
    return valid;
  }
};

namespace {
bool IsDataType(const std::string& type) {
  return type == DATA || type == REFDATA || type == AIPPDATA;
}
bool IsConstType(const std::string& type) { return type == CONSTANT || type == CONSTANTOP; }
}  // namespace

namespace {

// Hands out list tokens, reusing those of dead graphs first, so a process
// that keeps creating and dropping graphs cycles through a few.
class ListTokens {
 public:
  uint32_t Acquire() {
    absl::MutexLock lock(&mu_);
    if (!free_.empty()) {
      const uint32_t token = free_.back();
      free_.pop_back();
      return token;
    }
    if (next_ == std::numeric_limits<uint32_t>::max()) {
      // Four billion live graphs would need terabytes: unreachable.
      std::fprintf(stderr, "ComputeGraph: out of list tokens\n");
      std::abort();
    }
    return next_++;
  }
  void Release(uint32_t token) {
    absl::MutexLock lock(&mu_);
    free_.push_back(token);
  }

 private:
  absl::Mutex mu_;
  uint32_t next_ ABSL_GUARDED_BY(mu_) = 1;
  std::vector<uint32_t> free_ ABSL_GUARDED_BY(mu_);
};
ListTokens& GraphListTokens() {
  static ListTokens* const tokens = new ListTokens();
  return *tokens;
}

}  // namespace

ComputeGraph::ComputeGraph(const std::string& name)
    : name_(name), list_token_(GraphListTokens().Acquire()) {}

ComputeGraph::~ComputeGraph() {
  // Release the nodes one by one (iteratively: a long chain must not
  // recurse); a node still referenced elsewhere survives, detached.
  Node* node = nodes_.head_;
  while (node != nullptr) {
    Node* next = node->cold_->list_next;
    if (node->cold_->owner_graph == this) node->cold_->owner_graph = nullptr;
    node->list_token_ = 0;
    node->cold_->list_graph = nullptr;
    node->cold_->list_prev = nullptr;
    node->cold_->list_next = nullptr;
    NodePtr release = std::move(node->cold_->list_ref);
    release.reset();
    node = next;
  }
  GraphListTokens().Release(list_token_);
}

std::string ComputeGraph::DebugString() const { return absl::StrCat("graph '", name_, "'"); }

// -------------------------------------------------------------- name index

void ComputeGraph::IndexAdd(Node* node) const {
  if (name_index_ == nullptr) return;
  absl::MutexLock lock(&name_index_->mu);
  if (!name_index_->Current()) return;
  if (!name_index_->map.try_emplace(node->GetName(), node).second) name_index_->Invalidate();
}

void ComputeGraph::IndexRemove(Node* node) const {
  if (name_index_ == nullptr) return;
  absl::MutexLock lock(&name_index_->mu);
  if (!name_index_->Current()) return;
  if (name_index_->has_duplicates) {
    name_index_->Invalidate();
    return;
  }
  auto it = name_index_->map.find(node->GetName());
  if (it != name_index_->map.end() && it->second == node) name_index_->map.erase(it);
}

NodePtr ComputeGraph::FindNode(const std::string& name) const {
  if (name_index_ == nullptr) name_index_ = std::make_unique<NameIndex>();
  NameIndex& index = *name_index_;
  absl::MutexLock lock(&index.mu);
  if (!index.Current()) {
    index.map.clear();
    index.map.reserve(nodes_.size());
    index.has_duplicates = false;
    for (const NodePtr& node : nodes_) {
      if (!index.map.try_emplace(node->GetName(), node.get()).second) index.has_duplicates = true;
    }
    index.epoch = GetOpDescRenameEpoch();
    index.valid = true;
  }
  auto it = index.map.find(name);
  return it == index.map.end() ? nullptr : it->second->shared_from_this();
}

void ComputeGraph::OnReordered() const {
  if (name_index_ == nullptr) return;
  absl::MutexLock lock(&name_index_->mu);
  // "First node with a name" depends on the order only with duplicates.
  if (name_index_->has_duplicates) name_index_->Invalidate();
}

NodePtr ComputeGraph::FindFirstNodeMatchType(const std::string& type) const {
  for (const NodePtr& node : nodes_) {
    if (node->GetType() == type) return node;
  }
  return nullptr;
}

bool ComputeGraph::HasNode(const Node* node) const {
  return node != nullptr && node->list_token_ == list_token_;
}

// -------------------------------------------------------------- node list

Status ComputeGraph::CheckAddable(const NodePtr& node) const {
  if (node == nullptr) return ParamInvalid(DebugString(), ": cannot add a null node");
  if (node->list_token_ == list_token_) {
    return AlreadyExists(DebugString(), " already contains node ", node->DebugString());
  }
  if (node->list_token_ != 0) {
    return ParamInvalid("node ", node->DebugString(), " belongs to ",
                        node->cold_->list_graph->DebugString(),
                        "; remove it there before adding it to ", DebugString());
  }
  return OkStatus();
}

StatusOr<NodePtr> ComputeGraph::CreateNode(const OpDescPtr& op_desc) const {
  if (op_desc == nullptr) return ParamInvalid(DebugString(), ": cannot add a null OpDesc");
  return Node::Create(op_desc);
}

void ComputeGraph::LinkIntoList(const NodePtr& node, Node* pos) {
  Node* n = node.get();
  Node::Cold& c = *n->cold_;
  c.list_ref = node;
  c.list_next = pos;
  c.list_prev = pos == nullptr ? nodes_.tail_ : pos->cold_->list_prev;
  if (c.list_prev != nullptr) {
    c.list_prev->cold_->list_next = n;
  } else {
    nodes_.head_ = n;
  }
  if (pos != nullptr) {
    pos->cold_->list_prev = n;
  } else {
    nodes_.tail_ = n;
  }
  ++nodes_.size_;
  ids_synced_ = false;
  if (order_cache_valid_) {
    if (pos == nullptr) {
      n->scratch_index_ = static_cast<uint32_t>(order_cache_.size());
      order_cache_.push_back(n);
    } else {
      InvalidateOrderCache();
    }
  }
  node->list_token_ = list_token_;
  c.list_graph = this;
  c.owner_graph = this;
  IndexAdd(node.get());
  RegisterDataInput(node);
}

void ComputeGraph::InvalidateOrderCache() {
  order_cache_valid_ = false;
  std::vector<Node*>().swap(order_cache_);
}

const std::vector<Node*>& ComputeGraph::OrderedNodes() {
  if (!order_cache_valid_) {
    order_cache_.clear();
    order_cache_.reserve(nodes_.size());
    uint32_t i = 0;
    for (Node* node = nodes_.head_; node != nullptr; node = node->cold_->list_next) {
      node->scratch_index_ = i++;
      order_cache_.push_back(node);
    }
    order_cache_valid_ = true;
  }
  return order_cache_;
}

void ComputeGraph::EraseFromList(Node* node) {
  if (order_cache_valid_) InvalidateOrderCache();
  ids_synced_ = false;
  IndexRemove(node);
  node->list_token_ = 0;
  Node::Cold& c = *node->cold_;
  c.list_graph = nullptr;
  if (c.owner_graph == this) c.owner_graph = nullptr;
  if (c.list_prev != nullptr) {
    c.list_prev->cold_->list_next = c.list_next;
  } else {
    nodes_.head_ = c.list_next;
  }
  if (c.list_next != nullptr) {
    c.list_next->cold_->list_prev = c.list_prev;
  } else {
    nodes_.tail_ = c.list_prev;
  }
  c.list_prev = nullptr;
  c.list_next = nullptr;
  --nodes_.size_;
  NodePtr release = std::move(c.list_ref);  // may destroy the node: keep it last
}

void ComputeGraph::ApplyOrder(const std::vector<Node*>& nodes, const std::vector<uint32_t>& order,
                              std::vector<Node*>* buffer) {
  constexpr size_t kPrefetchNode = 64;
  constexpr size_t kPrefetchCold = 32;
  constexpr size_t kPrefetchBody = 20;
  const size_t n = order.size();
  std::vector<Node*>& new_order = *buffer;
  new_order.resize(n);
  Node* prev = nullptr;
  for (size_t k = 0; k < n; ++k) {
    // The scratch index is written in the node block, the list links in
    // the node's cold part, the id in the OpDesc's pooled body (first
    // there).
    if (k + kPrefetchNode < n) {
      __builtin_prefetch(&nodes[order[k + kPrefetchNode]]->scratch_index_, 1);
    }
    if (k + kPrefetchCold < n) __builtin_prefetch(nodes[order[k + kPrefetchCold]]->cold_, 1);
    if (k + kPrefetchBody < n) __builtin_prefetch(nodes[order[k + kPrefetchBody]]->op_body_, 1);
    Node* node = nodes[order[k]];
    new_order[k] = node;
    node->scratch_index_ = static_cast<uint32_t>(k);
    node->cold_->list_prev = prev;
    if (prev != nullptr) {
      prev->cold_->list_next = node;
    } else {
      nodes_.head_ = node;
    }
    node->op_body_->id_ = static_cast<int64_t>(k);
    prev = node;
  }
  if (prev != nullptr) prev->cold_->list_next = nullptr;
  nodes_.tail_ = prev;
  order_cache_.swap(new_order);
  order_cache_valid_ = true;
}

void ComputeGraph::RegisterDataInput(const NodePtr& node) {
  if (!IsDataType(node->GetType())) return;
  if (std::find(input_nodes_.begin(), input_nodes_.end(), node) == input_nodes_.end()) {
    input_nodes_.push_back(node);
  }
}

StatusOr<NodePtr> ComputeGraph::AddNode(const OpDescPtr& op_desc) {
  ASSIGN_OR_RETURN(NodePtr node, CreateNode(op_desc));
  op_desc->SetId(static_cast<int64_t>(nodes_.size()));
  LinkIntoList(node, nullptr);
  return node;
}

StatusOr<NodePtr> ComputeGraph::AddNode(const OpDescPtr& op_desc, int64_t id) {
  ASSIGN_OR_RETURN(NodePtr node, CreateNode(op_desc));
  op_desc->SetId(id);
  LinkIntoList(node, nullptr);
  return node;
}

StatusOr<NodePtr> ComputeGraph::AddNode(const NodePtr& node) {
  RETURN_IF_ERROR(CheckAddable(node));
  node->GetOpDescBarePtr()->SetId(static_cast<int64_t>(nodes_.size()));
  LinkIntoList(node, nullptr);
  return node;
}

StatusOr<NodePtr> ComputeGraph::AddNodeFront(const NodePtr& node) {
  RETURN_IF_ERROR(CheckAddable(node));
  node->GetOpDescBarePtr()->SetId(static_cast<int64_t>(nodes_.size()));
  Node* pos = nodes_.head_;
  if (pos != nullptr && pos->GetType() == DATA) pos = pos->cold_->list_next;
  LinkIntoList(node, pos);
  return node;
}

StatusOr<NodePtr> ComputeGraph::AddNodeFront(const OpDescPtr& op_desc) {
  ASSIGN_OR_RETURN(NodePtr node, CreateNode(op_desc));
  return AddNodeFront(node);
}

StatusOr<std::vector<NodePtr>> ComputeGraph::InsertNodes(const NodePtr& anchor_node,
                                                         const std::vector<OpDescPtr>& op_descs) {
  if (!HasNode(anchor_node)) {
    return NotFound(DebugString(), " does not contain the node to insert after",
                    anchor_node == nullptr ? std::string() : ": " + anchor_node->DebugString());
  }
  std::vector<NodePtr> created;
  created.reserve(op_descs.size());
  for (const OpDescPtr& op : op_descs) {
    ASSIGN_OR_RETURN(NodePtr node, CreateNode(op));
    created.push_back(std::move(node));
  }
  const int64_t id = anchor_node->GetOpDescBarePtr()->GetId();
  Node* pos = anchor_node->cold_->list_next;
  for (const NodePtr& node : created) {
    node->GetOpDescBarePtr()->SetId(id);
    LinkIntoList(node, pos);
  }
  return created;
}

StatusOr<NodePtr> ComputeGraph::InsertNode(const NodePtr& anchor_node, const OpDescPtr& op_desc) {
  ASSIGN_OR_RETURN(std::vector<NodePtr> nodes, InsertNodes(anchor_node, {op_desc}));
  return nodes.front();
}

StatusOr<NodePtr> ComputeGraph::InsertNodeBefore(const NodePtr& anchor_node,
                                                 const OpDescPtr& op_desc) {
  if (!HasNode(anchor_node)) {
    return NotFound(DebugString(), " does not contain the node to insert before",
                    anchor_node == nullptr ? std::string() : ": " + anchor_node->DebugString());
  }
  ASSIGN_OR_RETURN(NodePtr node, CreateNode(op_desc));
  op_desc->SetId(anchor_node->GetOpDescBarePtr()->GetId());
  LinkIntoList(node, anchor_node.get());
  return node;
}

std::vector<NodePtr> ComputeGraph::GetDirectNode() const {
  std::vector<NodePtr> out;
  out.reserve(nodes_.size());
  if (order_cache_valid_) {
    for (Node* node : order_cache_) out.push_back(node->cold_->list_ref);
  } else {
    out.assign(nodes_.begin(), nodes_.end());
  }
  return out;
}

std::vector<Node*> ComputeGraph::GetDirectNodePtr() const {
  if (order_cache_valid_) return order_cache_;
  std::vector<Node*> out;
  out.reserve(nodes_.size());
  for (const NodePtr& node : nodes_) out.push_back(node.get());
  return out;
}

// ----------------------------------------------------------- removal

Status ComputeGraph::RemoveJustNode(const NodePtr& node) {
  const NodePtr keep = node;  // `node` may refer to an element we erase
  if (keep == nullptr) return ParamInvalid(DebugString(), ": cannot remove a null node");
  if (!HasNode(keep)) {
    return NotFound(DebugString(), " does not contain node ", keep->DebugString());
  }
  input_nodes_.erase(std::remove(input_nodes_.begin(), input_nodes_.end(), keep),
                     input_nodes_.end());
  output_nodes_info_.erase(
      std::remove_if(output_nodes_info_.begin(), output_nodes_info_.end(),
                     [&keep](const std::pair<NodePtr, int32_t>& e) { return e.first == keep; }),
      output_nodes_info_.end());
  EraseFromList(keep.get());
  return OkStatus();
}

Status ComputeGraph::RemoveNodeWithoutRelink(const NodePtr& node) {
  const NodePtr keep = node;
  if (keep == nullptr) return ParamInvalid(DebugString(), ": cannot remove a null node");
  if (!HasNode(keep)) {
    return NotFound(DebugString(), " does not contain node ", keep->DebugString());
  }
  keep->UnlinkAllAnchors();
  return RemoveJustNode(keep);
}

Status ComputeGraph::RemoveConstInputs(const NodePtr& node) {
  for (uint32_t i = 0; i < node->num_in_; ++i) {
    InDataAnchor* in = node->InAt(i);
    OutDataAnchor* peer = in->GetPeerOutAnchorPtr();
    if (peer == nullptr) continue;
    Node* producer = peer->GetOwnerNodeBarePtr();
    if (!IsConstType(producer->GetType())) continue;
    RETURN_IF_ERROR(peer->Unlink(in));
    if (producer->GetOutNodesSize() == 0 && HasNode(producer)) {
      RETURN_IF_ERROR(RemoveNodeWithoutRelink(producer->shared_from_this()));
    }
  }
  return OkStatus();
}

Status ComputeGraph::RemoveNode(const NodePtr& node) {
  const NodePtr keep = node;
  if (keep == nullptr) return ParamInvalid(DebugString(), ": cannot remove a null node");
  if (!HasNode(keep)) {
    return NotFound(DebugString(), " does not contain node ", keep->DebugString());
  }
  RETURN_IF_ERROR(RemoveConstInputs(keep));
  // Bypass: the first connected data input feeds every output's consumers.
  int32_t bypass_input = -1;
  for (uint32_t i = 0; i < keep->num_in_; ++i) {
    if (keep->InAt(i)->GetPeerOutAnchorPtr() != nullptr) {
      bypass_input = static_cast<int32_t>(i);
      break;
    }
  }
  const std::vector<int32_t> io_map(keep->num_out_, bypass_input);
  RETURN_IF_ERROR(IsolateNode(keep, io_map));
  return RemoveJustNode(keep);
}

Status ComputeGraph::IsolateNode(const NodePtr& node, const std::vector<int32_t>& io_map) {
  if (node == nullptr) return ParamInvalid("cannot isolate a null node");
  const uint32_t num_in = node->num_in_;
  if (io_map.size() > node->num_out_) {
    return ParamInvalid("isolating node ", node->DebugString(), ": io_map has ", io_map.size(),
                        " entries but the node has ", node->num_out_, " outputs");
  }
  for (size_t i = 0; i < io_map.size(); ++i) {
    if (io_map[i] < -1 || io_map[i] >= static_cast<int32_t>(num_in)) {
      return ParamInvalid("isolating node ", node->DebugString(), ": io_map[", i, "] = ", io_map[i],
                          " is not an input index (the node has ", num_in, " inputs)");
    }
  }
  auto unique_nodes = [&node](std::vector<Node*> nodes) {
    std::vector<Node*> out;
    absl::flat_hash_set<Node*> seen;
    for (Node* n : nodes) {
      if (n != node.get() && seen.insert(n).second) out.push_back(n);
    }
    return out;
  };
  const std::vector<Node*> in_nodes = unique_nodes(node->GetInNodesPtr());
  const std::vector<Node*> out_nodes = unique_nodes(node->GetOutNodesPtr());

  absl::flat_hash_set<std::pair<Node*, Node*>> data_connected;
  for (size_t i = 0; i < io_map.size(); ++i) {
    if (io_map[i] < 0) continue;
    OutDataAnchor* producer = node->InAt(static_cast<size_t>(io_map[i]))->GetPeerOutAnchorPtr();
    if (producer == nullptr) continue;
    OutDataAnchor* out = node->OutAt(i);
    const std::vector<Anchor*> consumers = out->GetPeerAnchorsPtr();
    for (Anchor* consumer : consumers) {
      RETURN_IF_ERROR(Annotate(out->Unlink(consumer), "isolating ", node->DebugString(), ": "));
      RETURN_IF_ERROR(
          Annotate(producer->LinkWith(consumer), "isolating ", node->DebugString(), ": "));
      data_connected.emplace(producer->GetOwnerNodeBarePtr(), consumer->GetOwnerNodeBarePtr());
    }
  }
  for (Node* src : in_nodes) {
    for (Node* dst : out_nodes) {
      if (src == dst || data_connected.count({src, dst}) != 0) continue;
      RETURN_IF_ERROR(
          Annotate(src->GetOutControlAnchorBarePtr()->LinkTo(dst->GetInControlAnchorBarePtr()),
                   "isolating ", node->DebugString(), ": "));
    }
  }
  node->UnlinkAllAnchors();
  return OkStatus();
}

// -------------------------------------------------------------- fusion

StatusOr<std::vector<NodePtr>> ComputeGraph::FuseNodeKeepTopo(
    const std::vector<NodePtr>& ori_nodes, const std::vector<OpDescPtr>& fusion_ops) {
  if (ori_nodes.empty()) return ParamInvalid(DebugString(), ": FuseNodeKeepTopo without nodes");
  for (const NodePtr& n : ori_nodes) {
    if (!HasNode(n)) {
      return NotFound(DebugString(), ": FuseNodeKeepTopo: node ",
                      n == nullptr ? std::string("<null>") : n->DebugString(),
                      " is not in the graph");
    }
  }
  for (const OpDescPtr& op : fusion_ops) {
    if (op == nullptr) return ParamInvalid(DebugString(), ": FuseNodeKeepTopo: null fusion op");
  }
  static const char* const kInherited[] = {USER_STREAM_LABEL,
                                           ATTR_NAME_STREAM_LABEL,
                                           ATTR_NAME_SUPER_KERNEL_SCOPE,
                                           ATTR_NAME_SUPER_KERNEL_OPTIONS,
                                           OP_AI_CORE_NUM,
                                           OP_VECTOR_CORE_NUM};
  std::vector<std::pair<const char*, std::string>> inherit;
  for (const char* attr : kInherited) {
    std::set<std::string> values;
    for (const NodePtr& n : ori_nodes) {
      const AttrValue* v = n->GetOpDescBarePtr()->GetAttr(attr);
      if (v != nullptr && v->Get<std::string>() != nullptr) values.insert(*v->Get<std::string>());
    }
    if (values.size() > 1) {
      std::vector<std::string> names;
      for (const NodePtr& n : ori_nodes) names.push_back(n->GetName());
      return NotSupported("cannot fuse nodes [", absl::StrJoin(names, ", "),
                          "]: they carry different values of attribute ", attr, ": [",
                          absl::StrJoin(values, ", "), "]");
    }
    if (values.size() == 1) inherit.emplace_back(attr, *values.begin());
  }
  const NodePtr* min_node = &ori_nodes.front();
  for (const NodePtr& n : ori_nodes) {
    if (n->GetOpDescBarePtr()->GetId() < (*min_node)->GetOpDescBarePtr()->GetId()) min_node = &n;
  }
  for (const OpDescPtr& op : fusion_ops) {
    for (const auto& [attr, value] : inherit) {
      RETURN_IF_ERROR(op->SetAttr(attr, AttrValue::CreateFrom<std::string>(value)));
    }
  }
  return InsertNodes(*min_node, fusion_ops);
}

// ------------------------------------------------------- inputs / outputs

Status ComputeGraph::AddInputNode(const NodePtr& node) {
  if (node == nullptr) return ParamInvalid(DebugString(), ": cannot add a null input node");
  if (!HasNode(node)) RETURN_IF_ERROR(AddNode(node).status());
  if (std::find(input_nodes_.begin(), input_nodes_.end(), node) == input_nodes_.end()) {
    input_nodes_.push_back(node);
  }
  return OkStatus();
}

Status ComputeGraph::RemoveInputNode(const NodePtr& node) {
  auto it = std::find(input_nodes_.begin(), input_nodes_.end(), node);
  if (node == nullptr || it == input_nodes_.end()) {
    return NotFound(DebugString(), ": not an input node: ",
                    node == nullptr ? std::string("<null>") : node->DebugString());
  }
  input_nodes_.erase(it);
  return OkStatus();
}

Status ComputeGraph::AddOutputNodeByIndex(const NodePtr& node, int32_t index) {
  if (node == nullptr) return ParamInvalid(DebugString(), ": cannot add a null output node");
  if (index < 0 || static_cast<size_t>(index) >= node->GetAllOutDataAnchorsSize()) {
    return OutOfRange(DebugString(), ": output index ", index, " of node ", node->DebugString(),
                      " is out of range (", node->GetAllOutDataAnchorsSize(), " outputs)");
  }
  if (!HasNode(node)) RETURN_IF_ERROR(AddNode(node).status());
  for (const auto& e : output_nodes_info_) {
    if (e.first == node && e.second == index) return OkStatus();
  }
  output_nodes_info_.emplace_back(node, index);
  return OkStatus();
}

Status ComputeGraph::RemoveOutputNode(const NodePtr& node) {
  const size_t before = output_nodes_info_.size();
  output_nodes_info_.erase(
      std::remove_if(output_nodes_info_.begin(), output_nodes_info_.end(),
                     [&node](const std::pair<NodePtr, int32_t>& e) { return e.first == node; }),
      output_nodes_info_.end());
  if (node == nullptr || output_nodes_info_.size() == before) {
    return NotFound(DebugString(), ": not an output node: ",
                    node == nullptr ? std::string("<null>") : node->DebugString());
  }
  return OkStatus();
}

std::vector<NodePtr> ComputeGraph::GetOutputNodes() const {
  std::vector<NodePtr> out;
  out.reserve(output_nodes_info_.size());
  for (const auto& e : output_nodes_info_) out.push_back(e.first);
  return out;
}

// -------------------------------------------------------------- subgraphs

const ComputeGraph* ComputeGraph::GetRootGraphBarePtr() const {
  const ComputeGraph* g = this;
  for (ComputeGraphPtr parent = g->parent_graph_.lock(); parent != nullptr;
       parent = g->parent_graph_.lock()) {
    g = parent.get();
  }
  return g;
}

Status ComputeGraph::AddSubgraph(const std::string& name, const ComputeGraphPtr& subgraph) {
  if (subgraph == nullptr) {
    return ParamInvalid(DebugString(), ": cannot add null subgraph '", name, "'");
  }
  if (subgraph.get() == this) return ParamInvalid(DebugString(), ": cannot be its own subgraph");
  if (!parent_graph_.expired()) {
    return ParamInvalid("subgraph '", name, "' must be added to the root graph, not to ",
                        DebugString(), " which has a parent");
  }
  const ComputeGraphPtr parent_graph = subgraph->GetParentGraph();
  if (parent_graph == nullptr) {
    return ParamInvalid(DebugString(), ": subgraph '", name, "' has no parent graph");
  }
  const NodePtr parent_node = subgraph->GetParentNode();
  if (parent_node == nullptr) {
    return ParamInvalid(DebugString(), ": subgraph '", name, "' has no parent node");
  }
  if (parent_node->GetOwnerComputeGraphBarePtr() != parent_graph.get()) {
    return ParamInvalid(DebugString(), ": subgraph '", name, "': its parent node ",
                        parent_node->DebugString(), " is not in its parent ",
                        parent_graph->DebugString());
  }
  if (parent_graph->GetRootGraphBarePtr() != this) {
    return ParamInvalid(DebugString(), ": subgraph '", name, "': its parent ",
                        parent_graph->DebugString(), " is not in this graph tree");
  }
  if (names_to_subgraph_.count(name) != 0) {
    return AlreadyExists(DebugString(), " already has a subgraph named '", name, "'");
  }
  sub_graph_.push_back(subgraph);
  names_to_subgraph_.emplace(name, subgraph);
  return OkStatus();
}

Status ComputeGraph::AddSubgraph(const ComputeGraphPtr& subgraph) {
  if (subgraph == nullptr) return ParamInvalid(DebugString(), ": cannot add a null subgraph");
  return AddSubgraph(subgraph->GetName(), subgraph);
}

Status ComputeGraph::AddSubGraph(const ComputeGraphPtr& subgraph) {
  if (subgraph == nullptr) return ParamInvalid(DebugString(), ": cannot add a null subgraph");
  if (subgraph.get() == this) return ParamInvalid(DebugString(), ": cannot be its own subgraph");
  if (names_to_subgraph_.count(subgraph->GetName()) != 0) {
    return AlreadyExists(DebugString(), " already has a subgraph named '", subgraph->GetName(),
                         "'");
  }
  sub_graph_.push_back(subgraph);
  names_to_subgraph_.emplace(subgraph->GetName(), subgraph);
  return OkStatus();
}

Status ComputeGraph::RemoveSubgraph(const std::string& name) {
  auto it = names_to_subgraph_.find(name);
  if (it == names_to_subgraph_.end()) {
    return NotFound(DebugString(), " has no subgraph named '", name, "'");
  }
  auto vit = std::find(sub_graph_.begin(), sub_graph_.end(), it->second);
  if (vit != sub_graph_.end()) sub_graph_.erase(vit);
  names_to_subgraph_.erase(it);
  return OkStatus();
}

Status ComputeGraph::RemoveSubGraph(const ComputeGraphPtr& subgraph) {
  if (subgraph == nullptr) return ParamInvalid(DebugString(), ": cannot remove a null subgraph");
  auto vit = std::find(sub_graph_.begin(), sub_graph_.end(), subgraph);
  if (vit == sub_graph_.end()) {
    return NotFound(DebugString(), " has no subgraph ", subgraph->DebugString());
  }
  sub_graph_.erase(vit);
  for (auto it = names_to_subgraph_.begin(); it != names_to_subgraph_.end();) {
    it = it->second == subgraph ? names_to_subgraph_.erase(it) : std::next(it);
  }
  return OkStatus();
}

ComputeGraphPtr ComputeGraph::GetSubgraph(const std::string& name) const {
  const ComputeGraph* root = GetRootGraphBarePtr();
  auto it = root->names_to_subgraph_.find(name);
  return it == root->names_to_subgraph_.end() ? nullptr : it->second;
}

StatusOr<std::string> ComputeGraph::GetSubgraphRegisteredName(const ComputeGraph& subgraph) const {
  const ComputeGraph* root = GetRootGraphBarePtr();
  const auto& registry = root->names_to_subgraph_;
  auto registered_as = [&registry, &subgraph](const std::string& name) {
    auto it = registry.find(name);
    return it != registry.end() && it->second.get() == &subgraph;
  };
  if (registered_as(subgraph.GetName())) return subgraph.GetName();
  const NodePtr parent = subgraph.GetParentNode();
  if (parent != nullptr) {
    for (const std::string& inst : parent->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
      if (!inst.empty() && registered_as(inst)) return inst;
    }
  }
  for (const auto& [name, graph] : registry) {
    if (graph.get() == &subgraph) return name;
  }
  return NotFound(root->DebugString(), " has no subgraph ", subgraph.DebugString(), " registered");
}

void ComputeGraph::ClearAllSubgraphs() {
  sub_graph_.clear();
  names_to_subgraph_.clear();
}

std::vector<ComputeGraphPtr> ComputeGraph::CollectAllNodes(std::vector<NodePtr>* nodes) const {
  struct Frame {
    ComputeGraphPtr graph;  // null for this graph
    const Node* next;
    bool started;
  };
  std::vector<ComputeGraphPtr> subgraphs;  // in visiting order
  absl::flat_hash_set<const ComputeGraph*> pushed = {this};
  std::vector<Frame> stack;
  stack.push_back({nullptr, nodes_.head_, true});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (!top.started) {
      top.started = true;
      subgraphs.push_back(top.graph);
    }
    if (top.next == nullptr) {
      stack.pop_back();
      continue;
    }
    const Node* current = top.next;
    top.next = current->cold_->list_next;
    const NodePtr& node = current->cold_->list_ref;
    nodes->push_back(node);
    const auto& names = node->GetOpDescBarePtr()->GetSubgraphInstanceNames();
    // Pushed in reverse: the first subgraph is visited first.
    for (auto it = names.rbegin(); it != names.rend(); ++it) {
      if (it->empty()) continue;
      ComputeGraphPtr sg = GetSubgraph(*it);
      if (sg == nullptr || !pushed.insert(sg.get()).second) continue;
      const Node* head = sg->nodes_.head_;
      stack.push_back({std::move(sg), head, false});
    }
  }
  return subgraphs;
}

std::vector<NodePtr> ComputeGraph::GetAllNodes() const {
  std::vector<NodePtr> nodes;
  nodes.reserve(nodes_.size());
  (void)CollectAllNodes(&nodes);
  return nodes;
}

std::vector<Node*> ComputeGraph::GetAllNodesPtr() const {
  std::vector<NodePtr> nodes = GetAllNodes();
  std::vector<Node*> out;
  out.reserve(nodes.size());
  for (const NodePtr& n : nodes) out.push_back(n.get());
  return out;
}

size_t ComputeGraph::GetAllNodesSize() const { return GetAllNodes().size(); }

}  // namespace ge
