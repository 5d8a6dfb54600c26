// runtime/executor/compute_kernel_cache.cc
#include "runtime/executor/compute_kernel_cache.h"

#include <cstdlib>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "runtime/engine/engine.h"

namespace ge {

struct ComputeKernelCache::Entry {
  std::unique_ptr<OpKernel> kernel;  // null: the host-CPU kernel runs the node
  std::shared_ptr<OpDesc> op;        // the concrete copy the kernel was prepared on
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  std::vector<std::unique_ptr<void, Free>> workspaces;
  std::vector<void*> workspace_ptrs;
  absl::Mutex run_mu;  // a prepared kernel binds its buffers per Run
};

namespace {

bool FromConst(const Node& node, size_t i) {
  const InDataAnchorPtr in = node.GetInDataAnchor(static_cast<int>(i));
  if (in == nullptr || in->GetPeerOutAnchor() == nullptr) return false;
  const NodePtr src = in->GetPeerOutAnchor()->GetOwnerNode();
  return src != nullptr && (src->GetType() == CONSTANT || src->GetType() == CONSTANTOP);
}

// (node, per input its presence, data type, dims and, for a Const input,
// its data address): what a prepared kernel depends on.
std::string KeyOf(const Node& node, absl::Span<const gert::Tensor* const> inputs) {
  std::string key = absl::StrCat(reinterpret_cast<uintptr_t>(&node));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const gert::Tensor* t = inputs[i];
    if (t == nullptr) {
      absl::StrAppend(&key, "|-");
      continue;
    }
    absl::StrAppend(&key, "|", static_cast<int>(t->GetDataType()), ":", t->GetShape().ToString());
    if (FromConst(node, i)) absl::StrAppend(&key, "@", reinterpret_cast<uintptr_t>(t->GetAddr()));
  }
  return key;
}

GeTensorDesc ConcreteDesc(const GeTensorDesc* like, const gert::Tensor& t) {
  GeTensorDesc d = like != nullptr ? *like : GeTensorDesc();
  const std::vector<int64_t> dims = t.GetShape().ToVector();
  d.SetShape(GeShape(dims));
  d.SetOriginShape(GeShape(dims));
  d.SetDataType(t.GetDataType());
  return d;
}

}  // namespace

StatusOr<std::shared_ptr<ComputeKernelCache::Entry>> ComputeKernelCache::Make(
    const Node& node, absl::Span<const gert::Tensor* const> inputs,
    absl::Span<gert::Tensor* const> outputs) {
  auto entry = std::make_shared<Entry>();
  const KernelDef* def = FindKernel(node.GetType(), kEngineAiCore);
  if (def == nullptr || def->stateless()) return entry;
  const OpDesc& op = *node.GetOpDescBarePtr();
  if (op.GetAllInputsSize() != inputs.size() || op.GetAllOutputsDescSize() != outputs.size()) {
    return entry;
  }
  auto copy = std::make_shared<OpDesc>(op);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == nullptr) continue;
    RETURN_IF_ERROR(copy->UpdateInputDesc(
        static_cast<uint32_t>(i),
        ConcreteDesc(op.GetInputDescBarePtr(static_cast<uint32_t>(i)), *inputs[i])));
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i] == nullptr) return entry;  // kernels here produce every output
    RETURN_IF_ERROR(copy->UpdateOutputDesc(
        static_cast<uint32_t>(i),
        ConcreteDesc(op.GetOutputDescBarePtr(static_cast<uint32_t>(i)), *outputs[i])));
  }
  if (!def->CheckSupported(*copy).ok()) return entry;
  ASSIGN_OR_RETURN(Engine * engine, FindEngine(kEngineAiCore));
  std::unique_ptr<OpKernel> kernel = engine->NewKernel(*def);
  std::vector<gert::Tensor> facts(inputs.size() + outputs.size());
  std::vector<const gert::Tensor*> ptrs(facts.size(), nullptr);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == nullptr) continue;
    facts[i] = *inputs[i];
    if (!FromConst(node, i)) facts[i].SetData(nullptr, 0);
    const GeTensorDesc* d = op.GetInputDescBarePtr(static_cast<uint32_t>(i));
    if (d != nullptr) facts[i].SetFormat(static_cast<Format>(GetPrimaryFormat(d->GetFormat())));
    ptrs[i] = &facts[i];
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    facts[inputs.size() + i] = *outputs[i];
    facts[inputs.size() + i].SetData(nullptr, 0);
    const GeTensorDesc* d = op.GetOutputDescBarePtr(static_cast<uint32_t>(i));
    if (d != nullptr) {
      facts[inputs.size() + i].SetFormat(static_cast<Format>(GetPrimaryFormat(d->GetFormat())));
    }
    ptrs[inputs.size() + i] = &facts[inputs.size() + i];
  }
  gert::TilingContext ctx;
  ctx.SetNode(node.GetName(), node.GetType());
  ctx.SetAttrHolder(copy.get());
  ctx.SetTensors(absl::MakeConstSpan(ptrs.data(), inputs.size()),
                 absl::MakeConstSpan(ptrs.data() + inputs.size(), outputs.size()));
  RETURN_IF_ERROR(Annotate(kernel->Prepare(ctx), "prepare (", kEngineAiCore, "): "));
  for (size_t bytes : ctx.GetWorkspaceSizes()) {
    void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
    if (p == nullptr) return MemoryAllocFailed("workspace of ", bytes, " bytes");
    entry->workspaces.emplace_back(p);
    entry->workspace_ptrs.push_back(p);
  }
  entry->kernel = std::move(kernel);
  entry->op = std::move(copy);
  return entry;
}

Status ComputeKernelCache::TryRun(const Node& node, absl::Span<const gert::IrInstance> ir,
                                  absl::Span<const gert::Tensor* const> inputs,
                                  absl::Span<gert::Tensor* const> outputs, bool* ran) {
  *ran = false;
  const std::string key = KeyOf(node, inputs);
  std::shared_ptr<Entry> entry;
  {
    absl::MutexLock lock(&mu_);
    auto it = index_.find(key);
    if (it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      entry = it->second->second;
      if (entry->kernel != nullptr) ++hits_;
    }
  }
  if (entry == nullptr) {
    ASSIGN_OR_RETURN(entry, Make(node, inputs, outputs));
    absl::MutexLock lock(&mu_);
    if (entry->kernel != nullptr) ++prepares_;
    if (capacity_ > 0 && index_.find(key) == index_.end()) {
      lru_.emplace_front(key, entry);
      index_[key] = lru_.begin();
      while (lru_.size() > capacity_) {
        index_.erase(lru_.back().first);
        lru_.pop_back();
      }
    }
  }
  if (entry->kernel == nullptr) return OkStatus();
  absl::MutexLock run_lock(&entry->run_mu);
  gert::KernelContext ctx;
  ctx.SetNode(node.GetName(), node.GetType());
  ctx.SetAttrHolder(entry->op.get());
  ctx.SetTensors(inputs, outputs);
  ctx.SetIrInputs(ir);
  ctx.SetWorkspaces(entry->workspace_ptrs);
  RETURN_IF_ERROR(entry->kernel->Run(ctx));
  *ran = true;
  return OkStatus();
}

int64_t ComputeKernelCache::prepares() const {
  absl::MutexLock lock(&mu_);
  return prepares_;
}

int64_t ComputeKernelCache::hits() const {
  absl::MutexLock lock(&mu_);
  return hits_;
}

size_t ComputeKernelCache::size() const {
  absl::MutexLock lock(&mu_);
  return lru_.size();
}

}  // namespace ge
