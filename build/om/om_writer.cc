// build/om/om_writer.cc
//
// SaveOm / SaveOmToFile: the OM image (header, model records, partitions) as
// a list of byte runs that point at the model's own bytes, then written to
// memory or streamed to a file with its checksum.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "build/om/launch_plan.h"
#include "build/om/om_file.h"
#include "build/om/om_layout.h"
#include "google/protobuf/field_mask.pb.h"
#include "google/protobuf/util/field_mask_util.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/serialization/inc/model_serialize.h"
#include "metadef/inc/base/file_io.h"

namespace ge {
namespace {

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
using om_internal::kOffTotalLength;
using om_internal::kOffVersion;
using om_internal::kPartitionEntryBytes;
using om_internal::kPlatformVersionBytes;
using om_internal::PutU32;
using om_internal::PutU64;

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
    for (int i = 0; i < 4; ++i) {
      out_[pos + i] = static_cast<char>(static_cast<uint8_t>(v >> (8 * i)));
    }
  }
  void PutU64At(size_t pos, uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      out_[pos + i] = static_cast<char>(static_cast<uint8_t>(v >> (8 * i)));
    }
  }

 private:
  std::string out_;
};

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

// The file image as a list of byte runs (no copy of weights or kernels):
// header, then the segments in file order.
struct OmImage {
  std::array<uint8_t, kOmHeaderSize> header{};
  struct Segment {
    const uint8_t* data;  // nullptr: `size` zero bytes
    uint64_t size;
    FileExtent file;  // fd >= 0: `data` are these bytes of a file
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
// TASK_INFO of at least this many tasks is encoded on its own thread.
constexpr int kParallelTaskInfo = 4096;

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

StatusOr<std::unique_ptr<OmImage>> BuildOmImage(const GeRootModel& model,
                                                const OmSaveOptions& options) {
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
      return ParamInvalid("SaveOm: model '", name, "' task_def.weight_size ",
                          m->task_def.weight_size(), " differs from its ", m->weights.size,
                          " weight bytes");
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
        case 0:
          image->AddOwned(std::move(model_def));
          break;
        case 1:
          RETURN_IF_ERROR(AddWeights(m->weights, name, image.get()));
          break;
        case 2:
          image->AddOwned(std::move(task_info));
          break;
        case 3:
          image->Add(m->kernel_store.data(), m->kernel_store.size());
          break;
        default:
          image->AddOwned(std::move(attrs));
          break;
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
  PutU32(h + kOffOpCount,
         static_cast<uint32_t>(std::min<size_t>(root.graph->GetDirectNodesSize(),
                                                std::numeric_limits<uint32_t>::max())));
  PutU32(h + kOffModelCount, static_cast<uint32_t>(models.size()));
  std::memcpy(h + kOffPlatformVersion, soc.data(), std::min(soc.size(), kPlatformVersionBytes - 1));
  PutU32(h + kOffPlatformType, 0);
  h[kOffIsUnknown] = root.task_def.dynamic() ? 1 : 0;
  return image;
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
        RETURN_IF_ERROR(
            PwriteAll(fd, seg.data + copied, seg.size - copied, file_pos + copied, path));
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
StatusOr<std::array<uint8_t, 32>> StreamBody(const OmImage& image, int fd,
                                             const std::string& path) {
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

}  // namespace

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
  const std::array<uint8_t, 32> sum =
      OmChecksum(AsBytes(absl::string_view(out).substr(kOmHeaderSize)));
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
  // The temp file is removed on every return before the commit.
  ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  StatusOr<std::array<uint8_t, 32>> sum = StreamBody(*image, file.fd(), file.temp_path());
  if (!sum.ok()) return sum.status();
  std::memcpy(image->header.data() + kOffChecksum, sum->data(), sum->size());
  RETURN_IF_ERROR(
      PwriteAll(file.fd(), image->header.data(), image->header.size(), 0, file.temp_path()));
  RETURN_IF_ERROR(file.Commit(options.sync));
  if (options.times != nullptr) {
    options.times->write_ms = std::chrono::duration<double, std::milli>(Clock::now() - t1).count();
  }
  return image->total;
}

}  // namespace ge
