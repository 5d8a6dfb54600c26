// testing/fuzz/onnx_mutation_fuzz.cc
//
// onnx_mutation_fuzz: structured mutation fuzzing of the whole product path
// (ONNX parse -> compiler -> OM bytes -> runtime load -> run), the way a
// user's broken or hostile model reaches it. Each iteration takes the
// model of an ONNX backend conformance case, applies 1-3 semantic
// mutations to the ModelProto (attribute values at their edges, tensor
// dims and types, value-info shapes, node inputs and op types, initializer
// bytes, opset versions), compiles it with the atc library and runs it on
// the case's first test data set, in a forked child with a time limit.
// Any Status (OK or an error) is a pass; a signal (crash, abort, sanitizer
// report), a non-zero exit or a timeout is a finding, printed with the
// case, the seed and the mutations, and the model saved for replay.
//
//   bazel build --config=asan //testing/fuzz:onnx_mutation_fuzz
//   bazel-bin/testing/fuzz/onnx_mutation_fuzz --iterations=20 --seed=1
//       [--filter=test_conv] [--out=/tmp/findings] [--timeout_ms=20000]
//   bazel-bin/testing/fuzz/onnx_mutation_fuzz --replay=/tmp/findings/x.onnx
//       --case=node/test_conv   (runs one saved model in this process)
//   bazel-bin/testing/fuzz/onnx_mutation_fuzz --target=om ...  (mutates the
//       built model instead and goes through an OM file; --target=options
//       mutates atc's options for the model as given; --from_file compiles
//       the mutated ONNX model from a file, as atc users do: its big
//       initializers then view the mapped file)
//   ... --filter=node/test_exp --only_seed=2821377 --in_process  (a
//       finding's mutations again, in this process: debugger, ASan report)
//
// Deterministic: the same flags give the same mutations. --max_mutations=N
// (default 3) applies up to N per model. Exit status 1 when there was a
// finding.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/types/span.h"
#include "build/om/om_file.h"
#include "compiler/parser/onnx/onnx_test_util.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "onnx/onnx_pb.h"
#include "runtime/inc/runtime/model.h"
#include "testing/conformance/atc_runtime_backend.h"
#include "testing/conformance/conformance_runner.h"
#include "tools/atc/atc_lib.h"

namespace ge {
namespace fuzz {
namespace {

using conformance::Backend;
using conformance::CaseSpec;

struct Flags {
  int64_t iterations = 10;  // per case
  uint64_t seed = 1;
  std::vector<std::string> filter;
  std::string out;
  int64_t timeout_ms = 20000;
  std::string replay;
  std::string replay_case;
  // "onnx": mutate the ONNX model; "om": compile it as given, then mutate
  // the built model (task list, io descriptions, op attributes and tensor
  // descs) and write it as an OM file, which the runtime loads and runs;
  // "options": the model as given with mutated atc options (input shapes,
  // out nodes, input format, converter, switches).
  std::string target = "onnx";
  // Runs each iteration in this process (no fork, no time limit): for a
  // debugger or a sanitizer's report of a finding found with the same
  // --filter / --seed / --iterations.
  bool in_process = false;
  // One iteration per case with exactly this seed (a finding's "seed N").
  uint64_t only_seed = 0;
  // --target=onnx: compile the mutated model from a file (the path atc
  // users take: big initializers view the mapped file) instead of from
  // bytes.
  bool from_file = false;
};

// Mutations per model: 1 to this many (--max_mutations).
int g_max_mutations = 3;

// What the mutators share: the random source, edge values and 1 to
// g_max_mutations mutations per model with their descriptions joined.
class MutatorBase {
 protected:
  explicit MutatorBase(uint64_t seed) : rng_(seed) {}

  uint64_t Below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }

  // v + 1, v - 1 or one of `edges`.
  int64_t Edge(int64_t v, absl::Span<const int64_t> edges) {
    switch (Below(3)) {
      case 0:  // wraps at the ends, as the unsigned arithmetic does
        return static_cast<int64_t>(static_cast<uint64_t>(v) + 1);
      case 1:
        return static_cast<int64_t>(static_cast<uint64_t>(v) - 1);
      default:
        return edges[Below(edges.size())];
    }
  }

  // 1 to g_max_mutations calls of `once`, their descriptions "; "-joined
  // ("none" when every call changed nothing).
  template <typename Once>
  std::string Repeat(Once once) {
    std::string what;
    const int n = 1 + static_cast<int>(Below(static_cast<uint64_t>(g_max_mutations)));
    for (int i = 0; i < n; ++i) {
      std::string one = once();
      if (one.empty()) continue;
      absl::StrAppend(&what, what.empty() ? "" : "; ", one);
    }
    return what.empty() ? "none" : what;
  }

  std::mt19937_64 rng_;
};

class Mutator : public MutatorBase {
 public:
  explicit Mutator(uint64_t seed) : MutatorBase(seed) {}

