// build/task/task_generator.h
//
// TaskGenerator (seed 002 §5.5): turns the planned graph into the TASK_INFO
// task list. One TASK_KERNEL per node that runs a kernel (every node except
// Data / RefData / Const / Constant / NetOutput / NoOp), in node order:
//   engine       op desc engine name, or options.default_engine when empty
//   kernel_name  the kernel key in that engine: the op type (the runtime
//                also reads an empty kernel_name as op_type)
//   op_index     the op desc id; stream_id the op desc stream id (0 until
//                stream allocation lands)
//   input[i]     the producer's TensorRef for every input slot, with dtype and
//                dims of the tensor; an unconnected slot is MEM_ABSENT
//   output[k]    the node's own slots; workspace[w] its ARENA workspaces.
// Generation runs on options.num_threads std::threads over contiguous node
// chunks; each worker checks its nodes (id == position) and allocates and
// fills the tasks of its chunk in one pass, which are appended in node
// order, so the result does not depend on the thread count (same bytes for
// 1, 2, 8 threads). Workers only read the graph (descs via
// OpDesc::PeekOutputDesc). On error (the first by node order) task_def is
// left unchanged.
//
// Example
//   proto::ModelTaskDef def;
//   RETURN_IF_ERROR(TaskGenerator(TaskGenOptions{}).Generate(nodes, mem, &def));
#ifndef BUILD_TASK_TASK_GENERATOR_H_
#define BUILD_TASK_TASK_GENERATOR_H_

#include <string>
#include <vector>

#include "absl/types/span.h"
#include "build/memory/mem_planner.h"
#include "build/proto/model_task.pb.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

struct TaskGenOptions {
  int num_threads = 1;  // <= 0: hardware concurrency
  std::string default_engine = "DNN_VM_HOST_CPU";
  // Nodes per thread below which generation stays on the calling thread.
  // Measured (ladder 100k, 2 cores): one thread 26 ms, two 50 ms; fresh
  // worker threads start with empty allocator caches and every task is ~12
  // allocations, so splitting only pays off for very large graphs.
  size_t min_nodes_per_thread = size_t{1} << 20;
};

// True for node types that produce no kernel task.
bool IsNonKernelType(const std::string& type);

class TaskGenerator {
 public:
  explicit TaskGenerator(TaskGenOptions options = {}) : options_(std::move(options)) {}

  // Appends the kernel tasks of `nodes` (ids == positions, see mem_planner.h;
  // `mem` parallel to `nodes`) to task_def->task, numbering task_id by
  // position in task_def->task.
  Status Generate(absl::Span<Node* const> nodes, const std::vector<NodeMemory>& mem,
                  proto::ModelTaskDef* task_def) const;

 private:
  TaskGenOptions options_;
};

// Fills ref from slot plus dtype / dims of desc.
void FillTensorRef(const TensorSlot& slot, const GeTensorDesc& desc, proto::TensorRef* ref);

}  // namespace ge

#endif  // BUILD_TASK_TASK_GENERATOR_H_
