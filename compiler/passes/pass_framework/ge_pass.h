// compiler/passes/pass_framework/ge_pass.h
//
// GEPass: the driver that runs node passes over every node of a graph (seed
// 002, section 2.1; GE's passes/base_pass.h), and NodePassGroup, a GraphPass
// that owns node passes and runs them through GEPass (so a PassManager can
// schedule them).
//
// GEPass::Run(names_to_passes), for the graph and, when include_subgraphs,
// every subgraph reached from it:
//   Round 1 visits every node once, in StableTopologicalOrder (the graph is
//   never reordered). Visiting a node runs each pass, in list order, on it;
//   a pass whose registered name is in disabled_passes is skipped. A node
//   with subgraphs has them processed (recursively, each with its own rounds)
//   the first time it is visited, before its own passes run.
//   After each pass the driver reads the pass's records (node_pass.h):
//     deleted        never visited again; the remaining passes skip a
//                    deleted current node; nodes that left the graph some
//                    other way are skipped too;
//     re-pass        a node already visited in this round (or new) is
//                    scheduled for the next round; one still pending in this
//                    round is left alone (it will be visited anyway);
//     immediate      a node already visited in this round (or new) is queued
//                    to be visited again right after the current node (in
//                    request order), so every pass sees it in this round; a
//                    pending one is left alone.
//   Round k > 1 visits the nodes scheduled during round k - 1 that still
//   exist, in the current StableTopologicalOrder. It stops when nothing is
//   scheduled.
//   Bounds (a pass that keeps asking is a bug): more than max_rounds rounds,
//   or one node visited more than max_visits_per_node_per_round times in a
//   round, is an Internal error naming the graph, the pass(es) that kept
//   asking and some of the nodes.
//   Returns true when any pass changed the graph.
//
// Example
//   CastRemovePass cast_remove;
//   ReshapeRemovePass reshape_remove;
//   GEPass::NamesToPass passes = {{"CastRemovePass", &cast_remove},
//                                 {"ReshapeRemovePass", &reshape_remove}};
//   ASSIGN_OR_RETURN(bool changed, GEPass(graph).Run(passes));
//
//   // or, inside a pipeline:
//   auto& group = pm.AddPass<NodePassGroup>("NodeSimplify");
//   group.AddPass<CastRemovePass>();
#ifndef COMPILER_PASSES_PASS_FRAMEWORK_GE_PASS_H_
#define COMPILER_PASSES_PASS_FRAMEWORK_GE_PASS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "compiler/passes/pass_framework/node_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

struct GEPassOptions {
  int32_t max_rounds = 64;
  int32_t max_visits_per_node_per_round = 64;
  bool include_subgraphs = true;
  // Registered names of node passes to skip.
  std::set<std::string> disabled_passes;

  // disabled_passes from "ge.disabledPasses" (pass_options.h); the rest
  // default.
  static GEPassOptions FromOptions(const std::map<std::string, std::string>& options);
};

struct GEPassStats {
  int32_t graphs = 0;      // graphs processed (root and subgraphs)
  int32_t max_rounds = 0;  // most rounds any one graph needed
  int64_t node_visits = 0;
  int64_t pass_runs = 0;
};

class GEPass {
 public:
  // GE's NamesToPass: (registered name, pass); passes are not owned.
  using NamesToPass = std::vector<std::pair<std::string, BaseNodePass*>>;

  explicit GEPass(ComputeGraphPtr graph, GEPassOptions options = GEPassOptions());

  // ParamInvalid for a null graph or pass.
  [[nodiscard]] StatusOr<bool> Run(const NamesToPass& names_to_passes);

  const GEPassStats& stats() const { return stats_; }

 private:
  Status RunOneGraph(const ComputeGraphPtr& graph, const NamesToPass& passes);
  Status RunSubgraphsOf(const Node& node, const NamesToPass& passes);

  ComputeGraphPtr graph_;
  GEPassOptions options_;
  GEPassStats stats_;
  bool changed_ = false;
  absl::flat_hash_set<const ComputeGraph*> processed_graphs_;
};

// GE's spelling at namespace level.
using NamesToPass = GEPass::NamesToPass;

// A GraphPass running its node passes (in AddPass order) through GEPass.
// When every enabled pass lists TargetTypes() and the graph tree has no
// node of those types (GraphTreeHasAnyType), the traversal is skipped.
class NodePassGroup : public GraphPass {
 public:
  explicit NodePassGroup(std::string name, GEPassOptions options = GEPassOptions());

  absl::string_view name() const override { return name_; }
  // Takes settings.disabled_passes as the disabled node passes.
  void Configure(const PassSettings& settings) override {
    options_.disabled_passes = settings.disabled_passes;
  }

  // ParamInvalid for a null pass or an empty name.
  Status AddPass(std::string name, std::unique_ptr<BaseNodePass> pass);
  // Constructs a T(args...) registered under T's name(); returns it.
  template <typename T, typename... Args>
  T& AddPass(Args&&... args) {
    auto pass = std::make_unique<T>(std::forward<Args>(args)...);
    T& ref = *pass;
    std::string pass_name(ref.name());
    passes_.emplace_back(std::move(pass_name), std::move(pass));
    return ref;
  }

  size_t size() const { return passes_.size(); }
  GEPassOptions& mutable_options() { return options_; }
  const GEPassStats& last_stats() const { return last_stats_; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  std::string name_;
  GEPassOptions options_;
  std::vector<std::pair<std::string, std::unique_ptr<BaseNodePass>>> passes_;
  GEPassStats last_stats_;
};

}  // namespace ge

#endif  // COMPILER_PASSES_PASS_FRAMEWORK_GE_PASS_H_
