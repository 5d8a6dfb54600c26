// compiler/parser/onnx/onnx_parser.cc
#include "compiler/parser/onnx/onnx_parser.h"

#include <chrono>  // NOLINT(build/c++11)
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/container/node_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "compiler/parser/onnx/onnx_function.h"
#include "compiler/parser/onnx/onnx_op_map.h"
#include "compiler/parser/onnx/onnx_tensor.h"
#include "compiler/parser/onnx/onnx_version.h"
#include "google/protobuf/arena.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "metadef/inc/base/wire_format.h"
#include "metadef/register/inc/register/framework_registry.h"
#include "metadef/register/inc/register/op_registry.h"
#include "onnx/common/constants.h"
#include "onnx/shape_inference/implementation.h"

// After the ONNX headers: <sys/mman.h> defines MAP_TYPE, an enumerator name
// in onnx/defs/parser.h.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ge {
namespace {

using onnx::AttributeProto;
using onnx::GraphProto;
using onnx::ModelProto;
using onnx::NodeProto;
using onnx::ValueInfoProto;
using onnx_parser::TensorLoadContext;

constexpr int64_t kMinIrVersion = 3;
constexpr char kDefaultGraphName[] = "onnx_graph";

// ------------------------------------------------------------ held-out weights

// Large initializer bytes are held out of the ModelProto: the wire bytes are
// rewritten without the raw_data of the root graph's big initializers before
// protobuf parses them, so the weights are never copied by the parse, the
// version conversion or shape inference (their tensors view the mapped model
// file, or MaterializeHeldWeights copies them into one arena).
//   ModelProto.graph = 7, GraphProto.initializer = 5, TensorProto.name = 8,
//   TensorProto.data_type = 2, TensorProto.raw_data = 9.
constexpr size_t kHoldOutMinBytes = 4096;  // shape-like tensors stay in the message

struct HeldWeights {
  // Initializer name -> its raw_data bytes (inside the model bytes; after
  // MaterializeHeldWeights inside the arena `owner` keeps alive).
  absl::flat_hash_map<std::string, absl::string_view> raw;
  std::shared_ptr<const void> owner;
  // When the model bytes are a mapped file that `owner` keeps mapped and
  // open: its descriptor and the mapping's start (the tensors then view the
  // file; see AlignedBuffer::FileView).
  int fd = -1;
  const char* file_base = nullptr;
};

// A TensorProto without its raw_data when that is large and the tensor is a
// plain numeric one; false (keep it as is) otherwise.
bool StripTensor(absl::string_view bytes, std::string* out, std::string* name,
                 absl::string_view* raw) {
  wire::WireReader r(bytes);
  int raw_count = 0;
  uint64_t data_type = 0;
  bool external = false;
  absl::string_view raw_field;
  const char* raw_begin = nullptr;
  const char* raw_end = nullptr;
  while (!r.AtEnd()) {
    const char* field_begin = r.pos();
    uint32_t number;
    wire::WireType type;
    absl::string_view payload;
    if (!r.Field(&number, &type, &payload)) return false;
    if (number == 9 && type == wire::kLen) {
      ++raw_count;
      raw_field = payload;
      raw_begin = field_begin;
      raw_end = r.pos();
    } else if (number == 8 && type == wire::kLen) {
      name->assign(payload.data(), payload.size());
    } else if (number == 2 && type == wire::kVarint) {
      wire::WireReader v(payload);
      if (!v.ReadVarint(&data_type)) return false;
    } else if (number == 14 || number == 13 || number == 3) {
      external = true;  // data_location / external_data / segment: keep as is
    }
  }
  // STRING (8) and BOOL (9) tensors and unknown types stay in the message.
  if (raw_count != 1 || external || raw_field.size() < kHoldOutMinBytes || name->empty() ||
      data_type == 0 || data_type == 8 || data_type == 9 || data_type > 16) {
    return false;
  }
  out->assign(bytes.data(), static_cast<size_t>(raw_begin - bytes.data()));
  out->append(raw_end, static_cast<size_t>(bytes.data() + bytes.size() - raw_end));
  *raw = raw_field;
  return true;
}

// The GraphProto with its big initializers' raw_data held out; false when
// nothing was held out or the bytes are malformed.
bool StripGraph(absl::string_view bytes, std::string* out, HeldWeights* held) {
  wire::WireReader r(bytes);
  bool any = false;
  std::string tensor;
  std::string name;
  const char* copied = bytes.data();  // bytes before this are in *out
  out->reserve(bytes.size() / 8);
  while (!r.AtEnd()) {
    const char* field_begin = r.pos();
    uint32_t number;
    wire::WireType type;
    absl::string_view payload;
    if (!r.Field(&number, &type, &payload)) return false;
    if (number != 5 || type != wire::kLen) continue;
    absl::string_view raw;
    name.clear();
    if (!StripTensor(payload, &tensor, &name, &raw)) continue;
    if (!held->raw.emplace(name, raw).second) return false;  // duplicate names: keep all
    out->append(copied, static_cast<size_t>(field_begin - copied));
    wire::AppendLenField(5, tensor, out);
    copied = r.pos();
    any = true;
  }
  if (!any) return false;
  out->append(copied, static_cast<size_t>(bytes.data() + bytes.size() - copied));
  return true;
}

// The model bytes with the big initializers' raw_data of the root graph held
// out (recorded in *held); false when nothing is held out (parse `bytes` as
// they are; malformed bytes also end here and fail in the real parse).
bool HoldOutWeights(absl::string_view bytes, std::string* out, HeldWeights* held) {
  if (bytes.size() < kHoldOutMinBytes) return false;
  wire::WireReader r(bytes);
  const char* graph_begin = nullptr;
  const char* graph_end = nullptr;
  absl::string_view graph;
  int graphs = 0;
  while (!r.AtEnd()) {
    const char* field_begin = r.pos();
    uint32_t number;
    wire::WireType type;
    absl::string_view payload;
    if (!r.Field(&number, &type, &payload)) return false;
    if (number == 7 && type == wire::kLen) {
      ++graphs;
      graph = payload;
      graph_begin = field_begin;
      graph_end = r.pos();
    }
  }
  if (graphs != 1) return false;  // repeated graph fields merge: leave to protobuf
  std::string stripped;
  if (!StripGraph(graph, &stripped, held)) {
    held->raw.clear();
    return false;
  }
  out->reserve(bytes.size() - graph.size() + stripped.size() + 16);
  out->assign(bytes.data(), static_cast<size_t>(graph_begin - bytes.data()));
  wire::AppendLenField(7, stripped, out);
  out->append(graph_end, static_cast<size_t>(bytes.data() + bytes.size() - graph_end));
  return true;
}

// Copies the held-out weights into one anonymous arena (64-byte aligned
// slots, transparent huge pages where the kernel allows: few page faults)
// that their Const tensors then view. For model bytes that are not a file
// (ParseBytes: the caller owns them only for the call).
Status MaterializeHeldWeights(const std::string& source, HeldWeights* held) {
  constexpr size_t kSlot = AlignedBuffer::kAlignment;
  size_t total = 0;
  for (const auto& [name, raw] : held->raw) total += (raw.size() + kSlot - 1) / kSlot * kSlot;
  if (total == 0) return OkStatus();
  void* addr = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (addr == MAP_FAILED) {
    return Internal("ONNX model '", source, "': cannot allocate ", total, " bytes for weights");
  }
  ::madvise(addr, total, MADV_HUGEPAGE);  // best effort
  std::shared_ptr<const void> arena(addr, [total](const void* p) {
    ::munmap(const_cast<void*>(p), total);
  });
  char* base = static_cast<char*>(addr);
  size_t offset = 0;
  for (auto& [name, raw] : held->raw) {
    char* dst = base + offset;
    std::memcpy(dst, raw.data(), raw.size());
    raw = absl::string_view(dst, raw.size());
    offset += (raw.size() + kSlot - 1) / kSlot * kSlot;
  }
  held->owner = std::move(arena);
  return OkStatus();
}

// ------------------------------------------------------------ problems

// Problems collected over the whole model, reported as one status.
class Problems {
 public:
  template <typename... Args>
  void Add(ErrorCode code, const Args&... args) {
    items_.push_back({code, absl::StrCat(args...)});
  }
  void AddStatus(const Status& st, absl::string_view prefix) {
    items_.push_back({GetErrorCode(st), absl::StrCat(prefix, st.message())});
  }
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }

  Status ToStatus(absl::string_view model_name) const {
    if (items_.empty()) return OkStatus();
    ErrorCode code = items_[0].code;
    for (const Item& it : items_) {
      if (it.code != code) code = ErrorCode::kGraphInvalid;
    }
    std::string msg = absl::StrCat("ONNX model '", model_name, "': ", items_.size(),
                                   items_.size() == 1 ? " error:" : " errors:");
    for (const Item& it : items_) absl::StrAppend(&msg, "\n  ", it.text);
    return MakeStatus(code, msg);
  }

 private:
  struct Item {
    ErrorCode code;
    std::string text;
  };
  std::vector<Item> items_;
};

std::string NodeLabel(const NodeProto& n, int index) {
  if (!n.name().empty()) return absl::StrCat("node '", n.name(), "' (", n.op_type(), ")");
  return absl::StrCat("node #", index, " (", n.op_type(), ")");
}

std::string GraphLabel(const std::string& path) { return absl::StrCat("graph '", path, "': "); }

bool HasSubgraphs(const NodeProto& n) {
  for (const AttributeProto& a : n.attribute()) {
    if (a.type() == AttributeProto::GRAPH || a.type() == AttributeProto::GRAPHS || a.has_g() ||
        a.graphs_size() > 0) {
      return true;
    }
  }
  return false;
}

std::string SubgraphPath(const std::string& path, const NodeProto& n, int index,
                         const std::string& attr) {
  return absl::StrCat(path, "/", n.name().empty() ? absl::StrCat("#", index) : n.name(), ".", attr);
}

// Names a graph defines locally (inputs, initializers, node outputs).
absl::flat_hash_set<std::string> LocalNames(const GraphProto& g) {
  absl::flat_hash_set<std::string> s;
  for (const ValueInfoProto& vi : g.input()) s.insert(vi.name());
  for (const onnx::TensorProto& t : g.initializer()) s.insert(t.name());
  for (const onnx::SparseTensorProto& t : g.sparse_initializer()) s.insert(t.values().name());
  for (const NodeProto& n : g.node()) {
    for (const std::string& o : n.output()) {
      if (!o.empty()) s.insert(o);
    }
  }
  return s;
}

// Names a graph uses but does not define (its outer-scope references).
void FreeVariables(const GraphProto& g, absl::flat_hash_set<std::string>* out) {
  const absl::flat_hash_set<std::string> local = LocalNames(g);
  auto use = [&](const std::string& name) {
    if (!name.empty() && !local.contains(name)) out->insert(name);
  };
  for (const NodeProto& n : g.node()) {
    for (const std::string& i : n.input()) use(i);
    for (const AttributeProto& a : n.attribute()) {
      absl::flat_hash_set<std::string> inner;
      if (a.has_g()) FreeVariables(a.g(), &inner);
      for (const GraphProto& sub : a.graphs()) FreeVariables(sub, &inner);
      for (const std::string& name : inner) use(name);
    }
  }
  for (const ValueInfoProto& vi : g.output()) use(vi.name());
}

