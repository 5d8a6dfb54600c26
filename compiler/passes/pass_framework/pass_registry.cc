// Implementation of compiler/passes/pass_framework/pass_registry.h.
#include "compiler/passes/pass_framework/pass_registry.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/strings/str_join.h"

namespace ge {

PassRegistry& PassRegistry::Instance() {
  static PassRegistry* const registry = new PassRegistry();
  return *registry;
}

namespace {

template <typename Map, typename Factory>
Status Insert(Map* map, std::string name, Factory factory, bool taken, const char* kind) {
  if (name.empty()) return ParamInvalid("PassRegistry: a ", kind, " pass needs a name");
  if (!factory) return ParamInvalid("PassRegistry: ", kind, " pass '", name, "' has no factory");
  if (taken) return AlreadyExists("PassRegistry: pass '", name, "' is registered twice");
  map->emplace(std::move(name), std::move(factory));
  return OkStatus();
}

template <typename Map>
std::vector<std::string> Keys(const Map& map) {
  std::vector<std::string> out;
  out.reserve(map.size());
  for (const auto& [name, factory] : map) out.push_back(name);
  return out;
}

}  // namespace

Status PassRegistry::RegisterGraphPass(std::string name, GraphPassFactory factory) {
  const bool taken = HasGraphPass(name) || HasNodePass(name);
  return Insert(&graph_passes_, std::move(name), std::move(factory), taken, "graph");
}

Status PassRegistry::RegisterNodePass(std::string name, NodePassFactory factory) {
  const bool taken = HasGraphPass(name) || HasNodePass(name);
  return Insert(&node_passes_, std::move(name), std::move(factory), taken, "node");
}

bool PassRegistry::HasGraphPass(absl::string_view name) const {
  return graph_passes_.find(name) != graph_passes_.end();
}

bool PassRegistry::HasNodePass(absl::string_view name) const {
  return node_passes_.find(name) != node_passes_.end();
}

StatusOr<std::unique_ptr<GraphPass>> PassRegistry::CreateGraphPass(
    absl::string_view name, const PassSettings& settings) const {
  auto it = graph_passes_.find(name);
  if (it == graph_passes_.end()) {
    return NotFound("no graph pass named '", name,
                    "'; graph passes: ", absl::StrJoin(GraphPassNames(), ", "),
                    "; node passes: ", absl::StrJoin(NodePassNames(), ", "));
  }
  std::unique_ptr<GraphPass> pass = it->second();
  if (pass == nullptr || pass->name() != name) {
    return Internal("pass registered as '", name, "' is named '",
                    pass == nullptr ? "" : pass->name(), "'");
  }
  pass->Configure(settings);
  return pass;
}

StatusOr<std::unique_ptr<BaseNodePass>> PassRegistry::CreateNodePass(absl::string_view name) const {
  auto it = node_passes_.find(name);
  if (it == node_passes_.end()) {
    return NotFound("no node pass named '", name,
                    "'; node passes: ", absl::StrJoin(NodePassNames(), ", "));
  }
  std::unique_ptr<BaseNodePass> pass = it->second();
  if (pass == nullptr || pass->name() != name) {
    return Internal("node pass registered as '", name, "' is named '",
                    pass == nullptr ? "" : pass->name(), "'");
  }
  return pass;
}

std::vector<std::string> PassRegistry::GraphPassNames() const { return Keys(graph_passes_); }
std::vector<std::string> PassRegistry::NodePassNames() const { return Keys(node_passes_); }

namespace pass_registry_internal {

namespace {
void CheckRegistered(const Status& st) {
  if (st.ok()) return;
  std::fprintf(stderr, "%s\n", st.ToString().c_str());
  std::abort();
}
}  // namespace

GraphPassRegistrar::GraphPassRegistrar(const char* name, PassRegistry::GraphPassFactory factory) {
  CheckRegistered(PassRegistry::Instance().RegisterGraphPass(name, std::move(factory)));
}

NodePassRegistrar::NodePassRegistrar(const char* name, PassRegistry::NodePassFactory factory) {
  CheckRegistered(PassRegistry::Instance().RegisterNodePass(name, std::move(factory)));
}

}  // namespace pass_registry_internal
}  // namespace ge
