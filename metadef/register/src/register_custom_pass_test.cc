// metadef/register/src/register_custom_pass_test.cc
#include "metadef/register/inc/register/register_custom_pass.h"

#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string>& Calls() {
  static std::vector<std::string>* calls = new std::vector<std::string>();
  return *calls;
}

Status FirstPass(const ComputeGraphPtr& graph) {
  Calls().push_back("first:" + graph->GetName());
  return OkStatus();
}

Status SecondPassByRef(ComputeGraph& graph) {
  Calls().push_back("second:" + graph.GetName());
  // Passes may change the graph.
  StatusOr<NodePtr> n = graph.AddNode(std::make_shared<OpDesc>("added_by_pass", "Relu"));
  return n.status();
}

Status EarlyPass(ComputeGraphPtr graph) {  // by value also fits CustomPassFunc
  Calls().push_back("early:" + graph->GetName());
  return OkStatus();
}

REGISTER_CUSTOM_PASS("TestFirstPass")
    .Stage(CustomPassStage::kAfterInferShape)
    .CustomPassFn(FirstPass);
REGISTER_CUSTOM_PASS("TestSecondPass")
    .Stage(CustomPassStage::kAfterInferShape)
    .CustomPassFn(SecondPassByRef);
REGISTER_CUSTOM_PASS("TestEarlyPass").CustomPassFn(EarlyPass);  // default stage
REGISTER_CUSTOM_PASS("TestLambdaPass")
    .Stage(CustomPassStage::kAfterBuiltinFusion)
    .CustomPassFn([](ComputeGraph& g) -> Status {
      Calls().push_back("lambda:" + g.GetName());
      return OkStatus();
    });
// Broken static registrations: kept as errors, not registered.
REGISTER_CUSTOM_PASS("TestNoFunction").Stage(CustomPassStage::kAfterInferShape);
REGISTER_CUSTOM_PASS("TestFirstPass").CustomPassFn(FirstPass);  // duplicate name

TEST(CustomPassRegistryTest, StaticRegistrationInOrderPerStage) {
  CustomPassRegistry& r = CustomPassRegistry::Instance();
  EXPECT_THAT(r.GetPassNames(CustomPassStage::kAfterInferShape),
              ElementsAre("TestFirstPass", "TestSecondPass"));
  EXPECT_THAT(r.GetPassNames(CustomPassStage::kBeforeInferShape), ElementsAre("TestEarlyPass"));
  EXPECT_THAT(r.GetPassNames(CustomPassStage::kAfterOriginGraphOptimize), ElementsAre());
  const std::vector<PassRegistrationData> passes = r.GetPasses(CustomPassStage::kAfterInferShape);
  ASSERT_EQ(passes.size(), 2u);
  EXPECT_EQ(passes[1].GetPassName(), "TestSecondPass");
  EXPECT_EQ(passes[1].GetStage(), CustomPassStage::kAfterInferShape);
  EXPECT_TRUE(passes[1].HasFn());
}

TEST(CustomPassRegistryTest, ReceiverErrorsAreKept) {
  const std::vector<std::string> errors = CustomPassRegistry::Instance().GetRegistrationErrors();
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_THAT(errors[0], HasSubstr("custom pass TestNoFunction has no function"));
  EXPECT_THAT(errors[1], HasSubstr("custom pass TestFirstPass is already registered"));
}

TEST(CustomPassRegistryTest, RunPassesInOrder) {
  auto graph = std::make_shared<ComputeGraph>("g1");
  Calls().clear();
  CustomPassRegistry& r = CustomPassRegistry::Instance();
  ASSERT_TRUE(r.RunPasses(CustomPassStage::kBeforeInferShape, graph).ok());
  ASSERT_TRUE(r.RunPasses(CustomPassStage::kAfterInferShape, graph).ok());
  ASSERT_TRUE(r.RunPasses(CustomPassStage::kAfterOriginGraphOptimize, graph).ok());
  ASSERT_TRUE(r.RunPasses(CustomPassStage::kAfterBuiltinFusion, graph).ok());
  EXPECT_THAT(Calls(), ElementsAre("early:g1", "first:g1", "second:g1", "lambda:g1"));
  EXPECT_NE(graph->FindNode("added_by_pass"), nullptr);
}

