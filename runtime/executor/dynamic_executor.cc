// runtime/executor/dynamic_executor.cc
#include "runtime/executor/dynamic_executor.h"

#include <utility>

#include "absl/strings/str_join.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_types.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/register/inc/register/op_registry.h"
#include "runtime/engine/engine.h"
#include "runtime/executor/io_check.h"
#include "runtime/reference/reference_interpreter.h"

namespace ge {

bool IsInterpreterBuiltinType(const std::string& type) {
  if (type == DATA || type == REFDATA || type == NETOUTPUT || type == CONSTANT) return true;
  // Constant / NoOp are built in unless an op of that name is registered.
  if ((type == CONSTANTOP || type == NOOP) && OpRegistry::Instance().Find(type) == nullptr) {
    return true;
  }
  return false;
}

StatusOr<std::unique_ptr<DynamicExecutor>> DynamicExecutor::Create(
    GeModelPtr model, const DynamicExecutorOptions& options) {
  if (model == nullptr) return ParamInvalid("DynamicExecutor: null model");
  const std::string head = absl::StrCat("model '", model->name, "': ");
  if (model->graph == nullptr) return ParamInvalid(head, "no graph");
  const proto::ModelTaskDef& td = model->task_def;
  for (int i = 0; i < td.input_size(); ++i) {
    RETURN_IF_ERROR(Annotate(CheckIoDef(td.input(i), "input", static_cast<size_t>(i), true), head));
  }
  for (int i = 0; i < td.output_size(); ++i) {
    RETURN_IF_ERROR(
        Annotate(CheckIoDef(td.output(i), "output", static_cast<size_t>(i), true), head));
  }
  size_t data_nodes = 0;
  for (Node* n : model->graph->GetDirectNodePtr()) {
    if (n->GetType() == DATA || n->GetType() == REFDATA) ++data_nodes;
  }
  if (data_nodes != static_cast<size_t>(td.input_size())) {
    return GraphInvalid(head, "the graph has ", data_nodes, " Data nodes but the model declares ",
                        td.input_size(), " inputs");
  }
  OpRegistry& registry = OpRegistry::Instance();
  for (Node* n : model->graph->GetAllNodesPtr()) {
    const std::string& type = n->GetType();
    if (IsInterpreterBuiltinType(type)) continue;
    const OpRegistrationData* reg = registry.Find(type);
    if (reg == nullptr) {
      StatusOr<const OpRegistrationData*> r = registry.Get(type);
      return Annotate(r.ok() ? NotFound("op type ", type, " is not registered") : r.status(), head,
                      "node '", n->GetName(), "': ");
    }
    const OpKernelDef* k = reg->FindKernel(options.engine);
    if (k == nullptr || k->fn == nullptr) {
      std::vector<std::string> engines;
      for (const KernelDef* kd : KernelRegistry::Instance().FindAll(type)) {
        engines.push_back(kd->engine);
      }
      return NotSupported(
          head, "node '", n->GetName(), "' (", type, "): no kernel for engine '", options.engine,
          "' (kernels: ", engines.empty() ? "none" : absl::StrJoin(engines, ", "), ")");
    }
  }
  return std::unique_ptr<DynamicExecutor>(new DynamicExecutor(std::move(model), options));
}

DynamicExecutor::DynamicExecutor(GeModelPtr model, DynamicExecutorOptions options)
    : model_(std::move(model)), options_(std::move(options)) {
  if (options_.kernel_cache_size > 0) {
    cache_ = std::make_unique<ComputeKernelCache>(options_.kernel_cache_size);
  }
}

StatusOr<std::vector<gert::HostTensor>> DynamicExecutor::Run(
    absl::Span<const gert::Tensor* const> inputs) const {
  const proto::ModelTaskDef& td = model_->task_def;
  RETURN_IF_ERROR(
      CheckUserTensorCount(static_cast<size_t>(td.input_size()), inputs.size(), "input"));
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == nullptr) return ParamInvalid("input ", i, " is null");
    RETURN_IF_ERROR(CheckUserTensor(td.input(static_cast<int>(i)), *inputs[i], "input", i));
  }
  ReferenceInterpreter::Options opts;
  opts.engine = options_.engine;
  opts.max_loop_iterations = options_.max_loop_iterations;
  opts.max_subgraph_depth = options_.max_subgraph_depth;
  opts.kernel_provider = cache_.get();
  if (cache_ != nullptr) {
    ASSIGN_OR_RETURN(Engine * compute, FindEngine(kEngineAiCore));
    compute->BeginRun(RunConfig{options_.intra_op_threads});
  }
  ASSIGN_OR_RETURN(std::vector<gert::HostTensor> outs,
                   ReferenceInterpreter::RunWithViews(*model_->graph, inputs, opts));
  if (outs.size() != static_cast<size_t>(td.output_size())) {
    return Internal("model '", model_->name, "': the graph produced ", outs.size(),
                    " outputs, the model declares ", td.output_size());
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    Status st = CheckUserTensor(td.output(static_cast<int>(i)), outs[i].tensor(), "output", i);
    if (!st.ok()) return Internal("model '", model_->name, "': ", st.message());
  }
  return outs;
}

}  // namespace ge