  // Applies 1-3 mutations; returns their descriptions ("; "-joined).
  std::string Mutate(onnx::ModelProto* model) {
    return Repeat([&]() { return MutateOnce(model); });
  }

 private:
  int64_t EdgeInt(int64_t v) {
    static const int64_t kEdges[] = {-1,
                                     0,
                                     1,
                                     2,
                                     3,
                                     -2,
                                     -100,
                                     100,
                                     int64_t{1} << 20,
                                     int64_t{1} << 31,
                                     int64_t{1} << 40,
                                     std::numeric_limits<int64_t>::max(),
                                     std::numeric_limits<int64_t>::min(),
                                     std::numeric_limits<int32_t>::max(),
                                     std::numeric_limits<int32_t>::min()};
    return Edge(v, kEdges);
  }
  float EdgeFloat() {
    static const float kEdges[] = {0.0f,
                                   -1.0f,
                                   1e30f,
                                   -1e30f,
                                   std::numeric_limits<float>::quiet_NaN(),
                                   std::numeric_limits<float>::infinity(),
                                   -std::numeric_limits<float>::infinity(),
                                   1e-40f};
    return kEdges[Below(sizeof(kEdges) / sizeof(kEdges[0]))];
  }
  int32_t SomeDataType() {
    // Every TensorProto::DataType value and two outside the enum.
    static const int32_t kTypes[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                     12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 99, -1};
    return kTypes[Below(sizeof(kTypes) / sizeof(kTypes[0]))];
  }

  // Every value name of the graph (inputs, initializers, node outputs).
  std::vector<std::string> ValueNames(const onnx::GraphProto& g) {
    std::vector<std::string> names;
    for (const auto& vi : g.input()) names.push_back(vi.name());
    for (const auto& t : g.initializer()) names.push_back(t.name());
    for (const auto& n : g.node()) {
      for (const auto& o : n.output()) names.push_back(o);
    }
    return names;
  }

  void MutateDims(google::protobuf::RepeatedField<int64_t>* dims) {
    switch (Below(4)) {
      case 0:
        if (!dims->empty()) dims->Set(static_cast<int>(Below(dims->size())), EdgeInt(dims->Get(0)));
        break;
      case 1:
        dims->Add(EdgeInt(1));
        break;
      case 2:
        if (!dims->empty()) dims->RemoveLast();
        break;
      default:
        dims->Clear();
        break;
    }
  }

  std::string MutateAttribute(onnx::NodeProto* node) {
    if (node->attribute_size() == 0) {
      // Add an attribute the op may or may not know.
      static const char* const kNames[] = {"axis",  "axes",     "perm", "pads", "strides",
                                           "group", "keepdims", "to",   "mode"};
      onnx::AttributeProto* a = node->add_attribute();
      a->set_name(kNames[Below(sizeof(kNames) / sizeof(kNames[0]))]);
      if (Below(2) == 0) {
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(EdgeInt(0));
      } else {
        a->set_type(onnx::AttributeProto::INTS);
        for (uint64_t k = Below(5); k > 0; --k) a->add_ints(EdgeInt(1));
      }
      return absl::StrCat("node '", node->name(), "' (", node->op_type(), "): new attribute ",
                          a->name());
    }
    onnx::AttributeProto* a =
        node->mutable_attribute(static_cast<int>(Below(node->attribute_size())));
    const std::string where =
        absl::StrCat("node '", node->name(), "' (", node->op_type(), ") attribute ", a->name());
    switch (Below(8)) {
      case 0:
        a->set_i(EdgeInt(a->i()));
        return where + ": i";
      case 1:
        a->set_f(EdgeFloat());
        return where + ": f";
      case 2:
        if (a->ints_size() > 0) {
          a->set_ints(static_cast<int>(Below(a->ints_size())), EdgeInt(a->ints(0)));
        } else {
          a->add_ints(EdgeInt(0));
        }
        return where + ": ints element";
      case 3:
        if (a->ints_size() > 0) {
          a->mutable_ints()->RemoveLast();
        } else {
          a->add_ints(EdgeInt(1));
          a->add_ints(EdgeInt(1));
        }
        return where + ": ints count";
      case 4: {
        static const onnx::AttributeProto::AttributeType kTypes[] = {
            onnx::AttributeProto::INT,    onnx::AttributeProto::FLOAT,
            onnx::AttributeProto::INTS,   onnx::AttributeProto::STRING,
            onnx::AttributeProto::TENSOR, onnx::AttributeProto::GRAPH,
            onnx::AttributeProto::FLOATS, onnx::AttributeProto::UNDEFINED};
        a->set_type(kTypes[Below(sizeof(kTypes) / sizeof(kTypes[0]))]);
        return where + ": type";
      }
      case 5:
        a->set_s(Below(2) == 0 ? std::string() : std::string("\xff\x00zz", 4));
        return where + ": s";
      case 6:
        if (a->has_t()) {
          if (Below(2) == 0) {
            MutateDims(a->mutable_t()->mutable_dims());
          } else {
            a->mutable_t()->set_data_type(SomeDataType());
          }
          return where + ": tensor";
        }
        if (a->floats_size() > 0) {
          a->set_floats(static_cast<int>(Below(a->floats_size())), EdgeFloat());
          return where + ": floats element";
        }
        a->set_i(EdgeInt(a->i()));
        return where + ": i";
      default:
        a->set_name(Below(2) == 0 ? std::string() : a->name() + "_x");
        return where + ": renamed";
    }
  }

