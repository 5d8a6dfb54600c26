// runtime/inc/runtime/model.h
//
// ge::Model: the public runtime API for one compiled model (an OM file
// written by atc / SaveOm). What a downstream program links
// (//runtime:runtime) and includes.
//
// Loading
//   * LoadFromFile maps the file read-only (mmap); the mapping owns the
//     weights, which are used in place. LoadFromBytes copies the bytes into
//     an aligned buffer first. Either way the file is validated (every
//     offset, length, count and proto; see build/om/om_file.h) and then the
//     runtime checks what it relies on: every task's node exists, every
//     kernel exists for its task's engine (a missing kernel fails the load,
//     never a run), every tensor reference fits its region and matches its
//     op's inferred shape. A corrupt, truncated or hostile file gives a
//     Status (ParseFailed, OutOfRange, NotSupported, ...) naming what is
//     wrong; it never crashes. A large file's body checksum is by default
//     checked beside the load and waited for by the first Run
//     (ModelLoadOptions::body_check), so a corrupt weight byte fails that
//     Run (or VerifyBody) instead of the load.
//   * A static model (shapes known at compile time) gets the static
//     executor: one pre-planned arena allocated at load, prepared kernel
//     contexts, user buffers bound by pointer (zero copy). A dynamic model
//     gets the dynamic executor (the graph interpreted with the host-CPU
//     kernels).
//
// Running
//   * Run(HostTensors) is the convenience path: checks, allocates the
//     outputs, runs.
//   * Run(views, views) is the zero-copy path with caller-owned buffers:
//     inputs and outputs are checked (count, data type, dims, buffer size)
//     and, for a static model, bound without copying; nothing is allocated
//     on the heap after the checks. For a dynamic model the outputs' shapes
//     are set by the run (their buffers must be large enough, OutOfRange
//     otherwise).
//   * Wrong input count / data type / shape is ParamInvalid naming the input
//     ("input 0 'x': shape is [2,3], the model expects [2,4]").
//   * Sequence / optional inputs and outputs (ModelIoDesc::kind, dynamic
//     models only) are DT_VARIANT gert tensors. Run(HostTensors) returns them
//     as HostTensors owning their elements; with the zero-copy Run a
//     DT_VARIANT output buffer must hold constructed gert::HostTensor
//     elements (make it with gert::HostTensor::Create(DT_VARIANT, {n})), and
//     the elements are deep-copied into it. An output of kind kUnknown has
//     the data type the run produced (the zero-copy Run requires the caller's
//     buffer to have that type).
//   * Runs of one Model are serialised internally (a mutex); use several
//     Models for parallel runs.
//
// Example
//   ASSIGN_OR_RETURN(ge::Model model, ge::Model::LoadFromFile("/tmp/resnet.om"));
//   for (const ge::ModelIoDesc& in : model.inputs()) std::cout << in.name;
//   ASSIGN_OR_RETURN(gert::HostTensor x, gert::HostTensor::Create(ge::DT_FLOAT, {1, 3, 224, 224}));
//   std::vector<gert::HostTensor> inputs;
//   inputs.push_back(std::move(x));
//   ASSIGN_OR_RETURN(std::vector<gert::HostTensor> outputs, model.Run(inputs));
#ifndef RUNTIME_INC_RUNTIME_MODEL_H_
#define RUNTIME_INC_RUNTIME_MODEL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ge {

// What a model input or output holds. Sequences and optionals exist only in
// dynamic models; they are passed as gert DT_VARIANT tensors whose elements
// are gert::HostTensor objects (see metadef/register/inc/gert/tensor.h:
// HostTensor::CreateSequence / CreateOptional / CreateEmptyOptional,
// VariantElements).
enum class ModelIoKind {
  kTensor,    // a tensor of `dtype`
  kSequence,  // DT_VARIANT, shape [n]: element i is the i-th tensor
  kOptional,  // DT_VARIANT, shape [0] (empty) or [1] (the value)
  kVariant,   // DT_VARIANT: a sequence or an optional (the model does not say which)
  kUnknown,   // dtype DT_UNDEFINED: the compiler could not infer the type (e.g. an
              // element read out of a sequence); any value is accepted / produced
};

