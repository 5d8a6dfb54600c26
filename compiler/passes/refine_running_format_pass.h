// compiler/passes/refine_running_format_pass.h
//
// RefineRunningFormatPass (seed 002's RefineRunningFormat): picks the memory
// layout the compute engine runs its activations in. oneDNN's fastest
// convolutions (brgconv) read and write channels-last activations; in
// channels-first they fall back to an im2col GEMM that is several times
// slower. So chains of compute-engine nodes that can all run channels-last
// keep their 4-D (5-D) activations in NHWC (NDHWC) between them, and the
// fewest TransData nodes convert at the chain's edges.
//
// In this project a tensor's dims are always its logical dims (N, C,
// spatial...); its desc format names the memory layout (FORMAT_NHWC:
// channels-last memory of logical NCHW dims). The TransData nodes the pass
// inserts carry _logical_dims (they change the layout, not the dims) and
// run on the compute engine when it has a TransData kernel.
//
// Which nodes: on AIcoreEngine, their kernel declares FORMAT_NHWC (resp.
// NDHWC) among its formats and still accepts the node with its activations
// channels-last (KernelDef::CheckSupported). Activations are the float
// inputs / outputs of the node's rank that do not come from a Const node
// (weights keep their plain layout). A connected group of such nodes is
// converted only when it contains a convolution (elsewhere the edge
// conversions would cost more than they save). Inside a group every
// activation desc becomes channels-last; an activation entering from
// outside gets one TransData (shared by every group consumer), an
// activation leaving it one TransData back (shared by every consumer
// outside the group, NetOutput included).
//
// Deterministic: groups and insertions follow the graph's node order.
#ifndef COMPILER_PASSES_REFINE_RUNNING_FORMAT_PASS_H_
#define COMPILER_PASSES_REFINE_RUNNING_FORMAT_PASS_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class RefineRunningFormatPass : public GraphPass {
 public:
  absl::string_view name() const override { return "RefineRunningFormatPass"; }
  // Nodes whose activations went channels-last, TransData nodes inserted
  // (last Run).
  int64_t converted_nodes() const { return converted_; }
  int64_t inserted_transdata() const { return inserted_; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  int64_t converted_ = 0;
  int64_t inserted_ = 0;
};

}  // namespace ge

#endif  // COMPILER_PASSES_REFINE_RUNNING_FORMAT_PASS_H_