  // The root graph and every subgraph (If / Loop / Scan bodies), nested.
  static void CollectGraphs(onnx::GraphProto* g, std::vector<onnx::GraphProto*>* out) {
    out->push_back(g);
    for (onnx::NodeProto& n : *g->mutable_node()) {
      for (onnx::AttributeProto& a : *n.mutable_attribute()) {
        if (a.has_g()) CollectGraphs(a.mutable_g(), out);
        for (onnx::GraphProto& sub : *a.mutable_graphs()) CollectGraphs(&sub, out);
      }
    }
  }

  std::string MutateOnce(onnx::ModelProto* model) {
    std::vector<onnx::GraphProto*> graphs;
    CollectGraphs(model->mutable_graph(), &graphs);
    // Half of the mutations of a model with subgraphs go into one of them.
    onnx::GraphProto* g = graphs.size() > 1 && Below(2) == 0 ? graphs[1 + Below(graphs.size() - 1)]
                                                             : model->mutable_graph();
    const uint64_t kind = Below(10);
    if (kind <= 2 && g->node_size() > 0) {
      return MutateAttribute(g->mutable_node(static_cast<int>(Below(g->node_size()))));
    }
    if (kind == 3 && g->node_size() > 0) {
      onnx::NodeProto* n = g->mutable_node(static_cast<int>(Below(g->node_size())));
      const std::vector<std::string> names = ValueNames(*g);
      switch (Below(4)) {
        case 0:
          if (n->input_size() > 0) {
            n->set_input(static_cast<int>(Below(n->input_size())), names[Below(names.size())]);
            return absl::StrCat("node '", n->name(), "' (", n->op_type(), "): input rewired");
          }
          break;
        case 1:
          if (n->input_size() > 0) {
            n->mutable_input()->RemoveLast();
            return absl::StrCat("node '", n->name(), "' (", n->op_type(), "): last input dropped");
          }
          break;
        case 2:
          n->add_input(Below(3) == 0 ? std::string() : names[Below(names.size())]);
          return absl::StrCat("node '", n->name(), "' (", n->op_type(), "): input added");
        default:
          if (n->input_size() > 0) {
            n->set_input(static_cast<int>(Below(n->input_size())), std::string());
            return absl::StrCat("node '", n->name(), "' (", n->op_type(), "): input made absent");
          }
          break;
      }
      return std::string();
    }
    if (kind == 4 && g->node_size() > 0) {
      onnx::NodeProto* n = g->mutable_node(static_cast<int>(Below(g->node_size())));
      static const char* const kOps[] = {
          "Add",  "Relu", "Reshape", "Transpose", "Concat", "Gather",  "Slice",   "MatMul",
          "Conv", "Cast", "Split",   "Squeeze",   "Resize", "Pad",     "Expand",  "ReduceSum",
          "Tile", "TopK", "Where",   "If",        "Loop",   "NonZero", "Softmax", "Identity"};
      const std::string old = n->op_type();
      n->set_op_type(kOps[Below(sizeof(kOps) / sizeof(kOps[0]))]);
      return absl::StrCat("node '", n->name(), "': op ", old, " -> ", n->op_type());
    }
    if (kind == 5 && g->initializer_size() > 0) {
      onnx::TensorProto* t = g->mutable_initializer(static_cast<int>(Below(g->initializer_size())));
      switch (Below(4)) {
        case 0:
          MutateDims(t->mutable_dims());
          return absl::StrCat("initializer '", t->name(), "': dims");
        case 1:
          t->set_data_type(SomeDataType());
          return absl::StrCat("initializer '", t->name(), "': type");
        case 2:
          if (!t->raw_data().empty()) {
            t->mutable_raw_data()->resize(Below(t->raw_data().size()));
          } else {
            t->set_raw_data(std::string(static_cast<size_t>(Below(9)), '\x7f'));
          }
          return absl::StrCat("initializer '", t->name(), "': raw_data size");
        default:
          for (char& c : *t->mutable_raw_data()) c = static_cast<char>(Below(256));
          return absl::StrCat("initializer '", t->name(), "': raw_data bytes");
      }
    }
    if (kind == 6 && g->input_size() > 0) {
      onnx::ValueInfoProto* vi = g->mutable_input(static_cast<int>(Below(g->input_size())));
      onnx::TypeProto_Tensor* tt = vi->mutable_type()->mutable_tensor_type();
      onnx::TensorShapeProto* shape = tt->mutable_shape();
      switch (Below(4)) {
        case 0:
          if (shape->dim_size() > 0) {
            shape->mutable_dim(static_cast<int>(Below(shape->dim_size())))
                ->set_dim_value(EdgeInt(1));
          }
          break;
        case 1:
          if (shape->dim_size() > 0) {
            shape->mutable_dim(static_cast<int>(Below(shape->dim_size())))->set_dim_param("N");
          }
          break;
        case 2:
          shape->add_dim()->set_dim_value(EdgeInt(1));
          break;
        default:
          tt->set_elem_type(SomeDataType());
          break;
      }
      return absl::StrCat("graph input '", vi->name(), "': type / shape");
    }
    if (kind == 7 && g->output_size() > 0) {
      onnx::ValueInfoProto* vi = g->mutable_output(static_cast<int>(Below(g->output_size())));
      const std::vector<std::string> names = ValueNames(*g);
      if (Below(2) == 0) {
        vi->set_name(names[Below(names.size())]);
      } else {
        vi->mutable_type()->mutable_tensor_type()->set_elem_type(SomeDataType());
      }
      return absl::StrCat("graph output '", vi->name(), "' changed");
    }
    if (kind == 8 && model->opset_import_size() > 0) {
      onnx::OperatorSetIdProto* op = model->mutable_opset_import(0);
      static const int64_t kVersions[] = {1, 6, 7, 9, 11, 13, 17, 21, 22, 30, 0, -1};
      op->set_version(kVersions[Below(sizeof(kVersions) / sizeof(kVersions[0]))]);
      return absl::StrCat("opset ", op->domain(), " -> ", op->version());
    }
    if (g->node_size() > 1) {
      // Duplicate a node's output name onto another node, or swap two nodes.
      const int a = static_cast<int>(Below(g->node_size()));
      const int b = static_cast<int>(Below(g->node_size()));
      if (Below(2) == 0 && g->node(a).output_size() > 0 && g->node(b).output_size() > 0) {
        g->mutable_node(b)->set_output(0, g->node(a).output(0));
        return absl::StrCat("node ", b, " output 0 renamed to node ", a, "'s");
      }
      g->mutable_node()->SwapElements(a, b);
      return absl::StrCat("nodes ", a, " and ", b, " swapped");
    }
    return std::string();
  }
};

// How far a mutated model got (the child's exit status).
enum Outcome { kCompileError = 10, kRunError = 11, kRan = 12 };

// Mutations of a built model before it is written as an OM file: what a
// corrupt or hostile OM with a valid checksum can say.
class OmMutator : public MutatorBase {
 public:
  explicit OmMutator(uint64_t seed) : MutatorBase(seed) {}

