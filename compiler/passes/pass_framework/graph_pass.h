// compiler/passes/pass_framework/graph_pass.h
//
// GraphPass: a pass over a whole graph (seed 002, section 2.1), in XLA's
// HloPassInterface shape: a public non-virtual Run(graph) returning
// StatusOr<bool> ("the graph changed") over a protected virtual RunImpl,
// plus a name() used by PassManager for ordering records, disabling
// (option "ge.disabledPasses") and error messages.
//
// Contract
//   * Run(nullptr) is ParamInvalid; otherwise RunImpl runs and its error, if
//     any, comes back prefixed with "pass '<name>' on graph '<graph>': ".
//   * RunImpl returns true iff it changed the graph (nodes, edges, descs or
//     attributes). Returning false after a change breaks PassFix and the
//     dump / verify bookkeeping; returning true without one makes PassFix
//     spin until its cap.
//   * A pass must leave the graph valid for GraphVerifier.
//   * Passes are not thread-safe; run one pass object on one graph at a time.
//   * Configure(settings) may be called before any Run; a pass keeps what it
//     reads until the next Configure.
//
// Example
//   class MyPass : public GraphPass {
//    public:
//     absl::string_view name() const override { return "MyPass"; }
//    protected:
//     StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override { ... }
//   };
//   ASSIGN_OR_RETURN(bool changed, MyPass().Run(graph));
#ifndef COMPILER_PASSES_PASS_FRAMEWORK_GRAPH_PASS_H_
#define COMPILER_PASSES_PASS_FRAMEWORK_GRAPH_PASS_H_

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/pass_settings.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class GraphPass {
 public:
  GraphPass() = default;
  GraphPass(const GraphPass&) = delete;
  GraphPass& operator=(const GraphPass&) = delete;
  virtual ~GraphPass() = default;

  virtual absl::string_view name() const = 0;

  // Takes the typed options it reads (pass_settings.h) before a run;
  // composite passes forward them to their parts. Default: none to read.
  virtual void Configure(const PassSettings& settings) { (void)settings; }

  // Runs the pass; true when the graph changed.
  [[nodiscard]] StatusOr<bool> Run(const ComputeGraphPtr& graph);

 protected:
  virtual StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) = 0;
};

}  // namespace ge

#endif  // COMPILER_PASSES_PASS_FRAMEWORK_GRAPH_PASS_H_
