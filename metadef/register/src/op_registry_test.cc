// metadef/register/src/op_registry_test.cc
//
// The registry is process-wide, so every test uses its own op type names.
#include "metadef/register/inc/register/op_registry.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

// ---------------------------------------------------------------- op functions

// Numpy-style broadcast of two inputs.
Status InferBroadcast(gert::InferShapeContext& ctx) {
  const gert::Shape* a = ctx.GetInputShape(0);
  const gert::Shape* b = ctx.GetInputShape(1);
  if (a == nullptr || b == nullptr) return ctx.Error("two inputs expected");
  const size_t rank = std::max(a->GetDimNum(), b->GetDimNum());
  gert::Shape out;
  for (size_t i = 0; i < rank; ++i) {
    const size_t ia = i + a->GetDimNum();
    const size_t ib = i + b->GetDimNum();
    const int64_t da = ia >= rank ? a->GetDim(ia - rank) : 1;
    const int64_t db = ib >= rank ? b->GetDim(ib - rank) : 1;
    if (da != db && da != 1 && db != 1) {
      return ctx.Error("shapes ", a->ToString(), " and ", b->ToString(), " do not broadcast");
    }
    out.AppendDim(da == 1 ? db : da);
  }
  *ctx.GetOutputShape(0) = out;
  return OkStatus();
}

Status AddKernel(gert::KernelContext& ctx) {
  const gert::Tensor* a = ctx.GetInputTensor(0);
  const gert::Tensor* b = ctx.GetInputTensor(1);
  gert::Tensor* y = ctx.GetOutputTensor(0);
  for (int64_t i = 0; i < y->GetShapeSize(); ++i) {
    y->GetData<float>()[i] = a->GetData<float>()[i] + b->GetData<float>()[i];
  }
  return OkStatus();
}

// Concat along attribute "axis" (required), dynamic input "x".
Status InferConcat(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(int64_t axis, ctx.GetInt("axis"));
  const gert::IrInstance x = ctx.GetIrInputInstance(0);
  if (x.count == 0) return ctx.Error("no inputs");
  gert::Shape out = *ctx.GetInputShape(x.start);
  int64_t sum = 0;
  for (size_t i = x.start; i < x.start + x.count; ++i) sum += ctx.GetInputShape(i)->GetDim(axis);
  out.SetDim(static_cast<size_t>(axis), sum);
  *ctx.GetOutputShape(0) = out;
  return OkStatus();
}

// Output = the value of input 1 (a shape tensor) when known, else [-1, -1]
// with a range; dtype from attribute "dtype".
Status InferFill(gert::InferShapeContext& ctx) {
  const gert::Tensor* dims = ctx.GetInputTensor(1);
  gert::Shape* out = ctx.GetOutputShape(0);
  if (dims == nullptr) {
    *out = gert::Shape{-1, -1};
    *ctx.GetOutputShapeRange(0) = {{1, 16}, {0, -1}};
    return OkStatus();
  }
  out->SetDimNum(0);
  for (int64_t i = 0; i < dims->GetShapeSize(); ++i) out->AppendDim(dims->GetData<int64_t>()[i]);
  return OkStatus();
}

Status InferFillType(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(DataType dt, ctx.GetDataType("dtype"));
  ctx.SetOutputDataType(0, dt);
  return OkStatus();
}

Status InferFailsWithoutNode(gert::InferShapeContext&) {
  return ParamInvalid("something is wrong");
}

Status VerifyPositiveK(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(int64_t k, ctx.GetIntOr("k", 1));
  if (k <= 0) return ctx.Error("attribute k must be positive, got ", k);
  return OkStatus();
}

Status InferSame(gert::InferShapeContext& ctx) {
  *ctx.GetOutputShape(0) = *ctx.GetInputShape(0);
  return OkStatus();
}

Status InferBadRange(gert::InferShapeContext& ctx) {
  *ctx.GetOutputShape(0) = gert::Shape{-1};
  *ctx.GetOutputShapeRange(0) = {{5, 2}};  // min > max
  return OkStatus();
}

// ---------------------------------------------------------------- static REG_OPs

REG_OP(RegTestAdd)
    .Input("x1", TensorType{DT_FLOAT, DT_FLOAT16})
    .Input("x2", TensorType{DT_FLOAT, DT_FLOAT16})
    .Output("y", TensorType{DT_FLOAT, DT_FLOAT16})
    .InferShape(InferBroadcast);
REG_KERNEL(RegTestAdd, kEngineHostCpu).Fn(AddKernel);

REG_OP(RegTestConcat)
    .DynamicInput("x", TensorType::ALL())
    .Output("y", TensorType::ALL())
    .RequiredAttr("axis", AttrValue::VT_INT)
    .Attr("note", AttrValue::CreateFrom<std::string>("none"))
    .InferShape(InferConcat);

REG_OP(RegTestFill)
    .Input("value", TensorType::ALL())
    .Input("dims", TensorType{DT_INT32, DT_INT64})
    .Output("y", TensorType::ALL())
    .RequiredAttr("dtype", AttrValue::VT_DATA_TYPE)
    .InferShape(InferFill)
    .InferDataType(InferFillType);

REG_OP(RegTestOptionals)
    .Input("x", TensorType::ALL())
    .Output("y", TensorType::ALL())
    .OptionalOutput("indices", TensorType{DT_INT64})
    .OptionalAttr("perm", AttrValue::VT_LIST_INT);

REG_OP(RegTestNoInfer).Input("x", TensorType::ALL()).Output("y", TensorType::ALL());

REG_OP(RegTestBadFn)
    .Input("x", TensorType::ALL())
    .Output("y", TensorType::ALL())
    .InferShape(InferFailsWithoutNode);

REG_OP(RegTestTopK)
    .Input("x", TensorType::RealNumberType())
    .OptionalInput("k", TensorType{DT_INT32, DT_INT64})
    .Output("values", TensorType::RealNumberType())
    .Output("indices", TensorType{DT_INT64})
    .Attr("k", AttrValue::CreateFrom<int64_t>(1))
    .Attr("sorted", AttrValue::CreateFrom<bool>(true))
    .Verify(VerifyPositiveK)
    .InferShape(InferSame);

REG_OP(RegTestBadRange)
    .Input("x", TensorType::ALL())
    .Output("y", TensorType::ALL())
    .InferShape(InferBadRange);

// Control-flow like: static and dynamic subgraphs, dynamic output.
REG_OP(RegTestCase)
    .Input("branch_index", TensorType{DT_INT32})
    .DynamicInput("input", TensorType::ALL())
    .OptionalInput("extra", TensorType::ALL())
    .DynamicOutput("output", TensorType::ALL())
    .Subgraph("else_branch")
    .DynamicSubgraph("branches")
    .Attr("mode", AttrValue::CreateFrom<int64_t>(0))
    .RequiredAttr("tag", AttrValue::VT_STRING);

