// runtime/executor/static_executor_test.cc
//
// The static executor on hand-built models (a graph + a hand-written task
// list): results equal the reference interpreter's, user buffers are bound
// per run, and every load-time check rejects a broken task list with a
// Status naming the task.
#include "runtime/executor/static_executor.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "build/model/ge_model.h"
#include "build/proto/model_task.pb.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"
#include "runtime/reference/reference_interpreter.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using reftest::F32;
using reftest::ToF32;

proto::TensorRef Ref(proto::MemKind kind, uint64_t offset, std::vector<int64_t> dims,
                     uint32_t index = 0, DataType dt = DT_FLOAT) {
  proto::TensorRef r;
  r.set_kind(kind);
  r.set_index(index);
  r.set_offset(offset);
  int64_t n = 1;
  for (int64_t d : dims) {
    r.add_dims(d);
    n *= d;
  }
  r.set_size(gert::HostStorageBytes(dt, n).value());
  r.set_data_type(dt);
  return r;
}

proto::ModelIoDef Io(const std::string& name, std::vector<int64_t> dims) {
  proto::ModelIoDef io;
  io.set_name(name);
  io.set_data_type(DT_FLOAT);
  int64_t n = 1;
  for (int64_t d : dims) {
    io.add_dims(d);
    n *= d;
  }
  io.set_size(static_cast<uint64_t>(n) * 4);
  return io;
}

// `bytes` (at most 64) as the model's 64-byte weights blob, zero padded.
void SetWeights(GeModel* model, const void* bytes, size_t n) {
  void* w = nullptr;
  EXPECT_EQ(posix_memalign(&w, 64, 64), 0);
  std::memset(w, 0, 64);
  std::memcpy(w, bytes, std::min<size_t>(n, 64));
  model->weights.owner =
      std::shared_ptr<const void>(w, [](const void* p) { std::free(const_cast<void*>(p)); });
  model->weights.data = static_cast<const uint8_t*>(w);
  model->weights.size = 64;
}

// The weights blob of the test models: c = {1, -2, 3, -4, 5, -6} (f32) at
// offset 0 of a 64-byte aligned block.
void SetConstWeights(GeModel* model) {
  const float cv[6] = {1, -2, 3, -4, 5, -6};
  SetWeights(model, cv, sizeof(cv));
}

// Appends TASK_KERNEL `id` running `node` (op type `type`) on the host CPU.
proto::TaskDef* AddKernelTask(proto::ModelTaskDef& td, uint32_t id, const NodePtr& node,
                              const std::string& type) {
  proto::TaskDef* t = td.add_task();
  t->set_task_id(id);
  t->set_type(proto::TASK_KERNEL);
  t->set_node_name(node->GetName());
  t->set_op_type(type);
  t->set_op_index(node->GetOpDescBarePtr()->GetId());
  t->set_engine(kEngineHostCpu);
  return t;
}

// A GeModel `name` over `graph` with the test weights and a one-stream task
// list of `arena_bytes` whose input is x [2, 3] and output `output` of
// `output_dims`; the caller adds the tasks.
std::shared_ptr<GeModel> StartModel(const std::string& name, ComputeGraphPtr graph,
                                    int64_t arena_bytes, const std::string& output,
                                    std::vector<int64_t> output_dims = {2, 3}) {
  auto model = std::make_shared<GeModel>();
  model->name = name;
  model->graph = std::move(graph);
  SetConstWeights(model.get());
  proto::ModelTaskDef& td = model->task_def;
  td.set_memory_size(arena_bytes);
  td.set_weight_size(64);
  td.set_stream_num(1);
  *td.add_input() = Io("x", {2, 3});
  *td.add_output() = Io(output, std::move(output_dims));
  return model;
}

// y = Relu(x + c), x and c of [2, 3]:
//   task 0  Add   MODEL_INPUT 0, WEIGHTS 0      -> ARENA 0
//   task 1  Relu  ARENA 0                       -> MODEL_OUTPUT 0
struct AddReluModel {
  AddReluModel() : g("add_relu") {
    x = g.Data("x", 0);
    c = g.Const("c", F32({2, 3}, {1, -2, 3, -4, 5, -6}));
    add = g.Op("add", "Add", {x, c});
    relu = g.Op("relu", "Relu", {add});
    g.NetOutput({relu});

    model = StartModel("add_relu", g.graph(), 64, "relu:0");
    proto::ModelTaskDef& td = model->task_def;
    proto::TaskDef* t0 = AddKernelTask(td, 0, add, "Add");
    *t0->add_input() = Ref(proto::MEM_MODEL_INPUT, 0, {2, 3}, 0);
    *t0->add_input() = Ref(proto::MEM_WEIGHTS, 0, {2, 3});
    *t0->add_output() = Ref(proto::MEM_ARENA, 0, {2, 3});
    proto::TaskDef* t1 = AddKernelTask(td, 1, relu, "Relu");
    *t1->add_input() = Ref(proto::MEM_ARENA, 0, {2, 3});
    *t1->add_output() = Ref(proto::MEM_MODEL_OUTPUT, 0, {2, 3}, 0);
  }

