// The ge.* options table; see session_options.h.
#include "compiler/manager/session_options.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/passes/pass_framework/pass_options.h"
#include "compiler/passes/refine_running_precision_pass.h"

namespace ge {
namespace {

OptionSpec Enum(std::string name, std::vector<std::string> allowed, std::string def,
                std::string desc) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = OptionType::kEnum;
  s.allowed_values = std::move(allowed);
  s.default_value = std::move(def);
  s.description = std::move(desc);
  return s;
}

OptionSpec Int(std::string name, int64_t lo, int64_t hi, std::string def, std::string desc) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = OptionType::kInt;
  s.min_value = lo;
  s.max_value = hi;
  s.default_value = std::move(def);
  s.description = std::move(desc);
  return s;
}

OptionSpec Other(std::string name, OptionType type, std::string def, std::string desc) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = type;
  s.default_value = std::move(def);
  s.description = std::move(desc);
  return s;
}

std::vector<OptionSpec> MakeTable() {
  std::vector<std::string> steps = BuildStepSpellings();
  return {
      Enum(kOptGraphRunMode, {"0", "1"}, "0", "0: inference, 1: training"),
      Enum(kOptPrecisionMode, PrecisionModeNames(), "must_keep_origin_dtype",
           "operator precision: the fp16 modes run in BF16 on this hardware"),
      Other(kOptKeepDtype, OptionType::kString, "",
            "file naming nodes (or OpType::<type>) that keep their data type"),
      Enum(kOptTopoSortingMode, {"0", "1", "2", "3"}, "",
           "0 BFS, 1 DFS, 2 RDFS, 3 StableRDFS; unset: DFS (inference) / BFS (training)"),
      Other(kOptDisabledPasses, OptionType::kString, "", "comma-separated pass names to skip"),
      Int(kOptConstantFoldingMaxBytes, 0, int64_t{1} << 40, "1048576",
          "largest constant (bytes) constant folding may create"),
      Other(kOptOpsProtoLibPath, OptionType::kString, "", "path of the op prototype library"),
      Enum(kOptBuildMode, {"normal", "tuning"}, "normal",
           "normal, or tuning (stop at ge.buildStep)"),
      Enum(kOptBuildStep, steps, "", "tuning break point: stop after this build step"),
      Other(kOptTuningPath, OptionType::kString, "",
            "directory for the graph written at a tuning break point"),
      Other(kOptTuningResumeFile, OptionType::kString, "",
            "break-point file to resume the build from (continues with the next step)"),
      Enum(kOptEnableSingleStream, {"true", "false"}, "false", "put every task on one stream"),
      Enum(kOptDisableReuseMemory, {"0", "1"}, "0", "1: no memory reuse between tensors"),
      Other(kOptInputShape, OptionType::kShapeList, "",
            "input shapes, \"name:d0,d1;name2:d0\" (-1 unknown dim, -2 unknown rank)"),
      Other(kOptOutNodes, OptionType::kNodeList, "", "graph outputs, \"node:index;node2:index\""),
      Other(kOptSocVersion, OptionType::kString, "", "target SoC version"),
      Enum(kOptLowerControlFlow, {"true", "false"}, "false",
           "lower Switch / Merge to StreamSwitch / StreamActive / StreamMerge in Stage 1"),
      Enum(kOptComputeEngine, {"on", "off"}, "on",
           "place the nodes the compute engine (AIcoreEngine, oneDNN) accepts on it"),
      Int(kOptIntraOpThreads, 0, 1024, "0",
          "intra-op threads of the compute engine (0: one per core)"),
  };
}

bool IsName(absl::string_view s) { return !s.empty(); }

Status CheckShapeList(const OptionSpec& spec, absl::string_view value) {
  if (value.empty()) return OkStatus();
  for (absl::string_view item : absl::StrSplit(value, ';')) {
    std::vector<absl::string_view> parts = absl::StrSplit(item, absl::MaxSplits(':', 1));
    if (parts.size() != 2 || !IsName(parts[0])) {
      return ParamInvalid("option ", spec.name, ": entry '", item, "' is not 'name:d0,d1,...'");
    }
    if (parts[1].empty()) continue;  // scalar
    for (absl::string_view d : absl::StrSplit(parts[1], ',')) {
      int64_t dim = 0;
      if (!absl::SimpleAtoi(d, &dim) || dim < -2) {
        return ParamInvalid("option ", spec.name, ": dim '", d, "' of input '", parts[0],
                            "' is not an integer >= -2");
      }
    }
  }
  return OkStatus();
}

Status CheckNodeList(const OptionSpec& spec, absl::string_view value) {
  if (value.empty()) return OkStatus();
  for (absl::string_view item : absl::StrSplit(value, ';')) {
    std::vector<absl::string_view> parts = absl::StrSplit(item, absl::MaxSplits(':', 1));
    if (!IsName(parts[0])) {
      return ParamInvalid("option ", spec.name, ": entry '", item, "' has no node name");
    }
    int64_t idx = 0;
    if (parts.size() == 2 && (!absl::SimpleAtoi(parts[1], &idx) || idx < 0)) {
      return ParamInvalid("option ", spec.name, ": output index '", parts[1], "' of node '",
                          parts[0], "' is not an integer >= 0");
    }
  }
  return OkStatus();
}

}  // namespace

const std::vector<OptionSpec>& KnownOptions() {
  static const auto* table = new std::vector<OptionSpec>(MakeTable());
  return *table;
}

