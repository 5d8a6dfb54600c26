// runtime/reference/reference_interpreter.h
//
// ReferenceInterpreter: runs a ge::ComputeGraph node by node with the
// registered host-CPU kernels (REG_KERNEL(Type, kEngineHostCpu), kernel_registry.h). It is
// the test oracle of every compiler stage: run a graph before and after a
// pass and compare the outputs. Correctness and clear errors come first;
// speed is the kernels' business.
//
// Contract
//   * Inputs: inputs[k] feeds the Data node whose "index" attribute is k; when
//     a Data node has no "index", its position among the graph's input nodes
//     (ComputeGraph::GetInputNodes) is used. Exactly one tensor per Data node;
//     indices must be distinct and in range.
//   * Outputs: the inputs of the NetOutput node, in input order. Without a
//     NetOutput node, the (node, output index) pairs of
//     ComputeGraph::GetGraphOutNodesInfo; with neither, no outputs.
//   * Order: a topological order of data and control edges that keeps the
//     node list order wherever it is already topological (so a graph sorted
//     by ComputeGraph::TopologicalSorting runs in exactly its sorted order).
//     A cycle is a GraphCycle error naming nodes on it. The graph is never
//     modified.
//   * Per node:
//       Data      passes its input tensor (no copy);
//       Const     produces its "value" tensor attribute (ATTR_NAME_WEIGHTS);
//       NetOutput collects the outputs;
//       NoOp      does nothing;
//       any other type is looked up in the OpRegistry: inputs are collected
//       (an unconnected optional input is absent: nullptr), checked against
//       the IR (input data types, required attributes), then verify, infer
//       data type and infer shape run with every input value known; outputs
//       whose shape is then fully known are allocated before the kernel runs,
//       the others through the KernelContext's OutputAllocator (the kernel
//       calls AllocateOutput). After the kernel, every output must be
//       allocated and agree with what infer produced (data type; rank and
//       known dims). An op without an infer shape function runs with
//       unknown-rank outputs that its kernel must allocate.
//   * Subgraphs (If / Loop / Scan bodies): the KernelContext's SubgraphRunner
//     runs subgraph `i` of the node (OpDesc subgraph instance name i, looked up
//     with ComputeGraph::GetSubgraph) with this interpreter. Its inputs[k]
//     feeds the subgraph Data node whose ATTR_NAME_PARENT_NODE_INDEX
//     ("_parent_node_index") is k (else its "index", else its position among
//     the subgraph's input nodes); unused inputs are allowed. Its outputs are
//     the subgraph NetOutput's inputs in input order, or ordered by the
//     ATTR_NAME_PARENT_NODE_INDEX of the NetOutput input descs when every
//     one carries it.
//   * Memory: an intermediate tensor is freed as soon as its last consumer
//     has run; outputs are moved out when possible, copied otherwise.
//   * Errors name the node and its op type ("node add1 (Add): ..."): unknown
//     op type (NotFound with suggestions), no kernel for the engine
//     (NotSupported), an unconnected required input (GraphInvalid), data types
//     outside the IR's TensorType, infer / verify / kernel errors (their own
//     code), a kernel output that disagrees with infer shape / data type
//     (Internal), too many subgraph runs (OutOfRange). Nothing crashes on a
//     malformed graph.
//
// Thread safety: Run keeps no state between calls; concurrent runs of
// graphs that are not modified meanwhile are safe (the registry must not be
// written concurrently, see op_registry.h).
//
// The interpreter links no op library: its clients link the op families they
// need (their targets are alwayslink, so linking is registering).
//
// Example
//   ASSIGN_OR_RETURN(gert::HostTensor x, gert::HostTensor::Create(ge::DT_FLOAT, {2, 3}));
//   std::vector<gert::HostTensor> inputs;
//   inputs.push_back(std::move(x));
//   ASSIGN_OR_RETURN(std::vector<gert::HostTensor> outputs,
//                    ge::ReferenceInterpreter::Run(*graph, std::move(inputs)));
//
//   // Tracing: print every node's output shapes.
//   ge::ReferenceInterpreter::Options opts;
//   opts.node_callback = [](const ge::ReferenceInterpreter::NodeRunInfo& info) {
//     for (const gert::Tensor* t : info.outputs) std::cout << t->GetShape().ToString();
//     return ge::OkStatus();
//   };
#ifndef RUNTIME_REFERENCE_REFERENCE_INTERPRETER_H_
#define RUNTIME_REFERENCE_REFERENCE_INTERPRETER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"

