// build/om/launch_plan_test.cc
#include "build/om/launch_plan.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "build/model/build_test_util.h"
#include "build/model/ge_model.h"
#include "build/model/model_builder.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/serialization/inc/model_op_descs.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using buildtest::GraphMaker;

GeModelPtr Build(const ComputeGraphPtr& graph) {
  auto m = ModelBuilder(ModelBuildOptions{}).Build(graph);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? (*m)->root : nullptr;
}

ComputeGraphPtr SmallGraph() {
  GraphMaker g("small");
  NodePtr x = g.Data("x", 0, {2, 3});
  NodePtr w = g.ConstF32("w", {2, 3}, {1, 2, 3, 4, 5, 6});
  NodePtr add = g.Binary("add", "Add", x, w);
  NodePtr relu = g.Unary("relu", "Relu", add);
  g.NetOutput({{relu, 0}, {x, 0}});  // x: a MEMCPY task
  return g.graph();
}

// Conv2D with an absent optional bias, then Relu.
ComputeGraphPtr ConvGraph() {
  GraphMaker g("conv");
  NodePtr x = g.Data("x", 0, {1, 3, 8, 8});
  NodePtr w = g.ConstF32("w", {4, 3, 3, 3}, std::vector<float>(4 * 3 * 3 * 3, 0.25f));
  NodePtr conv = g.Op("conv", "Conv2D", {{x, 0}, {w, 0}, {nullptr, 0}},
                      {GeTensorDesc(GeShape({1, 4, 6, 6}), FORMAT_NCHW, DT_FLOAT)});
  EXPECT_TRUE(conv->GetOpDesc()
                  ->SetAttr("strides", AttrValue::CreateFrom<std::vector<int64_t>>({1, 1, 1, 1}))
                  .ok());
  NodePtr relu = g.Unary("relu", "Relu", conv);
  g.NetOutput({{relu, 0}});
  return g.graph();
}

// A chain of `n` Relu ops; op i gets attribute "alpha" = alpha(i) when set.
ComputeGraphPtr ReluChain(size_t n, const std::function<std::optional<int64_t>(size_t)>& alpha) {
  GraphMaker g("relus");
  NodePtr x = g.Data("x", 0, {4, 4});
  for (size_t i = 0; i < n; ++i) {
    x = g.Unary(absl::StrCat("relu", i), "Relu", x);
    const std::optional<int64_t> a = alpha(i);
    if (a) {
      EXPECT_TRUE(x->GetOpDesc()->SetAttr("alpha", AttrValue::CreateFrom<int64_t>(*a)).ok());
    }
  }
  g.NetOutput({{x, 0}});
  return g.graph();
}

proto::LaunchPlan Encode(const GeModel& model) {
  auto plan = EncodeLaunchPlan(model);
  EXPECT_TRUE(plan.ok()) << plan.status();
  EXPECT_TRUE(plan.ok() && plan->has_value());
  return plan.ok() && plan->has_value() ? **plan : proto::LaunchPlan();
}

size_t NumOps(const proto::LaunchPlan& plan) {
  auto ops = DecodeLaunchPlanOps(plan);
  EXPECT_TRUE(ops.ok()) << ops.status();
  return ops.ok() ? ops->ops.size() : 0;
}

// Encode -> expand gives the model's TaskDefs, and the plan is smaller.
void ExpectRoundTrip(const GeModel& model) {
  const proto::LaunchPlan plan = Encode(model);
  proto::ModelTaskDef td;
  const Status st = ExpandLaunchPlan(plan, NumOps(plan), &td);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_EQ(td.task_size(), model.task_def.task_size());
  for (int t = 0; t < td.task_size(); ++t) {
    EXPECT_EQ(td.task(t).SerializeAsString(), model.task_def.task(t).SerializeAsString())
        << t << ":\n"
        << td.task(t).DebugString() << "vs\n"
        << model.task_def.task(t).DebugString();
  }
  proto::ModelTaskDef original;
  *original.mutable_task() = model.task_def.task();
  EXPECT_EQ(td.SerializeAsString(), original.SerializeAsString());
}

int CountKernelTasks(const GeModel& model) {
  int n = 0;
  for (const proto::TaskDef& t : model.task_def.task()) n += t.type() == proto::TASK_KERNEL;
  return n;
}

TEST(LaunchPlanTest, SmallGraphWithMemcpyRoundTrips) {
  GeModelPtr model = Build(SmallGraph());
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(model->task_def.task_size(), 3);
  EXPECT_EQ(model->task_def.task(2).type(), proto::TASK_MEMCPY);
  ExpectRoundTrip(*model);
  const proto::LaunchPlan plan = Encode(*model);
  EXPECT_EQ(NumOps(plan), 2u);
  EXPECT_EQ(plan.kind_op_type_size(), 3);  // Add, Relu, MemcpyAsync
  EXPECT_EQ(plan.name_end_size(), 3);
  EXPECT_EQ(plan.names(), "addreluoutput");
}

