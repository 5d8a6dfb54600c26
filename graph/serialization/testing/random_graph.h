// graph/serialization/testing/random_graph.h
//
// Test helper (testonly): seeded random ComputeGraph trees that use every
// feature the serialized format carries: ports with default, custom,
// dynamic and optional names, absent optional inputs, tensor descs with
// unknown dims / ranks, every data type, packed formats (sub-format, C0),
// origin shape / format / data type, shape ranges (also stale ones), real dim
// counts, the extended meta and desc attributes; IR metadata; compile state;
// attributes of every AttrValue type on graphs, ops and descs (graph-valued
// ones nesting random graphs); data, control, data -> control and control ->
// data edges linked in random order (so consumer orders are not canonical);
// unconnected inputs, extra anchors; custom input / output node lists;
// subgraphs (one nested, one registered under an alias, one parentless).
// The same seed always gives the same graph.
//
// Example
//   ComputeGraphPtr g = testing::RandomGraph(42);
#ifndef GRAPH_SERIALIZATION_TESTING_RANDOM_GRAPH_H_
#define GRAPH_SERIALIZATION_TESTING_RANDOM_GRAPH_H_

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"

namespace ge {
namespace testing {

struct RandomGraphOptions {
  int num_nodes = 24;
  // Add subgraphs (If-like parents, a nested one, an aliased one, a
  // parentless one).
  bool with_subgraphs = true;
  // Graph-valued attributes nest random graphs this deep.
  int attr_graph_depth = 1;
};

ComputeGraphPtr RandomGraph(uint64_t seed, const RandomGraphOptions& options = {});

// One value of every AttrValue type (VT_NONE included), named by type
// ("int", "list_tensor", ...). Graph values are random graphs of depth
// `graph_depth` (none when 0: graph types then hold graphs without
// graph-valued attributes).
std::vector<std::pair<std::string, AttrValue>> AllAttrTypes(std::mt19937_64& rng, int graph_depth);

GeTensorDesc RandomTensorDesc(std::mt19937_64& rng, bool with_attrs);

}  // namespace testing
}  // namespace ge

#endif  // GRAPH_SERIALIZATION_TESTING_RANDOM_GRAPH_H_
