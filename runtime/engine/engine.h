// runtime/engine/engine.h
//
// The runtime's seam to execution back ends (DESIGN.md "Engines on this
// hardware"; ONNX Runtime's IExecutionProvider, XLA's StreamExecutor
// platforms). An engine owns:
//   * its kernel registry: the kernels registered for its name
//     (REG_KERNEL(Type, name), metadef/register/inc/register/kernel_registry.h);
//   * its memory: the kind of memory its kernels read and write, and the
//     allocator for it (prepared state, arenas);
//   * data transfer between its memory and host memory;
//   * run set-up on the calling thread (the compute engine's intra-op
//     threads).
// The executors reach kernels, memory and threads only through this
// interface; a CUDA engine plugs into the same seam (device memory, copies
// as transfers, streams and events later).
//
// The built-in engines: the compute engine (AIcoreEngine: oneDNN kernels on
// the OpenMP pool), the host-CPU engine (DNN_VM_HOST_CPU) and runtime
// services (DNN_VM_RTS). All three use host memory on this hardware.
//
// Example
//   ASSIGN_OR_RETURN(Engine * e, FindEngine(task.engine()));
//   const KernelDef* k = e->FindKernel(op_type);
//   e->BeginRun(RunConfig{.intra_op_threads = 2});
#ifndef RUNTIME_ENGINE_ENGINE_H_
#define RUNTIME_ENGINE_ENGINE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/register/kernel_registry.h"

namespace ge {

enum class MemoryKind { kHost, kDevice };

class Allocator {
 public:
  virtual ~Allocator() = default;
  // `bytes` of memory aligned to `alignment` (a power of two); null on
  // failure.
  virtual void* Allocate(size_t bytes, size_t alignment) = 0;
  virtual void Free(void* p) = 0;
};

// What a run asks of the engines, on the thread that runs the model.
struct RunConfig {
  // Intra-op threads; <= 0: one per core.
  int intra_op_threads = 0;
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual absl::string_view name() const = 0;
  // The engine's kernel for `op_type`, or null.
  const KernelDef* FindKernel(absl::string_view op_type) const {
    return KernelRegistry::Instance().Find(op_type, name());
  }
  // A kernel instance of `def` (one of this engine's, stateful) for one
  // node: the registration's own, or one the engine adapts to the machine.
  virtual std::unique_ptr<OpKernel> NewKernel(const KernelDef& def) const {
    return def.NewKernel();
  }
  // The op types it has kernels for, sorted (its op info store).
  std::vector<std::string> OpTypes() const { return KernelRegistry::Instance().OpTypes(name()); }
  virtual MemoryKind memory_kind() const { return MemoryKind::kHost; }
  virtual Allocator& allocator() = 0;
  // Copies between this engine's memory and host memory.
  virtual Status CopyToHost(void* host_dst, const void* src, size_t bytes) const;
  virtual Status CopyFromHost(void* dst, const void* host_src, size_t bytes) const;
  // Called before a model's tasks run on this thread.
  virtual void BeginRun(const RunConfig& config) {}
};

// The built-in engine named `name`; NotFound listing the engines.
StatusOr<Engine*> FindEngine(absl::string_view name);
// Every built-in engine, in placement priority order (compute engine first).
std::vector<Engine*> AllEngines();

// The host allocator (64-byte aligned malloc).
Allocator& HostAllocator();

}  // namespace ge

#endif  // RUNTIME_ENGINE_ENGINE_H_