  proto::TaskDef* task(int i) { return model->task_def.mutable_task(i); }

  reftest::TestGraph g;
  NodePtr x, c, add, relu;
  GeModelPtr model;
};

StatusOr<std::vector<float>> RunOnce(StaticExecutor& exec, std::vector<float> xv) {
  gert::Tensor in(gert::Shape{2, 3}, DT_FLOAT, xv.data(), xv.size() * 4);
  std::vector<float> out(6, -99.f);
  gert::Tensor outt(gert::Shape{2, 3}, DT_FLOAT, out.data(), out.size() * 4);
  RETURN_IF_ERROR(exec.Run(absl::MakeConstSpan(&in, 1), absl::MakeSpan(&outt, 1)));
  return out;
}

Status LoadError(const GeModelPtr& model, const StaticExecutorOptions& opts = {}) {
  StatusOr<std::unique_ptr<StaticExecutor>> e = StaticExecutor::Create(model, opts);
  return e.status();
}

TEST(StaticExecutorTest, RunsLikeTheReferenceInterpreter) {
  AddReluModel m;
  auto exec = StaticExecutor::Create(m.model);
  ASSERT_TRUE(exec.ok()) << exec.status();
  EXPECT_EQ((*exec)->kernel_task_count(), 2u);
  EXPECT_EQ((*exec)->arena_bytes(), 64u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>((*exec)->arena()) % 64, 0u);

  const std::vector<float> xv = {0.5f, 1, -4, 2, -6, 7};
  auto got = RunOnce(**exec, xv);
  ASSERT_TRUE(got.ok()) << got.status();
  auto ref = ReferenceInterpreter::Run(*m.g.graph(), reftest::Inputs(F32({2, 3}, xv)));
  ASSERT_TRUE(ref.ok()) << ref.status();
  EXPECT_EQ(*got, ToF32((*ref)[0]));
  EXPECT_EQ(*got, (std::vector<float>{1.5f, 0, 0, 0, 0, 1}));
}

TEST(StaticExecutorTest, RebindsUserBuffersEveryRun) {
  AddReluModel m;
  auto exec = StaticExecutor::Create(m.model);
  ASSERT_TRUE(exec.ok()) << exec.status();
  auto a = RunOnce(**exec, {1, 2, 3, 4, 5, 6});
  auto b = RunOnce(**exec, {0, 0, 0, 0, 0, 0});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, (std::vector<float>{2, 0, 6, 0, 10, 0}));
  EXPECT_EQ(*b, (std::vector<float>{1, 0, 3, 0, 5, 0}));
}

// Equal input refs share one view and one patch: y = x + x rebinds the
// user's buffer on every run, and a third task reading the same ref with
// other dims gets its own view.
TEST(StaticExecutorTest, SharedInputViewsRebindEveryRun) {
  reftest::TestGraph g("double");
  NodePtr x = g.Data("x", 0);
  NodePtr add = g.Op("add", "Add", {x, x});
  NodePtr relu = g.Op("relu", "Relu", {add});
  g.NetOutput({relu});
  auto model = std::make_shared<GeModel>();
  model->name = "double";
  model->graph = g.graph();
  proto::ModelTaskDef& td = model->task_def;
  td.set_memory_size(64);
  td.set_stream_num(1);
  *td.add_input() = Io("x", {2, 3});
  *td.add_output() = Io("relu:0", {2, 3});
  proto::TaskDef* t0 = AddKernelTask(td, 0, add, "Add");
  *t0->add_input() = Ref(proto::MEM_MODEL_INPUT, 0, {2, 3}, 0);
  *t0->add_input() = Ref(proto::MEM_MODEL_INPUT, 0, {2, 3}, 0);
  *t0->add_output() = Ref(proto::MEM_ARENA, 0, {2, 3});
  proto::TaskDef* t1 = AddKernelTask(td, 1, relu, "Relu");
  *t1->add_input() = Ref(proto::MEM_ARENA, 0, {2, 3});
  *t1->add_output() = Ref(proto::MEM_MODEL_OUTPUT, 0, {2, 3}, 0);

  auto exec = StaticExecutor::Create(model);
  ASSERT_TRUE(exec.ok()) << exec.status();
  auto a = RunOnce(**exec, {1, -2, 3, -4, 5, -6});
  auto b = RunOnce(**exec, {-1, 2, -3, 4, -5, 6});
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(*a, (std::vector<float>{2, 0, 6, 0, 10, 0}));
  EXPECT_EQ(*b, (std::vector<float>{0, 4, 0, 8, 0, 12}));

  // The same bytes read as [6] by Relu: a view of its own, so the declared
  // [2, 3] output no longer matches what the op infers.
  t1->mutable_input(0)->clear_dims();
  t1->mutable_input(0)->add_dims(6);
  Status st = LoadError(model);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid) << st;
  EXPECT_NE(st.message().find("task 1"), std::string::npos) << st;
  EXPECT_NE(st.message().find("declared [2,3] but the op infers [6]"), std::string::npos) << st;
}

