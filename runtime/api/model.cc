// runtime/api/model.cc
#include "runtime/inc/runtime/model.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/synchronization/mutex.h"
#include "build/model/model_builder.h"
#include "build/om/om_file.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "runtime/api/model_internal.h"
#include "runtime/executor/dynamic_executor.h"
#include "runtime/executor/io_check.h"
#include "runtime/executor/static_executor.h"
#include "runtime/loader/mapped_file.h"

namespace ge {

namespace {

// A file's body checksum, chunk by chunk (the OM checksum is over its
// 4 MiB chunks' digests): every thread that calls Work claims chunks until
// none is left, reading each with pread in kPiece pieces into a buffer on
// its stack (no heap growth beside the load's own: a 1 MiB heap buffer,
// fresh memory first touched under the allocator's page-heap lock, stalled
// the loading thread by ~9 ms on the build VM). Each fresh stack page costs
// a fault and each piece a syscall: 128 KiB pieces suit a large file (its
// helper thread, then the thread that waits for the sum), 32 KiB a small
// file read before the decode (ladder 10k 7.5 ms with 128 KiB, 6.9 with
// 32 KiB, medians of 8).
class BodyChecksumReader {
 public:
  explicit BodyChecksumReader(const MappedFile& f)
      : file_(f),
        body_(f.bytes().size() > kOmHeaderSize ? f.bytes().size() - kOmHeaderSize : 0),
        digests_(static_cast<size_t>((body_ + kOmChecksumChunkBytes - 1) / kOmChecksumChunkBytes)) {
  }

  template <size_t kPiece>
  Status Work() {
    alignas(64) uint8_t buffer[kPiece];
    for (size_t k = next_.fetch_add(1); k < digests_.size(); k = next_.fetch_add(1)) {
      const uint64_t begin = k * kOmChecksumChunkBytes;
      const uint64_t end = std::min<uint64_t>(begin + kOmChecksumChunkBytes, body_);
      OmChecksumChunk chunk;
      for (uint64_t at = begin; at < end; at += kPiece) {
        const size_t n = static_cast<size_t>(std::min<uint64_t>(kPiece, end - at));
        RETURN_IF_ERROR(file_.ReadAt(kOmHeaderSize + at, absl::MakeSpan(buffer, n)));
        chunk.Update(absl::MakeConstSpan(buffer, n));
      }
      digests_[k] = chunk.Digest();
    }
    return OkStatus();
  }
  // Leaves the chunks nobody has claimed yet unclaimed for good (Digest is
  // then meaningless): Work returns after the chunk it is on.
  void Abandon() { next_.store(digests_.size()); }
  // After every Work has returned OK (and without Abandon).
  std::array<uint8_t, 32> Digest() const { return OmChecksumFromChunks(digests_); }

 private:
  const MappedFile& file_;
  const uint64_t body_;
  std::vector<std::array<uint8_t, 16>> digests_;
  std::atomic<size_t> next_{0};
};

constexpr size_t kLargePiece = size_t{128} << 10, kSmallPiece = size_t{32} << 10;

}  // namespace

// The body checksum of a large model file, computed by a helper thread
// started before the decode and checked by whoever needs the result first:
// Model::LoadFromFile itself (BodyCheck::kAtLoad, or a load that failed: a
// mismatch wins over any load error), else the first Run or VerifyBody.
// The waiting thread claims the chunks the helper has not reached, so the
// sum takes both cores once somebody waits. Destroying it abandons the
// chunks not started and joins the helper.
class PendingBodyChecksum {
 public:
  explicit PendingBodyChecksum(std::shared_ptr<const MappedFile> file)
      : file_(std::move(file)), reader_(*file_) {
    helper_ = std::thread([this]() { helper_status_ = reader_.Work<kLargePiece>(); });
  }
  ~PendingBodyChecksum() {
    reader_.Abandon();
    if (helper_.joinable()) helper_.join();
  }
  PendingBodyChecksum(const PendingBodyChecksum&) = delete;
  PendingBodyChecksum& operator=(const PendingBodyChecksum&) = delete;

