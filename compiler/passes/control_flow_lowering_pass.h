// ControlFlowLoweringPass (seed 002 section 2.2, Stage 1 "control-flow
// conversion": SwitchToStreamSwitchPass + MergeToStreamMergePass +
// AttachStreamLabelPass): lowers the TF-style Switch / Merge primitives to
// the stream-control ops of ops/internal (rts_ops.cc).
//
// Contract, for every Switch S(data, pred) of every graph:
//   * pred is cast to INT32 by a Cast "<S>/pred_cast" and compared with a
//     Const "<S>/one" (INT32 [1] = 1).
//   * For each output k of S that has consumers (0 = false, 1 = true) a
//     StreamSwitch "<S>/stream_switch_<false|true>"(x1 = cast, x2 = one) with
//     switch_condition NOT_EQUAL (1) for k = 0, EQUAL (0) for k = 1, and the
//     attribute kAttrStreamLabel = "<S>_<false|true>" (the branch label).
//     Every consumer of output k reads S's data producer directly and gets a
//     control edge from that StreamSwitch.
//   * A StreamActive "<S>/stream_active" precedes the StreamSwitches
//     (control edges) and lists their labels in kAttrActiveLabelList; it
//     inherits S's control predecessors; S's control successors follow the
//     StreamSwitches.
//   * Branch labels: every node reachable from a consumer of output k along
//     data edges, up to (excluding) a Merge / StreamMerge / NetOutput, gets
//     kAttrStreamLabel = the branch label (a node already labelled keeps its
//     first label).
//   S is removed.
// For every Merge M: a StreamMerge "<M>/stream_merge" (same inputs, outputs,
// descs and attributes) replaces it, with kAttrStreamLabel = "<M>_merge" and
// kAttrMergeInputLabels = the labels of its producers ("" when unlabelled).
// Run() returns true when a node was lowered. The lowered graph is for the
// stream-based executors; it keeps the data flow (structure) but only the
// RTS engine runs StreamSwitch.
//
// Example:
//   x, p -> Switch -> (f: Neg, t: Relu) -> Merge -> y
//   =>  StreamActive -ctl-> StreamSwitch_false -ctl-> Neg(x) -> StreamMerge -> y
//                      \--> StreamSwitch_true  -ctl-> Relu(x) -/
#ifndef COMPILER_PASSES_CONTROL_FLOW_LOWERING_PASS_H_
#define COMPILER_PASSES_CONTROL_FLOW_LOWERING_PASS_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// String on a node: the stream label of the branch it runs in.
inline constexpr char kAttrStreamLabel[] = "_stream_label";
// List of strings on a StreamActive: the labels it activates.
inline constexpr char kAttrActiveLabelList[] = "_active_label_list";
// List of strings on a StreamMerge: the labels of its inputs' producers.
inline constexpr char kAttrMergeInputLabels[] = "_merge_input_labels";

inline constexpr int64_t kStreamSwitchEqual = 0;
inline constexpr int64_t kStreamSwitchNotEqual = 1;

class ControlFlowLoweringPass : public GraphPass {
 public:
  absl::string_view name() const override { return "ControlFlowLoweringPass"; }

  int64_t lowered_switches() const { return switches_; }
  int64_t lowered_merges() const { return merges_; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  StatusOr<bool> RunOnGraph(const ComputeGraphPtr& graph);
  Status LowerSwitch(const ComputeGraphPtr& graph, const NodePtr& node);
  Status LowerMerge(const ComputeGraphPtr& graph, const NodePtr& node);
  int64_t switches_ = 0;
  int64_t merges_ = 0;
};

}  // namespace ge

#endif  // COMPILER_PASSES_CONTROL_FLOW_LOWERING_PASS_H_
