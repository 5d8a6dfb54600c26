// build/om/om_file.cc
#include "build/om/om_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <set>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "build/om/launch_plan.h"
#include "google/protobuf/field_mask.pb.h"
#include "google/protobuf/util/field_mask_util.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/wire_format_lite.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/serialization/inc/model_op_descs.h"
#include "graph/serialization/inc/model_serialize.h"
#include "xxhash.h"

namespace ge {
namespace {

// Header field offsets (bytes).
constexpr size_t kOffMagic = 0;
constexpr size_t kOffHeaderSize = 4;
constexpr size_t kOffVersion = 8;
constexpr size_t kOffChecksum = 12;  // 64 bytes
constexpr size_t kOffTotalLength = 76;
constexpr size_t kOffModelType = 84;
constexpr size_t kOffGenerateMode = 88;
constexpr size_t kOffName = 92;  // 32 bytes
constexpr size_t kNameBytes = 32;
constexpr size_t kOffOpCount = 124;
constexpr size_t kOffModelCount = 128;
constexpr size_t kOffPlatformVersion = 132;  // 20 bytes
constexpr size_t kPlatformVersionBytes = 20;
constexpr size_t kOffPlatformType = 152;
constexpr size_t kOffIsUnknown = 156;
constexpr size_t kOffReserved = 157;
static_assert(kOffReserved < kOmHeaderSize, "header fields exceed the header");
static_assert(kOffName + kNameBytes == kOffOpCount, "header layout");
static_assert(kOffPlatformVersion + kPlatformVersionBytes == kOffPlatformType, "header layout");

constexpr uint32_t kNumRequiredPartitions = 4;
constexpr uint32_t kPartitionEntryBytes = 24;
constexpr uint32_t kAttrsPartition = 4;  // optional 5th partition: model attrs
constexpr uint32_t kMaxAttrs = 1u << 16;

// ------------------------------------------------------------ byte writer

class Writer {
 public:
  std::string& out() { return out_; }
  size_t size() const { return out_.size(); }
  void U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void U32(uint32_t v) {
    for (int i = 0; i < 4; ++i) U8(static_cast<uint8_t>(v >> (8 * i)));
  }
  void U64(uint64_t v) {
    for (int i = 0; i < 8; ++i) U8(static_cast<uint8_t>(v >> (8 * i)));
  }
  void Bytes(const void* data, size_t size) {
    if (size > 0) out_.append(static_cast<const char*>(data), size);
  }
  void Pad(uint64_t align) {
    while (out_.size() % align != 0) U8(0);
  }
  void PutU32At(size_t pos, uint32_t v) {
    for (int i = 0; i < 4; ++i) out_[pos + i] = static_cast<char>(static_cast<uint8_t>(v >> (8 * i)));
  }
  void PutU64At(size_t pos, uint64_t v) {
    for (int i = 0; i < 8; ++i) out_[pos + i] = static_cast<char>(static_cast<uint8_t>(v >> (8 * i)));
  }

 private:
  std::string out_;
};

uint32_t LoadU32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}
uint64_t LoadU64(const uint8_t* p) {
  return static_cast<uint64_t>(LoadU32(p)) | static_cast<uint64_t>(LoadU32(p + 4)) << 32;
}

// Bounds-checked reader over the file.
class Reader {
 public:
  Reader(absl::Span<const uint8_t> bytes, uint64_t pos) : bytes_(bytes), pos_(pos) {}
  uint64_t pos() const { return pos_; }
  Status Need(uint64_t n, absl::string_view what) const {
    if (pos_ > bytes_.size() || n > bytes_.size() - pos_) {
      return OutOfRange("OM file truncated: ", what, " needs ", n, " bytes at offset ", pos_,
                        " but the file has ", bytes_.size(), " bytes");
    }
    return OkStatus();
  }
  StatusOr<uint32_t> U32(absl::string_view what) {
    RETURN_IF_ERROR(Need(4, what));
    uint32_t v = LoadU32(bytes_.data() + pos_);
    pos_ += 4;
    return v;
  }
  StatusOr<uint64_t> U64(absl::string_view what) {
    RETURN_IF_ERROR(Need(8, what));
    uint64_t v = LoadU64(bytes_.data() + pos_);
    pos_ += 8;
    return v;
  }
  StatusOr<std::string> Str(uint64_t n, absl::string_view what) {
    RETURN_IF_ERROR(Need(n, what));
    std::string s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return s;
  }
  Status Align(uint64_t align, absl::string_view what) {
    uint64_t aligned = (pos_ + align - 1) / align * align;
    RETURN_IF_ERROR(Need(aligned - pos_, what));
    for (uint64_t p = pos_; p < aligned; ++p) {
      if (bytes_[p] != 0) return ParseFailed("OM file: non-zero padding byte at offset ", p, " (", what, ")");
    }
    pos_ = aligned;
    return OkStatus();
  }

