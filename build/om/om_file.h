// build/om/om_file.h
//
// The OM (offline model) file: writer, validating reader and loader of a
// GeRootModel (seed 002 §5.6; GE's ModelFileHeader / ModelPartitionTable).
//
// Layout (all integers little-endian, written field by field):
//
//   [0, 256)        ModelFileHeader (kOmHeaderSize bytes, see OmHeader)
//                   magic "DOMI" (0x444F4D49), header size, version (3),
//                   checksum of bytes [256, total_length): XXH3-128 of the
//                   canonical XXH3-128 digests of its 4 MiB chunks in order
//                   (the last chunk may be shorter; threads can hash chunks
//                   apart), canonical big-endian, the first 16 of 64
//                   checksum bytes, the rest zero (version 2 files hashed
//                   the body in one piece, version 1 used SHA-256), total length, model
//                   type, generation mode, name[32], op count, model count,
//                   platform version[20] / type, is_unknown_model, reserved.
//   then, for each model (root first, then submodels in name order):
//     model record  u32 name length, name bytes, u32 partition count N,
//                   N entries {u32 type, u32 reserved, u64 offset, u64 size}
//                   (offsets are absolute file offsets)
//     partitions    in order MODEL_DEF, WEIGHTS_DATA, TASK_INFO, KERNELS;
//                   each starts at a 64-byte boundary, WEIGHTS_DATA at a
//                   4096-byte boundary (mmap the file and use weights in place).
//   Gaps between records / partitions are zero bytes.
//
// MODEL_DEF is ModelSerialize::SerializeModel of the model graph (Const values
// replaced by weight references, see build/model/model_builder.h), WEIGHTS_DATA
// the weight blob, TASK_INFO the ModelTaskDef bytes, KERNELS the kernel store.
//
// Contract
//   * SaveOm is deterministic: the same model gives byte-identical files.
//   * ParseOmFile validates every field before use (magic, sizes, version,
//     checksum, counts, bounds with overflow-safe arithmetic, partition order,
//     TASK_INFO proto, every TensorRef against the model's memory / weight /
//     io sizes); hostile bytes give a Status naming the field and values,
//     never a crash.
//   * LoadGeRootModelFromOm does not copy weights: GeModel::weights points
//     into `bytes`, and `owner` (e.g. the mmap holder) is kept alive by it.
//   * SaveOmToFile never assembles the file in memory: it streams the header,
//     records, serialized partitions and the weight pieces of a fresh build
//     (GeModel::weights.pieces, no copy) into a temp file, hashing each chunk
//     just before writing it, then renames the temp file over the path. The
//     bytes equal SaveOm's.
//
// Implementation (one target, //build/om:om_file): om_writer.cc (SaveOm,
// SaveOmToFile), om_reader.cc (ParseOmFile, the loaders), om_validation.cc
// (task and TensorRef checks), om_checksum.cc (OmChecksum, Sha256), over
// the internal headers om_layout.h, om_validation.h and om_checksum.h.
//
// Example
//   ASSIGN_OR_RETURN(uint64_t size, SaveOmToFile(*root_model, "/tmp/m.om"));
//   ASSIGN_OR_RETURN(std::string om, SaveOm(*root_model, OmSaveOptions{}));
//   auto holder = std::make_shared<std::string>(std::move(om));
//   ASSIGN_OR_RETURN(GeRootModelPtr loaded,
//                    LoadGeRootModelFromOm(AsBytes(*holder), holder));
#ifndef BUILD_OM_OM_FILE_H_
#define BUILD_OM_OM_FILE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "build/model/ge_model.h"
#include "build/proto/model_task.pb.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/base/file_io.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class LaunchPlanView;  // build/om/launch_plan.h

inline constexpr uint32_t kOmMagic = 0x444F4D49;  // "DOMI"
inline constexpr uint32_t kOmHeaderSize = 256;
inline constexpr uint32_t kOmVersion = 3;
// The body checksum's chunk size (see the layout above).
inline constexpr uint64_t kOmChecksumChunkBytes = uint64_t{4} << 20;
// Checksum bytes in use (XXH3-128) of the 64-byte header checksum field.
inline constexpr size_t kOmChecksumBytes = 16;
inline constexpr uint64_t kOmPartitionAlign = 64;
inline constexpr uint64_t kOmWeightsAlign = 4096;
// Limits enforced by the reader (before any allocation).
inline constexpr uint32_t kOmMaxModels = 1u << 16;
inline constexpr uint32_t kOmMaxPartitions = 16;
inline constexpr uint32_t kOmMaxNameLength = 4096;

enum class OmPartitionType : uint32_t {
  kModelDef = 0,
  kWeightsData = 1,
  kTaskInfo = 2,
  kKernels = 3,
};
const char* OmPartitionTypeName(OmPartitionType type);

enum class OmModelType : uint32_t { kStatic = 0, kDynamic = 1 };

