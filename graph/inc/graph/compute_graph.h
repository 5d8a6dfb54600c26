// graph/inc/graph/compute_graph.h
//
// ComputeGraph: the container of the AscendIR graph (seed 000, section 3):
// nodes, input nodes, output nodes with their output index, subgraphs, the
// topological sorts, and an attribute store.
//
// Nodes
//   * Kept in a NodeList (node.h): an intrusive doubly-linked list through
//     the nodes, stable under insert / erase, O(1) erase, no allocation per
//     entry. A node belongs to at most one graph list; remove it (RemoveNode
//     / RemoveJustNode) before adding it elsewhere.
//   * AddNode(op) creates the node (anchors from the OpDesc), sets the
//     OpDesc id to the number of nodes before it and appends it. Nodes of type
//     Data / RefData / AippData also become input nodes.
//   * RemoveNode (seed semantics): (1) unlinks its Const / Constant inputs
//     and removes those constants that have no other consumer, (2) drops the
//     node from the input and output lists, (3) isolates it with bypass
//     (IsolateNode: the producer of its first connected data input takes over
//     the consumers of every output; every other producer -> consumer
//     dependency is kept as a control edge), (4) erases it.
//   * FindNode is O(1) amortised (a name index built on first use and kept up
//     to date by AddNode / RemoveNode; renaming a node's OpDesc invalidates
//     it). With duplicate names it returns the first node in list order.
//
// Subgraphs (control flow)
//   * All subgraphs of a graph tree are registered at the ROOT graph
//     (AddSubgraph on a non-root graph is ParamInvalid); GetSubgraph(name) on
//     any graph of the tree looks up the root. A subgraph points back to its
//     parent graph and parent node (weak); a parent node's OpDesc names its
//     subgraphs (subgraph instance names).
//   * GetAllNodes() lists every node of the tree: each node directly followed
//     by the nodes of its subgraphs (in the order of its instance names),
//     recursively.
//   * Inside a subgraph, DATA nodes carry ATTR_NAME_PARENT_NODE_INDEX (the
//     parent node input they stand for) and one NETOUTPUT node collects the
//     outputs.
//
// Topological sorting (TopologicalSorting)
//   Data and control edges are dependencies. Sources ("seeds") are the nodes
//   without inputs: Data-type nodes first, then the others, each in current
//   list order. Modes:
//     kBFS        Kahn's algorithm with a FIFO queue (training default).
//     kDFS        Kahn's algorithm with a LIFO stack; the successors that
//                 become ready are visited first-edge-first (inference
//                 default).
//     kRDFS       post-order DFS backwards from the sinks (list order); the
//                 inputs of a node are visited smallest output first (ties by
//                 name), so the largest input is produced last, right before
//                 its consumer.
//     kStableRDFS post-order DFS backwards from every node in current list
//                 order, inputs in current list order: an order that is
//                 already topological is kept unchanged.
//   Options: memory_priority (BFS / DFS only) replaces the queue / stack by a
//   priority queue: larger total output bytes first, then more data
//   consumers, then name. delay_const_chains moves every node whose data
//   inputs all come from Const / Constant / Variable nodes (and single-input
//   chains of such nodes) to just before its first consumer; by default it is
//   on for kRDFS and for memory priority (except kStableRDFS).
//   After sorting the list is in the new order and every OpDesc id is its
//   position; sorting the root also sorts every subgraph and renumbers ids
//   over GetAllNodes(). A cycle is a GraphCycle error naming the nodes of one
//   cycle ("a -> b -> c -> a"). Everything is iterative (no recursion, so a
//   long chain cannot overflow the stack) and deterministic.
//
// Example
//   auto graph = std::make_shared<ComputeGraph>("g");
//   ASSIGN_OR_RETURN(NodePtr data, graph->AddNode(data_op));
//   ASSIGN_OR_RETURN(NodePtr relu, graph->AddNode(relu_op));
//   RETURN_IF_ERROR(data->GetOutDataAnchor(0)->LinkTo(relu->GetInDataAnchor(0)));
//   RETURN_IF_ERROR(graph->TopologicalSorting(TopoSortingMode::kDFS));
#ifndef GRAPH_INC_GRAPH_COMPUTE_GRAPH_H_
#define GRAPH_INC_GRAPH_COMPUTE_GRAPH_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/graph_fwd.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

enum class TopoSortingMode : int32_t { kBFS = 0, kDFS = 1, kRDFS = 2, kStableRDFS = 3 };

// "BFS", "DFS", "RDFS", "StableRDFS".
const char* TopoSortingModeName(TopoSortingMode mode);
// BFS for training graphs, DFS for inference graphs (seed 000, 3.4).
inline TopoSortingMode DefaultTopoSortingMode(bool is_training) {
  return is_training ? TopoSortingMode::kBFS : TopoSortingMode::kDFS;
}

struct TopoSortOptions {
  enum class Delay { kAuto, kOn, kOff };
  TopoSortingMode mode = TopoSortingMode::kDFS;
  bool memory_priority = false;
  Delay delay_const_chains = Delay::kAuto;
  // Also sort every subgraph (root graph only) and renumber ids over all.
  bool sort_subgraphs = true;
};