const OptionSpec* FindOption(absl::string_view name) {
  for (const OptionSpec& s : KnownOptions()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

Status ValidateOption(absl::string_view name, absl::string_view value) {
  const OptionSpec* spec = FindOption(name);
  if (spec == nullptr) {
    std::vector<std::string> names;
    for (const OptionSpec& s : KnownOptions()) names.push_back(s.name);
    return ParamInvalid("unknown option '", name, "'; known options: ", absl::StrJoin(names, ", "));
  }
  switch (spec->type) {
    case OptionType::kString:
      return OkStatus();
    case OptionType::kInt: {
      int64_t v = 0;
      if (!absl::SimpleAtoi(value, &v)) {
        return ParamInvalid("option ", spec->name, ": '", value, "' is not an integer; allowed: [",
                            spec->min_value, ", ", spec->max_value, "]");
      }
      if (v < spec->min_value || v > spec->max_value) {
        return OutOfRange("option ", spec->name, ": ", v, " is out of range; allowed: [",
                          spec->min_value, ", ", spec->max_value, "]");
      }
      return OkStatus();
    }
    case OptionType::kBool:
    case OptionType::kEnum: {
      const auto& allowed = spec->allowed_values;
      if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
        return ParamInvalid("option ", spec->name, ": '", value,
                            "' is not allowed; allowed: ", absl::StrJoin(allowed, ", "));
      }
      return OkStatus();
    }
    case OptionType::kShapeList:
      return CheckShapeList(*spec, value);
    case OptionType::kNodeList:
      return CheckNodeList(*spec, value);
  }
  return Internal("option ", spec->name, ": unhandled type");
}

Status ValidateOptions(const std::map<std::string, std::string>& options) {
  for (const auto& [name, value] : options) RETURN_IF_ERROR(ValidateOption(name, value));
  return OkStatus();
}

std::map<std::string, std::string> MergeOptions(
    const std::map<std::string, std::string>& base,
    const std::map<std::string, std::string>& overrides) {
  std::map<std::string, std::string> out = base;
  for (const auto& [k, v] : overrides) out[k] = v;
  return out;
}

std::string OptionOrDefault(const std::map<std::string, std::string>& options,
                            absl::string_view name) {
  auto it = options.find(std::string(name));
  if (it != options.end()) return it->second;
  const OptionSpec* spec = FindOption(name);
  return spec == nullptr ? std::string() : spec->default_value;
}

StatusOr<CompileOptions> ToCompileOptions(const std::map<std::string, std::string>& options) {
  RETURN_IF_ERROR(ValidateOptions(options));
  CompileOptions c;
  const bool training = OptionOrDefault(options, kOptGraphRunMode) == "1";
  const std::string topo = OptionOrDefault(options, kOptTopoSortingMode);
  if (topo.empty()) {
    c.topo_mode = DefaultTopoSortingMode(training);
  } else {
    c.topo_mode = static_cast<TopoSortingMode>(topo[0] - '0');  // validated: "0".."3"
  }
  c.disabled_passes = ParseDisabledPasses(options);
  c.build_mode =
      OptionOrDefault(options, kOptBuildMode) == "tuning" ? BuildMode::kTuning : BuildMode::kNormal;
  const std::string step = OptionOrDefault(options, kOptBuildStep);
  if (!step.empty()) {
    if (c.build_mode != BuildMode::kTuning) {
      return ParamInvalid("option ", kOptBuildStep, "='", step, "' needs ", kOptBuildMode,
                          "=tuning");
    }
    ASSIGN_OR_RETURN(c.stop_after, ParseBuildStep(step));
    c.has_stop_step = true;
    if (OptionOrDefault(options, kOptTuningPath).empty()) {
      return ParamInvalid("option ", kOptBuildStep, "='", step, "' needs ", kOptTuningPath);
    }
  }
  c.tuning_path = OptionOrDefault(options, kOptTuningPath);
  c.resume_from = OptionOrDefault(options, kOptTuningResumeFile);
  const std::string fold_bytes = OptionOrDefault(options, kOptConstantFoldingMaxBytes);
  if (!fold_bytes.empty() && !absl::SimpleAtoi(fold_bytes, &c.constant_folding_max_bytes)) {
    return ParamInvalid("option ", kOptConstantFoldingMaxBytes, ": '", fold_bytes,
                        "' is not an integer");
  }
  c.input_shape = OptionOrDefault(options, kOptInputShape);
  c.out_nodes = OptionOrDefault(options, kOptOutNodes);
  c.lower_control_flow = OptionOrDefault(options, kOptLowerControlFlow) == "true";
  c.use_compute_engine = OptionOrDefault(options, kOptComputeEngine) == "on";
  c.precision_mode = OptionOrDefault(options, kOptPrecisionMode);
  const std::string keep_path = OptionOrDefault(options, kOptKeepDtype);
  if (!keep_path.empty()) {
    std::ifstream in(keep_path, std::ios::binary);
    std::stringstream text;
    if (in) text << in.rdbuf();
    if (!in || in.bad()) {
      return NotFound("option ", kOptKeepDtype, ": cannot read '", keep_path, "'");
    }
    StatusOr<std::vector<std::string>> keep = ParseKeepDtypeList(text.str());
    if (!keep.ok())
      return Annotate(keep.status(), "option ", kOptKeepDtype, " ('", keep_path, "'): ");
    c.keep_dtype = std::move(*keep);
  }
  return c;
}

}  // namespace ge
