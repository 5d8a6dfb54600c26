// runtime/reference/reference_interpreter.cc
//
// One GraphExec per (sub)graph execution: it orders the nodes, counts the
// consumers of every output, binds the Data nodes to the given tensors and
// runs the nodes, freeing each intermediate tensor after its last consumer.
// Subgraphs run through NodeSubgraphRunner, which starts a nested GraphExec.
#include "runtime/reference/reference_interpreter.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/op_infer_runner.h"

namespace ge {
namespace {

using gert::HostTensor;
using gert::Tensor;
using Options = ReferenceInterpreter::Options;
using Stats = ReferenceInterpreter::Stats;
using NodeRunInfo = ReferenceInterpreter::NodeRunInfo;

std::string NodeHead(const Node& node) {
  return absl::StrCat("node ", node.GetName(), " (", node.GetType(), "): ");
}

// Errors from op functions usually name the node already (ctx.Error).
Status NameNode(const Status& st, const Node& node, absl::string_view stage) {
  if (st.ok()) return st;
  if (absl::StartsWith(st.message(), absl::StrCat("node ", node.GetName(), " ("))) return st;
  return Annotate(st, NodeHead(node), stage, ": ");
}

std::string DtName(DataType dt) { return TypeUtils::DataTypeToSerialString(dt); }

bool IsDataType(const std::string& type) { return type == DATA || type == REFDATA; }

// Shared by every graph level of one Run.
struct RunState {
  const Options* opts = nullptr;
  Stats stats;
  void Add(int64_t bytes) {
    stats.live_bytes += bytes;
    stats.peak_live_bytes = std::max(stats.peak_live_bytes, stats.live_bytes);
  }
  void Sub(int64_t bytes) { stats.live_bytes -= bytes; }
};

// One output of one node.
// Decodes a DT_STRING constant in GE's string tensor layout (as the ONNX
// parser writes it): `count` headers {int64 offset, int64 length}, offsets
// from the start of the data, followed by the string bytes (each followed by
// a '\0' the decoder does not need). GraphInvalid naming the element when a
// header points outside the data.
StatusOr<HostTensor> DecodeStringConst(absl::Span<const uint8_t> data, const gert::Shape& shape,
                                       Format format) {
  const int64_t count = shape.GetShapeSize();
  ASSIGN_OR_RETURN(HostTensor t, HostTensor::Create(DT_STRING, shape, format));
  constexpr uint64_t kHead = 2 * sizeof(int64_t);
  if (static_cast<uint64_t>(count) > data.size() / kHead) {
    return GraphInvalid("string value ", shape.ToString(), " needs ", count,
                        " headers of 16 bytes but holds ", data.size(), " bytes");
  }
  std::string* out = t.MutableData<std::string>();
  for (int64_t i = 0; i < count; ++i) {
    int64_t head[2];
    std::memcpy(head, data.data() + static_cast<size_t>(i) * kHead, sizeof(head));
    if (head[0] < 0 || head[1] < 0 || static_cast<uint64_t>(head[0]) > data.size() ||
        static_cast<uint64_t>(head[1]) > data.size() - static_cast<uint64_t>(head[0])) {
      return GraphInvalid("string element ", i, " (offset ", head[0], ", length ", head[1],
                          ") is outside the ", data.size(), " data bytes");
    }
    out[i].assign(reinterpret_cast<const char*>(data.data()) + head[0],
                  static_cast<size_t>(head[1]));
  }
  return t;
}

struct Value {
  bool present = false;
  bool is_owned = false;
  HostTensor owned;   // when is_owned
  Tensor view;        // when !is_owned (graph inputs, constants)
  int64_t bytes = 0;  // tracked in RunState when owned
  int32_t uses = 0;   // consumers that have not run yet