class ComputeGraph : public std::enable_shared_from_this<ComputeGraph>, public AttrHolder {
 public:
  explicit ComputeGraph(const std::string& name);
  ComputeGraph(const ComputeGraph&) = delete;
  ComputeGraph& operator=(const ComputeGraph&) = delete;
  ~ComputeGraph();

  const std::string& GetName() const { return name_; }
  void SetName(const std::string& name) { name_ = name; }
  uint32_t GetGraphID() const { return graph_id_; }
  void SetGraphID(uint32_t id) { graph_id_ = id; }

  // ---- nodes
  StatusOr<NodePtr> AddNode(const OpDescPtr& op_desc);
  // Keeps `id` as the OpDesc id (deserialization).
  StatusOr<NodePtr> AddNode(const OpDescPtr& op_desc, int64_t id);
  // Adds an existing node that belongs to no graph.
  StatusOr<NodePtr> AddNode(const NodePtr& node);
  // At the front, but after a leading Data node.
  StatusOr<NodePtr> AddNodeFront(const OpDescPtr& op_desc);
  StatusOr<NodePtr> AddNodeFront(const NodePtr& node);
  // Right after / before `anchor_node`, with its id.
  StatusOr<NodePtr> InsertNode(const NodePtr& anchor_node, const OpDescPtr& op_desc);
  StatusOr<NodePtr> InsertNodeBefore(const NodePtr& anchor_node, const OpDescPtr& op_desc);
  StatusOr<std::vector<NodePtr>> InsertNodes(const NodePtr& anchor_node,
                                             const std::vector<OpDescPtr>& op_descs);
  Status RemoveNode(const NodePtr& node);
  // Unlinks every anchor of the node (no bypass) and erases it.
  Status RemoveNodeWithoutRelink(const NodePtr& node);
  // Erases the node from the list and the input / output lists, keeping its
  // edges (used to move a node into another graph).
  Status RemoveJustNode(const NodePtr& node);
  // Inserts the nodes for fusion_ops right after the node of ori_nodes with
  // the smallest OpDesc id (they take that id), after copying to every
  // fusion op the placement attributes (stream labels, super kernel scope /
  // options, core numbers) that ori_nodes agree on. NotSupported when
  // ori_nodes carry different values of one of them. The original nodes and
  // their edges are left to the caller.
  StatusOr<std::vector<NodePtr>> FuseNodeKeepTopo(const std::vector<NodePtr>& ori_nodes,
                                                  const std::vector<OpDescPtr>& fusion_ops);

  NodePtr FindNode(const std::string& name) const;
  NodePtr FindFirstNodeMatchType(const std::string& type) const;
  bool HasNode(const Node* node) const;
  bool HasNode(const NodePtr& node) const { return HasNode(node.get()); }

  // A snapshot: safe to modify the graph while iterating over it.
  std::vector<NodePtr> GetDirectNode() const;
  std::vector<Node*> GetDirectNodePtr() const;
  // A live view: do not add or remove nodes while iterating.
  const NodeList& DirectNodes() const { return nodes_; }
  size_t GetDirectNodesSize() const { return nodes_.size(); }
  // Every node of this graph and its subgraphs (see the file comment).
  std::vector<NodePtr> GetAllNodes() const;
  std::vector<Node*> GetAllNodesPtr() const;
  size_t GetAllNodesSize() const;

  // ---- inputs / outputs
  // Registers the node as an input (adding it to the graph when needed).
  Status AddInputNode(const NodePtr& node);
  Status RemoveInputNode(const NodePtr& node);
  const std::vector<NodePtr>& GetInputNodes() const { return input_nodes_; }
  // Registers output `index` of the node as a graph output (once); adds the
  // node to the graph when needed.
  Status AddOutputNode(const NodePtr& node) { return AddOutputNodeByIndex(node, 0); }
  Status AddOutputNodeByIndex(const NodePtr& node, int32_t index);
  // Removes every output entry of the node; NotFound if none.
  Status RemoveOutputNode(const NodePtr& node);
  std::vector<NodePtr> GetOutputNodes() const;
  const std::vector<std::pair<NodePtr, int32_t>>& GetGraphOutNodesInfo() const {
    return output_nodes_info_;
  }
  void SetGraphOutNodesInfo(const std::vector<std::pair<NodePtr, int32_t>>& info) {
    output_nodes_info_ = info;
  }