// Calls fn(name) for every name a node reads: its non-empty inputs, then its
// subgraphs' free variables (views into the proto or into *scratch, which
// must stay alive while fn runs).
template <typename Fn>
void ForEachDependency(const NodeProto& n, Fn fn) {
  for (const std::string& i : n.input()) {
    if (!i.empty()) fn(absl::string_view(i));
  }
  if (!HasSubgraphs(n)) return;
  for (const AttributeProto& a : n.attribute()) {
    absl::flat_hash_set<std::string> inner;
    if (a.has_g()) FreeVariables(a.g(), &inner);
    for (const GraphProto& sub : a.graphs()) FreeVariables(sub, &inner);
    for (const std::string& name : inner) fn(absl::string_view(name));
  }
}

// The values of one graph by dense id, built once per graph: every name
// lookup of the build (topological order, linking, outputs) goes through
// this one table; node inputs / outputs are resolved to ids in one pass.
// Ids: graph inputs, initializers, sparse initializers, then node outputs in
// model order (a name defined twice keeps its first id). Names view the
// proto's strings.
struct GraphIndex {
  static constexpr int32_t kEmpty = -1;  // empty input / output name
  static constexpr int32_t kOuter = -2;  // an input not defined in this graph

  absl::flat_hash_map<absl::string_view, int32_t> ids;
  // Per id: the first node producing it, -1 for inputs and initializers.
  std::vector<int32_t> producer;
  // Node i's input ids are in_ids[in_begin[i], in_begin[i + 1]), its output
  // ids out_ids[out_begin[i], out_begin[i + 1]) (ONNX order).
  std::vector<int32_t> in_begin;
  std::vector<int32_t> in_ids;
  std::vector<int32_t> out_begin;
  std::vector<int32_t> out_ids;

  int32_t Find(absl::string_view name) const {
    auto it = ids.find(name);
    return it == ids.end() ? kOuter : it->second;
  }
  size_t size() const { return producer.size(); }

  // Reserves room for every value and input of g (one counting pass).
  void Reserve(const GraphProto& g) {
    const size_t n = static_cast<size_t>(g.node_size());
    size_t values = static_cast<size_t>(g.input_size() + g.initializer_size() +
                                        g.sparse_initializer_size());
    size_t inputs = 0;
    for (const NodeProto& node : g.node()) {
      values += static_cast<size_t>(node.output_size());
      inputs += static_cast<size_t>(node.input_size());
    }
    ids.reserve(values);
    producer.reserve(values);
    out_begin.reserve(n + 1);
    out_ids.reserve(values);
    in_begin.reserve(n + 1);
    in_ids.reserve(inputs);
  }
};

void IndexGraph(const GraphProto& g, GraphIndex* index) {
  const int n = g.node_size();
  index->Reserve(g);
  auto define = [&](const std::string& name) {
    if (name.empty()) return;
    if (index->ids.try_emplace(name, static_cast<int32_t>(index->producer.size())).second) {
      index->producer.push_back(-1);
    }
  };
  for (const ValueInfoProto& vi : g.input()) define(vi.name());
  for (const onnx::TensorProto& t : g.initializer()) define(t.name());
  for (const onnx::SparseTensorProto& t : g.sparse_initializer()) define(t.values().name());
  for (int i = 0; i < n; ++i) {
    index->out_begin.push_back(static_cast<int32_t>(index->out_ids.size()));
    for (const std::string& o : g.node(i).output()) {
      if (o.empty()) {
        index->out_ids.push_back(GraphIndex::kEmpty);
        continue;
      }
      auto [it, inserted] =
          index->ids.try_emplace(o, static_cast<int32_t>(index->producer.size()));
      if (inserted) {
        index->producer.push_back(i);
      } else if (index->producer[static_cast<size_t>(it->second)] < 0) {
        index->producer[static_cast<size_t>(it->second)] = i;  // first producing node
      }
      index->out_ids.push_back(it->second);
    }
  }
  index->out_begin.push_back(static_cast<int32_t>(index->out_ids.size()));
  for (const NodeProto& node : g.node()) {
    index->in_begin.push_back(static_cast<int32_t>(index->in_ids.size()));
    for (const std::string& in : node.input()) {
      index->in_ids.push_back(in.empty() ? GraphIndex::kEmpty : index->Find(in));
    }
  }
  index->in_begin.push_back(static_cast<int32_t>(index->in_ids.size()));
}

// A topological order of g's nodes that keeps the model order where it is
// one. Nodes on a cycle are reported and left out.
std::vector<int> TopologicalOrder(const GraphProto& g, const GraphIndex& index,
                                  const std::string& path, Problems* problems) {
  const int n = g.node_size();
  // The producer of a dependency of node i (-1: none in this graph).
  auto producer_of = [&](int32_t id) {
    return id < 0 ? -1 : index.producer[static_cast<size_t>(id)];
  };
  std::vector<int> order;
  order.reserve(static_cast<size_t>(n));
  // Fast path: the model order is topological (every dependency is produced
  // by an earlier node, by the node itself, or outside the graph's nodes).
  bool in_order = true;
  for (int i = 0; i < n && in_order; ++i) {
    for (int32_t k = index.in_begin[static_cast<size_t>(i)];
         k < index.in_begin[static_cast<size_t>(i) + 1]; ++k) {
      if (producer_of(index.in_ids[static_cast<size_t>(k)]) > i) in_order = false;
    }
    if (in_order && HasSubgraphs(g.node(i))) {
      ForEachDependency(g.node(i), [&](absl::string_view d) {
        if (producer_of(index.Find(d)) > i) in_order = false;
      });
    }
  }
  if (in_order) {
    for (int i = 0; i < n; ++i) order.push_back(i);
    return order;
  }
  std::vector<std::vector<int>> succ(static_cast<size_t>(n));
  std::vector<int> indeg(static_cast<size_t>(n), 0);
  for (int i = 0; i < n; ++i) {
    absl::flat_hash_set<int> preds;
    ForEachDependency(g.node(i), [&](absl::string_view d) {
      const int p = producer_of(index.Find(d));
      if (p >= 0 && p != i && preds.insert(p).second) {
        succ[static_cast<size_t>(p)].push_back(i);
        ++indeg[static_cast<size_t>(i)];
      }
    });
  }
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int i = 0; i < n; ++i) {
    if (indeg[static_cast<size_t>(i)] == 0) ready.push(i);
  }
  while (!ready.empty()) {
    const int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int s : succ[static_cast<size_t>(i)]) {
      if (--indeg[static_cast<size_t>(s)] == 0) ready.push(s);
    }
  }
  if (static_cast<int>(order.size()) != n) {
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i) {
      if (indeg[static_cast<size_t>(i)] > 0) names.push_back(NodeLabel(g.node(i), i));
    }
    problems->Add(ErrorCode::kGraphCycle, GraphLabel(path),
                  "nodes form a cycle: ", absl::StrJoin(names, ", "));
  }
  return order;
}

// ------------------------------------------------------------ op lookup

struct OpLookup {
  const FrameworkOpMapping* mapping = nullptr;
  const OpRegistrationData* reg = nullptr;
};

// Caches FrameworkRegistry lookups for one parse.
class OpResolver {
 public:
  explicit OpResolver(absl::flat_hash_map<std::string, int64_t> opsets)
      : opsets_(std::move(opsets)) {}

  // The mapping and registration of an op; an error describes what is missing.
  // Cached by (domain as written, op type): no string is built for a hit.
  StatusOr<OpLookup> Find(const NodeProto& n) {
    auto dit = by_domain_.find(n.domain());
    if (dit == by_domain_.end()) {
      dit = by_domain_.try_emplace(n.domain()).first;
    }
    absl::flat_hash_map<std::string, const Entry*>& types = dit->second;
    auto tit = types.find(n.op_type());
    if (tit == types.end()) {
      StatusOr<OpLookup> found = FindUncached(n);
      auto eit = cache_.find(absl::StrCat(onnx_parser::CanonicalDomain(n.domain()), "\n",
                                          n.op_type()));
      tit = types.emplace(n.op_type(), eit == cache_.end() ? nullptr : &eit->second).first;
      if (tit->second == nullptr) return found;  // domain not accepted
    }
    const Entry* e = tit->second;
    if (e == nullptr) return FindUncached(n);
    if (!e->error.ok()) return e->error;
    return OpLookup{e->mapping.get(), e->reg};
  }

 private:
  StatusOr<OpLookup> FindUncached(const NodeProto& n) {
    const std::string domain = onnx_parser::CanonicalDomain(n.domain());
    if (!onnx_parser::IsAcceptedDomain(n.domain())) {
      return NotSupported("domain '", n.domain(), "' is not supported (accepted: '', '",
                          onnx_parser::kOnnxDomain, "', '", onnx_parser::kOnnxTrainingDomain, "')");
    }
    const std::string key = absl::StrCat(domain, "\n", n.op_type());
    auto it = cache_.find(key);
    if (it == cache_.end()) {
      Entry e;
      auto v = opsets_.find(domain);
      const int64_t version = v == opsets_.end() ? kAnyVersion : v->second;
      StatusOr<FrameworkOpMapping> m =
          FrameworkRegistry::Instance().Find(FrameworkType::ONNX, n.op_type(), domain, version);
      if (!m.ok()) {
        e.error = NotSupported("unsupported op type '", n.op_type(), "' (domain '", domain, "')");
      } else {
        e.mapping = std::make_unique<FrameworkOpMapping>(std::move(m).value());
        e.reg = OpRegistry::Instance().Find(e.mapping->op_type);
        if (e.reg == nullptr) {
          e.error = NotSupported("unsupported op type '", n.op_type(), "' (domain '", domain,
                                 "'): op ", e.mapping->op_type, " is not in the linked op library");
        }
      }
      it = cache_.emplace(key, std::move(e)).first;
    }
    if (!it->second.error.ok()) return it->second.error;
    return OpLookup{it->second.mapping.get(), it->second.reg};
  }

  struct Entry {
    std::unique_ptr<FrameworkOpMapping> mapping;
    const OpRegistrationData* reg = nullptr;
    Status error;
  };
  absl::flat_hash_map<std::string, int64_t> opsets_;
  // Canonical "domain\nop_type" -> entry (node_hash_map: entries stay put).
  absl::node_hash_map<std::string, Entry> cache_;
  // Domain as written -> op type -> entry (nullptr: the domain is not accepted).
  absl::flat_hash_map<std::string, absl::flat_hash_map<std::string, const Entry*>> by_domain_;
};

