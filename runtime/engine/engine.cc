// runtime/engine/engine.cc
#include "runtime/engine/engine.h"

#include <cstdlib>
#include <cstring>

#include "absl/strings/str_join.h"
#include "ops/compute/common/bf16_emulation.h"
#include "ops/compute/common/dnnl_common.h"

namespace ge {
namespace {

class HostMemoryAllocator final : public Allocator {
 public:
  void* Allocate(size_t bytes, size_t alignment) override {
    if (alignment < sizeof(void*)) alignment = sizeof(void*);
    const size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    return std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
  }
  void Free(void* p) override { std::free(p); }
};

class HostMemoryEngine : public Engine {
 public:
  explicit HostMemoryEngine(const char* name) : name_(name) {}
  absl::string_view name() const override { return name_; }
  Allocator& allocator() override { return HostAllocator(); }

 private:
  const char* name_;
};

// The compute engine: oneDNN and our threaded kernels on the OpenMP pool
// of the calling thread.
class ComputeEngine final : public HostMemoryEngine {
 public:
  ComputeEngine() : HostMemoryEngine(kEngineAiCore) {}
  void BeginRun(const RunConfig& config) override {
    ops::compute::SetIntraOpThreads(config.intra_op_threads);
  }
  // A kernel that takes BF16 runs BF16 nodes through FLOAT where the CPU
  // lacks native BF16 (bf16_emulation.h): the OM is the same everywhere.
  std::unique_ptr<OpKernel> NewKernel(const KernelDef& def) const override {
    return ops::compute::NewComputeKernel(def);
  }
};

}  // namespace

Status Engine::CopyToHost(void* host_dst, const void* src, size_t bytes) const {
  if (bytes > 0) std::memcpy(host_dst, src, bytes);
  return OkStatus();
}

Status Engine::CopyFromHost(void* dst, const void* host_src, size_t bytes) const {
  if (bytes > 0) std::memcpy(dst, host_src, bytes);
  return OkStatus();
}

Allocator& HostAllocator() {
  static HostMemoryAllocator* const a = new HostMemoryAllocator();
  return *a;
}

std::vector<Engine*> AllEngines() {
  static Engine* const compute = new ComputeEngine();
  static Engine* const host = new HostMemoryEngine(kEngineHostCpu);
  static Engine* const rts = new HostMemoryEngine(kEngineRts);
  return {compute, host, rts};
}

StatusOr<Engine*> FindEngine(absl::string_view name) {
  std::vector<Engine*> all = AllEngines();
  for (Engine* e : all) {
    if (e->name() == name) return e;
  }
  std::vector<std::string> names;
  for (Engine* e : all) names.emplace_back(e->name());
  return NotFound("no engine '", name, "' (engines: ", absl::StrJoin(names, ", "), ")");
}

}  // namespace ge
