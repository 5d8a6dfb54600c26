// A custom op from a plugin library, end to end: load the .so through
// OpsProtoManager (as option ge.opsProtoLibPath would), build a graph that
// uses the op with OperatorFactory, and run it in the reference interpreter.
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/register/op_registry.h"
#include "metadef/register/inc/register/ops_proto_manager.h"
#include "runtime/reference/reference_interpreter.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string PluginPath(const std::string& name) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* ws = std::getenv("TEST_WORKSPACE");
  return absl::StrCat(srcdir == nullptr ? "." : srcdir, "/", ws == nullptr ? "ge" : ws,
                      "/metadef/register/testdata/", name);
}

TEST(PluginGraphTest, GraphWithPluginOpCompilesAndRuns) {
  // Unknown before the library loads: the factory says so.
  EXPECT_FALSE(OperatorFactory::IsExistOp("PluginScaleAdd"));
  ASSERT_TRUE(
      OpsProtoManager::Instance().LoadOpsProtoLibs(PluginPath("libcustom_op_plugin.so")).ok());
  ASSERT_TRUE(OperatorFactory::IsExistOp("PluginScaleAdd"));

  reftest::TestGraph g("plugin_graph");
  NodePtr x1 = g.Data("x1", 0);
  NodePtr x2 = g.Data("x2", 1);
  NodePtr op = g.Op("scale_add", "PluginScaleAdd", {x1, x2},
                    {{"alpha", AttrValue::CreateFrom<float>(3.0f)}});
  NodePtr relu = g.Op("relu", "Relu", {op});
  g.NetOutput({relu});

  StatusOr<std::vector<gert::HostTensor>> out = ReferenceInterpreter::Run(
      *g.graph(), reftest::Inputs(reftest::F32({3}, {1, -10, 2}), reftest::F32({3}, {1, 1, 1})));
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 1u);
  // relu(x1 + 3 * x2)
  EXPECT_THAT(reftest::ToF32((*out)[0]), ElementsAre(4, 0, 5));

  // The plugin's infer function checks shapes; the interpreter reports it
  // naming the node.
  StatusOr<std::vector<gert::HostTensor>> bad = ReferenceInterpreter::Run(
      *g.graph(), reftest::Inputs(reftest::F32({3}, {1, 2, 3}), reftest::F32({2}, {1, 1})));
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("scale_add"));
}

}  // namespace
}  // namespace ge