TEST(StaticExecutorTest, RejectsBadUserTensors) {
  AddReluModel m;
  auto exec = StaticExecutor::Create(m.model);
  ASSERT_TRUE(exec.ok()) << exec.status();
  std::vector<float> buf(6), out(6);
  gert::Tensor o(gert::Shape{2, 3}, DT_FLOAT, out.data(), 24);
  // Count.
  Status st = (*exec)->Run({}, absl::MakeSpan(&o, 1));
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find("1 inputs, got 0"), std::string::npos) << st;
  // Data type.
  gert::Tensor bad_dt(gert::Shape{2, 3}, DT_INT32, buf.data(), 24);
  st = (*exec)->Run(absl::MakeConstSpan(&bad_dt, 1), absl::MakeSpan(&o, 1));
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find("input 0 'x': data type is DT_INT32"), std::string::npos) << st;
  // Shape.
  gert::Tensor bad_shape(gert::Shape{3, 2}, DT_FLOAT, buf.data(), 24);
  st = (*exec)->Run(absl::MakeConstSpan(&bad_shape, 1), absl::MakeSpan(&o, 1));
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find("shape is [3,2], the model expects [2,3]"), std::string::npos) << st;
  // Buffer too small / null.
  gert::Tensor small(gert::Shape{2, 3}, DT_FLOAT, buf.data(), 20);
  st = (*exec)->Run(absl::MakeConstSpan(&small, 1), absl::MakeSpan(&o, 1));
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid) << st;
  gert::Tensor null_in(gert::Shape{2, 3}, DT_FLOAT, nullptr, 24);
  st = (*exec)->Run(absl::MakeConstSpan(&null_in, 1), absl::MakeSpan(&o, 1));
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid) << st;
  // Output checked too.
  gert::Tensor in(gert::Shape{2, 3}, DT_FLOAT, buf.data(), 24);
  gert::Tensor bad_out(gert::Shape{6}, DT_FLOAT, out.data(), 24);
  st = (*exec)->Run(absl::MakeConstSpan(&in, 1), absl::MakeSpan(&bad_out, 1));
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find("output 0 'relu:0'"), std::string::npos) << st;
}

TEST(StaticExecutorTest, MissingNodeOrWrongTypeFailsAtLoad) {
  {
    AddReluModel m;
    m.task(0)->set_op_index(999);
    Status st = LoadError(m.model);
    EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotFound) << st;
    EXPECT_NE(st.message().find("op_index 999"), std::string::npos) << st;
  }
  {
    AddReluModel m;
    m.task(0)->set_op_index(m.relu->GetOpDescBarePtr()->GetId());
    Status st = LoadError(m.model);
    EXPECT_EQ(GetErrorCode(st), ErrorCode::kGraphInvalid) << st;
    EXPECT_NE(st.message().find("of type Relu, not Add"), std::string::npos) << st;
  }
}

// A kernel task without an output its op declares (the infer function
// wrote through a null output shape; found by
// //testing/fuzz:onnx_mutation_fuzz --target=om).
TEST(StaticExecutorTest, TaskOutputCountMustMatchItsOp) {
  AddReluModel m;
  m.task(1)->mutable_output()->RemoveLast();
  Status st = LoadError(m.model);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid) << st;
  EXPECT_NE(st.message().find("task 1"), std::string::npos) << st;
  EXPECT_NE(st.message().find("0 outputs, but op 'relu' (Relu) has 1"), std::string::npos) << st;
}

// A task record counts its refs in 16 bits: more is an error naming the
// task, not a wrapped count.
TEST(StaticExecutorTest, TooManyRefsInOneTaskFailAtLoad) {
  AddReluModel m;
  proto::TaskDef* relu = m.task(1);
  const proto::TensorRef in = relu->input(0);
  while (relu->input_size() <= 65535) *relu->add_input() = in;
  Status st = LoadError(m.model);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kOutOfRange) << st;
  EXPECT_NE(st.message().find("task 1 (TASK_KERNEL, node 'relu'"), std::string::npos) << st;
  EXPECT_NE(st.message().find("65536 inputs"), std::string::npos) << st;
  EXPECT_NE(st.message().find("at most 65535"), std::string::npos) << st;
}

