// build/om/launch_plan.cc
#include "build/om/launch_plan.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/wire_format_lite.h"
#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/serialization/inc/model_serialize.h"
#include "metadef/inc/base/prefault.h"

namespace ge {
namespace {

constexpr uint64_t kMaxU32 = std::numeric_limits<uint32_t>::max();
constexpr int64_t kMaxDataType = int64_t{1} << 24;
constexpr int kMaxWords = std::numeric_limits<int>::max();

// ---------------------------------------------------------------- encode

// Kernel tasks share an op when their op descs agree on all a static
// runtime reads of an op but its name (see the proto comment): the compute
// engine's Prepare reads the tensor descs' formats (the layout the compiler
// chose) and the input data types too. Types and port names are interned
// (one string per distinct value in the process): their pointers are
// hashed.
int InputFormat(const OpDesc& op, uint32_t i) {
  const GeTensorDesc* d = op.PeekInputDesc(i);  // read at once (see op_desc.h)
  return d == nullptr ? -1 : static_cast<int>(d->GetFormat());
}
int InputDataType(const OpDesc& op, uint32_t i) {
  const GeTensorDesc* d = op.PeekInputDesc(i);
  return d == nullptr ? -1 : static_cast<int>(d->GetDataType());
}
int OutputFormat(const OpDesc& op, uint32_t i) {
  const GeTensorDesc* d = op.PeekOutputDesc(i);
  return d == nullptr ? -1 : static_cast<int>(d->GetFormat());
}

size_t OpHash(const OpDesc& op) {
  const AttrStore& attrs = op.GetAttrStore();
  size_t h =
      absl::HashOf(op.GetInternedType(), attrs.size(), op.GetAllInputsSize(), op.GetOutputsSize());
  for (size_t i = 0; i < attrs.size(); ++i) h = absl::HashOf(h, absl::string_view(attrs.NameAt(i)));
  const uint32_t num_in = static_cast<uint32_t>(op.GetAllInputsSize());
  for (uint32_t i = 0; i < num_in; ++i) {
    h = absl::HashOf(h, op.GetInputNamePtr(i), InputFormat(op, i), InputDataType(op, i));
  }
  const uint32_t num_out = static_cast<uint32_t>(op.GetOutputsSize());
  for (uint32_t i = 0; i < num_out; ++i) {
    const GeTensorDesc* d = op.PeekOutputDesc(i);
    h = absl::HashOf(h, d == nullptr ? -1 : static_cast<int>(d->GetDataType()),
                     OutputFormat(op, i));
  }
  return h;
}

int OutputDataType(const OpDesc& op, uint32_t i) {
  const GeTensorDesc* d = op.PeekOutputDesc(i);  // read at once (see op_desc.h)
  return d == nullptr ? -1 : static_cast<int>(d->GetDataType());
}

bool SameOp(const OpDesc& a, const OpDesc& b) {
  if ((a.GetInternedType() != b.GetInternedType() && a.GetType() != b.GetType()) ||
      a.GetAllInputsSize() != b.GetAllInputsSize() || a.GetOutputsSize() != b.GetOutputsSize()) {
    return false;
  }
  const uint32_t num_in = static_cast<uint32_t>(a.GetAllInputsSize());
  for (uint32_t i = 0; i < num_in; ++i) {
    const std::string* x = a.GetInputNamePtr(i);
    const std::string* y = b.GetInputNamePtr(i);
    if (InputFormat(a, i) != InputFormat(b, i) || InputDataType(a, i) != InputDataType(b, i)) {
      return false;
    }
    if (x == y) continue;  // port names are interned
    if (x == nullptr || y == nullptr || *x != *y) return false;
  }
  const uint32_t num_out = static_cast<uint32_t>(a.GetOutputsSize());
  for (uint32_t i = 0; i < num_out; ++i) {
    if (OutputDataType(a, i) != OutputDataType(b, i)) return false;
    if (OutputFormat(a, i) != OutputFormat(b, i)) return false;
  }
  return a.GetAttrStore() == b.GetAttrStore();
}

struct OpKey {
  const OpDesc* op;
  size_t hash;
};
struct OpKeyHash {
  size_t operator()(const OpKey& k) const { return k.hash; }
};
struct OpKeyEq {
  bool operator()(const OpKey& a, const OpKey& b) const {
    return a.op == b.op || (a.hash == b.hash && SameOp(*a.op, *b.op));
  }
};

using KindKey = std::tuple<absl::string_view, absl::string_view, absl::string_view>;
// A TensorRef's fields (dims point into the TaskDef).
struct TensorKey {
  uint64_t kind_type;  // kind | data_type << 8
  uint64_t index, offset, size;
  absl::Span<const int64_t> dims;
  template <typename H>
  friend H AbslHashValue(H h, const TensorKey& k) {
    return H::combine(std::move(h), k.kind_type, k.index, k.offset, k.size, k.dims);
  }
  bool operator==(const TensorKey& o) const {
    return kind_type == o.kind_type && index == o.index && offset == o.offset && size == o.size &&
           dims == o.dims;
  }
};

// A prefetch the optimizer keeps (g++ 12 -O2 drops some __builtin_prefetch
// calls whose address it has already loaded).
inline void Prefetch(const void* p) {
#if defined(__x86_64__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

// Root-graph op descs by OpDesc id. In a compiled graph node i has id i:
// Find reads the node at that position and checks its id, so nodes without
// tasks are never read; the first miss builds a full id index.
class OpsById {
 public:
  explicit OpsById(const ComputeGraph& graph) : nodes_(graph.GetDirectNodePtr()) {}

  const OpDesc* Find(int64_t id) {
    if (!indexed_ && id >= 0 && static_cast<uint64_t>(id) < nodes_.size()) {
      const OpDesc* op = nodes_[static_cast<size_t>(id)]->GetOpDescBarePtr();
      if (op != nullptr && op->GetId() == id) return op;
    }
    if (!indexed_) BuildIndex();
    auto it = index_.find(id);
    return it == index_.end() ? nullptr : it->second;
  }

  // Software prefetch of what Find(id) reads, in three steps a few tasks
  // apart (node, then op desc, then its body): the walk is otherwise a
  // chain of dependent cache misses per task.
  void PrefetchNode(int64_t id) const {
    if (id >= 0 && static_cast<uint64_t>(id) < nodes_.size()) Prefetch(nodes_[id]);
  }
  void PrefetchOp(int64_t id) const {
    if (id >= 0 && static_cast<uint64_t>(id) < nodes_.size()) {
      const OpDesc* op = nodes_[id]->GetOpDescBarePtr();
      if (op != nullptr) Prefetch(op);
    }
  }
  void PrefetchBody(int64_t id) const {
    if (id >= 0 && static_cast<uint64_t>(id) < nodes_.size()) {
      const OpDesc* op = nodes_[id]->GetOpDescBarePtr();
      if (op == nullptr) return;
      // The body's address without reading it: name is its first field;
      // the id and the input count sit in the next two cache lines.
      const char* body = reinterpret_cast<const char*>(&op->GetName());
      Prefetch(body);
      Prefetch(body + 64);
      Prefetch(body + 128);
    }
  }

 private:
  void BuildIndex() {
    indexed_ = true;
    index_.reserve(nodes_.size());
    for (const Node* node : nodes_) {
      const OpDesc* op = node->GetOpDescBarePtr();
      if (op != nullptr) index_.emplace(op->GetId(), op);  // keeps the first
    }
  }

  const std::vector<Node*> nodes_;
  bool indexed_ = false;
  absl::flat_hash_map<int64_t, const OpDesc*> index_;
};

// Builds the plan; nullopt when a task does not fit.
class Encoder {
 public:
  Encoder(const ComputeGraph& graph, const proto::ModelTaskDef& def)
      : ops_by_id_(graph), def_(def) {}

  StatusOr<std::optional<proto::LaunchPlan>> Run() {
    const int n = def_.task_size();
    // Reserved from the task count alone (a pass over the TaskDefs to count
    // refs and name bytes would cost a cache miss per task).
    words_.Reserve(
        static_cast<int>(std::min<int64_t>(int64_t{n} * (kLaunchTaskWords + 3), kMaxWords)));
    names_.reserve(static_cast<size_t>(n) * 8);
    plan_.mutable_name_end()->Reserve(n);
    // Finding a task's op is a chain of dependent cache misses (node, op
    // desc, op body): each link is prefetched a few tasks ahead.
    constexpr int kAhead = 4;  // tasks between prefetch steps
    for (int t = 0; t < n; ++t) {
      if (t + 3 * kAhead < n) ops_by_id_.PrefetchNode(def_.task(t + 3 * kAhead).op_index());
      if (t + 2 * kAhead < n) ops_by_id_.PrefetchOp(def_.task(t + 2 * kAhead).op_index());
      if (t + kAhead < n) ops_by_id_.PrefetchBody(def_.task(t + kAhead).op_index());
      if (!AddTask(static_cast<uint32_t>(t), def_.task(t))) return std::nullopt;
    }
    plan_.mutable_task()->Swap(&words_);
    plan_.mutable_names()->swap(names_);
    // op_model: one unlinked copy of each shared op's first op desc.
    auto graph = std::make_shared<ComputeGraph>("launch_plan_ops");
    for (const OpDesc* op : ops_) {
      if (!op->GetSubgraphInstanceNames().empty()) return std::nullopt;  // not a static op
      auto added = graph->AddNode(OpDesc::Create(*op), op->GetId());
      if (!added.ok()) return Annotate(added.status(), "launch plan op_model: ");
    }
    auto bytes = ModelSerialize::SerializeModel(*graph);
    if (!bytes.ok()) return Annotate(bytes.status(), "launch plan op_model: ");
    *plan_.mutable_op_model() = std::move(*bytes);
    return std::optional<proto::LaunchPlan>(std::move(plan_));
  }

 private:
  bool AddTask(uint32_t t, const proto::TaskDef& task) {
    if (task.task_id() != t || !task.args().empty() || task.wait_event_size() != 0 ||
        task.record_event_size() != 0 || !proto::TaskType_IsValid(task.type()) ||
        task.input_size() >= 256 || task.output_size() >= 256 || task.workspace_size() >= 256) {
      return false;
    }
    // Repeated fields hold at most INT_MAX elements.
    if (words_.size() > kMaxWords - static_cast<int>(kLaunchTaskWords + 3 * 255) ||
        plan_.tensor_size() > kMaxWords - static_cast<int>(3 * 255 * kLaunchTensorWords)) {
      return false;
    }
    uint32_t op_id = kLaunchNoOp;
    if (task.type() == proto::TASK_KERNEL) {
      const OpDesc* op = ops_by_id_.Find(task.op_index());
      if (op == nullptr) return false;
      OpKey key{op, OpHash(*op)};
      auto [it, inserted] = op_ids_.try_emplace(key, static_cast<uint32_t>(ops_.size()));
      if (inserted) ops_.push_back(op);
      op_id = it->second;
    }
    const KindKey kind{task.op_type(), task.engine(), task.kernel_name()};
    auto [kit, kind_new] =
        kind_ids_.try_emplace(kind, static_cast<uint32_t>(plan_.kind_op_type_size()));
    if (kind_new) {
      plan_.add_kind_op_type(task.op_type());
      plan_.add_kind_engine(task.engine());
      plan_.add_kind_kernel_name(task.kernel_name());
    }
    names_.append(task.node_name());
    if (names_.size() > kMaxU32) return false;
    plan_.add_name_end(static_cast<uint32_t>(names_.size()));

    const uint64_t op_index = static_cast<uint64_t>(task.op_index());
    words_.Add(static_cast<uint32_t>(task.type()) | static_cast<uint32_t>(task.input_size()) << 8 |
               static_cast<uint32_t>(task.output_size()) << 16 |
               static_cast<uint32_t>(task.workspace_size()) << 24);
    words_.Add(kit->second);
    words_.Add(op_id);
    words_.Add(task.stream_id());
    words_.Add(task.event_id());
    words_.Add(task.label_id());
    words_.Add(static_cast<uint32_t>(op_index));
    words_.Add(static_cast<uint32_t>(op_index >> 32));
    for (const proto::TensorRef& ref : task.input()) {
      if (!AddTensor(ref)) return false;
    }
    for (const proto::TensorRef& ref : task.output()) {
      if (!AddTensor(ref)) return false;
    }
    for (const proto::TensorRef& ref : task.workspace()) {
      if (!AddTensor(ref)) return false;
    }
    return true;
  }

  bool AddTensor(const proto::TensorRef& ref) {
    if (!proto::MemKind_IsValid(ref.kind()) || ref.data_type() < 0 ||
        ref.data_type() >= kMaxDataType) {
      return false;
    }
    const TensorKey key{
        static_cast<uint64_t>(ref.kind()) | static_cast<uint64_t>(ref.data_type()) << 8,
        ref.index(), ref.offset(), ref.size(),
        absl::Span<const int64_t>(ref.dims().data(), static_cast<size_t>(ref.dims_size()))};
    auto [tit, tensor_new] = tensor_ids_.try_emplace(
        key, static_cast<uint32_t>(plan_.tensor_size() / kLaunchTensorWords));
    if (tensor_new) {
      auto [sit, shape_new] =
          shape_ids_.try_emplace(key.dims, static_cast<uint32_t>(plan_.shape_end_size()));
      if (shape_new) {
        if (static_cast<uint64_t>(plan_.shape_dims_size()) + key.dims.size() > kMaxU32)
          return false;
        plan_.mutable_shape_dims()->Add(key.dims.begin(), key.dims.end());
        plan_.add_shape_end(static_cast<uint32_t>(plan_.shape_dims_size()));
      }
      plan_.add_tensor(key.kind_type | static_cast<uint64_t>(sit->second) << 32);
      plan_.add_tensor(ref.index());
      plan_.add_tensor(ref.offset());
      plan_.add_tensor(ref.size());
    }
    words_.Add(tit->second);
    return true;
  }

  OpsById ops_by_id_;
  const proto::ModelTaskDef& def_;
  proto::LaunchPlan plan_;
  google::protobuf::RepeatedField<uint32_t> words_;
  std::string names_;
  std::vector<const OpDesc*> ops_;  // by op id
  absl::flat_hash_map<OpKey, uint32_t, OpKeyHash, OpKeyEq> op_ids_;
  absl::flat_hash_map<KindKey, uint32_t> kind_ids_;
  // Keys point into the TaskDefs (alive while encoding).
  absl::flat_hash_map<absl::Span<const int64_t>, uint32_t> shape_ids_;
  absl::flat_hash_map<TensorKey, uint32_t> tensor_ids_;
};

}  // namespace

StatusOr<std::optional<proto::LaunchPlan>> EncodeLaunchPlan(const GeModel& model) {
  if (model.graph == nullptr || model.task_def.dynamic()) return std::nullopt;
  return Encoder(*model.graph, model.task_def).Run();
}

// ---------------------------------------------------------------- fields

LaunchPlanFields LaunchPlanFields::Of(const proto::LaunchPlan& plan) {
  LaunchPlanFields f;
  f.kind_op_type.assign(plan.kind_op_type().begin(), plan.kind_op_type().end());
  f.kind_engine.assign(plan.kind_engine().begin(), plan.kind_engine().end());
  f.kind_kernel_name.assign(plan.kind_kernel_name().begin(), plan.kind_kernel_name().end());
  f.op_model = plan.op_model();
  f.shape_dims =
      absl::MakeConstSpan(plan.shape_dims().data(), static_cast<size_t>(plan.shape_dims_size()));
  f.shape_end =
      absl::MakeConstSpan(plan.shape_end().data(), static_cast<size_t>(plan.shape_end_size()));
  f.tensor = PackedWords<uint64_t>(plan.tensor().data(), static_cast<size_t>(plan.tensor_size()));
  f.task = PackedWords<uint32_t>(plan.task().data(), static_cast<size_t>(plan.task_size()));
  f.names = plan.names();
  f.name_end =
      absl::MakeConstSpan(plan.name_end().data(), static_cast<size_t>(plan.name_end_size()));
  return f;
}

namespace {

// The varints of a packed field, each in T's range (protobuf would
// truncate a wider uint32 value: not the serializer's form).
template <typename T>
bool DecodeVarints(absl::string_view data, std::vector<T>* out) {
  // One varint per byte with the high bit clear (when well formed).
  ReservePrefaulted(out, static_cast<size_t>(std::count_if(data.begin(), data.end(), [](char c) {
                      return (static_cast<uint8_t>(c) & 0x80) == 0;
                    })));
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(data.data()),
                                            static_cast<int>(data.size()));
  while (in.CurrentPosition() < static_cast<int>(data.size())) {
    uint64_t v = 0;
    if (!in.ReadVarint64(&v)) return false;
    if (std::is_same<T, uint32_t>::value && v > kMaxU32) return false;
    out->push_back(static_cast<T>(v));
  }
  return true;
}

bool IsAscii(absl::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return (static_cast<uint8_t>(c) & 0x80) == 0; });
}

}  // namespace