TEST(LaunchPlanTest, ChainOfEqualOpsSharesOps) {
  GeModelPtr model = Build(buildtest::MakeAddReluChain(50, {2, 8}, /*shared_const=*/true));
  ASSERT_NE(model, nullptr);
  ExpectRoundTrip(*model);
  const proto::LaunchPlan plan = Encode(*model);
  const int kernels = CountKernelTasks(*model);
  EXPECT_GE(kernels, 40);
  EXPECT_EQ(NumOps(plan), 2u);  // one Add, one Relu
  // Without the (fixed-size) op descs the plan is smaller.
  EXPECT_LT(plan.ByteSizeLong() - plan.op_model().size(), model->task_def.ByteSizeLong());
  // Every Add task refers to op 0, every Relu task to op 1.
  auto view = LaunchPlanView::Create(plan, 2);
  ASSERT_TRUE(view.ok()) << view.status();
  ASSERT_EQ(view->num_tasks(), static_cast<size_t>(model->task_def.task_size()));
  for (size_t t = 0; t < view->num_tasks(); ++t) {
    const LaunchPlanView::Task task = view->task(t);
    const proto::TaskDef& def = model->task_def.task(static_cast<int>(t));
    EXPECT_EQ(task.name, def.node_name());
    EXPECT_EQ(view->kind_op_type(task.kind), def.op_type());
    if (task.type == proto::TASK_KERNEL) {
      EXPECT_EQ(task.op, def.op_type() == "Add" ? 0u : 1u) << t;
    }
  }
}

TEST(LaunchPlanTest, LadderRoundTrips) {
  GeModelPtr model = Build(buildtest::MakeLadder(1200));
  ASSERT_NE(model, nullptr);
  ExpectRoundTrip(*model);
  const proto::LaunchPlan plan = Encode(*model);
  EXPECT_EQ(NumOps(plan), 3u);  // Add, Mul, Relu
  EXPECT_LT(plan.ByteSizeLong(), model->task_def.ByteSizeLong())
      << plan.ByteSizeLong() << " vs " << model->task_def.ByteSizeLong();
}

TEST(LaunchPlanTest, ConvWithAbsentOptionalInputRoundTrips) {
  GeModelPtr model = Build(ConvGraph());
  ASSERT_NE(model, nullptr);
  bool absent = false;
  for (const proto::TaskDef& t : model->task_def.task()) {
    for (const proto::TensorRef& r : t.input()) absent |= r.kind() == proto::MEM_ABSENT;
  }
  EXPECT_TRUE(absent);
  ExpectRoundTrip(*model);
  const proto::LaunchPlan plan = Encode(*model);
  auto ops = DecodeLaunchPlanOps(plan);
  ASSERT_TRUE(ops.ok()) << ops.status();
  ASSERT_EQ(ops->ops.size(), 2u);
  EXPECT_EQ(ops->ops[0]->GetType(), "Conv2D");
  EXPECT_EQ(ops->ops[0]->GetAllInputsSize(), 3u);
  EXPECT_EQ(ops->ops[0]->GetAttrStore(),
            model->graph->FindNode("conv")->GetOpDesc()->GetAttrStore());
}

TEST(LaunchPlanTest, RtsTasksAndWorkspacesRoundTrip) {
  GeModelPtr model = Build(SmallGraph());
  ASSERT_NE(model, nullptr);
  proto::ModelTaskDef& def = model->task_def;
  // Hand-made RTS tasks (the stream allocator makes none for one stream).
  auto add_task = [&def](proto::TaskType type, uint32_t stream, uint32_t event, uint32_t label,
                         int64_t op_index) {
    proto::TaskDef* t = def.add_task();
    t->set_task_id(static_cast<uint32_t>(def.task_size() - 1));
    t->set_type(type);
    t->set_node_name(absl::StrCat("rts", def.task_size()));
    t->set_op_type("Rts");
    t->set_engine("DNN_VM_RTS");
    t->set_kernel_name(type == proto::TASK_EVENT_RECORD ? "Record" : "Wait");
    t->set_stream_id(stream);
    t->set_event_id(event);
    t->set_label_id(label);
    t->set_op_index(op_index);
  };
  add_task(proto::TASK_EVENT_RECORD, 1, 7, 0, -1);
  add_task(proto::TASK_EVENT_WAIT, 2, 7, 0, std::numeric_limits<int64_t>::min());
  add_task(proto::TASK_LABEL_GOTO, 0xFFFFFFFFu, 0xFFFFFFFFu, 3, int64_t{1} << 40);
  // A workspace and a tensor with every field set on the first kernel task.
  proto::TensorRef* ws = def.mutable_task(0)->add_workspace();
  ws->set_kind(proto::MEM_ARENA);
  ws->set_offset(uint64_t{1} << 40);
  ws->set_size(123);
  ws->set_data_type(4);
  ws->add_dims(123);
  proto::TensorRef* in = def.mutable_task(0)->mutable_input(0);
  in->set_index(0xFFFFFFFFu);
  ExpectRoundTrip(*model);
  const proto::LaunchPlan plan = Encode(*model);
  auto view = LaunchPlanView::Create(plan, NumOps(plan));
  ASSERT_TRUE(view.ok()) << view.status();
  const LaunchPlanView::Task wait = view->task(4);
  EXPECT_EQ(wait.type, proto::TASK_EVENT_WAIT);
  EXPECT_EQ(wait.op, kLaunchNoOp);
  EXPECT_EQ(wait.stream_id, 2u);
  EXPECT_EQ(wait.event_id, 7u);
  EXPECT_EQ(wait.op_index, std::numeric_limits<int64_t>::min());
  const LaunchPlanView::Task first = view->task(0);
  ASSERT_EQ(first.workspaces.size(), 1u);
  const LaunchPlanView::Tensor w = view->tensor(first.workspaces[0]);
  EXPECT_EQ(w.kind, proto::MEM_ARENA);
  EXPECT_EQ(w.offset, uint64_t{1} << 40);
  EXPECT_EQ(w.size, 123u);
  EXPECT_EQ(w.data_type, 4);
  EXPECT_EQ(std::vector<int64_t>(view->shape(w.shape).begin(), view->shape(w.shape).end()),
            std::vector<int64_t>({123}));
}

