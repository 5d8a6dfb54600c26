// compiler/passes/pass_framework/pass_manager.h
//
// PassManager: an ordered pipeline of GraphPasses (seed 002, section 2.1; XLA's
// HloPassPipeline). Callers register passes with AddPass(name, pass) or
// AddPass<T>(args...) and Run(graph) runs them in registration order. A
// PassManager is itself a GraphPass, so pipelines nest and can be wrapped in
// PassFix.
//
// Run(graph)
//   1. When options.verify: GraphVerifier checks the input graph (an invalid
//      input is reported as such, not blamed on the first pass).
//   2. For each registered pass, in order:
//        * skipped when its registered name is in options.disabled_passes
//          (recorded with ran = false);
//        * run; its error stops the pipeline (the message names the pass);
//        * when options.verify: the graph is verified; a failure is
//          GraphInvalid / GraphCycle "graph 'g' is invalid after pass 'P': ...";
//        * when options.dump_hook is set it is called with (graph, pass name,
//          changed); its error stops the pipeline.
//   3. Returns true when any pass changed the graph.
//   The outermost running pipeline (or CompilerStages::Compile) keeps a
//   TopoOrderCache (topo_order.h): passes that change nothing share one
//   topological order and graph facts; after a pass that reports a change
//   the cache is cleared and the graph edit epoch advanced.
//   last_run() lists what happened to each pass in the last Run.
//
// Options
//   verify defaults to VerifyPassesByDefault(): true in builds without
//   NDEBUG (Bazel's default fastbuild) and under `bazel test` in any build,
//   false in optimised production runs.
//   dump_hook is where a dump helper plugs in, e.g.
//     options.dump_hook = [](const ComputeGraph& g, absl::string_view pass, bool) {
//       return GraphDumper::DumpIfEnabled(g, absl::StrCat("After", pass));
//     };
//   FromOptions(map) reads "ge.disabledPasses" (see pass_options.h).
//
// Example
//   PassManager pm("stage1", PassManagerOptions::FromOptions(session_options));
//   pm.AddPass<DeadCodeEliminationPass>();
//   RETURN_IF_ERROR(pm.AddPass("MyPass", std::make_unique<MyPass>()));
//   ASSIGN_OR_RETURN(bool changed, pm.Run(graph));
#ifndef COMPILER_PASSES_PASS_FRAMEWORK_PASS_MANAGER_H_
#define COMPILER_PASSES_PASS_FRAMEWORK_PASS_MANAGER_H_

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "compiler/passes/pass_framework/graph_verifier.h"
#include "compiler/passes/pass_framework/pass_options.h"
#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// True in builds without NDEBUG, and in any build when running under
// `bazel test` (TEST_TMPDIR is set): verification is on in debug and test
// runs, off in optimised production runs.
bool VerifyPassesByDefault();

struct PassManagerOptions {
  // Registered pass names to skip.
  std::set<std::string> disabled_passes;
  // Verify the graph before the first pass and after every pass.
  bool verify = VerifyPassesByDefault();
  GraphVerifierOptions verifier_options;
  // Called after every pass that ran (the dump helper lives elsewhere).
  std::function<Status(const ComputeGraph& graph, absl::string_view pass_name, bool changed)>
      dump_hook;

  // disabled_passes from "ge.disabledPasses"; the rest default.
  static PassManagerOptions FromOptions(const std::map<std::string, std::string>& options);
};

// What happened to one registered pass in the last Run.
struct PassRunRecord {
  std::string name;
  bool ran = false;  // false: disabled
  bool changed = false;
};

class PassManager : public GraphPass {
 public:
  explicit PassManager(std::string name = "PassManager",
                       PassManagerOptions options = PassManagerOptions());

  absl::string_view name() const override { return name_; }
  // Takes settings.disabled_passes as options().disabled_passes and hands
  // the settings to every registered pass.
  void Configure(const PassSettings& settings) override;

  // GE's AddPass: takes ownership. ParamInvalid for a null pass or an empty
  // name. The same name may be registered more than once (e.g. two DCE runs);
  // disabling a name disables every pass registered under it.
  Status AddPass(std::string name, std::unique_ptr<GraphPass> pass);

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
  std::vector<std::string> pass_names() const;
  const PassManagerOptions& options() const { return options_; }
  PassManagerOptions& mutable_options() { return options_; }
  const std::vector<PassRunRecord>& last_run() const { return last_run_; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  std::string name_;
  PassManagerOptions options_;
  std::vector<std::pair<std::string, std::unique_ptr<GraphPass>>> passes_;
  std::vector<PassRunRecord> last_run_;
};

}  // namespace ge

#endif  // COMPILER_PASSES_PASS_FRAMEWORK_PASS_MANAGER_H_