bool LaunchPlanFields::ReadInPlace(absl::Span<const uint8_t> bytes, LaunchPlanFields* out) {
  using google::protobuf::internal::WireFormatLite;
  if (bytes.size() > static_cast<size_t>(kMaxWords)) return false;
  const int size = static_cast<int>(bytes.size());
  google::protobuf::io::CodedInputStream in(bytes.data(), size);
  LaunchPlanFields f;
  uint32_t seen = 0;  // the once-only fields met, a bit per field number
  while (in.CurrentPosition() < size) {
    const uint32_t tag = in.ReadTag();
    const int number = static_cast<int>(WireFormatLite::GetTagFieldNumber(tag));
    if (tag == 0 ||
        WireFormatLite::GetTagWireType(tag) != WireFormatLite::WIRETYPE_LENGTH_DELIMITED ||
        number < proto::LaunchPlan::kKindOpTypeFieldNumber ||
        number > proto::LaunchPlan::kNameEndFieldNumber) {
      return false;
    }
    uint64_t len = 0;
    if (!in.ReadVarint64(&len) || len > static_cast<uint64_t>(size - in.CurrentPosition()))
      return false;
    const absl::string_view data(reinterpret_cast<const char*>(bytes.data() + in.CurrentPosition()),
                                 static_cast<size_t>(len));
    if (!in.Skip(static_cast<int>(len))) return false;
    switch (number) {
      case proto::LaunchPlan::kKindOpTypeFieldNumber:
      case proto::LaunchPlan::kKindEngineFieldNumber:
      case proto::LaunchPlan::kKindKernelNameFieldNumber:
        // proto3 strings must be UTF-8; ASCII is, anything else the parser decides.
        if (!IsAscii(data)) return false;
        (number == proto::LaunchPlan::kKindOpTypeFieldNumber   ? f.kind_op_type
         : number == proto::LaunchPlan::kKindEngineFieldNumber ? f.kind_engine
                                                               : f.kind_kernel_name)
            .push_back(data);
        continue;
      default:
        break;
    }
    if ((seen & (1u << number)) != 0) return false;  // merged or last-wins: the parser's job
    seen |= 1u << number;
    switch (number) {
      case proto::LaunchPlan::kOpModelFieldNumber:
        f.op_model = data;
        break;
      case proto::LaunchPlan::kShapeDimsFieldNumber:
        if (!DecodeVarints(data, &f.shape_dims_store_)) return false;
        break;
      case proto::LaunchPlan::kShapeEndFieldNumber:
        if (!DecodeVarints(data, &f.shape_end_store_)) return false;
        break;
      case proto::LaunchPlan::kTensorFieldNumber:
        if (data.size() % sizeof(uint64_t) != 0) return false;
        f.tensor = PackedWords<uint64_t>(data.data(), data.size() / sizeof(uint64_t));
        break;
      case proto::LaunchPlan::kTaskFieldNumber:
        if (data.size() % sizeof(uint32_t) != 0) return false;
        f.task = PackedWords<uint32_t>(data.data(), data.size() / sizeof(uint32_t));
        break;
      case proto::LaunchPlan::kNamesFieldNumber:
        f.names = data;
        break;
      case proto::LaunchPlan::kNameEndFieldNumber:
        if (!DecodeVarints(data, &f.name_end_store_)) return false;
        break;
      default:
        return false;
    }
  }
  f.shape_dims = f.shape_dims_store_;
  f.shape_end = f.shape_end_store_;
  f.name_end = f.name_end_store_;
  *out = std::move(f);
  return true;
}