TEST(LaunchPlanTest, OpsWithDifferentAttributesAreNotShared) {
  // alpha: unset for ops 0..9, then 1, 2, 1, 2, ...
  auto alpha = [](size_t i) -> std::optional<int64_t> {
    if (i < 10) return std::nullopt;
    return static_cast<int64_t>(1 + i % 2);
  };
  GeModelPtr model = Build(ReluChain(30, alpha));
  ASSERT_NE(model, nullptr);
  ExpectRoundTrip(*model);
  const proto::LaunchPlan plan = Encode(*model);
  auto ops = DecodeLaunchPlanOps(plan);
  ASSERT_TRUE(ops.ok()) << ops.status();
  ASSERT_EQ(ops->ops.size(), 3u);
  // First-use order; each op is the first task's op desc (name and id kept).
  EXPECT_EQ(ops->ops[0]->GetName(), "relu0");
  EXPECT_EQ(ops->ops[1]->GetName(), "relu10");
  EXPECT_EQ(ops->ops[2]->GetName(), "relu11");
  for (const OpDescPtr& op : ops->ops) {
    const NodePtr node = model->graph->FindNode(op->GetName());
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(op->GetId(), node->GetOpDesc()->GetId());
    EXPECT_EQ(op->GetType(), "Relu");
    EXPECT_EQ(op->GetAttrStore(), node->GetOpDesc()->GetAttrStore());
  }
  EXPECT_FALSE(ops->ops[0]->HasAttr("alpha"));
  auto view = LaunchPlanView::Create(plan, ops->ops.size());
  ASSERT_TRUE(view.ok());
  for (size_t t = 0; t < view->num_tasks(); ++t) {
    const LaunchPlanView::Task task = view->task(t);
    if (task.type != proto::TASK_KERNEL) continue;
    const uint32_t want = t < 10 ? 0 : (t % 2 == 0 ? 1 : 2);
    EXPECT_EQ(task.op, want) << t;
  }
}

TEST(LaunchPlanTest, OpsWithDifferentOutputTypesOrInputNamesAreNotShared) {
  GraphMaker g("mixed");
  NodePtr x = g.Data("x", 0, {4});
  NodePtr a = g.Unary("a", "Cast", x);
  NodePtr b = g.Op("b", "Cast", {{a, 0}}, {GeTensorDesc(GeShape({4}), FORMAT_ND, DT_INT32)});
  NodePtr c = g.Op("c", "Cast", {{b, 0}}, {GeTensorDesc(GeShape({4}), FORMAT_ND, DT_FLOAT)});
  NodePtr d = g.Unary("d", "Cast", c);
  ASSERT_TRUE(d->GetOpDesc()->UpdateInputName({{"in", 0}}).ok());
  NodePtr e = g.Unary("e", "Cast", d);
  g.NetOutput({{e, 0}});
  GeModelPtr model = Build(g.graph());
  ASSERT_NE(model, nullptr);
  ExpectRoundTrip(*model);
  const proto::LaunchPlan plan = Encode(*model);
  auto ops = DecodeLaunchPlanOps(plan);
  ASSERT_TRUE(ops.ok()) << ops.status();
  std::vector<std::string> names;
  for (const OpDescPtr& op : ops->ops) names.push_back(op->GetName());
  // a ~ e (float in and out, input x0); b differs in output type, c in
  // input type (b's INT32), d in input name.
  EXPECT_EQ(names, std::vector<std::string>({"a", "b", "c", "d"}));
}