absl::flat_hash_map<std::string, int64_t> OpsetMap(const ModelProto& model) {
  absl::flat_hash_map<std::string, int64_t> m;
  for (const onnx::OperatorSetIdProto& o : model.opset_import()) {
    m[onnx_parser::CanonicalDomain(o.domain())] = o.version();
  }
  return m;
}

// ------------------------------------------------------------ validation

// Structural checks of the model as given (before version conversion).
class Validator {
 public:
  Validator(const ModelProto& model, OpResolver* ops, Problems* problems)
      : model_(model),
        opsets_(OpsetMap(model)),
        ops_(ops),
        problems_(problems),
        has_default_opset_(opsets_.contains("")) {}

  // Name sets view the model's strings.
  using NameSet = absl::flat_hash_set<absl::string_view>;

  // The root graph's index (after Check of the root): valid while the
  // model's root graph is not changed.
  GraphIndex TakeRootIndex() { return std::move(root_index_); }

  // Checks g. Its values are indexed on the way (GraphIndex, what the
  // builder needs); the root graph's index is kept (TakeRootIndex).
  void Check(const GraphProto& g, const std::string& path,
             const std::vector<const GraphIndex*>& outer, bool is_root) {
    const std::string where = GraphLabel(path);
    GraphIndex local;
    GraphIndex& index = is_root ? root_index_ : local;
    index = GraphIndex();
    const int n_nodes = g.node_size();
    index.Reserve(g);
    // Defines `name`: its id (inserted: a new one).
    auto define = [&index](const std::string& name, int32_t producer) {
      auto [it, inserted] =
          index.ids.try_emplace(name, static_cast<int32_t>(index.producer.size()));
      if (inserted) index.producer.push_back(producer);
      return std::make_pair(it->second, inserted);
    };
    NameSet inputs;
    inputs.reserve(static_cast<size_t>(g.input_size()));
    for (const ValueInfoProto& vi : g.input()) {
      if (vi.name().empty()) {
        problems_->Add(ErrorCode::kGraphInvalid, where, "a graph input has an empty name");
      } else if (!inputs.insert(vi.name()).second) {
        problems_->Add(ErrorCode::kGraphInvalid, where, "duplicate graph input '", vi.name(), "'");
      }
      define(vi.name(), -1);
    }
    NameSet inits;
    auto add_init = [&](const std::string& name) {
      if (name.empty()) {
        problems_->Add(ErrorCode::kGraphInvalid, where, "an initializer has an empty name");
      } else if (!inits.insert(name).second) {
        problems_->Add(ErrorCode::kGraphInvalid, where, "duplicate initializer '", name, "'");
      }
      define(name, -1);
    };
    for (const onnx::TensorProto& t : g.initializer()) add_init(t.name());
    for (const onnx::SparseTensorProto& t : g.sparse_initializer()) add_init(t.values().name());

    // Pass 1 (node names, outputs, input ids): an input is looked up right
    // after its producer defined it (cache-friendly); one not defined yet
    // (kOuter here) is looked up again in pass 2, once every output is.
    NameSet node_names;
    for (int i = 0; i < n_nodes; ++i) {
      const NodeProto& n = g.node(i);
      if (!n.name().empty() && !node_names.insert(n.name()).second) {
        problems_->Add(ErrorCode::kGraphInvalid, where, "duplicate node name '", n.name(), "'");
      }
      index.in_begin.push_back(static_cast<int32_t>(index.in_ids.size()));
      // Most inputs are outputs of the node just before (models are mostly
      // chains): those are matched without a hash lookup.
      const NodeProto* prev = i > 0 ? &g.node(i - 1) : nullptr;
      const int32_t* prev_ids =
          i > 0 ? index.out_ids.data() + index.out_begin[static_cast<size_t>(i) - 1] : nullptr;
      for (const std::string& in : n.input()) {
        if (in.empty()) {
          index.in_ids.push_back(GraphIndex::kEmpty);
          continue;
        }
        int32_t id = GraphIndex::kOuter;
        bool matched = false;
        for (int k = 0; prev != nullptr && k < prev->output_size(); ++k) {
          if (prev->output(k) == in) {
            id = prev_ids[k];
            matched = true;
            break;
          }
        }
        if (!matched) id = index.Find(in);
        index.in_ids.push_back(id);
      }
      index.out_begin.push_back(static_cast<int32_t>(index.out_ids.size()));
      for (const std::string& o : n.output()) {
        if (o.empty()) {
          index.out_ids.push_back(GraphIndex::kEmpty);
          continue;
        }
        const auto [id, inserted] = define(o, i);
        index.out_ids.push_back(id);
        if (!inserted) {
          problems_->Add(ErrorCode::kGraphInvalid, where, NodeLabel(n, i), ": output '", o,
                         "' is already defined (values must be assigned once)");
        }
      }
    }
    index.in_begin.push_back(static_cast<int32_t>(index.in_ids.size()));
    index.out_begin.push_back(static_cast<int32_t>(index.out_ids.size()));
    auto in_outer = [&](const std::string& name) {
      for (const GraphIndex* s : outer) {
        if (s->ids.contains(name)) return true;
      }
      return false;
    };
    std::vector<const GraphIndex*> inner_outer = outer;
    inner_outer.push_back(&index);
    for (int i = 0; i < n_nodes; ++i) {
      const NodeProto& n = g.node(i);
      auto label = [&]() { return absl::StrCat(where, NodeLabel(n, i), ": "); };
      StatusOr<OpLookup> op = ops_->Find(n);
      if (!op.ok() && !onnx_parser::CanInline(model_, n, DomainOpset(n.domain()))) {
        problems_->AddStatus(op.status(), label());
      } else if (!has_default_opset_ && onnx_parser::CanonicalDomain(n.domain()).empty()) {
        problems_->Add(ErrorCode::kGraphInvalid, label(),
                       "the model imports no opset of the default ONNX domain");
      }
      int32_t* in_ids = index.in_ids.data() + index.in_begin[static_cast<size_t>(i)];
      for (int k = 0; k < n.input_size(); ++k) {
        if (in_ids[k] != GraphIndex::kOuter) continue;
        const std::string& in = n.input(k);
        in_ids[k] = index.Find(in);  // defined by a later node (or here)?
        if (in_ids[k] < 0 && !in_outer(in)) {
          problems_->Add(ErrorCode::kGraphInvalid, label(), "input '", in,
                         "' is not defined (no graph input, initializer or node output has "
                         "this name)");
        }
      }
      for (const AttributeProto& a : n.attribute()) {
        if (a.has_g()) Check(a.g(), SubgraphPath(path, n, i, a.name()), inner_outer, false);
        for (int k = 0; k < a.graphs_size(); ++k) {
          Check(a.graphs(k), SubgraphPath(path, n, i, absl::StrCat(a.name(), k)), inner_outer,
                false);
        }
      }
    }
    if (is_root && g.output_size() == 0) {
      problems_->Add(ErrorCode::kGraphInvalid, where, "the graph has no outputs");
    }
    for (const ValueInfoProto& vi : g.output()) {
      if (!index.ids.contains(vi.name()) && !in_outer(vi.name())) {
        problems_->Add(ErrorCode::kGraphInvalid, where, "graph output '", vi.name(),
                       "' is not produced by any node, input or initializer");
      }
    }
  }

 private:
  int64_t DomainOpset(const std::string& domain) const {
    auto it = opsets_.find(onnx_parser::CanonicalDomain(domain));
    return it == opsets_.end() ? 0 : it->second;
  }

  const ModelProto& model_;
  const absl::flat_hash_map<std::string, int64_t> opsets_;
  OpResolver* ops_;
  Problems* problems_;
  bool has_default_opset_;
  GraphIndex root_index_;
};

// ------------------------------------------------------------ building

// A produced value: output `index` of `node`; node == nullptr for a value
// whose producer failed to build (consumers skip it quietly). In
// Scope::by_id, index kUnset marks a value not built (yet).
struct ValueRef {
  static constexpr int32_t kUnset = -1;
  Node* node = nullptr;
  int32_t index = 0;
};

// Outer-scope values captured by the bodies of one node. Names view the
// model proto's strings.
struct CaptureTable {
  std::vector<absl::string_view> names;
  std::vector<ValueRef> outer;
  absl::flat_hash_map<absl::string_view, size_t> index;
};

enum class BodyKind { kIf, kLoop, kScan, kGeneric };

// IR-based plan of a node's inputs / outputs: the instance counts of its
// dynamic input / output (-1 when it has none; names point into the
// registration).
struct IoPlan {
  int64_t dynamic_in = -1;
  int64_t dynamic_out = -1;
  const std::string* dynamic_in_name = nullptr;
  const std::string* dynamic_out_name = nullptr;
};

Status PlanDynamic(const std::vector<OpIoDef>& ios, size_t count, absl::string_view what,
                   int64_t* dynamic_count, const std::string** dynamic_name) {
  size_t fixed = 0;
  const OpIoDef* dynamic = nullptr;
  for (const OpIoDef& io : ios) {
    if (io.kind == IoKind::kDynamic) {
      if (dynamic != nullptr) {
        return NotSupported("op declares two dynamic ", what, "s ('", dynamic->name, "', '",
                            io.name, "')");
      }
      dynamic = &io;
    } else {
      ++fixed;
    }
  }
  if (dynamic != nullptr) {
    *dynamic_count = static_cast<int64_t>(count > fixed ? count - fixed : 0);
    *dynamic_name = &dynamic->name;
  } else if (count > fixed) {
    return ParamInvalid("has ", count, " ", what, "s but the op takes at most ", fixed);
  }
  return OkStatus();
}

// Value and node names view strings that outlive the build: the model proto's
// (which the builder only reads) or GraphBuilder::names_.
struct Scope {
  Scope* parent = nullptr;
  ComputeGraphPtr graph;
  std::string path;
  // The graph's own values by id (index), and the others it reads
  // (captured outer values) by name.
  GraphIndex index;
  std::vector<ValueRef> by_id;
  absl::flat_hash_map<absl::string_view, ValueRef> values;
  absl::flat_hash_set<absl::string_view> node_names;
  // Generated node names ("<op_type>_<index>", unnamed nodes) need no entry
  // in node_names when no other name of the graph can equal one (see
  // GraphBuilder::UniqueNodeName): set for the root graph when none of its
  // given names ends in "_<digits>". `suffixed` is set once a "_<k>" name
  // was made (generated names are then checked against node_names).
  const GraphProto* proto = nullptr;
  bool unchecked_generated_names = false;
  bool suffixed = false;

  // The value of a name built so far (nullptr when none).
  const ValueRef* Find(absl::string_view name) const {
    const int32_t id = index.Find(name);
    if (id >= 0 && by_id[static_cast<size_t>(id)].index != ValueRef::kUnset) {
      return &by_id[static_cast<size_t>(id)];
    }
    auto it = values.find(name);
    return it == values.end() ? nullptr : &it->second;
  }
  void Set(absl::string_view name, ValueRef v) {
    const int32_t id = index.Find(name);
    if (id >= 0) {
      by_id[static_cast<size_t>(id)] = v;
    } else {
      values[name] = v;
    }
  }
  // Bodies only.
  CaptureTable* captures = nullptr;
  std::map<size_t, NodePtr> capture_data;  // capture index -> Data node
};

