// Implementation of tools/atc/atc_lib.h.
#include "tools/atc/atc_lib.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "build/model/model_builder.h"
#include "build/om/om_file.h"
#include "compiler/manager/session_options.h"
#include "compiler/stages/compiler_stages.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "runtime/manager/graph_manager.h"
#include "tools/atc/atc_parse.h"

namespace ge {
namespace atc {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Records the stage and tells the callback.
void Report(const AtcOptions& options, AtcResult* result, absl::string_view stage, double ms) {
  result->stages.push_back(StageTime{std::string(stage), ms});
  if (options.on_stage) options.on_stage(stage, ms);
}

Status CheckFramework(int32_t framework) {
  switch (framework) {
    case static_cast<int32_t>(Framework::kOnnx):
      return OkStatus();
    case static_cast<int32_t>(Framework::kCaffe):
      return NotSupported("framework 0 (Caffe) is not supported yet; use --framework=5 (ONNX)");
    case static_cast<int32_t>(Framework::kMindSpore):
      return NotSupported("framework 1 (MindSpore) is not supported yet; use --framework=5 (ONNX)");
    case static_cast<int32_t>(Framework::kTensorFlow):
      return NotSupported(
          "framework 3 (TensorFlow) is not supported yet; use --framework=5 (ONNX)");
    default:
      return ParamInvalid("framework ", framework,
                          " is not valid; allowed: 0 (Caffe), 1 (MindSpore), 3 (TensorFlow), "
                          "5 (ONNX)");
  }
}

Status CheckModelSource(const AtcOptions& options) {
  if (options.model_path.empty() == options.model_bytes.empty()) {
    return ParamInvalid(options.model_path.empty()
                            ? "no model given (set the model path or the model bytes)"
                            : "both a model path and model bytes are given; set one");
  }
  return OkStatus();
}

std::string ShapesText(const std::map<std::string, std::vector<int64_t>>& shapes) {
  std::vector<std::string> parts;
  for (const auto& [name, dims] : shapes) {
    parts.push_back(absl::StrCat(name, ":", absl::StrJoin(dims, ",")));
  }
  return absl::StrJoin(parts, ";");
}

// The ge.* options atc derives from its flags, then the explicit ones.
std::map<std::string, std::string> GeOptionsOf(const AtcOptions& options) {
  std::map<std::string, std::string> ge;
  ge[kOptGraphRunMode] = "0";
  if (options.disable_reuse_memory) ge[kOptDisableReuseMemory] = "1";
  if (options.enable_single_stream) ge[kOptEnableSingleStream] = "true";
  if (!options.soc_version.empty()) ge[kOptSocVersion] = options.soc_version;
  if (!options.precision_mode.empty()) ge[kOptPrecisionMode] = options.precision_mode;
  if (!options.keep_dtype_file.empty()) ge[kOptKeepDtype] = options.keep_dtype_file;
  // --input_shape / --out_nodes go to the ONNX parser (which knows the
  // model's value names), not to ge.inputShape / ge.outNodes.
  for (const auto& [k, v] : options.ge_options) ge[k] = v;
  return ge;
}

Status ApplyInputFormat(const ComputeGraphPtr& graph, absl::string_view text) {
  if (text.empty()) return OkStatus();
  auto format = TypeUtils::SerialStringToFormat(text);
  if (!format.ok()) return ParamInvalid("input_format '", text, "' is not a known format");
  for (Node* node : graph->GetDirectNodePtr()) {
    if (node->GetType() != DATA) continue;
    OpDesc* op = node->GetOpDescBarePtr();
    for (uint32_t i = 0; i < op->GetAllOutputsDescSize(); ++i) {
      GeTensorDescPtr d = op->MutableOutputDesc(i);
      if (d == nullptr) continue;
      d->SetFormat(*format);
      d->SetOriginFormat(*format);
    }
    for (uint32_t i = 0; i < op->GetInputsSize(); ++i) {
      GeTensorDescPtr d = op->MutableInputDesc(i);
      if (d == nullptr) continue;
      d->SetFormat(*format);
      d->SetOriginFormat(*format);
    }
  }
  return OkStatus();
}

}  // namespace

namespace {

// parse -> GraphManager (stages + model build) with atc's recorded options;
// `gm` keeps the built model (graph id 0) for saving.
Status Compile(const AtcOptions& options, GraphManager* gm, AtcResult* result) {
  RETURN_IF_ERROR(CheckFramework(options.framework));
  RETURN_IF_ERROR(CheckModelSource(options));
  const std::map<std::string, std::string> ge_options = GeOptionsOf(options);
  Status valid = ValidateOptions(ge_options);
  if (!valid.ok()) return Annotate(valid, "options: ");
  auto compile_options = ToCompileOptions(ge_options);
  if (!compile_options.ok()) return Annotate(compile_options.status(), "options: ");
  if (compile_options->build_mode != BuildMode::kNormal) {
    return ParamInvalid("options: atc needs ", kOptBuildMode, "=normal");
  }
  Status init = gm->Initialize(ge_options);
  if (!init.ok()) return Annotate(init, "options: ");

  // ---- parse
  Clock::time_point t0 = Clock::now();
  auto graph = atc_internal::ParseOnnxForAtc(options);
  if (!graph.ok()) return Annotate(graph.status(), "parse: ");
  Status fmt = ApplyInputFormat(*graph, options.input_format);
  if (!fmt.ok()) return Annotate(fmt, "parse: ");
  Report(options, result, "parse", MsSince(t0));

  // ---- prepare, optimize (partition and the graph build step included),
  // build (the model builder)
  std::map<std::string, std::string> attrs;
  attrs[kAtcAttrFramework] = absl::StrCat(options.framework);
  if (!options.soc_version.empty()) attrs[kAtcAttrSocVersion] = options.soc_version;
  if (!options.input_shapes.empty()) attrs[kAtcAttrInputShape] = ShapesText(options.input_shapes);
  if (!options.input_format.empty()) attrs[kAtcAttrInputFormat] = options.input_format;
  if (!options.out_nodes.empty()) {
    attrs[kAtcAttrOutNodes] = absl::StrJoin(options.out_nodes, ";");
  }
  if (!options.op_select_implmode.empty()) {
    attrs[kAtcAttrOpSelectImplMode] = options.op_select_implmode;
  }
  Status added = gm->AddGraph(0, *graph);
  if (!added.ok()) return Annotate(added, "prepare: ");
  ModelBuildOptions build;
  build.attrs = std::move(attrs);
  RETURN_IF_ERROR(gm->SetModelBuildOptions(0, std::move(build)));
  enum class Phase { kPrepare, kOptimize, kBuild, kDone };
  Phase phase = Phase::kPrepare;
  Clock::time_point t1 = Clock::now();
  gm->SetStageObserver([&](absl::string_view stage) {
    if (phase == Phase::kPrepare && stage == "PrepareDynShape") {
      Report(options, result, "prepare", MsSince(t1));
      phase = Phase::kOptimize;
      t1 = Clock::now();
    } else if (phase == Phase::kOptimize && stage == "Build") {
      Report(options, result, "optimize", MsSince(t1));
      phase = Phase::kBuild;
      t1 = Clock::now();
    } else if (phase == Phase::kBuild && stage == "ModelBuild") {
      Report(options, result, "build", MsSince(t1));
      phase = Phase::kDone;
    }
  });
  Status built = gm->BuildGraph(0);
  gm->SetStageObserver(nullptr);
  if (!built.ok()) {
    const char* where = phase == Phase::kPrepare    ? "prepare: "
                        : phase == Phase::kOptimize ? "optimize: "
                                                    : "build: ";
    return Annotate(built, where);
  }
  ASSIGN_OR_RETURN(result->graph, gm->GetCompiledGraph(0));
  ASSIGN_OR_RETURN(result->root_model, gm->GetRootModel(0));
  return OkStatus();
}

OmSaveOptions SaveOptionsOf(const AtcOptions& options) {
  OmSaveOptions save;
  save.soc_version = options.soc_version;
  return save;
}

}  // namespace

StatusOr<AtcResult> ConvertOnnxToModel(const AtcOptions& options) {
  GraphManager gm;
  AtcResult result;
  RETURN_IF_ERROR(Compile(options, &gm, &result));
  return result;
}

StatusOr<AtcResult> ConvertOnnx(const AtcOptions& options) {
  GraphManager gm;
  AtcResult result;
  RETURN_IF_ERROR(Compile(options, &gm, &result));
  Clock::time_point t0 = Clock::now();
  auto om = gm.SaveModelToBytes(0, SaveOptionsOf(options));
  if (!om.ok()) return Annotate(om.status(), "serialize: ");
  result.om_bytes = std::move(*om);
  result.om_size = result.om_bytes.size();
  Report(options, &result, "serialize", MsSince(t0));
  return result;
}

StatusOr<AtcResult> ConvertOnnxToFile(const AtcOptions& options, const std::string& output_path) {
  if (output_path.empty()) return ParamInvalid("empty output path");
  GraphManager gm;
  AtcResult result;
  RETURN_IF_ERROR(Compile(options, &gm, &result));
  // "serialize" = MODEL_DEF / TASK_INFO encoding and the file layout;
  // "write" = hashing and streaming the bytes (weights straight from the
  // constants, never assembled in memory) + rename.
  OmSaveOptions save = SaveOptionsOf(options);
  OmSaveTimes times;
  save.times = &times;
  auto size = gm.SaveModel(0, output_path, save);
  if (!size.ok()) {
    return Annotate(size.status(), times.serialize_ms > 0 ? "write: " : "serialize: ");
  }
  result.om_size = *size;
  Report(options, &result, "serialize", times.serialize_ms);
  Report(options, &result, "write", times.write_ms);
  return result;
}

Status WriteFileAtomically(const std::string& path, absl::string_view bytes) {
  return ::ge::WriteFileAtomically(path, bytes);
}

Status ParseInputShape(absl::string_view text,
                       std::map<std::string, std::vector<int64_t>>* shapes) {
  if (shapes == nullptr) return ParamInvalid("ParseInputShape: null output");
  shapes->clear();
  if (absl::StripAsciiWhitespace(text).empty()) return OkStatus();
  for (absl::string_view raw : absl::StrSplit(text, ';')) {
    absl::string_view entry = absl::StripAsciiWhitespace(raw);
    if (entry.empty()) {
      return ParamInvalid("input_shape '", text, "': empty entry (stray ';')");
    }
    const size_t colon = entry.rfind(':');
    if (colon == absl::string_view::npos) {
      return ParamInvalid("input_shape entry '", entry, "' has no ':' (expected name:d0,d1,...)");
    }
    std::string name(absl::StripAsciiWhitespace(entry.substr(0, colon)));
    absl::string_view dims_text = absl::StripAsciiWhitespace(entry.substr(colon + 1));
    if (name.empty()) return ParamInvalid("input_shape entry '", entry, "' has an empty name");
    std::vector<int64_t> dims;
    if (!dims_text.empty()) {  // "name:" is a scalar
      for (absl::string_view d : absl::StrSplit(dims_text, ',')) {
        int64_t v = 0;
        if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(d), &v) || v < -1) {
          return ParamInvalid("input_shape entry '", entry, "': dim '", d,
                              "' is not an integer >= -1");
        }
        dims.push_back(v);
      }
    }
    if (!shapes->emplace(name, std::move(dims)).second) {
      return ParamInvalid("input_shape: input '", name, "' is given twice");
    }
  }
  return OkStatus();
}