// ---------------------------------------------------------------- view

namespace {

// `ends` (the plan field `field`) are exclusive end offsets into data of
// `size` units: nondecreasing, within the data, the last one its end. The
// messages name the field and index; `beyond` / `total_*` word them.
Status CheckEnds(absl::Span<const uint32_t> ends, size_t size, absl::string_view field,
                 absl::string_view beyond, absl::string_view items_end_at,
                 absl::string_view total_head, absl::string_view total_tail) {
  uint32_t prev = 0;
  for (size_t k = 0; k < ends.size(); ++k) {
    const uint32_t end = ends[k];
    if (end < prev) {
      return ParseFailed("launch plan: ", field, "[", k, "] = ", end, " is below ", field, "[",
                         k - 1, "] = ", prev);
    }
    if (end > size) {
      return OutOfRange("launch plan: ", field, "[", k, "] = ", end, " is beyond the ", size,
                        beyond);
    }
    prev = end;
  }
  if (prev != size) {
    return ParseFailed("launch plan: ", items_end_at, prev, " but ", total_head, size, total_tail);
  }
  return OkStatus();
}

}  // namespace

StatusOr<LaunchPlanView> LaunchPlanView::Create(const proto::LaunchPlan& plan, size_t num_ops) {
  return Create(LaunchPlanFields::Of(plan), num_ops);
}

