// compiler/passes/pass_framework/pass_fix.h
//
// PassFix<T>: runs the GraphPass T (a single pass or a PassManager pipeline)
// until it reports no change: XLA's HloPassFix, with a hard cap.
//
// Contract
//   * name() is T's name (disabling T disables the loop); Configure goes to T.
//   * Run returns true when any iteration changed the graph.
//   * An iteration error stops the loop and is returned.
//   * When the pass still reports a change on iteration max_iterations(),
//     Run fails with Internal: "pass 'T' did not reach a fixed point after N
//     iterations" (a pass that flip-flops or always says "changed" is a bug;
//     silently stopping would hide it).
//   * last_iterations() is the number of iterations of the last Run.
//
// Example
//   auto& fix = pm.AddPass<PassFix<PassManager>>("simplify");
//   fix.pass().AddPass<ConstantFuseSamePass>();
//   fix.pass().AddPass<CommonSubexpressionEliminationPass>();
//   fix.set_max_iterations(10);
#ifndef COMPILER_PASSES_PASS_FRAMEWORK_PASS_FIX_H_
#define COMPILER_PASSES_PASS_FRAMEWORK_PASS_FIX_H_

#include <cstdint>
#include <type_traits>
#include <utility>

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

template <typename T>
class PassFix : public GraphPass {
  static_assert(std::is_base_of_v<GraphPass, T>, "PassFix<T> needs a GraphPass T");

 public:
  static constexpr int32_t kDefaultMaxIterations = 25;

  template <typename... Args>
  explicit PassFix(Args&&... args) : pass_(std::forward<Args>(args)...) {}

  absl::string_view name() const override { return pass_.name(); }
  void Configure(const PassSettings& settings) override { pass_.Configure(settings); }

  T& pass() { return pass_; }
  const T& pass() const { return pass_; }
  int32_t max_iterations() const { return max_iterations_; }
  // Values below 1 are taken as 1.
  void set_max_iterations(int32_t n) { max_iterations_ = n < 1 ? 1 : n; }
  int32_t last_iterations() const { return last_iterations_; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override {
    bool changed = false;
    last_iterations_ = 0;
    while (last_iterations_ < max_iterations_) {
      ++last_iterations_;
      StatusOr<bool> result = pass_.Run(graph);
      if (!result.ok()) return result.status();
      if (!*result) return changed;
      changed = true;
    }
    return Internal("pass '", name(), "' did not reach a fixed point after ", max_iterations_,
                    " iterations (the last one still changed the graph)");
  }

 private:
  T pass_;
  int32_t max_iterations_ = kDefaultMaxIterations;
  int32_t last_iterations_ = 0;
};

}  // namespace ge

#endif  // COMPILER_PASSES_PASS_FRAMEWORK_PASS_FIX_H_