  // The checksum's verdict (ParseFailed "checksum mismatch" or the read
  // error, naming the file), computed once.
  Status Wait() {
    if (passed_.load(std::memory_order_acquire)) return OkStatus();
    absl::MutexLock lock(&mu_);
    if (!done_) {
      Status st = reader_.Work<kLargePiece>();
      helper_.join();
      if (st.ok()) st = helper_status_;
      if (st.ok()) st = VerifyOmBodyChecksum(file_->bytes(), reader_.Digest());
      result_ = st.ok() ? st : Annotate(st, "model file '", file_->path(), "': ");
      done_ = true;
      passed_.store(result_.ok(), std::memory_order_release);
    }
    return result_;
  }

 private:
  std::shared_ptr<const MappedFile> file_;
  BodyChecksumReader reader_;
  std::thread helper_;
  Status helper_status_;  // written by the helper, read after the join
  absl::Mutex mu_;
  bool done_ ABSL_GUARDED_BY(mu_) = false;
  Status result_ ABSL_GUARDED_BY(mu_);
  std::atomic<bool> passed_{false};
};

// What Model runs: one interface over the static and the dynamic executor,
// so Model never asks which one it holds.
class ModelExecutor {
 public:
  virtual ~ModelExecutor() = default;
  virtual bool is_dynamic() const = 0;
  virtual uint64_t arena_bytes() const { return 0; }
  virtual std::vector<std::string> engines() const = 0;
  // Runs into fresh outputs (the inputs are views of caller tensors).
  virtual StatusOr<std::vector<gert::HostTensor>> RunOwned(
      absl::Span<const gert::Tensor> inputs, const std::vector<ModelIoDesc>& out_descs) = 0;
  // Runs into the caller's output buffers.
  virtual Status RunInto(absl::Span<const gert::Tensor> inputs, absl::Span<gert::Tensor> outputs,
                         const std::vector<ModelIoDesc>& out_descs) = 0;
  virtual Status SetProfiling(bool on) { return NotSupported("profiling is for static models"); }
  virtual std::vector<TaskProfile> Profile(uint64_t* runs) const {
    if (runs != nullptr) *runs = 0;
    return {};
  }
};

struct Model::Impl {
  GeRootModelPtr root;                            // models loaded from a GeRootModel / dynamic OMs
  const proto::ModelTaskDef* task_def = nullptr;  // the root's
  std::string name;
  std::vector<ModelIoDesc> inputs;
  std::vector<ModelIoDesc> outputs;
  std::unique_ptr<ModelExecutor> exec;
  // Set while a LoadFromFile with BodyCheck::kBeforeFirstRun has not seen
  // the checksum pass; every Run waits for it first.
  std::unique_ptr<PendingBodyChecksum> body_checksum;

  Status VerifyBody() { return body_checksum == nullptr ? OkStatus() : body_checksum->Wait(); }
};

namespace {

// The static executor: one Run at a time (the arena and views are shared),
// outputs allocated from the task list's descriptions when Model owns them.
class StaticModelExecutor final : public ModelExecutor {
 public:
  explicit StaticModelExecutor(std::unique_ptr<StaticExecutor> exec) : exec_(std::move(exec)) {}
  bool is_dynamic() const override { return false; }
  uint64_t arena_bytes() const override { return exec_->arena_bytes(); }
  std::vector<std::string> engines() const override { return exec_->engines(); }

  StatusOr<std::vector<gert::HostTensor>> RunOwned(absl::Span<const gert::Tensor> inputs,
                                                   const std::vector<ModelIoDesc>&) override {
    const proto::ModelTaskDef& td = exec_->task_def();
    // The inputs are checked before the outputs are allocated: a model whose
    // outputs are huge must not allocate (and zero) them for inputs it
    // rejects.
    RETURN_IF_ERROR(
        CheckUserTensorCount(static_cast<size_t>(td.input_size()), inputs.size(), "input"));
    for (size_t i = 0; i < inputs.size(); ++i) {
      RETURN_IF_ERROR(CheckUserTensor(td.input(static_cast<int>(i)), inputs[i], "input", i));
    }
    std::vector<gert::HostTensor> outs(static_cast<size_t>(td.output_size()));
    std::vector<gert::Tensor> out_views(outs.size());
    for (size_t i = 0; i < outs.size(); ++i) {
      const proto::ModelIoDef& d = td.output(static_cast<int>(i));
      ASSIGN_OR_RETURN(gert::Shape shape, gert::Shape::FromDims(d.dims()));
      ASSIGN_OR_RETURN(outs[i],
                       gert::HostTensor::Create(static_cast<DataType>(d.data_type()), shape));
      out_views[i] = outs[i].tensor();
    }
    absl::MutexLock lock(&mu_);
    RETURN_IF_ERROR(exec_->Run(inputs, absl::MakeSpan(out_views)));
    return outs;
  }