// ---------------------------------------------------------------- helpers

GeTensorDesc Desc(std::vector<int64_t> dims, DataType dt) {
  return GeTensorDesc(GeShape(dims), FORMAT_ND, dt);
}

bool LogContains(absl::string_view needle) {
  for (const std::string& line : OpRegistry::Instance().GetDecisionLog()) {
    if (absl::StrContains(line, needle)) return true;
  }
  return false;
}

// ---------------------------------------------------------------- chain

TEST(OpRegTest, ChainContents) {
  OpReg reg("ChainOp");
  reg.Input("x", TensorType{DT_FLOAT})
      .Format({FORMAT_NCHW, FORMAT_ND})
      .OptionalInput("bias", TensorType{DT_FLOAT})
      .DynamicInput("extra", TensorType::ALL())
      .Output("y", TensorType{DT_FLOAT})
      .Format({FORMAT_NC1HWC0})
      .DynamicOutput("aux", TensorType{DT_INT64})
      .Attr("alpha", AttrValue::CreateFrom<float>(0.5f))
      .RequiredAttr("axes", AttrValue::VT_LIST_INT)
      .Subgraph("body")
      .DynamicSubgraph("branches")
      .InferShape(InferSame)
      .InferDataType(InferFillType)
      .Verify(VerifyPositiveK)
      .Priority(7);
  const OpRegistrationData& d = reg.data();
  EXPECT_EQ(d.type, "ChainOp");
  ASSERT_EQ(d.inputs.size(), 3u);
  EXPECT_EQ(d.inputs[0].name, "x");
  EXPECT_EQ(d.inputs[0].kind, IoKind::kRequired);
  EXPECT_THAT(d.inputs[0].formats, ElementsAre(FORMAT_NCHW, FORMAT_ND));
  EXPECT_EQ(d.inputs[1].kind, IoKind::kOptional);
  EXPECT_TRUE(d.inputs[1].formats.empty());
  EXPECT_EQ(d.inputs[2].kind, IoKind::kDynamic);
  EXPECT_TRUE(d.inputs[2].types.Contains(DT_STRING));
  ASSERT_EQ(d.outputs.size(), 2u);
  EXPECT_THAT(d.outputs[0].formats, ElementsAre(FORMAT_NC1HWC0));
  EXPECT_EQ(d.outputs[1].kind, IoKind::kDynamic);
  ASSERT_EQ(d.attrs.size(), 2u);
  EXPECT_EQ(d.attrs[0].type, AttrValue::VT_FLOAT);
  EXPECT_FALSE(d.attrs[0].required);
  EXPECT_EQ(*d.attrs[0].default_value.Get<float>(), 0.5f);
  EXPECT_TRUE(d.attrs[1].required);
  EXPECT_EQ(d.attrs[1].type, AttrValue::VT_LIST_INT);
  EXPECT_EQ(d.FindAttr("axes"), &d.attrs[1]);
  EXPECT_EQ(d.FindAttr("beta"), nullptr);
  ASSERT_EQ(d.subgraphs.size(), 2u);
  EXPECT_FALSE(d.subgraphs[0].dynamic);
  EXPECT_TRUE(d.subgraphs[1].dynamic);
  EXPECT_EQ(d.infer_shape, &InferSame);
  EXPECT_EQ(d.infer_data_type, &InferFillType);
  EXPECT_EQ(d.verify, &VerifyPositiveK);
  EXPECT_EQ(d.tiling, nullptr);
  EXPECT_EQ(d.priority, 7);
  EXPECT_TRUE(d.decl_error.empty());
}

TEST(OpRegTest, MisuseIsRejectedAtCommit) {
  struct Case {
    OpReg reg;
    const char* expect;
  };
  std::vector<Case> cases;
  cases.push_back({OpReg("MisuseFormat"), "Format() before any Input()"});
  cases.back().reg.Format({FORMAT_ND});
  cases.push_back({OpReg("MisuseDupInput"), "duplicate input 'x'"});
  cases.back().reg.Input("x", DT_FLOAT).Input("x", DT_FLOAT);
  cases.push_back({OpReg("MisuseDupAttr"), "duplicate attribute 'a'"});
  cases.back()
      .reg.Attr("a", AttrValue::CreateFrom<int64_t>(1))
      .RequiredAttr("a", AttrValue::VT_INT);
  cases.push_back({OpReg("MisuseEmptyDefault"), "has no type"});
  cases.back().reg.Attr("a", AttrValue());
  cases.push_back({OpReg("MisuseDupOutput"), "duplicate output 'y'"});
  cases.back().reg.Output("y", DT_FLOAT).DynamicOutput("y", DT_FLOAT);
  cases.push_back({OpReg(""), "empty op type"});
  cases.push_back({OpReg("MisuseValueDepName"), "ValueDependentInput(\"shape\")"});
  cases.back().reg.ValueDependentInput("shape").Input("shape", DT_INT64);
  cases.push_back({OpReg("MisuseValueDepIndex"), "value-dependent input index 1"});
  cases.back().reg.Input("x", DT_FLOAT).ValueDependentInput(1u);
  cases.push_back({OpReg("MisuseTraitsOnly", OpReg::kTraitsOnly), "more than traits"});
  cases.back().reg.Input("x", DT_FLOAT).SideEffect();

  OpRegistry& r = OpRegistry::Instance();
  for (Case& c : cases) {
    const std::string type = c.reg.data().type;
    OpReceiver receiver(c.reg);
    Status st = r.CommitPending("misuse_test");
    ASSERT_FALSE(st.ok()) << type;
    EXPECT_EQ(GetErrorCode(st) == ErrorCode::kParamInvalid ||
                  GetErrorCode(st) == ErrorCode::kAlreadyExists,
              true)
        << st;
    EXPECT_THAT(st.message(), HasSubstr(c.expect)) << type;
    EXPECT_THAT(st.message(), HasSubstr("misuse_test"));
    EXPECT_EQ(r.Find(type), nullptr) << type;
  }
}

// ---------------------------------------------------------------- traits

