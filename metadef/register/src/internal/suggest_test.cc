// metadef/register/src/internal/suggest_test.cc
#include "metadef/register/src/internal/suggest.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ge {
namespace register_internal {
namespace {

using ::testing::ElementsAre;

TEST(EditDistanceTest, Basics) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("abc", ""), 3u);
  EXPECT_EQ(EditDistance("Addd", "Add"), 1u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("CONV", "conv"), 0u);  // case-insensitive
}

TEST(ClosestNamesTest, ClosestFirstTiesByNameAtMostMax) {
  const std::vector<absl::string_view> names{"Mul", "AddN", "Add", "Abs", "And", "Conv2D"};
  EXPECT_THAT(ClosestNames("Addd", names, 3), ElementsAre("Add", "AddN", "And"));
  EXPECT_THAT(ClosestNames("Addd", names, 1), ElementsAre("Add"));
  EXPECT_THAT(ClosestNames("conv2d", names, 3), ElementsAre("Conv2D"));
  EXPECT_THAT(ClosestNames("Softmax", names, 3), ElementsAre());
  EXPECT_THAT(ClosestNames("", names, 3), ElementsAre());
  // Order of the candidates does not matter; duplicates collapse.
  const std::vector<absl::string_view> shuffled{"And", "Add", "Conv2D", "AddN", "Add"};
  EXPECT_THAT(ClosestNames("Addd", shuffled, 3), ElementsAre("Add", "AddN", "And"));
}

TEST(SuggestionSuffixTest, Format) {
  EXPECT_EQ(SuggestionSuffix({}), "");
  EXPECT_EQ(SuggestionSuffix({"Add"}), "; did you mean 'Add'?");
  EXPECT_EQ(SuggestionSuffix({"Add", "AddN"}), "; did you mean 'Add', 'AddN'?");
}

}  // namespace
}  // namespace register_internal
}  // namespace ge