// The value infos of a graph by value name (the first one of a name wins;
// inputs, then outputs, then value_info). Descs are converted when a value
// is built, not up front.
using DescMap = absl::flat_hash_map<absl::string_view, const ValueInfoProto*>;

class GraphBuilder {
 public:
  // `root_index` (may be null): the root graph's index made by the
  // Validator, when the root graph has not changed since; `root_ops` (may
  // be null or empty): the op lookups of the root graph's nodes by index.
  GraphBuilder(const ModelProto& model, const ParseOptions& options, TensorLoadContext tensors,
               const HeldWeights* held, OpResolver* ops, Problems* problems,
               GraphIndex* root_index, const std::vector<OpLookup>* root_ops)
      : model_(model),
        options_(options),
        tensors_(std::move(tensors)),
        held_(held),
        ops_(ops),
        problems_(problems),
        root_index_(root_index),
        root_ops_(root_ops != nullptr &&
                          root_ops->size() == static_cast<size_t>(model.graph().node_size())
                      ? root_ops
                      : nullptr) {}

  StatusOr<ComputeGraphPtr> Build();

 private:
  // A node name unique in the scope: `wanted`, else "<wanted>_<k>". `wanted`
  // must outlive the build when `stable` (a proto string or a literal); it is
  // copied into names_ otherwise.
  std::string UniqueNodeName(Scope* scope, absl::string_view wanted, bool stable) {
    if (wanted.empty()) {
      wanted = "node";
      stable = true;
    }
    if (stable) {
      if (scope->node_names.insert(wanted).second) return std::string(wanted);
    } else if (!scope->node_names.contains(wanted)) {
      wanted = names_.emplace_back(wanted);
      scope->node_names.insert(wanted);
      return std::string(wanted);
    }
    for (int64_t k = 1;; ++k) {
      // With unchecked generated names, "<wanted>_<k>" must not be the
      // generated name of node k (unnamed, op type `wanted`).
      if (scope->unchecked_generated_names && k < scope->proto->node_size() &&
          scope->proto->node(static_cast<int>(k)).name().empty() &&
          scope->proto->node(static_cast<int>(k)).op_type() == wanted) {
        continue;
      }
      std::string candidate = absl::StrCat(wanted, "_", k);
      if (!scope->node_names.contains(candidate)) {
        scope->suffixed = true;
        scope->node_names.insert(names_.emplace_back(std::move(candidate)));
        return names_.back();
      }
    }
  }

  // Whether `name` has the form of a generated node name ("..._<digits>").
  static bool LooksGenerated(absl::string_view name) {
    const size_t underscore = name.rfind('_');
    if (underscore == absl::string_view::npos || underscore + 1 == name.size()) return false;
    for (size_t i = underscore + 1; i < name.size(); ++i) {
      if (name[i] < '0' || name[i] > '9') return false;
    }
    return true;
  }

  // Enables unchecked generated names for the root scope when no given name
  // of g (Data, Const, node) looks generated. Generated names are unique
  // among themselves (the index after the last '_' tells them apart).
  static void PlanGeneratedNames(Scope* scope, const GraphProto& g) {
    scope->proto = &g;
    for (const ValueInfoProto& vi : g.input()) {
      if (LooksGenerated(vi.name())) return;
    }
    for (const onnx::TensorProto& t : g.initializer()) {
      if (LooksGenerated(t.name())) return;
    }
    for (const onnx::SparseTensorProto& t : g.sparse_initializer()) {
      if (LooksGenerated(t.values().name())) return;
    }
    for (const NodeProto& n : g.node()) {
      if (LooksGenerated(n.name())) return;
    }
    scope->unchecked_generated_names = true;
  }

  // UniqueNodeName for the hot path: returns stable storage instead of a
  // copy: `wanted` itself when `stable` (it must outlive the build) and
  // unique, else a string in names_.
  const std::string& UniqueNodeNameRef(Scope* scope, const std::string& wanted, bool stable) {
    if (wanted.empty()) {
      static const std::string* const kNode = new std::string("node");
      return UniqueNodeNameRef(scope, *kNode, /*stable=*/true);
    }
    if (stable) {
      if (scope->node_names.insert(wanted).second) return wanted;
    } else {
      const std::string& copy = names_.emplace_back(wanted);
      if (scope->node_names.insert(copy).second) return copy;
      names_.pop_back();
    }
    UniqueNodeName(scope, wanted, stable);  // taken: the suffixed name, in names_
    return names_.back();
  }

  std::string UniqueSubgraphName(const std::string& wanted) {
    if (subgraph_names_.insert(wanted).second) return wanted;
    for (int64_t k = 1;; ++k) {
      std::string candidate = absl::StrCat(wanted, "_", k);
      if (subgraph_names_.insert(candidate).second) return candidate;
    }
  }

  // Desc of a named value from the value infos, named after the value
  // (unknown rank, DT_UNDEFINED and unnamed when absent or not convertible).
  GeTensorDesc DescOf(absl::string_view name, const DescMap& local) const {
    const DescMap* maps[2] = {&local, &local == &global_descs_ ? nullptr : &global_descs_};
    for (const DescMap* m : maps) {
      if (m == nullptr) break;  // the root graph: one lookup
      auto it = m->find(name);
      if (it == m->end()) continue;
      StatusOr<GeTensorDesc> d = onnx_parser::DescFromOnnxType(it->second->type(), "value");
      if (!d.ok()) continue;
      d->SetName(it->second->name());
      return std::move(d).value();
    }
    return GeTensorDesc(GeShape({UNKNOWN_RANK}), FORMAT_ND, DT_UNDEFINED);
  }

  static GeTensorDesc ProducerDesc(const ValueRef& v) {
    if (v.node == nullptr) return GeTensorDesc();
    return v.node->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(v.index));
  }

  // The OpDesc of a new node of a registered type: a pooled copy of a
  // per-parse prototype made by OperatorFactory::CreateOpDesc (same IR
  // metadata, descs, defaults and function slots) renamed.
  StatusOr<OpDescPtr> CreateOpDesc(const std::string& name, const OpLookup& op,
                                   const IoPlan& io);

  void CollectDescs(const GraphProto& g, DescMap* out);
  // Indexes g's values for the scope (or takes `prebuilt`, g's index) and
  // reserves its node name table.
  static void ReserveScope(Scope* scope, const GraphProto& g, GraphIndex* prebuilt = nullptr) {
    const size_t bounds = static_cast<size_t>(g.node_size()) + 1;
    if (prebuilt != nullptr && prebuilt->in_begin.size() == bounds &&
        prebuilt->out_begin.size() == bounds) {
      scope->index = std::move(*prebuilt);
    } else {
      IndexGraph(g, &scope->index);
    }
    scope->by_id.assign(scope->index.size(), ValueRef{nullptr, ValueRef::kUnset});
    // Given names (generated ones of the root graph mostly stay out).
    size_t names = static_cast<size_t>(g.input_size() + g.initializer_size() +
                                       g.sparse_initializer_size()) + 1;
    for (const NodeProto& n : g.node()) names += n.name().empty() ? 0 : 1;
    scope->node_names.reserve(names);
  }

  StatusOr<NodePtr> AddDataNode(Scope* scope, absl::string_view name, bool stable_name,
                                const GeTensorDesc& desc);
  void BuildConsts(Scope* scope, const GraphProto& g);
  Status BuildRootOutputs(Scope* scope, const GraphProto& g, const DescMap& descs);
  void BuildNodes(Scope* scope, const GraphProto& g, const DescMap& descs);
  void BuildNode(Scope* scope, const GraphProto& g, int index, const DescMap& descs);
  // Marks the outputs of node `index` of the scope's graph as failed.
  static void PoisonOutputs(Scope* scope, int index) {
    const GraphIndex& gi = scope->index;
    for (int32_t k = gi.out_begin[static_cast<size_t>(index)];
         k < gi.out_begin[static_cast<size_t>(index) + 1]; ++k) {
      const int32_t id = gi.out_ids[static_cast<size_t>(k)];
      if (id >= 0) scope->by_id[static_cast<size_t>(id)] = ValueRef{};
    }
  }
  // `name` views a proto string.
  StatusOr<ValueRef> Resolve(Scope* scope, absl::string_view name);

  // One subgraph (GRAPH attribute) of a node, built before the node.
  struct BodyPlan {
    std::string attr;
    const GraphProto* proto = nullptr;
    ComputeGraphPtr graph;
    std::unique_ptr<Scope> scope;
    std::vector<NodePtr> formal_data;  // Data nodes of the formal inputs
    std::vector<ValueRef> outputs;     // the body outputs (ONNX order)
    std::vector<GeTensorDesc> output_descs;
  };
  Status BuildBody(Scope* parent, const NodeProto& n, int index, BodyPlan* plan,
                   CaptureTable* captures);
  Status FinishBody(BodyPlan* plan, BodyKind kind, size_t n_carried, const CaptureTable& captures,
                    size_t onnx_inputs);
  Status AddNetOutput(Scope* scope, const std::vector<ValueRef>& values,
                      const std::vector<GeTensorDesc>& descs,
                      const std::vector<int64_t>& parent_indices);

  // Links src to input `slot` of dst (whose input desc the caller already
  // set to the producer's output desc).
  static Status LinkAnchors(const ValueRef& src, Node* dst, uint32_t slot) {
    if (src.node == nullptr) return OkStatus();
    const GeTensorDesc* desc =
        src.node->GetOpDescBarePtr()->PeekOutputDesc(static_cast<uint32_t>(src.index));
    OutDataAnchor* out = src.node->GetOutDataAnchorBarePtr(src.index);
    InDataAnchor* in = dst->GetInDataAnchorBarePtr(static_cast<int32_t>(slot));
    if (desc == nullptr || out == nullptr || in == nullptr) {
      return Internal("cannot link output ", src.index, " of ", src.node->GetName(),
                      " to input ", slot, " of ", dst->GetName());
    }
    return out->LinkTo(in);
  }

  const ModelProto& model_;
  const ParseOptions& options_;
  const TensorLoadContext tensors_;
  const HeldWeights* held_;  // root graph initializer bytes held out of model_
  OpResolver* ops_;
  Problems* problems_;
  GraphIndex* root_index_;
  const std::vector<OpLookup>* root_ops_;
  ComputeGraphPtr root_;
  DescMap global_descs_;
  absl::flat_hash_set<std::string> subgraph_names_;
  // Subgraphs in the order they were bound (every one after its descendants).
  std::vector<std::pair<std::string, ComputeGraphPtr>> pending_subgraphs_;
  // Root graph ONNX node name -> its outputs (ONNX order), for output_nodes
  // (filled only when output_nodes is set).
  absl::flat_hash_map<absl::string_view, std::vector<ValueRef>> root_node_outputs_;
  // Names made up by the builder (views in Scope::node_names point here).
  std::deque<std::string> names_;
  std::string name_buffer_;  // generated node names are built here
  // CreateOpDesc prototypes by (registration, dynamic input count, dynamic
  // output count); -1 when the op has no dynamic input / output.
  absl::flat_hash_map<std::tuple<const OpRegistrationData*, int64_t, int64_t>, OpDescPtr>
      prototypes_;
};

