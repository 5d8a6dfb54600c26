// graph/inc/graph/node.h
//
// Node: an operator instance in a ComputeGraph (seed 000, section 1). It holds
// its OpDesc and its anchors: one InDataAnchor per input desc, one
// OutDataAnchor per output desc (created by Node::Create / ComputeGraph::
// AddNode from the OpDesc at that moment), plus one InControlAnchor and one
// OutControlAnchor (index -1).
//
// Ownership and lifetime
//   * Nodes are always owned by shared_ptr (Node::Create is the only way to
//     make one). A ComputeGraph owns the nodes in its list.
//   * The node block holds what a whole-graph walk reads (the OpDesc body
//     pointer, the list token, anchor counts, the sort's scratch index: 48
//     bytes) with the 16-byte data anchors around it (outputs before,
//     inputs after), in the pool's node region; everything else (list
//     links, the OpDesc handle, the owning pointers to the node itself, the
//     graphs, overflow anchors) and the shared_ptr control block live in
//     the kNodeCold region, so a 1M-node sort streams ~95 bytes per node,
//     not ~240. The two control anchors are created on first access (in
//     one pooled block) since most nodes never get a control edge.
//     InControlPeers() / OutControlPeers() read them without creating them.
//     Anchor addresses are stable for the node's lifetime: anchors appended
//     later (NodeUtils::AppendInputAnchor, AddLinkFrom) never move existing
//     ones, and anchors removed from the end are unlinked and kept (retired)
//     until the node dies.
//   * A node is linked into at most one graph's NodeList (defined below),
//     which holds it through a reference stored in the node's cold part.
//   * Destroying a node unlinks all its anchors, so peers never dangle.
//   * The owner graph is a plain back pointer kept valid by ComputeGraph
//     (set on AddNode, cleared on RemoveNode and when the graph dies).
//
// Neighbour queries come in two flavours: GE's (vectors of shared pointers)
// and bare-pointer ones (...Ptr / ...BarePtr) for hot loops.
//
// Example
//   ASSIGN_OR_RETURN(NodePtr add, graph->AddNode(add_op));
//   for (const NodePtr& in : add->GetInDataNodes()) { ... }
//   add->GetInDataAnchor(0)->GetPeerOutAnchor()->GetOwnerNode();
#ifndef GRAPH_INC_GRAPH_NODE_H_
#define GRAPH_INC_GRAPH_NODE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/graph_fwd.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class Node {
 public:
  // Creates a node with anchors matching op_desc's inputs / outputs; it
  // belongs to no graph until ComputeGraph::AddNode. ParamInvalid for a null
  // op_desc.
  static StatusOr<NodePtr> Create(const OpDescPtr& op_desc);

  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  ~Node();

  // What std::enable_shared_from_this gives (the pointer is kept outside
  // the node block). Empty while the node is being destroyed.
  NodePtr shared_from_this() { return cold_->self.lock(); }
  std::shared_ptr<const Node> shared_from_this() const { return cold_->self.lock(); }
  std::weak_ptr<Node> weak_from_this() { return cold_->self; }
  std::weak_ptr<const Node> weak_from_this() const { return cold_->self; }

  const std::string& GetName() const;
  const std::string& GetType() const;
  OpDescPtr GetOpDesc() const { return cold_->op; }
  OpDesc* GetOpDescBarePtr() const { return cold_->op.get(); }
  // Replaces the OpDesc; it must have the same numbers of inputs and outputs
  // as the node's anchors (ParamInvalid otherwise).
  Status UpdateOpDesc(const OpDescPtr& op_desc);

  ComputeGraphPtr GetOwnerComputeGraph() const;
  ComputeGraph* GetOwnerComputeGraphBarePtr() const { return cold_->owner_graph; }
  // Sets the back pointer only (ComputeGraph::AddNode does this). The graph
  // must outlive the node or reset the pointer.
  void SetOwnerComputeGraph(const ComputeGraphPtr& graph) { cold_->owner_graph = graph.get(); }
  void SetOwnerComputeGraph(ComputeGraph* graph) { cold_->owner_graph = graph; }

  // ---- anchors
  size_t GetAllInDataAnchorsSize() const { return num_in_; }
  size_t GetAllOutDataAnchorsSize() const { return num_out_; }
  // nullptr when out of range.
  InDataAnchorPtr GetInDataAnchor(int32_t idx) const;
  OutDataAnchorPtr GetOutDataAnchor(int32_t idx) const;
  InDataAnchor* GetInDataAnchorBarePtr(int32_t idx) const;
  OutDataAnchor* GetOutDataAnchorBarePtr(int32_t idx) const;
  InControlAnchorPtr GetInControlAnchor() const;
  OutControlAnchorPtr GetOutControlAnchor() const;
  InControlAnchor* GetInControlAnchorBarePtr() const { return &Ctrl().in; }
  OutControlAnchor* GetOutControlAnchorBarePtr() const { return &Ctrl().out; }
  // The peers of the control anchors (a zero-copy view, invalidated by any
  // link change). Unlike the accessors above these never create the control
  // anchors: use them to read a graph.
  absl::Span<Anchor* const> InControlPeers() const;
  absl::Span<Anchor* const> OutControlPeers() const;
  // True once the control anchors exist (they are created on first access;
  // most nodes never have control edges).
  bool HasControlAnchors() const { return ctrl_.load(std::memory_order_acquire) != nullptr; }
  // idx -1 is the control anchor.
  AnchorPtr GetInAnchor(int32_t idx) const;
  AnchorPtr GetOutAnchor(int32_t idx) const;
  std::vector<InDataAnchorPtr> GetAllInDataAnchors() const;
  std::vector<OutDataAnchorPtr> GetAllOutDataAnchors() const;
  std::vector<InDataAnchor*> GetAllInDataAnchorsPtr() const;
  std::vector<OutDataAnchor*> GetAllOutDataAnchorsPtr() const;
  // Data anchors then the control anchor.
  std::vector<AnchorPtr> GetAllInAnchors() const;
  std::vector<AnchorPtr> GetAllOutAnchors() const;

  // ---- neighbours (in anchor order; a node appears once per edge)
  // Producers of the data inputs, in input order (unlinked inputs skipped).
  std::vector<NodePtr> GetInDataNodes() const;
  // Nodes linked to the in-control anchor.
  std::vector<NodePtr> GetInControlNodes() const;
  // Data nodes then control nodes.
  std::vector<NodePtr> GetInAllNodes() const;
  std::vector<NodePtr> GetInNodes() const { return GetInAllNodes(); }
  std::vector<Node*> GetInNodesPtr() const;
  // Consumers of the data outputs (InDataAnchor peers), in output order.
  std::vector<NodePtr> GetOutDataNodes() const;
  // Consumers through control: out-control peers and data -> control peers.
  std::vector<NodePtr> GetOutControlNodes() const;
  std::vector<NodePtr> GetOutAllNodes() const;
  std::vector<NodePtr> GetOutNodes() const { return GetOutAllNodes(); }
  std::vector<Node*> GetOutNodesPtr() const;
  size_t GetInDataNodesSize() const;
  size_t GetOutDataNodesSize() const;
  size_t GetInNodesSize() const;
  size_t GetOutNodesSize() const;
  std::vector<std::pair<NodePtr, OutDataAnchorPtr>> GetInDataNodesAndAnchors() const;
  std::vector<std::pair<NodePtr, InDataAnchorPtr>> GetOutDataNodesAndAnchors() const;

  // ---- growing a node
  // Appends an input desc copied from input_node's output 0 (named
  // "__input<index>"), an anchor, and links input_node:0 to it.
  Status AddLinkFrom(const NodePtr& input_node);
  // Same, inserting / naming the input explicitly: the input slot `index` or
  // the input called `name` must already exist in the OpDesc (and is linked);
  // otherwise a new one is appended.
  Status AddLinkFrom(uint32_t index, const NodePtr& input_node);
  Status AddLinkFrom(const std::string& name, const NodePtr& input_node);

  // Appends data anchors after OpDesc ports were added (NodeUtils does this).
  // OutOfRange beyond Anchor::kMaxIdx + 1 anchors of a direction.
  Status AppendInDataAnchors(size_t num);
  Status AppendOutDataAnchors(size_t num);
  // Unlinks and retires the last `num` anchors (InvalidParam if more than
  // exist). Descs are not touched.
  Status RemoveInDataAnchors(size_t num);
  Status RemoveOutDataAnchors(size_t num);

  std::string DebugString() const;  // "name(type)"

 private:
  struct Passkey {};
  friend class ComputeGraph;
  friend class NodeList;

  Node(Passkey, OpDescPtr op_desc);
  // Destroys the node and frees its block (the shared_ptr's deleter).
  struct BlockDeleter {
    void operator()(Node* node) const noexcept;
  };
  // Bytes of a node block with `anchors` data anchors around the node.
  static size_t BlockBytes(size_t anchors);

  // Data anchors: the first `cap_out_` out anchors sit right before the
  // node's fields (out anchor j at this - 1 - j, in anchor units) and the
  // first `cap_in_` in anchors right after them, in one block; more are
  // allocated one by one on demand (rare), each behind a pointer to the
  // node. Entries beyond num_* are retired. An anchor finds its node from
  // its kind and index (Anchor::OwnerAt).
  template <typename A>
  struct Slotted {
    Node* owner;
    A anchor;
  };
  struct Overflow {
    std::vector<std::unique_ptr<Slotted<InDataAnchor>>> in;
    std::vector<std::unique_ptr<Slotted<OutDataAnchor>>> out;
  };
  InDataAnchor* InBlock() const {
    return reinterpret_cast<InDataAnchor*>(const_cast<Node*>(this) + 1);
  }
  OutDataAnchor* OutSlot(size_t j) const {
    return reinterpret_cast<OutDataAnchor*>(const_cast<Node*>(this)) - 1 - j;
  }
  // The start of the node's block.
  void* BlockStart() const {
    return reinterpret_cast<char*>(const_cast<Node*>(this)) - cap_out_ * sizeof(OutDataAnchor);
  }
  InDataAnchor* InAt(size_t i) const { return i < cap_in_ ? &InBlock()[i] : InOverflowAt(i); }
  OutDataAnchor* OutAt(size_t i) const { return i < cap_out_ ? OutSlot(i) : OutOverflowAt(i); }
  InDataAnchor* InOverflowAt(size_t i) const;
  OutDataAnchor* OutOverflowAt(size_t i) const;
  // Appends `num` anchors to the direction with `cap` anchors in the block,
  // `*count` in use and appended ones in `list` (reusing retired ones).
  template <typename A>
  Status AppendAnchors(size_t num, const char* what, uint32_t cap, uint32_t* count,
                       std::vector<std::unique_ptr<Slotted<A>>> Overflow::*list);
  void UnlinkAllAnchors();

  // Created on first access, pooled (thread-safe: racing creators agree on
  // one through a compare-exchange).
  struct ControlAnchors {
    Node* in_owner;
    InControlAnchor in;
    Node* out_owner;
    OutControlAnchor out;
  };
  ControlAnchors& Ctrl() const {
    ControlAnchors* c = ctrl_.load(std::memory_order_acquire);
    return c != nullptr ? *c : MakeCtrl();
  }
  ControlAnchors& MakeCtrl() const;

  // What a whole-graph walk does not need, in the pool's kNodeCold region.
  struct Cold {
    // The NodeList links (rewritten by a sort that reorders the graph) and
    // the list's owning reference.
    Node* list_prev = nullptr;
    Node* list_next = nullptr;
    NodePtr list_ref;
    ComputeGraph* list_graph = nullptr;  // the holder of list_token_
    std::weak_ptr<Node> self;            // set by Create
    OpDescPtr op;
    ComputeGraph* owner_graph = nullptr;
    std::unique_ptr<Overflow> overflow;
  };

  // The node's fields in its block: what a topological sort reads or
  // writes of every node (48 bytes), between the out and the in anchors. A
  // 1M-node sort is bound by the bytes of node blocks it streams.
  // cold_->op->b_, cached: an OpDesc's body never moves.
  OpDesc::Body* op_body_ = nullptr;
  mutable std::atomic<ControlAnchors*> ctrl_{nullptr};
  Cold* cold_;
  // The list token of the graph whose NodeList holds the node (0: none;
  // see ComputeGraph::list_token_).
  uint32_t list_token_ = 0;
  // Scratch for graph algorithms (topological sort).
  uint32_t scratch_index_ = 0;
  uint32_t num_in_ = 0;
  uint32_t num_out_ = 0;
  uint32_t cap_in_ = 0;
  uint32_t cap_out_ = 0;
};

