// compiler/passes/constant_fuse_same_pass.cc
#include "compiler/passes/constant_fuse_same_pass.h"

#include <cstddef>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/passes/pass_framework/graph_rewriter.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/utils/tensor_utils.h"

namespace ge {
namespace {

bool IsCandidate(const Node& node) {
  if (ConstWeights(node) == nullptr || node.GetAllOutDataAnchorsSize() != 1) return false;
  if (!node.InControlPeers().empty()) return false;
  for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
    if (node.GetInDataAnchorBarePtr(static_cast<int32_t>(i))->IsLinked()) return false;
  }
  return true;
}

bool SameOutputDesc(const GeTensorDesc* a, const GeTensorDesc* b) {
  if (a == nullptr || b == nullptr) return a == b;
  return a->GetDataType() == b->GetDataType() && a->GetShape() == b->GetShape() &&
         a->GetFormat() == b->GetFormat();
}

// Attributes other than the weights.
bool SameOtherAttrs(const OpDesc& a, const OpDesc& b) {
  const AttrStore& sa = a.GetAttrStore();
  const AttrStore& sb = b.GetAttrStore();
  size_t i = 0, j = 0;
  while (true) {
    while (i < sa.size() && sa.NameAt(i) == ATTR_NAME_WEIGHTS) ++i;
    while (j < sb.size() && sb.NameAt(j) == ATTR_NAME_WEIGHTS) ++j;
    if (i == sa.size() || j == sb.size()) return i == sa.size() && j == sb.size();
    if (sa.NameAt(i) != sb.NameAt(j) || sa.ValueAt(i) != sb.ValueAt(j)) return false;
    ++i;
    ++j;
  }
}

bool SameConstant(const Node& a, const Node& b) {
  if (a.GetType() != b.GetType()) return false;
  const GeTensor& wa = *ConstWeights(a);
  const GeTensor& wb = *ConstWeights(b);
  if (wa.GetTensorDesc().GetDataType() != wb.GetTensorDesc().GetDataType() ||
      wa.GetTensorDesc().GetShape() != wb.GetTensorDesc().GetShape()) {
    return false;
  }
  absl::Span<const uint8_t> ba = wa.GetBytes();
  absl::Span<const uint8_t> bb = wb.GetBytes();
  if (ba != bb) return false;  // element-wise byte comparison
  return SameOutputDesc(a.GetOpDescBarePtr()->GetOutputDescBarePtr(0),
                        b.GetOpDescBarePtr()->GetOutputDescBarePtr(0)) &&
         SameOtherAttrs(*a.GetOpDescBarePtr(), *b.GetOpDescBarePtr());
}

}  // namespace

StatusOr<bool> ConstantFuseSamePass::RunImpl(const ComputeGraphPtr& graph) {
  ASSIGN_OR_RETURN(bool changed, RunOnGraph(graph));
  if (graph->GetParentGraph() != nullptr) return changed;
  for (const ComputeGraphPtr& sub : graph->GetAllSubgraphs()) {
    ASSIGN_OR_RETURN(bool sub_changed, RunOnGraph(sub));
    changed = changed || sub_changed;
  }
  return changed;
}

StatusOr<bool> ConstantFuseSamePass::RunOnGraph(const ComputeGraphPtr& graph) {
  // Kept constants by a sampled key of their content (a weight in a mapped
  // model file is touched in three places, not read whole); a candidate
  // whose key matches is compared by a full hash of the bytes (computed
  // once per constant, only then) and then byte by byte.
  struct Kept {
    NodePtr node;
    bool hashed = false;
    size_t full_hash = 0;
  };
  auto full_hash = [](const Node& node, Kept* k) {
    if (k->hashed) return k->full_hash;
    const absl::Span<const uint8_t> bytes = ConstWeights(node)->GetBytes();
    k->full_hash =
        absl::HashOf(absl::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    k->hashed = true;
    return k->full_hash;
  };
  absl::flat_hash_map<size_t, std::vector<Kept>> kept;
  std::vector<std::pair<NodePtr, NodePtr>> merges;  // (duplicate, kept)
  auto visit = [&](const NodePtr& node) {
    if (!IsCandidate(*node)) return;
    const size_t key =
        absl::HashOf(node->GetType(), TensorUtils::SampledContentHash(*ConstWeights(*node)));
    std::vector<Kept>& bucket = kept[key];
    Kept candidate{node};
    NodePtr same;
    for (Kept& k : bucket) {
      if (full_hash(*k.node, &k) == full_hash(*node, &candidate) && SameConstant(*k.node, *node)) {
        same = k.node;
        break;
      }
    }
    if (same == nullptr) {
      bucket.push_back(std::move(candidate));
    } else {
      merges.emplace_back(node, same);
    }
  };
  // Candidates are Const nodes: when a walk already listed them (in node
  // list order), only those are visited.
  TopoOrderCache* cache = TopoOrderCache::Current();
  const TopoOrderCache::ConstUses* uses = cache == nullptr ? nullptr : cache->FindConstUses(*graph);
  if (uses != nullptr) {
    for (Node* node : uses->consts) visit(node->shared_from_this());
  } else {
    for (const NodePtr& node : graph->DirectNodes()) visit(node);
  }
  GraphRewriter rw(graph);
  for (const auto& [dup, keep] : merges) {
    RETURN_IF_ERROR(rw.ReplaceAllUsesWith(dup->GetOutDataAnchor(0), keep->GetOutDataAnchor(0)));
    RETURN_IF_ERROR(rw.MoveOutControlEdges(dup, keep));
    RETURN_IF_ERROR(rw.RemoveDeadNode(dup));
  }
  return rw.changed();
}

GE_REGISTER_GRAPH_PASS(ConstantFuseSamePass);

}  // namespace ge