// The compute engine prepares a kernel on its op's tensor formats: ops
// equal but for a desc's format (an NHWC chain member and a plain one) or an
// input's data type are not shared.
TEST(LaunchPlanTest, OpsWithDifferentFormatsOrInputTypesAreNotShared) {
  GraphMaker g("layouts");
  NodePtr x = g.Data("x", 0, {1, 2, 3, 3});
  NodePtr a = g.Unary("a", "Relu", x);
  NodePtr b = g.Unary("b", "Relu", a);
  NodePtr c = g.Unary("c", "Relu", b);
  NodePtr d = g.Unary("d", "Relu", c);
  NodePtr e = g.Unary("e", "Relu", d);
  g.NetOutput({{e, 0}});
  // b: NHWC output; c: NHWC input; e: an input typed BF16 (descs only).
  b->GetOpDesc()->MutableOutputDesc(0)->SetFormat(FORMAT_NHWC);
  c->GetOpDesc()->MutableInputDesc(0)->SetFormat(FORMAT_NHWC);
  e->GetOpDesc()->MutableInputDesc(0)->SetDataType(DT_BF16);
  GeModelPtr model = Build(g.graph());
  ASSERT_NE(model, nullptr);
  ExpectRoundTrip(*model);
  const proto::LaunchPlan plan = Encode(*model);
  auto ops = DecodeLaunchPlanOps(plan);
  ASSERT_TRUE(ops.ok()) << ops.status();
  std::vector<std::string> names;
  for (const OpDescPtr& op : ops->ops) names.push_back(op->GetName());
  // a ~ d; b, c and e each their own.
  EXPECT_EQ(names, std::vector<std::string>({"a", "b", "c", "e"}));
  for (const OpDescPtr& op : ops->ops) {
    if (op->GetName() == "b") {
      EXPECT_EQ(op->GetOutputDescBarePtr(0)->GetFormat(), FORMAT_NHWC);
    }
    if (op->GetName() == "c") {
      EXPECT_EQ(op->GetInputDescBarePtr(0)->GetFormat(), FORMAT_NHWC);
    }
  }
}

TEST(LaunchPlanTest, OpModelDecodesToTheRepresentativesInOrder) {
  GeModelPtr model = Build(buildtest::MakeLadder(60));
  ASSERT_NE(model, nullptr);
  const proto::LaunchPlan plan = Encode(*model);
  auto ops = DecodeModelOpDescs(plan.op_model());
  ASSERT_TRUE(ops.ok()) << ops.status();
  ASSERT_EQ(ops->ops.size(), 3u);
  EXPECT_EQ(ops->ops[0]->GetName(), "v0");
  EXPECT_EQ(ops->ops[1]->GetName(), "v1");
  EXPECT_EQ(ops->ops[2]->GetName(), "v2");
  for (const OpDescPtr& op : ops->ops) {
    const OpDescPtr src = model->graph->FindNode(op->GetName())->GetOpDesc();
    EXPECT_EQ(op->GetType(), src->GetType());
    EXPECT_EQ(op->GetId(), src->GetId());
    EXPECT_EQ(op->GetAllInputsSize(), src->GetAllInputsSize());
    EXPECT_EQ(op->GetAllInputNames(), src->GetAllInputNames());
    EXPECT_EQ(op->GetOutputDesc(0).GetDataType(), src->GetOutputDesc(0).GetDataType());
    EXPECT_EQ(op->GetOutputDesc(0).GetShape().GetDims(),
              src->GetOutputDesc(0).GetShape().GetDims());
  }
  EXPECT_TRUE(ops->input_ops.empty());
  // DeserializeModel agrees (unlinked inputs are fine).
  auto graph = ModelSerialize::DeserializeModel(plan.op_model());
  ASSERT_TRUE(graph.ok()) << graph.status();
  EXPECT_EQ((*graph)->GetDirectNodesSize(), 3u);
}

// ---------------------------------------------------------------- no plan

std::optional<proto::LaunchPlan> TryEncode(const GeModel& model) {
  auto plan = EncodeLaunchPlan(model);
  EXPECT_TRUE(plan.ok()) << plan.status();
  return plan.ok() ? *plan : std::nullopt;
}