void GraphBuilder::CollectDescs(const GraphProto& g, DescMap* out) {
  out->reserve(out->size() + static_cast<size_t>(g.input_size() + g.output_size() +
                                                 g.value_info_size()));
  auto add = [&](const ValueInfoProto& vi) {
    if (!vi.name().empty()) out->emplace(vi.name(), &vi);
  };
  for (const ValueInfoProto& vi : g.input()) add(vi);
  for (const ValueInfoProto& vi : g.output()) add(vi);
  for (const ValueInfoProto& vi : g.value_info()) add(vi);
}

StatusOr<OpDescPtr> GraphBuilder::CreateOpDesc(const std::string& name, const OpLookup& op,
                                               const IoPlan& io) {
  const auto key = std::make_tuple(op.reg, io.dynamic_in, io.dynamic_out);
  auto it = prototypes_.find(key);
  if (it == prototypes_.end()) {
    std::map<std::string, uint32_t> counts;
    if (io.dynamic_in >= 0) counts[*io.dynamic_in_name] = static_cast<uint32_t>(io.dynamic_in);
    if (io.dynamic_out >= 0) counts[*io.dynamic_out_name] = static_cast<uint32_t>(io.dynamic_out);
    ASSIGN_OR_RETURN(OpDescPtr proto,
                     OperatorFactory::CreateOpDesc(name, op.mapping->op_type, counts));
    it = prototypes_.emplace(key, std::move(proto)).first;
  }
  OpDescPtr desc = OpDesc::Create(*it->second);
  desc->SetName(name);
  return desc;
}

StatusOr<NodePtr> GraphBuilder::AddDataNode(Scope* scope, absl::string_view name,
                                            bool stable_name, const GeTensorDesc& desc) {
  OpDescPtr op = OpDesc::Create(UniqueNodeName(scope, name, stable_name), DATA);
  RETURN_IF_ERROR(op->AddInputDesc("x", desc));
  RETURN_IF_ERROR(op->AddOutputDesc("y", desc));
  return scope->graph->AddNode(op);
}

void GraphBuilder::BuildConsts(Scope* scope, const GraphProto& g) {
  const std::string where = GraphLabel(scope->path);
  auto add_const = [&](const std::string& name, StatusOr<GeTensor> t) {
    if (!t.ok()) {
      problems_->AddStatus(t.status(), where);
      scope->Set(name, ValueRef{});
      return;
    }
    OpDescPtr op = OpDesc::Create(UniqueNodeName(scope, name, /*stable=*/true), CONSTANT);
    GeTensorDesc desc = t->GetTensorDesc();
    desc.SetName(name);
    Status st = op->AddOutputDesc("y", desc);
    if (st.ok()) st = AttrUtils::SetTensor(op, ATTR_NAME_WEIGHTS, std::move(t).value());
    StatusOr<NodePtr> node = st.ok() ? scope->graph->AddNode(op) : StatusOr<NodePtr>(st);
    if (!node.ok()) {
      problems_->AddStatus(node.status(), absl::StrCat(where, "initializer '", name, "': "));
      scope->Set(name, ValueRef{});
      return;
    }
    scope->Set(name, ValueRef{node->get(), 0});
  };
  const bool root = scope->parent == nullptr;
  // The error label of each initializer, rebuilt in one buffer (no
  // allocation per initializer once it is long enough).
  std::string what;
  for (const onnx::TensorProto& t : g.initializer()) {
    what.assign("initializer '");
    what.append(t.name());
    what.push_back('\'');
    if (root && held_ != nullptr && t.raw_data().empty() &&
        t.data_location() != onnx::TensorProto::EXTERNAL) {
      auto it = held_->raw.find(t.name());
      if (it != held_->raw.end()) {
        const FileExtent extent{held_->fd,
                                static_cast<uint64_t>(it->second.data() - held_->file_base)};
        add_const(t.name(), onnx_parser::TensorFromOnnxWithRawData(
                                t, it->second, held_->owner, what,
                                held_->fd >= 0 ? &extent : nullptr));
        continue;
      }
    }
    add_const(t.name(), onnx_parser::TensorFromOnnx(t, tensors_, what));
  }
  for (const onnx::SparseTensorProto& t : g.sparse_initializer()) {
    add_const(t.values().name(),
              onnx_parser::SparseTensorFromOnnx(
                  t, tensors_, absl::StrCat("sparse initializer '", t.values().name(), "'")));
  }
}

StatusOr<ValueRef> GraphBuilder::Resolve(Scope* scope, absl::string_view name) {
  if (const ValueRef* v = scope->Find(name)) return *v;
  if (scope->parent == nullptr || scope->captures == nullptr) {
    return NotFound("value '", name, "' is not defined");
  }
  ASSIGN_OR_RETURN(ValueRef outer, Resolve(scope->parent, name));
  CaptureTable& table = *scope->captures;
  size_t j;
  auto cit = table.index.find(name);
  if (cit == table.index.end()) {
    j = table.names.size();
    table.names.push_back(name);
    table.outer.push_back(outer);
    table.index.emplace(name, j);
  } else {
    j = cit->second;
  }
  GeTensorDesc desc = ProducerDesc(outer);
  ASSIGN_OR_RETURN(NodePtr data, AddDataNode(scope, name, /*stable_name=*/true, desc));
  scope->capture_data[j] = data;
  ValueRef v{data.get(), 0};
  scope->Set(name, v);
  return v;
}

Status GraphBuilder::BuildBody(Scope* parent, const NodeProto& n, int index, BodyPlan* plan,
                               CaptureTable* captures) {
  const std::string path = SubgraphPath(parent->path, n, index, plan->attr);
  plan->graph =
      std::make_shared<ComputeGraph>(plan->proto->name().empty() ? path : plan->proto->name());
  plan->scope = std::make_unique<Scope>();
  Scope* scope = plan->scope.get();
  scope->parent = parent;
  scope->graph = plan->graph;
  scope->path = path;
  scope->captures = captures;

  DescMap descs;
  CollectDescs(*plan->proto, &descs);
  ReserveScope(scope, *plan->proto);
  for (const ValueInfoProto& vi : plan->proto->input()) {
    ASSIGN_OR_RETURN(NodePtr data,
                     AddDataNode(scope, vi.name(), /*stable_name=*/true, DescOf(vi.name(), descs)));
    scope->Set(vi.name(), ValueRef{data.get(), 0});
    plan->formal_data.push_back(data);
  }
  BuildConsts(scope, *plan->proto);
  BuildNodes(scope, *plan->proto, descs);
  for (const ValueInfoProto& vi : plan->proto->output()) {
    StatusOr<ValueRef> v = Resolve(scope, vi.name());
    if (!v.ok()) {
      problems_->AddStatus(v.status(), absl::StrCat(GraphLabel(path), "graph output: "));
      plan->outputs.push_back(ValueRef{});
    } else {
      plan->outputs.push_back(*v);
    }
    GeTensorDesc d = DescOf(vi.name(), descs);
    if (d.GetDataType() == DT_UNDEFINED && v.ok() && v->node != nullptr) d = ProducerDesc(*v);
    plan->output_descs.push_back(d);
  }
  return OkStatus();
}

Status GraphBuilder::AddNetOutput(Scope* scope, const std::vector<ValueRef>& values,
                                  const std::vector<GeTensorDesc>& descs,
                                  const std::vector<int64_t>& parent_indices) {
  OpDescPtr op = OpDesc::Create(UniqueNodeName(scope, "NetOutput", /*stable=*/true), NETOUTPUT);
  for (size_t i = 0; i < values.size(); ++i) {
    if (i < parent_indices.size() && parent_indices[i] >= 0) {
      GeTensorDesc d = descs[i];
      RETURN_IF_ERROR(AttrUtils::SetInt(d, ATTR_NAME_PARENT_NODE_INDEX, parent_indices[i]));
      RETURN_IF_ERROR(op->AddInputDesc(absl::StrCat("x", i), d));
    } else {
      RETURN_IF_ERROR(op->AddInputDesc(absl::StrCat("x", i), descs[i]));
    }
  }
  ASSIGN_OR_RETURN(NodePtr node, scope->graph->AddNode(op));
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].node == nullptr) continue;
    OutDataAnchor* out = values[i].node->GetOutDataAnchorBarePtr(values[i].index);
    InDataAnchor* in = node->GetInDataAnchorBarePtr(static_cast<int32_t>(i));
    if (out == nullptr || in == nullptr) {
      return Internal("cannot link output ", values[i].index, " of ", values[i].node->GetName(),
                      " to NetOutput input ", i);
    }
    RETURN_IF_ERROR(out->LinkTo(in));
  }
  return OkStatus();
}

// Sets the parent indices of the body's Data nodes, adds the pass-through
// captures (Loop / Scan) and the NetOutput.
Status GraphBuilder::FinishBody(BodyPlan* plan, BodyKind kind, size_t n_carried,
                                const CaptureTable& captures, size_t onnx_inputs) {
  Scope* scope = plan->scope.get();
  const size_t c = captures.names.size();
  // Formal inputs.
  for (size_t i = 0; i < plan->formal_data.size(); ++i) {
    int64_t parent = static_cast<int64_t>(i);
    if (kind == BodyKind::kScan && i >= n_carried) parent = static_cast<int64_t>(i + c);
    RETURN_IF_ERROR(
        AttrUtils::SetInt(plan->formal_data[i]->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX, parent));
  }
  // Captures: every one needs a Data node when it is passed through.
  const bool pass_through = kind == BodyKind::kLoop || kind == BodyKind::kScan;
  for (size_t j = 0; j < c; ++j) {
    if (pass_through && scope->capture_data.count(j) == 0) {
      GeTensorDesc desc = ProducerDesc(captures.outer[j]);
      ASSIGN_OR_RETURN(NodePtr data,
                       AddDataNode(scope, captures.names[j], /*stable_name=*/true, desc));
      scope->capture_data[j] = data;
    }
  }
  for (const auto& [j, data] : scope->capture_data) {
    int64_t parent = 0;
    switch (kind) {
      case BodyKind::kIf: parent = static_cast<int64_t>(1 + j); break;
      case BodyKind::kLoop: parent = static_cast<int64_t>(2 + n_carried + j); break;
      case BodyKind::kScan: parent = static_cast<int64_t>(n_carried + j); break;
      case BodyKind::kGeneric: parent = static_cast<int64_t>(onnx_inputs + j); break;
    }
    RETURN_IF_ERROR(AttrUtils::SetInt(data->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX, parent));
  }
  // Outputs.
  std::vector<ValueRef> values;
  std::vector<GeTensorDesc> descs;
  std::vector<int64_t> parents;
  const size_t n_out = plan->outputs.size();
  if (kind == BodyKind::kLoop || kind == BodyKind::kScan) {
    // Loop: cond, n carried, [captures], k scans. Scan: n states, [captures], k scans.
    const size_t lead = kind == BodyKind::kLoop ? 1 : 0;
    for (size_t i = 0; i < n_out; ++i) {
      if (i == lead + n_carried) {
        for (size_t j = 0; j < c; ++j) {
          const NodePtr& data = scope->capture_data[j];
          values.push_back(ValueRef{data.get(), 0});
          descs.push_back(data->GetOpDescBarePtr()->GetOutputDesc(0));
          parents.push_back(static_cast<int64_t>(n_carried + j));
        }
      }
      values.push_back(plan->outputs[i]);
      descs.push_back(plan->output_descs[i]);
      if (i < lead) {
        parents.push_back(-1);
      } else if (i < lead + n_carried) {
        parents.push_back(static_cast<int64_t>(i - lead));
      } else {
        parents.push_back(static_cast<int64_t>(i - lead + c));
      }
    }
    if (n_out <= lead + n_carried) {
      for (size_t j = 0; j < c; ++j) {
        const NodePtr& data = scope->capture_data[j];
        values.push_back(ValueRef{data.get(), 0});
        descs.push_back(data->GetOpDescBarePtr()->GetOutputDesc(0));
        parents.push_back(static_cast<int64_t>(n_carried + j));
      }
    }
  } else {
    for (size_t i = 0; i < n_out; ++i) {
      values.push_back(plan->outputs[i]);
      descs.push_back(plan->output_descs[i]);
      parents.push_back(static_cast<int64_t>(i));
    }
  }
  return AddNetOutput(scope, values, descs, parents);
}

