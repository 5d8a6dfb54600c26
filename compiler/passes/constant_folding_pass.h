// ConstantFoldingPass (seed 002 sections 2.2 and 8): evaluates nodes whose
// data inputs are all Const with their registered host-CPU kernel and
// replaces them by Const nodes.
//
// Contract:
//   * Folded: registered ops with a host-CPU kernel, no subgraphs, every
//     data input connected to a Const / Constant, not Data / NetOutput /
//     Const, not control flow (If, While, Loop, Case, Switch, Merge, Stream*,
//     Enter/Exit/NextIteration/LoopCond, PartitionedCall) and not random
//     (type containing "Random", Multinomial, Dropout*) or otherwise listed
//     in `extra_denylist`.
//   * Shape / Size / Rank whose input desc is static fold from the desc
//     alone (no value needed).
//   * An output larger than max_output_bytes (option
//     "ge.constantFoldingMaxBytes", default 64 MiB) keeps the node.
//   * Each output k becomes a Const "<node>_const_<k>" taking over its
//     consumers; the Consts inherit the node's control predecessors, the
//     first one its control successors. Inputs left unused are removed.
//   * A kernel failure is an error naming the node (the graph is left
//     unchanged for that node).
//   * Inside a TopoOrderCache scope, a graph not edited (descs included)
//     since a run that folded nothing (no cap hit, no extra denylist) is
//     skipped. The structural test (all data inputs Const) runs before the
//     registry lookups.
//
// Example:
//   ConstantFoldingPass pass;
//   ASSIGN_OR_RETURN(bool changed, pass.Run(graph));
#ifndef COMPILER_PASSES_CONSTANT_FOLDING_PASS_H_
#define COMPILER_PASSES_CONSTANT_FOLDING_PASS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ge {

inline constexpr char kOptionConstantFoldingMaxBytes[] = "ge.constantFoldingMaxBytes";
inline constexpr int64_t kDefaultConstantFoldingMaxBytes = int64_t{64} << 20;

class ConstantFoldingPass : public GraphPass {
 public:
  ConstantFoldingPass() = default;
  explicit ConstantFoldingPass(int64_t max_output_bytes) : max_output_bytes_(max_output_bytes) {}

  absl::string_view name() const override { return "ConstantFoldingPass"; }
  // Reads settings.constant_folding_max_bytes.
  void Configure(const PassSettings& settings) override {
    max_output_bytes_ = settings.constant_folding_max_bytes;
  }

  // Parses the "ge.constantFoldingMaxBytes" option value (a non-negative
  // decimal byte count).
  static StatusOr<int64_t> ParseMaxBytesOption(absl::string_view value);

  void set_max_output_bytes(int64_t bytes) { max_output_bytes_ = bytes; }
  int64_t max_output_bytes() const { return max_output_bytes_; }
  void AddToDenylist(std::string type) { extra_denylist_.insert(std::move(type)); }

  // Nodes folded by the last Run.
  int64_t folded_count() const { return folded_; }
  // Nodes skipped by the last Run because an output exceeded the cap.
  int64_t skipped_too_large() const { return skipped_large_; }

  // Whether `node`'s type may be folded at all (ignores its inputs).
  bool IsFoldableType(const Node& node) const;

  // Evaluates `node` (all data inputs Const) with its host kernel.
  static StatusOr<std::vector<gert::HostTensor>> Evaluate(const Node& node);

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  StatusOr<bool> FoldGraph(ComputeGraph& graph);
  StatusOr<bool> TryFold(ComputeGraph& graph, const NodePtr& node);

  int64_t max_output_bytes_ = kDefaultConstantFoldingMaxBytes;
  absl::flat_hash_set<std::string> extra_denylist_;
  int64_t folded_ = 0;
  int64_t skipped_large_ = 0;
};

}  // namespace ge

#endif  // COMPILER_PASSES_CONSTANT_FOLDING_PASS_H_
