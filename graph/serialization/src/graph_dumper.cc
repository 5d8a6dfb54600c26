// graph/serialization/src/graph_dumper.cc
#include "graph/serialization/inc/graph_dumper.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/serialization/inc/model_serialize.h"

namespace ge {
namespace {

std::atomic<uint64_t> g_dump_seq{0};

std::string EnvOr(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return (v == nullptr || *v == '\0') ? std::string(fallback) : std::string(v);
}

Status MakeDirs(const std::string& path) {
  if (path.empty()) return OkStatus();
  std::string prefix;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t next = path.find('/', pos);
    if (next == std::string::npos) next = path.size();
    prefix = path.substr(0, next);
    pos = next + 1;
    if (prefix.empty() || prefix == "." || prefix == "..") continue;
    if (::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) {
      return IoError("cannot create dump directory '", prefix, "': ", std::strerror(errno));
    }
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return IoError("dump path '", path, "' is not a directory");
  }
  return OkStatus();
}

Status WriteFile(const std::string& file, const std::string& content) {
  std::FILE* f = std::fopen(file.c_str(), "wb");
  if (f == nullptr) return IoError("cannot open '", file, "' for writing: ", std::strerror(errno));
  const size_t written = std::fwrite(content.data(), 1, content.size(), f);
  const bool closed = std::fclose(f) == 0;
  if (written != content.size() || !closed) {
    return IoError("writing ", content.size(), " bytes to '", file, "' failed");
  }
  return OkStatus();
}

std::string DotQuote(absl::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

class DotWriter {
 public:
  DotWriter(const ComputeGraph& root, const DotOptions& options) : root_(root), options_(options) {}

  std::string Write() {
    if (options_.expand_subgraphs) CollectChildren();
    absl::StrAppend(&out_, "digraph ", DotQuote(root_.GetName()), " {\n");
    absl::StrAppend(&out_, "  compound=true;\n  node [shape=box, fontsize=10];\n",
                    "  edge [fontsize=8];\n");
    WriteGraphBody(root_, "  ");
    for (const std::string& e : deferred_edges_) absl::StrAppend(&out_, "  ", e, "\n");
    out_ += "}\n";
    return std::move(out_);
  }

 private:
  void CollectChildren() {
    std::vector<ComputeGraphPtr> subgraphs;
    if (root_.GetParentGraphBarePtr() == nullptr) {
      subgraphs = root_.GetAllSubgraphs();
    } else {
      for (const ComputeGraphPtr& sg : root_.GetRootGraphBarePtr()->GetAllSubgraphs()) {
        subgraphs.push_back(sg);
      }
    }
    for (const ComputeGraphPtr& sg : subgraphs) {
      const ComputeGraph* parent = sg->GetParentGraphBarePtr();
      if (parent != nullptr) children_[parent].push_back(sg.get());
    }
  }

  std::string IdOf(const Node* node) {
    auto it = ids_.find(node);
    if (it == ids_.end()) it = ids_.emplace(node, absl::StrCat("n", ids_.size())).first;
    return it->second;
  }

  void WriteGraphBody(const ComputeGraph& graph, const std::string& indent) {
    if (!visited_.insert(&graph).second) return;  // a malformed parent cycle
    for (const NodePtr& node : graph.DirectNodes()) {
      std::string label = absl::StrCat(node->GetName(), "\n", node->GetType());
      const auto& instances = node->GetOpDescBarePtr()->GetSubgraphInstanceNames();
      if (!options_.expand_subgraphs && !instances.empty()) {
        absl::StrAppend(&label, "\nsubgraphs: ", absl::StrJoin(instances, ", "));
      }
      absl::StrAppend(&out_, indent, IdOf(node.get()), " [label=", DotQuote(label), "];\n");
    }
    for (const NodePtr& node : graph.DirectNodes()) WriteInEdges(*node, indent);
    auto it = children_.find(&graph);
    if (it == children_.end()) return;
    for (const ComputeGraph* sg : it->second) {
      const std::string cluster = absl::StrCat("cluster_", clusters_++);
      absl::StrAppend(&out_, indent, "subgraph ", cluster, " {\n", indent,
                      "  label=", DotQuote(sg->GetName()), ";\n", indent, "  style=rounded;\n");
      std::string anchor_id;
      if (sg->GetDirectNodesSize() == 0) {
        anchor_id = absl::StrCat(cluster, "_empty");
        absl::StrAppend(&out_, indent, "  ", anchor_id, " [shape=point, style=invis];\n");
      } else {
        anchor_id = IdOf(sg->DirectNodes().front().get());
      }
      WriteGraphBody(*sg, indent + "  ");
      absl::StrAppend(&out_, indent, "}\n");
      const NodePtr parent = sg->GetParentNode();
      if (parent != nullptr) {
        deferred_edges_.push_back(absl::StrCat(IdOf(parent.get()), " -> ", anchor_id, " [lhead=",
                                               cluster, ", style=dotted, arrowhead=odot];"));
      }
    }
  }

  void WriteInEdges(const Node& node, const std::string& indent) {
    const std::string dst = IdOf(&node);
    for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
      const InDataAnchor* a = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
      if (const OutDataAnchor* p = a->GetPeerOutAnchorPtr()) {
        absl::StrAppend(&out_, indent, IdOf(p->GetOwnerNodeBarePtr()), " -> ", dst, " [label=\"",
                        p->GetIdx(), ":", i, "\"];\n");
      } else if (const OutControlAnchor* c = a->GetPeerOutControlAnchorPtr()) {
        absl::StrAppend(&out_, indent, IdOf(c->GetOwnerNodeBarePtr()), " -> ", dst,
                        " [style=dashed, label=\"ctrl:", i, "\"];\n");
      }
    }
    for (const Anchor* p : node.InControlPeers()) {
      if (p->IsOutData()) {
        absl::StrAppend(&out_, indent, IdOf(p->GetOwnerNodeBarePtr()), " -> ", dst,
                        " [style=dashed, label=\"", p->GetIdx(), ":ctrl\"];\n");
      } else {
        absl::StrAppend(&out_, indent, IdOf(p->GetOwnerNodeBarePtr()), " -> ", dst,
                        " [style=dashed];\n");
      }
    }
  }

  const ComputeGraph& root_;
  const DotOptions& options_;
  std::string out_;
  absl::flat_hash_map<const Node*, std::string> ids_;
  absl::flat_hash_map<const ComputeGraph*, std::vector<const ComputeGraph*>> children_;
  absl::flat_hash_set<const ComputeGraph*> visited_;
  std::vector<std::string> deferred_edges_;
  int clusters_ = 0;
};

}  // namespace

