// build/model/model_builder_test.cc
#include "build/model/model_builder.h"

#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "build/memory/mem_planner.h"
#include "build/model/build_test_util.h"
#include "compiler/stages/compiler_stages.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using buildtest::GraphMaker;

std::vector<Node*> Nodes(const ComputeGraphPtr& g) {
  std::vector<Node*> out;
  for (const NodePtr& n : g->DirectNodes()) out.push_back(n.get());
  return out;
}

const proto::TaskDef* FindTask(const proto::ModelTaskDef& def, const std::string& node) {
  for (const proto::TaskDef& t : def.task()) {
    if (t.node_name() == node && t.type() == proto::TASK_KERNEL) return &t;
  }
  return nullptr;
}

// x + w -> add -> relu -> output
ComputeGraphPtr SmallGraph() {
  GraphMaker g("small");
  NodePtr x = g.Data("x", 0, {2, 3});
  NodePtr w = g.ConstF32("w", {2, 3}, {1, 2, 3, 4, 5, 6});
  NodePtr add = g.Binary("add", "Add", x, w);
  NodePtr relu = g.Unary("relu", "Relu", add);
  g.NetOutput({{relu, 0}});
  return g.graph();
}

TEST(ModelBuilderTest, SmallStaticGraph) {
  ComputeGraphPtr graph = SmallGraph();
  ModelBuilder builder;
  auto model = builder.Build(graph);
  ASSERT_TRUE(model.ok()) << model.status();
  const GeModel& m = *(*model)->root;
  const proto::ModelTaskDef& def = m.task_def;
  EXPECT_FALSE(def.dynamic());
  EXPECT_EQ(m.name, "small");
  ASSERT_EQ(def.task_size(), 2);
  EXPECT_EQ(def.task(0).node_name(), "add");
  EXPECT_EQ(def.task(0).engine(), "DNN_VM_HOST_CPU");
  EXPECT_EQ(def.task(0).op_type(), "Add");
  EXPECT_EQ(def.task(0).kernel_name(), def.task(0).op_type());  // the kernel key is op_type
  EXPECT_EQ(def.task(1).task_id(), 1u);
  // add: reads model input 0 and the weight, writes the arena.
  const proto::TaskDef& add = def.task(0);
  ASSERT_EQ(add.input_size(), 2);
  EXPECT_EQ(add.input(0).kind(), proto::MEM_MODEL_INPUT);
  EXPECT_EQ(add.input(0).index(), 0u);
  EXPECT_EQ(add.input(0).size(), 24u);
  EXPECT_EQ(add.input(1).kind(), proto::MEM_WEIGHTS);
  EXPECT_EQ(add.input(1).offset(), 0u);
  EXPECT_EQ(add.input(1).data_type(), static_cast<int32_t>(DT_FLOAT));
  EXPECT_EQ(std::vector<int64_t>(add.input(1).dims().begin(), add.input(1).dims().end()),
            (std::vector<int64_t>{2, 3}));
  ASSERT_EQ(add.output_size(), 1);
  EXPECT_EQ(add.output(0).kind(), proto::MEM_ARENA);
  // relu writes the model output in place.
  const proto::TaskDef& relu = def.task(1);
  EXPECT_EQ(relu.input(0).kind(), proto::MEM_ARENA);
  EXPECT_EQ(relu.input(0).offset(), add.output(0).offset());
  EXPECT_EQ(relu.output(0).kind(), proto::MEM_MODEL_OUTPUT);
  EXPECT_EQ(relu.output(0).index(), 0u);
  EXPECT_EQ(def.memory_size(), 64u);
  EXPECT_EQ(def.weight_size(), 64u);
  EXPECT_EQ(m.weights.size, 64u);
  // No blob: the weight is the Const's own buffer, at offset 0.
  EXPECT_EQ(m.weights.data, nullptr);
  ASSERT_EQ(m.weights.pieces.size(), 1u);
  EXPECT_EQ(m.weights.pieces[0].offset, 0u);
  EXPECT_EQ(m.weights.pieces[0].size, 24u);
  // io
  ASSERT_EQ(def.input_size(), 1);
  EXPECT_EQ(def.input(0).name(), "x");
  EXPECT_EQ(def.input(0).size(), 24u);
  ASSERT_EQ(def.output_size(), 1);
  EXPECT_EQ(def.output(0).name(), "relu:0");
  EXPECT_EQ(def.output(0).size(), 24u);
  // op ids; locations live in TASK_INFO only: no compile state on the op
  // descs (no per-node allocation, nothing repeated in MODEL_DEF).
  NodePtr add_node = graph->FindNode("add");
  EXPECT_EQ(add_node->GetOpDesc()->GetId(), add.op_index());
  EXPECT_TRUE(add_node->GetOpDesc()->GetOutputOffset().empty());
  EXPECT_TRUE(add_node->GetOpDesc()->GetInputOffset().empty());
  EXPECT_FALSE(add_node->GetOpDesc()->HasExtState());
}