  Status RunInto(absl::Span<const gert::Tensor> inputs, absl::Span<gert::Tensor> outputs,
                 const std::vector<ModelIoDesc>&) override {
    absl::MutexLock lock(&mu_);
    return exec_->Run(inputs, outputs);
  }

  Status SetProfiling(bool on) override {
    absl::MutexLock lock(&mu_);
    exec_->SetProfiling(on);
    return OkStatus();
  }

  std::vector<TaskProfile> Profile(uint64_t* runs) const override {
    absl::MutexLock lock(&mu_);
    std::vector<TaskProfile> out;
    for (StaticExecutor::TaskTime& t : exec_->Profile(runs)) {
      out.push_back(TaskProfile{std::move(t.node_name), std::move(t.op_type), std::move(t.engine),
                                t.total_ns});
    }
    return out;
  }

 private:
  std::unique_ptr<StaticExecutor> exec_;
  mutable absl::Mutex mu_;  // serialises runs
};

// The dynamic executor: runs keep no state (concurrent runs are safe);
// results are fresh tensors, copied into caller buffers for RunInto.
class DynamicModelExecutor final : public ModelExecutor {
 public:
  explicit DynamicModelExecutor(std::unique_ptr<DynamicExecutor> exec) : exec_(std::move(exec)) {}
  bool is_dynamic() const override { return true; }
  std::vector<std::string> engines() const override { return {kEngineHostCpu}; }

  StatusOr<std::vector<gert::HostTensor>> RunOwned(absl::Span<const gert::Tensor> inputs,
                                                   const std::vector<ModelIoDesc>&) override {
    std::vector<const gert::Tensor*> views(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) views[i] = &inputs[i];
    return exec_->Run(views);
  }

  Status RunInto(absl::Span<const gert::Tensor> inputs, absl::Span<gert::Tensor> outputs,
                 const std::vector<ModelIoDesc>& out_descs) override {
    RETURN_IF_ERROR(CheckUserTensorCount(out_descs.size(), outputs.size(), "output"));
    ASSIGN_OR_RETURN(std::vector<gert::HostTensor> outs, RunOwned(inputs, out_descs));
    for (size_t i = 0; i < outs.size(); ++i) {
      const gert::Tensor& src = outs[i].tensor();
      gert::Tensor& dst = outputs[i];
      const std::string& name = out_descs[i].name;
      if (dst.GetDataType() != src.GetDataType()) {
        return ParamInvalid("output ", i, " '", name, "': data type is ",
                            TypeUtils::DataTypeToSerialString(dst.GetDataType()),
                            ", the run produced ",
                            TypeUtils::DataTypeToSerialString(src.GetDataType()));
      }
      ASSIGN_OR_RETURN(size_t need, gert::HostStorageBytes(src.GetDataType(), src.GetShapeSize()));
      if (dst.GetSize() < need || (need > 0 && dst.GetAddr() == nullptr)) {
        return OutOfRange("output ", i, " '", name, "': buffer of ", dst.GetSize(),
                          " bytes cannot hold the result ", src.GetShape().ToString(), " (", need,
                          " bytes)");
      }
      dst.SetShape(src.GetShape());
      RETURN_IF_ERROR(Annotate(gert::CopyTensorData(src, &dst), "output ", i, " '", name, "': "));
    }
    return OkStatus();
  }

