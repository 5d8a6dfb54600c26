// compiler/passes/trans_op_breadth_fusion_pass.cc
#include "compiler/passes/trans_op_breadth_fusion_pass.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_framework/graph_rewriter.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"

namespace ge {
namespace {

bool SameDescs(const OpDesc& a, const OpDesc& b) {
  auto same = [](const std::vector<GeTensorDescPtr>& x, const std::vector<GeTensorDescPtr>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (x[i]->GetDataType() != y[i]->GetDataType() || x[i]->GetShape() != y[i]->GetShape() ||
          x[i]->GetFormat() != y[i]->GetFormat()) {
        return false;
      }
    }
    return true;
  };
  return same(a.GetAllInputsDescPtr(), b.GetAllInputsDescPtr()) &&
         same(a.GetAllOutputsDescPtr(), b.GetAllOutputsDescPtr());
}

// Same type, same producers on every input, same attributes and descs.
bool SameTransOp(const Node& a, const Node& b) {
  if (a.GetType() != b.GetType() || a.GetAllInDataAnchorsSize() != b.GetAllInDataAnchorsSize() ||
      a.GetAllOutDataAnchorsSize() != b.GetAllOutDataAnchorsSize()) {
    return false;
  }
  for (size_t i = 0; i < a.GetAllInDataAnchorsSize(); ++i) {
    if (ProducerOf(a, static_cast<int32_t>(i)) != ProducerOf(b, static_cast<int32_t>(i))) {
      return false;
    }
  }
  const OpDesc& oa = *a.GetOpDescBarePtr();
  const OpDesc& ob = *b.GetOpDescBarePtr();
  return oa.GetAttrStore() == ob.GetAttrStore() && SameDescs(oa, ob);
}

bool IsCandidate(const Node& node) {
  if (!TransOpBreadthFusionPass::IsTransOpType(node.GetType())) return false;
  for (const std::string& inst : node.GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
    if (!inst.empty()) return false;
  }
  return !HasSideEffects(node);
}

}  // namespace

bool TransOpBreadthFusionPass::IsTransOpType(absl::string_view type) {
  return type == "Transpose" || type == "TransposeD" || type == "Cast" || type == "TransData" ||
         type == "FormatTransfer";
}

StatusOr<bool> TransOpBreadthFusionPass::RunImpl(const ComputeGraphPtr& graph) {
  merged_ = 0;
  static constexpr const char* kTransTypes[] = {"Transpose", "TransposeD", "Cast", "TransData",
                                                "FormatTransfer"};
  if (!GraphTreeHasAnyType(*graph, kTransTypes)) return false;
  ASSIGN_OR_RETURN(bool changed, RunOnGraph(graph));
  if (graph->GetParentGraph() != nullptr) return changed;
  for (const ComputeGraphPtr& sub : graph->GetAllSubgraphs()) {
    ASSIGN_OR_RETURN(bool sub_changed, RunOnGraph(sub));
    changed = changed || sub_changed;
  }
  return changed;
}

StatusOr<bool> TransOpBreadthFusionPass::RunOnGraph(const ComputeGraphPtr& graph) {
  ASSIGN_OR_RETURN(const NodeOrder order, SharedTopologicalOrder(*graph));
  GraphRewriter rw(graph);
  for (const NodePtr& producer : *order) {
    if (!graph->HasNode(producer)) continue;
    for (size_t o = 0; o < producer->GetAllOutDataAnchorsSize(); ++o) {
      OutDataAnchor* out = producer->GetOutDataAnchorBarePtr(static_cast<int32_t>(o));
      if (out == nullptr || out->GetPeerInDataNodesSize() < 2) continue;
      // Candidates reading `out` on input 0, in consumer order.
      std::vector<NodePtr> cands;
      for (InDataAnchor* in : out->GetPeerInDataAnchorsPtr()) {
        Node* c = in->GetOwnerNodeBarePtr();
        if (in->GetIdx() != 0 || !IsCandidate(*c)) continue;
        NodePtr cp = c->shared_from_this();
        bool dup = false;
        for (const NodePtr& k : cands) dup = dup || k == cp;
        if (!dup) cands.push_back(cp);
      }
      if (cands.size() < 2) continue;
      std::vector<NodePtr> kept;
      for (const NodePtr& c : cands) {
        NodePtr same;
        for (const NodePtr& k : kept) {
          if (SameTransOp(*k, *c)) {
            same = k;
            break;
          }
        }
        if (same == nullptr) {
          kept.push_back(c);
          continue;
        }
        Status st = rw.ReplaceNode(c, same);
        if (!st.ok()) {
          return Annotate(st, "TransOpBreadthFusionPass: merging '", c->GetName(), "' into '",
                          same->GetName(), "': ");
        }
        ++merged_;
      }
    }
  }
  return rw.changed();
}

GE_REGISTER_GRAPH_PASS(TransOpBreadthFusionPass);

}  // namespace ge