 private:
  absl::Span<const uint8_t> bytes_;
  uint64_t pos_;
};

std::string FixedString(const uint8_t* p, size_t n) {
  size_t len = 0;
  while (len < n && p[len] != 0) ++len;
  return std::string(reinterpret_cast<const char*>(p), len);
}

std::string EncodeAttrs(const std::map<std::string, std::string>& attrs) {
  Writer w;
  w.U32(static_cast<uint32_t>(attrs.size()));
  for (const auto& [k, v] : attrs) {
    w.U32(static_cast<uint32_t>(k.size()));
    w.Bytes(k.data(), k.size());
    w.U32(static_cast<uint32_t>(v.size()));
    w.Bytes(v.data(), v.size());
  }
  return std::move(w.out());
}

StatusOr<std::map<std::string, std::string>> DecodeAttrs(absl::Span<const uint8_t> bytes) {
  Reader r(bytes, 0);
  ASSIGN_OR_RETURN(uint32_t n, r.U32("attribute count"));
  if (n > kMaxAttrs || n > bytes.size() / 8) {
    return ParseFailed("OM model attributes: count ", n, " is absurd for ", bytes.size(), " bytes");
  }
  std::map<std::string, std::string> attrs;
  for (uint32_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(uint32_t klen, r.U32("attribute key length"));
    ASSIGN_OR_RETURN(std::string k, r.Str(klen, "attribute key"));
    ASSIGN_OR_RETURN(uint32_t vlen, r.U32("attribute value length"));
    ASSIGN_OR_RETURN(std::string v, r.Str(vlen, "attribute value"));
    attrs[std::move(k)] = std::move(v);
  }
  if (r.pos() != bytes.size()) {
    return ParseFailed("OM model attributes: ", bytes.size() - r.pos(), " trailing bytes");
  }
  return attrs;
}

// ---------------------------------------------------------- task validation

// Names a ref in messages; built only when a check fails.
struct RefWhere {
  const std::string& model;
  int task;
  const char* role;  // "" for the task itself
  int index;
  std::string str() const {
    if (role[0] == '\0') return absl::StrCat("OM model '", model, "' task ", task);
    return absl::StrCat("OM model '", model, "' task ", task, " ", role, " ", index);
  }
};

Status CheckRange(uint64_t offset, uint64_t size, uint64_t limit, absl::string_view region,
                  const RefWhere& where) {
  if (offset > limit || size > limit - offset) {
    return OutOfRange(where.str(), ": ", region, " ref [", offset, ", +", size, ") exceeds the ", limit,
                      "-byte ", region, " region");
  }
  return OkStatus();
}

Status ValidateRef(const proto::TensorRef& ref, const proto::ModelTaskDef& def, const RefWhere& where) {
  if (ref.dims_size() > 64) return OutOfRange(where.str(), ": ", ref.dims_size(), " dims (limit 64)");
  switch (ref.kind()) {
    case proto::MEM_ABSENT:
      return OkStatus();
    case proto::MEM_ARENA:
      return CheckRange(ref.offset(), ref.size(), def.memory_size(), "ARENA", where);
    case proto::MEM_WEIGHTS:
      return CheckRange(ref.offset(), ref.size(), def.weight_size(), "WEIGHTS", where);
    case proto::MEM_MODEL_INPUT:
      if (ref.index() >= static_cast<uint32_t>(def.input_size())) {
        return OutOfRange(where.str(), ": model input index ", ref.index(), " but the model has ",
                          def.input_size(), " inputs");
      }
      if (!def.dynamic()) {
        return CheckRange(ref.offset(), ref.size(), def.input(ref.index()).size(), "MODEL_INPUT", where);
      }
      return OkStatus();
    case proto::MEM_MODEL_OUTPUT:
      if (ref.index() >= static_cast<uint32_t>(def.output_size())) {
        return OutOfRange(where.str(), ": model output index ", ref.index(), " but the model has ",
                          def.output_size(), " outputs");
      }
      if (!def.dynamic()) {
        return CheckRange(ref.offset(), ref.size(), def.output(ref.index()).size(), "MODEL_OUTPUT",
                          where);
      }
      return OkStatus();
    default:
      return ParseFailed(where.str(), ": unknown memory kind ", static_cast<int>(ref.kind()));
  }
}

// Task `t` of the model against its ModelTaskDef `def` (whose own task list
// is not read: the task may come from elsewhere, see SplitTaskInfo).
Status ValidateTask(const proto::TaskDef& task, int t, const proto::ModelTaskDef& def,
                    const std::string& model) {
  const RefWhere where{model, t, "", 0};
  if (task.task_id() != static_cast<uint32_t>(t)) {
    return ParseFailed(where.str(), ": task_id ", task.task_id(), " differs from its position");
  }
  if (!proto::TaskType_IsValid(task.type())) {
    return ParseFailed(where.str(), ": unknown task type ", static_cast<int>(task.type()));
  }
  if (def.stream_num() > 0 && task.stream_id() >= def.stream_num()) {
    return OutOfRange(where.str(), ": stream_id ", task.stream_id(), " >= stream_num ", def.stream_num());
  }
  if (task.op_index() < -1) return OutOfRange(where.str(), ": op_index ", task.op_index());
  if (task.type() == proto::TASK_MEMCPY && (task.input_size() != 1 || task.output_size() != 1)) {
    return ParseFailed(where.str(), ": MEMCPY needs 1 input and 1 output, has ", task.input_size(),
                       " and ", task.output_size());
  }
  for (int i = 0; i < task.input_size(); ++i) {
    RETURN_IF_ERROR(ValidateRef(task.input(i), def, RefWhere{model, t, "input", i}));
  }
  for (int i = 0; i < task.output_size(); ++i) {
    RETURN_IF_ERROR(ValidateRef(task.output(i), def, RefWhere{model, t, "output", i}));
    if (task.output(i).kind() == proto::MEM_WEIGHTS) {
      return ParseFailed(where.str(), " output ", i, ": writes into WEIGHTS");
    }
  }
  for (int i = 0; i < task.workspace_size(); ++i) {
    if (task.workspace(i).kind() != proto::MEM_ARENA) {
      return ParseFailed(where.str(), " workspace ", i, ": kind ",
                         static_cast<int>(task.workspace(i).kind()), " is not ARENA");
    }
    RETURN_IF_ERROR(ValidateRef(task.workspace(i), def, RefWhere{model, t, "workspace", i}));
  }
  return OkStatus();
}

Status ValidateWeightSize(const proto::ModelTaskDef& def, uint64_t weights_size, const std::string& model) {
  if (def.weight_size() != weights_size) {
    return ParseFailed("OM model '", model, "': TASK_INFO weight_size ", def.weight_size(),
                       " differs from the WEIGHTS_DATA partition size ", weights_size);
  }
  return OkStatus();
}

Status ValidateTaskDef(const proto::ModelTaskDef& def, uint64_t weights_size, const std::string& model) {
  RETURN_IF_ERROR(ValidateWeightSize(def, weights_size, model));
  for (int t = 0; t < def.task_size(); ++t) RETURN_IF_ERROR(ValidateTask(def.task(t), t, def, model));
  return OkStatus();
}

// Splits ModelTaskDef bytes into the wire bytes of each `task` entry (field
// 1), of each `plan` entry (field 11) and the bytes of every other field, in
// order. False when the top level is anything but plain varint / fixed /
// length-delimited fields with fields 1 and 11 length-delimited (the caller
// then parses the whole message, which decides validity exactly as before).
bool SplitTaskInfo(absl::Span<const uint8_t> bytes, std::vector<absl::Span<const uint8_t>>* tasks,
                   std::vector<absl::Span<const uint8_t>>* plans, std::string* rest) {
  using google::protobuf::internal::WireFormatLite;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max())) return false;
  const int size = static_cast<int>(bytes.size());
  google::protobuf::io::CodedInputStream in(bytes.data(), size);
  while (in.CurrentPosition() < size) {
    const int field_start = in.CurrentPosition();
    const uint32_t tag = in.ReadTag();
    const uint32_t number = WireFormatLite::GetTagFieldNumber(tag);
    if (tag == 0 || number == 0) return false;
    const bool is_task = number == proto::ModelTaskDef::kTaskFieldNumber;
    const bool is_plan = number == proto::ModelTaskDef::kPlanFieldNumber;
    const WireFormatLite::WireType wire = WireFormatLite::GetTagWireType(tag);
    if (wire == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      uint64_t len = 0;
      if (!in.ReadVarint64(&len) || len > static_cast<uint64_t>(size - in.CurrentPosition())) {
        return false;
      }
      if (is_task || is_plan) {
        (is_task ? tasks : plans)->emplace_back(bytes.data() + in.CurrentPosition(), static_cast<size_t>(len));
        if (!in.Skip(static_cast<int>(len))) return false;
        continue;
      }
      if (!in.Skip(static_cast<int>(len))) return false;
    } else if (is_task || is_plan || wire == WireFormatLite::WIRETYPE_START_GROUP ||
               wire == WireFormatLite::WIRETYPE_END_GROUP ||
               !WireFormatLite::SkipField(&in, tag)) {
      return false;  // a task / plan that is not length-delimited; groups: the full parser decides
    }
    rest->append(reinterpret_cast<const char*>(bytes.data() + field_start),
                 static_cast<size_t>(in.CurrentPosition() - field_start));
  }
  return true;
}

// True when ModelTaskDef bytes have a top-level `plan` field (a scan of the
// top-level fields; false on malformed bytes, which the parser reports).
bool HasLaunchPlan(absl::Span<const uint8_t> bytes) {
  using google::protobuf::internal::WireFormatLite;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max())) return false;
  const int size = static_cast<int>(bytes.size());
  google::protobuf::io::CodedInputStream in(bytes.data(), size);
  while (in.CurrentPosition() < size) {
    const uint32_t tag = in.ReadTag();
    if (tag == 0) return false;
    if (WireFormatLite::GetTagFieldNumber(tag) == proto::ModelTaskDef::kPlanFieldNumber) return true;
    if (!WireFormatLite::SkipField(&in, tag)) return false;
  }
  return false;
}

// The TASK_INFO bytes of `td` with its tasks replaced by `plan`.
bool SerializeWithPlan(const proto::ModelTaskDef& td, proto::LaunchPlan plan, std::string* out) {
  google::protobuf::FieldMask mask;
  const google::protobuf::Descriptor* d = proto::ModelTaskDef::descriptor();
  for (int i = 0; i < d->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* f = d->field(i);
    if (f->number() == proto::ModelTaskDef::kTaskFieldNumber ||
        f->number() == proto::ModelTaskDef::kPlanFieldNumber) {
      continue;
    }
    mask.add_paths(f->name());
  }
  proto::ModelTaskDef head;
  google::protobuf::util::FieldMaskUtil::MergeMessageTo(
      td, mask, google::protobuf::util::FieldMaskUtil::MergeOptions(), &head);
  *head.mutable_plan() = std::move(plan);
  return head.SerializeToString(out);
}

// The tasks of a launch plan (validated by LaunchPlanView) against their
// ModelTaskDef: what ValidateTask checks of a TaskDef. Each distinct tensor
// is checked once (named by the first task that uses it).
Status ValidatePlanTasks(const LaunchPlanView& plan, const proto::ModelTaskDef& def,
                         const std::string& model) {
  std::vector<uint8_t> checked(plan.num_tensors(), 0);
  proto::TensorRef ref;  // scratch, one per distinct tensor
  for (size_t t = 0; t < plan.num_tasks(); ++t) {
    const LaunchPlanView::Task task = plan.task(t);
    const RefWhere where{model, static_cast<int>(t), "", 0};
    if (def.stream_num() > 0 && task.stream_id >= def.stream_num()) {
      return OutOfRange(where.str(), ": stream_id ", task.stream_id, " >= stream_num ", def.stream_num());
    }
    if (task.op_index < -1) return OutOfRange(where.str(), ": op_index ", task.op_index);
    if (task.type == proto::TASK_MEMCPY && (task.inputs.size() != 1 || task.outputs.size() != 1)) {
      return ParseFailed(where.str(), ": MEMCPY needs 1 input and 1 output, has ", task.inputs.size(),
                         " and ", task.outputs.size());
    }
    auto check = [&](uint32_t id, const char* role, size_t i) -> Status {
      if (checked[id]) return OkStatus();
      ref.Clear();
      plan.FillTensorRef(id, &ref);
      RETURN_IF_ERROR(ValidateRef(ref, def, RefWhere{model, static_cast<int>(t), role, static_cast<int>(i)}));
      checked[id] = 1;
      return OkStatus();
    };
    for (size_t i = 0; i < task.inputs.size(); ++i) RETURN_IF_ERROR(check(task.inputs[i], "input", i));
    for (size_t i = 0; i < task.outputs.size(); ++i) {
      RETURN_IF_ERROR(check(task.outputs[i], "output", i));
      if (plan.tensor(task.outputs[i]).kind == proto::MEM_WEIGHTS) {
        return ParseFailed(where.str(), " output ", i, ": writes into WEIGHTS");
      }
    }
    for (size_t i = 0; i < task.workspaces.size(); ++i) {
      const proto::MemKind kind = plan.tensor(task.workspaces[i]).kind;
      if (kind != proto::MEM_ARENA) {
        return ParseFailed(where.str(), " workspace ", i, ": kind ", static_cast<int>(kind), " is not ARENA");
      }
      RETURN_IF_ERROR(check(task.workspaces[i], "workspace", i));
    }
  }
  return OkStatus();
}

}  // namespace

