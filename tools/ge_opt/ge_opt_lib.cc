// tools/ge_opt/ge_opt_lib.cc
#include "tools/ge_opt/ge_opt_lib.h"

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
#include "compiler/passes/cast_remove_pass.h"
#include "compiler/passes/common_subexpression_elimination_pass.h"
#include "compiler/passes/cond_remove_pass.h"
#include "compiler/passes/constant_folding_pass.h"
#include "compiler/passes/constant_fuse_same_pass.h"
#include "compiler/passes/control_flow_lowering_pass.h"
#include "compiler/passes/dead_code_elimination_pass.h"
#include "compiler/passes/fuse_data_nodes_with_common_input_pass.h"
#include "compiler/passes/identity_delete_pass.h"
#include "compiler/passes/infer_shape_pass.h"
#include "compiler/passes/inner_identity_delete_pass.h"
#include "compiler/passes/pass_framework/ge_pass.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "compiler/passes/pass_framework/pass_manager.h"
#include "compiler/passes/reshape_remove_pass.h"
#include "compiler/passes/trans_op_breadth_fusion_pass.h"
#include "compiler/stages/compiler_stages.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/serialization/inc/graph_text.h"

namespace ge {
namespace ge_opt {
namespace {

using PassFactory = std::function<std::unique_ptr<GraphPass>()>;

template <typename T>
PassFactory Graph() {
  return [] { return std::unique_ptr<GraphPass>(std::make_unique<T>()); };
}

// A node pass runs as the compiler runs it: in a NodePassGroup (GEPass).
template <typename T>
PassFactory Node() {
  return [] {
    auto group = std::make_unique<NodePassGroup>(std::string(T().name()));
    group->template AddPass<T>();
    return std::unique_ptr<GraphPass>(std::move(group));
  };
}

// The passes --passes accepts, by class name.
const std::map<std::string, PassFactory>& PassTable() {
  static const auto* const kTable = new std::map<std::string, PassFactory>{
      {"CastRemovePass", Node<CastRemovePass>()},
      {"CommonSubexpressionEliminationPass", Graph<CommonSubexpressionEliminationPass>()},
      {"CondRemovePass", Graph<CondRemovePass>()},
      {"ConstantFoldingPass", Graph<ConstantFoldingPass>()},
      {"ConstantFuseSamePass", Graph<ConstantFuseSamePass>()},
      {"ControlFlowLoweringPass", Graph<ControlFlowLoweringPass>()},
      {"DeadCodeEliminationPass", Graph<DeadCodeEliminationPass>()},
      {"FuseDataNodesWithCommonInputPass", Graph<FuseDataNodesWithCommonInputPass>()},
      {"IdentityDeletePass", Node<IdentityDeletePass>()},
      {"InferShapePass", Graph<InferShapePass>()},
      {"InnerIdentityDeletePass", Node<InnerIdentityDeletePass>()},
      {"ReshapeRemovePass", Node<ReshapeRemovePass>()},
      {"TransOpBreadthFusionPass", Graph<TransOpBreadthFusionPass>()},
  };
  return *kTable;
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
  std::vector<std::string> names;
  for (const auto& [name, factory] : PassTable()) names.push_back(name);
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
  for (const std::string& p : o.passes) {
    if (PassTable().count(p) == 0) {
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
    auto it = PassTable().find(name);
    if (it == PassTable().end()) {
      return NotFound("unknown pass '", name,
                      "'; known passes: ", absl::StrJoin(KnownPassNames(), ", "));
    }
    RETURN_IF_ERROR(pm.AddPass(name, it->second()));
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
