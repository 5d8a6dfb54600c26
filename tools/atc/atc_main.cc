// atc: the offline model converter (GE's atc), ONNX -> OM.
//
//   atc --model=m.onnx --framework=5 --output=/tmp/m [--input_shape=...]
//   atc --mode=1 --om=/tmp/m.om --json=/tmp/m.json
//   atc --mode=3 --model=m.onnx --framework=5 --check_report=report.json
//   atc --mode=6 --om=/tmp/m.om
//
// Exit status: 0 success, 1 the conversion / check / dump failed, 2 a bad
// command line (unknown flag, bad value, missing flag). Progress and errors
// go to stderr ("[atc] parse 12.3 ms"), results of --mode=6 to stdout.
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "metadef/inc/external/base/status.h"
#include "tools/atc/atc_lib.h"
#include "tools/atc/om_dump.h"
#include "tools/common/tensor_io.h"
#include "tools/common/tool_log.h"

namespace ge {
namespace atc {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr char kTool[] = "atc";

constexpr char kUsage[] = R"(usage: atc [--flag=value ...]

  --mode                 0 convert a model to OM (default); 1 OM or ONNX model -> JSON
                         (--om, --json); 3 pre-check (--check_report); 6 display OM info (--om)
  --model                the source model file (--mode 0 and 3)
  --framework            5 = ONNX (0 Caffe, 1 MindSpore, 3 TensorFlow: not supported yet)
  --output               output OM path (".om" is appended when missing)
  --om                   the OM (or, with --framework=5, ONNX) file of --mode 1 / 6
  --json                 output JSON file of --mode 1
  --check_report         pre-check report of --mode 3 (default check_result.json)
  --input_shape          "name:1,3,224,224;name2:1,10" shapes of the graph inputs
  --input_format         NCHW, NHWC, ND, NCDHW or NDHWC (recorded on the inputs)
  --out_nodes            "node:0;node2:1" graph outputs instead of the model's
  --soc_version          target SoC, recorded in the OM
  --log                  debug, info (default), warning, error or null
  --disable_reuse_memory 0 (default) or 1: no memory reuse between tensors
  --enable_single_stream true or false (default)
  --op_select_implmode   high_performance (default) or high_precision (recorded)
  --precision_mode       must_keep_origin_dtype (default), allow_fp32_to_fp16, force_fp32,
                         force_fp16 or allow_mix_precision (fp16 means BF16 on this hardware)
  --keep_dtype           file of node names (or OpType::<type>), one per line, that keep
                         their data type under --precision_mode
  --onnx_converter       opset conversion of models older than opset 17: auto (default;
                         ONNX's converter, builtin adapters as fallback), onnx, builtin
  --help                 this text
)";

const std::vector<tools::FlagSpec>& Specs() {
  static const auto* specs = new std::vector<tools::FlagSpec>{
      {"mode", true},
      {"model", true},
      {"framework", true},
      {"output", true},
      {"om", true},
      {"json", true},
      {"check_report", true},
      {"input_shape", true},
      {"input_format", true},
      {"out_nodes", true},
      {"soc_version", true},
      {"log", true},
      {"disable_reuse_memory", true},
      {"enable_single_stream", true},
      {"op_select_implmode", true},
      {"precision_mode", true},
      {"keep_dtype", true},
      {"onnx_converter", true},
      {"help", false},
      {"h", false},
  };
  return *specs;
}

struct Flags {
  int mode = 0;
  bool help = false;
  bool has_framework = false;
  std::string output;
  std::string om;
  std::string json;
  std::string check_report = "check_result.json";
  AtcOptions options;
};

Status UsageError(absl::string_view flag, absl::string_view value, absl::string_view allowed) {
  return ParamInvalid("--", flag, " value '", value, "' is not valid; ", allowed);
}

StatusOr<Flags> ParseFlags(int argc, char** argv) {
  ASSIGN_OR_RETURN(auto pairs, tools::ParseFlagArgs(argc, argv, Specs()));
  Flags f;
  for (const auto& [name, value] : pairs) {
    if (name == "help" || name == "h") {
      f.help = true;
    } else if (name == "mode") {
      if (!absl::SimpleAtoi(value, &f.mode) ||
          (f.mode != 0 && f.mode != 1 && f.mode != 3 && f.mode != 6)) {
        return UsageError(name, value,
                          "allowed: 0 (convert), 1 (to JSON), 3 (pre-check), "
                          "6 (display OM info)");
      }
    } else if (name == "model") {
      f.options.model_path = value;
    } else if (name == "framework") {
      int32_t fw = 0;
      if (!absl::SimpleAtoi(value, &fw)) {
        return UsageError(name, value, "allowed: 0, 1, 3, 5 (ONNX)");
      }
      f.options.framework = fw;
      f.has_framework = true;
    } else if (name == "output") {
      f.output = value;
    } else if (name == "om") {
      f.om = value;
    } else if (name == "json") {
      f.json = value;
    } else if (name == "check_report") {
      f.check_report = value;
    } else if (name == "input_shape") {
      Status st = ParseInputShape(value, &f.options.input_shapes);
      if (!st.ok()) return Annotate(st, "--input_shape: ");
    } else if (name == "input_format") {
      const std::string v = absl::AsciiStrToUpper(value);
      if (v != "NCHW" && v != "NHWC" && v != "ND" && v != "NCDHW" && v != "NDHWC") {
        return UsageError(name, value, "allowed: NCHW, NHWC, ND, NCDHW, NDHWC");
      }
      f.options.input_format = v;
    } else if (name == "out_nodes") {
      Status st = ParseOutNodes(value, &f.options.out_nodes);
      if (!st.ok()) return Annotate(st, "--out_nodes: ");
    } else if (name == "soc_version") {
      if (value.empty()) return UsageError(name, value, "give a SoC name");
      f.options.soc_version = value;
    } else if (name == "log") {
      auto level = tools::ParseLogLevel(value);
      if (!level.ok()) return level.status();
      tools::SetLogLevel(*level);
    } else if (name == "disable_reuse_memory") {
      if (value != "0" && value != "1") return UsageError(name, value, "allowed: 0, 1");
      f.options.disable_reuse_memory = value == "1";
    } else if (name == "enable_single_stream") {
      const std::string v = absl::AsciiStrToLower(value);
      if (v != "true" && v != "false") return UsageError(name, value, "allowed: true, false");
      f.options.enable_single_stream = v == "true";
    } else if (name == "onnx_converter") {
      if (value == "auto") {
        f.options.onnx_converter = 0;
      } else if (value == "onnx") {
        f.options.onnx_converter = 1;
      } else if (value == "builtin") {
        f.options.onnx_converter = 2;
      } else {
        return UsageError(name, value, "allowed: auto, onnx, builtin");
      }
    } else if (name == "op_select_implmode") {
      if (value != "high_performance" && value != "high_precision") {
        return UsageError(name, value, "allowed: high_performance, high_precision");
      }
      f.options.op_select_implmode = value;
    } else if (name == "precision_mode") {
      // Checked against the option table with the other ge.* options.
      if (value.empty()) return UsageError(name, value, "give a mode");
      f.options.precision_mode = value;
    } else if (name == "keep_dtype") {
      if (value.empty()) return UsageError(name, value, "give a file");
      f.options.keep_dtype_file = value;
    }
  }
  return f;
}

Status RequireFlag(bool present, absl::string_view flag, int mode) {
  if (!present) return ParamInvalid("--", flag, " is required with --mode=", mode);
  return OkStatus();
}

int Fail(const Status& st, int code) {
  tools::ToolLog(tools::LogLevel::kError, kTool, st.message());
  if (code == kExitUsage) std::fputs("run 'atc --help' for the flags\n", stderr);
  return code;
}

int RunConvert(Flags& f) {
  Status st = RequireFlag(!f.options.model_path.empty(), "model", 0);
  if (st.ok()) st = RequireFlag(f.has_framework, "framework", 0);
  if (st.ok()) st = RequireFlag(!f.output.empty(), "output", 0);
  if (!st.ok()) return Fail(st, kExitUsage);
  if (f.options.framework != static_cast<int32_t>(Framework::kOnnx)) {
    // Framework problems are answered before touching any file.
    auto r = ConvertOnnxToModel(f.options);
    return Fail(r.ok() ? Internal("framework ", f.options.framework, " converted") : r.status(),
                kExitFailed);
  }
  std::string path = f.output;
  if (!absl::EndsWith(path, ".om")) path += ".om";
  f.options.on_stage = [](absl::string_view stage, double ms) {
    tools::ToolLog(tools::LogLevel::kInfo, kTool, absl::StrFormat("%-9s %9.1f ms", stage, ms));
  };
  tools::ToolLog(tools::LogLevel::kInfo, kTool, "converting ", f.options.model_path, " -> ", path);
  auto result = ConvertOnnxToFile(f.options, path);
  if (!result.ok()) return Fail(result.status(), kExitFailed);
  double total = 0;
  for (const StageTime& s : result->stages) total += s.ms;
  tools::ToolLog(tools::LogLevel::kInfo, kTool, absl::StrFormat("%-9s %9.1f ms", "total", total));
  std::printf("ATC run success: %s (%zu bytes)\n", path.c_str(),
              static_cast<size_t>(result->om_size));
  return kExitOk;
}

int RunToJson(const Flags& f) {
  Status st = RequireFlag(!f.om.empty(), "om", 1);
  if (st.ok()) st = RequireFlag(!f.json.empty(), "json", 1);
  if (!st.ok()) return Fail(st, kExitUsage);
  auto bytes = tools::ReadFile(f.om);
  if (!bytes.ok()) return Fail(bytes.status(), kExitFailed);
  StatusOr<std::string> json = std::string();
  if (f.has_framework) {
    if (f.options.framework != static_cast<int32_t>(Framework::kOnnx)) {
      return Fail(NotSupported("--mode=1 with --framework=", f.options.framework,
                               " is not supported yet; use --framework=5 (ONNX) or an OM"),
                  kExitUsage);
    }
    json = OnnxToJson(*bytes);
  } else {
    json = OmToJson(*bytes);
  }
  if (!json.ok()) return Fail(Annotate(json.status(), "'", f.om, "': "), kExitFailed);
  Status w = WriteFileAtomically(f.json, *json);
  if (!w.ok()) return Fail(w, kExitFailed);
  tools::ToolLog(tools::LogLevel::kInfo, kTool, "wrote ", f.json);
  return kExitOk;
}

int RunPreCheck(Flags& f) {
  Status st = RequireFlag(!f.options.model_path.empty(), "model", 3);
  if (st.ok()) st = RequireFlag(f.has_framework, "framework", 3);
  if (!st.ok()) return Fail(st, kExitUsage);
  auto report = PreCheck(f.options);
  if (!report.ok()) {
    const bool usage = GetErrorCode(report.status()) == ErrorCode::kNotSupported &&
                       f.options.framework != static_cast<int32_t>(Framework::kOnnx);
    return Fail(report.status(), usage ? kExitUsage : kExitFailed);
  }
  Status w = WriteFileAtomically(f.check_report, PreCheckReportJson(*report));
  if (!w.ok()) return Fail(w, kExitFailed);
  if (!report->ok()) {
    tools::ToolLog(tools::LogLevel::kError, kTool, "pre-check failed: ", report->issues.size(),
                   " unsupported op(s); report in ", f.check_report);
    for (const PreCheckIssue& issue : report->issues) {
      tools::ToolLog(tools::LogLevel::kError, kTool, "  node '", issue.node, "' (", issue.op_type,
                     "): ", issue.reason);
    }
    if (report->issues.empty()) {
      tools::ToolLog(tools::LogLevel::kError, kTool, report->parse_error);
    }
    return kExitFailed;
  }
  tools::ToolLog(tools::LogLevel::kInfo, kTool, "pre-check passed (", report->op_count,
                 " ops); report in ", f.check_report);
  return kExitOk;
}

int RunInfo(const Flags& f) {
  Status st = RequireFlag(!f.om.empty(), "om", 6);
  if (!st.ok()) return Fail(st, kExitUsage);
  auto bytes = tools::ReadFile(f.om);
  if (!bytes.ok()) return Fail(bytes.status(), kExitFailed);
  auto text = OmInfoText(*bytes);
  if (!text.ok()) return Fail(Annotate(text.status(), "'", f.om, "': "), kExitFailed);
  std::fwrite(text->data(), 1, text->size(), stdout);
  return kExitOk;
}

int Main(int argc, char** argv) {
  auto flags = ParseFlags(argc, argv);
  if (!flags.ok()) return Fail(flags.status(), kExitUsage);
  if (flags->help || argc <= 1) {
    std::fputs(kUsage, flags->help ? stdout : stderr);
    return flags->help ? kExitOk : kExitUsage;
  }
  switch (flags->mode) {
    case 0:
      return RunConvert(*flags);
    case 1:
      return RunToJson(*flags);
    case 3:
      return RunPreCheck(*flags);
    case 6:
      return RunInfo(*flags);
    default:
      return Fail(ParamInvalid("--mode ", flags->mode, " is not supported"), kExitUsage);
  }
}

}  // namespace
}  // namespace atc
}  // namespace ge

int main(int argc, char** argv) { return ge::atc::Main(argc, argv); }