TEST(OpTraitsTest, ChainDeclaresTraits) {
  OpRegistry& r = OpRegistry::Instance();
  {
    OpReceiver a(OpReg("TraitsReshapeLike")
                     .Input("data", DT_FLOAT)
                     .OptionalInput("axes", DT_INT64)
                     .Input("shape", DT_INT64)
                     .ValueDependentInput("shape")
                     .ValueDependentInput(1u)
                     .ValueDependentInput("shape")  // given twice: once
                     .Output("y", DT_FLOAT));
    OpReceiver b(OpReg("TraitsRandomEffect").Output("y", DT_FLOAT).Random().SideEffect());
    OpReceiver c(OpReg("TraitsNonZeroLike")
                     .Input("x", DT_FLOAT)
                     .Output("y", DT_INT64)
                     .DataDependentOutputShape());
    OpReceiver d(OpReg("TraitsPlain").Input("x", DT_FLOAT).Output("y", DT_FLOAT));
  }
  ASSERT_TRUE(r.CommitPending("traits_test").ok());
  const OpTraits& reshape = OpTraitsOf("TraitsReshapeLike");
  EXPECT_EQ(reshape.flags, 0u);
  EXPECT_THAT(reshape.value_dependent_inputs, ElementsAre(1u, 2u));
  EXPECT_FALSE(reshape.IsValueDependentInput(0));
  EXPECT_TRUE(reshape.IsValueDependentInput(1));
  EXPECT_TRUE(reshape.IsValueDependentInput(2));
  EXPECT_FALSE(reshape.IsValueDependentInput(3));
  EXPECT_TRUE(reshape.HasValueDependentInputs());
  EXPECT_EQ(&reshape, &r.Find("TraitsReshapeLike")->traits);

  const OpTraits& rnd = OpTraitsOf("TraitsRandomEffect");
  EXPECT_TRUE(rnd.Has(kOpTraitRandom));
  EXPECT_TRUE(rnd.Has(kOpTraitSideEffect));
  EXPECT_FALSE(rnd.Has(kOpTraitDataDependentOutputShape));
  EXPECT_FALSE(rnd.HasValueDependentInputs());

  EXPECT_EQ(OpTraitsOf("TraitsNonZeroLike").flags, uint32_t{kOpTraitDataDependentOutputShape});
  EXPECT_EQ(OpTraitsOf("TraitsPlain").flags, 0u);
  EXPECT_EQ(OpTraitsOf("NoSuchTypeForTraits").flags, 0u);
  EXPECT_FALSE(OpTraitsOf("NoSuchTypeForTraits").HasValueDependentInputs());
}

TEST(OpTraitsTest, TraitsOnlyDeclarationsAreNotOps) {
  OpRegistry& r = OpRegistry::Instance();
  const size_t before = r.size();
  { OpReceiver a(OpReg("TraitsOnlyAssign", OpReg::kTraitsOnly).SideEffect()); }
  ASSERT_TRUE(r.CommitPending("traits_test").ok());
  EXPECT_TRUE(OpTraitsOf("TraitsOnlyAssign").Has(kOpTraitSideEffect));
  EXPECT_EQ(r.Find("TraitsOnlyAssign"), nullptr);
  EXPECT_FALSE(OperatorFactory::IsExistOp("TraitsOnlyAssign"));
  EXPECT_EQ(r.size(), before);
  const std::vector<std::string> types = r.GetAllTypes();
  EXPECT_EQ(std::find(types.begin(), types.end(), "TraitsOnlyAssign"), types.end());

  // A full registration of the type answers for it from then on.
  { OpReceiver b(OpReg("TraitsOnlyAssign").Input("x", DT_FLOAT).Random()); }
  ASSERT_TRUE(r.CommitPending("traits_test").ok());
  EXPECT_EQ(OpTraitsOf("TraitsOnlyAssign").flags, uint32_t{kOpTraitRandom});
}

TEST(OpTraitsTest, ReadInputMaskTracksWhichValuesWereRead) {
  const gert::HostTensor v = *gert::HostTensor::Create(DT_INT64, gert::Shape{1});
  gert::InferShapeContextBuilder b;
  b.Node("n", "T")
      .Input(gert::Shape{2}, DT_FLOAT, nullptr)
      .Input(gert::Shape{1}, DT_INT64, &v.tensor())
      .Input(gert::Shape{1}, DT_INT64, &v.tensor())
      .Outputs(1);
  gert::InferShapeContext* ctx = b.Build();
  EXPECT_FALSE(ctx->InputValuesRead());
  EXPECT_EQ(ctx->GetInputTensor(0), nullptr);  // unknown: not a read
  EXPECT_FALSE(ctx->InputValuesRead());
  EXPECT_NE(ctx->GetInputTensor(2), nullptr);
  EXPECT_TRUE(ctx->InputValuesRead());
  EXPECT_EQ(ctx->InputValuesReadMask(), uint64_t{1} << 2);
}

// ---------------------------------------------------------------- registry

// Prototypes are built on first use, once: every committed type (each
// passed ValidateRegistration) yields op descs, and threads racing on a
// type's first use get equal ones.
TEST(OpRegistryTest, PrototypesAreBuiltOnceOnFirstUse) {
  OpRegistry& r = OpRegistry::Instance();
  ASSERT_TRUE(r.CommitPending("lazy_test").ok() || r.size() > 0);
  for (const std::string& type : r.GetAllTypes()) {
    StatusOr<OpDescPtr> op = OperatorFactory::CreateOpDesc("n", type);
    if (!op.ok()) {
      // Types with dynamic inputs or outputs may need counts; never a
      // missing prototype.
      EXPECT_NE(GetErrorCode(op.status()), ErrorCode::kInternal) << type << ": " << op.status();
      continue;
    }
    EXPECT_EQ((*op)->GetType(), type);
  }
  OpReg reg("RegTestLazyRace");
  reg.Input("x", DT_FLOAT)
      .Input("y", DT_FLOAT)
      .Output("z", DT_FLOAT)
      .Attr("k", AttrValue::CreateFrom<int64_t>(7));
  OpReceiver receiver(reg);
  ASSERT_TRUE(r.CommitPending("lazy_test").ok());
  std::vector<std::thread> threads;
  std::vector<StatusOr<OpDescPtr>> made(8, Internal("not run"));
  for (size_t i = 0; i < made.size(); ++i) {
    threads.emplace_back([&made, i]() {
      made[i] = OperatorFactory::CreateOpDesc(absl::StrCat("t", i), "RegTestLazyRace");
    });
  }
  for (std::thread& t : threads) t.join();
  for (const StatusOr<OpDescPtr>& op : made) {
    ASSERT_TRUE(op.ok()) << op.status();
    EXPECT_EQ((*op)->GetInputsSize(), 2u);
    EXPECT_EQ((*op)->GetOutputsSize(), 1u);
    ASSERT_NE((*op)->GetAttr("k"), nullptr);
    EXPECT_EQ(*(*op)->GetAttr("k")->Get<int64_t>(), 7);
  }
}

