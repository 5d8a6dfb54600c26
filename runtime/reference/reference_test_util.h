// runtime/reference/reference_test_util.h
//
// Test helpers (testonly) for graphs run by the reference interpreter: terse
// graph construction through the graph API and OperatorFactory, and host
// tensor makers / readers. Construction mistakes in a test (an unknown op
// type, a failing link) abort the test binary with the message, so test
// bodies stay short; the error paths of the interpreter are tested with
// graphs that are well-formed for the graph layer.
//
// Example
//   reftest::TestGraph g("mlp");
//   ge::NodePtr x = g.Data("x", 0);
//   ge::NodePtr relu = g.Op("relu", "Relu", {x});
//   g.NetOutput({relu});
//   auto out = ge::ReferenceInterpreter::Run(*g.graph(), reftest::Inputs(F32({2}, {-1, 1})));
#ifndef RUNTIME_REFERENCE_REFERENCE_TEST_UTIL_H_
#define RUNTIME_REFERENCE_REFERENCE_TEST_UTIL_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ge {
namespace reftest {

// Aborts with `what` and the message when !status.ok().
void CheckOk(const Status& status, const std::string& what);

// One output of a node; a null node means "leave the input unconnected".
struct Out {
  Out() = default;
  Out(NodePtr n) : node(std::move(n)) {}  // NOLINT: output 0 by default
  Out(NodePtr n, int32_t i) : node(std::move(n)), index(i) {}
  NodePtr node;
  int32_t index = 0;
};

using Attrs = std::map<std::string, AttrValue>;

class TestGraph {
 public:
  // A root graph.
  explicit TestGraph(const std::string& name);
  // A subgraph bound to subgraph slot `slot` of `parent_node` (which must be
  // in a graph of the same tree).
  TestGraph(const std::string& name, const NodePtr& parent_node, uint32_t slot);

  const ComputeGraphPtr& graph() const { return graph_; }

  // A Data node with "index" = index (unless index < 0) and, when
  // parent_index >= 0, ATTR_NAME_PARENT_NODE_INDEX.
  NodePtr Data(const std::string& name, int64_t index, int64_t parent_index = -1);
  // Data(name, index) whose input and output descs are `dims` / `dt` (ND).
  NodePtr TypedData(const std::string& name, int64_t index, const std::vector<int64_t>& dims,
                    DataType dt = DT_FLOAT);
  // A Const node holding `value` (copied).
  NodePtr Const(const std::string& name, const gert::HostTensor& value);
  // A Const node holding `value` as is (e.g. malformed data).
  NodePtr ConstTensor(const std::string& name, const GeTensor& value);
  // A node of a registered type (OperatorFactory::CreateOpDesc), input i
  // linked from inputs[i] (null nodes left unconnected), attributes set.
  NodePtr Op(const std::string& name, const std::string& type, const std::vector<Out>& inputs,
             const Attrs& attrs = {}, const std::map<std::string, uint32_t>& dynamic_counts = {});
  // A node of any type built by hand: n_in inputs ("__input<i>"), n_out outputs.
  NodePtr RawOp(const std::string& name, const std::string& type, const std::vector<Out>& inputs,
                int n_in, int n_out);
  // The NetOutput node collecting `outputs` in order.
  NodePtr NetOutput(const std::vector<Out>& outputs, const std::string& name = "output");

  void Link(const Out& src, const NodePtr& dst, int32_t in);
  void Control(const NodePtr& src, const NodePtr& dst);

 private:
  NodePtr Add(const OpDescPtr& op);
  ComputeGraphPtr graph_;
};

// ---- tensors
gert::HostTensor F32(std::initializer_list<int64_t> shape, std::vector<float> values);
gert::HostTensor I64(std::initializer_list<int64_t> shape, std::vector<int64_t> values);
gert::HostTensor Bool(std::initializer_list<int64_t> shape, std::vector<bool> values);
// A FLOAT tensor of `shape` filled with `value`.
gert::HostTensor F32Fill(std::initializer_list<int64_t> shape, float value);
std::vector<float> ToF32(const gert::Tensor& t);
std::vector<int64_t> ToI64(const gert::Tensor& t);
inline std::vector<float> ToF32(const gert::HostTensor& t) { return ToF32(t.tensor()); }
inline std::vector<int64_t> ToI64(const gert::HostTensor& t) { return ToI64(t.tensor()); }
std::vector<int64_t> Dims(const gert::HostTensor& t);
// GE's string tensor layout (as the ONNX parser writes it): n headers
// {int64 offset, int64 length}, then each string's bytes and a '\0'.
std::vector<uint8_t> EncodeGeStrings(const std::vector<std::string>& strings);
// A GeTensor with the dtype, shape and bytes of `t`; STRING tensors are
// encoded in GE's string layout (EncodeGeStrings).
GeTensor ToGeTensor(const gert::HostTensor& t);

// Builds an input vector from move-only tensors.
template <typename... T>
std::vector<gert::HostTensor> Inputs(T&&... tensors) {
  std::vector<gert::HostTensor> v;
  (v.push_back(std::forward<T>(tensors)), ...);
  return v;
}

}  // namespace reftest
}  // namespace ge

#endif  // RUNTIME_REFERENCE_REFERENCE_TEST_UTIL_H_