const char* OmPartitionTypeName(OmPartitionType type) {
  switch (type) {
    case OmPartitionType::kModelDef:
      return "MODEL_DEF";
    case OmPartitionType::kWeightsData:
      return "WEIGHTS_DATA";
    case OmPartitionType::kTaskInfo:
      return "TASK_INFO";
    case OmPartitionType::kKernels:
      return "KERNELS";
  }
  return static_cast<uint32_t>(type) == kAttrsPartition ? "MODEL_ATTRS" : "UNKNOWN";
}

std::array<uint8_t, 32> Sha256(absl::Span<const uint8_t> bytes) {
  std::array<uint8_t, 32> md{};
  unsigned int len = 0;
  static const uint8_t kEmpty = 0;
  EVP_Digest(bytes.empty() ? &kEmpty : bytes.data(), bytes.size(), md.data(), &len, EVP_sha256(),
             nullptr);
  return md;
}

// ------------------------------------------------------------------- save

namespace {

// The file image as a list of byte runs (no copy of weights or kernels):
// header, then the segments in file order.
struct OmImage {
  std::array<uint8_t, kOmHeaderSize> header{};
  struct Segment {
    const uint8_t* data;  // nullptr: `size` zero bytes
    uint64_t size;
    FileExtent file;      // fd >= 0: `data` are these bytes of a file
  };
  std::vector<Segment> segments;
  std::deque<std::string> owned;  // storage of the built bytes (stable addresses)
  uint64_t total = kOmHeaderSize;

  void Add(const void* data, uint64_t size, FileExtent file = {}) {
    if (size == 0) return;
    segments.push_back({static_cast<const uint8_t*>(data), size, file});
    total += size;
  }
  void AddOwned(std::string bytes) {
    owned.push_back(std::move(bytes));
    Add(owned.back().data(), owned.back().size());
  }
  void Zeros(uint64_t n) { Add(nullptr, n); }
  void PadTo(uint64_t align) { Zeros((align - total % align) % align); }
};

alignas(64) constexpr uint8_t kZeros[4096] = {};
// Files of at least this many bytes are checksummed on their own thread at load.
constexpr uint64_t kParallelChecksumBytes = 4 << 20;
// TASK_INFO of at least this many bytes is parsed on its own thread at load.
constexpr uint64_t kParallelTaskInfoBytes = 256 * 1024;
// TASK_INFO of at least this many tasks is encoded on its own thread.
constexpr int kParallelTaskInfo = 4096;

void PutU32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void PutU64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// The weight blob as segments: one run, or the pieces with zero gaps.
Status AddWeights(const WeightBuffer& w, const std::string& name, OmImage* image) {
  if (w.data != nullptr) {
    image->Add(w.data, w.size);
    return OkStatus();
  }
  uint64_t at = 0;
  for (const WeightPiece& p : w.pieces) {
    if (p.offset < at || p.offset > w.size || p.size > w.size - p.offset ||
        (p.size > 0 && p.data == nullptr)) {
      return ParamInvalid("SaveOm: model '", name, "' weight piece [", p.offset, ", +", p.size,
                          ") is out of order or outside the ", w.size, "-byte blob");
    }
    image->Zeros(p.offset - at);
    image->Add(p.data, p.size, p.file);
    at = p.offset + p.size;
  }
  image->Zeros(w.size - at);
  return OkStatus();
}

StatusOr<std::unique_ptr<OmImage>> BuildOmImage(const GeRootModel& model, const OmSaveOptions& options) {
  if (model.root == nullptr) return ParamInvalid("SaveOm: the root model is null");
  std::vector<std::pair<std::string, const GeModel*>> models;
  models.emplace_back(model.root->name, model.root.get());
  for (const auto& [name, sub] : model.submodels) {
    if (sub == nullptr) return ParamInvalid("SaveOm: submodel '", name, "' is null");
    models.emplace_back(name, sub.get());
  }
  if (models.size() > kOmMaxModels) {
    return OutOfRange("SaveOm: ", models.size(), " models exceed the limit ", kOmMaxModels);
  }
  const GeModel& root = *model.root;
  std::string soc = options.soc_version;
  if (soc.empty()) {
    auto it = root.attrs.find("soc_version");
    if (it != root.attrs.end()) soc = it->second;
  }

  auto image = std::make_unique<OmImage>();
  image->segments.reserve(16 * models.size() + root.weights.pieces.size() * 2);
  for (const auto& [name, m] : models) {
    if (m->graph == nullptr) return ParamInvalid("SaveOm: model '", name, "' has no graph");
    if (name.size() > kOmMaxNameLength) {
      return OutOfRange("SaveOm: model name of ", name.size(), " bytes exceeds ", kOmMaxNameLength);
    }
    if (m->task_def.weight_size() != m->weights.size) {
      return ParamInvalid("SaveOm: model '", name, "' task_def.weight_size ", m->task_def.weight_size(),
                          " differs from its ", m->weights.size, " weight bytes");
    }
    // TASK_INFO and MODEL_DEF are independent: a large TASK_INFO is encoded
    // on a second thread while this one encodes the graph.
    std::string task_info;
    bool task_ok = true;
    Status plan_status;
    const GeModel* const model_ptr = m;
    const bool try_plan = options.launch_plan && !m->task_def.dynamic();
    auto encode_tasks = [&task_info, &task_ok, &plan_status, model_ptr, try_plan]() {
      if (try_plan) {
        StatusOr<std::optional<proto::LaunchPlan>> plan = EncodeLaunchPlan(*model_ptr);
        if (!plan.ok()) {
          plan_status = plan.status();
          return;
        }
        if (plan->has_value()) {
          task_ok = SerializeWithPlan(model_ptr->task_def, std::move(**plan), &task_info);
          return;
        }
      }
      task_ok = model_ptr->task_def.SerializeToString(&task_info);
    };
    std::thread task_thread;
    if (m->task_def.task_size() >= kParallelTaskInfo) {
      task_thread = std::thread(encode_tasks);
    } else {
      encode_tasks();
    }
    StatusOr<std::string> model_def_or = ModelSerialize::SerializeModel(*m->graph);
    if (task_thread.joinable()) task_thread.join();
    if (!model_def_or.ok()) return model_def_or.status();
    RETURN_IF_ERROR(Annotate(plan_status, "SaveOm: model '", name, "' launch plan: "));
    std::string model_def = std::move(model_def_or).value();
    if (!task_ok) {
      return Internal("SaveOm: cannot serialize the TASK_INFO of model '", name, "'");
    }
    const bool has_attrs = !m->attrs.empty();
    std::string attrs = has_attrs ? EncodeAttrs(m->attrs) : std::string();
    const uint32_t num_parts = kNumRequiredPartitions + (has_attrs ? 1 : 0);

    // The model record: name, partition count, table (offsets known ahead).
    image->PadTo(8);
    std::string record;
    {
      Writer w;
      w.U32(static_cast<uint32_t>(name.size()));
      w.Bytes(name.data(), name.size());
      while ((image->total + w.size()) % 8 != 0) w.U8(0);
      w.U32(num_parts);
      w.U32(0);
      record = std::move(w.out());
    }
    const size_t table = record.size();
    record.resize(table + num_parts * kPartitionEntryBytes, '\0');
    const uint64_t sizes[5] = {model_def.size(), m->weights.size, task_info.size(),
                               m->kernel_store.size(), attrs.size()};
    uint64_t pos = image->total + record.size();
    uint64_t offsets[5] = {};
    for (uint32_t p = 0; p < num_parts; ++p) {
      const uint64_t align = p == 1 ? kOmWeightsAlign : kOmPartitionAlign;
      pos = (pos + align - 1) / align * align;
      offsets[p] = pos;
      uint8_t* entry = reinterpret_cast<uint8_t*>(&record[table + p * kPartitionEntryBytes]);
      PutU32(entry, p);
      PutU64(entry + 8, pos);
      PutU64(entry + 16, sizes[p]);
      pos += sizes[p];
    }
    image->AddOwned(std::move(record));
    for (uint32_t p = 0; p < num_parts; ++p) {
      image->Zeros(offsets[p] - image->total);
      switch (p) {
        case 0: image->AddOwned(std::move(model_def)); break;
        case 1: RETURN_IF_ERROR(AddWeights(m->weights, name, image.get())); break;
        case 2: image->AddOwned(std::move(task_info)); break;
        case 3: image->Add(m->kernel_store.data(), m->kernel_store.size()); break;
        default: image->AddOwned(std::move(attrs)); break;
      }
      if (image->total != offsets[p] + sizes[p]) {
        return Internal("SaveOm: partition ", p, " of model '", name, "' ends at ", image->total,
                        ", expected ", offsets[p] + sizes[p]);
      }
    }
  }
  // Header, field by field (the checksum is filled by the writer).
  uint8_t* h = image->header.data();
  PutU32(h + kOffMagic, kOmMagic);
  PutU32(h + kOffHeaderSize, kOmHeaderSize);
  PutU32(h + kOffVersion, kOmVersion);
  PutU64(h + kOffTotalLength, image->total);
  PutU32(h + kOffModelType, static_cast<uint32_t>(root.task_def.dynamic() ? OmModelType::kDynamic
                                                                          : OmModelType::kStatic));
  PutU32(h + kOffGenerateMode, options.generate_mode);
  const std::string& gname = root.name;
  std::memcpy(h + kOffName, gname.data(), std::min(gname.size(), kNameBytes - 1));
  PutU32(h + kOffOpCount, static_cast<uint32_t>(std::min<size_t>(
                              root.graph->GetDirectNodesSize(), std::numeric_limits<uint32_t>::max())));
  PutU32(h + kOffModelCount, static_cast<uint32_t>(models.size()));
  std::memcpy(h + kOffPlatformVersion, soc.data(), std::min(soc.size(), kPlatformVersionBytes - 1));
  PutU32(h + kOffPlatformType, 0);
  h[kOffIsUnknown] = root.task_def.dynamic() ? 1 : 0;
  return image;
}

// The canonical (big-endian) bytes of an XXH3-128 digest.
std::array<uint8_t, 16> Canonical16(XXH128_hash_t h) {
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, h);
  std::array<uint8_t, 16> out{};
  static_assert(sizeof(c.digest) == 16, "XXH3-128 digest");
  std::memcpy(out.data(), c.digest, sizeof(c.digest));
  return out;
}

