// ops/rnn/rnn_range_test.cc
//
// Shape ranges through the RNN / GRU / LSTM infer function: seq_length comes
// from X, batch_size from X met with sequence_lens and the initial states,
// hidden_size from the attribute (or R); Y and the state outputs share them.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

using namespace op_test;  // NOLINT(build/namespaces): the shared test runner
using ::testing::ElementsAre, ::testing::HasSubstr, ::testing::Pair;

constexpr int64_t kInf = kUnboundedDim;

TEST(RnnRangeTest, LstmSequenceAndBatchRanges) {
  // X [seq, batch, input] = [-1, -1, 3], hidden 4, one direction.
  InferResult r = Infer("LSTM",
                        {Ranged({-1, -1, 3}, {{1, 50}, {2, 8}, {3, 3}}),
                         {gert::Shape{1, 16, 3}},
                         {gert::Shape{1, 16, 4}}},
                        3, Attrs().Set<int64_t>("hidden_size", 4));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 1, -1, 4}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 50), Pair(1, 1), Pair(2, 8), Pair(4, 4)));
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(1, 1), Pair(2, 8), Pair(4, 4)));
  EXPECT_THAT(r.ranges[2], ElementsAre(Pair(1, 1), Pair(2, 8), Pair(4, 4)));
}

TEST(RnnRangeTest, BatchMeetsSequenceLensAndLayout1) {
  // layout 1: X [batch, seq, input]; sequence_lens narrows the batch.
  InferResult r = Infer("GRU",
                        {Ranged({-1, -1, 3}, {{1, 16}, {5, kInf}, {3, 3}}),
                         {gert::Shape{1, 12, 3}},
                         {gert::Shape{1, 12, 4}},
                         AbsentIn(),
                         Ranged({-1}, {{4, 32}}, ge::DT_INT32)},
                        2, Attrs().Set<int64_t>("hidden_size", 4).Set<int64_t>("layout", 1));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1, 1, 4}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(4, 16), Pair(5, kInf), Pair(1, 1), Pair(4, 4)));
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(4, 16), Pair(1, 1), Pair(4, 4)));
}

TEST(RnnRangeTest, ConflictingBatchRangesNameTheNode) {
  InferResult r = Infer("RNN",
                        {Ranged({-1, -1, 3}, {{1, 9}, {1, 3}, {3, 3}}),
                         {gert::Shape{1, 4, 3}},
                         {gert::Shape{1, 4, 4}},
                         AbsentIn(),
                         Ranged({-1}, {{5, 9}}, ge::DT_INT32)},
                        2, Attrs().Set<int64_t>("hidden_size", 4));
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_RNN"));
  EXPECT_THAT(Msg(r.status), HasSubstr("input 4"));
}

TEST(RnnRangeTest, NoRangeGivesNoOutputRange) {
  InferResult r =
      Infer("RNN", {{gert::Shape{-1, 2, 3}}, {gert::Shape{1, 4, 3}}, {gert::Shape{1, 4, 4}}}, 2,
            Attrs().Set<int64_t>("hidden_size", 4));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.ranges[0].empty());
}

}  // namespace
}  // namespace ops
