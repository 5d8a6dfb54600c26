// runtime/executor/dynamic_executor_test.cc
//
// The dynamic executor on a hand-built dynamic model: a data-dependent op
// (NonZero) whose output shape is known only at run time.
#include "runtime/executor/dynamic_executor.h"

#include <memory>
#include <string>
#include <vector>

#include "build/model/ge_model.h"
#include "gtest/gtest.h"
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
              std::string::npos)
        << e.status();
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

// Descriptions that leave the data type and the rank to run time (what the
// compiler writes when infer cannot type a value) accept and produce any
// value; a description that is known is still enforced on the same run.
TEST(DynamicExecutorTest, TypesAndRanksKnownOnlyAtRunTime) {
  NonZeroModel m;
  proto::ModelIoDef* out = m.model->task_def.mutable_output(0);
  out->set_data_type(DT_UNDEFINED);
  out->clear_dims();
  out->add_dims(UNKNOWN_RANK);
  proto::ModelIoDef* in = m.model->task_def.mutable_input(0);
  in->set_data_type(DT_UNDEFINED);
  in->clear_dims();
  in->add_dims(UNKNOWN_RANK);
  auto exec = DynamicExecutor::Create(m.model);
  ASSERT_TRUE(exec.ok()) << exec.status();
  gert::HostTensor x = F32({4}, {1, 0, 1, -5});  // relu(x + c) = [2, 0, 1, 0]
  const gert::Tensor* views[] = {&x.tensor()};
  auto r = (*exec)->Run(views);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].GetDataType(), DT_INT64);
  EXPECT_EQ(reftest::ToI64((*r)[0]), (std::vector<int64_t>{0, 2}));
  // The kernels still reject what they cannot take: an [2,2] x does not
  // broadcast with c [4].
  gert::HostTensor bad = F32({2, 2}, {1, 2, 3, 4});
  const gert::Tensor* bad_views[] = {&bad.tensor()};
  EXPECT_FALSE((*exec)->Run(bad_views).ok());
}

TEST(DynamicExecutorTest, UnknownRankOnlyAsTheOnlyDim) {
  NonZeroModel m;
  m.model->task_def.mutable_output(0)->add_dims(UNKNOWN_RANK);  // [1, -1, -2]
  auto e = DynamicExecutor::Create(m.model);
  EXPECT_EQ(GetErrorCode(e.status()), ErrorCode::kParamInvalid);
  EXPECT_NE(e.status().message().find("model output 0 'nz:0': dim 2 is -2"), std::string::npos)
      << e.status();
}

// Identity over a sequence input: a DT_VARIANT value in, the same value out.
TEST(DynamicExecutorTest, SequenceValuesInAndOut) {
  reftest::TestGraph g("seq");
  NodePtr s = g.Data("s", 0);
  NodePtr id = g.Op("id", "Identity", {s});
  g.NetOutput({id});
  auto model = std::make_shared<GeModel>();
  model->name = "seq";
  model->graph = g.graph();
  proto::ModelTaskDef& td = model->task_def;
  td.set_dynamic(true);
  proto::ModelIoDef* in = td.add_input();
  in->set_name("s");
  in->set_data_type(DT_VARIANT);
  in->add_dims(UNKNOWN_DIM);
  proto::ModelIoDef* out = td.add_output();
  out->set_name("id:0");
  out->set_data_type(DT_VARIANT);
  out->add_dims(UNKNOWN_DIM);
  auto exec = DynamicExecutor::Create(model);
  ASSERT_TRUE(exec.ok()) << exec.status();

  std::vector<gert::HostTensor> elems;
  elems.push_back(F32({2}, {1, 2}));
  elems.push_back(F32({1, 3}, {3, 4, 5}));
  StatusOr<gert::HostTensor> seq = gert::HostTensor::CreateSequence(std::move(elems));
  ASSERT_TRUE(seq.ok()) << seq.status();
  const gert::Tensor* views[] = {&seq->tensor()};
  auto r = (*exec)->Run(views);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 1u);
  StatusOr<absl::Span<const gert::HostTensor>> e = gert::VariantElements((*r)[0].tensor());
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->size(), 2u);
  EXPECT_EQ(reftest::ToF32((*e)[1]), (std::vector<float>{3, 4, 5}));
  // The output is a copy: the caller's input is untouched and still usable.
  StatusOr<absl::Span<const gert::HostTensor>> in_e = gert::VariantElements(seq->tensor());
  ASSERT_TRUE(in_e.ok());
  EXPECT_EQ(reftest::ToF32((*in_e)[0]), (std::vector<float>{1, 2}));

  // A tensor is not a sequence.
  gert::HostTensor x = F32({2}, {1, 2});
  const gert::Tensor* tensor_views[] = {&x.tensor()};
  auto bad = (*exec)->Run(tensor_views);
  EXPECT_EQ(GetErrorCode(bad.status()), ErrorCode::kParamInvalid);
  EXPECT_NE(bad.status().message().find("input 0 's': data type is DT_FLOAT"), std::string::npos)
      << bad.status();
}

TEST(DynamicExecutorTest, BuiltinTypes) {
  EXPECT_TRUE(IsInterpreterBuiltinType("Data"));
  EXPECT_TRUE(IsInterpreterBuiltinType("Const"));
  EXPECT_TRUE(IsInterpreterBuiltinType("NetOutput"));
  EXPECT_FALSE(IsInterpreterBuiltinType("Add"));
}

}  // namespace
}  // namespace ge