// The writer's streaming body checksum (OmBodyChecksum);
// Update(nullptr, n) hashes n zero bytes.
class Checksum {
 public:
  void Update(const uint8_t* data, uint64_t size) {
    if (data != nullptr) {
      body_.UpdateBody(absl::MakeConstSpan(data, static_cast<size_t>(size)));
      return;
    }
    while (size > 0) {
      const uint64_t n = std::min<uint64_t>(size, sizeof(kZeros));
      body_.UpdateBody(absl::MakeConstSpan(kZeros, static_cast<size_t>(n)));
      size -= n;
    }
  }
  std::array<uint8_t, 32> Digest() const { return body_.Digest(); }

 private:
  OmBodyChecksum body_;
};

// pwrite of all `size` bytes at `offset`.
Status PwriteAll(int fd, const uint8_t* data, uint64_t size, uint64_t offset, const std::string& path) {
  uint64_t done = 0;
  while (done < size) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(size - done, uint64_t{1} << 30));
    const ssize_t w = ::pwrite(fd, data + done, n, static_cast<off_t>(offset + done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      return Internal("writing '", path, "' failed at offset ", offset + done, ": ",
                      std::strerror(w < 0 ? errno : EIO));
    }
    done += static_cast<uint64_t>(w);
  }
  return OkStatus();
}

// Copies `size` bytes at `src_offset` of `src_fd` to `offset` of `fd` in the
// kernel (no user-space copy, no fresh memory of ours); returns how many it
// copied, fewer than `size` when the kernel cannot (another file system, an
// old kernel, an error): the caller writes the rest.
uint64_t CopyFileRange(int src_fd, uint64_t src_offset, int fd, uint64_t offset, uint64_t size) {
  uint64_t done = 0;
  while (done < size) {
    loff_t in = static_cast<loff_t>(src_offset + done);
    loff_t out = static_cast<loff_t>(offset + done);
    const ssize_t n = ::copy_file_range(src_fd, &in, fd, &out, static_cast<size_t>(size - done), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<uint64_t>(n);
  }
  return done;
}

// Writes the image body to fd at [256, total); with `sum`, hashes each
// piece right before writing it (while it is in cache). Small segments are
// gathered in a staging buffer; big segments that are a file's bytes
// (weights viewing the source model file) are copied file to file.
Status WriteBody(const OmImage& image, int fd, const std::string& path, Checksum* sum) {
  constexpr uint64_t kChunk = uint64_t{1} << 20;
  constexpr uint64_t kDirect = uint64_t{64} << 10;
  std::unique_ptr<uint8_t[]> staging(new uint8_t[kChunk]);
  uint64_t staged = 0;
  uint64_t file_pos = kOmHeaderSize;
  auto flush = [&]() -> Status {
    if (staged == 0) return OkStatus();
    if (sum != nullptr) sum->Update(staging.get(), staged);
    RETURN_IF_ERROR(PwriteAll(fd, staging.get(), staged, file_pos, path));
    file_pos += staged;
    staged = 0;
    return OkStatus();
  };
  for (const OmImage::Segment& seg : image.segments) {
    if (seg.data != nullptr && seg.size >= kDirect) {
      RETURN_IF_ERROR(flush());
      if (seg.file.fd >= 0) {
        if (sum != nullptr) sum->Update(seg.data, seg.size);
        const uint64_t copied = CopyFileRange(seg.file.fd, seg.file.offset, fd, file_pos, seg.size);
        // The rest (when the kernel cannot copy) from the mapped bytes.
        RETURN_IF_ERROR(PwriteAll(fd, seg.data + copied, seg.size - copied, file_pos + copied, path));
        file_pos += seg.size;
        continue;
      }
      for (uint64_t at = 0; at < seg.size; at += kChunk) {
        const uint64_t n = std::min(kChunk, seg.size - at);
        if (sum != nullptr) sum->Update(seg.data + at, n);
        RETURN_IF_ERROR(PwriteAll(fd, seg.data + at, n, file_pos, path));
        file_pos += n;
      }
      continue;
    }
    uint64_t at = 0;
    while (at < seg.size) {
      const uint64_t n = std::min(kChunk - staged, seg.size - at);
      if (seg.data == nullptr) {
        std::memset(staging.get() + staged, 0, static_cast<size_t>(n));
      } else {
        std::memcpy(staging.get() + staged, seg.data + at, static_cast<size_t>(n));
      }
      staged += n;
      at += n;
      if (staged == kChunk) RETURN_IF_ERROR(flush());
    }
  }
  RETURN_IF_ERROR(flush());
  if (file_pos != image.total) {
    return Internal("writing '", path, "': wrote ", file_pos, " bytes, expected ", image.total);
  }
  return OkStatus();
}

// Writes the body and returns its checksum. When 8 MiB or more of it are
// copied file to file (weights viewing the model file), a second thread
// hashes the image while the kernel copies it (resnet50: write 80-131 ->
// 56-70 ms); otherwise each piece is hashed as it is written (a second
// thread gained nothing for a body written from memory).
StatusOr<std::array<uint8_t, 32>> StreamBody(const OmImage& image, int fd, const std::string& path) {
  constexpr uint64_t kParallelBytes = uint64_t{8} << 20;
  uint64_t file_bytes = 0;
  for (const OmImage::Segment& seg : image.segments) {
    if (seg.file.fd >= 0) file_bytes += seg.size;
  }
  if (file_bytes < kParallelBytes) {
    Checksum sum;
    RETURN_IF_ERROR(WriteBody(image, fd, path, &sum));
    return sum.Digest();
  }
  std::array<uint8_t, 32> digest{};
  std::thread hasher([&digest, &image] {
    Checksum sum;
    for (const OmImage::Segment& seg : image.segments) sum.Update(seg.data, seg.size);
    digest = sum.Digest();
  });
  Status st = WriteBody(image, fd, path, nullptr);
  hasher.join();
  RETURN_IF_ERROR(st);
  return digest;
}

// Puts `tmp` at `path` atomically; 0 or the errno of the failure. An
// existing regular file at `path` is swapped out (RENAME_EXCHANGE) and then
// unlinked instead of being renamed over: ext4 (auto_da_alloc) allocates the
// blocks of a file renamed over another before the rename returns, ~70 ms
// for a 100 MB OM here, against ~27 ms for the exchange and the unlink.
int ReplaceFile(const std::string& tmp, const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
      ::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE) == 0) {
    if (::unlink(tmp.c_str()) == 0) return 0;
    // What was swapped out cannot be removed: swap back, rename over it.
    ::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE);
  }
  return ::rename(tmp.c_str(), path.c_str()) == 0 ? 0 : errno;
}

}  // namespace

OmChecksumChunk::OmChecksumChunk() : state_(XXH3_createState()) {
  XXH3_128bits_reset(static_cast<XXH3_state_t*>(state_));
}

OmChecksumChunk::~OmChecksumChunk() { XXH3_freeState(static_cast<XXH3_state_t*>(state_)); }