StatusOr<LaunchPlanView> LaunchPlanView::Create(LaunchPlanFields fields, size_t num_ops) {
  LaunchPlanView view;
  view.f_ = std::move(fields);
  view.num_ops_ = num_ops;
  const LaunchPlanFields& f = view.f_;
  const size_t num_kinds = f.kind_op_type.size();
  if (f.kind_engine.size() != num_kinds || f.kind_kernel_name.size() != num_kinds) {
    return ParseFailed("launch plan: kind lists differ in length: kind_op_type ", num_kinds,
                       ", kind_engine ", f.kind_engine.size(), ", kind_kernel_name ",
                       f.kind_kernel_name.size());
  }
  // Shapes.
  RETURN_IF_ERROR(CheckEnds(f.shape_end, f.shape_dims.size(), "shape_end", " shape_dims",
                            "shapes end at ", "there are ", " shape_dims"));
  // Tensors.
  if (f.tensor.size() % kLaunchTensorWords != 0) {
    return ParseFailed("launch plan: tensor has ", f.tensor.size(), " words, not a multiple of ",
                       kLaunchTensorWords);
  }
  const uint64_t num_shapes = f.shape_end.size();
  const size_t num_tensors = f.tensor.size() / kLaunchTensorWords;
  for (size_t i = 0; i < num_tensors; ++i) {
    const uint64_t w0 = f.tensor[i * kLaunchTensorWords];
    const uint64_t w1 = f.tensor[i * kLaunchTensorWords + 1];
    const uint32_t kind = static_cast<uint32_t>(w0 & 0xFF);
    if (!proto::MemKind_IsValid(static_cast<int>(kind))) {
      return OutOfRange("launch plan: tensor ", i, " has kind ", kind, ", not a MemKind");
    }
    if ((w0 >> 32) >= num_shapes) {
      return OutOfRange("launch plan: tensor ", i, " has shape id ", w0 >> 32, " of ", num_shapes,
                        " shapes");
    }
    if (w1 > kMaxU32) {
      return OutOfRange("launch plan: tensor ", i, " has index ", w1, " beyond uint32");
    }
  }
  // Tasks.
  const PackedWords<uint32_t>& words = f.task;
  const size_t size = words.size();
  if (size > static_cast<size_t>(kMaxU32)) {
    return OutOfRange("launch plan: ", size, " task words (limit ", kMaxU32, ")");
  }
  // A valid plan has one name_end entry per task (checked below); the words
  // bound a hostile count.
  ReservePrefaulted(&view.task_start_, std::min(size / kLaunchTaskWords, f.name_end.size()));
  for (size_t pos = 0, t = 0; pos < size; ++t) {
    if (size - pos < kLaunchTaskWords) {
      return ParseFailed("launch plan: task ", t, " is truncated: ", size - pos, " words left of ",
                         kLaunchTaskWords);
    }
    uint32_t w[kLaunchTaskWords];
    for (size_t k = 0; k < kLaunchTaskWords; ++k) w[k] = words[pos + k];
    const uint32_t type = w[0] & 0xFF;
    if (!proto::TaskType_IsValid(static_cast<int>(type))) {
      return OutOfRange("launch plan: task ", t, " has type ", type, ", not a TaskType");
    }
    const size_t num_in = (w[0] >> 8) & 0xFF, num_out = (w[0] >> 16) & 0xFF, num_ws = w[0] >> 24;
    const size_t refs = num_in + num_out + num_ws;
    if (size - pos - kLaunchTaskWords < refs) {
      return ParseFailed("launch plan: task ", t, " has ", num_in, " inputs, ", num_out,
                         " outputs and ", num_ws, " workspaces but only ",
                         size - pos - kLaunchTaskWords, " words are left");
    }
    if (w[1] >= num_kinds) {
      return OutOfRange("launch plan: task ", t, " has kind id ", w[1], " of ", num_kinds,
                        " kinds");
    }
    if (type == proto::TASK_KERNEL) {
      if (w[2] >= num_ops) {
        return OutOfRange("launch plan: kernel task ", t, " has op id ", w[2], " of ", num_ops,
                          " ops");
      }
    } else if (w[2] != kLaunchNoOp) {
      return OutOfRange("launch plan: task ", t, " of type ", type, " has op id ", w[2],
                        " (only kernel tasks have ops)");
    }
    for (size_t r = 0; r < refs; ++r) {
      const uint32_t id = words[pos + kLaunchTaskWords + r];
      if (id >= num_tensors) {
        return OutOfRange("launch plan: task ", t, " tensor ", r, " has id ", id, " of ",
                          num_tensors, " tensors");
      }
    }
    view.task_start_.push_back(static_cast<uint32_t>(pos));
    pos += kLaunchTaskWords + refs;
  }
  // Names.
  const size_t num_tasks = view.task_start_.size();
  if (f.name_end.size() != num_tasks) {
    return ParseFailed("launch plan: ", f.name_end.size(), " name_end entries for ", num_tasks,
                       " tasks");
  }
  RETURN_IF_ERROR(CheckEnds(f.name_end, f.names.size(), "name_end", " bytes of names",
                            "names end at ", "names has ", " bytes"));
  return view;
}