TEST(ModelBuilderTest, ConstValuesMoveToWeightsAndRestore) {
  ComputeGraphPtr graph = SmallGraph();
  ModelBuilder builder;
  auto model = builder.Build(graph);
  ASSERT_TRUE(model.ok()) << model.status();
  GeModel& m = *(*model)->root;
  NodePtr w = graph->FindNode("w");
  EXPECT_FALSE(w->GetOpDesc()->HasAttr("value"));
  EXPECT_TRUE(w->GetOpDesc()->HasAttr(kAttrWeightOffset));
  EXPECT_FALSE(w->GetOpDesc()->HasAttr(kAttrWeightDims));  // the output desc names them
  float expected[6] = {1, 2, 3, 4, 5, 6};
  const uint8_t* bytes = m.weights.Find(0, sizeof(expected));
  ASSERT_NE(bytes, nullptr);
  EXPECT_EQ(std::memcmp(bytes, expected, sizeof(expected)), 0);
  EXPECT_EQ(m.weights.Find(0, sizeof(expected) + 1), nullptr);  // runs into the zero gap
  EXPECT_EQ(m.weights.Find(60, 8), nullptr);                    // past the blob
  const WeightBuffer flat = MakeContiguousWeights(m.weights);
  ASSERT_NE(flat.data, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(flat.data) % kWeightAlign, 0u);
  EXPECT_EQ(std::memcmp(flat.data, expected, sizeof(expected)), 0);
  for (size_t i = sizeof(expected); i < 64; ++i) EXPECT_EQ(flat.data[i], 0) << i;
  ASSERT_TRUE(RestoreConstValues(m).ok());
  const AttrValue* v = w->GetOpDesc()->GetAttr("value");
  ASSERT_NE(v, nullptr);
  const GeTensor* t = v->Get<GeTensor>();
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->GetData().size(), sizeof(expected));
  EXPECT_EQ(std::memcmp(t->GetData().data(), expected, sizeof(expected)), 0);
  EXPECT_EQ(t->GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
  EXPECT_FALSE(w->GetOpDesc()->HasAttr(kAttrWeightOffset));
}

TEST(ModelBuilderTest, ConstWhoseValueDescDiffersKeepsItsDesc) {
  GraphMaker g("reshaped");
  NodePtr x = g.Data("x", 0, {4});
  NodePtr c = g.ConstF32("c", {4}, {1, 2, 3, 4});
  // The output desc says [2, 2]; the value says [4].
  ASSERT_TRUE(c->GetOpDesc()->UpdateOutputDesc(0, GeTensorDesc(GeShape({2, 2}))).ok());
  NodePtr y = g.Binary("y", "Add", x, c);
  g.NetOutput({{y, 0}});
  auto model = ModelBuilder().Build(g.graph());
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_TRUE(c->GetOpDesc()->HasAttr(kAttrWeightDims));
  EXPECT_FALSE(g.graph()->FindNode("x")->GetOpDesc()->HasAttr(kAttrWeightDims));
  ASSERT_TRUE(RestoreConstValues(*(*model)->root).ok());
  const GeTensor* t = c->GetOpDesc()->GetAttr("value")->Get<GeTensor>();
  EXPECT_EQ(t->GetTensorDesc().GetShape().GetDims(), std::vector<int64_t>{4});
  EXPECT_FALSE(c->GetOpDesc()->HasAttr(kAttrWeightDims));
}

TEST(ModelBuilderTest, RestoreRejectsOutOfRangeWeights) {
  ComputeGraphPtr graph = SmallGraph();
  auto model = ModelBuilder().Build(graph);
  ASSERT_TRUE(model.ok());
  GeModel& m = *(*model)->root;
  NodePtr w = graph->FindNode("w");
  ASSERT_TRUE(w->GetOpDesc()->SetAttr(kAttrWeightOffset, AttrValue::CreateFrom<int64_t>(60)).ok());
  Status st = RestoreConstValues(m);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kOutOfRange) << st;
  EXPECT_NE(std::string(st.message()).find("'w'"), std::string::npos) << st;
}

TEST(ModelBuilderTest, IdenticalConstantsStoredOnce) {
  GraphMaker g("dedup");
  NodePtr x = g.Data("x", 0, {4});
  NodePtr a = g.ConstF32("a", {4}, {1, 2, 3, 4});
  NodePtr b = g.ConstF32("b", {4}, {1, 2, 3, 4});     // same as a
  NodePtr c = g.ConstF32("c", {2, 2}, {1, 2, 3, 4});  // same bytes, other dims
  NodePtr d = g.ConstBytes("d", {4}, DT_INT32, std::vector<uint8_t>(16, 0));
  NodePtr e = g.ConstF32("e", {4}, {1, 2, 3, 5});  // differs in one byte
  NodePtr y = g.Binary("y0", "Add", x, a);
  y = g.Binary("y1", "Add", y, b);
  y = g.Op("y2", "Reshape", {{y, 0}, {c, 0}}, {y->GetOpDesc()->GetOutputDesc(0)});
  y = g.Binary("y3", "Add", y, d);
  y = g.Binary("y4", "Add", y, e);
  g.NetOutput({{y, 0}});
  ModelBuilder builder;
  auto model = builder.Build(g.graph());
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(builder.stats().num_consts, 5u);
  EXPECT_EQ(builder.stats().num_unique_weights, 4u);
  const proto::ModelTaskDef& def = (*model)->root->task_def;
  EXPECT_EQ(def.weight_size(), 4 * kWeightAlign);
  EXPECT_EQ(FindTask(def, "y0")->input(1).offset(), FindTask(def, "y1")->input(1).offset());
  std::vector<uint64_t> offsets = {
      FindTask(def, "y0")->input(1).offset(), FindTask(def, "y2")->input(1).offset(),
      FindTask(def, "y3")->input(1).offset(), FindTask(def, "y4")->input(1).offset()};
  for (size_t i = 0; i < offsets.size(); ++i) {
    EXPECT_EQ(offsets[i] % kWeightAlign, 0u);
    for (size_t j = i + 1; j < offsets.size(); ++j) EXPECT_NE(offsets[i], offsets[j]);
  }
  // Every restored constant equals its original value.
  GeModel& m = *(*model)->root;
  ASSERT_TRUE(RestoreConstValues(m).ok());
  const GeTensor* et = g.graph()->FindNode("e")->GetOpDesc()->GetAttr("value")->Get<GeTensor>();
  float ev[4];
  std::memcpy(ev, et->GetData().data(), 16);
  EXPECT_EQ(ev[3], 5.0f);
}