void OmChecksumChunk::Update(absl::Span<const uint8_t> piece) {
  if (!piece.empty()) XXH3_128bits_update(static_cast<XXH3_state_t*>(state_), piece.data(), piece.size());
}

std::array<uint8_t, 16> OmChecksumChunk::Digest() const {
  return Canonical16(XXH3_128bits_digest(static_cast<XXH3_state_t*>(state_)));
}

std::array<uint8_t, 32> OmChecksumFromChunks(absl::Span<const std::array<uint8_t, 16>> digests) {
  const XXH128_hash_t h =
      XXH3_128bits(digests.empty() ? nullptr : digests.data()->data(), digests.size() * 16);
  std::array<uint8_t, 32> out{};
  const std::array<uint8_t, 16> c = Canonical16(h);
  std::memcpy(out.data(), c.data(), c.size());
  return out;
}

std::array<uint8_t, 32> OmChecksum(absl::Span<const uint8_t> bytes) {
  // Chunks hashed in one pass each (no streaming state for a whole chunk).
  std::vector<std::array<uint8_t, 16>> digests;
  digests.reserve(static_cast<size_t>(bytes.size() / kOmChecksumChunkBytes + 1));
  for (uint64_t at = 0; at < bytes.size(); at += kOmChecksumChunkBytes) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kOmChecksumChunkBytes, bytes.size() - at));
    digests.push_back(Canonical16(XXH3_128bits(bytes.data() + at, n)));
  }
  return OmChecksumFromChunks(digests);
}

StatusOr<std::string> SaveOm(const GeRootModel& model, const OmSaveOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<OmImage> image, BuildOmImage(model, options));
  std::string out;
  out.reserve(static_cast<size_t>(image->total));
  out.append(reinterpret_cast<const char*>(image->header.data()), image->header.size());
  for (const OmImage::Segment& seg : image->segments) {
    if (seg.data == nullptr) {
      out.append(static_cast<size_t>(seg.size), '\0');
    } else {
      out.append(reinterpret_cast<const char*>(seg.data), static_cast<size_t>(seg.size));
    }
  }
  const std::array<uint8_t, 32> sum = OmChecksum(AsBytes(absl::string_view(out).substr(kOmHeaderSize)));
  std::memcpy(&out[kOffChecksum], sum.data(), sum.size());
  return out;
}

StatusOr<uint64_t> SaveOmToFile(const GeRootModel& model, const std::string& path,
                                const OmSaveOptions& options) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point t0 = Clock::now();
  ASSIGN_OR_RETURN(std::unique_ptr<OmImage> image, BuildOmImage(model, options));
  const Clock::time_point t1 = Clock::now();
  if (options.times != nullptr) {
    options.times->serialize_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  }
  const std::string tmp = absl::StrCat(path, ".tmp.", ::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ParamInvalid("cannot create '", tmp, "': ", std::strerror(errno));
  auto fail = [&](Status st) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return st;
  };
  StatusOr<std::array<uint8_t, 32>> sum = StreamBody(*image, fd, tmp);
  if (!sum.ok()) return fail(sum.status());
  std::memcpy(image->header.data() + kOffChecksum, sum->data(), sum->size());
  Status st = PwriteAll(fd, image->header.data(), image->header.size(), 0, tmp);
  if (!st.ok()) return fail(st);
  if (options.sync && ::fsync(fd) != 0) {
    return fail(Internal("flushing '", tmp, "' failed: ", std::strerror(errno)));
  }
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return Internal("closing '", tmp, "' failed: ", std::strerror(err));
  }
  if (const int err = ReplaceFile(tmp, path); err != 0) {
    ::unlink(tmp.c_str());
    return Internal("renaming '", tmp, "' to '", path, "' failed: ", std::strerror(err));
  }
  if (options.times != nullptr) {
    options.times->write_ms = std::chrono::duration<double, std::milli>(Clock::now() - t1).count();
  }
  return image->total;
}

// ------------------------------------------------------------------ parse

