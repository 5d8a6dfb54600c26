// graph/src/testing/graph_builder.cc
#include "graph/src/testing/graph_builder.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/inc/graph/anchor.h"

namespace ge {
namespace testing {

void CheckOk(const Status& status, const char* what) {
  if (status.ok()) return;
  std::fprintf(stderr, "graph_builder: %s failed: %s\n", what, status.ToString().c_str());
  std::abort();
}

OpDescPtr MakeOp(const std::string& name, const std::string& type, int in, int out,
                 const GeShape& shape, DataType dt) {
  auto op = std::make_shared<OpDesc>(name, type);
  for (int i = 0; i < in; ++i)
    CheckOk(op->AddInputDesc(GeTensorDesc(shape, FORMAT_ND, dt)), "AddInputDesc");
  for (int i = 0; i < out; ++i) {
    CheckOk(op->AddOutputDesc(GeTensorDesc(shape, FORMAT_ND, dt)), "AddOutputDesc");
  }
  return op;
}

GraphBuilder::GraphBuilder(const std::string& name)
    : graph_(std::make_shared<ComputeGraph>(name)) {}

NodePtr GraphBuilder::AddNode(const std::string& name, const std::string& type, int in, int out,
                              const GeShape& shape, DataType dt) {
  auto node = graph_->AddNode(MakeOp(name, type, in, out, shape, dt));
  CheckOk(node.status(), "AddNode");
  return *node;
}

void GraphBuilder::AddDataEdge(const NodePtr& src, int out, const NodePtr& dst, int in) {
  CheckOk(src->GetOutDataAnchor(out)->LinkTo(dst->GetInDataAnchor(in)), "AddDataEdge");
}

void GraphBuilder::AddControlEdge(const NodePtr& src, const NodePtr& dst) {
  CheckOk(src->GetOutControlAnchor()->LinkTo(dst->GetInControlAnchor()), "AddControlEdge");
}

std::vector<std::string> Names(const std::vector<NodePtr>& nodes) {
  std::vector<std::string> names;
  names.reserve(nodes.size());
  for (const NodePtr& n : nodes) names.push_back(n == nullptr ? "<null>" : n->GetName());
  return names;
}

std::vector<std::string> NodeNames(const ComputeGraph& graph) {
  return Names(graph.GetDirectNode());
}

std::vector<std::string> EdgeStrings(const ComputeGraph& graph) {
  std::vector<std::string> edges;
  for (const NodePtr& node : graph.DirectNodes()) {
    for (const OutDataAnchor* out : node->GetAllOutDataAnchorsPtr()) {
      for (const Anchor* peer : out->PeerAnchors()) {
        edges.push_back(absl::StrCat(node->GetName(), ":", out->GetIdx(), "->",
                                     peer->GetOwnerNodeBarePtr()->GetName(), ":", peer->GetIdx()));
      }
    }
    for (const Anchor* peer : node->OutControlPeers()) {
      if (peer->IsInControl()) {
        edges.push_back(
            absl::StrCat(node->GetName(), "->", peer->GetOwnerNodeBarePtr()->GetName()));
      } else {
        edges.push_back(absl::StrCat(node->GetName(), ":-1->",
                                     peer->GetOwnerNodeBarePtr()->GetName(), ":", peer->GetIdx()));
      }
    }
  }
  return edges;
}

}  // namespace testing
}  // namespace ge
