// tools/atc/atc_lib.h
//
// The atc library: ONNX model -> compiled graph -> GeRootModel -> OM bytes,
// the engine of the `atc` command line tool (tools/atc/atc_main.cc) and of the
// conformance runner (testing/conformance).
//
// Pipeline (each step reported to AtcOptions::on_stage with its wall time):
//   "parse"      OnnxModelParser (file or bytes; --input_shape, --out_nodes)
//   "prepare"    CompilerStages: GraphPrepare (normalise, InferShape, ...)
//   "optimize"   CompilerStages: Stage 1, subgraph and Stage 2 optimisation
//                (includes partition and the graph builder step)
//   "build"      ModelBuilder: streams, memory plan, tasks -> GeRootModel
//   "serialize"  the OM writer: MODEL_DEF / TASK_INFO encoding and layout
//   "write"      checksum + streaming to a temp file + rename (ConvertOnnxToFile)
//
// Contract
//   * Only framework 5 (ONNX) converts; 0 (Caffe), 1 (MindSpore) and
//     3 (TensorFlow) are NotSupported "not supported yet"; anything else is
//     ParamInvalid naming the value.
//   * Exactly one of model_path / model_bytes must be set (ParamInvalid).
//   * Errors carry the failing stage as a prefix: "parse: ...",
//     "optimize: ...", ... and keep the error code of the stage.
//   * ConvertOnnxToFile never leaves a partial or stale output file: it
//     writes "<path>.tmp.<pid>" and renames it over `path` only on success;
//     on any failure `path` is untouched and the temp file is removed.
//   * soc_version and the other recorded options go into GeModel::attrs
//     (keys kAtcAttr*), so the OM carries them.
//   * Thread-compatible: concurrent calls with distinct options are fine.
//
// Example
//   ge::atc::AtcOptions opts;
//   opts.model_path = "tools/models/small_cnn.onnx";
//   RETURN_IF_ERROR(ge::atc::ParseInputShape("input:1,3,32,32", &opts.input_shapes));
//   opts.on_stage = [](absl::string_view s, double ms) { ... };
//   ASSIGN_OR_RETURN(ge::atc::AtcResult r, ge::atc::ConvertOnnx(opts));
//   // r.om_bytes is the OM file, r.root_model the in-memory model.
#ifndef TOOLS_ATC_ATC_LIB_H_
#define TOOLS_ATC_ATC_LIB_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "build/model/ge_model.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace atc {

// --framework values (GE numbering).
enum class Framework : int32_t {
  kCaffe = 0,
  kMindSpore = 1,
  kTensorFlow = 3,
  kOnnx = 5,
};

// GeModel::attrs keys written by atc.
inline constexpr char kAtcAttrSocVersion[] = "soc_version";
inline constexpr char kAtcAttrFramework[] = "framework";
inline constexpr char kAtcAttrInputShape[] = "input_shape";
inline constexpr char kAtcAttrInputFormat[] = "input_format";
inline constexpr char kAtcAttrOutNodes[] = "out_nodes";
inline constexpr char kAtcAttrOpSelectImplMode[] = "op_select_implmode";

// Called after each pipeline step with its name and wall time in ms.
using StageCallback = std::function<void(absl::string_view stage, double ms)>;

struct AtcOptions {
  // The model: a file (--model) or its serialized bytes (model_dir then
  // resolves external data; empty: none allowed).
  std::string model_path;
  std::string model_bytes;
  std::string model_dir;
  int32_t framework = static_cast<int32_t>(Framework::kOnnx);