namespace ge {

// What the node callback sees after a node has run. Pointers are valid only
// during the callback.
struct ReferenceNodeRunInfo {
  const Node* node = nullptr;
  const ComputeGraph* graph = nullptr;  // the (sub)graph the node belongs to
  int32_t depth = 0;                    // 0: the graph given to Run
  // Input tensors in input order (nullptr for an absent optional input).
  absl::Span<const gert::Tensor* const> inputs;
  // Output tensors in output order (empty for NetOutput).
  absl::Span<const gert::Tensor* const> outputs;
};

// Runs chosen nodes with kernels other than the host-CPU ones (the dynamic
// executor's cache of prepared compute-engine kernels). TryRun is called
// for a kernel node once its outputs are allocated with their inferred
// shapes; it sets *ran when it ran the node, else the interpreter runs the
// node's kernel of Options::engine.
class KernelProvider {
 public:
  virtual ~KernelProvider() = default;
  virtual Status TryRun(const Node& node, absl::Span<const gert::IrInstance> ir,
                        absl::Span<const gert::Tensor* const> inputs,
                        absl::Span<gert::Tensor* const> outputs, bool* ran) = 0;
};

// Counters of one run (subgraph runs included).
struct ReferenceRunStats {
  int64_t nodes_executed = 0;    // every node, Data / Const / NetOutput included
  int64_t kernels_executed = 0;  // registered kernels called
  int64_t subgraph_runs = 0;
  // Bytes of tensors owned by the interpreter (node outputs awaiting their
  // consumers, outputs of the running node): the largest total at any
  // moment, and the total at the end (0 after a run: everything was freed or
  // returned).
  int64_t peak_live_bytes = 0;
  int64_t live_bytes = 0;
};

struct ReferenceInterpreterOptions {
  // The kernel of this engine runs every node.
  std::string engine = kEngineHostCpu;
  // Called after every node (at every depth); an error stops the run and is
  // returned annotated with the node.
  std::function<Status(const ReferenceNodeRunInfo&)> node_callback;
  // A node's kernel may run each of its subgraphs at most this many times
  // per execution of the node (guards Loop / While against endless loops).
  int64_t max_loop_iterations = int64_t{1} << 20;
  // Subgraphs may nest this deep (guards against recursive subgraphs).
  int32_t max_subgraph_depth = 32;
  // When set, filled with the counters of the run (also on error).
  ReferenceRunStats* stats = nullptr;
  // Optional outputs (OpReg::OptionalOutput: MaxPool Indices, Dropout mask,
  // LSTM Y, ...) that nothing consumes are not produced: the kernel sees a
  // null output tensor and the node callback a null output. Off by default
  // (callbacks then see every output).
  bool skip_unconsumed_optional_outputs = false;
  // When set, asked first for every kernel node (see KernelProvider).
  KernelProvider* kernel_provider = nullptr;
};

class ReferenceInterpreter {
 public:
  using NodeRunInfo = ReferenceNodeRunInfo;
  using NodeCallback = std::function<Status(const ReferenceNodeRunInfo&)>;
  using Stats = ReferenceRunStats;
  using Options = ReferenceInterpreterOptions;

  // Runs `graph` on `inputs` (see the file comment); returns the outputs.
  static StatusOr<std::vector<gert::HostTensor>> Run(const ComputeGraph& graph,
                                                     std::vector<gert::HostTensor> inputs,
                                                     const Options& opts = Options());

  // Runs `graph` as a subgraph would run: inputs[k] feeds the Data node whose
  // ATTR_NAME_PARENT_NODE_INDEX (else "index") is k; unused inputs are
  // allowed. The tensors are not copied and must outlive the call.
  static StatusOr<std::vector<gert::HostTensor>> RunWithViews(
      const ComputeGraph& graph, absl::Span<const gert::Tensor* const> inputs,
      const Options& opts = Options());
};

// The attribute giving a top-level Data node's input position (ONNX graph
// input order; GE's ATTR_NAME_INDEX).
inline constexpr const char* kReferenceDataIndexAttr = "index";

}  // namespace ge

#endif  // RUNTIME_REFERENCE_REFERENCE_INTERPRETER_H_