namespace {

// The body checksum (computed, or `precomputed` by the caller over these
// bytes) against the header's (bytes has at least the header).
Status VerifyChecksum(absl::Span<const uint8_t> bytes,
                      const std::array<uint8_t, 32>* precomputed = nullptr) {
  const std::array<uint8_t, 32> sum =
      precomputed != nullptr ? *precomputed : OmChecksum(bytes.subspan(kOmHeaderSize));
  if (std::memcmp(sum.data(), bytes.data() + kOffChecksum, kOmChecksumBytes) != 0) {
    return ParseFailed("OM file: XXH3-128 checksum mismatch (file corrupted)");
  }
  return OkStatus();
}

// The file structure: header, model records, partition tables (TASK_INFO not
// parsed yet). Without `verify_checksum` the caller verifies it (every check
// here is bounds-safe on any bytes).
StatusOr<OmFileView> ParseOmStructure(absl::Span<const uint8_t> bytes, bool verify_checksum,
                                      const std::array<uint8_t, 32>* precomputed = nullptr) {
  if (bytes.size() < kOmHeaderSize) {
    return ParseFailed("OM file of ", bytes.size(), " bytes is shorter than the ", kOmHeaderSize,
                       "-byte header");
  }
  const uint8_t* h = bytes.data();
  OmFileView view;
  OmHeader& hd = view.header;
  hd.magic = LoadU32(h + kOffMagic);
  if (hd.magic != kOmMagic) {
    return ParseFailed("OM file: magic 0x", absl::Hex(hd.magic), " is not 0x", absl::Hex(kOmMagic),
                       " (\"DOMI\")");
  }
  hd.header_size = LoadU32(h + kOffHeaderSize);
  if (hd.header_size != kOmHeaderSize) {
    return ParseFailed("OM file: header size ", hd.header_size, " is not ", kOmHeaderSize);
  }
  hd.version = LoadU32(h + kOffVersion);
  if (hd.version != kOmVersion) {
    return NotSupported("OM file: version ", hd.version, " (this reader supports ", kOmVersion, ")");
  }
  hd.total_length = LoadU64(h + kOffTotalLength);
  if (hd.total_length != bytes.size()) {
    return ParseFailed("OM file: total length ", hd.total_length, " differs from the file size ",
                       bytes.size());
  }
  for (size_t p = kOffReserved; p < kOmHeaderSize; ++p) {
    if (h[p] != 0) return ParseFailed("OM file: reserved header byte ", p, " is ", int{h[p]}, ", not 0");
  }
  for (size_t p = kOffChecksum + kOmChecksumBytes; p < kOffChecksum + 64; ++p) {
    if (h[p] != 0) return ParseFailed("OM file: unused checksum byte ", p - kOffChecksum, " is not 0");
  }
  std::memcpy(hd.checksum.data(), h + kOffChecksum, hd.checksum.size());
  if (verify_checksum) RETURN_IF_ERROR(VerifyChecksum(bytes, precomputed));
  hd.model_type = LoadU32(h + kOffModelType);
  if (hd.model_type > static_cast<uint32_t>(OmModelType::kDynamic)) {
    return ParseFailed("OM file: model type ", hd.model_type, " is not 0 (static) or 1 (dynamic)");
  }
  hd.generate_mode = LoadU32(h + kOffGenerateMode);
  hd.name = FixedString(h + kOffName, kNameBytes);
  hd.op_count = LoadU32(h + kOffOpCount);
  hd.model_count = LoadU32(h + kOffModelCount);
  hd.platform_version = FixedString(h + kOffPlatformVersion, kPlatformVersionBytes);
  hd.platform_type = LoadU32(h + kOffPlatformType);
  hd.is_unknown_model = h[kOffIsUnknown];
  if (hd.is_unknown_model > 1) {
    return ParseFailed("OM file: is_unknown_model ", int{hd.is_unknown_model}, " is not 0 or 1");
  }
  // Each model needs at least its record (8 + 4 * 24 bytes).
  const uint64_t min_model = 16 + kNumRequiredPartitions * kPartitionEntryBytes;
  if (hd.model_count == 0 || hd.model_count > kOmMaxModels ||
      hd.model_count > (bytes.size() - kOmHeaderSize) / min_model) {
    return ParseFailed("OM file: model count ", hd.model_count, " is impossible for a file of ",
                       bytes.size(), " bytes (limit ", kOmMaxModels, ")");
  }
  view.models.resize(hd.model_count);
  Reader r(bytes, kOmHeaderSize);
  for (uint32_t mi = 0; mi < hd.model_count; ++mi) {
    OmModelView& m = view.models[mi];
    const std::string what = absl::StrCat("model ", mi);
    RETURN_IF_ERROR(r.Align(8, what));
    ASSIGN_OR_RETURN(uint32_t name_len, r.U32(what + " name length"));
    if (name_len > kOmMaxNameLength) {
      return ParseFailed("OM file: ", what, " name length ", name_len, " exceeds ", kOmMaxNameLength);
    }
    ASSIGN_OR_RETURN(m.name, r.Str(name_len, what + " name"));
    RETURN_IF_ERROR(r.Align(8, what));
    ASSIGN_OR_RETURN(uint32_t num, r.U32(what + " partition count"));
    if (num < kNumRequiredPartitions || num > kNumRequiredPartitions + 1) {
      return ParseFailed("OM file: ", what, " '", m.name, "' has ", num, " partitions (expected ",
                         kNumRequiredPartitions, " or ", kNumRequiredPartitions + 1, ")");
    }
    ASSIGN_OR_RETURN(uint32_t reserved, r.U32(what + " reserved"));
    if (reserved != 0) return ParseFailed("OM file: ", what, " reserved field is ", reserved);
    RETURN_IF_ERROR(r.Need(uint64_t{num} * kPartitionEntryBytes, what + " partition table"));
    uint64_t end = r.pos() + uint64_t{num} * kPartitionEntryBytes;
    m.partitions.resize(num);
    for (uint32_t p = 0; p < num; ++p) {
      const std::string pw = absl::StrCat(what, " partition ", p);
      ASSIGN_OR_RETURN(uint32_t type, r.U32(pw + " type"));
      ASSIGN_OR_RETURN(uint32_t pad, r.U32(pw + " reserved"));
      ASSIGN_OR_RETURN(uint64_t offset, r.U64(pw + " offset"));
      ASSIGN_OR_RETURN(uint64_t size, r.U64(pw + " size"));
      if (type != p) {
        return ParseFailed("OM file: ", pw, " has type ", type, " but position ", p, " must be ",
                           OmPartitionTypeName(static_cast<OmPartitionType>(p)));
      }
      if (pad != 0) return ParseFailed("OM file: ", pw, " reserved field is ", pad);
      const uint64_t align = type == 1 ? kOmWeightsAlign : kOmPartitionAlign;
      if (offset % align != 0) {
        return ParseFailed("OM file: ", pw, " (", OmPartitionTypeName(static_cast<OmPartitionType>(type)),
                           ") offset ", offset, " is not aligned to ", align);
      }
      if (offset < end) {
        return ParseFailed("OM file: ", pw, " offset ", offset, " overlaps the previous data ending at ", end);
      }
      if (offset > bytes.size() || size > bytes.size() - offset) {
        return OutOfRange("OM file: ", pw, " [", offset, ", +", size, ") exceeds the file size ",
                          bytes.size());
      }
      for (uint64_t q = end; q < offset; ++q) {
        if (bytes[q] != 0) return ParseFailed("OM file: non-zero padding byte at offset ", q);
      }
      m.partitions[p] = {static_cast<OmPartitionType>(type), offset, size};
      end = offset + size;
    }
    auto span = [&](uint32_t p) { return bytes.subspan(m.partitions[p].offset, m.partitions[p].size); };
    m.model_def = span(0);
    m.weights = span(1);
    m.task_info = span(2);
    m.kernels = span(3);
    if (m.task_info.size() > static_cast<uint64_t>(std::numeric_limits<int>::max())) {
      return OutOfRange("OM file: ", what, " TASK_INFO of ", m.task_info.size(), " bytes is too large");
    }
    r = Reader(bytes, end);
  }
  if (r.pos() != bytes.size()) {
    return ParseFailed("OM file: ", bytes.size() - r.pos(), " unexpected bytes after the last model at offset ",
                       r.pos());
  }
  return view;
}

// The root's TASK_INFO for the runtime: its tasks as validated wire bytes
// (see OmRuntimeModel::task_bytes) and their op indices.
struct StreamedTasks {
  std::vector<absl::Span<const uint8_t>> bytes;
  std::vector<int64_t> op_index;
  // A TASK_INFO with a launch plan: the validated plan and its ops.
  std::shared_ptr<const LaunchPlanView> plan;
  std::vector<OpDescPtr> plan_ops;
};

// A parsed TASK_INFO that holds a launch plan (`fields`: its plan's fields,
// td->plan()'s when null): checks it, then either keeps it (`streamed`: the
// runtime prepares from the plan) or expands it into td's TaskDefs and
// validates those as any TaskDefs.
Status TakeLaunchPlan(const OmModelView& m, size_t mi, proto::ModelTaskDef* td, StreamedTasks* streamed,
                      LaunchPlanFields* fields = nullptr) {
  const std::string where = absl::StrCat("OM file: model ", mi, " '", m.name, "': ");
  if (td->task_size() != 0 || (streamed != nullptr && !streamed->bytes.empty())) {
    return ParseFailed(where, "TASK_INFO has both TaskDefs and a launch plan");
  }
  if (td->dynamic()) return ParseFailed(where, "a dynamic model's TASK_INFO has a launch plan");
  RETURN_IF_ERROR(ValidateWeightSize(*td, m.weights.size(), m.name));
  LaunchPlanFields own;
  if (fields == nullptr) {
    own = LaunchPlanFields::Of(td->plan());
    fields = &own;
  }
  StatusOr<ModelOpDescs> ops = DecodeLaunchPlanOps(fields->op_model);
  if (!ops.ok()) return Annotate(ops.status(), where, "launch plan ops: ");
  if (streamed == nullptr) {
    RETURN_IF_ERROR(Annotate(ExpandLaunchPlan(td->plan(), ops->ops.size(), td), where));
    td->clear_plan();
    return ValidateTaskDef(*td, m.weights.size(), m.name);
  }
  StatusOr<LaunchPlanView> plan = LaunchPlanView::Create(std::move(*fields), ops->ops.size());
  if (!plan.ok()) return Annotate(plan.status(), where);
  RETURN_IF_ERROR(ValidatePlanTasks(*plan, *td, m.name));
  streamed->plan = std::make_shared<const LaunchPlanView>(std::move(plan).value());
  streamed->plan_ops = std::move(ops->ops);
  return OkStatus();
}

// Parses and validates the TASK_INFO of `m` into `td`. With `streamed`, a
// well-formed top level is split: `td` gets every field but the tasks and
// the plan, each task is parsed (into one reused message), validated and
// kept as its bytes, and a plan is read where it lies (LaunchPlanFields::
// ReadInPlace; parsed into td when not in the serializer's form); the
// verdicts and messages are those of the whole-message parse.
Status ParseOneTaskInfo(const OmModelView& m, size_t mi, proto::ModelTaskDef* td, StreamedTasks* streamed) {
  auto invalid = [&]() {
    return ParseFailed("OM file: model ", mi, " '", m.name, "': TASK_INFO is not a valid ModelTaskDef");
  };
  std::string rest;
  std::vector<absl::Span<const uint8_t>> plans;
  if (streamed != nullptr && SplitTaskInfo(m.task_info, &streamed->bytes, &plans, &rest)) {
    if (!td->ParseFromString(rest)) return invalid();
    if (!plans.empty()) {
      // Tasks beside a plan are an error, after a parse failure of one of
      // them or of the plan (the whole-message parse fails first).
      proto::TaskDef task;
      for (const absl::Span<const uint8_t>& b : streamed->bytes) {
        if (b.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
            !task.ParseFromArray(b.data(), static_cast<int>(b.size()))) {
          return invalid();
        }
      }
      LaunchPlanFields fields;
      if (plans.size() != 1 || !LaunchPlanFields::ReadInPlace(plans[0], &fields)) {
        // As the parser reads a message field: each occurrence must be a
        // valid message, and they merge (the value of their concatenation).
        std::string merged;
        proto::LaunchPlan scratch;
        for (const absl::Span<const uint8_t>& b : plans) {
          if (!scratch.ParseFromArray(b.data(), static_cast<int>(b.size()))) return invalid();
          if (plans.size() > 1) merged.append(reinterpret_cast<const char*>(b.data()), b.size());
        }
        if (plans.size() == 1) {
          td->mutable_plan()->Swap(&scratch);
        } else if (!td->mutable_plan()->ParseFromString(merged)) {
          return invalid();
        }
        fields = LaunchPlanFields::Of(td->plan());
      }
      return TakeLaunchPlan(m, mi, td, streamed, &fields);
    }
    std::vector<absl::Span<const uint8_t>>& tasks = streamed->bytes;
    if (tasks.size() > static_cast<size_t>(std::numeric_limits<int>::max())) return invalid();
    // One parse per task (into a reused message): a parse failure anywhere
    // wins over validation errors (the whole-message parse fails first),
    // then the weight size, then the first invalid task.
    const Status weight_status = ValidateWeightSize(*td, m.weights.size(), m.name);
    Status task_status;
    proto::TaskDef task;
    streamed->op_index.resize(tasks.size());
    for (size_t t = 0; t < tasks.size(); ++t) {
      if (!task.ParseFromArray(tasks[t].data(), static_cast<int>(tasks[t].size()))) return invalid();
      if (weight_status.ok() && task_status.ok()) {
        task_status = ValidateTask(task, static_cast<int>(t), *td, m.name);
      }
      streamed->op_index[t] = task.op_index();
    }
    RETURN_IF_ERROR(weight_status);
    return task_status;
  }
  if (streamed != nullptr) streamed->bytes.clear();
  if (!td->ParseFromArray(m.task_info.data(), static_cast<int>(m.task_info.size()))) return invalid();
  if (td->has_plan()) return TakeLaunchPlan(m, mi, td, streamed);
  return ValidateTaskDef(*td, m.weights.size(), m.name);
}

// Parses and validates every model's TASK_INFO (and its attrs partition),
// then checks the header's static / dynamic flags against the root's. The
// root's goes into `root_target` when given (e.g. a message on an Arena),
// else into its OmModelView::task_def; with `streamed` too, its tasks are
// kept as bytes (ParseOneTaskInfo).
Status ParseTaskInfos(absl::Span<const uint8_t> bytes, OmFileView* file,
                      proto::ModelTaskDef* root_target = nullptr, StreamedTasks* streamed = nullptr) {
  OmFileView& view = *file;
  const OmHeader& hd = view.header;
  for (size_t mi = 0; mi < view.models.size(); ++mi) {
    OmModelView& m = view.models[mi];
    const bool root = mi == 0 && root_target != nullptr;
    RETURN_IF_ERROR(ParseOneTaskInfo(m, mi, root ? root_target : &m.task_def, root ? streamed : nullptr));
    if (m.partitions.size() > kNumRequiredPartitions) {
      const OmPartition& p = m.partitions[kAttrsPartition];
      ASSIGN_OR_RETURN(auto attrs, DecodeAttrs(bytes.subspan(p.offset, p.size)));
      (void)attrs;
    }
  }
  const bool root_dynamic =
      (root_target != nullptr ? *root_target : view.models[0].task_def).dynamic();
  if (hd.is_unknown_model != (root_dynamic ? 1 : 0) ||
      hd.model_type != static_cast<uint32_t>(root_dynamic ? OmModelType::kDynamic : OmModelType::kStatic)) {
    return ParseFailed("OM file: header says is_unknown_model=", int{hd.is_unknown_model}, " model_type=",
                       hd.model_type, " but the root TASK_INFO dynamic=", root_dynamic);
  }
  return OkStatus();
}

// The weights of a model as a view into the file (a copy when the caller's
// buffer is not kWeightAlign aligned).
WeightBuffer WeightsView(absl::Span<const uint8_t> weights, const std::shared_ptr<const void>& owner) {
  const uintptr_t addr = reinterpret_cast<uintptr_t>(weights.data());
  if (weights.empty()) return WeightBuffer{owner, nullptr, 0, {}};
  if (addr % kWeightAlign == 0) return WeightBuffer{owner, weights.data(), weights.size(), {}};
  // The caller's buffer is not aligned (not an mmap): copy once.
  auto copy = std::make_shared<AlignedBuffer>(weights.data(), weights.size());
  const uint8_t* data = copy->data();
  return WeightBuffer{std::move(copy), data, weights.size(), {}};
}

// The validated file with its MODEL_DEFs decoded: every graph, or (light)
// the static root's op descs only, its TASK_INFO on `arena`.
struct DecodedOm {
  OmFileView view;
  std::vector<StatusOr<ComputeGraphPtr>> graphs;  // per model (root: unset when light)
  bool light = false;
  std::shared_ptr<google::protobuf::Arena> arena;
  proto::ModelTaskDef* root_task_def = nullptr;  // on arena (light)
  StreamedTasks root_tasks;                       // light: the root's tasks as bytes
  bool root_planned = false;  // light, and the root's TASK_INFO has a launch plan
  StatusOr<ModelOpDescs> root_ops = Internal("not decoded");
};

// Arena blocks of the TASK_INFO parse: the first block sized after the
// bytes (the parsed messages take about 3x their wire size), capped.
constexpr size_t kMaxArenaBlock = size_t{16} << 20;

// Validates `bytes` and decodes its MODEL_DEFs. With `light_static_root`, a
// static root's MODEL_DEF is decoded into op descs only (a root MODEL_DEF
// that holds subgraphs is also fully decoded, for its checks).
Status DecodeOm(absl::Span<const uint8_t> bytes, bool light_static_root, DecodedOm* out,
                const std::array<uint8_t, 32>* precomputed_sum = nullptr, bool defer_sum = false) {
  // The checksum, TASK_INFO and MODEL_DEF are independent: on a large file
  // the checksum (every byte, weights included) runs on a second thread and a
  // large TASK_INFO is parsed and validated on a third while this one decodes
  // the graphs (every decoder is bounds-safe on any bytes). Errors keep the
  // sequential order: checksum, structure, every TASK_INFO, then MODEL_DEFs.
  // A checksum the caller computed is compared at the same point, so the
  // error order does not depend on who hashed.
  Status sum_status;
  std::thread sum_thread;
  // Who checks the checksum: the caller after the load (deferred), this
  // function beside the decode (large files), or the structure check.
  const bool caller_verifies = defer_sum && precomputed_sum == nullptr;
  const bool parallel_sum = !caller_verifies && bytes.size() >= kParallelChecksumBytes;
  if (parallel_sum && precomputed_sum != nullptr) {
    sum_status = bytes.size() >= kOmHeaderSize ? VerifyChecksum(bytes, precomputed_sum) : OkStatus();
  } else if (parallel_sum) {
    sum_thread = std::thread([&sum_status, bytes]() { sum_status = VerifyChecksum(bytes); });
  }
  // No return between starting a thread and joining it.
  StatusOr<OmFileView> parsed = ParseOmStructure(
      bytes, /*verify_checksum=*/!parallel_sum && !caller_verifies, precomputed_sum);
  if (!parsed.ok()) {
    if (sum_thread.joinable()) sum_thread.join();
    RETURN_IF_ERROR(sum_status);
    return parsed.status();
  }
  out->view = std::move(parsed).value();
  OmFileView& view = out->view;
  // A header that says static but a root TASK_INFO that says dynamic fails
  // in ParseTaskInfos, before the decoded graphs are looked at.
  out->light = light_static_root && view.header.model_type == static_cast<uint32_t>(OmModelType::kStatic);
  if (out->light) {
    google::protobuf::ArenaOptions opts;
    const size_t task_bytes = view.models[0].task_info.size();
    // Usually only the fields around the tasks land on it (the tasks stay
    // bytes); a malformed top level is parsed whole.
    opts.start_block_size = std::min(kMaxArenaBlock, std::max<size_t>(4096, task_bytes / 64));
    opts.max_block_size = kMaxArenaBlock;
    out->arena = std::make_shared<google::protobuf::Arena>(opts);
    out->root_task_def = google::protobuf::Arena::CreateMessage<proto::ModelTaskDef>(out->arena.get());
  }
  out->root_planned = out->light && HasLaunchPlan(view.models[0].task_info);
  uint64_t task_bytes = 0;
  for (const OmModelView& mv : view.models) task_bytes += mv.task_info.size();
  Status task_status;
  std::thread task_thread;
  proto::ModelTaskDef* const root_target = out->root_task_def;
  StreamedTasks* const streamed = out->light ? &out->root_tasks : nullptr;
  // A thread pays only when a MODEL_DEF is decoded meanwhile (a planned
  // root alone decodes none).
  const bool decode_graphs = !out->root_planned || view.models.size() > 1;
  if (decode_graphs && task_bytes >= kParallelTaskInfoBytes) {
    task_thread = std::thread([&task_status, &view, bytes, root_target, streamed]() {
      task_status = ParseTaskInfos(bytes, &view, root_target, streamed);
    });
  } else {
    task_status = ParseTaskInfos(bytes, &view, root_target, streamed);
  }
  out->graphs.reserve(view.models.size());
  if (task_thread.joinable() || task_status.ok()) {
    for (size_t mi = 0; mi < view.models.size(); ++mi) {
      const OmModelView& mv = view.models[mi];
      absl::string_view def(reinterpret_cast<const char*>(mv.model_def.data()), mv.model_def.size());
      if (mi == 0 && out->root_planned) {
        // The runtime prepares from the plan and reads nothing of MODEL_DEF.
        out->graphs.push_back(Internal("not decoded"));
        continue;
      }
      if (mi == 0 && out->light) {
        out->root_ops = DecodeModelOpDescs(def);
        if (out->root_ops.ok() && out->root_ops->num_graphs > 1) {
          // Subgraphs in a static root (not what the builder writes): their
          // checks are the full decoder's.
          StatusOr<ComputeGraphPtr> full = ModelSerialize::DeserializeModel(def);
          if (!full.ok()) out->root_ops = full.status();
        }
        out->graphs.push_back(Internal("not decoded"));
        if (!out->root_ops.ok()) break;
        continue;
      }
      out->graphs.push_back(ModelSerialize::DeserializeModel(def));
      if (!out->graphs.back().ok()) break;
    }
  }
  if (sum_thread.joinable()) sum_thread.join();
  if (task_thread.joinable()) task_thread.join();
  RETURN_IF_ERROR(sum_status);
  RETURN_IF_ERROR(task_status);
  return OkStatus();
}

// The op_index of every task of `td` is below `num_ops`.
Status CheckOpIndices(const proto::ModelTaskDef& td, int64_t num_ops, const std::string& model) {
  for (int t = 0; t < td.task_size(); ++t) {
    if (td.task(t).op_index() >= num_ops) {
      return OutOfRange("OM model '", model, "' task ", t, ": op_index ", td.task(t).op_index(),
                        " but MODEL_DEF has ", num_ops, " ops");
    }
  }
  return OkStatus();
}

// The GeRootModel of a fully decoded file (DecodeOm without light).
StatusOr<GeRootModelPtr> AssembleRootModel(absl::Span<const uint8_t> bytes,
                                           const std::shared_ptr<const void>& owner, DecodedOm* decoded) {
  OmFileView& view = decoded->view;
  auto root = std::make_shared<GeRootModel>();
  for (size_t mi = 0; mi < view.models.size(); ++mi) {
    OmModelView& mv = view.models[mi];
    auto model = std::make_shared<GeModel>();
    model->name = mv.name;
    StatusOr<ComputeGraphPtr>& graph = decoded->graphs[mi];
    if (!graph.ok()) return Annotate(graph.status(), "OM model '", mv.name, "' MODEL_DEF: ");
    model->graph = std::move(graph).value();
    const int64_t num_ops = static_cast<int64_t>(model->graph->GetDirectNodesSize());
    RETURN_IF_ERROR(CheckOpIndices(mv.task_def, num_ops, mv.name));
    model->task_def = std::move(mv.task_def);
    model->kernel_store.assign(reinterpret_cast<const char*>(mv.kernels.data()), mv.kernels.size());
    if (mv.partitions.size() > kNumRequiredPartitions) {
      ASSIGN_OR_RETURN(model->attrs, DecodeAttrs(bytes.subspan(mv.partitions[kAttrsPartition].offset,
                                                               mv.partitions[kAttrsPartition].size)));
    }
    model->weights = WeightsView(mv.weights, owner);
    if (mi == 0) {
      root->root = std::move(model);
    } else {
      if (root->submodels.count(mv.name) != 0) {
        return ParseFailed("OM file: two models named '", mv.name, "'");
      }
      root->submodels[mv.name] = std::move(model);
    }
  }
  return root;
}

}  // namespace