 private:
  std::unique_ptr<DynamicExecutor> exec_;
};

}  // namespace

namespace {

// The source framework's type of a value, recorded by the parser on tensor
// descs of sequence / optional values (compiler/parser/onnx: "_onnx_type").
constexpr char kSourceTypeAttr[] = "_onnx_type";

ModelIoDesc ToDesc(const proto::ModelIoDef& d) {
  ModelIoDesc desc;
  desc.name = d.name();
  desc.dtype = static_cast<DataType>(d.data_type());
  desc.dims.assign(d.dims().begin(), d.dims().end());
  desc.format = TypeUtils::IsFormatValid(d.format()) ? static_cast<Format>(d.format()) : FORMAT_ND;
  desc.size = d.size();
  if (desc.dtype == DT_VARIANT) {
    desc.kind = ModelIoKind::kVariant;
  } else if (desc.dtype == DT_UNDEFINED) {
    desc.kind = ModelIoKind::kUnknown;
  }
  return desc;
}

// Sets source_type (and, for DT_VARIANT, kSequence / kOptional) from the
// graph's desc of the value, when it records one.
void DescribeFromGraphDesc(const GeTensorDesc* d, ModelIoDesc* desc) {
  if (d == nullptr) return;
  StatusOr<std::string> type = AttrUtils::GetStr(*d, kSourceTypeAttr);
  if (!type.ok()) return;
  desc->source_type = std::move(type).value();
  if (desc->kind != ModelIoKind::kVariant) return;
  if (absl::StartsWith(desc->source_type, "seq(")) desc->kind = ModelIoKind::kSequence;
  if (absl::StartsWith(desc->source_type, "optional(")) desc->kind = ModelIoKind::kOptional;
}

// Describes the non-tensor inputs / outputs of a dynamic model from its
// graph: the Data node of an input (by name), the NetOutput input of an
// output. Only models with such values pay for the walk over the nodes.
void DescribeValuesFromGraph(const ComputeGraph& graph, std::vector<ModelIoDesc>* inputs,
                             std::vector<ModelIoDesc>* outputs) {
  auto special = [](const ModelIoDesc& d) { return d.kind != ModelIoKind::kTensor; };
  if (std::none_of(inputs->begin(), inputs->end(), special) &&
      std::none_of(outputs->begin(), outputs->end(), special)) {
    return;
  }
  absl::flat_hash_map<std::string, const Node*> data_nodes;
  const Node* net_output = nullptr;
  for (const Node* n : graph.GetDirectNodePtr()) {
    if (n->GetType() == DATA || n->GetType() == REFDATA) data_nodes.emplace(n->GetName(), n);
    if (n->GetType() == NETOUTPUT && net_output == nullptr) net_output = n;
  }
  for (ModelIoDesc& d : *inputs) {
    if (!special(d)) continue;
    auto it = data_nodes.find(d.name);
    if (it != data_nodes.end()) {
      DescribeFromGraphDesc(it->second->GetOpDescBarePtr()->GetOutputDescBarePtr(0), &d);
    }
  }
  if (net_output == nullptr) return;
  for (size_t k = 0; k < outputs->size(); ++k) {
    ModelIoDesc& d = (*outputs)[k];
    if (!special(d)) continue;
    DescribeFromGraphDesc(
        net_output->GetOpDescBarePtr()->GetInputDescBarePtr(static_cast<uint32_t>(k)), &d);
  }
}

// Files of at least this many bytes are checksummed beside the load.
constexpr size_t kDeferredChecksumBytes = size_t{4} << 20;

// A static root is loaded without its graph (LoadOmForRuntime): the static
// executor reads its launch plan (or, for TaskDef files, the root's op
// descs and the tasks as validated wire bytes, parsed one at a time) and
// the weights in place.
StatusOr<Model> LoadFromOmBytes(absl::Span<const uint8_t> bytes, std::shared_ptr<const void> owner,
                                const ModelLoadOptions& options,
                                const OmLoadOptions& om_options = {}) {
  ASSIGN_OR_RETURN(OmRuntimeModel loaded, LoadOmForRuntime(bytes, std::move(owner), om_options));
  if (loaded.dynamic) return LoadModelFromGeRootModel(std::move(loaded.root), options);
  auto holder = std::make_shared<OmRuntimeModel>(std::move(loaded));
  auto impl = std::make_unique<Model::Impl>();
  impl->name = holder->name;
  impl->task_def = holder->task_def;
  StaticModelParts parts;
  parts.name = holder->name;
  parts.graph_name = holder->graph_name;
  parts.task_def = holder->task_def;
  parts.task_bytes = holder->task_bytes;
  parts.weights = &holder->weights;
  parts.ops.reserve(holder->ops.size());
  for (const OpDescPtr& op : holder->ops) parts.ops.push_back(op.get());
  parts.plan = holder->plan.get();
  parts.plan_ops.reserve(holder->plan_ops.size());
  for (const OpDescPtr& op : holder->plan_ops) parts.plan_ops.push_back(op.get());
  parts.keepalive = holder;
  StaticExecutorOptions sopts;
  sopts.max_arena_bytes = options.max_arena_bytes;
  sopts.intra_op_threads = options.intra_op_threads;
  ASSIGN_OR_RETURN(std::unique_ptr<StaticExecutor> exec,
                   StaticExecutor::Create(std::move(parts), sopts));
  impl->exec = std::make_unique<StaticModelExecutor>(std::move(exec));
  const proto::ModelTaskDef& td = *impl->task_def;
  impl->inputs.reserve(static_cast<size_t>(td.input_size()));
  impl->outputs.reserve(static_cast<size_t>(td.output_size()));
  for (const proto::ModelIoDef& d : td.input()) impl->inputs.push_back(ToDesc(d));
  for (const proto::ModelIoDef& d : td.output()) impl->outputs.push_back(ToDesc(d));
  return Model(std::move(impl));
}

}  // namespace

StatusOr<Model> LoadModelFromGeRootModel(GeRootModelPtr root, const ModelLoadOptions& options) {
  if (root == nullptr || root->root == nullptr) return ParamInvalid("null root model");
  auto impl = std::make_unique<Model::Impl>();
  const GeModelPtr& m = root->root;
  impl->name = m->name;
  impl->task_def = &m->task_def;
  const proto::ModelTaskDef& td = m->task_def;
  if (td.dynamic()) {
    RETURN_IF_ERROR(Annotate(RestoreConstValues(*m), "model '", m->name, "': "));
    DynamicExecutorOptions dopts;
    dopts.engine = options.dynamic_engine;
    dopts.kernel_cache_size = options.dynamic_kernel_cache_size;
    dopts.intra_op_threads = options.intra_op_threads;
    ASSIGN_OR_RETURN(std::unique_ptr<DynamicExecutor> exec, DynamicExecutor::Create(m, dopts));
    impl->exec = std::make_unique<DynamicModelExecutor>(std::move(exec));
  } else {
    StaticExecutorOptions sopts;
    sopts.max_arena_bytes = options.max_arena_bytes;
    sopts.intra_op_threads = options.intra_op_threads;
    ASSIGN_OR_RETURN(std::unique_ptr<StaticExecutor> exec, StaticExecutor::Create(m, sopts));
    impl->exec = std::make_unique<StaticModelExecutor>(std::move(exec));
  }
  for (const proto::ModelIoDef& d : td.input()) impl->inputs.push_back(ToDesc(d));
  for (const proto::ModelIoDef& d : td.output()) impl->outputs.push_back(ToDesc(d));
  if (impl->exec->is_dynamic() && m->graph != nullptr) {
    DescribeValuesFromGraph(*m->graph, &impl->inputs, &impl->outputs);
  }
  impl->root = std::move(root);
  return Model(std::move(impl));
}

StatusOr<Model> Model::LoadFromFile(const std::string& path, const ModelLoadOptions& options) {
  ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file, MappedFile::Open(path));
  absl::Span<const uint8_t> bytes = file->bytes();
  // A large file's checksum is computed on a helper thread while this one
  // loads and prepares the model (PendingBodyChecksum); with kAtLoad this
  // thread then helps and checks it before returning, with kBeforeFirstRun
  // the model is returned and its first Run (or VerifyBody) does. It reads
  // the file with pread instead of through the mapping. Measured on the
  // build VM (resnet50, 100 MB): a first touch of the mapping's 4 KiB pages
  // costs ~35-45 ms, pread plus the hash ~18 ms. The weights stay mapped
  // and are first touched by the first run that reads them (a lazily mapped
  // model, as with any mmap).
  OmLoadOptions om_options;
  std::unique_ptr<PendingBodyChecksum> pending;
  std::array<uint8_t, 32> small_sum;
  if (bytes.size() >= kDeferredChecksumBytes) {
    om_options.defer_checksum = true;
    pending = std::make_unique<PendingBodyChecksum>(file);
  } else {
    // A small file's checksum is read first, on this thread (a second one
    // costs more than it saves here): the load then touches only the
    // mapped pages it parses (ladder 10k: TASK_INFO 0.56 of 2.1 MB).
    BodyChecksumReader checksum(*file);
    if (Status st = checksum.Work<kSmallPiece>(); !st.ok()) {
      return Annotate(st, "model file '", path, "': ");
    }
    small_sum = checksum.Digest();
    om_options.body_checksum = &small_sum;
  }
  StatusOr<Model> m = LoadFromOmBytes(bytes, file, options, om_options);
  if (pending != nullptr && (!m.ok() || options.body_check == BodyCheck::kAtLoad)) {
    RETURN_IF_ERROR(pending->Wait());
    pending.reset();
  }
  if (!m.ok()) return Annotate(m.status(), "model file '", path, "': ");
  m->impl_->body_checksum = std::move(pending);
  return m;
}

