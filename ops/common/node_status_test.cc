// ops/common/node_status_test.cc
#include "ops/common/node_status.h"

#include <string>

#include "gtest/gtest.h"

namespace ops {
namespace {

TEST(ErrorsTest, WithNodeKeepsTheCode) {
  gert::KernelRunContextBuilder b;
  b.Node("n1", "Mod");
  gert::KernelContext* ctx = b.Build();
  ge::Status st = WithNode(*ctx, ge::OutOfRange("axis 9"));
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kOutOfRange);
  EXPECT_EQ(std::string(st.message()), "node n1 (Mod): axis 9");
  EXPECT_TRUE(WithNode(*ctx, ge::OkStatus()).ok());
}

}  // namespace
}  // namespace ops