TEST(OpRegistryTest, StaticRegistrationsAreCommittedLazily) {
  OpRegistry& r = OpRegistry::Instance();
  const OpRegistrationData* add = r.Find("RegTestAdd");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->source, "builtin");
  EXPECT_EQ(add->inputs.size(), 2u);
  EXPECT_TRUE(OperatorFactory::IsExistOp("RegTestConcat"));
  EXPECT_FALSE(OperatorFactory::IsExistOp("RegTestNothing"));
  EXPECT_EQ(r.Find(""), nullptr);
}

TEST(OpRegistryTest, QueueThenCommitIsOrderIndependent) {
  OpRegistry& r = OpRegistry::Instance();
  // Same three registrations, two queue orders: the highest priority wins.
  const auto queue = [](const std::string& type, std::vector<int> order) {
    for (int p : order) {
      OpReceiver rec(OpReg(type).Input(absl::StrCat("p", p), DT_FLOAT).Priority(p));
    }
  };
  queue("OrderA", {1, 3, 2});
  queue("OrderB", {3, 2, 1});
  queue("OrderC", {2, 1, 3});
  // Nothing is visible before the commit.
  EXPECT_EQ(r.Find("OrderA"), nullptr);
  ASSERT_TRUE(r.CommitPending("order_test").ok());
  for (const char* type : {"OrderA", "OrderB", "OrderC"}) {
    const OpRegistrationData* d = r.Find(type);
    ASSERT_NE(d, nullptr) << type;
    EXPECT_EQ(d->inputs[0].name, "p3") << type;
    EXPECT_EQ(d->priority, 3);
    EXPECT_EQ(d->source, "order_test");
  }
}

TEST(OpRegistryTest, InstanceCommitsQueuedRegistrations) {
  { OpReceiver rec(OpReg("LazyOp").Input("x", DT_FLOAT)); }
  EXPECT_NE(OpRegistry::Instance().Find("LazyOp"), nullptr);
  EXPECT_EQ(OpRegistry::Instance().Find("LazyOp")->source, "builtin");
}

TEST(OpRegistryTest, PriorityDecisionsAreLogged) {
  OpRegistry& r = OpRegistry::Instance();
  { OpReceiver rec(OpReg("PrioOp").Input("first", DT_FLOAT)); }
  ASSERT_TRUE(r.CommitPending("lib_first").ok());
  const OpRegistrationData* first = r.Find("PrioOp");
  ASSERT_NE(first, nullptr);

  { OpReceiver rec(OpReg("PrioOp").Input("second", DT_FLOAT).Priority(5)); }
  ASSERT_TRUE(r.CommitPending("lib_second").ok());
  EXPECT_EQ(r.Find("PrioOp")->inputs[0].name, "second");
  EXPECT_TRUE(
      LogContains("op type 'PrioOp': registration from lib_second (priority 5) "
                  "replaces the one from lib_first (priority 0): higher priority"));
  // The replaced registration stays readable through old pointers.
  EXPECT_EQ(first->inputs[0].name, "first");

  { OpReceiver rec(OpReg("PrioOp").Input("third", DT_FLOAT).Priority(1)); }
  ASSERT_TRUE(r.CommitPending("lib_third").ok());
  EXPECT_EQ(r.Find("PrioOp")->inputs[0].name, "second");
  EXPECT_TRUE(
      LogContains("keeps the registration from lib_second (priority 5); ignores the "
                  "one from lib_third (priority 1): lower priority"));
}

TEST(OpRegistryTest, OverrideWindow) {
  OpRegistry& r = OpRegistry::Instance();
  ASSERT_FALSE(r.IsRegisterOverridable());
  { OpReceiver rec(OpReg("WindowOp").Input("v1", DT_FLOAT)); }
  ASSERT_TRUE(r.CommitPending("libv1.so").ok());

  // Window closed: equal priority is a conflict, the first stays.
  { OpReceiver rec(OpReg("WindowOp").Input("v2", DT_FLOAT)); }
  Status st = r.CommitPending("libv2.so");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kAlreadyExists);
  EXPECT_THAT(st.message(), HasSubstr("'WindowOp'"));
  EXPECT_THAT(st.message(), HasSubstr("libv1.so"));
  EXPECT_THAT(st.message(), HasSubstr("libv2.so"));
  EXPECT_EQ(r.Find("WindowOp")->inputs[0].name, "v1");
  EXPECT_TRUE(LogContains("op type 'WindowOp': conflict"));

  // Window open: the later one replaces (hot patch).
  r.SetRegisterOverridable(true);
  EXPECT_TRUE(r.IsRegisterOverridable());
  { OpReceiver rec(OpReg("WindowOp").Input("v3", DT_FLOAT)); }
  EXPECT_TRUE(r.CommitPending("libv3.so").ok());
  r.SetRegisterOverridable(false);
  EXPECT_EQ(r.Find("WindowOp")->inputs[0].name, "v3");
  EXPECT_EQ(r.Find("WindowOp")->source, "libv3.so");
  EXPECT_TRUE(LogContains("registration from libv3.so overrides the one from libv1.so"));
}

TEST(OpRegistryTest, CommitContinuesAfterAConflict) {
  OpRegistry& r = OpRegistry::Instance();
  { OpReceiver rec(OpReg("ConflictKeep").Input("a", DT_FLOAT)); }
  ASSERT_TRUE(r.CommitPending("one").ok());
  {
    OpReceiver a(OpReg("ConflictKeep").Input("b", DT_FLOAT));
    OpReceiver b(OpReg("AfterConflict").Input("c", DT_FLOAT));
  }
  EXPECT_FALSE(r.CommitPending("two").ok());
  EXPECT_NE(r.Find("AfterConflict"), nullptr);
}

TEST(OpRegistryTest, UnknownTypeSuggestions) {
  OpRegistry& r = OpRegistry::Instance();
  { OpReceiver rec(OpReg("Add").Input("x", DT_FLOAT)); }
  { OpReceiver rec(OpReg("AddN").Input("x", DT_FLOAT)); }
  ASSERT_TRUE(r.CommitPending("suggest_test").ok() || r.Find("Add") != nullptr);
  StatusOr<const OpRegistrationData*> miss = r.Get("Addd");
  ASSERT_FALSE(miss.ok());
  EXPECT_EQ(GetErrorCode(miss.status()), ErrorCode::kNotFound);
  EXPECT_THAT(miss.status().message(), HasSubstr("op type 'Addd' is not registered"));
  EXPECT_THAT(miss.status().message(), HasSubstr("did you mean 'Add'"));
  // At most three suggestions, closest first.
  const std::string msg(miss.status().message());
  EXPECT_LE(std::count(msg.begin(), msg.end(), ','), 2);
  EXPECT_LT(msg.find("'Add'"), msg.find("'AddN'"));
  // Case-insensitive closeness.
  EXPECT_THAT(r.Get("regtestadd").status().message(), HasSubstr("did you mean 'RegTestAdd'"));
  // Nothing close: no suggestion.
  StatusOr<const OpRegistrationData*> far = r.Get("Qqqqqqqqqqqqqqqqqqqqq");
  ASSERT_FALSE(far.ok());
  EXPECT_THAT(far.status().message(), ::testing::Not(HasSubstr("did you mean")));
  ASSERT_TRUE(r.Get("Add").ok());
}