  const Tensor* get() const { return is_owned ? &owned.tensor() : &view; }
};

// An int attribute: nullopt-like (false) when absent; TypeMismatch when it
// holds something else.
StatusOr<bool> ReadIntAttr(const AttrHolder& holder, absl::string_view name, int64_t* out) {
  const AttrValue* v = holder.GetAttr(name);
  if (v == nullptr) return false;
  const int64_t* i = v->Get<int64_t>();
  if (i == nullptr) {
    return TypeMismatch("attribute '", name, "' is ", AttrValue::ValueTypeName(v->GetValueType()),
                        ", expected int");
  }
  *out = *i;
  return true;
}

// ---------------------------------------------------------------- IR mapping
// Input slots map to IR inputs by the registry's one rule (MapInputSlotsToIr, see
// CheckOpDescAgainstRegistration), with "present" meaning "connected".

// Maps the inputs to IR instances and checks them against the registration:
// connected required inputs, data types, attributes.
StatusOr<std::vector<gert::IrInstance>> MapAndCheckInputs(const Node& node,
                                                          const OpRegistrationData& reg,
                                                          absl::Span<const Tensor* const> inputs) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  StatusOr<std::vector<gert::IrInstance>> mapped = MapInputSlotsToIr(op, reg, inputs.size());
  if (!mapped.ok()) return GraphInvalid(NodeHead(node), mapped.status().message());
  std::vector<gert::IrInstance> ir = std::move(mapped).value();
  for (size_t k = 0; k < reg.inputs.size(); ++k) {
    const OpIoDef& io = reg.inputs[k];
    if (io.kind == IoKind::kOptional && ir[k].count == 1 && inputs[ir[k].start] == nullptr) {
      ir[k].count = 0;
    }
    for (size_t s = ir[k].start; s < ir[k].start + ir[k].count; ++s) {
      const std::string in_name =
          absl::StrCat("'", op.GetInputNameByIndex(static_cast<uint32_t>(s)), "' (index ", s, ")");
      if (inputs[s] == nullptr) {
        return GraphInvalid(NodeHead(node), "input ", in_name, " is not connected (IR input '",
                            io.name, "' is ", io.kind == IoKind::kDynamic ? "dynamic" : "required",
                            ")");
      }
      RETURN_IF_ERROR(Annotate(io.types.Check(in_name, inputs[s]->GetDataType()), NodeHead(node)));
    }
  }
  for (const OpAttrDef& def : reg.attrs) {
    const AttrValue* v = op.GetAttr(def.name);
    if (v == nullptr) {
      if (def.required) {
        return ParamInvalid(NodeHead(node), "required attribute '", def.name, "' (",
                            AttrValue::ValueTypeName(def.type), ") is missing");
      }
      continue;
    }
    const AttrValue::ValueType t = v->GetValueType();
    bool ok = def.type == AttrValue::VT_NONE || t == def.type;
    if (!ok && def.type == AttrValue::VT_BOOL && t == AttrValue::VT_INT) {
      const int64_t i = *v->Get<int64_t>();
      ok = i == 0 || i == 1;
    }
    if (!ok) {
      return TypeMismatch(NodeHead(node), "attribute '", def.name, "' is ",
                          AttrValue::ValueTypeName(t), ", expected ",
                          AttrValue::ValueTypeName(def.type));
    }
  }
  return ir;
}

// Rank and every known dim of `inferred` agree with `actual`.
bool ShapeCompatible(const gert::Shape& inferred, const gert::Shape& actual) {
  if (inferred.IsUnknownRank()) return true;
  if (inferred.GetDimNum() != actual.GetDimNum()) return false;
  for (size_t d = 0; d < inferred.GetDimNum(); ++d) {
    if (inferred.GetDim(d) >= 0 && inferred.GetDim(d) != actual.GetDim(d)) return false;
  }
  return true;
}

gert::Shape UnknownRank() {
  gert::Shape s;
  s.AppendDim(UNKNOWN_RANK);
  return s;
}

// ---------------------------------------------------------------- GraphExec

class GraphExec;

// Gives the kernel memory for outputs whose shape infer could not tell.
class InterpreterAllocator : public gert::OutputAllocator {
 public:
  InterpreterAllocator(std::vector<HostTensor>* outputs, std::vector<int64_t>* bytes,
                       RunState* state)
      : outputs_(outputs), bytes_(bytes), state_(state) {}

  Status Allocate(size_t i, Tensor* tensor) override {
    if (i >= outputs_->size() || tensor != (*outputs_)[i].MutableTensor()) {
      return Internal("output ", i, " is not a tensor of this node");
    }
    ASSIGN_OR_RETURN(HostTensor t, HostTensor::Create(tensor->GetDataType(), tensor->GetShape(),
                                                      tensor->GetFormat()));
    state_->Sub((*bytes_)[i]);
    (*bytes_)[i] = static_cast<int64_t>(t.tensor().GetSize());
    state_->Add((*bytes_)[i]);
    (*outputs_)[i] = std::move(t);  // `tensor` is (*outputs_)[i]'s tensor: it now has memory
    return OkStatus();
  }

 private:
  std::vector<HostTensor>* outputs_;
  std::vector<int64_t>* bytes_;
  RunState* state_;
};

class GraphExec {
 public:
  GraphExec(const ComputeGraph& graph, RunState* state, int32_t depth)
      : graph_(graph), state_(state), depth_(depth) {}
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;
  ~GraphExec() {
    for (std::vector<Value>& outs : values_) {
      for (Value& v : outs) {
        if (v.present && v.is_owned) state_->Sub(v.bytes);
      }
    }
  }

  // Orders the nodes and counts the consumers of every output.
  Status Prepare();
  // Binds inputs[k] to the Data node with index k. by_parent_index: the
  // subgraph convention (ATTR_NAME_PARENT_NODE_INDEX first, unused inputs
  // allowed); otherwise one tensor per Data node.
  Status BindInputs(absl::Span<const Tensor* const> inputs, bool by_parent_index);
  StatusOr<std::vector<HostTensor>> Execute();

  const ComputeGraph& graph() const { return graph_; }
  RunState* state() const { return state_; }
  int32_t depth() const { return depth_; }

 private:
  std::string GraphHead() const { return absl::StrCat("graph '", graph_.GetName(), "': "); }
  Status RunNode(size_t pos);
  Status RunData(size_t pos);
  Status RunConst(size_t pos);
  Status RunNetOutput(size_t pos, absl::Span<const Tensor* const> inputs);
  Status RunKernel(size_t pos, absl::Span<const Tensor* const> inputs);
  Status CallCallback(const Node& node, absl::Span<const Tensor* const> inputs,
                      absl::Span<const Tensor* const> outputs);
  // Where input i of the node comes from: {producer position, output index};
  // producer position -1 when unconnected.
  std::pair<int64_t, int32_t> Producer(const Node& node, size_t i) const;
  // One use of a value is over; frees it when it was the last.
  void Release(Value* v);
  // One use of a value as a result: moved out when it is the last use of an
  // owned tensor, copied otherwise.
  StatusOr<HostTensor> Take(Value* v);