// The fixed header, decoded.
struct OmHeader {
  uint32_t magic = kOmMagic;
  uint32_t header_size = kOmHeaderSize;
  uint32_t version = kOmVersion;
  std::array<uint8_t, 64> checksum{};  // XXH3-128 in the first 16 bytes
  uint64_t total_length = 0;
  uint32_t model_type = 0;       // OmModelType of the root
  uint32_t generate_mode = 0;    // 0 = offline (atc)
  std::string name;              // at most 31 bytes stored (NUL padded)
  uint32_t op_count = 0;         // nodes of the root graph
  uint32_t model_count = 0;      // root + submodels
  std::string platform_version;  // soc_version, at most 19 bytes stored
  uint32_t platform_type = 0;
  uint8_t is_unknown_model = 0;
};

struct OmPartition {
  OmPartitionType type = OmPartitionType::kModelDef;
  uint64_t offset = 0;  // absolute file offset
  uint64_t size = 0;
};

// One model of the file, as views into the file bytes.
struct OmModelView {
  std::string name;
  std::vector<OmPartition> partitions;  // MODEL_DEF, WEIGHTS_DATA, TASK_INFO, KERNELS
  absl::Span<const uint8_t> model_def;
  absl::Span<const uint8_t> weights;
  absl::Span<const uint8_t> task_info;
  absl::Span<const uint8_t> kernels;
  proto::ModelTaskDef task_def;  // parsed and validated TASK_INFO
};

struct OmFileView {
  OmHeader header;
  std::vector<OmModelView> models;  // root first
};

// Wall times of SaveOmToFile's two steps.
struct OmSaveTimes {
  double serialize_ms = 0;  // MODEL_DEF / TASK_INFO encoding, layout
  double write_ms = 0;      // checksum + streaming + rename
};

struct OmSaveOptions {
  // Written into the header; default: the root model's attrs "soc_version".
  std::string soc_version;
  uint32_t generate_mode = 0;
  // SaveOmToFile: fsync the file before the rename (crash durability). Off
  // by default, like compilers' outputs: the rename already makes the file
  // appear whole or not at all to other processes, and a torn file left by
  // a machine crash fails the checksum.
  bool sync = false;
  // When set, SaveOmToFile fills it.
  OmSaveTimes* times = nullptr;
  // A static model's tasks are written as a LaunchPlan (build/om/launch_plan.h)
  // when they fit one; false keeps the TaskDefs. Loaders read both forms.
  bool launch_plan = true;
};