TEST(StaticExecutorTest, MissingKernelFailsAtLoadNotAtRun) {
  AddReluModel m;
  m.task(1)->set_engine("NoSuchEngine");
  Status st = LoadError(m.model);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotSupported) << st;
  EXPECT_NE(st.message().find("task 1"), std::string::npos) << st;
  EXPECT_NE(st.message().find("no kernel for engine 'NoSuchEngine'"), std::string::npos) << st;
  EXPECT_NE(st.message().find(kEngineHostCpu), std::string::npos) << st;  // lists what exists

  AddReluModel m2;
  m2.task(1)->set_kernel_name("NoSuchKernelOp");
  st = LoadError(m2.model);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotFound) << st;
}

TEST(StaticExecutorTest, RefsOutsideTheirRegionFailAtLoad) {
  struct Case {
    const char* what;
    std::function<void(AddReluModel&)> mutate;
    ErrorCode code;
    const char* text;
  };
  const std::vector<Case> cases = {
      {"arena overflow", [](AddReluModel& m) { m.task(0)->mutable_output(0)->set_offset(64); },
       ErrorCode::kOutOfRange, "exceeds memory_size 64"},
      {"arena offset wraps",
       [](AddReluModel& m) { m.task(0)->mutable_output(0)->set_offset(~uint64_t{0} - 7); },
       ErrorCode::kOutOfRange, "exceeds memory_size"},
      {"misaligned",
       [](AddReluModel& m) {
         m.model->task_def.set_memory_size(128);
         m.task(0)->mutable_output(0)->set_offset(4);
       },
       ErrorCode::kParamInvalid, "not 64-byte aligned"},
      {"weights overflow", [](AddReluModel& m) { m.task(0)->mutable_input(1)->set_offset(48); },
       ErrorCode::kOutOfRange, "exceeds the weights"},
      {"input index", [](AddReluModel& m) { m.task(0)->mutable_input(0)->set_index(3); },
       ErrorCode::kOutOfRange, "index 3 but the model has 1 inputs"},
      {"input range", [](AddReluModel& m) { m.task(0)->mutable_input(0)->set_offset(4); },
       ErrorCode::kOutOfRange, "exceeds the 24 bytes of model input 0"},
      {"write to weights",
       [](AddReluModel& m) {
         *m.task(0)->mutable_output(0) = Ref(proto::MEM_WEIGHTS, 0, {2, 3});
       },
       ErrorCode::kParamInvalid, "weights are read-only"},
      {"write to input",
       [](AddReluModel& m) {
         *m.task(1)->mutable_output(0) = Ref(proto::MEM_MODEL_INPUT, 0, {2, 3});
       },
       ErrorCode::kParamInvalid, "model inputs are read-only"},
      {"size below dims", [](AddReluModel& m) { m.task(0)->mutable_output(0)->set_size(20); },
       ErrorCode::kParamInvalid, "smaller than the 24 bytes"},
      {"unknown dim", [](AddReluModel& m) { m.task(0)->mutable_output(0)->set_dims(0, -1); },
       ErrorCode::kParamInvalid, "not static"},
      {"bad dtype", [](AddReluModel& m) { m.task(0)->mutable_output(0)->set_data_type(5); },
       ErrorCode::kParamInvalid, "invalid data type 5"},
      {"string dtype",
       [](AddReluModel& m) { m.task(0)->mutable_output(0)->set_data_type(DT_STRING); },
       ErrorCode::kNotSupported, "cannot live in a static model"},
      {"bad kind",
       [](AddReluModel& m) {
         m.task(0)->mutable_output(0)->set_kind(static_cast<proto::MemKind>(42));
       },
       ErrorCode::kParamInvalid, "invalid memory kind 42"},
      {"too many dims",
       [](AddReluModel& m) {
         for (int i = 0; i < 30; ++i) m.task(0)->mutable_output(0)->add_dims(1);
       },
       ErrorCode::kParamInvalid, "task 0"},
      {"declared shape disagrees with infer",
       [](AddReluModel& m) { *m.task(0)->mutable_output(0) = Ref(proto::MEM_ARENA, 0, {6}); },
       ErrorCode::kParamInvalid, "declared [6] but the op infers [2,3]"},
      {"declared dtype disagrees with infer",
       [](AddReluModel& m) { m.task(1)->mutable_output(0)->set_data_type(DT_INT32); },
       ErrorCode::kParamInvalid, "but the op infers DT_FLOAT"},
      {"required input absent",
       [](AddReluModel& m) { m.task(0)->mutable_input(1)->set_kind(proto::MEM_ABSENT); },
       ErrorCode::kGraphInvalid, "absent but required"},
      {"too many inputs",
       [](AddReluModel& m) {
         *m.task(1)->add_input() = Ref(proto::MEM_ARENA, 0, {2, 3});
       },
       ErrorCode::kGraphInvalid, "task 1"},
      {"stream id", [](AddReluModel& m) { m.task(1)->set_stream_id(4); }, ErrorCode::kOutOfRange,
       "stream_id 4"},
      {"workspace",
       [](AddReluModel& m) { *m.task(1)->add_workspace() = Ref(proto::MEM_WEIGHTS, 0, {1}); },
       ErrorCode::kParamInvalid, "workspace 0"},
      {"label task", [](AddReluModel& m) { m.task(1)->set_type(proto::TASK_LABEL_SET); },
       ErrorCode::kNotSupported, "not supported by the static executor"},
      {"event id", [](AddReluModel& m) { m.task(1)->set_type(proto::TASK_EVENT_RECORD); },
       ErrorCode::kOutOfRange, "event_id 0 >= event_num 0"},
      {"memcpy shape",
       [](AddReluModel& m) {
         m.task(1)->set_type(proto::TASK_MEMCPY);
         m.task(1)->add_input()->set_kind(proto::MEM_ABSENT);
       },
       ErrorCode::kParamInvalid, "one input and one output"},
      {"io def", [](AddReluModel& m) { m.model->task_def.mutable_input(0)->set_size(4); },
       ErrorCode::kParamInvalid, "model input 0 'x'"},
      {"io dim", [](AddReluModel& m) { m.model->task_def.mutable_output(0)->set_dims(1, -1); },
       ErrorCode::kParamInvalid, "model output 0"},
  };
  for (const Case& c : cases) {
    AddReluModel m;
    c.mutate(m);
    Status st = LoadError(m.model);
    EXPECT_EQ(GetErrorCode(st), c.code) << c.what << ": " << st;
    EXPECT_NE(st.message().find(c.text), std::string::npos) << c.what << ": " << st;
  }
}