TEST(ModelBuilderTest, ArenaReuseAlongAChain) {
  auto build = [](bool disable) {
    GraphMaker g("chain");
    NodePtr x = g.Data("x", 0, {16});
    for (int i = 0; i < 10; ++i) x = g.Unary(absl::StrCat("r", i), "Relu", x);
    g.NetOutput({{x, 0}});
    ModelBuildOptions o;
    o.disable_reuse_memory = disable;
    ModelBuilder builder(o);
    auto model = builder.Build(g.graph());
    EXPECT_TRUE(model.ok()) << model.status();
    return std::make_pair(*model, builder.stats());
  };
  auto [reuse, reuse_stats] = build(false);
  auto [plain, plain_stats] = build(true);
  // 9 arena tensors (the last one is the model output); a chain needs 2.
  EXPECT_EQ(reuse->root->task_def.memory_size(), 2 * kMemAlign);
  EXPECT_EQ(plain->root->task_def.memory_size(), 9 * kMemAlign);
  EXPECT_EQ(reuse_stats.memory.no_reuse_size, 9 * kMemAlign);
  for (const auto& m : {reuse, plain}) {
    std::vector<Node*> nodes = Nodes(m->root->graph);
    const proto::ModelTaskDef& def = m->root->task_def;
    for (int t = 1; t < def.task_size(); ++t) {
      EXPECT_EQ(def.task(t).input(0).offset(), def.task(t - 1).output(0).offset());
      if (def.task(t).output(0).kind() == proto::MEM_ARENA) {
        EXPECT_NE(def.task(t).input(0).offset(), def.task(t).output(0).offset());
      }
    }
  }
}

TEST(ModelBuilderTest, OutputCopies) {
  GraphMaker g("outs");
  NodePtr x = g.Data("x", 0, {8});
  NodePtr c = g.ConstF32("c", {8}, std::vector<float>(8, 2.0f));
  NodePtr r = g.Unary("r", "Relu", x);
  NodePtr s = g.Unary("s", "Sigmoid", r);  // r is output 2 and read by s
  NodePtr t = g.Unary("t", "Tanh", s);     // t is outputs 3 and 4 (duplicate)
  g.NetOutput({{x, 0}, {c, 0}, {r, 0}, {t, 0}, {t, 0}});
  auto model = ModelBuilder().Build(g.graph());
  ASSERT_TRUE(model.ok()) << model.status();
  const proto::ModelTaskDef& def = (*model)->root->task_def;
  // 3 kernels + memcpy for x, c and both copies of t.
  ASSERT_EQ(def.task_size(), 7);
  const proto::TaskDef* rt = FindTask(def, "r");
  EXPECT_EQ(rt->output(0).kind(), proto::MEM_MODEL_OUTPUT);
  EXPECT_EQ(rt->output(0).index(), 2u);
  EXPECT_EQ(FindTask(def, "s")->input(0).kind(), proto::MEM_MODEL_OUTPUT);
  const proto::TaskDef* tt = FindTask(def, "t");
  EXPECT_EQ(tt->output(0).kind(), proto::MEM_ARENA);
  std::vector<std::pair<proto::MemKind, uint32_t>> copies;
  for (const proto::TaskDef& task : def.task()) {
    if (task.type() != proto::TASK_MEMCPY) continue;
    EXPECT_EQ(task.engine(), "DNN_VM_RTS");
    ASSERT_EQ(task.output_size(), 1);
    EXPECT_EQ(task.output(0).kind(), proto::MEM_MODEL_OUTPUT);
    EXPECT_EQ(task.output(0).size(), 32u);
    copies.emplace_back(task.input(0).kind(), task.output(0).index());
  }
  std::vector<std::pair<proto::MemKind, uint32_t>> expected = {{proto::MEM_MODEL_INPUT, 0},
                                                               {proto::MEM_WEIGHTS, 1},
                                                               {proto::MEM_ARENA, 3},
                                                               {proto::MEM_ARENA, 4}};
  EXPECT_EQ(copies, expected);
  // The arena tensor read by the copies stays alive: nothing else overlaps it.
  std::vector<Node*> nodes = Nodes(g.graph());
  EXPECT_EQ(def.output_size(), 5);
  EXPECT_EQ(def.output(3).name(), "t:0");
}