  const ComputeGraph& graph_;
  RunState* state_;
  int32_t depth_;
  std::vector<Node*> nodes_;  // list order
  absl::flat_hash_map<const Node*, size_t> pos_;
  std::vector<size_t> order_;
  std::vector<std::vector<Value>> values_;  // [node position][output index]
  std::vector<const Tensor*> bound_;        // Data node position -> its input
  int64_t net_output_ = -1;
  std::vector<HostTensor> results_;
  bool results_taken_ = false;
};

// Runs the subgraphs of one node during one execution of its kernel.
class NodeSubgraphRunner : public gert::SubgraphRunner {
 public:
  NodeSubgraphRunner(const GraphExec& exec, const Node& node) : exec_(exec), node_(node) {}

  Status Run(size_t subgraph_index, absl::Span<const Tensor* const> inputs,
             std::vector<HostTensor>* outputs) override {
    const OpDesc& op = *node_.GetOpDescBarePtr();
    const std::vector<std::string>& names = op.GetSubgraphInstanceNames();
    if (outputs == nullptr) {
      return ParamInvalid(NodeHead(node_), "subgraph ", subgraph_index, ": null outputs");
    }
    if (subgraph_index >= names.size()) {
      return OutOfRange(NodeHead(node_), "subgraph index ", subgraph_index,
                        " out of range (the node has ", names.size(), " subgraphs)");
    }
    const std::string& name = names[subgraph_index];
    if (name.empty()) {
      return NotFound(NodeHead(node_), "subgraph slot ", subgraph_index, " is not bound");
    }
    ComputeGraphPtr sub = exec_.graph().GetSubgraph(name);
    if (sub == nullptr) {
      return NotFound(NodeHead(node_), "subgraph '", name, "' (slot ", subgraph_index,
                      ") is not registered at the root graph");
    }
    const Options& opts = *exec_.state()->opts;
    if (runs_.size() < names.size()) runs_.resize(names.size(), 0);
    if (++runs_[subgraph_index] > opts.max_loop_iterations) {
      return OutOfRange(NodeHead(node_), "subgraph '", name, "' ran more than ",
                        opts.max_loop_iterations,
                        " times in one execution of the node (Options::max_loop_iterations)");
    }
    if (exec_.depth() + 1 > opts.max_subgraph_depth) {
      return OutOfRange(NodeHead(node_), "subgraph '", name, "' would nest ", exec_.depth() + 1,
                        " levels deep (Options::max_subgraph_depth is ", opts.max_subgraph_depth,
                        ")");
    }
    ++exec_.state()->stats.subgraph_runs;
    GraphExec sub_exec(*sub, exec_.state(), exec_.depth() + 1);
    const std::string where = absl::StrCat("subgraph '", name, "': ");
    RETURN_IF_ERROR(Annotate(sub_exec.Prepare(), where));
    RETURN_IF_ERROR(Annotate(sub_exec.BindInputs(inputs, /*by_parent_index=*/true), where));
    StatusOr<std::vector<HostTensor>> result = sub_exec.Execute();
    if (!result.ok()) return Annotate(result.status(), where);
    *outputs = std::move(result).value();
    return OkStatus();
  }

 private:
  const GraphExec& exec_;
  const Node& node_;
  std::vector<int64_t> runs_;  // per subgraph index
};

Status GraphExec::Prepare() {
  nodes_ = graph_.GetDirectNodePtr();
  const size_t n = nodes_.size();
  pos_.reserve(n);
  for (size_t i = 0; i < n; ++i) pos_[nodes_[i]] = i;

  // Dependencies: data and control edges (multi-edges counted per edge).
  std::vector<int32_t> indeg(n, 0);
  std::vector<std::vector<uint32_t>> succ(n);
  std::vector<std::vector<uint32_t>> pred(n);
  auto add_edge = [&](const Anchor* peer, size_t v) -> Status {
    const Node* u = peer == nullptr ? nullptr : peer->GetOwnerNodeBarePtr();
    auto it = u == nullptr ? pos_.end() : pos_.find(u);
    if (it == pos_.end()) {
      return GraphInvalid(
          GraphHead(), NodeHead(*nodes_[v]), "has an input from ",
          u == nullptr ? std::string("an ownerless anchor") : absl::StrCat("node ", u->GetName()),
          " which is not in this graph");
    }
    succ[it->second].push_back(static_cast<uint32_t>(v));
    pred[v].push_back(static_cast<uint32_t>(it->second));
    ++indeg[v];
    return OkStatus();
  };
  values_.resize(n);
  bound_.assign(n, nullptr);
  for (size_t v = 0; v < n; ++v) {
    const Node& node = *nodes_[v];
    if (node.GetOpDescBarePtr() == nullptr) {
      return GraphInvalid(GraphHead(), "node ", node.GetName(), " has no OpDesc");
    }
    values_[v].resize(node.GetAllOutDataAnchorsSize());
    for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
      const InDataAnchor* a = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
      if (a == nullptr) continue;
      for (const Anchor* p : a->PeerAnchors()) RETURN_IF_ERROR(add_edge(p, v));
    }
    for (const Anchor* p : node.GetInControlAnchorBarePtr()->PeerAnchors()) {
      RETURN_IF_ERROR(add_edge(p, v));
    }
    if (node.GetType() == NETOUTPUT) {
      if (net_output_ >= 0) {
        return GraphInvalid(GraphHead(), "has two NetOutput nodes: ",
                            nodes_[static_cast<size_t>(net_output_)]->GetName(), " and ",
                            node.GetName());
      }
      net_output_ = static_cast<int64_t>(v);
    }
  }