  // --input_shape, parsed (ParseInputShape): graph input name -> dims.
  std::map<std::string, std::vector<int64_t>> input_shapes;
  // --input_format ("NCHW", "NHWC", "ND", ...; "" = as the model says).
  std::string input_format;
  // --out_nodes, parsed (ParseOutNodes): "node:index" or value names.
  std::vector<std::string> out_nodes;
  // --soc_version (recorded in the OM; "" = not recorded).
  std::string soc_version;
  bool disable_reuse_memory = false;  // --disable_reuse_memory=1
  bool enable_single_stream = false;  // --enable_single_stream=true
  std::string op_select_implmode;     // --op_select_implmode (recorded)
  // --precision_mode (ge.exec.precision_mode; "" = must_keep_origin_dtype)
  // and --keep_dtype (ge.keepDtype: a file of node names / OpType::<type>).
  std::string precision_mode;
  std::string keep_dtype_file;
  // Opset conversion of older models (--onnx_converter, our extension):
  // 0 auto (ONNX's converter, builtin adapters as fallback), 1 onnx only,
  // 2 builtin adapters only (ge::OnnxVersionConverter numbering).
  int32_t onnx_converter = 0;

  // Extra ge.* options (session_options.h), validated; they override the
  // ones derived from the fields above.
  std::map<std::string, std::string> ge_options;

  StageCallback on_stage;  // may be empty
};

struct StageTime {
  std::string stage;
  double ms = 0;
};

struct AtcResult {
  ComputeGraphPtr graph;          // the compiled root graph
  GeRootModelPtr root_model;      // the build result
  std::string om_bytes;           // the OM file (ConvertOnnx only)
  uint64_t om_size = 0;           // bytes of the OM (ConvertOnnx, ConvertOnnxToFile)
  std::vector<StageTime> stages;  // in pipeline order
};

// parse -> prepare -> optimize -> build (no OM serialization).
StatusOr<AtcResult> ConvertOnnxToModel(const AtcOptions& options);
// ConvertOnnxToModel + serialize: om_bytes filled.
StatusOr<AtcResult> ConvertOnnx(const AtcOptions& options);
// ConvertOnnxToModel + the OM streamed to `output_path` (SaveOmToFile: temp
// file + rename; used as given, the ".om" suffix is the command line's
// business). om_bytes stays empty (the file is never assembled in memory);
// om_size is the file size. See the file comment.
StatusOr<AtcResult> ConvertOnnxToFile(const AtcOptions& options, const std::string& output_path);

// Writes `bytes` to `path` through "<path>.tmp.<pid>" + rename.
Status WriteFileAtomically(const std::string& path, absl::string_view bytes);

// "name:1,3,224,224;name2:1,-1" -> map. Empty string -> empty map. Names may
// contain ':' (the last ':' splits); dims are integers >= -1; duplicate
// names, empty names, empty or non-numeric dims -> ParamInvalid naming the
// entry.
Status ParseInputShape(absl::string_view text, std::map<std::string, std::vector<int64_t>>* shapes);
// "node:0;node2:1;value" -> entries (trimmed; empty entries rejected;
// ":<index>" must be a non-negative integer) -> ParamInvalid naming it.
Status ParseOutNodes(absl::string_view text, std::vector<std::string>* out_nodes);

// atc --mode 3: every op of the model (all graphs, subgraphs included) that
// this build cannot convert, found at once.
struct PreCheckIssue {
  std::string node;  // ONNX node name ("" if unnamed)
  std::string op_type;
  std::string domain;
  std::string reason;
};
struct PreCheckReport {
  std::string model;     // path or "<bytes>"
  int64_t op_count = 0;  // nodes checked
  std::vector<PreCheckIssue> issues;
  std::string parse_error;  // the full parse status when it fails, "" if ok
  bool ok() const { return issues.empty() && parse_error.empty(); }
};
// Fails only when the model cannot be read at all (IoError / ParseFailed).
StatusOr<PreCheckReport> PreCheck(const AtcOptions& options);
// The report as JSON: {"model":..., "result":"success"|"failed",
//   "op_count":N, "unsupported_ops":[{"node":..,"op_type":..,"domain":..,
//   "reason":..}], "parse_error":...}
std::string PreCheckReportJson(const PreCheckReport& report);

}  // namespace atc
}  // namespace ge

#endif  // TOOLS_ATC_ATC_LIB_H_
