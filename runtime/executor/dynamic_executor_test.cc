// runtime/executor/dynamic_executor_test.cc
//
// The dynamic executor on a hand-built dynamic model: a data-dependent op
// (NonZero) whose output shape is known only at run time.
#include "runtime/executor/dynamic_executor.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "build/model/ge_model.h"
#include "metadef/inc/external/base/status.h"
#include "runtime/reference/reference_interpreter.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using reftest::F32;

// y = NonZero(Relu(x + c)), x of [-1] (any length 4 vector at run time: c is [4]).
struct NonZeroModel {
  NonZeroModel() : g("nonzero") {
    NodePtr x = g.Data("x", 0);
    NodePtr c = g.Const("c", F32({4}, {1, -1, 0, 2}));
    NodePtr add = g.Op("add", "Add", {x, c});
    NodePtr relu = g.Op("relu", "Relu", {add});
    NodePtr nz = g.Op("nz", "NonZero", {relu});
    g.NetOutput({nz});
    model = std::make_shared<GeModel>();
    model->name = "nonzero";
    model->graph = g.graph();
    proto::ModelTaskDef& td = model->task_def;
    td.set_dynamic(true);
    proto::ModelIoDef* in = td.add_input();
    in->set_name("x");
    in->set_data_type(DT_FLOAT);
    in->add_dims(4);
    proto::ModelIoDef* out = td.add_output();
    out->set_name("nz:0");
    out->set_data_type(DT_INT64);
    out->add_dims(1);
    out->add_dims(-1);
  }
  reftest::TestGraph g;
  GeModelPtr model;
};

TEST(DynamicExecutorTest, RunsDataDependentGraph) {
  NonZeroModel m;
  auto exec = DynamicExecutor::Create(m.model);
  ASSERT_TRUE(exec.ok()) << exec.status();
  gert::HostTensor x = F32({4}, {0, 0, 1, -5});  // relu(x + c) = [1, 0, 1, 0]
  const gert::Tensor* views[] = {&x.tensor()};
  auto out = (*exec)->Run(views);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ(reftest::Dims((*out)[0]), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(reftest::ToI64((*out)[0]), (std::vector<int64_t>{0, 2}));

  auto ref = ReferenceInterpreter::Run(*m.g.graph(), reftest::Inputs(F32({4}, {0, 0, 1, -5})));
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(reftest::ToI64((*ref)[0]), reftest::ToI64((*out)[0]));
}

TEST(DynamicExecutorTest, ChecksInputs) {
  NonZeroModel m;
  auto exec = DynamicExecutor::Create(m.model);
  ASSERT_TRUE(exec.ok()) << exec.status();
  auto none = (*exec)->Run({});
  EXPECT_EQ(GetErrorCode(none.status()), ErrorCode::kParamInvalid);
  gert::HostTensor wrong = F32({5}, {0, 0, 0, 0, 0});
  const gert::Tensor* views[] = {&wrong.tensor()};
  auto r = (*exec)->Run(views);
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  EXPECT_NE(r.status().message().find("input 0 'x': shape is [5]"), std::string::npos)
      << r.status();
  const gert::Tensor* null_view[] = {nullptr};
  EXPECT_EQ(GetErrorCode((*exec)->Run(null_view).status()), ErrorCode::kParamInvalid);
}

TEST(DynamicExecutorTest, LoadChecks) {
  {
    NonZeroModel m;
    DynamicExecutorOptions opts;
    opts.engine = "NoSuchEngine";
    auto e = DynamicExecutor::Create(m.model, opts);
    EXPECT_EQ(GetErrorCode(e.status()), ErrorCode::kNotSupported);
    EXPECT_NE(e.status().message().find("node 'add' (Add): no kernel for engine 'NoSuchEngine'"),
              std::string::npos) << e.status();
  }
  {
    NonZeroModel m;
    m.model->task_def.add_input()->CopyFrom(m.model->task_def.input(0));
    auto e = DynamicExecutor::Create(m.model);
    EXPECT_EQ(GetErrorCode(e.status()), ErrorCode::kGraphInvalid) << e.status();
  }
  {
    NonZeroModel m;
    m.model->task_def.mutable_output(0)->set_data_type(5);
    EXPECT_EQ(GetErrorCode(DynamicExecutor::Create(m.model).status()), ErrorCode::kParamInvalid);
  }
  {
    NonZeroModel m;
    m.model->graph = nullptr;
    EXPECT_EQ(GetErrorCode(DynamicExecutor::Create(m.model).status()), ErrorCode::kParamInvalid);
  }
  EXPECT_FALSE(DynamicExecutor::Create(nullptr).ok());
}

TEST(DynamicExecutorTest, OutputsDisagreeingWithTheDescriptionAreInternal) {
  NonZeroModel m;
  m.model->task_def.mutable_output(0)->set_data_type(DT_INT32);
  auto exec = DynamicExecutor::Create(m.model);
  ASSERT_TRUE(exec.ok()) << exec.status();
  gert::HostTensor x = F32({4}, {0, 0, 1, -5});
  const gert::Tensor* views[] = {&x.tensor()};
  auto r = (*exec)->Run(views);
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kInternal) << r.status();
}

TEST(DynamicExecutorTest, BuiltinTypes) {
  EXPECT_TRUE(IsInterpreterBuiltinType("Data"));
  EXPECT_TRUE(IsInterpreterBuiltinType("Const"));
  EXPECT_TRUE(IsInterpreterBuiltinType("NetOutput"));
  EXPECT_FALSE(IsInterpreterBuiltinType("Add"));
}

}  // namespace
}  // namespace ge