  std::string Mutate(GeRootModel* root) {
    return Repeat([&]() { return MutateOnce(root->root.get()); });
  }

 private:
  int64_t Edge(int64_t v) {
    static const int64_t kEdges[] = {-1,
                                     0,
                                     1,
                                     2,
                                     7,
                                     4096,
                                     int64_t{1} << 31,
                                     int64_t{1} << 40,
                                     std::numeric_limits<int64_t>::max(),
                                     std::numeric_limits<int64_t>::min()};
    return MutatorBase::Edge(v, kEdges);
  }

  std::string MutateRef(proto::TensorRef* r, const std::string& where) {
    switch (Below(6)) {
      case 0:
        r->set_offset(static_cast<uint64_t>(Edge(static_cast<int64_t>(r->offset()))));
        return where + " offset";
      case 1:
        r->set_size(static_cast<uint64_t>(Edge(static_cast<int64_t>(r->size()))));
        return where + " size";
      case 2:
        r->set_data_type(static_cast<int32_t>(Edge(r->data_type())));
        return where + " data_type";
      case 3:
        r->set_kind(static_cast<proto::MemKind>(Below(8)));
        return where + " kind";
      case 4:
        r->set_index(static_cast<uint32_t>(Edge(r->index())));
        return where + " index";
      default:
        if (r->dims_size() > 0 && Below(2) == 0) {
          r->set_dims(static_cast<int>(Below(r->dims_size())), Edge(r->dims(0)));
        } else if (r->dims_size() > 0) {
          r->mutable_dims()->RemoveLast();
        } else {
          r->add_dims(Edge(1));
        }
        return where + " dims";
    }
  }

