// compiler/passes/pass_framework/pass_options_test.cc
#include "compiler/passes/pass_framework/pass_options.h"

#include <map>
#include <set>
#include <string>

#include "gtest/gtest.h"

namespace ge {
namespace {

TEST(PassOptionsTest, ParsesACommaListTrimmingBlanks) {
  EXPECT_EQ(ParseDisabledPassList(" CastRemovePass ,,DeadCodeEliminationPass,\t"),
            (std::set<std::string>{"CastRemovePass", "DeadCodeEliminationPass"}));
  EXPECT_TRUE(ParseDisabledPassList("").empty());
  EXPECT_TRUE(ParseDisabledPassList(" , ,").empty());
  EXPECT_EQ(ParseDisabledPassList("a,a"), (std::set<std::string>{"a"}));
}

TEST(PassOptionsTest, ReadsTheGeOption) {
  std::map<std::string, std::string> options = {{"ge.disabledPasses", "A,B"}, {"ge.other", "C"}};
  EXPECT_EQ(ParseDisabledPasses(options), (std::set<std::string>{"A", "B"}));
  EXPECT_TRUE(ParseDisabledPasses({{"ge.other", "C"}}).empty());
  EXPECT_STREQ(kOptionDisabledPasses, "ge.disabledPasses");
}

}  // namespace
}  // namespace ge
