// runtime/executor/compute_kernel_cache.h
//
// ComputeKernelCache: the dynamic executor's compute-engine kernels. A
// dynamic model's nodes learn their shapes only at run time, so their
// compute-engine kernels (AIcoreEngine) are prepared on the first run with
// a new shape: on a miss, the node's op desc is copied with the run's
// concrete shapes, the kernel's declaration checks it (CheckSupported), and
// a kernel is created and prepared (inputs produced by Const nodes with
// their values, the others without) with its workspaces allocated. The
// prepared kernel is kept under the key (node, input shapes and data types)
// in a least-recently-used cache of `capacity` entries, so a repeated shape
// costs what the static path costs. A node or shape the compute engine does
// not take is remembered too (an entry without a kernel) and runs on the
// host-CPU kernel.
//
// Thread safety: TryRun may be called from concurrent runs; the cache is
// guarded by a mutex and each entry's Run by its own (a prepared kernel
// binds its buffers per Run), entries are shared_ptr so eviction while one
// runs is safe.
//
// Example
//   ComputeKernelCache cache(256);
//   ReferenceInterpreter::Options opts;
//   opts.kernel_provider = &cache;
#ifndef RUNTIME_EXECUTOR_COMPUTE_KERNEL_CACHE_H_
#define RUNTIME_EXECUTOR_COMPUTE_KERNEL_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "runtime/reference/reference_interpreter.h"

namespace ge {

class ComputeKernelCache final : public KernelProvider {
 public:
  // capacity 0: nothing is kept (every run prepares again).
  explicit ComputeKernelCache(size_t capacity) : capacity_(capacity) {}

  Status TryRun(const Node& node, absl::Span<const gert::IrInstance> ir,
                absl::Span<const gert::Tensor* const> inputs,
                absl::Span<gert::Tensor* const> outputs, bool* ran) override;

  // Counters: kernels prepared (misses that made a kernel), runs served
  // from the cache, entries held.
  int64_t prepares() const;
  int64_t hits() const;
  size_t size() const;

 private:
  struct Entry;
  // Prepares (or declines) the node for these inputs.
  StatusOr<std::shared_ptr<Entry>> Make(const Node& node,
                                        absl::Span<const gert::Tensor* const> inputs,
                                        absl::Span<gert::Tensor* const> outputs);

  const size_t capacity_;
  mutable absl::Mutex mu_;
  std::list<std::pair<std::string, std::shared_ptr<Entry>>> lru_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string,
                      std::list<std::pair<std::string, std::shared_ptr<Entry>>>::iterator>
      index_ ABSL_GUARDED_BY(mu_);
  int64_t prepares_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t hits_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace ge

#endif  // RUNTIME_EXECUTOR_COMPUTE_KERNEL_CACHE_H_