TEST(ModelBuilderTest, WorkspacesAndAbsentInputs) {
  GraphMaker g("ws");
  NodePtr x = g.Data("x", 0, {4});
  NodePtr a = g.Op("a", "Clip", {{x, 0}, {nullptr, 0}}, {x->GetOpDesc()->GetOutputDesc(0)});
  a->GetOpDesc()->SetWorkspaceBytes({100, 0});
  NodePtr b = g.Unary("b", "Relu", a);
  g.NetOutput({{b, 0}});
  ModelBuilder builder;
  auto model = builder.Build(g.graph());
  ASSERT_TRUE(model.ok()) << model.status();
  const proto::TaskDef* at = FindTask((*model)->root->task_def, "a");
  ASSERT_EQ(at->input_size(), 2);
  EXPECT_EQ(at->input(1).kind(), proto::MEM_ABSENT);
  ASSERT_EQ(at->workspace_size(), 2);
  EXPECT_EQ(at->workspace(0).kind(), proto::MEM_ARENA);
  EXPECT_EQ(at->workspace(0).size(), 100u);
  EXPECT_NE(at->workspace(0).offset(), at->output(0).offset());
  EXPECT_TRUE(a->GetOpDesc()->GetWorkspace().empty());  // in the task only
  EXPECT_GE((*model)->root->task_def.memory_size(), 128u + 64u);
}

// Output bytes (task refs, model io) equal GeTensorDesc::GetDataSize for
// sub-byte types, empty tensors and non-ND formats; an oversized shape is an
// error naming the node, not a wrapped size.
TEST(ModelBuilderTest, OutputSizesMatchGetDataSize) {
  GraphMaker g("sizes");
  NodePtr x = g.Data("x", 0, {2, 3});
  const std::vector<GeTensorDesc> outs = {
      GeTensorDesc(GeShape({3, 3}), FORMAT_ND, DT_INT4),   // 9 nibbles -> 5 bytes
      GeTensorDesc(GeShape({0, 5}), FORMAT_ND, DT_FLOAT),  // empty
      GeTensorDesc(GeShape({1, 2, 3, 4}), FORMAT_NHWC, DT_FLOAT16),
      GeTensorDesc(GeShape({}), FORMAT_NCHW, DT_DOUBLE),  // scalar
  };
  NodePtr a = g.Op("a", "Split4", {{x, 0}}, outs);
  g.NetOutput({{a, 0}, {a, 1}, {a, 2}, {a, 3}});
  auto model = ModelBuilder().Build(g.graph());
  ASSERT_TRUE(model.ok()) << model.status();
  const proto::ModelTaskDef& def = (*model)->root->task_def;
  const proto::TaskDef* at = FindTask(def, "a");
  ASSERT_NE(at, nullptr);
  ASSERT_EQ(at->output_size(), 4);
  ASSERT_EQ(def.output_size(), 4);
  const std::vector<uint64_t> want = {5, 0, 48, 8};
  for (int k = 0; k < 4; ++k) {
    StatusOr<int64_t> slow = outs[static_cast<size_t>(k)].GetDataSize();
    ASSERT_TRUE(slow.ok()) << slow.status();
    EXPECT_EQ(static_cast<uint64_t>(*slow), want[static_cast<size_t>(k)]) << k;
    EXPECT_EQ(at->output(k).size(), want[static_cast<size_t>(k)]) << k;
    EXPECT_EQ(def.output(k).size(), want[static_cast<size_t>(k)]) << k;
  }

  GraphMaker big("big");
  NodePtr y = big.Data("y", 0, {2});
  NodePtr b =
      big.Op("huge", "Tile", {{y, 0}},
             {GeTensorDesc(GeShape({int64_t{1} << 40, int64_t{1} << 40}), FORMAT_ND, DT_FLOAT)});
  NodePtr r = big.Unary("r", "Relu", y);
  big.NetOutput({{r, 0}});
  (void)b;
  auto bad = ModelBuilder().Build(big.graph());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find("'huge'"), std::string::npos) << bad.status();
}

TEST(ModelBuilderTest, NegativeWorkspaceRejected) {
  ComputeGraphPtr graph = SmallGraph();
  graph->FindNode("add")->GetOpDesc()->SetWorkspaceBytes({-5});
  auto model = ModelBuilder().Build(graph);
  EXPECT_EQ(GetErrorCode(model.status()), ErrorCode::kParamInvalid);
  EXPECT_NE(std::string(model.status().message()).find("-5"), std::string::npos);
}

