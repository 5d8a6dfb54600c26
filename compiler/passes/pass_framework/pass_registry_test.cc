// Tests for compiler/passes/pass_framework/pass_registry.h.
#include "compiler/passes/pass_framework/pass_registry.h"

#include <memory>
#include <string>

#include "gmock/gmock.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Records the settings it was configured with.
class SettingsProbePass : public GraphPass {
 public:
  absl::string_view name() const override { return "SettingsProbePass"; }
  void Configure(const PassSettings& settings) override {
    max_bytes = settings.constant_folding_max_bytes;
  }
  int64_t max_bytes = -1;

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr&) override { return false; }
};
GE_REGISTER_GRAPH_PASS(SettingsProbePass);

class ProbeNodePass : public BaseNodePass {
 public:
  absl::string_view name() const override { return "ProbeNodePass"; }

 protected:
  Status RunImpl(const NodePtr&) override { return OkStatus(); }
};
GE_REGISTER_NODE_PASS(ProbeNodePass);

// Registered under a name that is not its class's.
class MisnamedPass : public SettingsProbePass {
 public:
  absl::string_view name() const override { return "SomethingElse"; }
};

TEST(PassRegistryTest, CreatesRegisteredPassesConfigured) {
  PassSettings settings;
  settings.constant_folding_max_bytes = 1234;
  auto pass = PassRegistry::Instance().CreateGraphPass("SettingsProbePass", settings);
  GE_ASSERT_OK(pass.status());
  EXPECT_EQ((*pass)->name(), "SettingsProbePass");
  EXPECT_EQ(static_cast<SettingsProbePass&>(**pass).max_bytes, 1234);
  auto node_pass = PassRegistry::Instance().CreateNodePass("ProbeNodePass");
  GE_ASSERT_OK(node_pass.status());
  EXPECT_EQ((*node_pass)->name(), "ProbeNodePass");
  EXPECT_TRUE(PassRegistry::Instance().HasGraphPass("SettingsProbePass"));
  EXPECT_FALSE(PassRegistry::Instance().HasGraphPass("ProbeNodePass"));
  EXPECT_TRUE(PassRegistry::Instance().HasNodePass("ProbeNodePass"));
}

TEST(PassRegistryTest, UnknownNameListsTheKnownOnes) {
  auto pass = PassRegistry::Instance().CreateGraphPass("NoSuchPass");
  GE_EXPECT_CODE(pass.status(), ErrorCode::kNotFound);
  EXPECT_THAT(pass.status().message(), HasSubstr("SettingsProbePass"));
  EXPECT_THAT(pass.status().message(), HasSubstr("ProbeNodePass"));
  GE_EXPECT_CODE(PassRegistry::Instance().CreateNodePass("SettingsProbePass").status(),
                 ErrorCode::kNotFound);
}

TEST(PassRegistryTest, RejectsDuplicatesEmptyNamesAndNullFactories) {
  PassRegistry registry;
  auto make = []() -> std::unique_ptr<GraphPass> { return std::make_unique<SettingsProbePass>(); };
  GE_ASSERT_OK(registry.RegisterGraphPass("SettingsProbePass", make));
  GE_EXPECT_CODE(registry.RegisterGraphPass("SettingsProbePass", make), ErrorCode::kAlreadyExists);
  GE_EXPECT_CODE(registry.RegisterNodePass("SettingsProbePass",
                                           []() -> std::unique_ptr<BaseNodePass> {
                                             return std::make_unique<ProbeNodePass>();
                                           }),
                 ErrorCode::kAlreadyExists);
  GE_EXPECT_CODE(registry.RegisterGraphPass("", make), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(registry.RegisterGraphPass("Null", nullptr), ErrorCode::kParamInvalid);
  EXPECT_THAT(registry.GraphPassNames(), ElementsAre("SettingsProbePass"));
}

TEST(PassRegistryTest, APassIsNamedAfterItsRegistration) {
  PassRegistry registry;
  GE_ASSERT_OK(registry.RegisterGraphPass("MisnamedPass", []() -> std::unique_ptr<GraphPass> {
    return std::make_unique<MisnamedPass>();
  }));
  auto pass = registry.CreateGraphPass("MisnamedPass");
  GE_EXPECT_CODE(pass.status(), ErrorCode::kInternal);
  EXPECT_THAT(pass.status().message(), HasSubstr("SomethingElse"));
}

}  // namespace
}  // namespace ge
