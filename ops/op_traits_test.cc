// ops/op_traits_test.cc
//
// The traits the op library declares (REG_OP ... .SideEffect() / .Random()
// / .DataDependentOutputShape() / .ValueDependentInput(...), REG_OP_TRAITS
// for types defined elsewhere), as OpTraitsOf reports them:
//   - every op type of the hand-kept lists the passes and the model builder
//     used before the registry had traits keeps its trait;
//   - the value-dependent inputs of every registered op are exactly the
//     table below (an op that starts reading an input's value in its infer
//     function fails its family's tests through CheckValueReadsDeclared;
//     one that declares a new input fails here until the table says so).
#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/register/op_registry.h"

namespace ge {
namespace {

using ::testing::IsEmpty;

// The lists the traits replace, verbatim.
const char* const kOldSideEffectTypes[] = {"Send",
                                           "Recv",
                                           "HcomAllReduce",
                                           "HcomAllGather",
                                           "HcomBroadcast",
                                           "HcomReduceScatter",
                                           "HcomSend",
                                           "HcomReceive",
                                           "HcomAllToAllV",
                                           "Assign",
                                           "AssignAdd",
                                           "AssignSub",
                                           "AssignVariableOp",
                                           "ScatterUpdate",
                                           "Variable",
                                           "VariableV2",
                                           "VarHandleOp",
                                           "Print",
                                           "PrintV2",
                                           "Assert",
                                           "StreamActive",
                                           "StreamSwitch",
                                           "StreamSwitchN",
                                           "LabelSet",
                                           "LabelGoto",
                                           "LabelGotoEx",
                                           "LabelSwitchByIndex"};

const char* const kOldRandomTypes[] = {
    "RandomUniform",    "RandomUniformLike",    "RandomNormal",
    "RandomNormalLike", "RandomStandardNormal", "TruncatedNormal",
    "RandomShuffle",    "Multinomial",          "Bernoulli",
    "Dropout",          "DropOutGenMask",       "DropOutDoMask"};

const char* const kOldDataDependentTypes[] = {"NonZero",
                                              "Unique",
                                              "NonMaxSuppression",
                                              "Compress",
                                              "StringSplit",
                                              "TopKV2Dynamic",
                                              "SequenceConstruct",
                                              "SequenceEmpty",
                                              "SequenceInsert",
                                              "SequenceErase",
                                              "SequenceAt",
                                              "SplitToSequence",
                                              "ConcatFromSequence",
                                              "Optional",
                                              "OptionalGetElement",
                                              "OptionalHasElement",
                                              "StringNormalizer",
                                              "RegexFullMatch",
                                              "StringConcat",
                                              "Loop",
                                              "If",
                                              "Scan",
                                              "While",
                                              "Case"};

TEST(OpTraitsTest, OpTypesOfTheOldListsKeepTheirTraits) {
  for (const char* t : kOldSideEffectTypes) {
    EXPECT_TRUE(OpTraitsOf(t).Has(kOpTraitSideEffect)) << t;
  }
  for (const char* t : kOldRandomTypes) EXPECT_TRUE(OpTraitsOf(t).Has(kOpTraitRandom)) << t;
  for (const char* t : kOldDataDependentTypes) {
    EXPECT_TRUE(OpTraitsOf(t).Has(kOpTraitDataDependentOutputShape)) << t;
  }
}

TEST(OpTraitsTest, OnlyTheOldListsCarryTheFlags) {
  // Passes and the builder treat a flagged type differently: a flag on
  // another type changes what they do.
  std::map<std::string, uint32_t> expected;
  for (const char* t : kOldSideEffectTypes) expected[t] |= kOpTraitSideEffect;
  for (const char* t : kOldRandomTypes) expected[t] |= kOpTraitRandom;
  for (const char* t : kOldDataDependentTypes) expected[t] |= kOpTraitDataDependentOutputShape;
  for (const std::string& t : OpRegistry::Instance().GetAllTypes()) {
    auto it = expected.find(t);
    EXPECT_EQ(OpTraitsOf(t).flags, it == expected.end() ? 0u : it->second) << t;
  }
}

TEST(OpTraitsTest, AFewOfEachKind) {
  EXPECT_TRUE(OpTraitsOf("Send").Has(kOpTraitSideEffect));
  EXPECT_TRUE(OpTraitsOf("Assign").Has(kOpTraitSideEffect));  // traits-only
  EXPECT_FALSE(OperatorFactory::IsExistOp("Assign"));
  EXPECT_TRUE(OpTraitsOf("RandomNormal").Has(kOpTraitRandom));
  EXPECT_FALSE(OpTraitsOf("RandomNormal").Has(kOpTraitSideEffect));
  EXPECT_TRUE(OpTraitsOf("NonZero").Has(kOpTraitDataDependentOutputShape));
  EXPECT_TRUE(OpTraitsOf("Loop").Has(kOpTraitDataDependentOutputShape));
  EXPECT_EQ(OpTraitsOf("Add").flags, 0u);
  EXPECT_THAT(OpTraitsOf("Add").value_dependent_inputs, IsEmpty());
  EXPECT_EQ(OpTraitsOf("Reshape").flags, 0u);
  EXPECT_TRUE(OpTraitsOf("Reshape").IsValueDependentInput(1));
  EXPECT_FALSE(OpTraitsOf("Reshape").IsValueDependentInput(0));
  EXPECT_TRUE(OpTraitsOf("TopK").IsValueDependentInput(1));
}

// Op type -> the IR inputs whose values its verify / infer functions read.
const std::map<std::string, std::vector<std::string>>& ValueDependentInputs() {
  static const auto* m = new std::map<std::string, std::vector<std::string>>{
      // array
      {"Reshape", {"shape"}},
      {"Squeeze", {"axes"}},
      {"Unsqueeze", {"axes"}},
      {"Split", {"split"}},
      {"Slice", {"starts", "ends", "axes", "steps"}},
      {"Pad", {"pads", "axes"}},
      {"Tile", {"repeats"}},
      {"Expand", {"shape"}},
      {"Range", {"start", "limit", "delta"}},
      {"ConstantOfShape", {"input"}},
      {"OneHot", {"depth"}},
      {"TopK", {"K"}},
      {"Compress", {"condition"}},
      {"NonZero", {"X"}},
      {"Resize", {"roi", "scales", "sizes"}},
      {"Upsample", {"scales"}},
      // nn
      {"Col2Im", {"image_shape", "block_shape"}},
      {"MaxUnpool", {"output_shape"}},
      // signal
      {"DFT", {"dft_length"}},
      {"STFT", {"frame_step", "frame_length"}},
      {"BlackmanWindow", {"size"}},
      {"HammingWindow", {"size"}},
      {"HannWindow", {"size"}},
      {"MelWeightMatrix", {"num_mel_bins", "dft_length"}},
      // sequence
      {"SequenceAt", {"input_sequence", "position"}},
      {"SequenceInsert", {"input_sequence", "position"}},
      {"SequenceErase", {"position"}},
      {"SplitToSequence", {"split"}},
      {"ConcatFromSequence", {"input_sequence"}},
      {"OptionalGetElement", {"input"}},
      // text
      {"StringNormalizer", {"X"}},
      // reduce
      {"ReduceSum", {"axes"}},
      {"CumSum", {"axis"}},
      // detection
      {"NonMaxSuppression",
       {"boxes", "scores", "max_output_boxes_per_class", "iou_threshold", "score_threshold"}},
      // runtime services
      {"LabelSwitchByIndex", {"index"}},
  };
  return *m;
}

TEST(OpTraitsTest, ValueDependentInputsOfEveryOp) {
  const auto& table = ValueDependentInputs();
  for (const std::string& t : OpRegistry::Instance().GetAllTypes()) {
    const OpRegistrationData* reg = OpRegistry::Instance().Find(t);
    ASSERT_NE(reg, nullptr) << t;
    std::vector<std::string> got;
    for (uint32_t k : reg->traits.value_dependent_inputs) got.push_back(reg->inputs[k].name);
    auto it = table.find(t);
    EXPECT_EQ(got, it == table.end() ? std::vector<std::string>() : it->second) << t;
  }
  for (const auto& [t, inputs] : table) {
    EXPECT_NE(OpRegistry::Instance().Find(t), nullptr) << t << " is not registered";
  }
}

}  // namespace
}  // namespace ge