StatusOr<Model> Model::LoadFromBytes(absl::string_view bytes, const ModelLoadOptions& options) {
  ASSIGN_OR_RETURN(std::shared_ptr<const AlignedBytes> copy, AlignedBytes::Copy(bytes));
  absl::Span<const uint8_t> view = copy->bytes();
  return LoadFromOmBytes(view, std::move(copy), options);
}

Model::Model(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;
Model::~Model() = default;

const std::string& Model::name() const { return impl_->name; }
bool Model::is_dynamic() const { return impl_->exec->is_dynamic(); }
const std::vector<ModelIoDesc>& Model::inputs() const { return impl_->inputs; }
const std::vector<ModelIoDesc>& Model::outputs() const { return impl_->outputs; }
uint64_t Model::arena_bytes() const { return impl_->exec->arena_bytes(); }
std::vector<std::string> Model::engines() const { return impl_->exec->engines(); }

Status Model::SetProfiling(bool on) {
  if (impl_ == nullptr) return ParamInvalid("SetProfiling on a moved-from Model");
  return impl_->exec->SetProfiling(on);
}

std::vector<TaskProfile> Model::Profile(uint64_t* runs) const {
  if (impl_ == nullptr) {
    if (runs != nullptr) *runs = 0;
    return {};
  }
  return impl_->exec->Profile(runs);
}

Status Model::VerifyBody() {
  if (impl_ == nullptr) return ParamInvalid("VerifyBody on a moved-from Model");
  return impl_->VerifyBody();
}

StatusOr<std::vector<gert::HostTensor>> Model::Run(const std::vector<gert::HostTensor>& inputs) {
  if (impl_ == nullptr) return ParamInvalid("Run on a moved-from Model");
  // Before the inputs are looked at: a corrupt file is reported as such.
  RETURN_IF_ERROR(impl_->VerifyBody());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].HasStorage() && inputs[i].tensor().GetSize() > 0) {
      return ParamInvalid("input ", i, " owns no storage");
    }
  }
  std::vector<gert::Tensor> in_views(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) in_views[i] = inputs[i].tensor();
  return impl_->exec->RunOwned(in_views, impl_->outputs);
}

Status Model::Run(absl::Span<const gert::Tensor> inputs, absl::Span<gert::Tensor> outputs) {
  if (impl_ == nullptr) return ParamInvalid("Run on a moved-from Model");
  RETURN_IF_ERROR(impl_->VerifyBody());
  return impl_->exec->RunInto(inputs, outputs, impl_->outputs);
}

}  // namespace ge