// One model input or output.
struct ModelIoDesc {
  std::string name;  // Data node name / "<node>:<index>" of an output
  DataType dtype = DT_UNDEFINED;
  // -1 for a dim unknown until run time; exactly {-2} when even the rank is
  // unknown (dynamic models).
  std::vector<int64_t> dims;
  Format format = FORMAT_ND;
  uint64_t size = 0;  // bytes when the shape is static
  ModelIoKind kind = ModelIoKind::kTensor;
  // The source model's type when the compiler recorded it, e.g.
  // "seq(tensor(float))" or "optional(tensor(int64))" for an ONNX model;
  // empty otherwise.
  std::string source_type;
};

// When LoadFromFile checks the checksum over a large file's body (the
// partitions after the header, weights included; see build/om/om_file.h).
// Every structural check (offsets, lengths, counts, protos) is made before
// Load returns either way; a file under 4 MiB is always checksummed first.
enum class BodyCheck {
  // The checksum is computed on a helper thread beside the decode, and Load
  // returns once the model is prepared. The first Run (or VerifyBody) waits
  // for the sum, helping with the rest of it, and fails with the checksum
  // mismatch, as every later Run does, if the file is corrupt; no Run uses
  // the weights before the sum has passed. (resnet50: Load ~1 ms instead of
  // ~13; the sum finishes ~10 ms later.)
  kBeforeFirstRun,
  // Load itself waits for the checksum and fails on a mismatch.
  kAtLoad,
};

struct ModelLoadOptions {
  // Largest arena a static model may request; 0: the machine's physical
  // memory.
  uint64_t max_arena_bytes = 0;
  BodyCheck body_check = BodyCheck::kBeforeFirstRun;
  // Engine whose kernels run a dynamic model.
  std::string dynamic_engine = "DNN_VM_HOST_CPU";
  // Intra-op threads of the compute engine's kernels (oneDNN and our
  // threaded kernels share one OpenMP pool of this size); <= 0: one per
  // core, as ONNX Runtime's default.
  int intra_op_threads = 0;
  // Dynamic models: compute-engine kernels prepared per (node, input
  // shapes) are kept in an LRU cache of this many entries; 0: none (the
  // host-CPU kernels run every node).
  size_t dynamic_kernel_cache_size = 256;
};

// Time per task of a profiled static model (Model::SetProfiling).
struct TaskProfile {
  std::string node_name;
  std::string op_type;
  std::string engine;
  uint64_t total_ns = 0;  // over every profiled Run
};

class Model {
 public:
  static StatusOr<Model> LoadFromFile(const std::string& path,
                                      const ModelLoadOptions& options = ModelLoadOptions());
  static StatusOr<Model> LoadFromBytes(absl::string_view bytes,
                                       const ModelLoadOptions& options = ModelLoadOptions());

  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;
  ~Model();

  const std::string& name() const;
  bool is_dynamic() const;
  const std::vector<ModelIoDesc>& inputs() const;
  const std::vector<ModelIoDesc>& outputs() const;
  // Arena bytes of a static model (0 for a dynamic one).
  uint64_t arena_bytes() const;
  // The engines whose kernels run the model, sorted by name.
  std::vector<std::string> engines() const;

  // Waits for the body checksum of a file loaded with
  // BodyCheck::kBeforeFirstRun (computing the rest of it on this thread
  // too) and returns its verdict: OK, or ParseFailed "checksum mismatch"
  // naming the file. OK at once when the load checked it already. Run
  // calls it first.
  Status VerifyBody();

  StatusOr<std::vector<gert::HostTensor>> Run(const std::vector<gert::HostTensor>& inputs);
  Status Run(absl::Span<const gert::Tensor> inputs, absl::Span<gert::Tensor> outputs);

  // Profiling of a static model's tasks: while on, each Run adds each
  // task's wall time to its counter (NotSupported for a dynamic model).
  // Profile() returns the counters in task order and the Runs counted.
  Status SetProfiling(bool on);
  std::vector<TaskProfile> Profile(uint64_t* runs = nullptr) const;

  // Implementation (runtime/api); constructed by the loader.
  struct Impl;
  explicit Model(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge

#endif  // RUNTIME_INC_RUNTIME_MODEL_H_