  // Kahn's algorithm taking the smallest list position first: the list
  // order itself when it is topological.
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t v = 0; v < n; ++v) {
    if (indeg[v] == 0) ready.push(v);
  }
  order_.reserve(n);
  while (!ready.empty()) {
    const size_t u = ready.top();
    ready.pop();
    order_.push_back(u);
    for (uint32_t v : succ[u]) {
      if (--indeg[v] == 0) ready.push(v);
    }
  }
  if (order_.size() != n) {
    // Walk backwards through unfinished predecessors until a node repeats.
    size_t start = 0;
    while (indeg[start] == 0) ++start;
    std::vector<int64_t> seen_at(n, -1);
    std::vector<size_t> path;
    size_t cur = start;
    while (seen_at[cur] < 0) {
      seen_at[cur] = static_cast<int64_t>(path.size());
      path.push_back(cur);
      for (uint32_t p : pred[cur]) {
        if (indeg[p] > 0) {
          cur = p;
          break;
        }
      }
    }
    // path[j + 1] feeds path[j]; the cycle is cur -> path.back() -> ... -> cur.
    std::vector<std::string> names = {nodes_[cur]->GetName()};
    for (size_t k = path.size(); k-- > static_cast<size_t>(seen_at[cur]);) {
      names.push_back(nodes_[path[k]]->GetName());
    }
    return GraphCycle(GraphHead(), "has a cycle: ", absl::StrJoin(names, " -> "));
  }

  // Consumers per output.
  for (size_t v = 0; v < n; ++v) {
    const Node& node = *nodes_[v];
    for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
      const std::pair<int64_t, int32_t> src = Producer(node, i);
      if (src.first < 0) continue;
      std::vector<Value>& outs = values_[static_cast<size_t>(src.first)];
      if (src.second < 0 || static_cast<size_t>(src.second) >= outs.size()) {
        return GraphInvalid(GraphHead(), NodeHead(node), "input ", i, " comes from output ",
                            src.second, " of node ",
                            nodes_[static_cast<size_t>(src.first)]->GetName(),
                            " which does not exist");
      }
      ++outs[static_cast<size_t>(src.second)].uses;
    }
  }
  if (net_output_ < 0) {
    for (const auto& [node, index] : graph_.GetGraphOutNodesInfo()) {
      auto it = node == nullptr ? pos_.end() : pos_.find(node.get());
      if (it == pos_.end()) {
        return GraphInvalid(GraphHead(), "an output node is not in the graph");
      }
      std::vector<Value>& outs = values_[it->second];
      if (index < 0 || static_cast<size_t>(index) >= outs.size()) {
        return GraphInvalid(GraphHead(), "graph output ", node->GetName(), ":", index,
                            " does not exist (the node has ", outs.size(), " outputs)");
      }
      ++outs[static_cast<size_t>(index)].uses;
    }
  }
  return OkStatus();
}

std::pair<int64_t, int32_t> GraphExec::Producer(const Node& node, size_t i) const {
  const InDataAnchor* a = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
  const OutDataAnchor* peer = a == nullptr ? nullptr : a->GetPeerOutAnchorPtr();
  if (peer == nullptr) return {-1, 0};
  auto it = pos_.find(peer->GetOwnerNodeBarePtr());
  if (it == pos_.end()) return {-1, 0};  // rejected by Prepare
  return {static_cast<int64_t>(it->second), peer->GetIdx()};
}