void GraphBuilder::BuildNodes(Scope* scope, const GraphProto& g, const DescMap& descs) {
  const std::vector<int> order = TopologicalOrder(g, scope->index, scope->path, problems_);
  if (static_cast<int>(order.size()) != g.node_size()) {
    // Nodes on a cycle (already reported) are not built; their values are
    // poisoned so that consumers do not report them again.
    std::vector<bool> sorted(static_cast<size_t>(g.node_size()), false);
    for (int i : order) sorted[static_cast<size_t>(i)] = true;
    for (int i = 0; i < g.node_size(); ++i) {
      if (sorted[static_cast<size_t>(i)]) continue;
      PoisonOutputs(scope, i);
    }
  }
  for (int i : order) BuildNode(scope, g, i, descs);
}

void GraphBuilder::BuildNode(Scope* scope, const GraphProto& g, int index, const DescMap& descs) {
  const NodeProto& n = g.node(index);
  // Only built when a problem is reported.
  auto label = [&]() { return absl::StrCat(GraphLabel(scope->path), NodeLabel(n, index), ": "); };
  auto poison = [&]() { PoisonOutputs(scope, index); };
  OpLookup op;
  if (scope->parent == nullptr && root_ops_ != nullptr) {
    op = (*root_ops_)[static_cast<size_t>(index)];
  } else {
    StatusOr<OpLookup> op_or = ops_->Find(n);
    if (!op_or.ok()) {
      problems_->AddStatus(op_or.status(), label());
      return poison();
    }
    op = *op_or;
  }

  // ONNX inputs.
  absl::InlinedVector<ValueRef, 4> inputs(static_cast<size_t>(n.input_size()));
  absl::InlinedVector<bool, 8> present(static_cast<size_t>(n.input_size()), false);
  bool failed = false;
  const int32_t* in_ids =
      scope->index.in_ids.data() + scope->index.in_begin[static_cast<size_t>(index)];
  for (int k = 0; k < n.input_size(); ++k) {
    const int32_t id = in_ids[k];
    if (id == GraphIndex::kEmpty) continue;
    if (id >= 0 && scope->by_id[static_cast<size_t>(id)].index != ValueRef::kUnset) {
      inputs[static_cast<size_t>(k)] = scope->by_id[static_cast<size_t>(id)];
      present[static_cast<size_t>(k)] = true;
      continue;
    }
    StatusOr<ValueRef> v = Resolve(scope, n.input(k));
    if (!v.ok()) {
      problems_->AddStatus(v.status(), label());
      failed = true;
      continue;
    }
    inputs[static_cast<size_t>(k)] = *v;
    present[static_cast<size_t>(k)] = true;
  }

  // Subgraphs.
  const bool has_bodies = HasSubgraphs(n);
  BodyKind kind = BodyKind::kGeneric;
  if (has_bodies) {
    if (op.mapping->op_type == IF) kind = BodyKind::kIf;
    if (op.mapping->op_type == "Loop") kind = BodyKind::kLoop;
    if (op.mapping->op_type == "Scan") kind = BodyKind::kScan;
  }
  CaptureTable captures;
  std::vector<BodyPlan> bodies;
  size_t n_carried = 0;
  size_t n_scan_in = 0;
  const size_t onnx_in = static_cast<size_t>(n.input_size());
  const size_t onnx_out = static_cast<size_t>(n.output_size());
  if (has_bodies) {
    if (kind == BodyKind::kLoop) {
      if (onnx_in < 2) {
        problems_->Add(ErrorCode::kGraphInvalid, label(),
                       "Loop needs its inputs M and cond (names may be empty), got ", onnx_in,
                       " inputs");
        return poison();
      }
      n_carried = onnx_in - 2;
    } else if (kind == BodyKind::kScan) {
      int64_t m = 0;
      for (const AttributeProto& a : n.attribute()) {
        if (a.name() == "num_scan_inputs") m = a.i();
      }
      if (m < 1 || static_cast<size_t>(m) > onnx_in) {
        problems_->Add(ErrorCode::kParamInvalid, label(), "num_scan_inputs is ", m, ", expected 1..",
                       onnx_in);
        return poison();
      }
      n_scan_in = static_cast<size_t>(m);
      n_carried = onnx_in - n_scan_in;
    }
    for (const AttributeProto& a : n.attribute()) {
      if (a.has_g()) {
        BodyPlan p;
        p.attr = a.name();
        p.proto = &a.g();
        bodies.push_back(std::move(p));
      }
      if (a.graphs_size() > 0) {
        problems_->Add(ErrorCode::kNotSupported, label(), "attribute '", a.name(),
                       "' holds a list of graphs, which is not supported");
        return poison();
      }
    }
    for (BodyPlan& body : bodies) {
      Status st = BuildBody(scope, n, index, &body, &captures);
      if (!st.ok()) {
        problems_->AddStatus(st, label());
        return poison();
      }
    }
    for (BodyPlan& body : bodies) {
      Status st = FinishBody(&body, kind, n_carried, captures, onnx_in);
      if (!st.ok()) {
        problems_->AddStatus(st, label());
        return poison();
      }
    }
  }
  if (failed) return poison();
  const size_t c = captures.names.size();
  const bool pass_through = kind == BodyKind::kLoop || kind == BodyKind::kScan;

  // Slots: ONNX input k -> slot; capture j -> slot.
  auto in_slot = [&](size_t k) -> size_t {
    return (kind == BodyKind::kScan && k >= n_carried) ? k + c : k;
  };
  auto capture_slot = [&](size_t j) -> size_t {
    return kind == BodyKind::kScan ? n_carried + j : onnx_in + j;
  };
  auto out_slot = [&](size_t i) -> size_t { return (pass_through && i >= n_carried) ? i + c : i; };
  const size_t total_in = onnx_in + c;
  const size_t total_out = onnx_out + (pass_through ? c : 0);

  IoPlan io;
  Status st = PlanDynamic(op.reg->inputs, total_in, "input", &io.dynamic_in, &io.dynamic_in_name);
  if (st.ok()) {
    st = PlanDynamic(op.reg->outputs, total_out, "output", &io.dynamic_out, &io.dynamic_out_name);
  }
  if (!st.ok()) {
    problems_->AddStatus(st, label());
    return poison();
  }
  const std::string* node_name_ptr;
  if (n.name().empty()) {
    name_buffer_.assign(n.op_type());
    name_buffer_.push_back('_');
    absl::StrAppend(&name_buffer_, index);
    if (scope->unchecked_generated_names &&
        (!scope->suffixed || !scope->node_names.contains(name_buffer_))) {
      node_name_ptr = &name_buffer_;  // unique (see PlanGeneratedNames); valid in this call
    } else {
      node_name_ptr = &UniqueNodeNameRef(scope, name_buffer_, /*stable=*/false);
    }
  } else {
    node_name_ptr = &UniqueNodeNameRef(scope, n.name(), /*stable=*/true);
  }
  const std::string& node_name = *node_name_ptr;
  StatusOr<OpDescPtr> desc_or = CreateOpDesc(node_name, op, io);
  if (!desc_or.ok()) {
    problems_->AddStatus(desc_or.status(), label());
    return poison();
  }
  OpDescPtr desc = *desc_or;
  st = op.mapping->MapAttrs(&n, *desc);
  if (!st.ok()) {
    problems_->AddStatus(st, label());
    return poison();
  }
  // Required inputs must be present.
  {
    size_t slot = 0;
    for (const OpIoDef& ir : op.reg->inputs) {
      const size_t count = ir.kind != IoKind::kDynamic ? static_cast<size_t>(1)
                           : &ir.name == io.dynamic_in_name
                               ? static_cast<size_t>(io.dynamic_in)
                               : static_cast<size_t>(0);
      if (ir.kind == IoKind::kRequired) {
        bool have = false;
        for (size_t k = 0; k < onnx_in && !have; ++k) have = in_slot(k) == slot && present[k];
        for (size_t j = 0; j < c && !have; ++j) have = capture_slot(j) == slot;
        if (!have) {
          problems_->Add(ErrorCode::kGraphInvalid, label(), "required input ", slot, " ('", ir.name,
                         "') is missing");
          return poison();
        }
      }
      slot += count;
    }
  }
  // Input descs (the producers' output descs) before the output descs: an
  // input desc equal to the desc set last (typically the previous node's
  // output) shares its storage instead of copying it (OpDesc's desc pool).
  // A slot or producer output that does not exist is left to Link, which
  // reports it.
  auto set_input_desc = [&](const ValueRef& src, size_t slot) {
    if (src.node == nullptr || slot >= desc->GetAllInputsSize()) return OkStatus();
    const GeTensorDesc* d =
        src.node->GetOpDescBarePtr()->PeekOutputDesc(static_cast<uint32_t>(src.index));
    if (d == nullptr) return OkStatus();
    return desc->UpdateInputDesc(static_cast<uint32_t>(slot), *d);
  };
  for (size_t k = 0; k < onnx_in && st.ok(); ++k) {
    if (present[k]) st = set_input_desc(inputs[k], in_slot(k));
  }
  for (size_t j = 0; j < c && st.ok(); ++j) {
    st = set_input_desc(captures.outer[j], capture_slot(j));
  }
  // Output descs.
  for (size_t i = 0; i < onnx_out && st.ok(); ++i) {
    const std::string& name = n.output(static_cast<int>(i));
    if (name.empty()) continue;
    GeTensorDesc d = DescOf(name, descs);
    if (d.GetName() != name) d.SetName(name);
    st = desc->UpdateOutputDesc(static_cast<uint32_t>(out_slot(i)), d);
    if (!st.ok()) break;
  }
  if (st.ok() && pass_through) {
    for (size_t j = 0; j < c && st.ok(); ++j) {
      GeTensorDesc d = ProducerDesc(captures.outer[j]);
      st = desc->UpdateOutputDesc(static_cast<uint32_t>(n_carried + j), d);
    }
  }
  if (st.ok() && has_bodies) {
    st = AttrUtils::SetInt(desc, kAttrCapturedInputs, static_cast<int64_t>(c));
  }
  StatusOr<NodePtr> node_or = st.ok() ? scope->graph->AddNode(desc) : StatusOr<NodePtr>(st);
  if (!node_or.ok()) {
    problems_->AddStatus(node_or.status(), label());
    return poison();
  }
  const NodePtr& node = *node_or;
  for (size_t k = 0; k < onnx_in && st.ok(); ++k) {
    if (present[k]) st = LinkAnchors(inputs[k], node.get(), static_cast<uint32_t>(in_slot(k)));
  }
  for (size_t j = 0; j < c && st.ok(); ++j) {
    st = LinkAnchors(captures.outer[j], node.get(), static_cast<uint32_t>(capture_slot(j)));
  }
  // Subgraphs: bind to the node's slots and register at the root.
  const std::map<std::string, uint32_t> slots =
      bodies.empty() ? std::map<std::string, uint32_t>() : desc->GetSubgraphNameIndexes();
  for (BodyPlan& body : bodies) {
    if (!st.ok()) break;
    auto sit = slots.find(body.attr);
    if (sit == slots.end()) {
      st = NotSupported("op ", op.mapping->op_type, " has no subgraph slot '", body.attr, "'");
      break;
    }
    const std::string sub_name = UniqueSubgraphName(absl::StrCat(node_name, "_", body.attr));
    body.graph->SetName(sub_name);
    body.graph->SetParentGraph(scope->graph);
    body.graph->SetParentNode(node);
    st = desc->SetSubgraphInstanceName(sit->second, sub_name);
    // Registered at the root once the whole tree exists (nested bodies are
    // built before their parents).
    if (st.ok()) pending_subgraphs_.emplace_back(sub_name, body.graph);
  }
  if (!st.ok()) {
    problems_->AddStatus(st, label());
    return poison();
  }
  const int32_t* out_ids =
      scope->index.out_ids.data() + scope->index.out_begin[static_cast<size_t>(index)];
  for (size_t i = 0; i < onnx_out; ++i) {
    if (out_ids[i] >= 0) {
      scope->by_id[static_cast<size_t>(out_ids[i])] =
          ValueRef{node.get(), static_cast<int32_t>(out_slot(i))};
    }
  }
  if (scope->parent == nullptr && !n.name().empty() && !options_.output_nodes.empty()) {
    std::vector<ValueRef>& outs = root_node_outputs_[n.name()];
    for (size_t i = 0; i < onnx_out; ++i) {
      outs.push_back(n.output(static_cast<int>(i)).empty()
                         ? ValueRef{}
                         : ValueRef{node.get(), static_cast<int32_t>(out_slot(i))});
    }
  }
}

