// compiler/passes/pass_framework/pass_manager.cc
#include "compiler/passes/pass_framework/pass_manager.h"

#include <cstdlib>
#include <memory>

#include "compiler/passes/pass_framework/topo_order.h"

namespace ge {

bool VerifyPassesByDefault() {
#ifndef NDEBUG
  return true;
#else
  return std::getenv("TEST_TMPDIR") != nullptr;
#endif
}

PassManagerOptions PassManagerOptions::FromOptions(
    const std::map<std::string, std::string>& options) {
  PassManagerOptions out;
  out.disabled_passes = ParseDisabledPasses(options);
  return out;
}

PassManager::PassManager(std::string name, PassManagerOptions options)
    : name_(std::move(name)), options_(std::move(options)) {}

Status PassManager::AddPass(std::string name, std::unique_ptr<GraphPass> pass) {
  if (pass == nullptr) {
    return ParamInvalid("pipeline '", name_, "': pass '", name, "' is null");
  }
  if (name.empty()) {
    return ParamInvalid("pipeline '", name_, "': a pass (", pass->name(),
                        ") needs a non-empty name");
  }
  passes_.emplace_back(std::move(name), std::move(pass));
  return OkStatus();
}

std::vector<std::string> PassManager::pass_names() const {
  std::vector<std::string> names;
  names.reserve(passes_.size());
  for (const auto& entry : passes_) names.push_back(entry.first);
  return names;
}

void PassManager::Configure(const PassSettings& settings) {
  options_.disabled_passes = settings.disabled_passes;
  for (auto& [pass_name, pass] : passes_) pass->Configure(settings);
}

StatusOr<bool> PassManager::RunImpl(const ComputeGraphPtr& graph) {
  last_run_.clear();
  // Topological orders are reused between passes that change nothing (the
  // outermost pipeline owns the cache).
  std::unique_ptr<TopoOrderCache> own_cache;
  std::unique_ptr<TopoOrderCache::Scope> scope;
  if (TopoOrderCache::Current() == nullptr) {
    own_cache = std::make_unique<TopoOrderCache>();
    scope = std::make_unique<TopoOrderCache::Scope>(own_cache.get());
  }
  if (options_.verify) {
    RETURN_IF_ERROR(Annotate(GraphVerifier::Verify(*graph, options_.verifier_options),
                             "the input graph is invalid: "));
  }
  bool changed = false;
  for (const auto& [pass_name, pass] : passes_) {
    PassRunRecord record;
    record.name = pass_name;
    if (options_.disabled_passes.count(pass_name) != 0) {
      last_run_.push_back(record);
      continue;
    }
    StatusOr<bool> result = pass->Run(graph);
    if (!result.ok()) return result.status();
    record.ran = true;
    record.changed = *result;
    last_run_.push_back(record);
    changed = changed || *result;
    if (*result) {
      // The pass may have edited the graph without the rewriter.
      NoteGraphEdit();
      if (TopoOrderCache* cache = TopoOrderCache::Current()) cache->Clear();
    }
    if (options_.verify) {
      RETURN_IF_ERROR(Annotate(GraphVerifier::Verify(*graph, options_.verifier_options), "graph '",
                               graph->GetName(), "' is invalid after pass '", pass_name, "': "));
    }
    if (options_.dump_hook) {
      RETURN_IF_ERROR(Annotate(options_.dump_hook(*graph, pass_name, *result), "dump after pass '",
                               pass_name, "': "));
    }
  }
  return changed;
}

}  // namespace ge