TEST(StaticExecutorTest, ArenaLimitAndDynamicModelsAreRejected) {
  AddReluModel m;
  m.model->task_def.set_memory_size(uint64_t{1} << 62);
  Status st = LoadError(m.model);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kMemoryAllocFailed) << st;

  AddReluModel m2;
  StaticExecutorOptions opts;
  opts.max_arena_bytes = 32;
  st = LoadError(m2.model, opts);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kMemoryAllocFailed) << st;

  AddReluModel m3;
  m3.model->task_def.set_dynamic(true);
  st = LoadError(m3.model);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid) << st;
  EXPECT_NE(st.message().find("dynamic"), std::string::npos);

  EXPECT_FALSE(StaticExecutor::Create(nullptr).ok());
}

TEST(StaticExecutorTest, MemcpyAndEventTasks) {
  // y0 = Relu(x + c); y1 = copy of x (a model output that is a model input).
  AddReluModel m;
  proto::ModelTaskDef& td = m.model->task_def;
  td.set_event_num(1);
  *td.add_output() = Io("x:0", {2, 3});
  proto::TaskDef* rec = td.add_task();
  rec->set_type(proto::TASK_EVENT_RECORD);
  rec->set_event_id(0);
  proto::TaskDef* cp = td.add_task();
  cp->set_type(proto::TASK_MEMCPY);
  *cp->add_input() = Ref(proto::MEM_MODEL_INPUT, 0, {2, 3}, 0);
  *cp->add_output() = Ref(proto::MEM_MODEL_OUTPUT, 0, {2, 3}, 1);
  auto exec = StaticExecutor::Create(m.model);
  ASSERT_TRUE(exec.ok()) << exec.status();
  EXPECT_EQ((*exec)->kernel_task_count(), 2u);

  std::vector<float> xv = {1, 2, 3, 4, 5, 6}, y0(6), y1(6);
  gert::Tensor in(gert::Shape{2, 3}, DT_FLOAT, xv.data(), 24);
  gert::Tensor outs[2] = {gert::Tensor(gert::Shape{2, 3}, DT_FLOAT, y0.data(), 24),
                          gert::Tensor(gert::Shape{2, 3}, DT_FLOAT, y1.data(), 24)};
  ASSERT_TRUE((*exec)->Run(absl::MakeConstSpan(&in, 1), absl::MakeSpan(outs, 2)).ok());
  EXPECT_EQ(y0, (std::vector<float>{2, 0, 6, 0, 10, 0}));
  EXPECT_EQ(y1, xv);
}

}  // namespace
}  // namespace ge

