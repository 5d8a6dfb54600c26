// graph/serialization/inc/graph_dumper.h
//
// Graph dumps for debugging compiler stages, switched by environment
// variables in the style of GE:
//
//   DUMP_GE_GRAPH     what goes into a dump; unset, "" or "0": no dumps.
//                       1  everything (tensor bytes included)
//                       2  everything except tensor bytes (weights)
//                       3  structure only: op names, types and edges
//   DUMP_GRAPH_LEVEL  which files and how much of the graph tree (default 1):
//                       1  ge_proto_<seq>_<stage>.txt  ModelDef in protobuf
//                                                      text format
//                          ge_proto_<seq>_<stage>.dot  Graphviz, subgraphs as
//                                                      clusters
//                          ge_proto_<seq>_<stage>.pb   binary ModelDef,
//                                                      loadable with
//                                                      ModelSerialize::
//                                                      DeserializeModel (only
//                                                      with DUMP_GE_GRAPH=1)
//                       2  .txt and .dot of the root graph only: subgraph
//                          details are left out (ops keep their subgraph
//                          instance names; the DOT labels list them)
//   DUMP_GRAPH_PATH   directory for the files (default: the current
//                     directory); created (with parents) when missing.
//
// <seq> is a process-wide dump counter (8 digits, from 1) so files sort in
// dump order; <stage> is the stage name with every character other than
// [A-Za-z0-9_-.] replaced by '_'.
//
// Contract
//   * The environment is read on every call (tests may setenv in-process).
//   * A value other than those above is ParamInvalid naming the variable;
//     an I/O failure is IoError naming the file; a graph the serializer
//     rejects is that error. Compiler stages call DumpIfEnabled and may
//     ignore its status: a failed dump never changes the graph.
//   * Thread-safe (the counter is atomic; files have distinct names).
//
// Example
//   // DUMP_GE_GRAPH=1 DUMP_GRAPH_PATH=/tmp/dumps ./atc ...
//   GraphDumper::DumpIfEnabled(*graph, "AfterInferShape").IgnoreError();
#ifndef GRAPH_SERIALIZATION_INC_GRAPH_DUMPER_H_
#define GRAPH_SERIALIZATION_INC_GRAPH_DUMPER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

struct DumpConfig {
  enum class Content : int32_t { kOff = 0, kFull = 1, kNoTensorData = 2, kStructure = 3 };
  enum class Level : int32_t { kAll = 1, kRootOnly = 2 };
  Content content = Content::kOff;
  Level level = Level::kAll;
  std::string path = ".";
};

struct DotOptions {
  // Subgraphs as clusters (true) or only named in their parent's label.
  bool expand_subgraphs = true;
};

class GraphDumper {
 public:
  static constexpr const char* kEnvDumpGeGraph = "DUMP_GE_GRAPH";
  static constexpr const char* kEnvDumpGraphLevel = "DUMP_GRAPH_LEVEL";
  static constexpr const char* kEnvDumpGraphPath = "DUMP_GRAPH_PATH";

  // The configuration from the environment (content kOff when disabled).
  static StatusOr<DumpConfig> ConfigFromEnv();

  // Dumps `graph` after `stage_name` when DUMP_GE_GRAPH enables it.
  static Status DumpIfEnabled(const ComputeGraph& graph, absl::string_view stage_name);

  // Dumps with an explicit configuration; returns the files written (none
  // when config.content is kOff).
  static StatusOr<std::vector<std::string>> Dump(const ComputeGraph& graph,
                                                 absl::string_view stage_name,
                                                 const DumpConfig& config);

  // The Graphviz DOT text of a graph tree: ops labelled "name\ntype", data
  // edges labelled "out:in", control edges dashed, subgraphs as clusters.
  static std::string ToDot(const ComputeGraph& graph, const DotOptions& options = {});

  // "ge_proto_00000007_After_Fusion" (the file name without extension).
  static std::string FileStem(uint64_t seq, absl::string_view stage_name);
};

}  // namespace ge

#endif  // GRAPH_SERIALIZATION_INC_GRAPH_DUMPER_H_