TEST(OpRegistryTest, GetAllTypesSorted) {
  OpRegistry& r = OpRegistry::Instance();
  const std::vector<std::string> types = r.GetAllTypes();
  EXPECT_EQ(types.size(), r.size());
  EXPECT_TRUE(std::is_sorted(types.begin(), types.end()));
  EXPECT_NE(std::find(types.begin(), types.end(), "RegTestFill"), types.end());
}

TEST(OpRegistryTest, UnregisterForTest) {
  OpRegistry& r = OpRegistry::Instance();
  { OpReceiver rec(OpReg("Doomed").Input("x", DT_FLOAT)); }
  ASSERT_TRUE(r.CommitPending("t").ok());
  const OpRegistrationData* d = r.Find("Doomed");
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(r.UnregisterForTest("Doomed"));
  EXPECT_FALSE(r.UnregisterForTest("Doomed"));
  EXPECT_EQ(r.Find("Doomed"), nullptr);
  EXPECT_EQ(d->type, "Doomed");  // retired, still readable
}

TEST(OpRegistryTest, ConcurrentLookups) {
  OpRegistry& r = OpRegistry::Instance();
  std::atomic<int> found{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) {
        if (OpRegistry::Instance().Find("RegTestAdd") != nullptr) ++found;
        (void)r.Find("NoSuchType");
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(found.load(), 4000);
}

// ---------------------------------------------------------------- factory

TEST(OperatorFactoryTest, CreateOpDescCopiesIrMetadata) {
  StatusOr<OpDescPtr> op = OperatorFactory::CreateOpDesc(
      "case1", "RegTestCase", {{"input", 3}, {"output", 2}, {"branches", 2}});
  ASSERT_TRUE(op.ok()) << op.status();
  const OpDesc& o = **op;
  EXPECT_EQ(o.GetName(), "case1");
  EXPECT_EQ(o.GetType(), "RegTestCase");
  EXPECT_THAT(o.GetAllInputNames(),
              ElementsAre("branch_index", "input0", "input1", "input2", "extra"));
  EXPECT_EQ(o.GetInputIndexByName("input2"), 3);
  EXPECT_TRUE(o.IsOptionalInput("extra"));
  EXPECT_FALSE(o.GetInputDescBarePtr(4)->IsValid());  // absent optional
  EXPECT_EQ(o.GetInputsSize(), 4u);
  EXPECT_EQ(o.GetAllInputsSize(), 5u);
  EXPECT_THAT(o.GetAllOutputNames(), ElementsAre("output0", "output1"));
  EXPECT_THAT(o.GetIrInputs(),
              ElementsAre(Pair("branch_index", kIrInputRequired), Pair("input", kIrInputDynamic),
                          Pair("extra", kIrInputOptional)));
  EXPECT_THAT(o.GetIrOutputs(), ElementsAre(Pair("output", kIrOutputDynamic)));
  EXPECT_THAT(o.GetIrAttrNames(), ElementsAre("mode", "tag"));
  ASSERT_NE(o.GetAttr("mode"), nullptr);
  EXPECT_EQ(*o.GetAttr("mode")->Get<int64_t>(), 0);
  EXPECT_EQ(o.GetAttr("tag"), nullptr);  // required: no default
  EXPECT_THAT(o.GetOrderedSubgraphIrNames(),
              ElementsAre(Pair("else_branch", kStatic), Pair("branches", kDynamic)));
  EXPECT_THAT(o.GetSubgraphNameIndexes(),
              ElementsAre(Pair("branches0", 1), Pair("branches1", 2), Pair("else_branch", 0)));
  EXPECT_EQ(o.GetSubgraphInstanceNames().size(), 3u);
  EXPECT_TRUE(o.HasVerifyFunc());
  EXPECT_FALSE(o.HasInferFunc());  // no infer shape registered

  // A second instance shares the IR metadata and is independent otherwise.
  StatusOr<OpDescPtr> other = OperatorFactory::CreateOpDesc("case2", "RegTestCase");
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE((*other)->SharesIrMetaWith(o));
  EXPECT_THAT((*other)->GetAllInputNames(), ElementsAre("branch_index", "extra"));
  EXPECT_EQ((*other)->GetOutputsSize(), 0u);
  ASSERT_TRUE((*other)->UpdateInputDesc(0, Desc({1}, DT_INT32)).ok());
  EXPECT_EQ(o.GetInputDesc(0).GetDataType(), DT_FLOAT);
}

TEST(OperatorFactoryTest, OptionalOutputsAndAttrsWithoutDefault) {
  const OpRegistrationData* reg = OpRegistry::Instance().Find("RegTestOptionals");
  ASSERT_NE(reg, nullptr);
  ASSERT_EQ(reg->outputs.size(), 2u);
  EXPECT_EQ(reg->outputs[1].kind, IoKind::kOptional);
  const OpAttrDef* perm = reg->FindAttr("perm");
  ASSERT_NE(perm, nullptr);
  EXPECT_FALSE(perm->required);
  EXPECT_EQ(perm->type, AttrValue::VT_LIST_INT);

  StatusOr<OpDescPtr> op = OperatorFactory::CreateOpDesc("t", "RegTestOptionals");
  ASSERT_TRUE(op.ok()) << op.status();
  EXPECT_EQ((*op)->GetOutputsSize(), 2u);  // the optional output has its desc
  EXPECT_FALSE((*op)->HasAttr("perm"));    // no default: stays absent
  EXPECT_TRUE(CheckOpDescAgainstRegistration(**op).ok());
  // When given, the attribute must have the declared type.
  ASSERT_TRUE((*op)->SetAttr("perm", AttrValue::CreateFrom<std::string>("x")).ok());
  Status st = CheckOpDescAgainstRegistration(**op);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kTypeMismatch);
  EXPECT_NE(st.message().find("'perm'"), std::string::npos) << st;
}