namespace ge {
namespace {

absl::Span<const uint8_t> AsSpan(const std::string& s) {
  return absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// The parts of a model without its graph: the op descs only.
StaticModelParts PartsWithoutGraph(const GeModelPtr& model) {
  StaticModelParts parts;
  parts.name = model->name;
  parts.graph_name = model->graph->GetName();
  parts.task_def = &model->task_def;
  parts.weights = &model->weights;
  for (const Node* n : model->graph->GetDirectNodePtr()) parts.ops.push_back(n->GetOpDescBarePtr());
  parts.keepalive = model;
  return parts;
}

TEST(StaticExecutorPartsTest, RunsFromOpDescsWithoutAGraph) {
  AddReluModel m;
  StaticModelParts parts = PartsWithoutGraph(m.model);
  // Ops in any order: found by id.
  std::reverse(parts.ops.begin(), parts.ops.end());
  parts.ops.push_back(nullptr);
  auto exec = StaticExecutor::Create(std::move(parts));
  ASSERT_TRUE(exec.ok()) << exec.status();
  EXPECT_EQ((*exec)->kernel_task_count(), 2u);
  auto got = RunOnce(**exec, {0.5f, 1, -4, 2, -6, 7});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, (std::vector<float>{1.5f, 0, 0, 0, 0, 1}));
  EXPECT_EQ((*exec)->task_def().task_size(), 2);

  // The checks against the ops are the same: a missing op names the graph.
  AddReluModel m2;
  m2.task(0)->set_op_index(999);
  auto bad = StaticExecutor::Create(PartsWithoutGraph(m2.model));
  EXPECT_EQ(GetErrorCode(bad.status()), ErrorCode::kNotFound) << bad.status();
  EXPECT_NE(bad.status().message().find("is not a node of graph 'add_relu'"), std::string::npos)
      << bad.status();
  StaticModelParts empty;
  EXPECT_EQ(GetErrorCode(StaticExecutor::Create(std::move(empty)).status()),
            ErrorCode::kParamInvalid);
}

// x -> Add(x, c) -> Relu -> Add(., c) -> Relu -> y, all [2, 3]: the second
// Add / Relu repeat the first ones' contexts (their verdicts are reused).
struct RepeatedOpsModel {
  RepeatedOpsModel() : g("repeated") {
    x = g.Data("x", 0);
    c = g.Const("c", F32({2, 3}, {1, -2, 3, -4, 5, -6}));
    add1 = g.Op("add1", "Add", {x, c});
    relu1 = g.Op("relu1", "Relu", {add1});
    add2 = g.Op("add2", "Add", {relu1, c});
    relu2 = g.Op("relu2", "Relu", {add2});
    g.NetOutput({relu2});
    model = StartModel("repeated", g.graph(), 128, "relu2:0");
    proto::ModelTaskDef& td = model->task_def;
    // The arena slots alternate (0, 64, 0): equal output refs share views.
    proto::TaskDef* t0 = AddKernelTask(td, 0, add1, "Add");
    *t0->add_input() = Ref(proto::MEM_MODEL_INPUT, 0, {2, 3}, 0);
    *t0->add_input() = Ref(proto::MEM_WEIGHTS, 0, {2, 3});
    *t0->add_output() = Ref(proto::MEM_ARENA, 0, {2, 3});
    proto::TaskDef* t1 = AddKernelTask(td, 1, relu1, "Relu");
    *t1->add_input() = Ref(proto::MEM_ARENA, 0, {2, 3});
    *t1->add_output() = Ref(proto::MEM_ARENA, 64, {2, 3});
    proto::TaskDef* t2 = AddKernelTask(td, 2, add2, "Add");
    *t2->add_input() = Ref(proto::MEM_ARENA, 64, {2, 3});
    *t2->add_input() = Ref(proto::MEM_WEIGHTS, 0, {2, 3});
    *t2->add_output() = Ref(proto::MEM_ARENA, 0, {2, 3});
    proto::TaskDef* t3 = AddKernelTask(td, 3, relu2, "Relu");
    *t3->add_input() = Ref(proto::MEM_ARENA, 0, {2, 3});
    *t3->add_output() = Ref(proto::MEM_MODEL_OUTPUT, 0, {2, 3}, 0);
  }
  proto::TaskDef* task(int i) { return model->task_def.mutable_task(i); }