LaunchPlanView::Task LaunchPlanView::task(size_t t) const {
  const PackedWords<uint32_t> w = f_.task.subspan(task_start_[t], f_.task.size() - task_start_[t]);
  Task task;
  const uint32_t w0 = w[0];
  task.type = static_cast<proto::TaskType>(w0 & 0xFF);
  const size_t num_in = (w0 >> 8) & 0xFF, num_out = (w0 >> 16) & 0xFF, num_ws = w0 >> 24;
  task.kind = w[1];
  task.op = w[2];
  task.stream_id = w[3];
  task.event_id = w[4];
  task.label_id = w[5];
  task.op_index =
      static_cast<int64_t>(static_cast<uint64_t>(w[6]) | static_cast<uint64_t>(w[7]) << 32);
  task.name = task_name(t);
  task.inputs = w.subspan(kLaunchTaskWords, num_in);
  task.outputs = w.subspan(kLaunchTaskWords + num_in, num_out);
  task.workspaces = w.subspan(kLaunchTaskWords + num_in + num_out, num_ws);
  return task;
}

LaunchPlanView::Tensor LaunchPlanView::tensor(uint32_t id) const {
  const size_t at = static_cast<size_t>(id) * kLaunchTensorWords;
  const uint64_t w0 = f_.tensor[at];
  Tensor tensor;
  tensor.kind = static_cast<proto::MemKind>(w0 & 0xFF);
  tensor.data_type = static_cast<int32_t>((w0 >> 8) & 0xFFFFFF);
  tensor.shape = static_cast<uint32_t>(w0 >> 32);
  tensor.index = f_.tensor[at + 1];
  tensor.offset = f_.tensor[at + 2];
  tensor.size = f_.tensor[at + 3];
  return tensor;
}