Status GraphExec::BindInputs(absl::Span<const Tensor* const> inputs, bool by_parent_index) {
  const std::vector<NodePtr>& input_nodes = graph_.GetInputNodes();
  std::vector<size_t> data_nodes;
  for (size_t v = 0; v < nodes_.size(); ++v) {
    if (IsDataType(nodes_[v]->GetType())) data_nodes.push_back(v);
  }
  if (!by_parent_index && data_nodes.size() != inputs.size()) {
    return ParamInvalid(GraphHead(), "has ", data_nodes.size(), " Data nodes but ", inputs.size(),
                        " input tensors were given");
  }
  absl::flat_hash_map<int64_t, size_t> used;  // input index -> Data node position
  for (size_t ordinal = 0; ordinal < data_nodes.size(); ++ordinal) {
    const size_t v = data_nodes[ordinal];
    const Node& node = *nodes_[v];
    const OpDesc& op = *node.GetOpDescBarePtr();
    int64_t k = -1;
    bool found = false;
    if (by_parent_index) {
      StatusOr<bool> r = ReadIntAttr(op, ATTR_NAME_PARENT_NODE_INDEX, &k);
      if (!r.ok()) return Annotate(r.status(), GraphHead(), NodeHead(node));
      found = *r;
    }
    if (!found) {
      StatusOr<bool> r = ReadIntAttr(op, kReferenceDataIndexAttr, &k);
      if (!r.ok()) return Annotate(r.status(), GraphHead(), NodeHead(node));
      found = *r;
    }
    if (!found) {
      auto it = std::find_if(input_nodes.begin(), input_nodes.end(),
                             [&](const NodePtr& p) { return p.get() == &node; });
      k = it != input_nodes.end() ? static_cast<int64_t>(it - input_nodes.begin())
                                  : static_cast<int64_t>(ordinal);
    }
    if (k < 0 || static_cast<size_t>(k) >= inputs.size()) {
      return OutOfRange(GraphHead(), NodeHead(node), "input index ", k,
                        " is out of range: ", inputs.size(), " input tensors were given");
    }
    if (!by_parent_index) {
      auto [it, inserted] = used.emplace(k, v);
      if (!inserted) {
        return GraphInvalid(GraphHead(), "Data nodes ", nodes_[it->second]->GetName(), " and ",
                            node.GetName(), " both have input index ", k);
      }
    }
    if (inputs[static_cast<size_t>(k)] == nullptr) {
      return ParamInvalid(GraphHead(), NodeHead(node), "input ", k, " is absent");
    }
    bound_[v] = inputs[static_cast<size_t>(k)];
  }
  return OkStatus();
}

StatusOr<std::vector<HostTensor>> GraphExec::Execute() {
  for (size_t pos : order_) RETURN_IF_ERROR(RunNode(pos));
  if (net_output_ < 0) {
    for (const auto& [node, index] : graph_.GetGraphOutNodesInfo()) {
      Value& v = values_[pos_.at(node.get())][static_cast<size_t>(index)];
      if (!v.present) {
        return Internal(GraphHead(), "output ", node->GetName(), ":", index, " has no value");
      }
      ASSIGN_OR_RETURN(HostTensor t, Take(&v));
      results_.push_back(std::move(t));
    }
  }
  return std::move(results_);
}

void GraphExec::Release(Value* v) {
  if (--v->uses > 0) return;
  if (v->is_owned) {
    state_->Sub(v->bytes);
    v->owned = HostTensor();
  }
  v->present = false;
  v->is_owned = false;
  v->bytes = 0;
}

StatusOr<HostTensor> GraphExec::Take(Value* v) {
  if (v->is_owned && v->uses == 1) {
    HostTensor t = std::move(v->owned);
    state_->Sub(v->bytes);
    v->present = false;
    v->is_owned = false;
    v->bytes = 0;
    v->uses = 0;
    return t;
  }
  StatusOr<HostTensor> copy = HostTensor::CopyFrom(*v->get());
  Release(v);
  return copy;
}

Status GraphExec::CallCallback(const Node& node, absl::Span<const Tensor* const> inputs,
                               absl::Span<const Tensor* const> outputs) {
  const Options& opts = *state_->opts;
  if (!opts.node_callback) return OkStatus();
  NodeRunInfo info;
  info.node = &node;
  info.graph = &graph_;
  info.depth = depth_;
  info.inputs = inputs;
  info.outputs = outputs;
  return NameNode(opts.node_callback(info), node, "node callback");
}

Status GraphExec::RunNode(size_t pos) {
  const Node& node = *nodes_[pos];
  const std::string& type = node.GetType();
  const size_t n_in = node.GetAllInDataAnchorsSize();
  std::vector<const Tensor*> inputs(n_in, nullptr);
  for (size_t i = 0; i < n_in; ++i) {
    const std::pair<int64_t, int32_t> src = Producer(node, i);
    if (src.first < 0) continue;
    const Value& v = values_[static_cast<size_t>(src.first)][static_cast<size_t>(src.second)];
    if (!v.present) {
      return Internal(NodeHead(node), "input ", i, " (output ", src.second, " of node ",
                      nodes_[static_cast<size_t>(src.first)]->GetName(), ") has no value");
    }
    inputs[i] = v.get();
  }
  ++state_->stats.nodes_executed;

  if (static_cast<int64_t>(pos) == net_output_) {
    RETURN_IF_ERROR(CallCallback(node, inputs, {}));
    return RunNetOutput(pos, inputs);  // consumes its inputs itself
  }
  if (IsDataType(type)) {
    RETURN_IF_ERROR(RunData(pos));
  } else if (type == CONSTANT ||
             (type == CONSTANTOP && OpRegistry::Instance().Find(type) == nullptr)) {
    RETURN_IF_ERROR(RunConst(pos));
  } else if (type == NOOP && OpRegistry::Instance().Find(type) == nullptr) {
    // Control dependencies only.
  } else {
    RETURN_IF_ERROR(RunKernel(pos, inputs));
  }

  std::vector<Value>& outs = values_[pos];
  std::vector<const Tensor*> out_ptrs(outs.size(), nullptr);
  for (size_t i = 0; i < outs.size(); ++i) {
    if (outs[i].present) out_ptrs[i] = outs[i].get();
  }
  RETURN_IF_ERROR(CallCallback(node, inputs, out_ptrs));

  for (size_t i = 0; i < n_in; ++i) {
    const std::pair<int64_t, int32_t> src = Producer(node, i);
    if (src.first < 0) continue;
    Release(&values_[static_cast<size_t>(src.first)][static_cast<size_t>(src.second)]);
  }
  for (Value& v : outs) {
    if (v.present && v.uses == 0) {
      ++v.uses;
      Release(&v);  // nobody consumes it
    }
  }
  return OkStatus();
}

