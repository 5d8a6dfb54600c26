// compiler/passes/control_flow_lowering_pass.cc
#include "compiler/passes/control_flow_lowering_pass.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_framework/graph_rewriter.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"

namespace ge {
namespace {

bool IsMergeType(absl::string_view t) { return t == "Merge" || t == "RefMerge"; }
bool IsSwitchType(absl::string_view t) { return t == "Switch" || t == "RefSwitch"; }

GeTensorDesc ScalarDesc(DataType dt) { return GeTensorDesc(GeShape({1}), FORMAT_ND, dt); }

// Labels `start` and everything after it along data edges, up to merges.
Status LabelBranch(const NodePtr& start, const std::string& label) {
  std::deque<Node*> queue = {start.get()};
  absl::flat_hash_set<Node*> seen = {start.get()};
  while (!queue.empty()) {
    Node* n = queue.front();
    queue.pop_front();
    const std::string& type = n->GetType();
    if (IsMergeType(type) || type == "StreamMerge" || type == NETOUTPUT) continue;
    OpDesc& op = *n->GetOpDescBarePtr();
    if (AttrUtils::HasAttr(op, kAttrStreamLabel)) continue;  // first label wins
    RETURN_IF_ERROR(AttrUtils::SetStr(op, kAttrStreamLabel, label));
    for (Node* out : n->GetOutNodesPtr()) {
      if (seen.insert(out).second) queue.push_back(out);
    }
  }
  return OkStatus();
}

}  // namespace

Status ControlFlowLoweringPass::LowerSwitch(const ComputeGraphPtr& graph, const NodePtr& node) {
  GraphRewriter rw(graph);
  rw.set_remove_orphaned_consts(false);
  const std::string& name = node->GetName();
  if (node->GetAllInDataAnchorsSize() < 2 || node->GetAllOutDataAnchorsSize() < 2) {
    return GraphInvalid("Switch ", name, " needs inputs (data, pred) and outputs (false, true)");
  }
  OutDataAnchor* data = ProducerOf(*node, 0);
  OutDataAnchor* pred = ProducerOf(*node, 1);
  if (data == nullptr || pred == nullptr) {
    return GraphInvalid("Switch ", name, ": input ", data == nullptr ? "data" : "pred",
                        " is not connected");
  }
  NodePtr data_node = data->GetOwnerNode();
  NodePtr pred_node = pred->GetOwnerNode();

  // pred -> Cast(INT32); Const one.
  auto cast_op =
      std::make_shared<OpDesc>(UniqueName(*graph, absl::StrCat(name, "/pred_cast")), "Cast");
  GeTensorDesc pred_desc = node->GetOpDescBarePtr()->GetInputDesc(1);
  RETURN_IF_ERROR(cast_op->AddInputDesc("input", pred_desc));
  GeTensorDesc cast_out = pred_desc;
  cast_out.SetDataType(DT_INT32);
  RETURN_IF_ERROR(cast_op->AddOutputDesc("output", cast_out));
  RETURN_IF_ERROR(AttrUtils::SetDataType(*cast_op, "to", DT_INT32));
  ASSIGN_OR_RETURN(NodePtr cast, rw.AddNodeAfter(pred_node, cast_op));
  RETURN_IF_ERROR(rw.LinkData(pred_node, pred->GetIdx(), cast, 0));

  auto one_op = std::make_shared<OpDesc>(UniqueName(*graph, absl::StrCat(name, "/one")), CONSTANT);
  const int32_t one = 1;
  GeTensor one_value(ScalarDesc(DT_INT32), reinterpret_cast<const uint8_t*>(&one), sizeof(one));
  RETURN_IF_ERROR(one_op->AddOutputDesc("y", ScalarDesc(DT_INT32)));
  RETURN_IF_ERROR(AttrUtils::SetTensor(*one_op, ATTR_NAME_WEIGHTS, one_value));
  ASSIGN_OR_RETURN(NodePtr one_node, rw.AddNodeAfter(cast, one_op));

  auto active_op = std::make_shared<OpDesc>(
      UniqueName(*graph, absl::StrCat(name, "/stream_active")), "StreamActive");
  RETURN_IF_ERROR(AttrUtils::SetListInt(*active_op, "active_stream_list", std::vector<int64_t>{}));
  ASSIGN_OR_RETURN(NodePtr active, rw.AddNodeAfter(one_node, active_op));
  RETURN_IF_ERROR(rw.CopyInControlEdges(node, active));

  std::vector<std::string> labels;
  NodePtr last = active;
  for (int32_t k = 0; k < 2; ++k) {
    OutDataAnchorPtr out = node->GetOutDataAnchor(k);
    std::vector<InDataAnchorPtr> consumers = out->GetPeerInDataAnchors();
    std::vector<InControlAnchorPtr> ctrl_consumers = out->GetPeerInControlAnchors();
    if (consumers.empty() && ctrl_consumers.empty()) continue;
    const char* branch = k == 1 ? "true" : "false";
    const std::string label = absl::StrCat(name, "_", branch);
    labels.push_back(label);
    auto sw_op = std::make_shared<OpDesc>(
        UniqueName(*graph, absl::StrCat(name, "/stream_switch_", branch)), "StreamSwitch");
    RETURN_IF_ERROR(sw_op->AddInputDesc("x1", cast_out));
    RETURN_IF_ERROR(sw_op->AddInputDesc("x2", ScalarDesc(DT_INT32)));
    RETURN_IF_ERROR(AttrUtils::SetInt(*sw_op, "switch_condition",
                                      k == 1 ? kStreamSwitchEqual : kStreamSwitchNotEqual));
    RETURN_IF_ERROR(AttrUtils::SetStr(*sw_op, kAttrStreamLabel, label));
    ASSIGN_OR_RETURN(NodePtr sw, rw.AddNodeAfter(last, sw_op));
    last = sw;
    RETURN_IF_ERROR(rw.LinkData(cast, 0, sw, 0));
    RETURN_IF_ERROR(rw.LinkData(one_node, 0, sw, 1));
    RETURN_IF_ERROR(rw.LinkControl(active, sw));
    for (const InDataAnchorPtr& in : consumers) {
      NodePtr consumer = in->GetOwnerNode();
      RETURN_IF_ERROR(rw.ReplaceInput(in, data_node->GetOutDataAnchor(data->GetIdx())));
      RETURN_IF_ERROR(rw.LinkControl(sw, consumer));
      RETURN_IF_ERROR(LabelBranch(consumer, label));
    }
    for (const InControlAnchorPtr& in : ctrl_consumers) {
      NodePtr consumer = in->GetOwnerNode();
      RETURN_IF_ERROR(out->Unlink(in));
      rw.MarkChanged(consumer);
      RETURN_IF_ERROR(rw.LinkControl(sw, consumer));
      RETURN_IF_ERROR(LabelBranch(consumer, label));
    }
    for (const NodePtr& succ : node->GetOutControlNodes()) {
      RETURN_IF_ERROR(rw.LinkControl(sw, succ));
    }
  }
  RETURN_IF_ERROR(AttrUtils::SetListStr(*active_op, kAttrActiveLabelList, labels));
  for (const NodePtr& succ : node->GetOutControlNodes()) {
    RETURN_IF_ERROR(rw.UnlinkControl(node, succ));
  }
  // Graph-output entries of the Switch (rare) move to the data producer.
  for (int32_t k = 0; k < 2; ++k) {
    RETURN_IF_ERROR(rw.ReplaceAllUsesWith(node->GetOutDataAnchor(k),
                                          data_node->GetOutDataAnchor(data->GetIdx())));
  }
  return rw.RemoveDeadNode(node);
}

Status ControlFlowLoweringPass::LowerMerge(const ComputeGraphPtr& graph, const NodePtr& node) {
  GraphRewriter rw(graph);
  rw.set_remove_orphaned_consts(false);
  auto op = std::make_shared<OpDesc>(*node->GetOpDesc());
  op->SetType("StreamMerge");
  op->SetName(UniqueName(*graph, absl::StrCat(node->GetName(), "/stream_merge")));
  std::vector<std::string> in_labels;
  for (size_t i = 0; i < node->GetAllInDataAnchorsSize(); ++i) {
    OutDataAnchor* src = ProducerOf(*node, static_cast<int32_t>(i));
    std::string label;
    if (src != nullptr) {
      StatusOr<std::string> l =
          AttrUtils::GetStr(*src->GetOwnerNodeBarePtr()->GetOpDescBarePtr(), kAttrStreamLabel);
      if (l.ok()) label = *l;
    }
    in_labels.push_back(label);
  }
  RETURN_IF_ERROR(
      AttrUtils::SetStr(*op, kAttrStreamLabel, absl::StrCat(node->GetName(), "_merge")));
  RETURN_IF_ERROR(AttrUtils::SetListStr(*op, kAttrMergeInputLabels, in_labels));
  ASSIGN_OR_RETURN(NodePtr merged, rw.AddNodeAfter(node, op));
  for (size_t i = 0; i < node->GetAllInDataAnchorsSize(); ++i) {
    OutDataAnchor* src = ProducerOf(*node, static_cast<int32_t>(i));
    if (src == nullptr) continue;
    RETURN_IF_ERROR(
        rw.LinkData(src->GetOwnerNode(), src->GetIdx(), merged, static_cast<int32_t>(i)));
  }
  return rw.ReplaceNode(node, merged);
}

StatusOr<bool> ControlFlowLoweringPass::RunOnGraph(const ComputeGraphPtr& graph) {
  ASSIGN_OR_RETURN(std::vector<NodePtr> order, StableTopologicalOrder(*graph));
  bool changed = false;
  for (const NodePtr& n : order) {
    if (!IsSwitchType(n->GetType())) continue;
    Status st = LowerSwitch(graph, n);
    if (!st.ok()) return Annotate(st, "ControlFlowLoweringPass: Switch ", n->GetName(), ": ");
    ++switches_;
    changed = true;
  }
  for (const NodePtr& n : order) {
    if (!IsMergeType(n->GetType())) continue;
    Status st = LowerMerge(graph, n);
    if (!st.ok()) return Annotate(st, "ControlFlowLoweringPass: Merge ", n->GetName(), ": ");
    ++merges_;
    changed = true;
  }
  return changed;
}

StatusOr<bool> ControlFlowLoweringPass::RunImpl(const ComputeGraphPtr& graph) {
  switches_ = 0;
  merges_ = 0;
  ASSIGN_OR_RETURN(bool changed, RunOnGraph(graph));
  if (graph->GetParentGraph() != nullptr) return changed;
  for (const ComputeGraphPtr& sub : graph->GetAllSubgraphs()) {
    ASSIGN_OR_RETURN(bool c, RunOnGraph(sub));
    changed = changed || c;
  }
  return changed;
}

GE_REGISTER_GRAPH_PASS(ControlFlowLoweringPass);

}  // namespace ge
