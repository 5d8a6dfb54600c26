// build/om/om_reader.cc
//
// ParseOmFile, LoadGeRootModelFromOm and LoadOmForRuntime: the validating
// reader of the OM structure (header, model records, partition tables), the
// TASK_INFO parse (whole, or split into per-task wire bytes and a launch
// plan read in place), and the decode of the MODEL_DEFs into a GeRootModel
// or the runtime's OmRuntimeModel.
#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "build/om/launch_plan.h"
#include "build/om/om_checksum.h"
#include "build/om/om_file.h"
#include "build/om/om_layout.h"
#include "build/om/om_validation.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/wire_format_lite.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/serialization/inc/model_op_descs.h"
#include "graph/serialization/inc/model_serialize.h"

namespace ge {
namespace {

using om_internal::CheckOpIndices;
using om_internal::kAttrsPartition;
using om_internal::kMaxAttrs;
using om_internal::kNameBytes;
using om_internal::kNumRequiredPartitions;
using om_internal::kOffChecksum;
using om_internal::kOffGenerateMode;
using om_internal::kOffHeaderSize;
using om_internal::kOffIsUnknown;
using om_internal::kOffMagic;
using om_internal::kOffModelCount;
using om_internal::kOffModelType;
using om_internal::kOffName;
using om_internal::kOffOpCount;
using om_internal::kOffPlatformType;
using om_internal::kOffPlatformVersion;
using om_internal::kOffReserved;
using om_internal::kOffTotalLength;
using om_internal::kOffVersion;
using om_internal::kPartitionEntryBytes;
using om_internal::kPlatformVersionBytes;
using om_internal::LoadU32;
using om_internal::LoadU64;
using om_internal::ValidatePlanTasks;
using om_internal::ValidateTask;
using om_internal::ValidateTaskDef;
using om_internal::ValidateWeightSize;
using om_internal::VerifyChecksum;

// Files of at least this many bytes are checksummed on their own thread at load.
constexpr uint64_t kParallelChecksumBytes = 4 << 20;
// TASK_INFO of at least this many bytes is parsed on its own thread at load.
constexpr uint64_t kParallelTaskInfoBytes = 256 * 1024;

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
      if (bytes_[p] != 0) {
        return ParseFailed("OM file: non-zero padding byte at offset ", p, " (", what, ")");
      }
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
        (is_task ? tasks : plans)
            ->emplace_back(bytes.data() + in.CurrentPosition(), static_cast<size_t>(len));
        if (!in.Skip(static_cast<int>(len))) return false;
        continue;
      }
      if (!in.Skip(static_cast<int>(len))) return false;
    } else if (is_task || is_plan || wire == WireFormatLite::WIRETYPE_START_GROUP ||
               wire == WireFormatLite::WIRETYPE_END_GROUP || !WireFormatLite::SkipField(&in, tag)) {
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
    if (WireFormatLite::GetTagFieldNumber(tag) == proto::ModelTaskDef::kPlanFieldNumber) {
      return true;
    }
    if (!WireFormatLite::SkipField(&in, tag)) return false;
  }
  return false;
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

