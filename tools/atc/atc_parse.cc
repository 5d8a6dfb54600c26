// Implementation of tools/atc/atc_parse.h.
#include "tools/atc/atc_parse.h"

#include <cstdio>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/parser/onnx/onnx_op_map.h"
#include "compiler/parser/onnx/onnx_parser.h"
#include "metadef/register/inc/register/framework_registry.h"
#include "metadef/register/inc/register/op_registry.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace atc_internal {
namespace {

// Directory part of a path ("." when there is none).
std::string DirName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Reads the whole file in one block (a 100 MB model is read at disk speed,
// not byte by byte through a stream iterator).
StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return NotFound("cannot open model file '", path, "'");
  std::string bytes;
  if (std::fseek(f, 0, SEEK_END) == 0) {
    const long size = std::ftell(f);
    if (size > 0) bytes.resize(static_cast<size_t>(size));
    std::rewind(f);
  }
  size_t got = bytes.empty() ? 0 : std::fread(&bytes[0], 1, bytes.size(), f);
  bytes.resize(got);
  // Files whose size was not known up front (pipes) or that grew.
  char buf[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) bytes.append(buf, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return IoError("cannot read model file '", path, "'");
  return bytes;
}

StatusOr<std::string> ReadModelBytes(const atc::AtcOptions& options) {
  if (!options.model_bytes.empty()) return options.model_bytes;
  return ReadWholeFile(options.model_path);
}

struct OpChecker {
  std::set<std::string> local_functions;  // "domain/name"
  int64_t opset = 17;
  atc::PreCheckReport* report = nullptr;

  void Add(const onnx::NodeProto& node, std::string reason) {
    atc::PreCheckIssue issue;
    issue.node = node.name();
    issue.op_type = node.op_type();
    issue.domain = node.domain();
    issue.reason = std::move(reason);
    report->issues.push_back(std::move(issue));
  }

  void CheckGraph(const onnx::GraphProto& graph) {
    for (const onnx::NodeProto& node : graph.node()) {
      ++report->op_count;
      CheckNode(node);
      for (const onnx::AttributeProto& attr : node.attribute()) {
        if (attr.has_g()) CheckGraph(attr.g());
        for (const onnx::GraphProto& g : attr.graphs()) CheckGraph(g);
      }
    }
  }

  void CheckNode(const onnx::NodeProto& node) {
    if (local_functions.count(absl::StrCat(node.domain(), "/", node.op_type())) != 0) return;
    if (!onnx_parser::IsAcceptedDomain(node.domain())) {
      Add(node, absl::StrCat("unsupported domain '", node.domain(), "'"));
      return;
    }
    const std::string domain = onnx_parser::CanonicalDomain(node.domain());
    auto mapping =
        FrameworkRegistry::Instance().Find(FrameworkType::ONNX, node.op_type(), domain, opset);
    if (!mapping.ok()) {
      Add(node, absl::StrCat("unsupported op type '", node.op_type(), "'"));
      return;
    }
    if (!OperatorFactory::IsExistOp(mapping->op_type)) {
      Add(node, absl::StrCat("op type '", mapping->op_type, "' is not in the op library"));
    }
  }
};

}  // namespace

StatusOr<ComputeGraphPtr> ParseOnnxForAtc(const atc::AtcOptions& options) {
  ParseOptions popts;
  popts.input_shapes = options.input_shapes;
  popts.output_nodes = options.out_nodes;
  if (options.onnx_converter < 0 || options.onnx_converter > 2) {
    return ParamInvalid("onnx_converter ", options.onnx_converter,
                        " is not valid; allowed: 0 (auto), 1 (onnx), 2 (builtin)");
  }
  popts.converter = static_cast<OnnxVersionConverter>(options.onnx_converter);
  OnnxModelParser parser;
  if (!options.model_bytes.empty()) {
    popts.model_dir = options.model_dir;
    return parser.ParseBytes(options.model_bytes, popts);
  }
  // The parser maps the file (weights are copied once, straight from the
  // mapping); external data is relative to the file's directory.
  popts.model_dir = DirName(options.model_path);
  return parser.ParseFile(options.model_path, popts);
}

StatusOr<atc::PreCheckReport> PreCheckOnnx(const atc::AtcOptions& options) {
  atc::PreCheckReport report;
  report.model = options.model_bytes.empty() ? options.model_path : "<bytes>";
  ASSIGN_OR_RETURN(std::string bytes, ReadModelBytes(options));
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes)) {
    return ParseFailed("model '", report.model, "' is not an ONNX ModelProto");
  }
  onnx_parser::EnsureOnnxMappingsRegistered();
  OpChecker checker;
  checker.report = &report;
  for (const onnx::OperatorSetIdProto& set : model.opset_import()) {
    if (set.domain().empty() || set.domain() == onnx_parser::kOnnxDomain) {
      checker.opset = set.version();
    }
  }
  // Ops are mapped at the target opset after conversion.
  checker.opset = 17;
  for (const onnx::FunctionProto& f : model.functions()) {
    checker.local_functions.insert(absl::StrCat(f.domain(), "/", f.name()));
  }
  checker.CheckGraph(model.graph());

  atc::AtcOptions parse_options = options;
  if (parse_options.model_bytes.empty()) {
    parse_options.model_bytes = std::move(bytes);
    parse_options.model_dir = DirName(options.model_path);
  }
  auto graph = ParseOnnxForAtc(parse_options);
  if (graph.ok()) {
    // The parser inlines function bodies of ops the library lacks: what it
    // accepted is supported.
    report.issues.clear();
  } else {
    report.parse_error = std::string(graph.status().message());
  }
  return report;
}

}  // namespace atc_internal
}  // namespace ge
