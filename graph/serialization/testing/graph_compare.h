// graph/serialization/testing/graph_compare.h
//
// Test helper (testonly): structural equality of two ComputeGraph trees, for
// serialization round trips. OK when equal; otherwise a status whose message
// names the first difference with its path, e.g.
//   "graph 'g' / node 'conv' / input desc 1: data type DT_FLOAT vs DT_INT8".
//
// Compared: graph name, id and attributes; nodes in list order (name, type,
// every OpDesc field that the serializer carries, anchor counts); every
// peer list of every anchor, in order (so edge order and consumer order are
// compared); input nodes; output nodes with their indices; the subgraphs of
// the tree in registration order with their registration names, parent
// graphs and parent nodes. Attribute values are compared by value, graphs
// recursively, floats bitwise. Not compared: function slots, the sorted flag.
//
// Example
//   GE_EXPECT_OK(testing::CompareGraphs(*original, *round_tripped));
#ifndef GRAPH_SERIALIZATION_TESTING_GRAPH_COMPARE_H_
#define GRAPH_SERIALIZATION_TESTING_GRAPH_COMPARE_H_

#include <string>
#include <vector>

#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace testing {

Status CompareGraphs(const ComputeGraph& a, const ComputeGraph& b);
Status CompareAttrValues(const AttrValue& a, const AttrValue& b);
Status CompareAttrStores(const AttrStore& a, const AttrStore& b);
Status CompareTensorDescs(const GeTensorDesc& a, const GeTensorDesc& b);

// The subgraphs serialized with `graph` (its registry if it is a root, the
// root's subgraphs below it otherwise), in registration order.
std::vector<ComputeGraphPtr> TreeSubgraphs(const ComputeGraph& graph);

}  // namespace testing
}  // namespace ge

#endif  // GRAPH_SERIALIZATION_TESTING_GRAPH_COMPARE_H_