TEST(LaunchPlanTest, TasksThatDoNotFitGiveNoPlan) {
  GeModelPtr base = Build(SmallGraph());
  ASSERT_NE(base, nullptr);
  ASSERT_TRUE(TryEncode(*base).has_value());
  const std::vector<std::pair<std::string, std::function<void(GeModel&)>>> edits = {
      {"args", [](GeModel& m) { m.task_def.mutable_task(1)->set_args("tiling"); }},
      {"wait_event", [](GeModel& m) { m.task_def.mutable_task(0)->add_wait_event(1); }},
      {"record_event", [](GeModel& m) { m.task_def.mutable_task(2)->add_record_event(0); }},
      {"task_id", [](GeModel& m) { m.task_def.mutable_task(1)->set_task_id(0); }},
      {"kernel op_index not a node",
       [](GeModel& m) { m.task_def.mutable_task(0)->set_op_index(999); }},
      {"negative op_index", [](GeModel& m) { m.task_def.mutable_task(0)->set_op_index(-1); }},
      {"256 inputs",
       [](GeModel& m) {
         for (int i = 0; i < 256; ++i) m.task_def.mutable_task(0)->add_input();
       }},
      {"256 workspaces",
       [](GeModel& m) {
         for (int i = 0; i < 256; ++i) m.task_def.mutable_task(1)->add_workspace();
       }},
      {"bad task type",
       [](GeModel& m) { m.task_def.mutable_task(2)->set_type(static_cast<proto::TaskType>(77)); }},
      {"bad mem kind",
       [](GeModel& m) {
         m.task_def.mutable_task(0)->mutable_input(0)->set_kind(static_cast<proto::MemKind>(300));
       }},
      {"negative data_type",
       [](GeModel& m) { m.task_def.mutable_task(0)->mutable_output(0)->set_data_type(-1); }},
      {"data_type >= 2^24",
       [](GeModel& m) { m.task_def.mutable_task(0)->mutable_output(0)->set_data_type(1 << 24); }},
      {"dynamic", [](GeModel& m) { m.task_def.set_dynamic(true); }},
      {"no graph", [](GeModel& m) { m.graph = nullptr; }},
  };
  for (const auto& [what, edit] : edits) {
    GeModel m = *base;
    m.task_def = base->task_def;
    edit(m);
    EXPECT_FALSE(TryEncode(m).has_value()) << what;
  }
  // data_type 2^24 - 1 still fits.
  GeModel m = *base;
  m.task_def.mutable_task(0)->mutable_output(0)->set_data_type((1 << 24) - 1);
  ExpectRoundTrip(m);
  // 255 inputs still fit.
  for (int i = 0; i < 254; ++i) m.task_def.mutable_task(1)->add_input()->set_kind(proto::MEM_ARENA);
  ASSERT_EQ(m.task_def.task(1).input_size(), 255);
  ExpectRoundTrip(m);
}

TEST(LaunchPlanTest, EmptyTaskListGivesAnEmptyPlan) {
  GeModelPtr base = Build(SmallGraph());
  ASSERT_NE(base, nullptr);
  GeModel m = *base;
  m.task_def.clear_task();
  ExpectRoundTrip(m);
}

TEST(LaunchPlanTest, BadOpModelFailsToDecode) {
  GeModelPtr model = Build(SmallGraph());
  ASSERT_NE(model, nullptr);
  proto::LaunchPlan plan = Encode(*model);
  ASSERT_TRUE(DecodeLaunchPlanOps(plan).ok());
  plan.mutable_op_model()->resize(plan.op_model().size() / 2);
  auto ops = DecodeLaunchPlanOps(plan);
  ASSERT_FALSE(ops.ok());
  EXPECT_EQ(GetErrorCode(ops.status()), ErrorCode::kParseFailed) << ops.status();
  EXPECT_NE(std::string(ops.status().message()).find("launch plan op_model"), std::string::npos);
}

TEST(LaunchPlanTest, ExpandNeedsAnEmptyTaskList) {
  GeModelPtr model = Build(SmallGraph());
  ASSERT_NE(model, nullptr);
  const proto::LaunchPlan plan = Encode(*model);
  proto::ModelTaskDef td;
  td.add_task();
  EXPECT_EQ(GetErrorCode(ExpandLaunchPlan(plan, 2, &td)), ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(ExpandLaunchPlan(plan, 2, nullptr)), ErrorCode::kParamInvalid);
}

// ---------------------------------------------------------------- hostile plans

struct Mutation {
  std::string what;
  std::function<void(proto::LaunchPlan&)> edit;
  std::string message;  // a substring of the error
};

void ExpectRejected(const proto::LaunchPlan& plan, size_t num_ops, const std::string& what,
                    const std::string& message) {
  proto::ModelTaskDef td;
  const Status st = ExpandLaunchPlan(plan, num_ops, &td);
  ASSERT_FALSE(st.ok()) << what;
  const ErrorCode code = GetErrorCode(st);
  EXPECT_TRUE(code == ErrorCode::kParseFailed || code == ErrorCode::kOutOfRange)
      << what << ": " << st;
  EXPECT_NE(std::string(st.message()).find(message), std::string::npos) << what << ": " << st;
  EXPECT_FALSE(LaunchPlanView::Create(plan, num_ops).ok()) << what;
}