  reftest::TestGraph g;
  NodePtr x, c, add1, relu1, add2, relu2;
  GeModelPtr model;
};

TEST(StaticExecutorPartsTest, RepeatedOpsRunLikeTheReference) {
  RepeatedOpsModel m;
  auto exec = StaticExecutor::Create(m.model);
  ASSERT_TRUE(exec.ok()) << exec.status();
  EXPECT_EQ((*exec)->kernel_task_count(), 4u);
  for (const std::vector<float>& xv :
       {std::vector<float>{0.5f, 1, -4, 2, -6, 7}, std::vector<float>{3, 3, 3, 3, 3, 3}}) {
    auto got = RunOnce(**exec, xv);
    ASSERT_TRUE(got.ok()) << got.status();
    auto ref = ReferenceInterpreter::Run(*m.g.graph(), reftest::Inputs(F32({2, 3}, xv)));
    ASSERT_TRUE(ref.ok()) << ref.status();
    EXPECT_EQ(*got, ToF32((*ref)[0]));
  }
}

TEST(StaticExecutorPartsTest, ReusedVerdictsStillCheckEveryDeclaredOutput) {
  {
    // The second Add's context equals the first one's, its declared output
    // does not match what that context infers.
    RepeatedOpsModel m;
    proto::TensorRef* out = m.task(2)->mutable_output(0);
    out->clear_dims();
    out->add_dims(3);
    out->add_dims(2);
    Status st = LoadError(m.model);
    EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid) << st;
    EXPECT_NE(st.message().find("task 2"), std::string::npos) << st;
    EXPECT_NE(st.message().find("output 0 is declared [3,2] but the op infers [2,3]"),
              std::string::npos)
        << st;
  }
  {
    // A declared data type differing from the reused verdict's.
    RepeatedOpsModel m;
    m.task(3)->mutable_output(0)->set_data_type(DT_INT32);
    Status st = LoadError(m.model);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("task 3"), std::string::npos) << st;
  }
  {
    // Another input shape is another context: inferred again (and here
    // the broadcast fails).
    RepeatedOpsModel m;
    proto::TensorRef* in = m.task(2)->mutable_input(0);
    in->clear_dims();
    in->add_dims(4);
    in->set_size(16);
    Status st = LoadError(m.model);
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.message().find("task 2"), std::string::npos) << st;
  }
}

// Same op type and input shapes, different attributes: each gets its own
// verdict (Transpose's output shape depends on perm).
struct TransposeModel {
  explicit TransposeModel(std::vector<int64_t> second_out) : g("transposes") {
    x = g.Data("x", 0);
    t1 =
        g.Op("t1", "Transpose", {x}, {{"perm", AttrValue::CreateFrom(std::vector<int64_t>{1, 0})}});
    t2 =
        g.Op("t2", "Transpose", {x}, {{"perm", AttrValue::CreateFrom(std::vector<int64_t>{0, 1})}});
    g.NetOutput({t2});
    model = std::make_shared<GeModel>();
    model->name = "transposes";
    model->graph = g.graph();
    proto::ModelTaskDef& td = model->task_def;
    td.set_memory_size(64);
    td.set_stream_num(1);
    *td.add_input() = Io("x", {2, 3});
    *td.add_output() = Io("t2:0", {2, 3});
    proto::TaskDef* a = AddKernelTask(td, 0, t1, "Transpose");
    *a->add_input() = Ref(proto::MEM_MODEL_INPUT, 0, {2, 3}, 0);
    *a->add_output() = Ref(proto::MEM_ARENA, 0, {3, 2});
    proto::TaskDef* b = AddKernelTask(td, 1, t2, "Transpose");
    *b->add_input() = Ref(proto::MEM_MODEL_INPUT, 0, {2, 3}, 0);
    *b->add_output() = Ref(proto::MEM_MODEL_OUTPUT, 0, second_out, 0);
  }
  reftest::TestGraph g;
  NodePtr x, t1, t2;
  GeModelPtr model;
};

TEST(StaticExecutorPartsTest, AttributesArePartOfTheReusedContext) {
  TransposeModel ok({2, 3});
  auto exec = StaticExecutor::Create(ok.model);
  ASSERT_TRUE(exec.ok()) << exec.status();
  auto got = RunOnce(**exec, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, (std::vector<float>{1, 2, 3, 4, 5, 6}));  // perm [0, 1]

  // [3, 2] is what t1's context (perm [1, 0]) infers, not t2's.
  TransposeModel bad({3, 2});
  Status st = LoadError(bad.model);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid) << st;
  EXPECT_NE(st.message().find("task 1"), std::string::npos) << st;
  EXPECT_NE(st.message().find("declared [3,2] but the op infers [2,3]"), std::string::npos) << st;
}

}  // namespace
}  // namespace ge

