// ops/common/axes_test.cc
#include "ops/common/axes.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ops {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// ------------------------------------------------------------------ axes

TEST(AxisTest, Normalize) {
  EXPECT_EQ(*NormalizeAxis(0, 3), 0);
  EXPECT_EQ(*NormalizeAxis(-1, 3), 2);
  EXPECT_EQ(*NormalizeAxis(-3, 3), 0);
  EXPECT_EQ(*NormalizeAxis(2, 3), 2);
  auto bad = NormalizeAxis(3, 3);
  EXPECT_EQ(ge::GetErrorCode(bad.status()), ge::ErrorCode::kOutOfRange);
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("axis 3"));
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("[-3, 2]"));
  EXPECT_FALSE(NormalizeAxis(-4, 3).ok());
  EXPECT_FALSE(NormalizeAxis(0, 0).ok());
  EXPECT_FALSE(NormalizeAxis(0, -1).ok());
  EXPECT_FALSE(NormalizeAxis(std::numeric_limits<int64_t>::min(), 3).ok());
}

TEST(AxisTest, NormalizeAxes) {
  std::vector<int64_t> axes = {-1, 0, 1};
  auto r = NormalizeAxes(axes, 4);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(*r, ElementsAre(3, 0, 1));
  axes = {1, -3};
  auto dup = NormalizeAxes(axes, 4);
  EXPECT_FALSE(dup.ok());
  EXPECT_THAT(std::string(dup.status().message()), HasSubstr("axes[1]"));
  EXPECT_TRUE(NormalizeAxes(axes, 4, /*allow_duplicates=*/true).ok());
  axes = {0, 7};
  auto oor = NormalizeAxes(axes, 4);
  EXPECT_EQ(ge::GetErrorCode(oor.status()), ge::ErrorCode::kOutOfRange);
  EXPECT_THAT(std::string(oor.status().message()), HasSubstr("axes[1]"));
}

}  // namespace
}  // namespace ops