namespace {

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
    return NotSupported("OM file: version ", hd.version, " (this reader supports ", kOmVersion,
                        ")");
  }
  hd.total_length = LoadU64(h + kOffTotalLength);
  if (hd.total_length != bytes.size()) {
    return ParseFailed("OM file: total length ", hd.total_length, " differs from the file size ",
                       bytes.size());
  }
  for (size_t p = kOffReserved; p < kOmHeaderSize; ++p) {
    if (h[p] != 0) {
      return ParseFailed("OM file: reserved header byte ", p, " is ", int{h[p]}, ", not 0");
    }
  }
  for (size_t p = kOffChecksum + kOmChecksumBytes; p < kOffChecksum + 64; ++p) {
    if (h[p] != 0) {
      return ParseFailed("OM file: unused checksum byte ", p - kOffChecksum, " is not 0");
    }
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
      return ParseFailed("OM file: ", what, " name length ", name_len, " exceeds ",
                         kOmMaxNameLength);
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
        return ParseFailed("OM file: ", pw, " (",
                           OmPartitionTypeName(static_cast<OmPartitionType>(type)), ") offset ",
                           offset, " is not aligned to ", align);
      }
      if (offset < end) {
        return ParseFailed("OM file: ", pw, " offset ", offset,
                           " overlaps the previous data ending at ", end);
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
    auto span = [&](uint32_t p) {
      return bytes.subspan(m.partitions[p].offset, m.partitions[p].size);
    };
    m.model_def = span(0);
    m.weights = span(1);
    m.task_info = span(2);
    m.kernels = span(3);
    if (m.task_info.size() > static_cast<uint64_t>(std::numeric_limits<int>::max())) {
      return OutOfRange("OM file: ", what, " TASK_INFO of ", m.task_info.size(),
                        " bytes is too large");
    }
    r = Reader(bytes, end);
  }
  if (r.pos() != bytes.size()) {
    return ParseFailed("OM file: ", bytes.size() - r.pos(),
                       " unexpected bytes after the last model at offset ", r.pos());
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
Status TakeLaunchPlan(const OmModelView& m, size_t mi, proto::ModelTaskDef* td,
                      StreamedTasks* streamed, LaunchPlanFields* fields = nullptr) {
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
Status ParseOneTaskInfo(const OmModelView& m, size_t mi, proto::ModelTaskDef* td,
                        StreamedTasks* streamed) {
  auto invalid = [&]() {
    return ParseFailed("OM file: model ", mi, " '", m.name,
                       "': TASK_INFO is not a valid ModelTaskDef");
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
      if (!task.ParseFromArray(tasks[t].data(), static_cast<int>(tasks[t].size()))) {
        return invalid();
      }
      if (weight_status.ok() && task_status.ok()) {
        task_status = ValidateTask(task, static_cast<int>(t), *td, m.name);
      }
      streamed->op_index[t] = task.op_index();
    }
    RETURN_IF_ERROR(weight_status);
    return task_status;
  }
  if (streamed != nullptr) streamed->bytes.clear();
  if (!td->ParseFromArray(m.task_info.data(), static_cast<int>(m.task_info.size()))) {
    return invalid();
  }
  if (td->has_plan()) return TakeLaunchPlan(m, mi, td, streamed);
  return ValidateTaskDef(*td, m.weights.size(), m.name);
}

// Parses and validates every model's TASK_INFO (and its attrs partition),
// then checks the header's static / dynamic flags against the root's. The
// root's goes into `root_target` when given (e.g. a message on an Arena),
// else into its OmModelView::task_def; with `streamed` too, its tasks are
// kept as bytes (ParseOneTaskInfo).
Status ParseTaskInfos(absl::Span<const uint8_t> bytes, OmFileView* file,
                      proto::ModelTaskDef* root_target = nullptr,
                      StreamedTasks* streamed = nullptr) {
  OmFileView& view = *file;
  const OmHeader& hd = view.header;
  for (size_t mi = 0; mi < view.models.size(); ++mi) {
    OmModelView& m = view.models[mi];
    const bool root = mi == 0 && root_target != nullptr;
    RETURN_IF_ERROR(
        ParseOneTaskInfo(m, mi, root ? root_target : &m.task_def, root ? streamed : nullptr));
    if (m.partitions.size() > kNumRequiredPartitions) {
      const OmPartition& p = m.partitions[kAttrsPartition];
      ASSIGN_OR_RETURN(auto attrs, DecodeAttrs(bytes.subspan(p.offset, p.size)));
      (void)attrs;
    }
  }
  const bool root_dynamic =
      (root_target != nullptr ? *root_target : view.models[0].task_def).dynamic();
  if (hd.is_unknown_model != (root_dynamic ? 1 : 0) ||
      hd.model_type !=
          static_cast<uint32_t>(root_dynamic ? OmModelType::kDynamic : OmModelType::kStatic)) {
    return ParseFailed("OM file: header says is_unknown_model=", int{hd.is_unknown_model},
                       " model_type=", hd.model_type,
                       " but the root TASK_INFO dynamic=", root_dynamic);
  }
  return OkStatus();
}

// The weights of a model as a view into the file (a copy when the caller's
// buffer is not kWeightAlign aligned).
WeightBuffer WeightsView(absl::Span<const uint8_t> weights,
                         const std::shared_ptr<const void>& owner) {
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
  StreamedTasks root_tasks;                      // light: the root's tasks as bytes
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
    sum_status =
        bytes.size() >= kOmHeaderSize ? VerifyChecksum(bytes, precomputed_sum) : OkStatus();
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
  out->light =
      light_static_root && view.header.model_type == static_cast<uint32_t>(OmModelType::kStatic);
  if (out->light) {
    google::protobuf::ArenaOptions opts;
    const size_t task_bytes = view.models[0].task_info.size();
    // Usually only the fields around the tasks land on it (the tasks stay
    // bytes); a malformed top level is parsed whole.
    opts.start_block_size = std::min(kMaxArenaBlock, std::max<size_t>(4096, task_bytes / 64));
    opts.max_block_size = kMaxArenaBlock;
    out->arena = std::make_shared<google::protobuf::Arena>(opts);
    out->root_task_def =
        google::protobuf::Arena::CreateMessage<proto::ModelTaskDef>(out->arena.get());
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
      absl::string_view def(reinterpret_cast<const char*>(mv.model_def.data()),
                            mv.model_def.size());
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

// The GeRootModel of a fully decoded file (DecodeOm without light).
StatusOr<GeRootModelPtr> AssembleRootModel(absl::Span<const uint8_t> bytes,
                                           const std::shared_ptr<const void>& owner,
                                           DecodedOm* decoded) {
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
      ASSIGN_OR_RETURN(model->attrs,
                       DecodeAttrs(bytes.subspan(mv.partitions[kAttrsPartition].offset,
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
    RETURN_IF_ERROR(
        CheckOpIndices(mv.task_def, static_cast<int64_t>((*graph)->GetDirectNodesSize()), mv.name));
    // (The attrs partitions were checked with the TASK_INFOs.)
    if (!names.insert(mv.name).second) {
      return ParseFailed("OM file: two models named '", mv.name, "'");
    }
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

}  // namespace ge
