// metadef/register/src/fusion_pass_registry_test.cc
#include "metadef/register/inc/register/fusion_pass_registry.h"

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

// Renames every Relu to Relu6 once; changed only when something was renamed.
class ReluToRelu6Fusion : public FusionPassBase {
 public:
  StatusOr<bool> Run(ComputeGraph& graph) override {
    bool changed = false;
    for (const NodePtr& n : graph.GetDirectNode()) {
      if (n->GetType() == "Relu") {
        n->GetOpDesc()->SetType("Relu6");
        changed = true;
      }
    }
    return changed;
  }
};

class NoopFusion : public FusionPassBase {
 public:
  StatusOr<bool> Run(ComputeGraph&) override { return false; }
};

class FailingFusion : public FusionPassBase {
 public:
  StatusOr<bool> Run(ComputeGraph& graph) override {
    return GraphInvalid("graph ", graph.GetName(), " is malformed");
  }
};

REG_FUSION_PASS("ReluToRelu6Fusion", FusionPassType::kGraphFusion, ReluToRelu6Fusion);
REG_FUSION_PASS_WITH_PRIORITY("AEarlyNoop", FusionPassType::kGraphFusion, NoopFusion, -5);
REG_FUSION_PASS_WITH_PRIORITY("ZLateNoop", FusionPassType::kGraphFusion, NoopFusion, 100);
REG_FUSION_PASS("BNoop", FusionPassType::kGraphFusion, NoopFusion);  // ties by name
REG_FUSION_PASS("BufferNoop", FusionPassType::kBufferFusion, FailingFusion);
REG_FUSION_PASS("ReluToRelu6Fusion", FusionPassType::kBufferFusion, NoopFusion);  // duplicate

TEST(FusionPassRegistryTest, OrderByPriorityThenName) {
  FusionPassRegistry& r = FusionPassRegistry::Instance();
  EXPECT_THAT(r.GetPassNames(FusionPassType::kGraphFusion),
              ElementsAre("AEarlyNoop", "BNoop", "ReluToRelu6Fusion", "ZLateNoop"));
  EXPECT_THAT(r.GetPassNames(FusionPassType::kBufferFusion), ElementsAre("BufferNoop"));
  ge::StatusOr<FusionPassRegistrationData> d = r.Get("ZLateNoop");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->priority, 100);
  EXPECT_EQ(d->type, FusionPassType::kGraphFusion);
}

TEST(FusionPassRegistryTest, DuplicateStaticRegistrationIsKeptAsError) {
  FusionPassRegistry& r = FusionPassRegistry::Instance();
  const std::vector<std::string> errors = r.GetRegistrationErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0], HasSubstr("fusion pass ReluToRelu6Fusion is already registered "
                                   "(GraphFusion, priority 0)"));
  EXPECT_EQ(r.Get("ReluToRelu6Fusion")->type, FusionPassType::kGraphFusion);  // first stays
}

TEST(FusionPassRegistryTest, CreateAndRun) {
  auto graph = std::make_shared<ComputeGraph>("g");
  ASSERT_TRUE(graph->AddNode(std::make_shared<OpDesc>("r1", "Relu")).ok());
  ASSERT_TRUE(graph->AddNode(std::make_shared<OpDesc>("c1", "Conv2D")).ok());
  FusionPassRegistry& r = FusionPassRegistry::Instance();
  StatusOr<std::unique_ptr<FusionPassBase>> pass = r.CreatePass("ReluToRelu6Fusion");
  ASSERT_TRUE(pass.ok());
  StatusOr<bool> changed = (*pass)->Run(*graph);
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(graph->FindNode("r1")->GetType(), "Relu6");
  // A fresh instance each time; a second run changes nothing.
  StatusOr<std::unique_ptr<FusionPassBase>> again = r.CreatePass("ReluToRelu6Fusion");
  ASSERT_TRUE(again.ok());
  EXPECT_NE(again->get(), pass->get());
  EXPECT_FALSE(*(*again)->Run(*graph));

  StatusOr<bool> failed = (*r.CreatePass("BufferNoop"))->Run(*graph);
  ASSERT_FALSE(failed.ok());
  EXPECT_THAT(failed.status().message(), HasSubstr("graph g is malformed"));
}

TEST(FusionPassRegistryTest, Errors) {
  FusionPassRegistry& r = FusionPassRegistry::Instance();
  StatusOr<std::unique_ptr<FusionPassBase>> unknown = r.CreatePass("ReluToRelu6Fusoin");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(GetErrorCode(unknown.status()), ErrorCode::kNotFound);
  EXPECT_THAT(unknown.status().message(), HasSubstr("did you mean 'ReluToRelu6Fusion'"));
  EXPECT_FALSE(r.Has("Nope"));
  EXPECT_TRUE(r.Has("BNoop"));

  EXPECT_EQ(GetErrorCode(r.Register({"", FusionPassType::kGraphFusion, 0,
                                     [] { return std::make_unique<NoopFusion>(); }})),
            ErrorCode::kParamInvalid);
  Status no_creator = r.Register({"NoCreator", FusionPassType::kGraphFusion, 0, nullptr});
  EXPECT_THAT(no_creator.message(), HasSubstr("fusion pass NoCreator has no creator"));
  Status bad_type = r.Register({"BadType", static_cast<FusionPassType>(7), 0,
                                [] { return std::make_unique<NoopFusion>(); }});
  EXPECT_THAT(bad_type.message(), HasSubstr("FusionPassType(7)"));

  ASSERT_TRUE(r.Register({"NullMaker", FusionPassType::kGraphFusion, 0,
                          []() -> std::unique_ptr<FusionPassBase> { return nullptr; }})
                  .ok());
  StatusOr<std::unique_ptr<FusionPassBase>> null_pass = r.CreatePass("NullMaker");
  EXPECT_EQ(GetErrorCode(null_pass.status()), ErrorCode::kInternal);
  EXPECT_TRUE(r.UnregisterForTest("NullMaker"));
  EXPECT_FALSE(r.UnregisterForTest("NullMaker"));
  EXPECT_EQ(FusionPassTypeName(FusionPassType::kBufferFusion), "BufferFusion");
}

}  // namespace
}  // namespace ge