Status GraphBuilder::BuildRootOutputs(Scope* scope, const GraphProto& g, const DescMap& descs) {
  std::vector<ValueRef> values;
  std::vector<GeTensorDesc> out_descs;
  auto add = [&](const ValueRef& v, const std::string& name) {
    values.push_back(v);
    GeTensorDesc d = DescOf(name, descs);
    if (d.GetDataType() == DT_UNDEFINED && v.node != nullptr) d = ProducerDesc(v);
    out_descs.push_back(d);
  };
  const std::string where = GraphLabel(scope->path);
  if (options_.output_nodes.empty()) {
    for (const ValueInfoProto& vi : g.output()) {
      StatusOr<ValueRef> v = Resolve(scope, vi.name());
      if (!v.ok()) {
        problems_->AddStatus(v.status(), absl::StrCat(where, "graph output: "));
        continue;
      }
      add(*v, vi.name());
    }
  } else {
    for (const std::string& entry : options_.output_nodes) {
      if (const ValueRef* v = scope->Find(entry)) {
        add(*v, entry);
        continue;
      }
      auto nit = root_node_outputs_.find(entry);
      if (nit != root_node_outputs_.end()) {
        for (const ValueRef& v : nit->second) {
          if (v.node != nullptr) add(v, "");
        }
        continue;
      }
      const size_t colon = entry.rfind(':');
      int64_t idx = -1;
      if (colon != std::string::npos &&
          absl::SimpleAtoi(absl::string_view(entry).substr(colon + 1), &idx)) {
        nit = root_node_outputs_.find(entry.substr(0, colon));
        if (nit != root_node_outputs_.end()) {
          if (idx < 0 || static_cast<size_t>(idx) >= nit->second.size() ||
              nit->second[static_cast<size_t>(idx)].node == nullptr) {
            return ParamInvalid("output_nodes: node '", entry.substr(0, colon), "' has no output ",
                                idx, " (it has ", nit->second.size(), ")");
          }
          add(nit->second[static_cast<size_t>(idx)], "");
          continue;
        }
      }
      return ParamInvalid("output_nodes: '", entry, "' is neither a value nor a node of graph '",
                          scope->path, "'");
    }
  }
  RETURN_IF_ERROR(AddNetOutput(scope, values, out_descs, {}));
  std::vector<std::pair<NodePtr, int32_t>> info;
  for (const ValueRef& v : values) {
    if (v.node != nullptr) info.emplace_back(v.node->shared_from_this(), v.index);
  }
  root_->SetGraphOutNodesInfo(info);
  return OkStatus();
}

StatusOr<ComputeGraphPtr> GraphBuilder::Build() {
  const GraphProto& g = model_.graph();
  const std::string name = g.name().empty() ? std::string(kDefaultGraphName) : g.name();
  root_ = std::make_shared<ComputeGraph>(name);
  subgraph_names_.insert(name);
  Scope scope;
  scope.graph = root_;
  scope.path = name;
  CollectDescs(g, &global_descs_);
  ReserveScope(&scope, g, root_index_);
  PlanGeneratedNames(&scope, g);

  absl::flat_hash_set<absl::string_view> inits;
  inits.reserve(static_cast<size_t>(g.initializer_size() + g.sparse_initializer_size()));
  for (const onnx::TensorProto& t : g.initializer()) inits.insert(t.name());
  for (const onnx::SparseTensorProto& t : g.sparse_initializer()) inits.insert(t.values().name());
  int64_t index = 0;
  for (const ValueInfoProto& vi : g.input()) {
    if (inits.contains(vi.name())) continue;
    GeTensorDesc desc = DescOf(vi.name(), global_descs_);
    ASSIGN_OR_RETURN(NodePtr data, AddDataNode(&scope, vi.name(), /*stable_name=*/true, desc));
    RETURN_IF_ERROR(AttrUtils::SetInt(data->GetOpDesc(), kAttrDataIndex, index++));
    scope.Set(vi.name(), ValueRef{data.get(), 0});
  }
  BuildConsts(&scope, g);
  BuildNodes(&scope, g, global_descs_);
  RETURN_IF_ERROR(BuildRootOutputs(&scope, g, global_descs_));
  // Parents before children.
  for (auto it = pending_subgraphs_.rbegin(); it != pending_subgraphs_.rend(); ++it) {
    RETURN_IF_ERROR(root_->AddSubgraph(it->first, it->second));
  }
  return root_;
}

// ------------------------------------------------------------ options

Status ApplyInputShapes(const ParseOptions& options, ModelProto* model) {
  if (options.input_shapes.empty()) return OkStatus();
  GraphProto* g = model->mutable_graph();
  absl::flat_hash_set<std::string> inits;
  for (const onnx::TensorProto& t : g->initializer()) inits.insert(t.name());
  std::vector<std::string> names;
  absl::flat_hash_map<std::string, ValueInfoProto*> inputs;
  for (ValueInfoProto& vi : *g->mutable_input()) {
    if (inits.contains(vi.name())) continue;
    names.push_back(vi.name());
    inputs.emplace(vi.name(), &vi);
  }
  for (const auto& [name, dims] : options.input_shapes) {
    auto it = inputs.find(name);
    if (it == inputs.end()) {
      return ParamInvalid("input_shapes: '", name, "' is not a graph input of the model (inputs: ",
                          names.empty() ? std::string("none") : absl::StrJoin(names, ", "), ")");
    }
    for (size_t d = 0; d < dims.size(); ++d) {
      if (dims[d] < -1) {
        return ParamInvalid("input_shapes: input '", name, "' dim ", d, " is ", dims[d],
                            ", expected >= -1");
      }
    }
    onnx::TypeProto* type = it->second->mutable_type();
    if (type->value_case() != onnx::TypeProto::kTensorType &&
        type->value_case() != onnx::TypeProto::VALUE_NOT_SET) {
      return ParamInvalid("input_shapes: input '", name, "' is a ",
                          onnx_parser::OnnxTypeString(*type), ", not a tensor");
    }
    onnx::TypeProto::Tensor* tt = type->mutable_tensor_type();
    if (tt->has_shape()) {
      const onnx::TensorShapeProto& shape = tt->shape();
      if (shape.dim_size() != static_cast<int>(dims.size())) {
        return ParamInvalid("input_shapes: input '", name, "' has rank ", shape.dim_size(),
                            " in the model, the override [", absl::StrJoin(dims, ","),
                            "] has rank ", dims.size());
      }
      for (size_t d = 0; d < dims.size(); ++d) {
        const auto& md = shape.dim(static_cast<int>(d));
        if (md.has_dim_value() && dims[d] >= 0 && md.dim_value() != dims[d]) {
          return ParamInvalid("input_shapes: input '", name, "' dim ", d, " is fixed to ",
                              md.dim_value(), " in the model, the override gives ", dims[d]);
        }
      }
    }
    onnx::TensorShapeProto old = tt->shape();
    const bool had_shape = tt->has_shape();
    onnx::TensorShapeProto* shape = tt->mutable_shape();
    shape->clear_dim();
    for (size_t d = 0; d < dims.size(); ++d) {
      onnx::TensorShapeProto::Dimension* nd = shape->add_dim();
      if (dims[d] >= 0) {
        nd->set_dim_value(dims[d]);
      } else if (had_shape) {
        *nd = old.dim(static_cast<int>(d));
      }
    }
  }
  return OkStatus();
}