Status GraphExec::RunData(size_t pos) {
  const Node& node = *nodes_[pos];
  const Tensor* in = bound_[pos];
  if (in == nullptr) {
    return Internal(NodeHead(node), "no input tensor was bound to this Data node");
  }
  for (Value& v : values_[pos]) {
    v.present = true;
    v.is_owned = false;
    v.view = *in;
  }
  return OkStatus();
}

Status GraphExec::RunConst(size_t pos) {
  const Node& node = *nodes_[pos];
  const AttrValue* attr = node.GetOpDescBarePtr()->GetAttr(ATTR_NAME_WEIGHTS);
  if (attr == nullptr) {
    return NotFound(NodeHead(node), "has no '", ATTR_NAME_WEIGHTS, "' tensor attribute");
  }
  const GeTensor* value = attr->Get<GeTensor>();
  if (value == nullptr) {
    return TypeMismatch(NodeHead(node), "attribute '", ATTR_NAME_WEIGHTS, "' is ",
                        AttrValue::ValueTypeName(attr->GetValueType()), ", expected tensor");
  }
  const GeTensorDesc& desc = value->GetTensorDesc();
  const DataType dtype = desc.GetDataType();
  if (dtype == DT_VARIANT) {
    return NotSupported(NodeHead(node), "constant values of type ", DtName(dtype),
                        " are not supported");
  }
  StatusOr<gert::Shape> shape = gert::Shape::FromDims(desc.GetShape().GetDimsSpan());
  if (!shape.ok()) return Annotate(shape.status(), NodeHead(node), "value: ");
  if (shape->IsUnknownShape()) {
    return GraphInvalid(NodeHead(node), "value has unknown shape ", shape->ToString());
  }
  const int64_t count = shape->GetShapeSize();
  if (count < 0) {
    return Overflow(NodeHead(node), "value shape ", shape->ToString(), " overflows");
  }
  if (dtype == DT_STRING) {
    // GE's string layout is not host storage (std::string objects): decode
    // into an owned tensor per consumer slot.
    for (Value& v : values_[pos]) {
      StatusOr<HostTensor> t = DecodeStringConst(value->GetData(), *shape, desc.GetFormat());
      if (!t.ok()) return Annotate(t.status(), NodeHead(node), "value: ");
      v.present = true;
      v.owned = std::move(t).value();
      v.is_owned = true;
      v.bytes = static_cast<int64_t>(v.owned.tensor().GetSize());
      state_->Add(v.bytes);
    }
    return OkStatus();
  }
  StatusOr<size_t> bytes = gert::HostStorageBytes(dtype, count);
  if (!bytes.ok()) return Annotate(bytes.status(), NodeHead(node), "value: ");
  const absl::Span<const uint8_t> data = value->GetData();
  if (data.size() != *bytes) {
    return GraphInvalid(NodeHead(node), "value holds ", data.size(), " bytes but ",
                        shape->ToString(), " ", DtName(dtype), " needs ", *bytes);
  }
  for (Value& v : values_[pos]) {
    v.present = true;
    if (*bytes == 0) {
      // Give empty constants a real (non-null) address.
      ASSIGN_OR_RETURN(v.owned, HostTensor::Create(dtype, *shape, desc.GetFormat()));
      v.is_owned = true;
      v.bytes = static_cast<int64_t>(v.owned.tensor().GetSize());
      state_->Add(v.bytes);
    } else {
      v.is_owned = false;
      // Kernels read inputs through const Tensor*: the constant is never written.
      v.view = Tensor(*shape, dtype, const_cast<uint8_t*>(data.data()), *bytes, desc.GetFormat());
    }
  }
  return OkStatus();
}

Status GraphExec::RunNetOutput(size_t pos, absl::Span<const Tensor* const> inputs) {
  const Node& node = *nodes_[pos];
  const OpDesc& op = *node.GetOpDescBarePtr();
  const size_t n = inputs.size();
  // Output slot per input: the parent indices when every input desc has one
  // and they form a permutation, else the input order.
  std::vector<size_t> slot(n);
  bool by_parent = n > 0;
  std::vector<bool> taken(n, false);
  for (size_t i = 0; i < n && by_parent; ++i) {
    const GeTensorDesc* desc = op.GetInputDescBarePtr(static_cast<uint32_t>(i));
    int64_t p = -1;
    StatusOr<bool> has = desc == nullptr ? StatusOr<bool>(false)
                                         : ReadIntAttr(*desc, ATTR_NAME_PARENT_NODE_INDEX, &p);
    if (!has.ok()) return Annotate(has.status(), NodeHead(node), "input ", i, ": ");
    if (!*has || p < 0 || static_cast<size_t>(p) >= n || taken[static_cast<size_t>(p)]) {
      by_parent = false;
      break;
    }
    taken[static_cast<size_t>(p)] = true;
    slot[i] = static_cast<size_t>(p);
  }
  if (!by_parent) {
    for (size_t i = 0; i < n; ++i) slot[i] = i;
  }
  for (size_t i = 0; i < n; ++i) {
    if (inputs[i] == nullptr) {
      return GraphInvalid(NodeHead(node), "input ", i, " is not connected");
    }
  }
  std::vector<HostTensor> results(n);
  for (size_t i = 0; i < n; ++i) {
    const std::pair<int64_t, int32_t> src = Producer(node, i);
    Value& v = values_[static_cast<size_t>(src.first)][static_cast<size_t>(src.second)];
    StatusOr<HostTensor> t = Take(&v);
    if (!t.ok()) return Annotate(t.status(), NodeHead(node), "output ", slot[i], ": ");
    results[slot[i]] = std::move(t).value();
  }
  results_ = std::move(results);
  return OkStatus();
}