TEST(OperatorFactoryTest, CreateOpDescErrors) {
  StatusOr<OpDescPtr> unknown = OperatorFactory::CreateOpDesc("x", "RegTestAd");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(GetErrorCode(unknown.status()), ErrorCode::kNotFound);
  EXPECT_THAT(unknown.status().message(), HasSubstr("did you mean 'RegTestAdd'"));

  StatusOr<OpDescPtr> bad_key = OperatorFactory::CreateOpDesc("c", "RegTestConcat", {{"y", 2}});
  ASSERT_FALSE(bad_key.ok());
  EXPECT_EQ(GetErrorCode(bad_key.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(bad_key.status().message(), HasSubstr("'y' is not a dynamic input"));

  StatusOr<OpDescPtr> huge =
      OperatorFactory::CreateOpDesc("c", "RegTestConcat", {{"x", 4000000000u}});
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(GetErrorCode(huge.status()), ErrorCode::kOutOfRange);
}

// ---------------------------------------------------------------- infer

TEST(InferShapeAndTypeTest, BroadcastWritesOutputDescs) {
  StatusOr<OpDescPtr> op = OperatorFactory::CreateOpDesc("add1", "RegTestAdd");
  ASSERT_TRUE(op.ok());
  ASSERT_TRUE((*op)->UpdateInputDesc(0, Desc({2, 1, 4}, DT_FLOAT16)).ok());
  ASSERT_TRUE((*op)->UpdateInputDesc(1, Desc({3, 1}, DT_FLOAT16)).ok());
  ASSERT_TRUE(InferShapeAndTypeForOpDesc(**op).ok());
  const GeTensorDesc y = (*op)->GetOutputDesc(0);
  EXPECT_EQ(y.GetShape(), GeShape({2, 3, 4}));
  EXPECT_EQ(y.GetDataType(), DT_FLOAT16);  // default: input 0's type
  EXPECT_EQ(y.GetOriginShape(), GeShape({2, 3, 4}));
  EXPECT_EQ(y.GetOriginDataType(), DT_FLOAT16);

  // Through the OpDesc's installed infer function too.
  ASSERT_TRUE((*op)->HasInferFunc());
  ASSERT_TRUE((*op)->UpdateInputDesc(1, Desc({4}, DT_FLOAT16)).ok());
  ASSERT_TRUE((*op)->CallInferFunc().ok());
  EXPECT_EQ((*op)->GetOutputDesc(0).GetShape(), GeShape({2, 1, 4}));

  // An infer error keeps the node name.
  ASSERT_TRUE((*op)->UpdateInputDesc(1, Desc({5}, DT_FLOAT16)).ok());
  Status st = InferShapeAndTypeForOpDesc(**op);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr("node add1 (RegTestAdd): shapes [2,1,4] and [5]"));
}

TEST(InferShapeAndTypeTest, DynamicInputsAndRequiredAttr) {
  StatusOr<OpDescPtr> op = OperatorFactory::CreateOpDesc("cat", "RegTestConcat", {{"x", 3}});
  ASSERT_TRUE(op.ok());
  for (uint32_t i = 0; i < 3; ++i) {
    ASSERT_TRUE((*op)->UpdateInputDesc(i, Desc({2, i + 1}, DT_INT8)).ok());
  }
  Status missing = InferShapeAndTypeForOpDesc(**op);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(GetErrorCode(missing), ErrorCode::kParamInvalid);
  EXPECT_THAT(missing.message(),
              HasSubstr("node cat (RegTestConcat): required attribute 'axis' (int) is missing"));

  ASSERT_TRUE((*op)->SetAttr("axis", AttrValue::CreateFrom<std::string>("1")).ok());
  Status wrong = InferShapeAndTypeForOpDesc(**op);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(GetErrorCode(wrong), ErrorCode::kTypeMismatch);
  EXPECT_THAT(wrong.message(), HasSubstr("attribute 'axis' is string, expected int"));

  ASSERT_TRUE((*op)->SetAttr("axis", AttrValue::CreateFrom<int64_t>(1)).ok());
  ASSERT_TRUE(InferShapeAndTypeForOpDesc(**op).ok());
  EXPECT_EQ((*op)->GetOutputDesc(0).GetShape(), GeShape({2, 6}));
  EXPECT_EQ((*op)->GetOutputDesc(0).GetDataType(), DT_INT8);
}

TEST(InferShapeAndTypeTest, DtypeNotAllowedNamesNodeInputAndType) {
  StatusOr<OpDescPtr> op = OperatorFactory::CreateOpDesc("add2", "RegTestAdd");
  ASSERT_TRUE(op.ok());
  ASSERT_TRUE((*op)->UpdateInputDesc(0, Desc({2}, DT_FLOAT)).ok());
  ASSERT_TRUE((*op)->UpdateInputDesc(1, Desc({2}, DT_INT8)).ok());
  Status st = InferShapeAndTypeForOpDesc(**op);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_THAT(st.message(), HasSubstr("node add2 (RegTestAdd)"));
  EXPECT_THAT(st.message(), HasSubstr("'x2' (index 1)"));
  EXPECT_THAT(st.message(), HasSubstr("DT_INT8"));
  EXPECT_THAT(st.message(), HasSubstr("{DT_FLOAT, DT_FLOAT16}"));
  // The same check without running anything.
  EXPECT_EQ(CheckOpDescAgainstRegistration(**op).message(), st.message());
  EXPECT_FALSE((*op)->CallVerifyFunc().ok());
}

// The walk behind CheckOpDescAgainstRegistration and the compiler's fast
// inference path: the first failing check, where it is, and the code the
// described check reports for it.
TEST(InferShapeAndTypeTest, RegistrationCheckFailureIsTheDescribedChecksFirstFailure) {
  using Kind = RegistrationCheckFailure::Kind;
  auto first = [](const OpDesc& op) {
    const OpRegistrationData* reg = OpRegistry::Instance().Find(op.GetType());
    EXPECT_NE(reg, nullptr);
    StatusOr<std::vector<gert::IrInstance>> ir = MapInputSlotsToIr(op, *reg, op.GetAllInputsSize());
    EXPECT_TRUE(ir.ok()) << ir.status();
    const RegistrationCheckFailure f = FindRegistrationCheckFailure(op, *reg, *ir);
    EXPECT_EQ(f.code(), GetErrorCode(CheckOpDescAgainstRegistration(op)));
    return f;
  };
  // Inputs: a required one without a valid desc, then a type outside its
  // TensorType.
  StatusOr<OpDescPtr> add = OperatorFactory::CreateOpDesc("add", "RegTestAdd");
  ASSERT_TRUE(add.ok());
  ASSERT_TRUE((*add)->UpdateInputDesc(0, Desc({2}, DT_FLOAT)).ok());
  ASSERT_TRUE(
      (*add)->UpdateInputDesc(1, GeTensorDesc(GeShape(), FORMAT_RESERVED, DT_UNDEFINED)).ok());
  RegistrationCheckFailure f = first(**add);
  EXPECT_EQ(f.kind, Kind::kInputDesc);
  EXPECT_EQ(f.slot, 1u);
  ASSERT_NE(f.input, nullptr);
  EXPECT_EQ(f.input->name, "x2");
  ASSERT_TRUE((*add)->UpdateInputDesc(1, Desc({2}, DT_INT8)).ok());
  f = first(**add);
  EXPECT_EQ(f.kind, Kind::kInputType);
  EXPECT_EQ(f.slot, 1u);
  EXPECT_EQ(f.code(), ErrorCode::kParamInvalid);
  ASSERT_TRUE((*add)->UpdateInputDesc(1, Desc({2}, DT_FLOAT16)).ok());
  EXPECT_EQ(first(**add).kind, Kind::kNone);

  // Attributes: the required one, then its type.
  StatusOr<OpDescPtr> cat = OperatorFactory::CreateOpDesc("cat", "RegTestConcat", {{"x", 2}});
  ASSERT_TRUE(cat.ok());
  for (uint32_t i = 0; i < 2; ++i)
    ASSERT_TRUE((*cat)->UpdateInputDesc(i, Desc({2, 1}, DT_INT8)).ok());
  f = first(**cat);
  EXPECT_EQ(f.kind, Kind::kMissingAttr);
  ASSERT_NE(f.attr, nullptr);
  EXPECT_EQ(f.attr->name, "axis");
  ASSERT_TRUE((*cat)->SetAttr("axis", AttrValue::CreateFrom<std::string>("1")).ok());
  f = first(**cat);
  EXPECT_EQ(f.kind, Kind::kAttrType);
  EXPECT_EQ(f.code(), ErrorCode::kTypeMismatch);
  ASSERT_NE(f.value, nullptr);
  EXPECT_EQ(f.value->GetValueType(), AttrValue::VT_STRING);
  ASSERT_TRUE((*cat)->SetAttr("axis", AttrValue::CreateFrom<int64_t>(1)).ok());
  EXPECT_EQ(first(**cat).kind, Kind::kNone);
}

// A RegTestFill op: a float scalar, an int64 [2] shape input, dtype INT32.
StatusOr<OpDescPtr> FillOp() {
  ASSIGN_OR_RETURN(OpDescPtr op, OperatorFactory::CreateOpDesc("fill", "RegTestFill"));
  RETURN_IF_ERROR(op->UpdateInputDesc(0, Desc({}, DT_FLOAT)));
  RETURN_IF_ERROR(op->UpdateInputDesc(1, Desc({2}, DT_INT64)));
  RETURN_IF_ERROR(op->SetAttr("dtype", AttrValue::CreateFrom<DataType>(DT_INT32)));
  return op;
}

TEST(InferShapeAndTypeTest, ConstInputsRangesAndCustomDtype) {
  StatusOr<OpDescPtr> op = FillOp();
  ASSERT_TRUE(op.ok()) << op.status();

  // Unknown value: unknown dims with a range.
  ASSERT_TRUE(InferShapeAndTypeForOpDesc(**op).ok());
  GeTensorDesc y = (*op)->GetOutputDesc(0);
  EXPECT_EQ(y.GetShape(), GeShape({-1, -1}));
  EXPECT_EQ(y.GetDataType(), DT_INT32);
  EXPECT_THAT(y.GetShapeRange(), ElementsAre(Pair(1, 16), Pair(0, -1)));

  // Known value: static shape, the stale range is cleared.
  std::vector<int64_t> dims{3, 5};
  gert::Tensor value(gert::Shape{2}, DT_INT64, dims.data(), 16);
  ASSERT_TRUE(InferShapeAndTypeForOpDesc(**op, {nullptr, &value}).ok());
  y = (*op)->GetOutputDesc(0);
  EXPECT_EQ(y.GetShape(), GeShape({3, 5}));
  EXPECT_TRUE(y.GetShapeRange().empty());

  // More constant values than inputs.
  Status st = InferShapeAndTypeForOpDesc(**op, {nullptr, &value, nullptr});
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr("3 constant input values given for 2 inputs"));
}