TEST(ModelBuilderTest, DynamicModels) {
  {
    GraphMaker g("unknown");
    NodePtr x = g.Data("x", 0, {-1, 3});
    NodePtr r = g.Unary("r", "Relu", x);
    g.NetOutput({{r, 0}});
    ModelBuilder builder;
    auto model = builder.Build(g.graph());
    ASSERT_TRUE(model.ok()) << model.status();
    EXPECT_TRUE((*model)->root->task_def.dynamic());
    EXPECT_EQ((*model)->root->task_def.task_size(), 0);
    EXPECT_EQ((*model)->root->task_def.input(0).dims(0), -1);
    EXPECT_NE(builder.stats().dynamic_reason.find("unknown shape"), std::string::npos);
  }
  {
    GraphMaker g("nonzero");
    NodePtr x = g.Data("x", 0, {4});
    NodePtr nz =
        g.Op("nz", "NonZero", {{x, 0}}, {GeTensorDesc(GeShape({1, 4}), FORMAT_ND, DT_INT64)});
    g.NetOutput({{nz, 0}});
    auto model = ModelBuilder().Build(g.graph());
    ASSERT_TRUE(model.ok()) << model.status();
    EXPECT_TRUE((*model)->root->task_def.dynamic());
  }
  {
    GraphMaker g("strings");
    NodePtr x = g.Data("x", 0, {4}, DT_STRING);
    NodePtr y = g.Unary("y", "Identity", x);
    g.NetOutput({{y, 0}});
    auto model = ModelBuilder().Build(g.graph());
    ASSERT_TRUE(model.ok()) << model.status();
    EXPECT_TRUE((*model)->root->task_def.dynamic());
  }
  {
    ComputeGraphPtr graph = SmallGraph();
    auto sub = std::make_shared<ComputeGraph>("body");
    NodePtr relu = graph->FindNode("relu");
    relu->GetOpDesc()->AddSubgraphInstanceName("body");
    sub->SetParentGraph(graph);
    sub->SetParentNode(relu);
    Status st = graph->AddSubgraph("body", sub);
    ASSERT_TRUE(st.ok()) << st;
    auto model = ModelBuilder().Build(graph);
    ASSERT_TRUE(model.ok()) << model.status();
    EXPECT_TRUE((*model)->root->task_def.dynamic());
  }
}

TEST(ModelBuilderTest, BadGraphsRejected) {
  EXPECT_EQ(GetErrorCode(ModelBuilder().Build(nullptr).status()), ErrorCode::kParamInvalid);
  {
    GraphMaker g("no_output");
    NodePtr x = g.Data("x", 0, {4});
    g.Unary("r", "Relu", x);
    EXPECT_EQ(GetErrorCode(ModelBuilder().Build(g.graph()).status()), ErrorCode::kGraphInvalid);
  }
  {
    GraphMaker g("bad_index");
    NodePtr x = g.Data("x", 0, {4});
    NodePtr y = g.Data("y", 2, {4});
    g.NetOutput({{g.Binary("a", "Add", x, y), 0}});
    Status st = ModelBuilder().Build(g.graph()).status();
    EXPECT_EQ(GetErrorCode(st), ErrorCode::kGraphInvalid);
    EXPECT_NE(std::string(st.message()).find("'y'"), std::string::npos) << st;
  }
  {
    GraphMaker g("no_index");
    NodePtr x = g.Data("x", 0, {4});
    ASSERT_TRUE(x->GetOpDesc()->DelAttr("index").ok());
    g.NetOutput({{x, 0}});
    EXPECT_EQ(GetErrorCode(ModelBuilder().Build(g.graph()).status()), ErrorCode::kGraphInvalid);
  }
  {
    GraphMaker g("const_no_value");
    NodePtr c = g.ConstF32("c", {1}, {1});
    ASSERT_TRUE(c->GetOpDesc()->DelAttr("value").ok());
    g.NetOutput({{c, 0}});
    Status st = ModelBuilder().Build(g.graph()).status();
    EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotFound);
    EXPECT_NE(std::string(st.message()).find("'c'"), std::string::npos) << st;
  }
  {
    GraphMaker g("dangling_output");
    NodePtr x = g.Data("x", 0, {4});
    g.Op("output", "NetOutput", {{nullptr, 0}}, {});
    (void)x;
    EXPECT_EQ(GetErrorCode(ModelBuilder().Build(g.graph()).status()), ErrorCode::kGraphInvalid);
  }
  {
    GraphMaker g("two_outputs");
    NodePtr x = g.Data("x", 0, {4});
    g.NetOutput({{x, 0}}, "o1");
    g.NetOutput({{x, 0}}, "o2");
    EXPECT_EQ(GetErrorCode(ModelBuilder().Build(g.graph()).status()), ErrorCode::kGraphInvalid);
  }
}