TEST(LaunchPlanTest, HostilePlansAreRejected) {
  GeModelPtr model = Build(SmallGraph());
  ASSERT_NE(model, nullptr);
  const proto::LaunchPlan good = Encode(*model);
  const size_t num_ops = NumOps(good);
  ASSERT_EQ(num_ops, 2u);
  ASSERT_EQ(good.task_size(), 3 * 8 + 3 + 2 + 2);  // add: 2 in 1 out, relu and memcpy: 1 in 1 out
  ASSERT_TRUE(ExpandLaunchPlan(good, num_ops, std::make_unique<proto::ModelTaskDef>().get()).ok());

  // Task word offsets: task 0 at 0, task 1 at 11, task 2 at 21.
  const std::vector<Mutation> corpus = {
      {"kind lists differ", [](proto::LaunchPlan& p) { p.add_kind_engine("x"); }, "kind lists"},
      {"kind_kernel_name short",
       [](proto::LaunchPlan& p) { p.mutable_kind_kernel_name()->RemoveLast(); }, "kind lists"},
      {"shape_end short", [](proto::LaunchPlan& p) { p.mutable_shape_end()->RemoveLast(); },
       "shapes end"},
      {"shape_dims short", [](proto::LaunchPlan& p) { p.mutable_shape_dims()->RemoveLast(); },
       "shape_end["},
      {"shape_end not monotonic", [](proto::LaunchPlan& p) { p.add_shape_end(0); },
       "is below shape_end"},
      {"shape_end huge", [](proto::LaunchPlan& p) { p.set_shape_end(0, 0xFFFFFFFFu); }, "beyond"},
      {"tensor truncated", [](proto::LaunchPlan& p) { p.mutable_tensor()->RemoveLast(); },
       "not a multiple"},
      {"tensor bad kind",
       [](proto::LaunchPlan& p) { p.set_tensor(0, (p.tensor(0) & ~0xFFull) | 5); },
       "not a MemKind"},
      {"tensor shape id",
       [](proto::LaunchPlan& p) { p.set_tensor(4, p.tensor(4) | (uint64_t{77} << 32)); },
       "shape id 7"},
      {"tensor index", [](proto::LaunchPlan& p) { p.set_tensor(1, uint64_t{1} << 32); }, "index"},
      {"task truncated", [](proto::LaunchPlan& p) { p.mutable_task()->RemoveLast(); }, "task 2"},
      {"task words cut", [](proto::LaunchPlan& p) { p.mutable_task()->Truncate(25); },
       "task 2 is truncated"},
      {"task extra word", [](proto::LaunchPlan& p) { p.add_task(0); }, "task 3 is truncated"},
      {"huge counts in t0", [](proto::LaunchPlan& p) { p.set_task(0, 0xFFFFFF00u); },
       "task 0 has 255"},
      {"bad task type", [](proto::LaunchPlan& p) { p.set_task(0, (p.task(0) & ~0xFFu) | 9); },
       "not a TaskType"},
      {"kind id", [](proto::LaunchPlan& p) { p.set_task(11 + 1, 3); }, "task 1 has kind id 3"},
      {"op id", [](proto::LaunchPlan& p) { p.set_task(11 + 2, 2); }, "op id 2 of 2"},
      {"kernel without op", [](proto::LaunchPlan& p) { p.set_task(2, kLaunchNoOp); },
       "kernel task 0"},
      {"memcpy with op", [](proto::LaunchPlan& p) { p.set_task(21 + 2, 0); },
       "only kernel tasks have ops"},
      {"tensor id", [](proto::LaunchPlan& p) { p.set_task(8, 1000); }, "tensor 0 has id 1000"},
      {"tensor id last", [](proto::LaunchPlan& p) { p.set_task(30, p.tensor_size() / 4); },
       "task 2 tensor 1"},
      {"name_end short", [](proto::LaunchPlan& p) { p.mutable_name_end()->RemoveLast(); },
       "name_end entries"},
      {"name_end extra", [](proto::LaunchPlan& p) { p.add_name_end(p.name_end(2)); },
       "name_end entries"},
      {"name_end beyond names", [](proto::LaunchPlan& p) { p.set_name_end(2, 1000); }, "beyond"},
      {"name_end not monotonic", [](proto::LaunchPlan& p) { p.set_name_end(1, 1); }, "is below"},
      {"names longer", [](proto::LaunchPlan& p) { p.mutable_names()->append("zz"); },
       "names end at"},
      {"names shorter", [](proto::LaunchPlan& p) { p.mutable_names()->pop_back(); }, "beyond"},
  };
  for (const Mutation& m : corpus) {
    proto::LaunchPlan p = good;
    m.edit(p);
    ExpectRejected(p, num_ops, m.what, m.message);
  }
  // Too few ops for the plan's op ids.
  ExpectRejected(good, 1, "num_ops 1", "op id 1 of 1");
  ExpectRejected(good, 0, "num_ops 0", "op id 0 of 0");
  // Every repeated field truncated to each shorter length.
  auto truncations = [&](const std::string& field, int size,
                         const std::function<void(proto::LaunchPlan&, int)>& cut) {
    for (int n = 0; n < size; ++n) {
      proto::LaunchPlan p = good;
      cut(p, n);
      proto::ModelTaskDef td;
      EXPECT_FALSE(ExpandLaunchPlan(p, num_ops, &td).ok()) << field << " cut to " << n;
    }
  };
  truncations("task", good.task_size(),
              [](proto::LaunchPlan& p, int n) { p.mutable_task()->Truncate(n); });
  truncations("tensor", good.tensor_size(),
              [](proto::LaunchPlan& p, int n) { p.mutable_tensor()->Truncate(n); });
  truncations("shape_dims", good.shape_dims_size(),
              [](proto::LaunchPlan& p, int n) { p.mutable_shape_dims()->Truncate(n); });
  truncations("shape_end", good.shape_end_size(),
              [](proto::LaunchPlan& p, int n) { p.mutable_shape_end()->Truncate(n); });
  truncations("name_end", good.name_end_size(),
              [](proto::LaunchPlan& p, int n) { p.mutable_name_end()->Truncate(n); });
  truncations("names", static_cast<int>(good.names().size()), [](proto::LaunchPlan& p, int n) {
    p.mutable_names()->resize(static_cast<size_t>(n));
  });
  truncations("kind_op_type", good.kind_op_type_size(), [](proto::LaunchPlan& p, int n) {
    p.mutable_kind_op_type()->DeleteSubrange(n, p.kind_op_type_size() - n);
  });
}

