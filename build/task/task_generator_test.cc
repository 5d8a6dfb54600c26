// build/task/task_generator_test.cc
#include "build/task/task_generator.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "build/memory/mem_planner.h"
#include "build/model/build_test_util.h"
#include "google/protobuf/arena.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using buildtest::GraphMaker;

struct Planned {
  std::vector<Node*> nodes;
  std::vector<NodeMemory> mem;
};

Planned Plan(const ComputeGraphPtr& g) {
  Planned p;
  for (const NodePtr& n : g->DirectNodes()) {
    n->GetOpDesc()->SetId(static_cast<int64_t>(p.nodes.size()));
    p.nodes.push_back(n.get());
  }
  p.mem.resize(p.nodes.size());
  for (size_t i = 0; i < p.nodes.size(); ++i) {
    if (p.nodes[i]->GetType() == "NetOutput") continue;
    p.mem[i].outputs.resize(p.nodes[i]->GetAllOutDataAnchorsSize());
    for (TensorSlot& s : p.mem[i].outputs) s.size = 16;
  }
  EXPECT_TRUE(PlanArena(p.nodes, p.mem, MemPlanOptions{}).ok());
  return p;
}

TEST(TaskGeneratorTest, OneKernelTaskPerComputeNode) {
  GraphMaker g("g");
  NodePtr x = g.Data("x", 0, {2, 2});
  NodePtr c = g.ConstF32("c", {2, 2}, {1, 2, 3, 4});
  NodePtr a = g.Binary("a", "Add", x, c);
  a->GetOpDesc()->SetOpEngineName("AIcoreEngine");
  NodePtr n = g.Op("n", "NoOp", {}, {});
  NodePtr r = g.Unary("r", "Relu", a);
  g.NetOutput({{r, 0}});
  (void)n;
  Planned p = Plan(g.graph());
  proto::ModelTaskDef def;
  ASSERT_TRUE(TaskGenerator().Generate(p.nodes, p.mem, &def).ok());
  ASSERT_EQ(def.task_size(), 2);
  const proto::TaskDef& ta = def.task(0);
  EXPECT_EQ(ta.task_id(), 0u);
  EXPECT_EQ(ta.type(), proto::TASK_KERNEL);
  EXPECT_EQ(ta.node_name(), "a");
  EXPECT_EQ(ta.op_type(), "Add");
  EXPECT_EQ(ta.kernel_name(), ta.op_type());  // the kernel key is op_type
  EXPECT_EQ(ta.engine(), "AIcoreEngine");
  EXPECT_EQ(ta.op_index(), a->GetOpDesc()->GetId());
  EXPECT_EQ(ta.stream_id(), 0u);
  ASSERT_EQ(ta.input_size(), 2);
  EXPECT_EQ(ta.input(0).offset(), p.mem[0].outputs[0].offset);
  EXPECT_EQ(ta.input(0).size(), 16u);
  EXPECT_EQ(ta.input(0).dims_size(), 2);
  EXPECT_EQ(ta.output(0).offset(), p.mem[2].outputs[0].offset);
  const proto::TaskDef& tr = def.task(1);
  EXPECT_EQ(tr.task_id(), 1u);
  EXPECT_EQ(tr.engine(), "DNN_VM_HOST_CPU");
  EXPECT_EQ(tr.input(0).offset(), ta.output(0).offset());
}

TEST(TaskGeneratorTest, AbsentOptionalInputAndWorkspace) {
  GraphMaker g("g");
  NodePtr x = g.Data("x", 0, {4});
  NodePtr a = g.Op("a", "Clip", {{x, 0}, {nullptr, 0}, {x, 0}}, {x->GetOpDesc()->GetOutputDesc(0)});
  Planned p = Plan(g.graph());
  p.mem[1].workspaces.resize(1);
  p.mem[1].workspaces[0].size = 40;
  p.mem[1].workspaces[0].offset = 128;
  proto::ModelTaskDef def;
  ASSERT_TRUE(TaskGenerator().Generate(p.nodes, p.mem, &def).ok());
  ASSERT_EQ(def.task_size(), 1);
  ASSERT_EQ(def.task(0).input_size(), 3);
  EXPECT_EQ(def.task(0).input(1).kind(), proto::MEM_ABSENT);
  EXPECT_EQ(def.task(0).input(2).kind(), proto::MEM_ARENA);
  ASSERT_EQ(def.task(0).workspace_size(), 1);
  EXPECT_EQ(def.task(0).workspace(0).offset(), 128u);
  EXPECT_EQ(def.task(0).workspace(0).size(), 40u);
}