StatusOr<DumpConfig> GraphDumper::ConfigFromEnv() {
  DumpConfig config;
  const std::string content = EnvOr(kEnvDumpGeGraph, "0");
  if (content == "0") {
    config.content = DumpConfig::Content::kOff;
  } else if (content == "1") {
    config.content = DumpConfig::Content::kFull;
  } else if (content == "2") {
    config.content = DumpConfig::Content::kNoTensorData;
  } else if (content == "3") {
    config.content = DumpConfig::Content::kStructure;
  } else {
    return ParamInvalid(kEnvDumpGeGraph, "='", content, "' is not 0, 1, 2 or 3");
  }
  const std::string level = EnvOr(kEnvDumpGraphLevel, "1");
  if (level == "1") {
    config.level = DumpConfig::Level::kAll;
  } else if (level == "2") {
    config.level = DumpConfig::Level::kRootOnly;
  } else {
    return ParamInvalid(kEnvDumpGraphLevel, "='", level, "' is not 1 or 2");
  }
  config.path = EnvOr(kEnvDumpGraphPath, ".");
  return config;
}

Status GraphDumper::DumpIfEnabled(const ComputeGraph& graph, absl::string_view stage_name) {
  const char* v = std::getenv(kEnvDumpGeGraph);
  if (v == nullptr || *v == '\0' || std::strcmp(v, "0") == 0) return OkStatus();
  ASSIGN_OR_RETURN(DumpConfig config, ConfigFromEnv());
  return Dump(graph, stage_name, config).status();
}

std::string GraphDumper::FileStem(uint64_t seq, absl::string_view stage_name) {
  std::string stage(stage_name);
  for (char& c : stage) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) c = '_';
  }
  return absl::StrFormat("ge_proto_%08u_%s", seq, stage);
}

StatusOr<std::vector<std::string>> GraphDumper::Dump(const ComputeGraph& graph,
                                                     absl::string_view stage_name,
                                                     const DumpConfig& config) {
  std::vector<std::string> files;
  if (config.content == DumpConfig::Content::kOff) return files;
  RETURN_IF_ERROR(MakeDirs(config.path));
  const uint64_t seq = g_dump_seq.fetch_add(1, std::memory_order_relaxed) + 1;
  const std::string base = absl::StrCat(config.path, "/", FileStem(seq, stage_name));

  SerializeOptions options;
  options.omit_tensor_data = config.content != DumpConfig::Content::kFull;
  options.structure_only = config.content == DumpConfig::Content::kStructure;
  options.omit_subgraphs = config.level == DumpConfig::Level::kRootOnly;
  ASSIGN_OR_RETURN(std::string text, ModelSerialize::SerializeModelToText(graph, options));
  files.push_back(base + ".txt");
  RETURN_IF_ERROR(WriteFile(files.back(), text));

  DotOptions dot;
  dot.expand_subgraphs = config.level == DumpConfig::Level::kAll;
  files.push_back(base + ".dot");
  RETURN_IF_ERROR(WriteFile(files.back(), ToDot(graph, dot)));

  if (config.content == DumpConfig::Content::kFull && config.level == DumpConfig::Level::kAll) {
    ASSIGN_OR_RETURN(std::string bytes, ModelSerialize::SerializeModel(graph));
    files.push_back(base + ".pb");
    RETURN_IF_ERROR(WriteFile(files.back(), bytes));
  }
  return files;
}

std::string GraphDumper::ToDot(const ComputeGraph& graph, const DotOptions& options) {
  return DotWriter(graph, options).Write();
}

}  // namespace ge
