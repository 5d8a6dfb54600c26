// graph/src/testing/graph_builder.h
//
// Test helper (testonly): terse construction of small graphs. Misuse (a
// failing AddNode / link) aborts the test binary with a message, so test
// bodies stay short; tests of the error paths call the real API directly.
//
// Example
//   testing::GraphBuilder b("g");
//   NodePtr data = b.AddNode("data", DATA, 0, 1);
//   NodePtr relu = b.AddNode("relu", "Relu", 1, 1);
//   b.AddDataEdge(data, 0, relu, 0);
//   EXPECT_EQ(testing::NodeNames(*b.graph()), (std::vector<std::string>{"data", "relu"}));
#ifndef GRAPH_SRC_TESTING_GRAPH_BUILDER_H_
#define GRAPH_SRC_TESTING_GRAPH_BUILDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace testing {

// An OpDesc with `in` inputs and `out` outputs of the given shape / type.
OpDescPtr MakeOp(const std::string& name, const std::string& type, int in, int out,
                 const GeShape& shape = GeShape({1}), DataType dt = DT_FLOAT);

// Aborts with the status message when !status.ok().
void CheckOk(const Status& status, const char* what);

class GraphBuilder {
 public:
  explicit GraphBuilder(const std::string& name);
  explicit GraphBuilder(ComputeGraphPtr graph) : graph_(std::move(graph)) {}

  NodePtr AddNode(const std::string& name, const std::string& type, int in, int out,
                  const GeShape& shape = GeShape({1}), DataType dt = DT_FLOAT);
  void AddDataEdge(const NodePtr& src, int out, const NodePtr& dst, int in);
  void AddControlEdge(const NodePtr& src, const NodePtr& dst);
  const ComputeGraphPtr& graph() const { return graph_; }

 private:
  ComputeGraphPtr graph_;
};

std::vector<std::string> Names(const std::vector<NodePtr>& nodes);
// Names of the direct nodes in list order.
std::vector<std::string> NodeNames(const ComputeGraph& graph);
// Every (src, dst) data edge as "src:out->dst:in" and control edge as
// "src->dst" (control -> data "src:-1->dst:in", data -> control
// "src:out->dst:-1"), in node / anchor / peer order.
std::vector<std::string> EdgeStrings(const ComputeGraph& graph);

}  // namespace testing
}  // namespace ge

#endif  // GRAPH_SRC_TESTING_GRAPH_BUILDER_H_