Status GraphExec::RunKernel(size_t pos, absl::Span<const Tensor* const> inputs) {
  const Node& node = *nodes_[pos];
  const OpDesc& op = *node.GetOpDescBarePtr();
  const std::string& type = node.GetType();
  const Options& opts = *state_->opts;
  OpRegistry& registry = OpRegistry::Instance();
  const OpRegistrationData* reg = registry.Find(type);
  if (reg == nullptr) {
    StatusOr<const OpRegistrationData*> r = registry.Get(type);
    return Annotate(r.ok() ? Internal("op type lookup is inconsistent") : r.status(),
                    NodeHead(node));
  }
  const OpKernelDef* kernel = reg->FindKernel(opts.engine);
  if (kernel == nullptr || kernel->fn == nullptr) {
    std::vector<std::string> engines;
    for (const KernelDef* k : KernelRegistry::Instance().FindAll(type))
      engines.push_back(k->engine);
    return NotSupported(
        NodeHead(node), "op type ", type, " has no kernel for engine ", opts.engine,
        " (kernels: ", engines.empty() ? std::string("none") : absl::StrJoin(engines, ", "), ")");
  }
  ASSIGN_OR_RETURN(std::vector<gert::IrInstance> ir, MapAndCheckInputs(node, *reg, inputs));

  // Infer with every input value known.
  const size_t n_out = values_[pos].size();
  gert::InferShapeContextBuilder builder;
  builder.Node(node.GetName(), type).Attrs(&op);
  for (const Tensor* t : inputs) {
    if (t == nullptr) {
      builder.AbsentInput();
    } else {
      builder.Input(t->GetShape(), t->GetDataType(), t);
    }
  }
  builder.Outputs(n_out).IrInputs(ir);
  for (size_t i = 0; i < n_out; ++i) builder.OutputShape(i) = UnknownRank();
  gert::InferShapeContext& ictx = *builder.Build();
  for (size_t i = 0; i < n_out; ++i) {
    const GeTensorDesc* desc = op.GetOutputDescBarePtr(static_cast<uint32_t>(i));
    if (desc != nullptr) ictx.SetOutputDataType(i, desc->GetDataType());
  }
  OpInferOptions infer_options;  // a kernel without infer sizes its own outputs
  infer_options.missing_infer_shape = OpInferOptions::MissingInferShape::kSkip;
  InferStep step = InferStep::kNone;
  if (Status st = RunOpInfer(*reg, ictx, infer_options, &step); !st.ok()) {
    return NameNode(st, node, InferStepName(step));
  }

  // With skip_unconsumed_optional_outputs, optional outputs nobody consumes
  // are not produced: the kernel sees a null output tensor (only for ops
  // without dynamic outputs, where output i is IR output i).
  std::vector<bool> skip(n_out, false);
  if (opts.skip_unconsumed_optional_outputs && reg->outputs.size() == n_out) {
    for (size_t i = 0; i < n_out; ++i) {
      skip[i] = reg->outputs[i].kind == IoKind::kOptional && values_[pos][i].uses == 0;
    }
  }

  // Outputs: allocated now when infer gave a full shape, else by the kernel.
  std::vector<gert::Shape> inferred(n_out);
  std::vector<DataType> inferred_dt(n_out, DT_UNDEFINED);
  std::vector<HostTensor> outs(n_out);
  std::vector<int64_t> out_bytes(n_out, 0);
  struct BytesGuard {  // untracks whatever is still tracked on every exit path
    RunState* state;
    std::vector<int64_t>* bytes;
    ~BytesGuard() {
      for (int64_t b : *bytes) state->Sub(b);
    }
  } guard{state_, &out_bytes};
  for (size_t i = 0; i < n_out; ++i) {
    inferred[i] = *ictx.GetOutputShape(i);
    inferred_dt[i] = ictx.GetOutputDataType(i);
    if (skip[i]) continue;
    if (!inferred[i].IsUnknownShape() && inferred_dt[i] != DT_UNDEFINED) {
      StatusOr<HostTensor> t = HostTensor::Create(inferred_dt[i], inferred[i]);
      if (!t.ok()) {
        return Annotate(t.status(), NodeHead(node), "output ", i, " (", inferred[i].ToString(), " ",
                        DtName(inferred_dt[i]), "): ");
      }
      outs[i] = std::move(t).value();
      out_bytes[i] = static_cast<int64_t>(outs[i].tensor().GetSize());
      state_->Add(out_bytes[i]);
    } else {
      outs[i].MutableTensor()->SetShape(inferred[i]);
      outs[i].MutableTensor()->SetDataType(inferred_dt[i]);
    }
  }

  InterpreterAllocator allocator(&outs, &out_bytes, state_);
  NodeSubgraphRunner runner(*this, node);
  std::vector<Tensor*> out_ptrs(n_out);
  for (size_t i = 0; i < n_out; ++i) out_ptrs[i] = skip[i] ? nullptr : outs[i].MutableTensor();
  gert::KernelRunContextBuilder kbuilder;
  gert::KernelContext& kctx = *kbuilder.Node(node.GetName(), type)
                                   .Attrs(&op)
                                   .Inputs(std::vector<const Tensor*>(inputs.begin(), inputs.end()))
                                   .Outputs(out_ptrs)
                                   .IrInputs(ir)
                                   .Allocator(&allocator)
                                   .Subgraphs(&runner)
                                   .Build();
  ++state_->stats.kernels_executed;
  bool ran = false;
  if (opts.kernel_provider != nullptr &&
      std::all_of(outs.begin(), outs.end(), [](const HostTensor& t) { return t.HasStorage(); })) {
    RETURN_IF_ERROR(
        NameNode(opts.kernel_provider->TryRun(node, ir, inputs, out_ptrs, &ran), node, "kernel"));
  }
  if (!ran) RETURN_IF_ERROR(NameNode(kernel->fn(kctx), node, "kernel"));

  // The kernel's outputs must be allocated and agree with infer.
  for (size_t i = 0; i < n_out; ++i) {
    if (skip[i]) continue;
    const Tensor& t = outs[i].tensor();
    if (!outs[i].HasStorage()) {
      return Internal(NodeHead(node), "the kernel did not allocate output ", i,
                      " (infer shape gave ", inferred[i].ToString(), ")");
    }
    if (t.GetShape().IsUnknownShape()) {
      return Internal(NodeHead(node), "the kernel left output ", i, " with unknown shape ",
                      t.GetShape().ToString());
    }
    if (inferred_dt[i] != DT_UNDEFINED && t.GetDataType() != inferred_dt[i]) {
      return Internal(NodeHead(node), "output ", i, ": infer data type gave ",
                      DtName(inferred_dt[i]), " but the kernel produced ", DtName(t.GetDataType()));
    }
    if (!ShapeCompatible(inferred[i], t.GetShape())) {
      return Internal(NodeHead(node), "output ", i, ": infer shape gave ", inferred[i].ToString(),
                      " but the kernel produced ", t.GetShape().ToString());
    }
    StatusOr<size_t> need = gert::HostStorageBytes(t.GetDataType(), t.GetShapeSize());
    if (!need.ok()) return Annotate(need.status(), NodeHead(node), "output ", i, ": ");
    if (t.GetSize() < *need) {
      return Internal(NodeHead(node), "output ", i, " ", t.GetShape().ToString(), " ",
                      DtName(t.GetDataType()), " needs ", *need, " bytes but has ", t.GetSize());
    }
  }
  std::vector<Value>& values = values_[pos];
  for (size_t i = 0; i < n_out; ++i) {
    if (skip[i]) continue;  // not produced; nothing reads it
    values[i].present = true;
    values[i].is_owned = true;
    values[i].owned = std::move(outs[i]);
    values[i].bytes = out_bytes[i];
    out_bytes[i] = 0;  // now tracked by the value
  }
  return OkStatus();
}