// x (Data) -> relu -> output (NetOutput), [4] each, added to `graph` in the
// order given (consumers first makes an unsorted graph).
enum ChainNode { kData, kRelu, kOut };
struct ReluChain {
  NodePtr data, relu, out;
};
ReluChain AddReluChain(const ComputeGraphPtr& graph, std::initializer_list<ChainNode> order) {
  GeTensorDesc d(GeShape({4}));
  auto out_op = std::make_shared<OpDesc>("output", "NetOutput");
  EXPECT_TRUE(out_op->AddInputDesc("x", d).ok());
  auto relu_op = std::make_shared<OpDesc>("relu", "Relu");
  EXPECT_TRUE(relu_op->AddInputDesc("x", d).ok());
  EXPECT_TRUE(relu_op->AddOutputDesc("y", d).ok());
  auto data_op = std::make_shared<OpDesc>("x", "Data");
  EXPECT_TRUE(data_op->AddOutputDesc("y", d).ok());
  EXPECT_TRUE(data_op->SetAttr("index", AttrValue::CreateFrom<int64_t>(0)).ok());
  ReluChain c;
  for (ChainNode which : order) {
    switch (which) {
      case kData:
        c.data = *graph->AddNode(data_op);
        break;
      case kRelu:
        c.relu = *graph->AddNode(relu_op);
        break;
      case kOut:
        c.out = *graph->AddNode(out_op);
        break;
    }
  }
  EXPECT_TRUE(c.relu->GetInDataAnchor(0)->LinkFrom(c.data->GetOutDataAnchor(0)).ok());
  EXPECT_TRUE(c.out->GetInDataAnchor(0)->LinkFrom(c.relu->GetOutDataAnchor(0)).ok());
  return c;
}

TEST(ModelBuilderTest, UnsortedGraphIsOrdered) {
  // Nodes added consumer first: the builder re-sorts.
  auto graph = std::make_shared<ComputeGraph>("unsorted");
  const ReluChain c = AddReluChain(graph, {kOut, kRelu, kData});
  auto model = ModelBuilder().Build(graph);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_LT(c.data->GetOpDesc()->GetId(), c.relu->GetOpDesc()->GetId());
  EXPECT_LT(c.relu->GetOpDesc()->GetId(), c.out->GetOpDesc()->GetId());
  EXPECT_EQ((*model)->root->task_def.task(0).input(0).kind(), proto::MEM_MODEL_INPUT);
}

TEST(ModelBuilderTest, DeterministicForAnyThreadCount) {
  std::string first;
  for (int threads : {1, 2, 8}) {
    ComputeGraphPtr graph = buildtest::MakeAddReluChain(12000, {4});
    ModelBuildOptions o;
    o.num_threads = threads;
    auto model = ModelBuilder(o).Build(graph);
    ASSERT_TRUE(model.ok()) << model.status();
    std::string bytes;
    ASSERT_TRUE((*model)->root->task_def.SerializeToString(&bytes));
    if (first.empty()) {
      first = bytes;
      EXPECT_EQ((*model)->root->task_def.task_size(), 7998);
    } else {
      EXPECT_EQ(bytes, first) << threads << " threads";
    }
  }
}

TEST(ModelBuilderTest, PlanHasNoOverlapOnABranchyGraph) {
  GraphMaker g("branchy");
  NodePtr x = g.Data("x", 0, {32});
  std::vector<NodePtr> live = {x};
  for (int i = 0; i < 40; ++i) {
    NodePtr a = live[(i * 7) % live.size()];
    NodePtr b = live[(i * 3 + 1) % live.size()];
    live.push_back(g.Binary(absl::StrCat("n", i), i % 2 ? "Add" : "Mul", a, b));
  }
  g.NetOutput({{live.back(), 0}, {live[10], 0}});
  ModelBuilder builder;
  auto model = builder.Build(g.graph());
  ASSERT_TRUE(model.ok()) << model.status();
  // Rebuild the slot table from the tasks and verify it.
  std::vector<Node*> nodes = Nodes(g.graph());
  std::vector<NodeMemory> mem(nodes.size());
  for (const proto::TaskDef& t : (*model)->root->task_def.task()) {
    if (t.type() != proto::TASK_KERNEL) continue;
    for (const proto::TensorRef& r : t.output()) {
      TensorSlot s;
      s.kind = r.kind();
      s.offset = r.offset();
      s.size = r.size();
      mem[t.op_index()].outputs.push_back(s);
    }
  }
  EXPECT_TRUE(VerifyArenaPlan(nodes, mem, (*model)->root->task_def.memory_size()).ok());
  EXPECT_LT(builder.stats().memory.arena_size, builder.stats().memory.no_reuse_size);
}

TEST(ModelBuilderTest, AfterCompilerStages) {
  ComputeGraphPtr graph = SmallGraph();
  CompilerStages stages;
  auto compiled = stages.Compile(graph, CompileOptions{});
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  ModelBuildOptions o;
  o.attrs["soc_version"] = "x86_64";
  auto model = ModelBuilder(o).Build(compiled->graph);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ((*model)->root->task_def.task_size(), 2);
  EXPECT_EQ((*model)->root->attrs.at("soc_version"), "x86_64");
  EXPECT_EQ((*model)->root->task_def.task(0).engine(), "DNN_VM_HOST_CPU");
}