  std::string MutateOnce(GeModel* m) {
    if (m == nullptr) return std::string();
    proto::ModelTaskDef& td = m->task_def;
    const uint64_t kind = Below(8);
    if (kind <= 2 && td.task_size() > 0) {
      const int t = static_cast<int>(Below(td.task_size()));
      proto::TaskDef* task = td.mutable_task(t);
      const std::string where = absl::StrCat("task ", t, " (", task->op_type(), ")");
      switch (Below(8)) {
        case 0:
          task->set_op_index(Edge(task->op_index()));
          return where + " op_index";
        case 1:
          task->set_type(static_cast<proto::TaskType>(Below(10)));
          return where + " type";
        case 2:
          task->set_kernel_name(Below(2) == 0 ? std::string() : "NoSuchKernel");
          return where + " kernel_name";
        case 3:
          if (task->input_size() > 0) {
            task->mutable_input()->RemoveLast();
            return where + " input dropped";
          }
          *task->add_input() = proto::TensorRef();
          return where + " input added";
        case 4:
          if (task->output_size() > 0) {
            task->mutable_output()->RemoveLast();
            return where + " output dropped";
          }
          return std::string();
        default: {
          const int n_in = task->input_size(), n_out = task->output_size();
          if (n_in + n_out == 0) return std::string();
          const int k = static_cast<int>(Below(n_in + n_out));
          return MutateRef(
              k < n_in ? task->mutable_input(k) : task->mutable_output(k - n_in),
              absl::StrCat(where, k < n_in ? " input " : " output ", k < n_in ? k : k - n_in));
        }
      }
    }
    if (kind == 3) {
      td.set_memory_size(static_cast<uint64_t>(Edge(static_cast<int64_t>(td.memory_size()))));
      return "memory_size";
    }
    if (kind == 4 && td.input_size() + td.output_size() > 0) {
      const int k = static_cast<int>(Below(td.input_size() + td.output_size()));
      proto::ModelIoDef* io =
          k < td.input_size() ? td.mutable_input(k) : td.mutable_output(k - td.input_size());
      switch (Below(3)) {
        case 0:
          if (io->dims_size() > 0)
            io->set_dims(static_cast<int>(Below(io->dims_size())), Edge(io->dims(0)));
          break;
        case 1:
          io->set_size(static_cast<uint64_t>(Edge(static_cast<int64_t>(io->size()))));
          break;
        default:
          io->set_data_type(static_cast<int32_t>(Edge(io->data_type())));
          break;
      }
      return absl::StrCat("io description ", k);
    }
    if (m->graph == nullptr || m->graph->GetDirectNodesSize() == 0) return std::string();
    std::vector<Node*> nodes;
    for (const NodePtr& n : m->graph->GetDirectNode()) nodes.push_back(n.get());
    OpDesc* op = nodes[Below(nodes.size())]->GetOpDescBarePtr();
    const std::string where = absl::StrCat("op '", op->GetName(), "' (", op->GetType(), ")");
    if (kind == 5 && op->GetAllOutputsDescSize() + op->GetAllInputsSize() > 0) {
      const bool out =
          op->GetAllOutputsDescSize() > 0 && (op->GetAllInputsSize() == 0 || Below(2) == 0);
      const uint32_t k =
          static_cast<uint32_t>(Below(out ? op->GetAllOutputsDescSize() : op->GetAllInputsSize()));
      GeTensorDescPtr d = out ? op->MutableOutputDesc(k) : op->MutableInputDesc(k);
      if (d == nullptr) return std::string();
      if (Below(2) == 0) {
        std::vector<int64_t> dims = d->GetShape().GetDims();
        if (!dims.empty()) {
          dims[Below(dims.size())] = Edge(dims[0]);
        } else {
          dims.push_back(Edge(1));
        }
        d->SetShape(GeShape(dims));
      } else {
        d->SetDataType(static_cast<DataType>(Below(30)));
      }
      return absl::StrCat(where, out ? " output " : " input ", k, " desc");
    }
    StatusOr<std::vector<std::string>> names = AttrUtils::GetAllAttrNames(op);
    if (!names.ok() || names->empty()) return std::string();
    const std::string& name = (*names)[Below(names->size())];
    if (StatusOr<int64_t> v = AttrUtils::GetInt(op, name); v.ok()) {
      (void)AttrUtils::SetInt(op, name, Edge(*v));
      return absl::StrCat(where, " attribute ", name);
    }
    if (StatusOr<std::vector<int64_t>> v = AttrUtils::Get<std::vector<int64_t>>(op, name); v.ok()) {
      std::vector<int64_t> list = *v;
      if (!list.empty() && Below(3) != 0) {
        list[Below(list.size())] = Edge(list[0]);
      } else if (!list.empty()) {
        list.pop_back();
      } else {
        list.push_back(Edge(0));
      }
      (void)AttrUtils::SetListInt(op, name, list);
      return absl::StrCat(where, " attribute ", name);
    }
    return std::string();
  }
};

// Compiles the case's model with the atc library (no OM yet).
StatusOr<atc::AtcResult> Build(const std::string& bytes) {
  atc::AtcOptions opts;
  opts.model_bytes = bytes;
  return atc::ConvertOnnxToModel(opts);
}

// Loads OM bytes and runs the model; any Status is fine.
Outcome LoadAndRun(absl::string_view om, const std::vector<gert::HostTensor>& inputs,
                   bool verbose) {
  StatusOr<Model> model = Model::LoadFromBytes(om);
  if (!model.ok()) {
    if (verbose) std::printf("load: %s\n", model.status().ToString().c_str());
    return kCompileError;
  }
  StatusOr<std::vector<gert::HostTensor>> outs = model->Run(inputs);
  if (verbose && !outs.ok()) std::printf("run: %s\n", outs.status().ToString().c_str());
  return outs.ok() ? kRan : kRunError;
}

// Writes the mutated model as an OM, loads and runs it.
Outcome SaveLoadAndRun(const GeRootModel& root, const std::vector<gert::HostTensor>& inputs,
                       bool verbose) {
  StatusOr<std::string> om = SaveOm(root);
  if (!om.ok()) {
    if (verbose) std::printf("save: %s\n", om.status().ToString().c_str());
    return kCompileError;
  }
  return LoadAndRun(*om, inputs, verbose);
}

// Mutations of atc's options for an unchanged model: what a user's
// --input_shape, --out_nodes, --input_format and switches can say.
class OptionsMutator : public MutatorBase {
 public:
  explicit OptionsMutator(uint64_t seed) : MutatorBase(seed) {}

