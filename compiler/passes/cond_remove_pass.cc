// compiler/passes/cond_remove_pass.cc
#include "compiler/passes/cond_remove_pass.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "compiler/passes/const_value_util.h"
#include "compiler/passes/pass_framework/graph_rewriter.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "graph/inc/graph/utils/node_utils.h"

namespace ge {
namespace {

bool IsIfType(absl::string_view type) { return type == "If" || type == "StatelessIf"; }
bool IsCaseType(absl::string_view type) { return type == "Case" || type == "StatelessCase"; }

// The single element of `t` as an int64 (bool / integer / float types).
std::optional<int64_t> ScalarValue(const gert::HostTensor& t) {
  if (t.GetShape().GetShapeSize() != 1) return std::nullopt;
  switch (t.GetDataType()) {
    case DT_BOOL:
      return t.GetData<bool>()[0] ? 1 : 0;
    case DT_INT8:
      return t.GetData<int8_t>()[0];
    case DT_UINT8:
      return t.GetData<uint8_t>()[0];
    case DT_INT16:
      return t.GetData<int16_t>()[0];
    case DT_UINT16:
      return t.GetData<uint16_t>()[0];
    case DT_INT32:
      return t.GetData<int32_t>()[0];
    case DT_UINT32:
      return t.GetData<uint32_t>()[0];
    case DT_INT64:
      return t.GetData<int64_t>()[0];
    case DT_FLOAT:
      return t.GetData<float>()[0] != 0.0f ? 1 : 0;
    case DT_DOUBLE:
      return t.GetData<double>()[0] != 0.0 ? 1 : 0;
    default:
      return std::nullopt;
  }
}

// Slot of the subgraph named `ir_name`, else `fallback`.
uint32_t SlotOf(const OpDesc& op, const std::string& ir_name, uint32_t fallback) {
  std::map<std::string, uint32_t> idx = op.GetSubgraphNameIndexes();
  auto it = idx.find(ir_name);
  return it == idx.end() ? fallback : it->second;
}

}  // namespace

std::optional<uint32_t> CondRemovePass::TakenBranch(const Node& node) {
  const bool is_if = IsIfType(node.GetType());
  if (!is_if && !IsCaseType(node.GetType())) return std::nullopt;
  if (node.GetAllInDataAnchorsSize() == 0) return std::nullopt;
  StatusOr<gert::HostTensor> v = GetConstInputValue(node, 0);
  if (!v.ok()) return std::nullopt;
  std::optional<int64_t> s = ScalarValue(*v);
  if (!s.has_value()) return std::nullopt;
  const OpDesc& op = *node.GetOpDescBarePtr();
  const uint32_t n = static_cast<uint32_t>(op.GetSubgraphInstanceNames().size());
  if (is_if) {
    if (n < 2) return std::nullopt;
    return *s != 0 ? SlotOf(op, "then_branch", 0) : SlotOf(op, "else_branch", 1);
  }
  if (n == 0) return std::nullopt;
  if (*s < 0 || *s >= static_cast<int64_t>(n)) return n - 1;
  return static_cast<uint32_t>(*s);
}

Status CondRemovePass::InlineBranch(const NodePtr& node, uint32_t branch) {
  ComputeGraphPtr graph = node->GetOwnerComputeGraph();
  if (graph == nullptr)
    return ParamInvalid("CondRemovePass: node ", node->GetName(), " is in no graph");
  ComputeGraphPtr sub = NodeUtils::GetSubgraph(*node, branch);
  if (sub == nullptr) {
    return NotFound("CondRemovePass: node ", node->GetName(), " has no subgraph ", branch);
  }
  ASSIGN_OR_RETURN(std::vector<NodePtr> order, StableTopologicalOrder(*sub));
  GraphRewriter rw(graph);
  absl::flat_hash_map<const Node*, NodePtr> copies;           // branch node -> copy
  absl::flat_hash_map<const Node*, OutDataAnchor*> data_src;  // branch Data -> parent producer
  NodePtr net_output;
  NodePtr anchor = node;
  for (const NodePtr& n : order) {
    const std::string& type = n->GetType();
    if (type == NETOUTPUT) {
      net_output = n;
      continue;
    }
    if (type == DATA) {
      StatusOr<int64_t> idx = AttrUtils::GetInt(n->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX);
      if (!idx.ok() || *idx < 0 || *idx >= static_cast<int64_t>(node->GetAllInDataAnchorsSize())) {
        return GraphInvalid("CondRemovePass: branch '", sub->GetName(), "' of ", node->GetName(),
                            ": Data node '", n->GetName(), "' has no valid parent index");
      }
      data_src[n.get()] = ProducerOf(*node, static_cast<int32_t>(*idx));
      continue;
    }
    auto op = std::make_shared<OpDesc>(*n->GetOpDesc());
    op->SetName(UniqueName(*graph, absl::StrCat(node->GetName(), "/", n->GetName())));
    ASSIGN_OR_RETURN(NodePtr copy, rw.AddNodeAfter(anchor, op));
    anchor = copy;
    copies[n.get()] = copy;
  }
  // The producer standing for `out` of a branch node in the parent graph.
  auto resolve = [&](OutDataAnchor* out) -> OutDataAnchor* {
    const Node* owner = out->GetOwnerNodeBarePtr();
    auto d = data_src.find(owner);
    if (d != data_src.end()) return d->second;
    auto c = copies.find(owner);
    if (c == copies.end()) return nullptr;
    return c->second->GetOutDataAnchorBarePtr(out->GetIdx());
  };
  // Data and control edges between copies.
  for (const NodePtr& n : order) {
    auto c = copies.find(n.get());
    if (c == copies.end()) continue;
    const NodePtr& copy = c->second;
    for (size_t i = 0; i < n->GetAllInDataAnchorsSize(); ++i) {
      OutDataAnchor* src = ProducerOf(*n, static_cast<int32_t>(i));
      if (src == nullptr) continue;
      OutDataAnchor* mapped = resolve(src);
      if (mapped == nullptr) continue;  // a parent input left unlinked
      RETURN_IF_ERROR(
          rw.LinkData(mapped->GetOwnerNode(), mapped->GetIdx(), copy, static_cast<int32_t>(i)));
    }
    for (const NodePtr& pred : n->GetInControlNodes()) {
      auto pc = copies.find(pred.get());
      if (pc != copies.end()) {
        RETURN_IF_ERROR(rw.LinkControl(pc->second, copy));
      } else if (auto d = data_src.find(pred.get()); d != data_src.end() && d->second != nullptr) {
        RETURN_IF_ERROR(rw.LinkControl(d->second->GetOwnerNode(), copy));
      }
    }
    RETURN_IF_ERROR(rw.CopyInControlEdges(node, copy));
    for (const NodePtr& succ : node->GetOutControlNodes()) {
      RETURN_IF_ERROR(rw.LinkControl(copy, succ));
    }
    // Nested subgraphs now belong to the copy.
    for (uint32_t s = 0; s < copy->GetOpDescBarePtr()->GetSubgraphInstanceNames().size(); ++s) {
      ComputeGraphPtr nested = NodeUtils::GetSubgraph(*n, s);
      if (nested == nullptr) continue;
      nested->SetParentNode(copy);
      nested->SetParentGraph(graph);
    }
    for (const std::string& inst : n->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
      if (!inst.empty()) (void)n->GetOpDescBarePtr()->RemoveSubgraphInstanceName(inst);
    }
  }
  // Outputs.
  for (size_t j = 0; j < node->GetAllOutDataAnchorsSize(); ++j) {
    OutDataAnchorPtr out = node->GetOutDataAnchor(static_cast<int32_t>(j));
    OutDataAnchor* value = nullptr;
    if (net_output != nullptr && j < net_output->GetAllInDataAnchorsSize()) {
      OutDataAnchor* src = ProducerOf(*net_output, static_cast<int32_t>(j));
      if (src != nullptr) value = resolve(src);
    }
    if (value == nullptr) {
      if (out->GetPeerAnchorsSize() == 0) continue;
      return GraphInvalid("CondRemovePass: output ", j, " of ", node->GetName(),
                          " has consumers but branch '", sub->GetName(),
                          "' returns no value for it");
    }
    RETURN_IF_ERROR(
        rw.ReplaceAllUsesWith(out, value->GetOwnerNode()->GetOutDataAnchor(value->GetIdx())));
  }
  for (const NodePtr& succ : node->GetOutControlNodes()) {
    RETURN_IF_ERROR(rw.UnlinkControl(node, succ));
  }
  // Graph output entries pointing at the node were moved by ReplaceAllUsesWith.
  return rw.RemoveDeadNode(node);
}

StatusOr<bool> CondRemovePass::RunImpl(const ComputeGraphPtr& graph) {
  removed_ = 0;
  bool changed = false;
  static constexpr const char* kCondTypes[] = {"If", "StatelessIf", "Case", "StatelessCase"};
  if (!GraphTreeHasAnyType(*graph, kCondTypes)) return false;
  // Outer nodes first; a replaced node's subgraph nodes are skipped.
  std::vector<NodePtr> candidates;
  for (const NodePtr& n : graph->GetAllNodes()) {
    if (IsIfType(n->GetType()) || IsCaseType(n->GetType())) candidates.push_back(n);
  }
  for (const NodePtr& n : candidates) {
    ComputeGraph* owner = n->GetOwnerComputeGraphBarePtr();
    if (owner == nullptr || !owner->HasNode(n)) continue;
    // Skip nodes of branches removed earlier in this run.
    if (owner != graph.get() && graph->GetSubgraph(owner->GetName()).get() != owner) continue;
    std::optional<uint32_t> branch = TakenBranch(*n);
    if (!branch.has_value()) continue;
    RETURN_IF_ERROR(InlineBranch(n, *branch));
    ++removed_;
    changed = true;
  }
  return changed;
}

GE_REGISTER_GRAPH_PASS(CondRemovePass);

}  // namespace ge