inline absl::Span<const uint8_t> AsBytes(absl::string_view s) {
  return absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// Serializes `model` (root first, then submodels in name order).
StatusOr<std::string> SaveOm(const GeRootModel& model, const OmSaveOptions& options = {});
// Streams the same bytes to `<path>.tmp.<pid>` and renames it over `path`
// (on failure the temp file is removed and `path` is untouched). Returns the
// file size.
StatusOr<uint64_t> SaveOmToFile(const GeRootModel& model, const std::string& path,
                                const OmSaveOptions& options = {});

// Validates and decodes the file structure (no graph deserialization).
StatusOr<OmFileView> ParseOmFile(absl::Span<const uint8_t> bytes);

// Parses, validates and deserializes the models. Weights are views into
// `bytes` (no copy); every GeModel::weights.owner holds `owner`, which must
// keep `bytes` alive. Const values stay as weight references in the graph
// (call RestoreConstValues from build/model/model_builder.h to materialize
// them). Submodels keyed by their model name.
StatusOr<GeRootModelPtr> LoadGeRootModelFromOm(absl::Span<const uint8_t> bytes,
                                               std::shared_ptr<const void> owner);

// A model loaded for execution (LoadOmForRuntime). A static root is loaded
// without a ComputeGraph: only its op descs are decoded (DecodeModelOpDescs,
// graph/serialization/inc/model_op_descs.h) and its TASK_INFO is parsed into
// a protobuf Arena (freed in bulk), its tasks kept as validated bytes. A dynamic root needs its
// graphs: `root` is what LoadGeRootModelFromOm returns.
struct OmRuntimeModel {
  std::string name;  // the root model's name
  bool dynamic = false;
  // Dynamic root: every model, graphs decoded. Null for a static root.
  GeRootModelPtr root;
  // Static root (dynamic == false): the TASK_INFO on `arena`; its tasks are
  // usually not in task_def but in task_bytes, the validated wire bytes of
  // each TaskDef (views into the file), so that 100k tasks cost no message
  // objects (a consumer parses one at a time into a reused message). When
  // task_bytes is empty the tasks are task_def->task() (a TASK_INFO whose
  // top level the splitter leaves to the full parser).
  const proto::ModelTaskDef* task_def = nullptr;
  std::vector<absl::Span<const uint8_t>> task_bytes;
  WeightBuffer weights;        // views into the file (owner held)
  std::string graph_name;      // the root graph's name
  std::vector<OpDescPtr> ops;  // root graph ops, in node order
  // A static root whose TASK_INFO holds a LaunchPlan: the validated plan (a
  // view into task_def's, on `arena`) and its op descs by op id. Then
  // task_bytes and ops are empty, and MODEL_DEF is not decoded (the runtime
  // reads nothing of it; it is still covered by the checksum).
  std::shared_ptr<const LaunchPlanView> plan;
  std::vector<OpDescPtr> plan_ops;
  std::shared_ptr<google::protobuf::Arena> arena;
  // The root MODEL_DEF bytes (alive while `weights.owner` is), for a caller
  // that wants the whole graph after all (ModelSerialize::DeserializeModel).
  absl::Span<const uint8_t> model_def;
};

// One chunk of the body checksum (bytes [k * kOmChecksumChunkBytes, ...) of
// the body), fed in pieces; Digest is its canonical XXH3-128.
class OmChecksumChunk {
 public:
  OmChecksumChunk();
  ~OmChecksumChunk();
  OmChecksumChunk(const OmChecksumChunk&) = delete;
  OmChecksumChunk& operator=(const OmChecksumChunk&) = delete;
  void Update(absl::Span<const uint8_t> piece);
  std::array<uint8_t, 16> Digest() const;

 private:
  void* state_;
};

// The body checksum from its chunks' digests, in chunk order (what
// OmChecksum gives for the body).
std::array<uint8_t, 32> OmChecksumFromChunks(absl::Span<const std::array<uint8_t, 16>> digests);

// The OM body checksum computed piecewise, for a caller that sees the file
// in pieces (e.g. while reading it, each piece hashed while in cache).
// UpdateFile takes the file's bytes in order from offset 0 (the header is
// skipped); Digest gives what OmChecksum gives for bytes [256, end).
class OmBodyChecksum {
 public:
  OmBodyChecksum();
  ~OmBodyChecksum();
  OmBodyChecksum(const OmBodyChecksum&) = delete;
  OmBodyChecksum& operator=(const OmBodyChecksum&) = delete;
  void UpdateFile(absl::Span<const uint8_t> chunk);
  // The body's bytes in order, from its first (no header to skip).
  void UpdateBody(absl::Span<const uint8_t> chunk);
  std::array<uint8_t, 32> Digest() const;

 private:
  OmChecksumChunk chunk_;
  uint64_t in_chunk_ = 0;  // bytes of the body in the current chunk
  std::vector<std::array<uint8_t, 16>> digests_;
  uint64_t pos_ = 0;
};

struct OmLoadOptions {
  // The body checksum of exactly the bytes passed to the loader, computed
  // by the caller (OmBodyChecksum over the same memory, e.g. while reading
  // the file into it); the loader compares it with the header's instead of
  // hashing the bytes again. Null: the loader hashes them.
  const std::array<uint8_t, 32>* body_checksum = nullptr;
  // The caller verifies the body checksum itself after the load
  // (VerifyOmBodyChecksum), e.g. computing it with read() while the model
  // is prepared: on a VM the kernel copying page-cache pages is ~2.5x
  // faster than a first touch of a fresh mapping. Every check but the
  // checksum is made (all of them are safe on any bytes); a model loaded so
  // must not be used before the checksum passes, and a checksum failure
  // takes precedence over any load error. Ignored when body_checksum is set.
  bool defer_checksum = false;
};

// LoadGeRootModelFromOm for the runtime: every check of the file it makes
// (checksum, structure, every TASK_INFO, every MODEL_DEF, op_index against
// the root's op count) with the same statuses, but a static root's graph is
// not built and its tasks stay bytes (see OmRuntimeModel). Submodels of a static root are decoded
// (checked) and dropped: the static executor runs the root only.
StatusOr<OmRuntimeModel> LoadOmForRuntime(absl::Span<const uint8_t> bytes,
                                          std::shared_ptr<const void> owner,
                                          const OmLoadOptions& options = {});

// ReadFileToString and WriteFileAtomically, which OM files are read and
// written with, come from metadef/inc/base/file_io.h (included above).

// Compares `body_sum` (OmBodyChecksum of the file's bytes) with the
// checksum in the header of `bytes` (the whole file): ParseFailed "checksum
// mismatch" when they differ; OK when `bytes` is shorter than the header
// (the structure check reports that).
Status VerifyOmBodyChecksum(absl::Span<const uint8_t> bytes,
                            const std::array<uint8_t, 32>& body_sum);

// The header checksum of an OM body (`bytes` = file bytes [256, end)): XXH3-128
// (canonical, big-endian) in the first kOmChecksumBytes, zero after.
std::array<uint8_t, 32> OmChecksum(absl::Span<const uint8_t> bytes);

// SHA-256 of `bytes` (OpenSSL EVP); the model cache key, not the OM checksum.
std::array<uint8_t, 32> Sha256(absl::Span<const uint8_t> bytes);

}  // namespace ge

#endif  // BUILD_OM_OM_FILE_H_