Status ParseOutNodes(absl::string_view text, std::vector<std::string>* out_nodes) {
  if (out_nodes == nullptr) return ParamInvalid("ParseOutNodes: null output");
  out_nodes->clear();
  if (absl::StripAsciiWhitespace(text).empty()) return OkStatus();
  for (absl::string_view raw : absl::StrSplit(text, ';')) {
    absl::string_view entry = absl::StripAsciiWhitespace(raw);
    if (entry.empty()) return ParamInvalid("out_nodes '", text, "': empty entry (stray ';')");
    const size_t colon = entry.rfind(':');
    if (colon != absl::string_view::npos) {
      absl::string_view name = entry.substr(0, colon);
      absl::string_view index = entry.substr(colon + 1);
      int64_t v = 0;
      if (name.empty()) return ParamInvalid("out_nodes entry '", entry, "' has an empty name");
      if (!absl::SimpleAtoi(index, &v) || v < 0) {
        return ParamInvalid("out_nodes entry '", entry, "': output index '", index,
                            "' is not a non-negative integer");
      }
    }
    out_nodes->emplace_back(entry);
  }
  return OkStatus();
}

StatusOr<PreCheckReport> PreCheck(const AtcOptions& options) {
  RETURN_IF_ERROR(CheckFramework(options.framework));
  RETURN_IF_ERROR(CheckModelSource(options));
  return atc_internal::PreCheckOnnx(options);
}