TEST(InferShapeAndTypeTest, PendingValuesAreLoadedWhenAFunctionReadsThem) {
  StatusOr<OpDescPtr> op = FillOp();
  ASSERT_TRUE(op.ok()) << op.status();
  std::vector<int64_t> dims{4, 7};
  class Loader : public gert::InputValueLoader {
   public:
    explicit Loader(std::vector<int64_t>* dims)
        : tensor_(gert::Shape{2}, DT_INT64, dims->data(), 16) {}
    const gert::Tensor* Load(size_t i) const override {
      loaded.push_back(i);
      return &tensor_;
    }
    mutable std::vector<size_t> loaded;

   private:
    gert::Tensor tensor_;
  };
  const gert::Tensor pending(gert::Shape{2}, DT_INT64, nullptr, 16);  // no data yet
  // Without a loader a pending value is unknown.
  ASSERT_TRUE(InferShapeAndTypeForOpDesc(**op, {nullptr, &pending}).ok());
  EXPECT_EQ((*op)->GetOutputDesc(0).GetShape(), GeShape({-1, -1}));
  // With one, the read loads it.
  Loader loader(&dims);
  ASSERT_TRUE(InferShapeAndTypeForOpDesc(**op, {nullptr, &pending}, &loader).ok());
  EXPECT_EQ((*op)->GetOutputDesc(0).GetShape(), GeShape({4, 7}));
  EXPECT_THAT(loader.loaded, ElementsAre(1u));
}