// The node list of a ComputeGraph: an intrusive doubly-linked list (no
// allocation per entry) that holds its nodes. Iterating yields
// `const NodePtr&`; positions stay valid when other nodes are inserted or
// erased. Do not add or remove nodes while iterating over it.
class NodeList {
 public:
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = NodePtr;
    using difference_type = std::ptrdiff_t;
    using pointer = const NodePtr*;
    using reference = const NodePtr&;

    const_iterator() = default;
    explicit const_iterator(const Node* node) : node_(node) {}
    reference operator*() const { return node_->cold_->list_ref; }
    pointer operator->() const { return &node_->cold_->list_ref; }
    const_iterator& operator++() {
      node_ = node_->cold_->list_next;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      node_ = node_->cold_->list_next;
      return old;
    }
    bool operator==(const const_iterator& o) const { return node_ == o.node_; }
    bool operator!=(const const_iterator& o) const { return node_ != o.node_; }

   private:
    const Node* node_ = nullptr;
  };
  using iterator = const_iterator;

  NodeList() = default;
  NodeList(const NodeList&) = delete;
  NodeList& operator=(const NodeList&) = delete;

  const_iterator begin() const { return const_iterator(head_); }
  const_iterator end() const { return const_iterator(nullptr); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const NodePtr& front() const { return head_->cold_->list_ref; }
  const NodePtr& back() const { return tail_->cold_->list_ref; }

 private:
  friend class ComputeGraph;
  Node* head_ = nullptr;
  Node* tail_ = nullptr;
  size_t size_ = 0;
};

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_NODE_H_