StatusOr<OmFileView> ParseOmFile(absl::Span<const uint8_t> bytes) {
  ASSIGN_OR_RETURN(OmFileView view, ParseOmStructure(bytes, /*verify_checksum=*/true));
  RETURN_IF_ERROR(ParseTaskInfos(bytes, &view));
  return view;
}

// ------------------------------------------------------------------- load

StatusOr<GeRootModelPtr> LoadGeRootModelFromOm(absl::Span<const uint8_t> bytes,
                                               std::shared_ptr<const void> owner) {
  DecodedOm decoded;
  RETURN_IF_ERROR(DecodeOm(bytes, /*light_static_root=*/false, &decoded));
  return AssembleRootModel(bytes, owner, &decoded);
}

OmBodyChecksum::OmBodyChecksum() = default;
OmBodyChecksum::~OmBodyChecksum() = default;

void OmBodyChecksum::UpdateFile(absl::Span<const uint8_t> chunk) {
  if (pos_ < kOmHeaderSize) {
    const uint64_t skip = std::min<uint64_t>(kOmHeaderSize - pos_, chunk.size());
    pos_ += skip;
    chunk.remove_prefix(static_cast<size_t>(skip));
  }
  pos_ += chunk.size();
  UpdateBody(chunk);
}

void OmBodyChecksum::UpdateBody(absl::Span<const uint8_t> chunk) {
  while (!chunk.empty()) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(chunk.size(), kOmChecksumChunkBytes - in_chunk_));
    chunk_.Update(chunk.subspan(0, n));
    chunk.remove_prefix(n);
    in_chunk_ += n;
    if (in_chunk_ == kOmChecksumChunkBytes) {
      digests_.push_back(chunk_.Digest());
      chunk_.~OmChecksumChunk();
      new (&chunk_) OmChecksumChunk();
      in_chunk_ = 0;
    }
  }
}