TEST(TaskGeneratorTest, SameBytesForAnyThreadCount) {
  ComputeGraphPtr graph = buildtest::MakeAddReluChain(20000, {3});
  Planned p = Plan(graph);
  std::string first;
  for (int threads : {1, 2, 8, 0}) {
    TaskGenOptions o;
    o.num_threads = threads;
    o.min_nodes_per_thread = 16;  // really split
    proto::ModelTaskDef def;
    ASSERT_TRUE(TaskGenerator(o).Generate(p.nodes, p.mem, &def).ok());
    std::string bytes;
    ASSERT_TRUE(def.SerializeToString(&bytes));
    if (first.empty()) {
      first = bytes;
      EXPECT_GT(def.task_size(), 13000);
      for (int t = 0; t < def.task_size(); ++t)
        ASSERT_EQ(def.task(t).task_id(), static_cast<uint32_t>(t));
    } else {
      EXPECT_EQ(bytes, first) << threads << " threads";
    }
  }
}

TEST(TaskGeneratorTest, BadInputsRejected) {
  GraphMaker g("g");
  NodePtr x = g.Data("x", 0, {4});
  NodePtr a = g.Unary("a", "Relu", x);
  Planned p = Plan(g.graph());
  EXPECT_EQ(GetErrorCode(TaskGenerator().Generate(p.nodes, p.mem, nullptr)),
            ErrorCode::kParamInvalid);
  std::vector<NodeMemory> short_mem(1);
  proto::ModelTaskDef def;
  EXPECT_EQ(GetErrorCode(TaskGenerator().Generate(p.nodes, short_mem, &def)),
            ErrorCode::kParamInvalid);
  a->GetOpDesc()->SetId(5);
  Status st = TaskGenerator().Generate(p.nodes, p.mem, &def);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(std::string(st.message()).find("'a'"), std::string::npos);
  // A producer without planned memory.
  a->GetOpDesc()->SetId(1);
  p.mem[0].outputs.clear();
  st = TaskGenerator().Generate(p.nodes, p.mem, &def);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kGraphInvalid) << st;
  EXPECT_EQ(def.task_size(), 0);  // nothing appended on error
}

// Appends after existing tasks (task_id = position); on an error in any
// worker the first error by node order is returned and nothing is appended.
TEST(TaskGeneratorTest, AppendsAndFailsAtomically) {
  ComputeGraphPtr graph = buildtest::MakeAddReluChain(3000, {2});
  Planned p = Plan(graph);
  proto::ModelTaskDef def;
  def.add_task()->set_node_name("pre");
  TaskGenOptions o;
  o.num_threads = 4;
  o.min_nodes_per_thread = 100;
  ASSERT_TRUE(TaskGenerator(o).Generate(p.nodes, p.mem, &def).ok());
  ASSERT_GT(def.task_size(), 1000);
  EXPECT_EQ(def.task(0).node_name(), "pre");
  for (int t = 1; t < def.task_size(); ++t)
    ASSERT_EQ(def.task(t).task_id(), static_cast<uint32_t>(t));

  // Break the producers of two nodes in different chunks: the earlier wins.
  const size_t late = p.nodes.size() - 10;
  const size_t early = p.nodes.size() / 3;
  p.mem[late].outputs.clear();
  p.mem[early].outputs.clear();
  proto::ModelTaskDef def2;
  Status st = TaskGenerator(o).Generate(p.nodes, p.mem, &def2);
  ASSERT_EQ(GetErrorCode(st), ErrorCode::kGraphInvalid) << st;
  EXPECT_NE(std::string(st.message()).find(absl::StrCat("'", p.nodes[early]->GetName(), "'")),
            std::string::npos)
      << st;
  EXPECT_EQ(def2.task_size(), 0);
}