  std::string Mutate(const onnx::ModelProto& model, atc::AtcOptions* opts) {
    return Repeat([&]() { return MutateOnce(model, opts); });
  }

 private:
  int64_t Edge(int64_t v) {
    static const int64_t kEdges[] = {-2,
                                     -1,
                                     0,
                                     1,
                                     3,
                                     1 << 20,
                                     int64_t{1} << 31,
                                     int64_t{1} << 40,
                                     std::numeric_limits<int64_t>::max()};
    return MutatorBase::Edge(v, kEdges);
  }

  std::string MutateOnce(const onnx::ModelProto& model, atc::AtcOptions* opts) {
    const onnx::GraphProto& g = model.graph();
    switch (Below(6)) {
      case 0:
      case 1: {
        // --input_shape for a graph input (or a name the model lacks).
        std::string name = "no_such_input";
        std::vector<int64_t> dims;
        if (g.input_size() > 0 && Below(5) != 0) {
          const onnx::ValueInfoProto& vi = g.input(static_cast<int>(Below(g.input_size())));
          name = vi.name();
          for (const auto& d : vi.type().tensor_type().shape().dim()) dims.push_back(d.dim_value());
        }
        if (!dims.empty() && Below(3) != 0) {
          dims[Below(dims.size())] = Edge(dims[0]);
        } else {
          dims.assign(Below(6), 0);
          for (int64_t& d : dims) d = Edge(1);
        }
        opts->input_shapes[name] = dims;
        return absl::StrCat("input_shape ", name, ":", absl::StrJoin(dims, ","));
      }
      case 2: {
        // --out_nodes: a node output by value name or node:index.
        std::string out = "no_such_node:0";
        if (g.node_size() > 0 && Below(5) != 0) {
          const onnx::NodeProto& n = g.node(static_cast<int>(Below(g.node_size())));
          if (Below(2) == 0 && n.output_size() > 0) {
            out = n.output(static_cast<int>(Below(n.output_size())));
          } else {
            out = absl::StrCat(n.name(), ":", Edge(0));
          }
        }
        opts->out_nodes.push_back(out);
        return absl::StrCat("out_nodes ", out);
      }
      case 3: {
        static const char* const kFormats[] = {"NCHW",      "NHWC",  "ND", "NC1HWC0",
                                               "FRACTAL_Z", "bogus", ""};
        opts->input_format = kFormats[Below(sizeof(kFormats) / sizeof(kFormats[0]))];
        return absl::StrCat("input_format '", opts->input_format, "'");
      }
      case 4: {
        // 0-3, or below 0 one time in four (valid: 0-2).
        const int32_t kind = static_cast<int32_t>(Below(4));
        opts->onnx_converter = Below(4) == 0 ? kind - 5 : kind;
        return absl::StrCat("onnx_converter ", opts->onnx_converter);
      }
      default:
        opts->disable_reuse_memory = !opts->disable_reuse_memory;
        opts->enable_single_stream = Below(2) == 0;
        return "disable_reuse_memory / enable_single_stream";
    }
  }
};

// Compiles the model with `opts`, loads the OM and runs it.
Outcome ConvertLoadAndRun(const atc::AtcOptions& opts, const std::vector<gert::HostTensor>& inputs,
                          bool verbose) {
  StatusOr<atc::AtcResult> r = atc::ConvertOnnx(opts);
  if (!r.ok()) {
    if (verbose) std::printf("atc: %s\n", r.status().ToString().c_str());
    return kCompileError;
  }
  return LoadAndRun(r->om_bytes, inputs, verbose);
}

// Compile and run in this process; any Status is fine. With `from_file`
// the model is compiled from a temporary file, removed once it is compiled
// (what views the file keeps it mapped).
Outcome CompileAndRun(Backend& backend, const std::string& bytes,
                      std::vector<gert::HostTensor> inputs, bool verbose, bool from_file = false) {
  conformance::ModelSource source{std::string(), bytes};
  if (from_file) {
    const char* tmp = std::getenv("TMPDIR");
    std::string path = absl::StrCat(tmp != nullptr ? tmp : "/tmp", "/ge_fuzz_XXXXXX");
    const int fd = mkstemp(path.data());
    if (fd < 0) return kCompileError;
    const bool written =
        write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
    close(fd);
    if (!written) {
      unlink(path.c_str());
      return kCompileError;
    }
    source.path = path;
  }
  auto compiled = backend.Compile(source);
  if (from_file) unlink(source.path.c_str());
  if (!compiled.ok() || *compiled == nullptr) {
    if (verbose && !compiled.ok())
      std::printf("compile: %s\n", compiled.status().ToString().c_str());
    return kCompileError;
  }
  auto outs = (*compiled)->Run(std::move(inputs));
  if (verbose && !outs.ok()) std::printf("run: %s\n", outs.status().ToString().c_str());
  return outs.ok() ? kRan : kRunError;
}

// Runs `body` in a forked child. "" when it finished in time (its outcome
// in *outcome); otherwise what went wrong. What the child writes to the
// note pipe (its mutations, when only the child knows them) lands in *note.
std::string RunInChild(const std::function<Outcome(int note_fd)>& body, int64_t timeout_ms,
                       int* outcome, std::string* note) {
  int fds[2];
  if (pipe(fds) != 0) return "pipe failed";
  const pid_t pid = fork();
  if (pid < 0) return "fork failed";
  if (pid == 0) {
    close(fds[0]);
    const Outcome o = body(fds[1]);
    std::fflush(nullptr);
    _exit(o);
  }
  close(fds[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  int status = 0;
  std::string verdict;
  for (;;) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      verdict = absl::StrCat("timed out after ", timeout_ms, " ms");
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  char buf[4096];
  for (ssize_t k; (k = read(fds[0], buf, sizeof(buf))) > 0;)
    note->append(buf, static_cast<size_t>(k));
  close(fds[0]);
  if (!verdict.empty()) return verdict;
  if (WIFSIGNALED(status)) return absl::StrCat("killed by signal ", WTERMSIG(status));
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code < kCompileError || code > kRan) return absl::StrCat("exit status ", code);
  *outcome = code;
  return std::string();
}

bool ParseFlags(int argc, char** argv, Flags* f) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string key = arg.substr(0, eq);
    const std::string value = eq == std::string::npos ? std::string() : arg.substr(eq + 1);
    bool ok = true;
    if (key == "--iterations") {
      ok = absl::SimpleAtoi(value, &f->iterations);
    } else if (key == "--seed") {
      ok = absl::SimpleAtoi(value, &f->seed);
    } else if (key == "--filter") {
      f->filter = absl::StrSplit(value, ',', absl::SkipEmpty());
    } else if (key == "--out") {
      f->out = value;
    } else if (key == "--timeout_ms") {
      ok = absl::SimpleAtoi(value, &f->timeout_ms);
    } else if (key == "--replay") {
      f->replay = value;
    } else if (key == "--max_mutations") {
      ok = absl::SimpleAtoi(value, &g_max_mutations) && g_max_mutations >= 1;
    } else if (key == "--only_seed") {
      ok = absl::SimpleAtoi(value, &f->only_seed);
    } else if (key == "--in_process") {
      f->in_process = true;
    } else if (key == "--from_file") {
      f->from_file = true;
    } else if (key == "--target") {
      f->target = value;
      ok = value == "onnx" || value == "om" || value == "options";
    } else if (key == "--case") {
      f->replay_case = value;
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "onnx_mutation_fuzz: bad flag '%s'\n", arg.c_str());
      return false;
    }
  }
  return true;
}