std::array<uint8_t, 32> OmBodyChecksum::Digest() const {
  if (in_chunk_ == 0) return OmChecksumFromChunks(digests_);
  std::vector<std::array<uint8_t, 16>> all = digests_;
  all.push_back(chunk_.Digest());
  return OmChecksumFromChunks(all);
}

Status VerifyOmBodyChecksum(absl::Span<const uint8_t> bytes, const std::array<uint8_t, 32>& body_sum) {
  return bytes.size() < kOmHeaderSize ? OkStatus() : VerifyChecksum(bytes, &body_sum);
}

StatusOr<OmRuntimeModel> LoadOmForRuntime(absl::Span<const uint8_t> bytes,
                                          std::shared_ptr<const void> owner,
                                          const OmLoadOptions& options) {
  DecodedOm decoded;
  RETURN_IF_ERROR(DecodeOm(bytes, /*light_static_root=*/true, &decoded, options.body_checksum,
                           options.defer_checksum));
  OmRuntimeModel out;
  out.name = decoded.view.models[0].name;
  if (!decoded.light) {
    out.dynamic = true;
    ASSIGN_OR_RETURN(out.root, AssembleRootModel(bytes, owner, &decoded));
    return out;
  }
  // The same checks, in the same order, as AssembleRootModel.
  OmFileView& view = decoded.view;
  std::set<absl::string_view> names;
  for (size_t mi = 0; mi < view.models.size(); ++mi) {
    const OmModelView& mv = view.models[mi];
    if (mi == 0 && decoded.root_tasks.plan != nullptr) continue;  // checked with the plan
    if (mi == 0) {
      if (!decoded.root_ops.ok()) {
        return Annotate(decoded.root_ops.status(), "OM model '", mv.name, "' MODEL_DEF: ");
      }
      const int64_t num_ops = static_cast<int64_t>(decoded.root_ops->ops.size());
      RETURN_IF_ERROR(CheckOpIndices(*decoded.root_task_def, num_ops, mv.name));
      const std::vector<int64_t>& op_index = decoded.root_tasks.op_index;
      for (size_t t = 0; t < op_index.size(); ++t) {
        if (op_index[t] >= num_ops) {
          return OutOfRange("OM model '", mv.name, "' task ", t, ": op_index ", op_index[t],
                            " but MODEL_DEF has ", num_ops, " ops");
        }
      }
      continue;
    }
    const StatusOr<ComputeGraphPtr>& graph = decoded.graphs[mi];
    if (!graph.ok()) return Annotate(graph.status(), "OM model '", mv.name, "' MODEL_DEF: ");
    RETURN_IF_ERROR(CheckOpIndices(mv.task_def, static_cast<int64_t>((*graph)->GetDirectNodesSize()),
                                   mv.name));
    // (The attrs partitions were checked with the TASK_INFOs.)
    if (!names.insert(mv.name).second) return ParseFailed("OM file: two models named '", mv.name, "'");
  }
  const OmModelView& root = view.models[0];
  out.task_def = decoded.root_task_def;
  out.task_bytes = std::move(decoded.root_tasks.bytes);
  out.arena = std::move(decoded.arena);
  out.weights = WeightsView(root.weights, owner);
  if (decoded.root_tasks.plan != nullptr) {
    out.graph_name = decoded.root_task_def->graph_name();
    out.plan = std::move(decoded.root_tasks.plan);
    out.plan_ops = std::move(decoded.root_tasks.plan_ops);
  } else {
    out.graph_name = std::move(decoded.root_ops->graph_name);
    out.ops = std::move(decoded.root_ops->ops);
  }
  out.model_def = root.model_def;
  return out;
}

// ------------------------------------------------------------------ files

StatusOr<std::string> ReadFileToString(const std::string& path, uint64_t max_size) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return NotFound("cannot open '", path, "': ", std::strerror(errno));
    return ParamInvalid("cannot open '", path, "': ", std::strerror(errno));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return ParamInvalid("'", path, "' is not a regular file");
  }
  if (static_cast<uint64_t>(st.st_size) > max_size) {
    ::close(fd);
    return OutOfRange("'", path, "' has ", st.st_size, " bytes, more than the limit ", max_size);
  }
  std::string out(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::read(fd, &out[done], out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      return Internal("reading '", path, "' failed after ", done, " bytes");
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  return out;
}

Status WriteFileAtomically(const std::string& path, absl::string_view bytes) {
  const std::string tmp = absl::StrCat(path, ".tmp.", ::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ParamInvalid("cannot create '", tmp, "': ", std::strerror(errno));
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return Internal("writing '", tmp, "' failed after ", done, " bytes: ", std::strerror(err));
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return Internal("flushing '", tmp, "' failed: ", std::strerror(err));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return Internal("renaming '", tmp, "' to '", path, "' failed: ", std::strerror(err));
  }
  return OkStatus();
}

}  // namespace ge
