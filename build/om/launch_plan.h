// build/om/launch_plan.h
//
// LaunchPlan (build/proto/model_task.proto): the compact form of a static
// model's task list in an OM file. EncodeLaunchPlan packs GeModel::task_def's
// TaskDefs, ExpandLaunchPlan gives them back exactly, and LaunchPlanView lets
// a runtime walk a plan without building one message per task.
//
// Contract
//   * EncodeLaunchPlan(model) is std::nullopt when the model has no graph, is
//     dynamic, or a task does not fit (the proto comment: task_id is its
//     position; args / wait_event / record_event empty; fewer than 256
//     inputs, outputs and workspaces each; for TASK_KERNEL op_index names a
//     root-graph node; plus what the words can carry: a valid TaskType and
//     MemKind, 0 <= data_type < 2^24, and names / dims / counts below 2^32).
//     Unknown fields of TaskDefs / TensorRefs (none in a built model) are not
//     looked at and not carried: checking them cost 13% of the encode.
//     An error Status only for real failures (op_model serialization).
//   * Equal (op_type, engine, kernel_name) triples, dims lists and TensorRefs
//     are stored once; kernel tasks share an op when their op descs are equal
//     in type, attributes, input count, input names, formats and data types,
//     and output data types and formats. Ids are assigned in first-use
//     order; op_model holds a copy of each shared op's first op desc (same
//     name and id), one unlinked node per op, in op-id order:
//     DecodeModelOpDescs(plan.op_model()).ops[i] is op i.
//   * ExpandLaunchPlan(EncodeLaunchPlan(m), n, &td) appends TaskDefs equal
//     (SerializeAsString-wise) to m.task_def.task.
//   * LaunchPlanView::Create validates the whole plan (the checks
//     ExpandLaunchPlan relies on; ExpandLaunchPlan is built on the view):
//     word counts, ids in range, shape_end / name_end monotonic and ending at
//     their data's size, TaskType / MemKind values valid (consumers may
//     switch on them), op ids set for TASK_KERNEL only. Hostile plans give
//     ParseFailed (structure) or OutOfRange (ids) naming the task / field /
//     index; never a crash, and nothing is allocated in proportion to a
//     count before the count is checked against the data.
//   * num_ops is the number of ops in plan.op_model(): the caller has it
//     from decoding op_model (DecodeLaunchPlanOps below, or
//     DecodeModelOpDescs); the plan itself is not decoded here.
//
// Cost: encoding is linear in tasks + tensor refs with one hash lookup per
// kind, op and ref (dims are hashed with the ref) and no per-task
// std::string; most of it is cache misses on the TaskDefs and op descs, the
// op lookups are prefetched a few tasks ahead. Ladder 100k (100k tasks,
// -c opt, tcmalloc, 2-core VM, thread CPU time): encode about 20 ms
// (a bare walk over the TaskDefs' fields: 5 ms), LaunchPlanView::Create
// 0.5 ms, ExpandLaunchPlan 22 ms; the plan is 5.4 MB vs 7.7 MB of TaskDefs.
//
// Example
//   ASSIGN_OR_RETURN(std::optional<proto::LaunchPlan> plan, EncodeLaunchPlan(model));
//   if (plan) { ... write *plan as ModelTaskDef.plan, without the tasks ... }
//   // load:
//   ASSIGN_OR_RETURN(ModelOpDescs ops, DecodeLaunchPlanOps(def.plan()));
//   ASSIGN_OR_RETURN(LaunchPlanView view, LaunchPlanView::Create(def.plan(), ops.ops.size()));
//   for (size_t t = 0; t < view.num_tasks(); ++t) {
//     LaunchPlanView::Task task = view.task(t);
//     ... ops.ops[task.op], view.tensor(task.inputs[0]) ...
//   }
#ifndef BUILD_OM_LAUNCH_PLAN_H_
#define BUILD_OM_LAUNCH_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "absl/base/config.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "build/model/ge_model.h"
#include "build/proto/model_task.pb.h"
#include "graph/serialization/inc/model_op_descs.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

inline constexpr size_t kLaunchTensorWords = 4;
inline constexpr size_t kLaunchTaskWords = 8;
// Op id of a task that is not TASK_KERNEL.
inline constexpr uint32_t kLaunchNoOp = 0xFFFFFFFFu;

// The plan of `model`'s tasks, or std::nullopt when it has none (see above).
StatusOr<std::optional<proto::LaunchPlan>> EncodeLaunchPlan(const GeModel& model);

// Appends to td->task (which must be empty: ParamInvalid otherwise) the
// TaskDefs `plan` was made from. `num_ops`: ops in plan.op_model().
Status ExpandLaunchPlan(const proto::LaunchPlan& plan, size_t num_ops, proto::ModelTaskDef* td);

// The ops of plan.op_model(), in op-id order.
StatusOr<ModelOpDescs> DecodeLaunchPlanOps(const proto::LaunchPlan& plan);
StatusOr<ModelOpDescs> DecodeLaunchPlanOps(absl::string_view op_model);

// Little-endian words of any alignment: a packed fixed32 / fixed64 field
// read where it lies in the wire bytes (or a parsed field's array).
template <typename T>
class PackedWords {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "fixed32 or fixed64 words");
#ifndef ABSL_IS_LITTLE_ENDIAN
  static_assert(sizeof(T) == 0, "PackedWords reads little-endian words in place");
