// metadef/register/src/op_register_c_test.cc
//
// C++ side: the op registered from C (op_register_c_test_ops.c) is found in
// the registry, goes through OperatorFactory and InferShapeAndTypeForOpDesc
// (its C infer function) and its C kernel runs through a KernelContext.
#include "metadef/register/inc/register/op_register_c.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"

extern "C" {
int GeCTestRegisterOps(void);
int GeCTestBadRegistrations(void);
int GeCTestScaleCalls(void);
}

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class OpRegisterCTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_EQ(GeCTestRegisterOps(), 0) << GeCGetLastError(); }
};

std::vector<float> RunScale(const OpDesc& op, const std::vector<float>& x,
                            const std::vector<float>* bias, Status* status) {
  const OpKernelDef* k = OpRegistry::Instance().Find("CScale")->FindKernel(kEngineHostCpu);
  const gert::Shape shape{static_cast<int64_t>(x.size())};
  gert::HostTensor xt = *gert::HostTensor::CreateFrom(DT_FLOAT, shape, x.data(), x.size() * 4);
  gert::HostTensor bt = *gert::HostTensor::Create(DT_FLOAT, shape);
  if (bias != nullptr) {
    for (size_t i = 0; i < bias->size(); ++i) bt.MutableData<float>()[i] = (*bias)[i];
  }
  gert::HostTensor yt = *gert::HostTensor::Create(DT_FLOAT, shape);
  gert::KernelRunContextBuilder b;
  gert::KernelContext* ctx = b.Node(op.GetName(), op.GetType())
                                 .Attrs(&op)
                                 .Inputs({&xt.tensor(), bias == nullptr ? nullptr : &bt.tensor()})
                                 .Outputs({&yt.tensor()})
                                 .Build();
  *status = k->fn(*ctx);
  return std::vector<float>(yt.GetData<float>(), yt.GetData<float>() + x.size());
}

TEST_F(OpRegisterCTest, RegisteredFromCFoundFromCpp) {
  const OpRegistrationData* d = OpRegistry::Instance().Find("CScale");
  ASSERT_NE(d, nullptr);
  EXPECT_THAT(d->source, StartsWith("c_api#"));
  ASSERT_EQ(d->inputs.size(), 2u);
  EXPECT_EQ(d->inputs[1].kind, IoKind::kOptional);
  EXPECT_TRUE(d->inputs[0].types.Contains(DT_FLOAT16));
  EXPECT_FALSE(d->inputs[0].types.Contains(DT_INT32));
  ASSERT_NE(d->FindAttr("scale"), nullptr);
  EXPECT_EQ(*d->FindAttr("scale")->default_value.Get<float>(), 2.0f);
  EXPECT_EQ(*d->FindAttr("note")->default_value.Get<std::string>(), "from C");
  EXPECT_TRUE(d->FindAttr("axis")->required);
  EXPECT_EQ(d->FindAttr("axis")->type, AttrValue::VT_INT);
  EXPECT_NE(d->FindKernel(kEngineHostCpu), nullptr);
  EXPECT_NE(d->infer_shape, nullptr);
  EXPECT_EQ(d->traits.flags, uint32_t{kOpTraitSideEffect});
  EXPECT_THAT(d->traits.value_dependent_inputs, ElementsAre(1u));
  EXPECT_TRUE(OpTraitsOf("CScale").Has(kOpTraitSideEffect));
}

TEST_F(OpRegisterCTest, FactoryInferAndKernel) {
  StatusOr<OpDescPtr> op = OperatorFactory::CreateOpDesc("cs", "CScale");
  ASSERT_TRUE(op.ok()) << op.status();
  ASSERT_TRUE((*op)->UpdateInputDesc(0, GeTensorDesc(GeShape({2, 3}), FORMAT_ND, DT_FLOAT16)).ok());
  // The required attribute is enforced before the C function runs.
  Status missing = InferShapeAndTypeForOpDesc(**op);
  EXPECT_THAT(missing.message(), HasSubstr("required attribute 'axis' (int) is missing"));
  ASSERT_TRUE((*op)->SetAttr("axis", AttrValue::CreateFrom<int64_t>(0)).ok());
  ASSERT_TRUE(InferShapeAndTypeForOpDesc(**op).ok());
  EXPECT_EQ((*op)->GetOutputDesc(0).GetShape(), GeShape({2, 3}));
  EXPECT_EQ((*op)->GetOutputDesc(0).GetDataType(), DT_FLOAT16);

  ASSERT_TRUE((*op)->UpdateInputDesc(0, GeTensorDesc(GeShape({2}), FORMAT_ND, DT_INT32)).ok());
  Status bad_type = InferShapeAndTypeForOpDesc(**op);
  EXPECT_THAT(bad_type.message(), HasSubstr("node cs (CScale)"));
  EXPECT_THAT(bad_type.message(), HasSubstr("DT_INT32"));

  const int calls = GeCTestScaleCalls();
  Status st;
  EXPECT_THAT(RunScale(**op, {1, 2, 3}, nullptr, &st), ElementsAre(2.5f, 4.5f, 6.5f));
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_TRUE((*op)->SetAttr("scale", AttrValue::CreateFrom<float>(10.0f)).ok());
  const std::vector<float> bias{100, 200, 300};
  EXPECT_THAT(RunScale(**op, {1, 2, 3}, &bias, &st), ElementsAre(110.5f, 220.5f, 330.5f));
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(GeCTestScaleCalls(), calls + 2);
}

TEST_F(OpRegisterCTest, KernelFailureNamesTheNode) {
  OpDesc op("neg", "CScale");
  ASSERT_TRUE(op.SetAttr("scale", AttrValue::CreateFrom<float>(1.0f)).ok());
  Status st;
  RunScale(op, {-1, 2}, nullptr, &st);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "node neg (CScale): C kernel returned 42");
  // The kernel reads attributes of its node: a missing one fails inside C.
  OpDesc no_scale("ns", "CScale");
  RunScale(no_scale, {1}, nullptr, &st);
  EXPECT_EQ(st.message(), "node ns (CScale): C kernel returned 2");
}

TEST_F(OpRegisterCTest, ErrorHandlingSeenFromC) {
  EXPECT_EQ(GeCTestBadRegistrations(), 0) << GeCGetLastError();
  EXPECT_EQ(OpRegistry::Instance().Find("CBadTypes"), nullptr);
  EXPECT_EQ(OpRegistry::Instance().Find("CBadKinds"), nullptr);
  // The conflicting registration did not replace CScale.
  EXPECT_EQ(OpRegistry::Instance().Find("CScale")->inputs[0].name, "x");
}

}  // namespace
}  // namespace ge