StatusOr<std::vector<HostTensor>> RunGraph(const ComputeGraph& graph,
                                           absl::Span<const Tensor* const> inputs,
                                           bool by_parent_index, const Options& opts) {
  RunState state;
  state.opts = &opts;
  StatusOr<std::vector<HostTensor>> result;
  {
    GraphExec exec(graph, &state, 0);
    Status st = exec.Prepare();
    if (st.ok()) st = exec.BindInputs(inputs, by_parent_index);
    result = st.ok() ? exec.Execute() : StatusOr<std::vector<HostTensor>>(st);
  }
  if (opts.stats != nullptr) *opts.stats = state.stats;
  return result;
}

}  // namespace

StatusOr<std::vector<gert::HostTensor>> ReferenceInterpreter::Run(
    const ComputeGraph& graph, std::vector<gert::HostTensor> inputs, const Options& opts) {
  std::vector<const Tensor*> views(inputs.size(), nullptr);
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (!inputs[k].HasStorage()) {
      return ParamInvalid("graph '", graph.GetName(), "': input tensor ", k,
                          " owns no storage (a default or moved-from HostTensor)");
    }
    views[k] = &inputs[k].tensor();
  }
  return RunGraph(graph, views, /*by_parent_index=*/false, opts);
}

StatusOr<std::vector<gert::HostTensor>> ReferenceInterpreter::RunWithViews(
    const ComputeGraph& graph, absl::Span<const gert::Tensor* const> inputs, const Options& opts) {
  return RunGraph(graph, inputs, /*by_parent_index=*/true, opts);
}

}  // namespace ge