namespace {
std::string JsonString(absl::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          static const char* kHex = "0123456789abcdef";
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += "\"";
  return out;
}
}  // namespace

std::string PreCheckReportJson(const PreCheckReport& report) {
  std::string out = "{\n";
  absl::StrAppend(&out, "  \"model\": ", JsonString(report.model), ",\n");
  absl::StrAppend(&out, "  \"result\": ", report.ok() ? "\"success\"" : "\"failed\"", ",\n");
  absl::StrAppend(&out, "  \"op_count\": ", report.op_count, ",\n");
  absl::StrAppend(&out, "  \"unsupported_op_count\": ", report.issues.size(), ",\n");
  out += "  \"unsupported_ops\": [";
  for (size_t i = 0; i < report.issues.size(); ++i) {
    const PreCheckIssue& issue = report.issues[i];
    absl::StrAppend(&out, i == 0 ? "\n" : ",\n", "    {\"node\": ", JsonString(issue.node),
                    ", \"op_type\": ", JsonString(issue.op_type),
                    ", \"domain\": ", JsonString(issue.domain),
                    ", \"reason\": ", JsonString(issue.reason), "}");
  }
  out += report.issues.empty() ? "],\n" : "\n  ],\n";
  absl::StrAppend(&out, "  \"parse_error\": ", JsonString(report.parse_error), "\n}\n");
  return out;
}

}  // namespace atc
}  // namespace ge
