// compiler/passes/common_subexpression_elimination_pass.cc
#include "compiler/passes/common_subexpression_elimination_pass.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_framework/graph_rewriter.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"

namespace ge {
namespace {

bool IsCandidate(const Node& node) {
  const std::string& type = node.GetType();
  if (IsDataLikeType(type) || IsConstType(type) || type == NETOUTPUT || IsVariableType(type) ||
      IsControlFlowType(type)) {
    return false;
  }
  for (const std::string& inst : node.GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
    if (!inst.empty()) return false;
  }
  if (IsNonDeterministic(node)) return false;
  for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
    if (ProducerOf(node, static_cast<int32_t>(i)) != nullptr) return true;
  }
  return false;
}

// Type, producers per input (or "-"), sorted control predecessors. Equal
// keys mean equal inputs; attributes and descs are compared afterwards.
std::string InputKey(const Node& node) {
  std::string key = node.GetType();
  for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
    const InDataAnchor* in = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
    if (!in->IsLinked()) {
      absl::StrAppend(&key, "|-");
      continue;
    }
    const Anchor* peer = in->PeerAnchors()[0];
    absl::StrAppend(&key, "|", reinterpret_cast<uintptr_t>(peer->GetOwnerNodeBarePtr()), ":",
                    peer->GetIdx(), peer->IsOutControl() ? "c" : "");
  }
  std::vector<uintptr_t> preds;
  for (const Anchor* peer : node.GetInControlAnchorBarePtr()->PeerAnchors()) {
    preds.push_back(reinterpret_cast<uintptr_t>(peer));
  }
  std::sort(preds.begin(), preds.end());
  preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
  absl::StrAppend(&key, "|ctrl");
  for (uintptr_t p : preds) absl::StrAppend(&key, ":", p);
  return key;
}

bool SameDescs(const std::vector<GeTensorDescPtr>& a, const std::vector<GeTensorDescPtr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i]->GetDataType() != b[i]->GetDataType() || a[i]->GetShape() != b[i]->GetShape() ||
        a[i]->GetFormat() != b[i]->GetFormat()) {
      return false;
    }
  }
  return true;
}

bool SameComputation(const Node& a, const Node& b) {
  const OpDesc& oa = *a.GetOpDescBarePtr();
  const OpDesc& ob = *b.GetOpDescBarePtr();
  return a.GetAllInDataAnchorsSize() == b.GetAllInDataAnchorsSize() &&
         a.GetAllOutDataAnchorsSize() == b.GetAllOutDataAnchorsSize() &&
         oa.GetAttrStore() == ob.GetAttrStore() &&
         SameDescs(oa.GetAllInputsDescPtr(), ob.GetAllInputsDescPtr()) &&
         SameDescs(oa.GetAllOutputsDescPtr(), ob.GetAllOutputsDescPtr());
}

}  // namespace

StatusOr<bool> CommonSubexpressionEliminationPass::RunImpl(const ComputeGraphPtr& graph) {
  ASSIGN_OR_RETURN(bool changed, RunOnGraph(graph));
  if (graph->GetParentGraph() != nullptr) return changed;
  for (const ComputeGraphPtr& sub : graph->GetAllSubgraphs()) {
    ASSIGN_OR_RETURN(bool sub_changed, RunOnGraph(sub));
    changed = changed || sub_changed;
  }
  return changed;
}

StatusOr<bool> CommonSubexpressionEliminationPass::RunOnGraph(const ComputeGraphPtr& graph) {
  ASSIGN_OR_RETURN(std::vector<NodePtr> order, StableTopologicalOrder(*graph));
  absl::flat_hash_map<std::string, std::vector<NodePtr>> seen;
  GraphRewriter rw(graph);
  for (const NodePtr& node : order) {
    if (!graph->HasNode(node) || !IsCandidate(*node)) continue;
    std::vector<NodePtr>& bucket = seen[InputKey(*node)];
    NodePtr same;
    for (const NodePtr& k : bucket) {
      if (SameComputation(*k, *node)) {
        same = k;
        break;
      }
    }
    if (same == nullptr) {
      bucket.push_back(node);
      continue;
    }
    RETURN_IF_ERROR(rw.ReplaceNode(node, same));
  }
  return rw.changed();
}

}  // namespace ge
