// compiler/tools/onnx_loader_test.cc
//
// Tests of the tools' shared helpers: ParseRepeatFlag (the --repeat=N flag of
// node_counts and onnx_parse_time) and LoadOnnxModel's error path.
#include "compiler/tools/onnx_loader.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace ge {
namespace {

TEST(ParseRepeatFlagTest, ParsesPositiveCount) {
  int repeat = 3;
  StatusOr<bool> r = ParseRepeatFlag("--repeat=5", &repeat);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(*r);
  EXPECT_EQ(repeat, 5);
  r = ParseRepeatFlag("--repeat=1", &repeat);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(repeat, 1);
}

TEST(ParseRepeatFlagTest, OtherArgumentsAreNotConsumed) {
  int repeat = 3;
  for (const char* arg : {"--quiet", "--repeat", "-repeat=2", "model.onnx", "", "--repeats=2"}) {
    StatusOr<bool> r = ParseRepeatFlag(arg, &repeat);
    ASSERT_TRUE(r.ok()) << arg << ": " << r.status();
    EXPECT_FALSE(*r) << arg;
    EXPECT_EQ(repeat, 3) << arg;
  }
}

TEST(ParseRepeatFlagTest, BadValuesAreParamInvalidAndKeepTheCount) {
  int repeat = 3;
  for (const char* arg : {"--repeat=", "--repeat=0", "--repeat=-2", "--repeat=x", "--repeat=2x",
                          "--repeat=99999999999999999999"}) {
    StatusOr<bool> r = ParseRepeatFlag(arg, &repeat);
    ASSERT_FALSE(r.ok()) << arg;
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid) << arg;
    EXPECT_NE(r.status().message().find(arg), absl::string_view::npos) << r.status();
    EXPECT_EQ(repeat, 3) << arg;
  }
}

TEST(ParseToolArgsTest, SplitsRepeatToolFlagsAndModels) {
  bool quiet = false;
  auto flag = [&](const std::string& arg) -> StatusOr<bool> {
    if (arg == "--bad") return ParamInvalid("bad value in '", arg, "'");
    if (arg != "--quiet") return false;
    quiet = true;
    return true;
  };
  const char* ok_argv[] = {"tool", "a.onnx", "--repeat=4", "--quiet", "b.onnx"};
  StatusOr<ToolArgs> args = ParseToolArgs(5, ok_argv, 3, flag);
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->repeat, 4);
  EXPECT_EQ(args->models, (std::vector<std::string>{"a.onnx", "b.onnx"}));
  EXPECT_TRUE(quiet);

  const char* default_argv[] = {"tool", "m.onnx"};
  args = ParseToolArgs(2, default_argv, 3, flag);
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->repeat, 3);

  const char* unknown_argv[] = {"tool", "--nope", "m.onnx"};
  args = ParseToolArgs(3, unknown_argv, 3, flag);
  EXPECT_EQ(GetErrorCode(args.status()), ErrorCode::kParamInvalid);
  EXPECT_NE(args.status().message().find("unknown flag '--nope'"), std::string::npos);

  const char* bad_argv[] = {"tool", "--bad"};
  args = ParseToolArgs(2, bad_argv, 3, flag);
  EXPECT_NE(args.status().message().find("bad value in '--bad'"), std::string::npos);

  const char* bad_repeat_argv[] = {"tool", "--repeat=0"};
  args = ParseToolArgs(2, bad_repeat_argv, 3, flag);
  EXPECT_EQ(GetErrorCode(args.status()), ErrorCode::kParamInvalid);
}

TEST(LoadOnnxModelTest, MissingFileIsAnErrorNamingThePath) {
  StatusOr<ComputeGraphPtr> g = LoadOnnxModel("/nonexistent/dir/model.onnx");
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("/nonexistent/dir/model.onnx"), absl::string_view::npos)
      << g.status();
}

}  // namespace
}  // namespace ge
