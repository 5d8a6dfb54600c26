// A downstream program: builds a tensor description with the public metadef
// API, then a small ComputeGraph with the public graph API (OpDesc, AddNode,
// anchor links, attributes, topological sort) and round-trips it through
// ModelSerialize. Prints a summary; exits non-zero if the API misbehaves.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "graph/serialization/inc/model_serialize.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/shape.h"
#include "metadef/inc/external/graph/tensor_desc.h"
#include "metadef/inc/external/graph/type_utils.h"

namespace {

int Fail(int code, const ge::Status& st) {
  std::fprintf(stderr, "downstream: step %d failed: %s\n", code, st.ToString().c_str());
  return code;
}

ge::OpDescPtr MakeOp(const std::string& name, const std::string& type, int in, int out) {
  auto op = std::make_shared<ge::OpDesc>(name, type);
  const ge::GeTensorDesc desc(ge::GeShape({1, 3, 224, 224}), ge::FORMAT_NCHW, ge::DT_FLOAT);
  for (int i = 0; i < in; ++i) {
    if (!op->AddInputDesc(desc).ok()) return nullptr;
  }
  for (int i = 0; i < out; ++i) {
    if (!op->AddOutputDesc(desc).ok()) return nullptr;
  }
  return op;
}

std::string Order(const ge::ComputeGraph& graph) {
  std::string s;
  for (const ge::NodePtr& node : graph.DirectNodes()) {
    if (!s.empty()) s += " -> ";
    s += node->GetName();
  }
  return s;
}

}  // namespace

int main() {
  // Layer 0: metadef base types.
  ge::StatusOr<ge::Shape> shape = ge::Shape::Create({1, 3, 224, 224});
  if (!shape.ok()) return 1;
  ge::TensorDesc desc(*shape, ge::DT_FLOAT, ge::FORMAT_NCHW);
  ge::StatusOr<int64_t> size = desc.GetSize();
  if (!size.ok() || *size != 1 * 3 * 224 * 224 * 4) return 2;
  std::printf("downstream: %s %s tensor of %lld bytes\n",
              ge::TypeUtils::DataTypeToSerialString(desc.GetDataType()).c_str(),
              ge::TypeUtils::FormatToSerialString(desc.GetFormat()).c_str(),
              static_cast<long long>(*size));

  // Layer 1: the graph. Nodes are added out of order; the sort fixes it.
  auto graph = std::make_shared<ge::ComputeGraph>("downstream");
  const ge::OpDescPtr ops[] = {MakeOp("out", ge::NETOUTPUT, 1, 0), MakeOp("add", "Add", 2, 1),
                               MakeOp("relu", "Relu", 1, 1), MakeOp("x", ge::DATA, 0, 1)};
  std::vector<ge::NodePtr> nodes;
  for (const ge::OpDescPtr& op : ops) {
    if (op == nullptr) return 3;
    ge::StatusOr<ge::NodePtr> node = graph->AddNode(op);
    if (!node.ok()) return Fail(4, node.status());
    nodes.push_back(*node);
  }
  const ge::NodePtr& out = nodes[0];
  const ge::NodePtr& add = nodes[1];
  const ge::NodePtr& relu = nodes[2];
  const ge::NodePtr& x = nodes[3];
  ge::Status st = x->GetOutDataAnchor(0)->LinkTo(relu->GetInDataAnchor(0));
  if (st.ok()) st = relu->GetOutDataAnchor(0)->LinkTo(add->GetInDataAnchor(0));
  if (st.ok()) st = x->GetOutDataAnchor(0)->LinkTo(add->GetInDataAnchor(1));
  if (st.ok()) st = add->GetOutDataAnchor(0)->LinkTo(out->GetInDataAnchor(0));
  if (st.ok()) st = x->GetOutControlAnchor()->LinkTo(out->GetInControlAnchor());
  if (st.ok()) st = ge::AttrUtils::SetInt(add->GetOpDesc(), "axis", 1);
  if (st.ok()) st = graph->AddOutputNodeByIndex(add, 0);
  if (!st.ok()) return Fail(5, st);
  st = graph->TopologicalSorting(ge::TopoSortingMode::kDFS);
  if (!st.ok()) return Fail(6, st);
  const std::string order = Order(*graph);
  if (order != "x -> relu -> add -> out") {
    std::fprintf(stderr, "downstream: unexpected order %s\n", order.c_str());
    return 7;
  }

  // Serialization round trip.
  ge::StatusOr<std::string> bytes = ge::ModelSerialize::SerializeModel(*graph);
  if (!bytes.ok()) return Fail(8, bytes.status());
  ge::StatusOr<ge::ComputeGraphPtr> back = ge::ModelSerialize::DeserializeModel(*bytes);
  if (!back.ok()) return Fail(9, back.status());
  ge::StatusOr<std::string> again = ge::ModelSerialize::SerializeModel(**back);
  if (!again.ok()) return Fail(10, again.status());
  ge::StatusOr<int64_t> axis = ge::AttrUtils::GetInt((*back)->FindNode("add")->GetOpDesc(), "axis");
  if (*again != *bytes || Order(**back) != order || !axis.ok() || *axis != 1 ||
      (*back)->FindNode("out")->GetInControlNodes().size() != 1) {
    std::fprintf(stderr, "downstream: the round trip changed the graph\n");
    return 11;
  }
  std::printf(
      "downstream: graph '%s' with %zu nodes sorted %s; %zu serialized bytes, round trip ok\n",
      graph->GetName().c_str(), graph->GetDirectNodesSize(), order.c_str(), bytes->size());
  return 0;
}