int Main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, &flags)) return 2;
  std::unique_ptr<Backend> backend = conformance::MakeAtcRuntimeBackend();
  backend->WarmUp();
  conformance::RunOptions options;
  options.filter = flags.filter;
  if (!flags.replay_case.empty()) options.filter = {flags.replay_case};
  const std::vector<CaseSpec> cases = conformance::DiscoverCases(options);
  if (!flags.replay.empty()) {
    StatusOr<std::string> bytes = onnx_test::ReadFileBytes(flags.replay);
    if (!bytes.ok()) {
      std::fprintf(stderr, "%s\n", bytes.status().ToString().c_str());
      return 2;
    }
    std::vector<gert::HostTensor> inputs;
    for (const CaseSpec& spec : cases) {
      if (spec.Id() != flags.replay_case) continue;
      onnx::ModelProto model;
      StatusOr<std::string> orig = onnx_test::ReadFileBytes(spec.dir + "/model.onnx");
      if (orig.ok() && model.ParseFromString(*orig)) {
        StatusOr<std::vector<gert::HostTensor>> in =
            conformance::ReadCaseInputs(model, spec.dir, "test_data_set_0");
        if (in.ok()) inputs = std::move(in).value();
      }
    }
    const Outcome o = CompileAndRun(*backend, *bytes, std::move(inputs), true);
    std::printf("replay finished without a crash (%s)\n", o == kRan        ? "ran"
                                                          : o == kRunError ? "run error"
                                                                           : "compile error");
    return 0;
  }
  int64_t runs = 0, findings = 0, compiled = 0, ran = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t c = 0; c < cases.size(); ++c) {
    const CaseSpec& spec = cases[c];
    StatusOr<std::string> orig = onnx_test::ReadFileBytes(spec.dir + "/model.onnx");
    onnx::ModelProto model;
    if (!orig.ok() || !model.ParseFromString(*orig)) continue;
    StatusOr<std::vector<gert::HostTensor>> inputs =
        conformance::ReadCaseInputs(model, spec.dir, "test_data_set_0");
    if (!inputs.ok()) continue;
    // --target=om: the model as given, built once; each child mutates its
    // own copy of the result (fork).
    GeRootModelPtr built;
    if (flags.target == "om") {
      StatusOr<atc::AtcResult> r = Build(*orig);
      if (!r.ok() || r->root_model == nullptr) continue;
      built = r->root_model;
    }
    const int64_t iterations = flags.only_seed != 0 ? 1 : flags.iterations;
    for (int64_t it = 0; it < iterations; ++it) {
      const uint64_t seed = flags.only_seed != 0
                                ? flags.only_seed
                                : flags.seed * 1000003u + c * 7919u + static_cast<uint64_t>(it);
      std::string what;
      std::string bytes;
      atc::AtcOptions atc_opts;
      if (flags.target == "options") {
        atc_opts.model_bytes = *orig;
        what = OptionsMutator(seed).Mutate(model, &atc_opts);
      } else if (built == nullptr) {
        onnx::ModelProto mutated = model;
        Mutator mutator(seed);
        what = mutator.Mutate(&mutated);
        if (!mutated.SerializeToString(&bytes)) continue;
      }
      std::vector<gert::HostTensor> copy;
      for (const gert::HostTensor& t : *inputs) {
        StatusOr<gert::HostTensor> dup = t.Clone();
        if (dup.ok()) copy.push_back(std::move(dup).value());
      }
      ++runs;
      int outcome = 0;
      std::function<Outcome(int)> body;
      if (flags.target == "options") {
        body = [&](int) { return ConvertLoadAndRun(atc_opts, copy, false); };
      } else if (built == nullptr) {
        body = [&](int) {
          return CompileAndRun(*backend, bytes, std::move(copy), false, flags.from_file);
        };
      } else {
        body = [&](int note_fd) {
          const std::string mutations = OmMutator(seed).Mutate(built.get());
          (void)!write(note_fd, mutations.data(), mutations.size());
          close(note_fd);
          return SaveLoadAndRun(*built, copy, false);
        };
      }
      if (flags.in_process) {
        std::printf("%s seed %llu\n", spec.Id().c_str(), static_cast<unsigned long long>(seed));
        std::fflush(stdout);
        (void)body(-1);
        continue;
      }
      const std::string verdict = RunInChild(body, flags.timeout_ms, &outcome, &what);
      if (verdict.empty()) {
        compiled += outcome != kCompileError ? 1 : 0;
        ran += outcome == kRan ? 1 : 0;
        continue;
      }
      ++findings;
      std::string saved;
      if (!flags.out.empty()) {
        // The --out directory is made on the first finding; a model that
        // cannot be written is named as not saved.
        std::error_code ec;
        std::filesystem::create_directories(flags.out, ec);
        saved = absl::StrCat(flags.out, "/", spec.suite, "_", spec.name, "_", seed, ".onnx");
        std::ofstream file(saved, std::ios::binary);
        file << bytes;
        if (!file.flush()) saved = absl::StrCat("(not saved: cannot write ", saved, ")");
      }
      std::printf("FINDING %s seed %llu: %s [%s]%s%s\n", spec.Id().c_str(),
                  static_cast<unsigned long long>(seed), verdict.c_str(), what.c_str(),
                  saved.empty() ? "" : " saved ", saved.c_str());
      std::fflush(stdout);
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "%lld mutated models over %zu cases in %.1f s (%lld compiled, %lld ran): %lld findings\n",
      static_cast<long long>(runs), cases.size(), secs, static_cast<long long>(compiled),
      static_cast<long long>(ran), static_cast<long long>(findings));
  return findings == 0 ? 0 : 1;
}

}  // namespace
}  // namespace fuzz
}  // namespace ge

int main(int argc, char** argv) { return ge::fuzz::Main(argc, argv); }