#endif

 public:
  class Iterator {
   public:
    explicit Iterator(const uint8_t* p) : p_(p) {}
    T operator*() const { return Load(p_); }
    Iterator& operator++() {
      p_ += sizeof(T);
      return *this;
    }
    bool operator!=(const Iterator& o) const { return p_ != o.p_; }

   private:
    const uint8_t* p_;
  };

  PackedWords() = default;
  PackedWords(const void* data, size_t size) : p_(static_cast<const uint8_t*>(data)), n_(size) {}
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  T operator[](size_t i) const { return Load(p_ + i * sizeof(T)); }
  PackedWords subspan(size_t pos, size_t len) const {
    return PackedWords(p_ + pos * sizeof(T), len);
  }
  Iterator begin() const { return Iterator(p_); }
  Iterator end() const { return Iterator(p_ + n_ * sizeof(T)); }

 private:
  static T Load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }
  const uint8_t* p_ = nullptr;
  size_t n_ = 0;
};

// A LaunchPlan's fields as views: of a parsed message (Of) or of its wire
// bytes (ReadInPlace), so that a runtime need not copy a plan out of a
// mapped file. Move-only (the varint-packed arrays of a wire plan are
// decoded into the *_store vectors the spans point into).
struct LaunchPlanFields {
  LaunchPlanFields() = default;
  LaunchPlanFields(LaunchPlanFields&&) = default;
  LaunchPlanFields& operator=(LaunchPlanFields&&) = default;

  // Views into `plan`, which must outlive them and stay unchanged.
  static LaunchPlanFields Of(const proto::LaunchPlan& plan);
  // Views into `bytes` (a serialized LaunchPlan), when they are in the form
  // protobuf's serializer writes: each non-repeated and packed field at most
  // once, the packed fields packed, no unknown fields, varints in their
  // field's range and the kind strings ASCII. False otherwise (the bytes
  // may still be a valid message: parse it and use Of). What it accepts,
  // the protobuf parser accepts with the same field values.
  static bool ReadInPlace(absl::Span<const uint8_t> bytes, LaunchPlanFields* out);

  std::vector<absl::string_view> kind_op_type, kind_engine, kind_kernel_name;
  absl::string_view op_model;
  absl::Span<const int64_t> shape_dims;
  absl::Span<const uint32_t> shape_end;
  PackedWords<uint64_t> tensor;
  PackedWords<uint32_t> task;
  absl::string_view names;
  absl::Span<const uint32_t> name_end;

 private:
  std::vector<int64_t> shape_dims_store_;
  std::vector<uint32_t> shape_end_store_, name_end_store_;
};

// A validated plan with cheap accessors. Refers to the plan (its message or
// wire bytes, see LaunchPlanFields): they must outlive the view and stay
// unchanged. Accessors take ids the view has checked (t < num_tasks(), ids
// found in tasks / tensors); they do not check.
class LaunchPlanView {
 public:
  using Ids = PackedWords<uint32_t>;
  struct Task {
    proto::TaskType type = proto::TASK_KERNEL;
    uint32_t kind = 0;          // < num_kinds()
    uint32_t op = kLaunchNoOp;  // < num_ops for TASK_KERNEL, kLaunchNoOp otherwise
    uint32_t stream_id = 0;
    uint32_t event_id = 0;
    uint32_t label_id = 0;
    int64_t op_index = 0;
    absl::string_view name;
    Ids inputs, outputs, workspaces;  // tensor ids
  };
  struct Tensor {
    proto::MemKind kind = proto::MEM_ABSENT;
    int32_t data_type = 0;
    uint32_t shape = 0;  // < num_shapes()
    uint64_t index = 0, offset = 0, size = 0;
  };

  static StatusOr<LaunchPlanView> Create(const proto::LaunchPlan& plan, size_t num_ops);
  static StatusOr<LaunchPlanView> Create(LaunchPlanFields fields, size_t num_ops);

  size_t num_tasks() const { return task_start_.size(); }
  size_t num_tensors() const { return f_.tensor.size() / kLaunchTensorWords; }
  size_t num_shapes() const { return f_.shape_end.size(); }
  size_t num_kinds() const { return f_.kind_op_type.size(); }
  size_t num_ops() const { return num_ops_; }

  Task task(size_t t) const;
  absl::string_view task_name(size_t t) const {
    const uint32_t begin = t == 0 ? 0 : f_.name_end[t - 1];
    return f_.names.substr(begin, f_.name_end[t] - begin);
  }
  Tensor tensor(uint32_t id) const;
  absl::Span<const int64_t> shape(uint32_t id) const;
  absl::string_view kind_op_type(uint32_t k) const { return f_.kind_op_type[k]; }
  absl::string_view kind_engine(uint32_t k) const { return f_.kind_engine[k]; }
  absl::string_view kind_kernel_name(uint32_t k) const { return f_.kind_kernel_name[k]; }

  // Task t as a TaskDef (what ExpandLaunchPlan appends).
  void FillTaskDef(size_t t, proto::TaskDef* def) const;
  // Tensor id as a TensorRef.
  void FillTensorRef(uint32_t id, proto::TensorRef* ref) const;

 private:
  LaunchPlanView() = default;
  LaunchPlanFields f_;
  size_t num_ops_ = 0;
  std::vector<uint32_t> task_start_;  // word offset of each task in f_.task
};

}  // namespace ge

#endif  // BUILD_OM_LAUNCH_PLAN_H_