// Size errors (an overflowing shape, a negative workspace) are errors of
// static models only: a later node that makes the model dynamic wins, as
// no memory is planned then.
TEST(ModelBuilderTest, SizeErrorsWaitForTheDynamicCheck) {
  auto make = [](bool dynamic_tail, bool bad_workspace) {
    GraphMaker g("late_dynamic");
    NodePtr y = g.Data("y", 0, {2});
    NodePtr b =
        g.Op("huge", "Tile", {{y, 0}},
             {GeTensorDesc(GeShape({int64_t{1} << 40, int64_t{1} << 40}), FORMAT_ND, DT_FLOAT)});
    if (bad_workspace) {
      EXPECT_TRUE(b->GetOpDesc()
                      ->UpdateOutputDesc(0, GeTensorDesc(GeShape({2}), FORMAT_ND, DT_FLOAT))
                      .ok());
      b->GetOpDesc()->SetWorkspaceBytes({-7});
    }
    NodePtr r = dynamic_tail ? g.Op("r", "Relu", {{b, 0}},
                                    {GeTensorDesc(GeShape({-1}), FORMAT_ND, DT_FLOAT)})
                             : g.Unary("r", "Relu", y);
    g.NetOutput({{r, 0}});
    return g.graph();
  };
  for (bool bad_workspace : {false, true}) {
    SCOPED_TRACE(bad_workspace ? "negative workspace" : "oversized output");
    ModelBuilder builder;
    auto dynamic = builder.Build(make(true, bad_workspace));
    ASSERT_TRUE(dynamic.ok()) << dynamic.status();
    EXPECT_TRUE((*dynamic)->root->task_def.dynamic());
    EXPECT_NE(builder.stats().dynamic_reason.find("'r'"), std::string::npos)
        << builder.stats().dynamic_reason;
    auto bad = ModelBuilder().Build(make(false, bad_workspace));
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(std::string(bad.status().message()).find("'huge'"), std::string::npos)
        << bad.status();
    if (bad_workspace) {
      EXPECT_NE(std::string(bad.status().message()).find("-7"), std::string::npos) << bad.status();
    }
  }
}

// The builder's lifetimes (found while scanning) give the plan PlanArena
// makes from the graph, offset for offset: the memory plan is unchanged.
TEST(ModelBuilderTest, PlanEqualsThePlanFromGraphLifetimes) {
  GraphMaker branchy("branchy");
  {
    NodePtr x = branchy.Data("x", 0, {32});
    std::vector<NodePtr> live = {x};
    for (int i = 0; i < 60; ++i) {
      NodePtr a = live[(i * 7) % live.size()];
      NodePtr b = live[(i * 3 + 1) % live.size()];
      live.push_back(i % 5 == 4
                         ? branchy.Op(absl::StrCat("n", i), "Concat", {{a, 0}, {b, 0}},
                                      {GeTensorDesc(GeShape({64 + 16 * i}), FORMAT_ND, DT_FLOAT)})
                         : branchy.Binary(absl::StrCat("n", i), i % 2 ? "Add" : "Mul", a, b));
      if (i % 9 == 0) live.back()->GetOpDesc()->SetWorkspaceBytes({100 + i});
    }
    branchy.NetOutput({{live.back(), 0}, {live[10], 0}});
  }
  for (const ComputeGraphPtr& graph : {branchy.graph(), buildtest::MakeLadder(3000)}) {
    SCOPED_TRACE(graph->GetName());
    ModelBuilder builder;
    auto model = builder.Build(graph);
    ASSERT_TRUE(model.ok()) << model.status();
    const proto::ModelTaskDef& def = (*model)->root->task_def;
    // The slot table as the tasks record it, without offsets.
    std::vector<Node*> nodes = Nodes(graph);
    std::vector<NodeMemory> mem(nodes.size());
    std::vector<NodeMemory> planned(nodes.size());
    for (const proto::TaskDef& t : def.task()) {
      if (t.type() != proto::TASK_KERNEL) continue;
      for (const proto::TensorRef& r : t.output()) {
        TensorSlot s;
        s.kind = r.kind();
        s.size = r.size();
        s.offset = r.offset();
        planned[t.op_index()].outputs.push_back(s);
        s.offset = 0;
        mem[t.op_index()].outputs.push_back(s);
      }
      for (const proto::TensorRef& r : t.workspace()) {
        TensorSlot s;
        s.size = r.size();
        mem[t.op_index()].workspaces.push_back(s);
      }
    }
    // ARENA tensors copied to the model outputs stay alive.
    for (const proto::TaskDef& t : def.task()) {
      if (t.type() != proto::TASK_MEMCPY || t.input(0).kind() != proto::MEM_ARENA) continue;
      for (NodeMemory& m : mem) {
        for (size_t k = 0; k < m.outputs.size(); ++k) {
          if (m.outputs[k].kind == proto::MEM_ARENA &&
              planned[&m - mem.data()].outputs[k].offset == t.input(0).offset()) {
            m.outputs[k].keep_alive = true;
          }
        }
      }
    }
    auto from_graph = PlanArena(nodes, mem, MemPlanOptions{});
    ASSERT_TRUE(from_graph.ok()) << from_graph.status();
    EXPECT_EQ(from_graph->arena_size, def.memory_size());
    EXPECT_EQ(from_graph->arena_size, builder.stats().memory.arena_size);
    EXPECT_EQ(from_graph->num_blocks, builder.stats().memory.num_blocks);
    for (const proto::TaskDef& t : def.task()) {
      if (t.type() != proto::TASK_KERNEL) continue;
      for (int k = 0; k < t.output_size(); ++k) {
        EXPECT_EQ(t.output(k).offset(), mem[t.op_index()].outputs[k].offset)
            << t.node_name() << ":" << k;
      }
      for (int w = 0; w < t.workspace_size(); ++w) {
        EXPECT_EQ(t.workspace(w).offset(), mem[t.op_index()].workspaces[w].offset) << t.node_name();
      }
    }
    EXPECT_TRUE(VerifyArenaPlan(nodes, mem, def.memory_size()).ok());
  }
}