  // ---- subgraphs
  // Registers a subgraph under `name` at this (root) graph. The subgraph
  // must have its parent graph and parent node set, the parent node must
  // belong to the parent graph, and the name must be new.
  Status AddSubgraph(const std::string& name, const ComputeGraphPtr& subgraph);
  Status AddSubgraph(const ComputeGraphPtr& subgraph);
  // Registers without the parent checks (partitioned graphs); name = its name.
  Status AddSubGraph(const ComputeGraphPtr& subgraph);
  // NotFound when absent.
  Status RemoveSubgraph(const std::string& name);
  Status RemoveSubGraph(const ComputeGraphPtr& subgraph);
  // Looks up the root graph's registry; nullptr when absent.
  ComputeGraphPtr GetSubgraph(const std::string& name) const;
  // The name `subgraph` is registered under in the root graph's registry:
  // its own name when registered under it, else the first instance name of
  // its parent node registered to it, else the smallest other name registered
  // to it. NotFound (naming the subgraph) when it is not registered.
  StatusOr<std::string> GetSubgraphRegisteredName(const ComputeGraph& subgraph) const;
  const std::vector<ComputeGraphPtr>& GetAllSubgraphs() const { return sub_graph_; }
  void ClearAllSubgraphs();

  ComputeGraphPtr GetParentGraph() const { return parent_graph_.lock(); }
  ComputeGraph* GetParentGraphBarePtr() const { return parent_graph_.lock().get(); }
  void SetParentGraph(const ComputeGraphPtr& parent) { parent_graph_ = parent; }
  NodePtr GetParentNode() const { return parent_node_.lock(); }
  Node* GetParentNodeBarePtr() const { return parent_node_.lock().get(); }
  void SetParentNode(const NodePtr& parent) { parent_node_ = parent; }
  // This graph when it has no parent.
  const ComputeGraph* GetRootGraphBarePtr() const;

  // ---- topological order
  Status TopologicalSorting();  // kDFS
  Status TopologicalSorting(TopoSortingMode mode);
  Status TopologicalSorting(const TopoSortOptions& options);
  // True after a successful sort until InValid().
  bool IsValid() const { return is_valid_; }
  void InValid() { is_valid_ = false; }

  // Disconnects `node`, keeping its producers -> consumers dependencies:
  // for output i with io_map[i] = j >= 0, the consumers of output i are
  // relinked to the producer of input j (data and data -> control links);
  // then every producer / consumer pair not connected that way gets a
  // control edge; then all anchors of the node are unlinked. An io_map entry
  // must be -1 or a valid input index (ParamInvalid, nothing changed).
  static Status IsolateNode(const NodePtr& node, const std::vector<int32_t>& io_map);

  std::string DebugString() const;  // "graph 'name'"

 private:
  struct NameIndex;
  Status CheckAddable(const NodePtr& node) const;
  StatusOr<NodePtr> CreateNode(const OpDescPtr& op_desc) const;
  // Inserts before `pos` (nullptr: at the end).
  void LinkIntoList(const NodePtr& node, Node* pos);
  void EraseFromList(Node* node);
  // Relinks the list as nodes[order[0]], nodes[order[1]], ... (a
  // permutation of its nodes), sets each OpDesc id to its position and
  // makes the order cache the new order: built in *buffer (its capacity
  // reused), which then holds the old cache. `nodes` may be the cache.
  void ApplyOrder(const std::vector<Node*>& nodes, const std::vector<uint32_t>& order,
                  std::vector<Node*>* buffer);
  // Makes order_cache_ valid (walking the list if needed).
  const std::vector<Node*>& OrderedNodes();
  void InvalidateOrderCache();
  void RegisterDataInput(const NodePtr& node);
  void IndexAdd(Node* node) const;
  void IndexRemove(Node* node) const;
  void OnReordered() const;
  Status RemoveConstInputs(const NodePtr& node);
  Status SortThisGraph(const TopoSortOptions& options);
  // Sum of the node's output tensor sizes (memory-priority sort keys).
  static int64_t OutputBytes(const Node& node);
  std::vector<ComputeGraphPtr> CollectAllNodes(std::vector<NodePtr>* nodes) const;

  std::string name_;
  uint32_t graph_id_ = 0;
  // Unique among live graphs (never 0); a node in this graph's list holds
  // it (Node::list_token_), which is what a sort compares for every edge.
  const uint32_t list_token_;
  NodeList nodes_;
  std::vector<NodePtr> input_nodes_;
  std::vector<std::pair<NodePtr, int32_t>> output_nodes_info_;
  std::vector<ComputeGraphPtr> sub_graph_;
  std::map<std::string, ComputeGraphPtr> names_to_subgraph_;
  std::weak_ptr<ComputeGraph> parent_graph_;
  std::weak_ptr<Node> parent_node_;
  bool is_valid_ = false;
  mutable std::unique_ptr<NameIndex> name_index_;
  // The list in array form while only appends / sorts changed it (then
  // order_cache_[i]->scratch_index_ == i); saves the sorts a pointer chase.
  std::vector<Node*> order_cache_;
  bool order_cache_valid_ = true;
  // The last sort left every OpDesc id equal to its node's position, and
  // no node was added or removed since nor an attached id set after
  // GetOpDescIdEpoch() was ids_synced_epoch_: a sort that keeps the order
  // then has no id to check.
  bool ids_synced_ = false;
  uint64_t ids_synced_epoch_ = 0;
};

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_COMPUTE_GRAPH_H_