namespace ge {
namespace {

TEST(StaticExecutorPartsTest, TasksAsWireBytes) {
  RepeatedOpsModel m;
  StaticModelParts parts = PartsWithoutGraph(m.model);
  auto storage = std::make_shared<std::vector<std::string>>();
  for (const proto::TaskDef& t : m.model->task_def.task())
    storage->push_back(t.SerializeAsString());
  auto header = std::make_shared<proto::ModelTaskDef>(m.model->task_def);
  header->clear_task();
  parts.task_def = header.get();
  for (const std::string& b : *storage) parts.task_bytes.push_back(AsSpan(b));
  parts.keepalive =
      std::make_shared<std::tuple<GeModelPtr, std::shared_ptr<std::vector<std::string>>,
                                  std::shared_ptr<proto::ModelTaskDef>>>(m.model, storage, header);
  auto exec = StaticExecutor::Create(std::move(parts));
  ASSERT_TRUE(exec.ok()) << exec.status();
  EXPECT_EQ((*exec)->kernel_task_count(), 4u);
  const std::vector<float> xv = {0.5f, 1, -4, 2, -6, 7};
  auto got = RunOnce(**exec, xv);
  ASSERT_TRUE(got.ok()) << got.status();
  auto ref = ReferenceInterpreter::Run(*m.g.graph(), reftest::Inputs(F32({2, 3}, xv)));
  ASSERT_TRUE(ref.ok()) << ref.status();
  EXPECT_EQ(*got, ToF32((*ref)[0]));

  // Bytes that are no TaskDef; tasks in both places.
  RepeatedOpsModel m2;
  StaticModelParts bad = PartsWithoutGraph(m2.model);
  auto header2 = std::make_shared<proto::ModelTaskDef>(m2.model->task_def);
  header2->clear_task();
  bad.task_def = header2.get();
  static const std::string kGarbage("\x0a\xff\xff", 3);
  bad.task_bytes.push_back(AsSpan(kGarbage));
  auto st = StaticExecutor::Create(std::move(bad)).status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParseFailed) << st;
  EXPECT_NE(st.message().find("task 0"), std::string::npos) << st;
  StaticModelParts both = PartsWithoutGraph(m2.model);
  both.task_bytes.push_back(AsSpan(kGarbage));
  EXPECT_EQ(GetErrorCode(StaticExecutor::Create(std::move(both)).status()),
            ErrorCode::kParamInvalid);
}

}  // namespace
}  // namespace ge

namespace ge {
namespace {

// Two Reshapes of x [2, 3] alike in all but their shape constants (weights):
// Reshape reads its shape input's value, so its verdict is keyed on where
// that value lies, and the second task gets its own (a verdict reused across
// values would accept a declared shape the constant does not give).
struct TwoReshapesModel {
  explicit TwoReshapesModel(std::vector<int64_t> second_out) : g("reshapes") {
    x = g.Data("x", 0);
    s1 = g.Const("s1", reftest::I64({2}, {3, 2}));
    s2 = g.Const("s2", reftest::I64({2}, {6, 1}));
    r1 = g.Op("r1", "Reshape", {x, s1});
    r2 = g.Op("r2", "Reshape", {x, s2});
    g.NetOutput({r2});
    model = StartModel("reshapes", g.graph(), 64, "r2:0", second_out);
    const int64_t shapes[4] = {3, 2, 6, 1};
    SetWeights(model.get(), shapes, sizeof(shapes));
    proto::ModelTaskDef& td = model->task_def;
    proto::TaskDef* a = AddKernelTask(td, 0, r1, "Reshape");
    *a->add_input() = Ref(proto::MEM_MODEL_INPUT, 0, {2, 3}, 0);
    *a->add_input() = Ref(proto::MEM_WEIGHTS, 0, {2}, 0, DT_INT64);
    *a->add_output() = Ref(proto::MEM_ARENA, 0, {3, 2});
    proto::TaskDef* b = AddKernelTask(td, 1, r2, "Reshape");
    *b->add_input() = Ref(proto::MEM_MODEL_INPUT, 0, {2, 3}, 0);
    *b->add_input() = Ref(proto::MEM_WEIGHTS, 16, {2}, 0, DT_INT64);
    *b->add_output() = Ref(proto::MEM_MODEL_OUTPUT, 0, second_out, 0);
  }
  reftest::TestGraph g;
  NodePtr x, s1, s2, r1, r2;
  GeModelPtr model;
};

TEST(StaticExecutorPartsTest, ValueReadingVerdictsAreKeyedOnTheWeights) {
  TwoReshapesModel ok({6, 1});
  auto exec = StaticExecutor::Create(ok.model);
  ASSERT_TRUE(exec.ok()) << exec.status();
  std::vector<float> xv = {1, 2, 3, 4, 5, 6};
  gert::Tensor in(gert::Shape{2, 3}, DT_FLOAT, xv.data(), xv.size() * 4);
  std::vector<float> out(6, -99.f);
  gert::Tensor outt(gert::Shape{6, 1}, DT_FLOAT, out.data(), out.size() * 4);
  Status st = (*exec)->Run(absl::MakeConstSpan(&in, 1), absl::MakeSpan(&outt, 1));
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out, xv);

  // [3, 2] is what the first Reshape's constant gives, not the second's.
  TwoReshapesModel bad({3, 2});
  Status err = LoadError(bad.model);
  EXPECT_EQ(GetErrorCode(err), ErrorCode::kParamInvalid) << err;
  EXPECT_NE(err.message().find("task 1"), std::string::npos) << err;
  EXPECT_NE(err.message().find("declared [3,2] but the op infers [6,1]"), std::string::npos) << err;
}

}  // namespace
}  // namespace ge