// Random word flips: every result is a clean rejection or a plan that
// expands to tasks the view describes; never a crash (run under asan too).
TEST(LaunchPlanTest, RandomMutationsNeverCrash) {
  GeModelPtr model = Build(buildtest::MakeLadder(30));
  ASSERT_NE(model, nullptr);
  const proto::LaunchPlan good = Encode(*model);
  const size_t num_ops = NumOps(good);
  std::mt19937 rng(1234);
  int rejected = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    proto::LaunchPlan p = good;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < flips; ++f) {
      const uint32_t value = rng() % 4 == 0 ? rng() : rng() % 300;
      if (p.task_size() == 0) break;  // cut to nothing already
      switch (rng() % 5) {
        case 0:
          p.set_task(static_cast<int>(rng() % p.task_size()), value);
          break;
        case 1:
          p.set_tensor(static_cast<int>(rng() % p.tensor_size()),
                       uint64_t{value} << (rng() % 2 * 32));
          break;
        case 2:
          p.set_shape_end(static_cast<int>(rng() % p.shape_end_size()), value);
          break;
        case 3:
          p.set_name_end(static_cast<int>(rng() % p.name_end_size()), value);
          break;
        default:
          p.mutable_task()->Truncate(static_cast<int>(rng() % p.task_size()));
          break;
      }
    }
    proto::ModelTaskDef td;
    const Status st = ExpandLaunchPlan(p, num_ops, &td);
    if (!st.ok()) {
      ++rejected;
      const ErrorCode code = GetErrorCode(st);
      EXPECT_TRUE(code == ErrorCode::kParseFailed || code == ErrorCode::kOutOfRange) << st;
      continue;
    }
    auto view = LaunchPlanView::Create(p, num_ops);
    ASSERT_TRUE(view.ok());
    ASSERT_EQ(static_cast<size_t>(td.task_size()), view->num_tasks());
    for (size_t t = 0; t < view->num_tasks(); ++t) {
      const LaunchPlanView::Task task = view->task(t);
      EXPECT_EQ(td.task(static_cast<int>(t)).node_name(), task.name);
      EXPECT_TRUE(task.type != proto::TASK_KERNEL || task.op < num_ops);
      for (uint32_t id : task.inputs) EXPECT_LT(id, view->num_tensors());
    }
  }
  EXPECT_GT(rejected, 1000);
}

// ------------------------------------------------------------ in place

absl::Span<const uint8_t> Bytes(const std::string& s) {
  return absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// The values of an array field, widened.
template <typename A>
std::vector<uint64_t> Values(const A& a) {
  std::vector<uint64_t> out;
  for (size_t i = 0; i < a.size(); ++i) out.push_back(static_cast<uint64_t>(a[i]));
  return out;
}

// Every field of `a` and `b` has the same values.
void ExpectSameFields(const LaunchPlanFields& a, const LaunchPlanFields& b) {
  EXPECT_EQ(a.kind_op_type, b.kind_op_type);
  EXPECT_EQ(a.kind_engine, b.kind_engine);
  EXPECT_EQ(a.kind_kernel_name, b.kind_kernel_name);
  EXPECT_EQ(a.op_model, b.op_model);
  EXPECT_EQ(Values(a.shape_dims), Values(b.shape_dims));
  EXPECT_EQ(Values(a.shape_end), Values(b.shape_end));
  EXPECT_EQ(Values(a.tensor), Values(b.tensor));
  EXPECT_EQ(Values(a.task), Values(b.task));
  EXPECT_EQ(a.names, b.names);
  EXPECT_EQ(Values(a.name_end), Values(b.name_end));
}

// The serializer's bytes are read where they lie, with the message's values,
// and a view over them describes the same tasks as one over the message.
TEST(LaunchPlanInPlaceTest, SerializedPlansAreReadInPlace) {
  for (const ComputeGraphPtr& graph : {SmallGraph(), ConvGraph(), buildtest::MakeLadder(200)}) {
    GeModelPtr model = Build(graph);
    ASSERT_NE(model, nullptr);
    const proto::LaunchPlan plan = Encode(*model);
    const std::string wire = plan.SerializeAsString();
    // Odd offsets too: the packed words are read at any alignment.
    for (size_t shift : {0, 1, 3}) {
      const std::string buffer = std::string(shift, '\0') + wire;
      const absl::Span<const uint8_t> bytes = Bytes(buffer).subspan(shift);
      LaunchPlanFields fields;
      ASSERT_TRUE(LaunchPlanFields::ReadInPlace(bytes, &fields)) << graph->GetName();
      EXPECT_GE(reinterpret_cast<const uint8_t*>(fields.names.data()), bytes.data());
      EXPECT_LE(reinterpret_cast<const uint8_t*>(fields.names.data() + fields.names.size()),
                bytes.data() + bytes.size());
      ExpectSameFields(fields, LaunchPlanFields::Of(plan));
      auto in_place = LaunchPlanView::Create(std::move(fields), NumOps(plan));
      auto parsed = LaunchPlanView::Create(plan, NumOps(plan));
      ASSERT_TRUE(in_place.ok() && parsed.ok());
      ASSERT_EQ(in_place->num_tasks(), static_cast<size_t>(model->task_def.task_size()));
      for (size_t t = 0; t < in_place->num_tasks(); ++t) {
        proto::TaskDef a, b;
        in_place->FillTaskDef(t, &a);
        parsed->FillTaskDef(t, &b);
        EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString());
        EXPECT_EQ(a.SerializeAsString(),
                  model->task_def.task(static_cast<int>(t)).SerializeAsString());
      }
    }
  }
}

