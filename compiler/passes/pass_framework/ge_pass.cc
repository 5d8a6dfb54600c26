// compiler/passes/pass_framework/ge_pass.cc
#include "compiler/passes/pass_framework/ge_pass.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/passes/pass_framework/pass_options.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"

namespace ge {
namespace {

constexpr size_t kMaxNamesInError = 8;

std::string NameList(const std::vector<NodePtr>& nodes) {
  std::vector<std::string> names;
  for (const NodePtr& n : nodes) {
    if (names.size() == kMaxNamesInError) {
      names.push_back(absl::StrCat("... (", nodes.size(), " in all)"));
      break;
    }
    names.push_back("'" + n->GetName() + "'");
  }
  return absl::StrJoin(names, ", ");
}

std::string PassList(const std::set<std::string>& passes) {
  std::vector<std::string> names;
  for (const std::string& p : passes) names.push_back("'" + p + "'");
  return absl::StrJoin(names, ", ");
}

}  // namespace

GEPassOptions GEPassOptions::FromOptions(const std::map<std::string, std::string>& options) {
  GEPassOptions out;
  out.disabled_passes = ParseDisabledPasses(options);
  return out;
}

GEPass::GEPass(ComputeGraphPtr graph, GEPassOptions options)
    : graph_(std::move(graph)), options_(std::move(options)) {}

StatusOr<bool> GEPass::Run(const NamesToPass& names_to_passes) {
  if (graph_ == nullptr) return ParamInvalid("GEPass: cannot run on a null graph");
  for (const auto& [name, pass] : names_to_passes) {
    if (pass == nullptr) return ParamInvalid("GEPass: node pass '", name, "' is null");
  }
  stats_ = GEPassStats();
  changed_ = false;
  processed_graphs_.clear();
  RETURN_IF_ERROR(RunOneGraph(graph_, names_to_passes));
  return changed_;
}

Status GEPass::RunSubgraphsOf(const Node& node, const NamesToPass& passes) {
  const ComputeGraph* owner = node.GetOwnerComputeGraphBarePtr();
  if (owner == nullptr) return OkStatus();
  for (const std::string& inst : node.GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
    if (inst.empty()) continue;
    ComputeGraphPtr sub = owner->GetSubgraph(inst);
    if (sub == nullptr || sub->GetParentNode().get() != &node) continue;
    if (processed_graphs_.contains(sub.get())) continue;
    RETURN_IF_ERROR(RunOneGraph(sub, passes));
  }
  return OkStatus();
}

Status GEPass::RunOneGraph(const ComputeGraphPtr& graph, const NamesToPass& passes) {
  processed_graphs_.insert(graph.get());
  ++stats_.graphs;
  StatusOr<std::vector<NodePtr>> first = StableTopologicalOrder(*graph);
  if (!first.ok()) {
    return Annotate(first.status(), "GEPass on graph '", graph->GetName(), "': ");
  }
  std::vector<NodePtr> order = std::move(first).value();

  // The enabled passes, resolved once.
  std::vector<std::pair<const std::string*, BaseNodePass*>> enabled;
  enabled.reserve(passes.size());
  for (const auto& [pass_name, pass] : passes) {
    if (options_.disabled_passes.count(pass_name) == 0) enabled.emplace_back(&pass_name, pass);
  }

  // Deleted nodes stay referenced so that their addresses are not reused
  // by new nodes while the driver still looks them up.
  absl::flat_hash_map<const Node*, NodePtr> deleted;
  auto is_gone = [&](const NodePtr& n) {
    return !graph->HasNode(n) || (!deleted.empty() && deleted.contains(n.get()));
  };
  auto where = [&graph]() { return absl::StrCat("GEPass on graph '", graph->GetName(), "': "); };

  // Everything below but the walk over `order` is only touched when a pass
  // asks for a re-pass (rare), so a round without requests allocates nothing
  // per node.
  for (int32_t round = 1;; ++round) {
    stats_.max_rounds = std::max(stats_.max_rounds, round);
    // Position in `order` of each node of this round, built on first need.
    absl::flat_hash_map<const Node*, size_t> position;
    size_t next_index = 0;  // order[next_index..] are still pending
    // Nodes queued to be visited right after the current one (back = next).
    std::vector<NodePtr> front;
    // Visits through `front` this round, and who asked.
    absl::flat_hash_map<const Node*, int32_t> extra_visits;
    absl::flat_hash_map<const Node*, std::string> immediate_by;
    std::vector<NodePtr> next;
    absl::flat_hash_map<const Node*, std::set<std::string>> next_by;

    auto ensure_positions = [&]() {
      if (!position.empty() || order.empty()) return;
      position.reserve(order.size());
      for (size_t i = 0; i < order.size(); ++i) position.emplace(order[i].get(), i);
    };
    // Pending: still ahead in `order`, or queued in `front`.
    auto is_pending = [&](const Node* n) {
      for (const NodePtr& f : front) {
        if (f.get() == n) return true;
      }
      ensure_positions();
      auto it = position.find(n);
      return it != position.end() && it->second >= next_index;
    };

    std::vector<NodePtr> immediate;
    while (!front.empty() || next_index < order.size()) {
      NodePtr node;
      bool from_front = false;
      if (!front.empty()) {
        node = std::move(front.back());
        front.pop_back();
        from_front = true;
      } else {
        node = order[next_index++];
      }
      if (is_gone(node)) continue;
      if (from_front) {
        ensure_positions();
        auto it = position.find(node.get());
        // The visit in `order` happened before (it is no longer pending).
        const int32_t base = (it != position.end() && it->second < next_index) ? 1 : 0;
        const int32_t visits = base + ++extra_visits[node.get()];
        if (visits > options_.max_visits_per_node_per_round) {
          return Internal(where(), "node '", node->GetName(), "' was visited more than ",
                          options_.max_visits_per_node_per_round, " times in round ", round,
                          "; pass '", immediate_by[node.get()],
                          "' keeps asking for an immediate re-pass");
        }
      } else if (options_.max_visits_per_node_per_round < 1) {
        return Internal(where(), "node '", node->GetName(), "' was visited more than ",
                        options_.max_visits_per_node_per_round, " times in round ", round);
      }
      ++stats_.node_visits;
      if (options_.include_subgraphs &&
          !node->GetOpDescBarePtr()->GetSubgraphInstanceNames().empty()) {
        RETURN_IF_ERROR(RunSubgraphsOf(*node, passes));
      }

      immediate.clear();
      for (const auto& [pass_name, pass] : enabled) {
        if (is_gone(node)) break;
        ++stats_.pass_runs;
        Status st = pass->Run(node);
        if (!st.ok()) return Annotate(st, where());
        changed_ = changed_ || pass->changed();
        for (const NodePtr& d : pass->GetNodesDeleted()) deleted.emplace(d.get(), d);
        for (const NodePtr& n : pass->GetNodesNeedRePass()) {
          if (is_gone(n) || n->GetOwnerComputeGraphBarePtr() != graph.get()) continue;
          if (is_pending(n.get())) continue;
          auto [by, fresh] = next_by.try_emplace(n.get());
          if (fresh) next.push_back(n);
          by->second.insert(*pass_name);
        }
        for (const NodePtr& n : pass->GetNodesNeedRePassImmediately()) {
          if (is_gone(n) || n->GetOwnerComputeGraphBarePtr() != graph.get()) continue;
          if (is_pending(n.get())) continue;
          bool dup = false;
          for (const NodePtr& m : immediate) dup = dup || m == n;
          if (!dup) immediate.push_back(n);
          immediate_by[n.get()] = *pass_name;
        }
      }
      // Visited next in request order: the first request ends up on top.
      for (auto it = immediate.rbegin(); it != immediate.rend(); ++it) {
        if (is_gone(*it)) continue;
        front.push_back(*it);
      }
    }

    std::vector<NodePtr> scheduled;
    for (const NodePtr& n : next) {
      if (!is_gone(n)) scheduled.push_back(n);
    }
    if (scheduled.empty()) return OkStatus();
    if (round >= options_.max_rounds) {
      std::set<std::string> askers;
      for (const NodePtr& n : scheduled) {
        const std::set<std::string>& by = next_by[n.get()];
        askers.insert(by.begin(), by.end());
      }
      return Internal(where(), "node passes did not converge after ", options_.max_rounds,
                      " rounds: pass(es) ", PassList(askers), " still ask to re-pass ",
                      NameList(scheduled));
    }
    StatusOr<std::vector<NodePtr>> full = StableTopologicalOrder(*graph);
    if (!full.ok()) return Annotate(full.status(), where(), "after round ", round, ": ");
    absl::flat_hash_set<const Node*> wanted;
    for (const NodePtr& n : scheduled) wanted.insert(n.get());
    order.clear();
    for (NodePtr& n : *full) {
      if (wanted.contains(n.get())) order.push_back(std::move(n));
    }
  }
}

// ------------------------------------------------------------ NodePassGroup

NodePassGroup::NodePassGroup(std::string name, GEPassOptions options)
    : name_(std::move(name)), options_(std::move(options)) {}

Status NodePassGroup::AddPass(std::string name, std::unique_ptr<BaseNodePass> pass) {
  if (pass == nullptr)
    return ParamInvalid("node pass group '", name_, "': pass '", name, "' is null");
  if (name.empty()) {
    return ParamInvalid("node pass group '", name_, "': a pass (", pass->name(),
                        ") needs a non-empty name");
  }
  passes_.emplace_back(std::move(name), std::move(pass));
  return OkStatus();
}

StatusOr<bool> NodePassGroup::RunImpl(const ComputeGraphPtr& graph) {
  // Nothing to do when every enabled pass targets types the graph lacks.
  bool may_apply = false;
  bool any_enabled = false;
  for (const auto& [pass_name, pass] : passes_) {
    if (options_.disabled_passes.count(pass_name) != 0) continue;
    any_enabled = true;
    const absl::Span<const char* const> types = pass->TargetTypes();
    if (types.empty() || GraphTreeHasAnyType(*graph, types)) {
      may_apply = true;
      break;
    }
  }
  if (any_enabled && !may_apply) {
    last_stats_ = GEPassStats();
    return false;
  }
  GEPass::NamesToPass names_to_passes;
  for (const auto& [pass_name, pass] : passes_) names_to_passes.emplace_back(pass_name, pass.get());
  GEPass driver(graph, options_);
  StatusOr<bool> changed = driver.Run(names_to_passes);
  last_stats_ = driver.stats();
  return changed;
}

}  // namespace ge