// Node checks run inside the workers: a bad id or a null node in any chunk
// is reported (the earliest by node order) and nothing is appended.
TEST(TaskGeneratorTest, NodeErrorsInLaterChunks) {
  ComputeGraphPtr graph = buildtest::MakeAddReluChain(3000, {2});
  Planned p = Plan(graph);
  TaskGenOptions o;
  o.num_threads = 4;
  o.min_nodes_per_thread = 100;
  const size_t late = p.nodes.size() - 5;
  const size_t mid = p.nodes.size() / 2;
  proto::ModelTaskDef def;
  def.add_task()->set_node_name("pre");

  OpDesc* late_op = p.nodes[late]->GetOpDesc().get();
  late_op->SetId(7);
  Status st = TaskGenerator(o).Generate(p.nodes, p.mem, &def);
  ASSERT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid) << st;
  EXPECT_NE(std::string(st.message()).find(absl::StrCat("'", p.nodes[late]->GetName(), "'")),
            std::string::npos)
      << st;
  EXPECT_NE(std::string(st.message()).find(absl::StrCat("position ", late)), std::string::npos)
      << st;
  EXPECT_EQ(def.task_size(), 1);

  // A null node earlier than the bad id wins.
  std::vector<Node*> with_null = p.nodes;
  with_null[mid] = nullptr;
  st = TaskGenerator(o).Generate(with_null, p.mem, &def);
  ASSERT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid) << st;
  EXPECT_NE(std::string(st.message()).find(absl::StrCat("node ", mid, " is null")),
            std::string::npos)
      << st;
  EXPECT_EQ(def.task_size(), 1);

  // Repaired: ids continue after the existing task on every chunk.
  late_op->SetId(static_cast<int64_t>(late));
  ASSERT_TRUE(TaskGenerator(o).Generate(p.nodes, p.mem, &def).ok());
  proto::ModelTaskDef one;
  one.add_task()->set_node_name("pre");
  TaskGenOptions single;
  ASSERT_TRUE(TaskGenerator(single).Generate(p.nodes, p.mem, &one).ok());
  ASSERT_EQ(def.task_size(), one.task_size());
  for (int t = 0; t < def.task_size(); ++t) {
    ASSERT_EQ(def.task(t).task_id(), static_cast<uint32_t>(t)) << t;
    ASSERT_EQ(def.task(t).SerializeAsString(), one.task(t).SerializeAsString()) << t;
  }
}

// A task list on a protobuf Arena gets the same tasks (the arena owns them;
// the asan run checks that none leaks).
TEST(TaskGeneratorTest, ArenaOwnedTaskList) {
  ComputeGraphPtr graph = buildtest::MakeAddReluChain(500, {3});
  Planned p = Plan(graph);
  TaskGenOptions o;
  o.num_threads = 2;
  o.min_nodes_per_thread = 64;
  proto::ModelTaskDef heap;
  ASSERT_TRUE(TaskGenerator(o).Generate(p.nodes, p.mem, &heap).ok());
  google::protobuf::Arena arena;
  auto* on_arena = google::protobuf::Arena::CreateMessage<proto::ModelTaskDef>(&arena);
  ASSERT_TRUE(TaskGenerator(o).Generate(p.nodes, p.mem, on_arena).ok());
  EXPECT_GT(heap.task_size(), 300);
  EXPECT_EQ(on_arena->SerializeAsString(), heap.SerializeAsString());
}

// Generation only reads the graph: the op descs get no compile state.
TEST(TaskGeneratorTest, LeavesGraphUntouched) {
  GraphMaker g("g");
  NodePtr x = g.Data("x", 0, {2, 2});
  NodePtr a = g.Unary("a", "Relu", x);
  NodePtr r = g.Unary("r", "Relu", a);
  g.NetOutput({{r, 0}});
  Planned p = Plan(g.graph());
  proto::ModelTaskDef def;
  ASSERT_TRUE(TaskGenerator().Generate(p.nodes, p.mem, &def).ok());
  ASSERT_EQ(def.task_size(), 2);
  EXPECT_FALSE(a->GetOpDesc()->HasExtState());
  EXPECT_FALSE(r->GetOpDesc()->HasExtState());
  EXPECT_EQ(def.task(1).input(0).dims_size(), 2);
  EXPECT_EQ(def.task(1).input(0).data_type(), static_cast<int32_t>(DT_FLOAT));
}

TEST(TaskGeneratorTest, NonKernelTypes) {
  for (const char* t : {"Data", "Const", "Constant", "NetOutput", "NoOp", "RefData"}) {
    EXPECT_TRUE(IsNonKernelType(t)) << t;
  }
  for (const char* t : {"Add", "Relu", "If", "MatMul"}) EXPECT_FALSE(IsNonKernelType(t)) << t;
}

}  // namespace
}  // namespace ge