TEST(InferShapeAndTypeTest, InputRangesReachTheContext) {
  StatusOr<OpDescPtr> op = OperatorFactory::CreateOpDesc("topk", "RegTestTopK");
  ASSERT_TRUE(op.ok());
  GeTensorDesc x = Desc({-1, 8}, DT_FLOAT);
  ASSERT_TRUE(x.SetShapeRange({{1, 4}, {8, 8}}).ok());
  ASSERT_TRUE((*op)->UpdateInputDesc(0, x).ok());
  // Optional "k" absent: only "x" is checked and the infer sees one input.
  ASSERT_TRUE(InferShapeAndTypeForOpDesc(**op).ok()) << InferShapeAndTypeForOpDesc(**op);
  EXPECT_EQ((*op)->GetOutputDesc(0).GetShape(), GeShape({-1, 8}));
  EXPECT_EQ((*op)->GetOutputDesc(1).GetDataType(), DT_FLOAT);  // default rule

  // Verify runs first.
  ASSERT_TRUE((*op)->SetAttr("k", AttrValue::CreateFrom<int64_t>(0)).ok());
  Status st = InferShapeAndTypeForOpDesc(**op);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr("node topk (RegTestTopK): attribute k must be positive"));
  EXPECT_FALSE(VerifyOpDesc(**op).ok());
  ASSERT_TRUE((*op)->SetAttr("k", AttrValue::CreateFrom<int64_t>(2)).ok());
  EXPECT_TRUE(VerifyOpDesc(**op).ok());

  // A bool attribute given as int 0/1 passes the type check; 2 does not.
  ASSERT_TRUE((*op)->SetAttr("sorted", AttrValue::CreateFrom<int64_t>(0)).ok());
  EXPECT_TRUE(CheckOpDescAgainstRegistration(**op).ok());
  ASSERT_TRUE((*op)->SetAttr("sorted", AttrValue::CreateFrom<int64_t>(2)).ok());
  EXPECT_EQ(GetErrorCode(CheckOpDescAgainstRegistration(**op)), ErrorCode::kTypeMismatch);
  ASSERT_TRUE((*op)->SetAttr("sorted", AttrValue::CreateFrom<bool>(false)).ok());

  // The optional input, once present, is type-checked.
  ASSERT_TRUE((*op)->UpdateInputDesc(1, Desc({}, DT_FLOAT)).ok());
  Status k_type = CheckOpDescAgainstRegistration(**op);
  ASSERT_FALSE(k_type.ok());
  EXPECT_THAT(k_type.message(), HasSubstr("'k' (index 1)"));
}

TEST(InferShapeAndTypeTest, FunctionErrorsAndMissingInfer) {
  StatusOr<OpDescPtr> bad = OperatorFactory::CreateOpDesc("b", "RegTestBadFn");
  ASSERT_TRUE(bad.ok());
  Status st = InferShapeAndTypeForOpDesc(**bad);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "node b (RegTestBadFn): infer shape: something is wrong");

  StatusOr<OpDescPtr> none = OperatorFactory::CreateOpDesc("n", "RegTestNoInfer");
  ASSERT_TRUE(none.ok());
  Status ni = InferShapeAndTypeForOpDesc(**none);
  EXPECT_EQ(GetErrorCode(ni), ErrorCode::kNotSupported);
  EXPECT_THAT(ni.message(), HasSubstr("registers no infer shape function"));

  StatusOr<OpDescPtr> range = OperatorFactory::CreateOpDesc("r", "RegTestBadRange");
  ASSERT_TRUE(range.ok());
  Status rs = InferShapeAndTypeForOpDesc(**range);
  ASSERT_FALSE(rs.ok());
  EXPECT_THAT(rs.message(), HasSubstr("invalid range for output 'y'"));

  OpDesc unknown("u", "NoSuchOpType");
  Status us = InferShapeAndTypeForOpDesc(unknown);
  EXPECT_EQ(GetErrorCode(us), ErrorCode::kNotFound);
  EXPECT_THAT(us.message(), HasSubstr("node u: op type 'NoSuchOpType'"));
}

TEST(InferShapeAndTypeTest, PositionalMatchingForHandBuiltOpDescs) {
  // Inputs named by a parser, not by the IR: matched by position.
  OpDesc cat("cat2", "RegTestConcat");
  ASSERT_TRUE(cat.AddInputDesc(Desc({1, 2}, DT_FLOAT)).ok());
  ASSERT_TRUE(cat.AddInputDesc(Desc({3, 2}, DT_FLOAT)).ok());
  ASSERT_TRUE(cat.AddOutputDesc(GeTensorDesc()).ok());
  ASSERT_TRUE(cat.SetAttr("axis", AttrValue::CreateFrom<int64_t>(0)).ok());
  ASSERT_TRUE(InferShapeAndTypeForOpDesc(cat).ok());
  EXPECT_EQ(cat.GetOutputDesc(0).GetShape(), GeShape({4, 2}));

  OpDesc add("add3", "RegTestAdd");
  ASSERT_TRUE(add.AddInputDesc(Desc({2}, DT_FLOAT)).ok());
  ASSERT_TRUE(add.AddOutputDesc(GeTensorDesc()).ok());
  Status st = InferShapeAndTypeForOpDesc(add);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr("node add3 (RegTestAdd): required input 'x2'"));

  ASSERT_TRUE(add.AddInputDesc(Desc({2}, DT_FLOAT)).ok());
  ASSERT_TRUE(add.AddInputDesc(Desc({2}, DT_FLOAT)).ok());
  Status extra = InferShapeAndTypeForOpDesc(add);
  ASSERT_FALSE(extra.ok());
  EXPECT_THAT(extra.message(), HasSubstr("has 3 inputs, but the IR declares only 2"));
}

TEST(InferShapeAndTypeTest, RankAboveLimitIsAnError) {
  StatusOr<OpDescPtr> op = OperatorFactory::CreateOpDesc("add4", "RegTestAdd");
  ASSERT_TRUE(op.ok());
  ASSERT_TRUE((*op)->UpdateInputDesc(0, Desc(std::vector<int64_t>(30, 1), DT_FLOAT)).ok());
  ASSERT_TRUE((*op)->UpdateInputDesc(1, Desc({1}, DT_FLOAT)).ok());
  Status st = InferShapeAndTypeForOpDesc(**op);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr("node add4 (RegTestAdd): input 'x1' (index 0)"));
  EXPECT_THAT(st.message(), HasSubstr("rank 30"));
}

TEST(KernelThroughRegistryTest, HostKernelRuns) {
  const OpRegistrationData* d = OpRegistry::Instance().Find("RegTestAdd");
  ASSERT_NE(d, nullptr);
  const OpKernelDef* k = d->FindKernel(kEngineHostCpu);
  ASSERT_NE(k, nullptr);
  gert::HostTensor a = *gert::HostTensor::Create(DT_FLOAT, gert::Shape{3});
  gert::HostTensor b = *gert::HostTensor::Create(DT_FLOAT, gert::Shape{3});
  gert::HostTensor y = *gert::HostTensor::Create(DT_FLOAT, gert::Shape{3});
  for (int i = 0; i < 3; ++i) {
    a.MutableData<float>()[i] = static_cast<float>(i);
    b.MutableData<float>()[i] = 10.0f;
  }
  gert::KernelRunContextBuilder builder;
  gert::KernelContext* ctx = builder.Node("add", "RegTestAdd")
                                 .Inputs({&a.tensor(), &b.tensor()})
                                 .Outputs({&y.tensor()})
                                 .Build();
  ASSERT_TRUE(k->fn(*ctx).ok());
  EXPECT_EQ(y.GetData<float>()[2], 12.0f);
}

}  // namespace
}  // namespace ge