absl::Span<const int64_t> LaunchPlanView::shape(uint32_t id) const {
  const uint32_t begin = id == 0 ? 0 : f_.shape_end[id - 1];
  const uint32_t end = f_.shape_end[id];
  return f_.shape_dims.subspan(begin, end - begin);
}

void LaunchPlanView::FillTensorRef(uint32_t id, proto::TensorRef* ref) const {
  const Tensor x = tensor(id);
  ref->set_kind(x.kind);
  ref->set_index(static_cast<uint32_t>(x.index));
  ref->set_offset(x.offset);
  ref->set_size(x.size);
  ref->set_data_type(x.data_type);
  const absl::Span<const int64_t> dims = shape(x.shape);
  if (!dims.empty()) ref->mutable_dims()->Add(dims.begin(), dims.end());
}

void LaunchPlanView::FillTaskDef(size_t t, proto::TaskDef* def) const {
  const Task x = task(t);
  def->set_task_id(static_cast<uint32_t>(t));
  def->set_type(x.type);
  def->set_node_name(x.name.data(), x.name.size());
  const absl::string_view op_type = kind_op_type(x.kind);
  const absl::string_view engine = kind_engine(x.kind);
  const absl::string_view kernel_name = kind_kernel_name(x.kind);
  def->set_op_type(op_type.data(), op_type.size());
  def->set_op_index(x.op_index);
  def->set_engine(engine.data(), engine.size());
  def->set_kernel_name(kernel_name.data(), kernel_name.size());
  def->set_stream_id(x.stream_id);
  def->set_event_id(x.event_id);
  def->set_label_id(x.label_id);
  if (!x.inputs.empty()) def->mutable_input()->Reserve(static_cast<int>(x.inputs.size()));
  for (uint32_t id : x.inputs) FillTensorRef(id, def->add_input());
  if (!x.outputs.empty()) def->mutable_output()->Reserve(static_cast<int>(x.outputs.size()));
  for (uint32_t id : x.outputs) FillTensorRef(id, def->add_output());
  if (!x.workspaces.empty())
    def->mutable_workspace()->Reserve(static_cast<int>(x.workspaces.size()));
  for (uint32_t id : x.workspaces) FillTensorRef(id, def->add_workspace());
}

// ---------------------------------------------------------------- expand

Status ExpandLaunchPlan(const proto::LaunchPlan& plan, size_t num_ops, proto::ModelTaskDef* td) {
  if (td == nullptr) return ParamInvalid("ExpandLaunchPlan: td is null");
  if (td->task_size() != 0) {
    return ParamInvalid("ExpandLaunchPlan: the task list already has ", td->task_size(), " tasks");
  }
  ASSIGN_OR_RETURN(LaunchPlanView view, LaunchPlanView::Create(plan, num_ops));
  const size_t n = view.num_tasks();
  td->mutable_task()->Reserve(static_cast<int>(n));
  for (size_t t = 0; t < n; ++t) view.FillTaskDef(t, td->add_task());
  return OkStatus();
}

StatusOr<ModelOpDescs> DecodeLaunchPlanOps(const proto::LaunchPlan& plan) {
  return DecodeLaunchPlanOps(plan.op_model());
}

StatusOr<ModelOpDescs> DecodeLaunchPlanOps(absl::string_view op_model) {
  auto ops = DecodeModelOpDescs(op_model);
  if (!ops.ok()) return Annotate(ops.status(), "launch plan op_model: ");
  return ops;
}

}  // namespace ge
