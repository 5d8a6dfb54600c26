// The known `ge.*` session / graph options: a table of (name, type,
// range or allowed values, default, description), validation, and the
// conversion to CompileOptions for the CompilerStages.
//
// Contract: ValidateOptions() rejects an unknown option name (ParamInvalid
// naming it) and a value of the wrong type, out of range or not among the
// allowed values (ParamInvalid naming the option, the value and what is
// allowed). Empty values of string options are accepted.
//
// Example:
//   RETURN_IF_ERROR(ValidateOptions({{"ge.topoSortingMode", "2"}}));
//   ASSIGN_OR_RETURN(CompileOptions c, ToCompileOptions(merged));
#ifndef COMPILER_MANAGER_SESSION_OPTIONS_H_
#define COMPILER_MANAGER_SESSION_OPTIONS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "compiler/stages/compiler_stages.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

inline constexpr char kOptGraphRunMode[] = "ge.graphRunMode";
inline constexpr char kOptPrecisionMode[] = "ge.exec.precision_mode";
// A file of node names / "OpType::<type>" lines kept in their data type
// under the precision modes (atc --keep_dtype).
inline constexpr char kOptKeepDtype[] = "ge.keepDtype";
inline constexpr char kOptTopoSortingMode[] = "ge.topoSortingMode";
inline constexpr char kOptDisabledPasses[] = "ge.disabledPasses";
inline constexpr char kOptConstantFoldingMaxBytes[] = "ge.constantFoldingMaxBytes";
inline constexpr char kOptOpsProtoLibPath[] = "ge.opsProtoLibPath";
inline constexpr char kOptBuildMode[] = "ge.buildMode";
inline constexpr char kOptBuildStep[] = "ge.buildStep";
inline constexpr char kOptTuningPath[] = "ge.tuningPath";
inline constexpr char kOptTuningResumeFile[] = "ge.tuningResumeFile";
inline constexpr char kOptEnableSingleStream[] = "ge.enableSingleStream";
inline constexpr char kOptDisableReuseMemory[] = "ge.exec.disableReuseMemory";
inline constexpr char kOptInputShape[] = "ge.inputShape";
inline constexpr char kOptOutNodes[] = "ge.outNodes";
inline constexpr char kOptSocVersion[] = "ge.socVersion";
inline constexpr char kOptLowerControlFlow[] = "ge.lowerControlFlow";
// Whether nodes the compute engine's kernels accept are placed on it.
inline constexpr char kOptComputeEngine[] = "ge.computeEngine";
// Intra-op threads of the compute engine at load / run (0: one per core).
inline constexpr char kOptIntraOpThreads[] = "ge.exec.intraOpThreads";

enum class OptionType : int32_t {
  kString = 0,     // any text
  kInt = 1,        // decimal integer in [min_value, max_value]
  kBool = 2,       // "true" / "false"
  kEnum = 3,       // one of allowed_values
  kShapeList = 4,  // "name:d0,d1;name2:d0" (dims integers >= -2)
  kNodeList = 5,   // "node:out_index;node2:out_index" (":index" optional)
};

struct OptionSpec {
  std::string name;
  OptionType type = OptionType::kString;
  int64_t min_value = 0;
  int64_t max_value = 0;
  std::vector<std::string> allowed_values;  // kEnum
  std::string default_value;                // "" = unset
  std::string description;
};

// The table, in a fixed order.
const std::vector<OptionSpec>& KnownOptions();
// nullptr for an unknown name.
const OptionSpec* FindOption(absl::string_view name);

Status ValidateOption(absl::string_view name, absl::string_view value);
Status ValidateOptions(const std::map<std::string, std::string>& options);

// `overrides` on top of `base` (graph options over session options).
std::map<std::string, std::string> MergeOptions(
    const std::map<std::string, std::string>& base,
    const std::map<std::string, std::string>& overrides);

// The value of `name` in `options`, or its default.
std::string OptionOrDefault(const std::map<std::string, std::string>& options,
                            absl::string_view name);

// Validated options -> CompileOptions. ge.topoSortingMode unset: DFS for
// inference, BFS for training (ge.graphRunMode=1). ge.buildStep needs
// ge.buildMode=tuning (ParamInvalid otherwise). ge.constantFoldingMaxBytes,
// ge.inputShape, ge.outNodes and ge.lowerControlFlow are copied (the input
// shapes / out nodes are applied by GraphPrepare, see compiler_stages.h).
StatusOr<CompileOptions> ToCompileOptions(const std::map<std::string, std::string>& options);

}  // namespace ge

#endif  // COMPILER_MANAGER_SESSION_OPTIONS_H_