// A data output wired to a control input (GE allows data -> control edges)
// is read by that node: it stays alive until then.
TEST(ModelBuilderTest, DataToControlEdgeExtendsTheLifetime) {
  GraphMaker g("ctrl");
  NodePtr x = g.Data("x", 0, {16});
  NodePtr a = g.Unary("a", "Relu", x);
  NodePtr b = g.Unary("b", "Relu", a);
  NodePtr c = g.Unary("c", "Relu", b);
  NodePtr d = g.Unary("d", "Relu", c);
  g.NetOutput({{d, 0}});
  auto offsets = [&]() {
    auto model = ModelBuilder().Build(g.graph());
    EXPECT_TRUE(model.ok()) << model.status();
    const proto::ModelTaskDef& def = (*model)->root->task_def;
    return std::make_pair(FindTask(def, "a")->output(0).offset(),
                          FindTask(def, "c")->output(0).offset());
  };
  auto [a_free, c_free] = offsets();
  EXPECT_EQ(a_free, c_free);  // a dies at b: c takes its block
  ASSERT_TRUE(a->GetOutDataAnchor(0)->LinkTo(c->GetInControlAnchor()).ok());
  auto [a_held, c_held] = offsets();
  EXPECT_NE(a_held, c_held);  // a is read by c now
}

// Stale op ids (from an earlier numbering) never pass for a valid order.
TEST(ModelBuilderTest, StaleIdsDoNotHideAnUnsortedGraph) {
  auto graph = std::make_shared<ComputeGraph>("stale");
  const ReluChain c = AddReluChain(graph, {kRelu, kOut, kData});
  OpDesc* const data_op = c.data->GetOpDescBarePtr();
  OpDesc* const relu_op = c.relu->GetOpDescBarePtr();
  OpDesc* const out_op = c.out->GetOpDescBarePtr();
  // relu (position 0) reads x whose stale id 0 is relu's own position;
  // output (position 1) reads relu, id 0: correct. Only x is out of order.
  data_op->SetId(0);
  auto model = ModelBuilder().Build(graph);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(data_op->GetId(), 0);
  EXPECT_EQ(relu_op->GetId(), 1);
  EXPECT_EQ(out_op->GetId(), 2);
  ASSERT_EQ((*model)->root->task_def.task_size(), 1);
  EXPECT_EQ((*model)->root->task_def.task(0).input(0).kind(), proto::MEM_MODEL_INPUT);
  EXPECT_EQ((*model)->root->task_def.task(0).output(0).kind(), proto::MEM_MODEL_OUTPUT);
}

// Constants whose sampled bytes agree but whose contents differ share a
// dedup key: each is still stored once, and copies find theirs further down
// the key's chain (below and above the 4096-byte full-hash threshold).
TEST(ModelBuilderTest, DedupKeyCollisionsStayExact) {
  for (size_t elems : {size_t{1024}, size_t{4096}}) {
    SCOPED_TRACE(elems);
    std::vector<float> base(elems);
    for (size_t i = 0; i < elems; ++i) base[i] = static_cast<float>(i % 97);
    std::vector<float> other = base;
    other[250] += 1.0f;  // bytes 1000..1003: outside every sample
    GraphMaker g("collide");
    NodePtr x = g.Data("x", 0, {static_cast<int64_t>(elems)});
    const int64_t n = static_cast<int64_t>(elems);
    NodePtr y = x;
    int k = 0;
    for (const std::vector<float>* v : {&base, &other, &base, &other}) {
      NodePtr c = g.ConstF32(absl::StrCat("c", k), {n}, *v);
      y = g.Binary(absl::StrCat("y", k), "Add", y, c);
      ++k;
    }
    g.NetOutput({{y, 0}});
    ModelBuilder builder;
    auto model = builder.Build(g.graph());
    ASSERT_TRUE(model.ok()) << model.status();
    EXPECT_EQ(builder.stats().num_consts, 4u);
    EXPECT_EQ(builder.stats().num_unique_weights, 2u);
    const proto::ModelTaskDef& def = (*model)->root->task_def;
    const uint64_t c0 = FindTask(def, "y0")->input(1).offset();
    const uint64_t c1 = FindTask(def, "y1")->input(1).offset();
    EXPECT_NE(c0, c1);
    EXPECT_EQ(FindTask(def, "y2")->input(1).offset(), c0);
    EXPECT_EQ(FindTask(def, "y3")->input(1).offset(), c1);
    ASSERT_TRUE(RestoreConstValues(*(*model)->root).ok());
    const GeTensor* t3 = g.graph()->FindNode("c3")->GetOpDesc()->GetAttr("value")->Get<GeTensor>();
    ASSERT_EQ(t3->GetData().size(), elems * sizeof(float));
    EXPECT_EQ(std::memcmp(t3->GetData().data(), other.data(), elems * sizeof(float)), 0);
  }
}

}  // namespace
}  // namespace ge