// Valid encodings the serializer does not write are left to the parser.
TEST(LaunchPlanInPlaceTest, OtherEncodingsAreLeftToTheParser) {
  GeModelPtr model = Build(SmallGraph());
  ASSERT_NE(model, nullptr);
  const proto::LaunchPlan plan = Encode(*model);
  const std::string wire = plan.SerializeAsString();
  auto field = [](int number, const std::string& payload) {
    std::string out;
    out.push_back(static_cast<char>(number << 3 | 2));
    out.push_back(static_cast<char>(payload.size()));
    return out + payload;
  };
  const struct {
    const char* what;
    std::string bytes;
  } cases[] = {
      // A second packed `task` run: the parser appends it.
      {"task twice", wire + field(proto::LaunchPlan::kTaskFieldNumber, std::string(8, '\0'))},
      // `names` twice: the last one wins.
      {"names twice", wire + field(proto::LaunchPlan::kNamesFieldNumber, "x")},
      // name_end as a single unpacked varint.
      {"unpacked",
       wire + std::string{static_cast<char>(proto::LaunchPlan::kNameEndFieldNumber << 3), 5}},
      // An unknown field.
      {"unknown", wire + field(15, "zz")},
      // A kind string that is not ASCII (valid UTF-8 here).
      {"utf8 kind", wire + field(proto::LaunchPlan::kKindOpTypeFieldNumber, "\xc3\xa9")},
      // A uint32 varint beyond 32 bits (the parser truncates it).
      {"wide varint",
       field(proto::LaunchPlan::kShapeEndFieldNumber, std::string("\xff\xff\xff\xff\x1f", 5)) +
           wire},
  };
  for (const auto& c : cases) {
    LaunchPlanFields fields;
    EXPECT_FALSE(LaunchPlanFields::ReadInPlace(Bytes(c.bytes), &fields)) << c.what;
    proto::LaunchPlan parsed;
    EXPECT_TRUE(parsed.ParseFromString(c.bytes)) << c.what;  // still a valid message
  }
  LaunchPlanFields fields;
  EXPECT_TRUE(LaunchPlanFields::ReadInPlace(Bytes(wire), &fields));
}

// Whatever ReadInPlace accepts, the parser accepts with the same values:
// every single-bit flip and every truncation of a plan's bytes.
TEST(LaunchPlanInPlaceTest, AcceptsOnlyWhatTheParserReadsAlike) {
  GeModelPtr model = Build(buildtest::MakeLadder(12));
  ASSERT_NE(model, nullptr);
  const std::string wire = Encode(*model).SerializeAsString();
  int accepted = 0, declined = 0;
  auto check = [&](const std::string& bytes, const std::string& what) {
    LaunchPlanFields fields;
    if (!LaunchPlanFields::ReadInPlace(Bytes(bytes), &fields)) {
      ++declined;
      return;
    }
    ++accepted;
    proto::LaunchPlan parsed;
    ASSERT_TRUE(parsed.ParseFromString(bytes)) << what;
    ExpectSameFields(fields, LaunchPlanFields::Of(parsed));
  };
  for (size_t i = 0; i < wire.size() * 8; ++i) {
    std::string bytes = wire;
    bytes[i / 8] = static_cast<char>(bytes[i / 8] ^ (1 << (i % 8)));
    check(bytes, absl::StrCat("bit ", i));
  }
  for (size_t n = 0; n < wire.size(); ++n)
    check(wire.substr(0, n), absl::StrCat("first ", n, " bytes"));
  EXPECT_GT(accepted, 100);
  EXPECT_GT(declined, 100);
}

}  // namespace
}  // namespace ge
