// compiler/passes/pass_framework/pass_registry.h
//
// PassRegistry: every built-in pass by name. A pass registers itself from its
// own .cc file under its class name (the name its name() returns), as a graph
// pass (GraphPass) or a node pass (BaseNodePass, run inside a NodePassGroup's
// single GEPass traversal). The compile stages build their pipelines from
// lists of these names (compiler/stages/stage_pass_lists.h), ge_opt runs the
// passes a user names, and ge.disabledPasses / dumps use the same names.
//
// Contract
//   * Register* fail with AlreadyExists for a name taken by either kind and
//     ParamInvalid for an empty name or a null factory.
//   * Create* return a new pass configured with `settings`
//     (GraphPass::Configure); NotFound naming the known passes for an unknown
//     name; Internal when the created pass's name() differs from the name it
//     was registered under (a pass's name is its class's name).
//   * Registration happens during static initialisation (the pass targets
//     are alwayslink); lookups are read-only afterwards and thread-safe.
//
// Example
//   // dead_code_elimination_pass.cc
//   GE_REGISTER_GRAPH_PASS(DeadCodeEliminationPass);
//   // a caller
//   ASSIGN_OR_RETURN(std::unique_ptr<GraphPass> dce,
//                    PassRegistry::Instance().CreateGraphPass("DeadCodeEliminationPass"));
//   ASSIGN_OR_RETURN(bool changed, dce->Run(graph));
#ifndef COMPILER_PASSES_PASS_FRAMEWORK_PASS_REGISTRY_H_
#define COMPILER_PASSES_PASS_FRAMEWORK_PASS_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "compiler/passes/pass_framework/node_pass.h"
#include "compiler/passes/pass_framework/pass_settings.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class PassRegistry {
 public:
  using GraphPassFactory = std::function<std::unique_ptr<GraphPass>()>;
  using NodePassFactory = std::function<std::unique_ptr<BaseNodePass>()>;

  static PassRegistry& Instance();

  Status RegisterGraphPass(std::string name, GraphPassFactory factory);
  Status RegisterNodePass(std::string name, NodePassFactory factory);

  bool HasGraphPass(absl::string_view name) const;
  bool HasNodePass(absl::string_view name) const;

  StatusOr<std::unique_ptr<GraphPass>> CreateGraphPass(
      absl::string_view name, const PassSettings& settings = PassSettings()) const;
  StatusOr<std::unique_ptr<BaseNodePass>> CreateNodePass(absl::string_view name) const;

  // Sorted names of each kind.
  std::vector<std::string> GraphPassNames() const;
  std::vector<std::string> NodePassNames() const;

 private:
  std::map<std::string, GraphPassFactory, std::less<>> graph_passes_;
  std::map<std::string, NodePassFactory, std::less<>> node_passes_;
};

namespace pass_registry_internal {
// Registers at static initialisation; a failed registration (a duplicate
// name) is a programming error reported on stderr and aborts.
struct GraphPassRegistrar {
  GraphPassRegistrar(const char* name, PassRegistry::GraphPassFactory factory);
};
struct NodePassRegistrar {
  NodePassRegistrar(const char* name, PassRegistry::NodePassFactory factory);
};
}  // namespace pass_registry_internal

}  // namespace ge

// Registers the default-constructed pass class `Class` under its own name.
#define GE_REGISTER_GRAPH_PASS(Class)                                                            \
  static const ::ge::pass_registry_internal::GraphPassRegistrar ge_graph_pass_registrar_##Class( \
      #Class, []() -> std::unique_ptr<::ge::GraphPass> { return std::make_unique<Class>(); })
#define GE_REGISTER_NODE_PASS(Class)                                                           \
  static const ::ge::pass_registry_internal::NodePassRegistrar ge_node_pass_registrar_##Class( \
      #Class, []() -> std::unique_ptr<::ge::BaseNodePass> { return std::make_unique<Class>(); })

#endif  // COMPILER_PASSES_PASS_FRAMEWORK_PASS_REGISTRY_H_
