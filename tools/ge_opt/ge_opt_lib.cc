// tools/ge_opt/ge_opt_lib.cc
#include "tools/ge_opt/ge_opt_lib.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/parser/onnx/onnx_parser.h"
#include "compiler/passes/pass_framework/ge_pass.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "compiler/passes/pass_framework/pass_manager.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/stages/compiler_stages.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/serialization/inc/graph_text.h"

namespace ge {
namespace ge_opt {
namespace {

// A pass by its registered name: a graph pass, or a node pass in a
// NodePassGroup of its own (a GEPass traversal, as the compiler runs it).
StatusOr<std::unique_ptr<GraphPass>> CreatePass(const std::string& name) {
  const PassRegistry& registry = PassRegistry::Instance();
  if (registry.HasGraphPass(name)) return registry.CreateGraphPass(name);
  if (registry.HasNodePass(name)) {
    ASSIGN_OR_RETURN(std::unique_ptr<BaseNodePass> node_pass, registry.CreateNodePass(name));
    auto group = std::make_unique<NodePassGroup>(name);
    RETURN_IF_ERROR(group->AddPass(name, std::move(node_pass)));
    return std::unique_ptr<GraphPass>(std::move(group));
  }
  return NotFound("unknown pass '", name,
                  "'; known passes: ", absl::StrJoin(KnownPassNames(), ", "));
}

StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open '", path, "'");
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) return IoError("cannot read '", path, "'");
  return s.str();
}

}  // namespace

std::vector<std::string> KnownPassNames() {
  std::vector<std::string> names = PassRegistry::Instance().GraphPassNames();
  for (std::string& n : PassRegistry::Instance().NodePassNames()) names.push_back(std::move(n));
  std::sort(names.begin(), names.end());
  return names;
}

StatusOr<GeOptOptions> ParseArgs(const std::vector<std::string>& args) {
  GeOptOptions o;
  for (const std::string& a : args) {
    if (absl::StartsWith(a, "--passes=")) {
      for (absl::string_view p : absl::StrSplit(a.substr(9), ',', absl::SkipEmpty())) {
        o.passes.emplace_back(p);
      }
    } else if (absl::StartsWith(a, "--stage=")) {
      o.stage = a.substr(8);
      if (o.stage != "prepare" && o.stage != "stage1" && o.stage != "stage2" && o.stage != "all") {
        return ParamInvalid("unknown stage '", o.stage, "'; known: prepare, stage1, stage2, all");
      }
    } else if (absl::StartsWith(a, "--format=")) {
      o.format = a.substr(9);
      if (o.format != "text" && o.format != "onnx") {
        return ParamInvalid("unknown format '", o.format, "'; known: text, onnx");
      }
    } else if (absl::StartsWith(a, "--output=")) {
      o.output = a.substr(9);
    } else if (absl::StartsWith(a, "-")) {
      return ParamInvalid("unknown flag '", a,
                          "'; known: --passes=, --stage=, --format=, --output=");
    } else if (!o.input.empty()) {
      return ParamInvalid("more than one input file: '", o.input, "' and '", a, "'");
    } else {
      o.input = a;
    }
  }
  if (o.input.empty())
    return ParamInvalid("no input file (usage: ge_opt FILE [--passes=...] [--stage=...])");
  const PassRegistry& registry = PassRegistry::Instance();
  for (const std::string& p : o.passes) {
    if (!registry.HasGraphPass(p) && !registry.HasNodePass(p)) {
      return NotFound("unknown pass '", p,
                      "'; known passes: ", absl::StrJoin(KnownPassNames(), ", "));
    }
  }
  return o;
}

StatusOr<ComputeGraphPtr> ParseText(absl::string_view text, absl::string_view source_name) {
  StatusOr<ComputeGraphPtr> g = ParseGraphText(text);
  if (!g.ok()) return Annotate(g.status(), source_name, ": ");
  return g;
}

StatusOr<ComputeGraphPtr> LoadGraph(const GeOptOptions& options) {
  const bool onnx = options.format == "onnx" ||
                    (options.format.empty() && absl::EndsWith(options.input, ".onnx"));
  if (onnx) {
    ParseOptions popts;
    const size_t slash = options.input.find_last_of('/');
    popts.model_dir = slash == std::string::npos ? "." : options.input.substr(0, slash);
    StatusOr<ComputeGraphPtr> g = OnnxModelParser().ParseFile(options.input, popts);
    if (!g.ok()) return Annotate(g.status(), options.input, ": ");
    return g;
  }
  ASSIGN_OR_RETURN(std::string text, ReadFile(options.input));
  return ParseText(text, options.input);
}

Status Run(const ComputeGraphPtr& graph, const GeOptOptions& options) {
  CompileOptions copts;
  if (options.stage == "prepare") {
    RETURN_IF_ERROR(GraphPrepare().Prepare(graph, copts));
  } else if (options.stage == "stage1") {
    RETURN_IF_ERROR(GraphOptimize().OptimizeOriginalGraph(graph, copts));
  } else if (options.stage == "stage2") {
    RETURN_IF_ERROR(GraphOptimize().OptimizeAfterMerge(graph, copts));
  } else if (options.stage == "all") {
    CompilerStages stages;
    RETURN_IF_ERROR(stages.Compile(graph, copts).status());
  }
  if (options.passes.empty()) return OkStatus();
  // A PassManager, as the compiler runs passes (it verifies the graph
  // before and after each pass in debug and test builds).
  PassManager pm("ge_opt");
  for (const std::string& name : options.passes) {
    ASSIGN_OR_RETURN(std::unique_ptr<GraphPass> pass, CreatePass(name));
    RETURN_IF_ERROR(pm.AddPass(name, std::move(pass)));
  }
  return pm.Run(graph).status();
}

StatusOr<std::string> RunGeOpt(const std::vector<std::string>& args) {
  ASSIGN_OR_RETURN(GeOptOptions options, ParseArgs(args));
  ASSIGN_OR_RETURN(ComputeGraphPtr graph, LoadGraph(options));
  RETURN_IF_ERROR(Run(graph, options));
  std::string text = PrintGraphText(*graph);
  if (!options.output.empty()) {
    std::ofstream out(options.output, std::ios::binary);
    out << text;
    out.close();
    if (!out) return IoError("cannot write '", options.output, "'");
  }
  return text;
}

}  // namespace ge_opt
}  // namespace ge
