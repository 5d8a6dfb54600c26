// Tests of the ge.* options table and its validation.
#include "compiler/manager/session_options.h"

#include <map>
#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::HasSubstr;

std::string Msg(const Status& s) { return std::string(s.message()); }

TEST(SessionOptionsTest, TableIsWellFormed) {
  std::set<std::string> names;
  for (const OptionSpec& s : KnownOptions()) {
    EXPECT_TRUE(names.insert(s.name).second) << "duplicate " << s.name;
    EXPECT_FALSE(s.description.empty()) << s.name;
    if (!s.default_value.empty()) {
      EXPECT_TRUE(ValidateOption(s.name, s.default_value).ok()) << s.name;
    }
    if (s.type == OptionType::kEnum) {
      EXPECT_FALSE(s.allowed_values.empty()) << s.name;
    }
  }
  for (const char* n :
       {kOptGraphRunMode, kOptPrecisionMode, kOptTopoSortingMode, kOptDisabledPasses,
        kOptConstantFoldingMaxBytes, kOptOpsProtoLibPath, kOptBuildMode, kOptBuildStep,
        kOptTuningPath, kOptTuningResumeFile, kOptEnableSingleStream, kOptDisableReuseMemory,
        kOptInputShape, kOptOutNodes, kOptSocVersion}) {
    EXPECT_NE(FindOption(n), nullptr) << n;
  }
  EXPECT_EQ(FindOption("ge.nope"), nullptr);
}

TEST(SessionOptionsTest, UnknownOption) {
  Status st = ValidateOptions({{"ge.graphRunMode", "0"}, {"ge.topoSortMode", "1"}});
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(st), HasSubstr("'ge.topoSortMode'"));
  EXPECT_THAT(Msg(st), HasSubstr("ge.topoSortingMode"));  // lists the known ones
}

TEST(SessionOptionsTest, BadEnum) {
  Status st = ValidateOption(kOptTopoSortingMode, "4");
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(st), HasSubstr("ge.topoSortingMode"));
  EXPECT_THAT(Msg(st), HasSubstr("0, 1, 2, 3"));
  Status mode = ValidateOption(kOptBuildMode, "fast");
  EXPECT_THAT(Msg(mode), HasSubstr("normal, tuning"));
  Status step = ValidateOption(kOptBuildStep, "after_everything");
  EXPECT_EQ(GetErrorCode(step), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(step), HasSubstr("after_optimize"));
  EXPECT_THAT(Msg(step), HasSubstr("before_ub_match"));
  EXPECT_FALSE(ValidateOption(kOptEnableSingleStream, "yes").ok());
  EXPECT_FALSE(ValidateOption(kOptPrecisionMode, "").ok());
  EXPECT_TRUE(ValidateOption(kOptPrecisionMode, "force_fp16").ok());
}

TEST(SessionOptionsTest, IntRange) {
  EXPECT_TRUE(ValidateOption(kOptConstantFoldingMaxBytes, "0").ok());
  Status neg = ValidateOption(kOptConstantFoldingMaxBytes, "-1");
  EXPECT_EQ(GetErrorCode(neg), ErrorCode::kOutOfRange);
  EXPECT_THAT(Msg(neg), HasSubstr("ge.constantFoldingMaxBytes"));
  EXPECT_THAT(Msg(neg), HasSubstr("[0, "));
  EXPECT_EQ(GetErrorCode(ValidateOption(kOptConstantFoldingMaxBytes, "99999999999999999999")),
            ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(ValidateOption(kOptConstantFoldingMaxBytes, "12kb")),
            ErrorCode::kParamInvalid);
}

TEST(SessionOptionsTest, ShapeAndNodeLists) {
  EXPECT_TRUE(ValidateOption(kOptInputShape, "x:1,3,224,224;y:-1,4;s:").ok());
  EXPECT_TRUE(ValidateOption(kOptInputShape, "").ok());
  Status st = ValidateOption(kOptInputShape, "x:1,a");
  EXPECT_THAT(Msg(st), HasSubstr("'a'"));
  EXPECT_FALSE(ValidateOption(kOptInputShape, "x").ok());
  EXPECT_FALSE(ValidateOption(kOptInputShape, ":1").ok());
  EXPECT_FALSE(ValidateOption(kOptInputShape, "x:-3").ok());
  EXPECT_TRUE(ValidateOption(kOptOutNodes, "relu:0;add").ok());
  EXPECT_FALSE(ValidateOption(kOptOutNodes, "relu:-1").ok());
  EXPECT_FALSE(ValidateOption(kOptOutNodes, ":0").ok());
}

TEST(SessionOptionsTest, ToCompileOptions) {
  auto def = ToCompileOptions({});
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(def->topo_mode, TopoSortingMode::kDFS);
  EXPECT_EQ(def->build_mode, BuildMode::kNormal);
  EXPECT_FALSE(def->has_stop_step);

  auto train = ToCompileOptions({{kOptGraphRunMode, "1"}});
  EXPECT_EQ(train->topo_mode, TopoSortingMode::kBFS);
  auto rdfs = ToCompileOptions({{kOptGraphRunMode, "1"}, {kOptTopoSortingMode, "3"}});
  EXPECT_EQ(rdfs->topo_mode, TopoSortingMode::kStableRDFS);

  auto tuning = ToCompileOptions({{kOptBuildMode, "tuning"},
                                  {kOptBuildStep, "after_ub_match"},
                                  {kOptTuningPath, "/tmp/t"},
                                  {kOptDisabledPasses, "A, B"}});
  ASSERT_TRUE(tuning.ok()) << tuning.status();
  EXPECT_TRUE(tuning->has_stop_step);
  EXPECT_EQ(tuning->stop_after, BuildStep::kAfterOptimizeSubgraph);
  EXPECT_EQ(tuning->tuning_path, "/tmp/t");
  EXPECT_EQ(tuning->disabled_passes, (std::set<std::string>{"A", "B"}));

  auto no_mode = ToCompileOptions({{kOptBuildStep, "after_build"}, {kOptTuningPath, "/tmp"}});
  EXPECT_EQ(GetErrorCode(no_mode.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(no_mode.status()), HasSubstr("ge.buildMode=tuning"));
  auto no_path = ToCompileOptions({{kOptBuildMode, "tuning"}, {kOptBuildStep, "after_build"}});
  EXPECT_THAT(Msg(no_path.status()), HasSubstr("ge.tuningPath"));
  EXPECT_FALSE(ToCompileOptions({{"ge.bogus", "1"}}).ok());
}

TEST(SessionOptionsTest, MergeAndDefaults) {
  auto m =
      MergeOptions({{kOptGraphRunMode, "0"}, {kOptSocVersion, "a"}}, {{kOptGraphRunMode, "1"}});
  EXPECT_EQ(m[kOptGraphRunMode], "1");
  EXPECT_EQ(m[kOptSocVersion], "a");
  EXPECT_EQ(OptionOrDefault({}, kOptBuildMode), "normal");
  EXPECT_EQ(OptionOrDefault({{kOptBuildMode, "tuning"}}, kOptBuildMode), "tuning");
  EXPECT_EQ(OptionOrDefault({}, "ge.unknown"), "");
}

}  // namespace
}  // namespace ge
