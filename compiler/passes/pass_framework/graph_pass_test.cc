// compiler/passes/pass_framework/graph_pass_test.cc
#include "compiler/passes/pass_framework/graph_pass.h"

#include <string>

#include "gmock/gmock.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

class CountingPass : public GraphPass {
 public:
  absl::string_view name() const override { return "CountingPass"; }
  int runs = 0;
  bool report_change = false;
  Status fail = OkStatus();

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override {
    ++runs;
    if (!fail.ok()) return fail;
    return report_change;
  }
};

TEST(GraphPassTest, RunForwardsTheResult) {
  testing::GraphBuilder b("g");
  CountingPass pass;
  auto r = pass.Run(b.graph());
  GE_ASSERT_OK(r);
  EXPECT_FALSE(*r);
  pass.report_change = true;
  r = pass.Run(b.graph());
  GE_ASSERT_OK(r);
  EXPECT_TRUE(*r);
  EXPECT_EQ(pass.runs, 2);
}

TEST(GraphPassTest, NullGraphIsRejectedWithoutRunning) {
  CountingPass pass;
  auto r = pass.Run(nullptr);
  GE_EXPECT_CODE(r, ErrorCode::kParamInvalid);
  EXPECT_THAT(r.status().message(), HasSubstr("pass 'CountingPass'"));
  EXPECT_EQ(pass.runs, 0);
}

TEST(GraphPassTest, ErrorsNameThePassAndGraphOnceKeepingTheCode) {
  testing::GraphBuilder b("g");
  CountingPass pass;
  pass.fail = NotSupported("no way");
  auto r = pass.Run(b.graph());
  GE_EXPECT_CODE(r, ErrorCode::kNotSupported);
  EXPECT_EQ(r.status().message(), "pass 'CountingPass' on graph 'g': no way");
  // An error that already carries the prefix is not prefixed again.
  pass.fail = Internal("pass 'CountingPass' on graph 'g': inner");
  r = pass.Run(b.graph());
  EXPECT_EQ(r.status().message(), "pass 'CountingPass' on graph 'g': inner");
  EXPECT_THAT(std::string(r.status().message()), StartsWith("pass 'CountingPass'"));
}

}  // namespace
}  // namespace ge
