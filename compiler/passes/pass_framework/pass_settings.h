// compiler/passes/pass_framework/pass_settings.h
//
// PassSettings: the typed options a pass reads, set by whoever runs it (the
// compile stages derive them from CompileOptions, ge_opt from its flags).
// GraphPass::Configure hands them to a pass before it runs; a pass picks the
// fields it understands and ignores the rest, and composite passes (pass
// managers, node-pass groups, fixed points) forward them to their parts.
//
// Example
//   PassSettings settings;
//   settings.constant_folding_max_bytes = 1 << 20;
//   settings.disabled_passes = {"CastRemovePass"};
//   pass.Configure(settings);
//   ASSIGN_OR_RETURN(bool changed, pass.Run(graph));
#ifndef COMPILER_PASSES_PASS_FRAMEWORK_PASS_SETTINGS_H_
#define COMPILER_PASSES_PASS_FRAMEWORK_PASS_SETTINGS_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace ge {

struct PassSettings {
  // ge.disabledPasses: registered pass names to skip, at any nesting depth.
  std::set<std::string> disabled_passes;
  // ge.constantFoldingMaxBytes: outputs larger than this are not folded.
  int64_t constant_folding_max_bytes = int64_t{64} << 20;
  // Shape inference keeps a node's descs when its inference fails instead of
  // failing the pass (the compile pipeline: executors infer at run time).
  bool lenient_infer = false;
  // ge.exec.precision_mode ("" = must_keep_origin_dtype) and the keep_dtype
  // entries (RefineRunningPrecisionPass).
  std::string precision_mode;
  std::vector<std::string> keep_dtype;
};

}  // namespace ge

#endif  // COMPILER_PASSES_PASS_FRAMEWORK_PASS_SETTINGS_H_