TEST(CustomPassRegistryTest, ErrorStopsTheStageAndNamesThePass) {
  CustomPassRegistry& r = CustomPassRegistry::Instance();
  ASSERT_TRUE(r.Register(PassRegistrationData("TestFailingPass")
                             .Stage(CustomPassStage::kAfterOriginGraphOptimize)
                             .CustomPassFn([](const ComputeGraphPtr&) -> Status {
                               return GraphInvalid("dangling edge");
                             }))
                  .ok());
  ASSERT_TRUE(r.Register(PassRegistrationData("TestAfterFailing")
                             .Stage(CustomPassStage::kAfterOriginGraphOptimize)
                             .CustomPassFn([](const ComputeGraphPtr&) -> Status {
                               Calls().push_back("after_failing");
                               return OkStatus();
                             }))
                  .ok());
  Calls().clear();
  Status st =
      r.RunPasses(CustomPassStage::kAfterOriginGraphOptimize, std::make_shared<ComputeGraph>("g2"));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kGraphInvalid);
  EXPECT_EQ(st.message(),
            "custom pass TestFailingPass (stage AfterOriginGraphOptimize): dangling edge");
  EXPECT_TRUE(Calls().empty());
  EXPECT_TRUE(r.UnregisterForTest("TestFailingPass"));
  EXPECT_TRUE(r.UnregisterForTest("TestAfterFailing"));
  EXPECT_FALSE(r.UnregisterForTest("TestAfterFailing"));
  EXPECT_TRUE(
      r.RunPasses(CustomPassStage::kAfterOriginGraphOptimize, std::make_shared<ComputeGraph>("g3"))
          .ok());
}

TEST(CustomPassRegistryTest, RegisterErrors) {
  CustomPassRegistry& r = CustomPassRegistry::Instance();
  const size_t before = r.size();
  EXPECT_EQ(GetErrorCode(r.Register(PassRegistrationData("").CustomPassFn(FirstPass))),
            ErrorCode::kParamInvalid);
  Status no_fn = r.Register(PassRegistrationData("X"));
  EXPECT_THAT(no_fn.message(), HasSubstr("custom pass X has no function"));
  Status dup = r.Register(PassRegistrationData("TestEarlyPass").CustomPassFn(FirstPass));
  EXPECT_EQ(GetErrorCode(dup), ErrorCode::kAlreadyExists);
  EXPECT_THAT(dup.message(), HasSubstr("stage BeforeInferShape"));
  Status stage = r.Register(
      PassRegistrationData("Y").Stage(static_cast<CustomPassStage>(9)).CustomPassFn(FirstPass));
  EXPECT_EQ(GetErrorCode(stage), ErrorCode::kParamInvalid);
  EXPECT_THAT(stage.message(), HasSubstr("CustomPassStage(9)"));
  EXPECT_EQ(r.size(), before);
}

TEST(CustomPassRegistryTest, NullGraphAndMissingFunction) {
  CustomPassRegistry& r = CustomPassRegistry::Instance();
  EXPECT_EQ(GetErrorCode(r.RunPasses(CustomPassStage::kAfterInferShape, nullptr)),
            ErrorCode::kParamInvalid);
  PassRegistrationData bare("bare");
  EXPECT_EQ(GetErrorCode(bare.Run(std::make_shared<ComputeGraph>("g"))), ErrorCode::kNotFound);
  EXPECT_EQ(GetErrorCode(PassRegistrationData("p").CustomPassFn(SecondPassByRef).Run(nullptr)),
            ErrorCode::kParamInvalid);
}

TEST(CustomPassStageNameTest, Names) {
  EXPECT_EQ(CustomPassStageName(CustomPassStage::kBeforeInferShape), "BeforeInferShape");
  EXPECT_EQ(CustomPassStageName(CustomPassStage::kAfterBuiltinFusion), "AfterBuiltinFusion");
  EXPECT_EQ(CustomPassStageName(static_cast<CustomPassStage>(-1)), "CustomPassStage(-1)");
}

}  // namespace
}  // namespace ge
