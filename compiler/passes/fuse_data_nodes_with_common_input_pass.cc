// compiler/passes/fuse_data_nodes_with_common_input_pass.cc
#include "compiler/passes/fuse_data_nodes_with_common_input_pass.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "compiler/passes/pass_framework/graph_rewriter.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "graph/inc/graph/utils/node_utils.h"

namespace ge {
namespace {

bool IsLoopType(absl::string_view type) {
  return type == "Loop" || type == "While" || type == "StatelessWhile" || type == "For" ||
         type == "Scan";
}

}  // namespace

StatusOr<bool> FuseDataNodesWithCommonInputPass::FuseInSubgraphsOf(const Node& parent) {
  // Parent input index -> the smallest parent index fed by the same value.
  std::vector<int64_t> canonical(parent.GetAllInDataAnchorsSize(), -1);
  absl::flat_hash_map<const OutDataAnchor*, int64_t> first_reader;
  for (size_t i = 0; i < parent.GetAllInDataAnchorsSize(); ++i) {
    const OutDataAnchor* src = ProducerOf(parent, static_cast<int32_t>(i));
    canonical[i] = static_cast<int64_t>(i);
    if (src == nullptr) continue;
    auto [it, inserted] = first_reader.emplace(src, static_cast<int64_t>(i));
    if (!inserted) canonical[i] = it->second;
  }
  bool changed = false;
  const OpDesc& op = *parent.GetOpDescBarePtr();
  for (uint32_t s = 0; s < op.GetSubgraphInstanceNames().size(); ++s) {
    ComputeGraphPtr sub = NodeUtils::GetSubgraph(parent, s);
    if (sub == nullptr) continue;
    // Canonical parent index -> the Data node kept for it.
    std::map<int64_t, NodePtr> kept;
    std::vector<std::pair<NodePtr, NodePtr>> merges;  // (duplicate, kept)
    std::vector<NodePtr> datas;
    for (const NodePtr& n : sub->GetDirectNode()) {
      if (n->GetType() == DATA) datas.push_back(n);
    }
    // Smallest parent index first, so the kept node is the canonical one.
    std::vector<std::pair<int64_t, NodePtr>> by_index;
    for (const NodePtr& d : datas) {
      StatusOr<int64_t> idx = AttrUtils::GetInt(d->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX);
      if (!idx.ok()) continue;
      if (*idx < 0 || static_cast<size_t>(*idx) >= canonical.size()) {
        return GraphInvalid("subgraph '", sub->GetName(), "' of '", parent.GetName(),
                            "': Data node '", d->GetName(), "' has parent index ", *idx,
                            " but the parent has ", canonical.size(), " inputs");
      }
      by_index.emplace_back(*idx, d);
    }
    std::stable_sort(by_index.begin(), by_index.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [idx, d] : by_index) {
      const int64_t key = canonical[static_cast<size_t>(idx)];
      auto it = kept.find(key);
      if (it == kept.end()) {
        kept.emplace(key, d);
      } else {
        merges.emplace_back(d, it->second);
      }
    }
    if (merges.empty()) continue;
    GraphRewriter rw(sub);
    for (const auto& [dup, keep] : merges) {
      Status st = rw.ReplaceAllUsesWith(dup->GetOutDataAnchor(0), keep->GetOutDataAnchor(0));
      if (st.ok()) st = rw.MoveOutControlEdges(dup, keep);
      if (st.ok()) st = rw.CopyInControlEdges(dup, keep);
      if (st.ok()) {
        for (const NodePtr& pred : dup->GetInControlNodes()) {
          if (st.ok()) st = rw.UnlinkControl(pred, dup);
        }
      }
      if (st.ok()) {
        (void)sub->RemoveInputNode(dup);
        st = rw.RemoveDeadNode(dup);
      }
      if (!st.ok()) {
        return Annotate(st, "FuseDataNodesWithCommonInputPass: subgraph '", sub->GetName(),
                        "': merging Data '", dup->GetName(), "' into '", keep->GetName(), "': ");
      }
      ++fused_;
      changed = true;
    }
  }
  return changed;
}

StatusOr<bool> FuseDataNodesWithCommonInputPass::RunImpl(const ComputeGraphPtr& graph) {
  fused_ = 0;
  bool changed = false;
  // Subgraphs are registered at the root: none there, nothing to fuse.
  const ComputeGraph* root = graph->GetRootGraphBarePtr();
  if (root != nullptr && root->GetAllSubgraphs().empty()) return false;
  // GetAllNodes covers the nodes of every (nested) subgraph.
  for (const NodePtr& node : graph->GetAllNodes()) {
    const OpDesc& op = *node->GetOpDescBarePtr();
    if (op.GetSubgraphInstanceNames().empty() || IsLoopType(node->GetType())) continue;
    ASSIGN_OR_RETURN(bool c, FuseInSubgraphsOf(*node));
    changed = changed || c;
  }
  return changed;
}

GE_REGISTER_GRAPH_PASS(FuseDataNodesWithCommonInputPass);

}  // namespace ge
