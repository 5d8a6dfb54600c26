// graph/src/string_interner_test.cc
#include "graph/src/string_interner.h"

#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace ge {
namespace internal {
namespace {

TEST(StringInternerTest, EqualStringsShareOnePointer) {
  const std::string* a = InternString("Conv2D");
  const std::string* b = InternString(std::string("Conv") + "2D");
  EXPECT_EQ(a, b);
  EXPECT_EQ(*a, "Conv2D");
  EXPECT_NE(InternString("Conv3D"), a);
  EXPECT_EQ(*EmptyInternedString(), "");
  EXPECT_EQ(EmptyInternedString(), InternString(""));
}

TEST(StringInternerTest, PointersSurviveGrowthAndThreads) {
  const std::string* first = InternString("first");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < 2000; ++i) InternString("name_" + std::to_string((i * 7 + t) % 3000));
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(InternString("first"), first);
  EXPECT_EQ(*first, "first");
  EXPECT_EQ(InternString("name_5"), InternString("name_5"));
}

}  // namespace
}  // namespace internal
}  // namespace ge
