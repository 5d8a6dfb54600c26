// runtime/executor/dynamic_executor.h
//
// DynamicExecutor: runs a dynamic GeModel (task_def.dynamic == true: unknown
// shapes or data-dependent outputs) by interpreting its MODEL_DEF graph, root
// and subgraphs, with the ReferenceInterpreter and the host-CPU kernels.
//
// Contract
//   * Create checks what the run relies on: a graph is present, every input
//     / output description is valid (dims may be -1), the graph's Data nodes
//     match the input count, and every node of the graph tree (subgraphs
//     included) is either a built-in node (Data, Const, NetOutput, NoOp, ...)
//     or a registered op with a kernel for options.engine: a missing kernel is
//     NotSupported at load, naming the node. Const values must already be
//     materialised in the graph (the loader calls RestoreConstValues).
//   * Run checks the inputs against the descriptions (count, data type, rank,
//     known dims; ParamInvalid naming the input), runs the graph without
//     copying the inputs, and checks the outputs (count, data type, rank and
//     known dims; Internal otherwise). Outputs are freshly allocated.
//   * Descriptions may leave things to run time (io_check.h): dims -1 or
//     [-2] (any rank), data type DT_UNDEFINED (any data type: e.g. the
//     element read out of a sequence, which infer cannot type). Sequence /
//     optional values are DT_VARIANT tensors of gert::HostTensor elements,
//     in and out (metadef/register/inc/gert/tensor.h), as the interpreter
//     represents them.
//   * Nodes the compute engine takes at a run's shapes run on its kernels,
//     prepared on the first run with those shapes and kept in an LRU cache
//     (options.kernel_cache_size entries; compute_kernel_cache.h); the rest
//     run on options.engine's kernels.
//   * Thread safety: Run keeps no state but the kernel cache (guarded);
//     concurrent runs are safe.
//
// Example
//   ASSIGN_OR_RETURN(std::unique_ptr<DynamicExecutor> exec, DynamicExecutor::Create(model));
//   ASSIGN_OR_RETURN(std::vector<gert::HostTensor> out, exec->Run(views));
#ifndef RUNTIME_EXECUTOR_DYNAMIC_EXECUTOR_H_
#define RUNTIME_EXECUTOR_DYNAMIC_EXECUTOR_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "build/model/ge_model.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"
#include "runtime/executor/compute_kernel_cache.h"

namespace ge {

struct DynamicExecutorOptions {
  // Every kernel node runs this engine's kernel.
  std::string engine = "DNN_VM_HOST_CPU";
  // Guards of the interpreter (Loop / While iterations, subgraph nesting).
  int64_t max_loop_iterations = int64_t{1} << 20;
  int32_t max_subgraph_depth = 32;
  // Compute-engine kernels prepared per (node, input shapes) on first use
  // and kept in an LRU cache of this many entries (compute_kernel_cache.h);
  // 0 runs every node on `engine`'s kernels.
  size_t kernel_cache_size = 256;
  // Intra-op threads of the compute engine's kernels; <= 0: one per core.
  int intra_op_threads = 0;
};

class DynamicExecutor {
 public:
  static StatusOr<std::unique_ptr<DynamicExecutor>> Create(
      GeModelPtr model, const DynamicExecutorOptions& options = DynamicExecutorOptions());

  StatusOr<std::vector<gert::HostTensor>> Run(absl::Span<const gert::Tensor* const> inputs) const;

  const GeModel& model() const { return *model_; }
  // The compute-engine kernel cache (null when kernel_cache_size is 0).
  const ComputeKernelCache* kernel_cache() const { return cache_.get(); }

 private:
  DynamicExecutor(GeModelPtr model, DynamicExecutorOptions options);
  GeModelPtr model_;
  DynamicExecutorOptions options_;
  std::unique_ptr<ComputeKernelCache> cache_;
};

// True for node types the interpreter handles itself (no kernel needed).
bool IsInterpreterBuiltinType(const std::string& type);

}  // namespace ge

#endif  // RUNTIME_EXECUTOR_DYNAMIC_EXECUTOR_H_
