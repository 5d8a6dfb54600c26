// build/model/build_test_util.h
//
// Hand-built graphs for the build/ tests and benchmarks (testonly): shapes are
// set explicitly, so no op library or shape inference is needed.
//
// Example
//   buildtest::GraphMaker g("m");
//   NodePtr x = g.Data("x", 0, {2, 3});
//   NodePtr w = g.ConstF32("w", {2, 3}, {1, 2, 3, 4, 5, 6});
//   NodePtr y = g.Binary("add", "Add", x, w);
//   g.NetOutput({{y, 0}});
#ifndef BUILD_MODEL_BUILD_TEST_UTIL_H_
#define BUILD_MODEL_BUILD_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"

namespace ge {
namespace buildtest {

using Src = std::pair<NodePtr, int32_t>;

class GraphMaker {
 public:
  explicit GraphMaker(const std::string& name);

  const ComputeGraphPtr& graph() const { return graph_; }

  NodePtr Data(const std::string& name, int64_t index, const std::vector<int64_t>& dims,
               DataType dt = DT_FLOAT);
  NodePtr ConstF32(const std::string& name, const std::vector<int64_t>& dims,
                   const std::vector<float>& values);
  NodePtr ConstBytes(const std::string& name, const std::vector<int64_t>& dims, DataType dt,
                     const std::vector<uint8_t>& bytes);
  // A node of `type` reading `inputs` with the given output descs.
  NodePtr Op(const std::string& name, const std::string& type, const std::vector<Src>& inputs,
             const std::vector<GeTensorDesc>& outputs);
  // One output shaped like input 0's producer output.
  NodePtr Unary(const std::string& name, const std::string& type, const NodePtr& x);
  NodePtr Binary(const std::string& name, const std::string& type, const NodePtr& a,
                 const NodePtr& b);
  NodePtr NetOutput(const std::vector<Src>& inputs, const std::string& name = "output");

 private:
  NodePtr Add(const OpDescPtr& op, const std::vector<Src>& inputs);
  ComputeGraphPtr graph_;
};

// Data -> {Add(const), Relu} repeated -> NetOutput with `num_nodes` nodes in
// total (about); consts are distinct unless `shared_const`.
ComputeGraphPtr MakeAddReluChain(size_t num_nodes, const std::vector<int64_t>& dims,
                                 bool shared_const = false);

// The atc benchmark "ladder" (tools: make_synth.py) as a compiled graph: two
// [1,16] float Data streams a, b and rungs a = Relu(Mul(Add(a, b), c));
// b = Relu(Mul(Add(b, a), c)) with a new Const c every 4 Muls, `num_ops`
// Add / Mul / Relu nodes in total, the last one feeding NetOutput.
ComputeGraphPtr MakeLadder(size_t num_ops);

}  // namespace buildtest
}  // namespace ge

#endif  // BUILD_MODEL_BUILD_TEST_UTIL_H_