// Records the wall time of each parse phase in OnnxParseInfo::phase_ms.
class PhaseTimer {
 public:
  explicit PhaseTimer(OnnxParseInfo* info) : info_(info), last_(Clock::now()) {}
  void Mark(const char* phase) {
    if (info_ == nullptr) return;
    const Clock::time_point now = Clock::now();
    info_->phase_ms.emplace_back(phase,
                                 std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }

 private:
  using Clock = std::chrono::steady_clock;
  OnnxParseInfo* info_;
  Clock::time_point last_;
};

// ONNX shape inference on the model in place (value_info for intermediate
// descs; no copy of the model). Best effort: per-node failures are skipped
// (strict mode off); an error that stops inference keeps what was inferred
// before it (every entry added is a valid inference).
// False when it did not run: a node libonnx's inference would crash on
// (OnnxShapeInferenceHazard) is reported by the build instead.
bool InferShapesBestEffort(ModelProto* model) {
  if (!onnx_parser::OnnxShapeInferenceHazard(*model).empty()) return false;
  try {
    onnx::ShapeInferenceOptions opts(/*check_type_val=*/false, /*strict_mode_val=*/0,
                                     /*data_prop_val=*/false);
    onnx::shape_inference::InferShapes(*model, onnx::OpSchemaRegistry::Instance(), opts);
  } catch (const std::exception&) {
    // The descs stay as the model (and inference so far) gives them.
  }
  return true;
}

// Whether ONNX shape inference can add anything to the graph that the
// compiler's InferShape pass does not compute again: false only when the
// model has no local functions, the root graph's inputs carry no dim_param
// symbols, and every node is a plain op (no subgraph) whose op type is in
// the linked op library with an infer shape function.
//
// When it returns false, *root_ops holds the lookup of every root graph node
// (by index) for the build; else it is empty.
bool NeedsOnnxShapeInference(const ModelProto& model, OpResolver* ops,
                             std::vector<OpLookup>* root_ops) {
  root_ops->clear();
  if (model.functions_size() > 0) return true;
  const GraphProto& g = model.graph();
  for (const ValueInfoProto& vi : g.input()) {
    if (!vi.type().has_tensor_type()) {
      if (vi.type().value_case() != onnx::TypeProto::VALUE_NOT_SET) return true;
      continue;
    }
    for (const auto& d : vi.type().tensor_type().shape().dim()) {
      if (d.has_dim_param()) return true;
    }
  }
  root_ops->reserve(static_cast<size_t>(g.node_size()));
  for (const NodeProto& n : g.node()) {
    StatusOr<OpLookup> op = ops->Find(n);
    if (HasSubgraphs(n) || !op.ok() || op->reg->infer_shape == nullptr) {
      root_ops->clear();
      return true;
    }
    root_ops->push_back(*op);
  }
  return false;
}

// `file` (null for ParseBytes) is the mapped model file whose bytes `bytes`
// are: the Const tensors of the held-out weights then view it
// (AlignedBuffer::FileView) instead of copying them; otherwise they are
// copied into one arena.
StatusOr<ComputeGraphPtr> ParseModel(absl::string_view bytes,
                                     std::shared_ptr<const onnx_parser::MappedFileRegion> file,
                                     const ParseOptions& options, const std::string& file_name,
                                     const std::string& model_dir) {
  if (options.target_opset != onnx_parser::kTargetOpset) {
    return NotSupported("target opset ", options.target_opset,
                        " is not supported: the op library implements opset ",
                        onnx_parser::kTargetOpset);
  }
  const std::string source = file_name.empty() ? std::string("<bytes>") : file_name;
  PhaseTimer timer(options.info);
  // The message tree lives on an arena: decoding allocates from large
  // blocks instead of one malloc per message / string, and tearing the tree
  // down after the build frees the blocks, not every message.
  google::protobuf::ArenaOptions arena_options;
  arena_options.start_block_size = 64 << 10;
  arena_options.max_block_size = 4 << 20;
  google::protobuf::Arena arena(arena_options);
  ModelProto& model = *google::protobuf::Arena::CreateMessage<ModelProto>(&arena);
  HeldWeights held;
  std::string stripped;
  const bool holding = HoldOutWeights(bytes, &stripped, &held);
  const absl::string_view proto_bytes = holding ? absl::string_view(stripped) : bytes;
  if (proto_bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !model.ParseFromArray(proto_bytes.data(), static_cast<int>(proto_bytes.size()))) {
    return ParseFailed("ONNX model '", source, "': the ", bytes.size(),
                       " bytes are not a valid ONNX ModelProto");
  }
  if (!model.has_graph()) {
    return ParseFailed("ONNX model '", source, "': the ", bytes.size(),
                       " bytes hold no graph (not an ONNX model?)");
  }
  const std::string name = !file_name.empty()             ? file_name
                           : model.graph().name().empty() ? std::string(kDefaultGraphName)
                                                          : model.graph().name();
  const int64_t ir = model.ir_version();
  if (ir < kMinIrVersion || ir > onnx::IR_VERSION) {
    return NotSupported("ONNX model '", name, "': IR version ", ir,
                        " is not supported (supported: ", kMinIrVersion, " to ",
                        static_cast<int64_t>(onnx::IR_VERSION), ")");
  }
  const int64_t opset = onnx_parser::DefaultDomainOpset(model);
  if (opset > options.target_opset) {
    return NotSupported("ONNX model '", name, "': default-domain opset ", opset,
                        " is newer than the supported opset ", options.target_opset);
  }

  timer.Mark("decode");
  Problems problems;
  OpResolver ops(OpsetMap(model));
  // The root graph's value index, reused by the build while the graph is
  // unchanged (no version adapter or function inlining rewrote it).
  GraphIndex root_index;
  {
    Validator validator(model, &ops, &problems);
    const std::string root =
        model.graph().name().empty() ? std::string(kDefaultGraphName) : model.graph().name();
    validator.Check(model.graph(), root, {}, /*is_root=*/true);
    root_index = validator.TakeRootIndex();
  }
  RETURN_IF_ERROR(problems.ToStatus(name));
  timer.Mark("validate");
  RETURN_IF_ERROR(ApplyInputShapes(options, &model));

  StatusOr<onnx_parser::OpsetConversion> conv =
      onnx_parser::NormalizeOpset(&model, options.target_opset, options.converter);
  if (!conv.ok()) return Annotate(conv.status(), "ONNX model '", name, "': ");
  if (options.info != nullptr) {
    options.info->ir_version = ir;
    options.info->source_opset = conv->from_opset;
    options.info->opset = conv->to_opset;
    options.info->converter = conv->converter;
    options.info->onnx_converter_error = conv->onnx_error;
  }
  timer.Mark("convert");
  OpResolver converted_ops(OpsetMap(model));
  std::vector<OpLookup> root_ops;  // by root node index, when known here
  bool infer =
      options.infer_shapes &&
      (options.always_infer_shapes || NeedsOnnxShapeInference(model, &converted_ops, &root_ops));
  if (infer) root_ops.clear();
  if (infer) infer = InferShapesBestEffort(&model);
  if (options.info != nullptr) options.info->shapes_inferred = infer;
  timer.Mark("infer_shapes");

  // Function inlining; context-dependent bodies need the input types, so
  // shapes are inferred again after each round that inlined something.
  const onnx_parser::NodeSupportFn supported = [&converted_ops](const NodeProto& n) {
    return converted_ops.Find(n).ok();
  };
  bool rewritten = conv->rewritten;
  // Every root node resolved, no subgraph, no local function: nothing to
  // inline (HasInlinableCalls would look every node up again).
  const bool nothing_to_inline = !root_ops.empty() || model.graph().node_size() == 0;
  for (int round = 0; round < 8 && !nothing_to_inline; ++round) {
    if (!onnx_parser::HasInlinableCalls(model, supported)) break;
    rewritten = true;
    int64_t inlined = 0;
    Status st = onnx_parser::InlineFunctions(
        &model, options.target_opset, onnx_parser::CollectValueTypes(model), supported, &inlined);
    if (!st.ok()) return Annotate(st, "ONNX model '", name, "': ");
    if (options.info != nullptr) options.info->inlined_functions += inlined;
    if (inlined == 0) break;
    InferShapesBestEffort(&model);
  }
  timer.Mark("inline");
  if (holding && file != nullptr) {
    held.fd = file->fd();
    held.file_base = bytes.data();
    held.owner = std::move(file);
  } else if (holding) {
    RETURN_IF_ERROR(MaterializeHeldWeights(name, &held));
  }
  // External data files are mapped once each and viewed by their tensors.
  TensorLoadContext tensors{model_dir, std::make_shared<onnx_parser::ExternalDataFiles>()};
  GraphBuilder builder(model, options, std::move(tensors), holding ? &held : nullptr,
                       &converted_ops, &problems, rewritten ? nullptr : &root_index,
                       rewritten ? nullptr : &root_ops);
  StatusOr<ComputeGraphPtr> graph = builder.Build();
  if (!graph.ok()) return Annotate(graph.status(), "ONNX model '", name, "': ");
  RETURN_IF_ERROR(problems.ToStatus(name));
  RETURN_IF_ERROR(AttrUtils::SetInt(*graph, "_onnx_ir_version", ir));
  RETURN_IF_ERROR(AttrUtils::SetInt(*graph, "_onnx_source_opset", conv->from_opset));
  timer.Mark("build");
  return graph;
}

}  // namespace

OnnxModelParser::OnnxModelParser() { onnx_parser::EnsureOnnxMappingsRegistered(); }

StatusOr<ComputeGraphPtr> OnnxModelParser::ParseFile(const std::string& path,
                                                     const ParseOptions& options) const {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    return ParamInvalid("ONNX model file '", path, "' is not a regular file");
  }
  // The file is mapped read-only, not read into a buffer: no copy of the
  // bytes (page-cache pages are mapped, not zeroed and filled); the big
  // weights' tensors view the mapping, and the OM writer copies them from
  // this file to the OM file in the kernel.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NotFound("ONNX model file '", path, "' cannot be opened");
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return IoError("ONNX model file '", path, "': cannot stat it");
  }
  // The mapping and the descriptor live as long as a tensor views them.
  const size_t size = static_cast<size_t>(st.st_size);
  std::shared_ptr<const onnx_parser::MappedFileRegion> file =
      onnx_parser::MappedFileRegion::Map(fd, size);
  if (file == nullptr) {
    return IoError("ONNX model file '", path, "': cannot map its ", size, " bytes");
  }
  const absl::string_view bytes(reinterpret_cast<const char*>(file->data()), size);
  std::string dir = options.model_dir;
  if (dir.empty()) {
    const size_t slash = path.rfind('/');
    dir = slash == std::string::npos ? std::string(".") : path.substr(0, slash == 0 ? 1 : slash);
  }
  return ParseModel(bytes, std::move(file), options, path, dir);
}

StatusOr<ComputeGraphPtr> OnnxModelParser::ParseBytes(absl::string_view bytes,
                                                      const ParseOptions& options) const {
  return ParseModel(bytes, nullptr, options, "", options.model_dir);
}

}  // namespace ge
