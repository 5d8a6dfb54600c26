// ops/common/broadcast_test.cc
#include "ops/common/broadcast.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ops {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

gert::Shape UnknownRank() {
  gert::Shape s;
  s.AppendDim(ge::UNKNOWN_RANK);
  return s;
}

// ------------------------------------------------------ broadcast shapes

gert::Shape Bcast(const gert::Shape& a, const gert::Shape& b) {
  gert::Shape out{99};
  ge::Status st = InferBroadcastShape(a, b, &out);
  EXPECT_TRUE(st.ok()) << st;
  return out;
}

TEST(InferBroadcastShapeTest, NumpyRules) {
  EXPECT_EQ(Bcast({2, 3}, {3}), (gert::Shape{2, 3}));
  EXPECT_EQ(Bcast({3}, {2, 3}), (gert::Shape{2, 3}));
  EXPECT_EQ(Bcast({2, 1, 4}, {3, 1}), (gert::Shape{2, 3, 4}));
  EXPECT_EQ(Bcast({}, {2, 3}), (gert::Shape{2, 3}));
  EXPECT_EQ(Bcast({}, {}), gert::Shape());
  EXPECT_EQ(Bcast({0}, {1}), (gert::Shape{0}));
  EXPECT_EQ(Bcast({1, 0}, {5, 1}), (gert::Shape{5, 0}));
}

TEST(InferBroadcastShapeTest, UnknownDims) {
  EXPECT_EQ(Bcast({1}, {-1}), (gert::Shape{-1}));
  EXPECT_EQ(Bcast({-1}, {1}), (gert::Shape{-1}));
  EXPECT_EQ(Bcast({5}, {-1}), (gert::Shape{5}));
  EXPECT_EQ(Bcast({-1, 3}, {4, -1}), (gert::Shape{4, 3}));
  EXPECT_EQ(Bcast({-1}, {-1}), (gert::Shape{-1}));
  EXPECT_EQ(Bcast({-1, 2}, {2}), (gert::Shape{-1, 2}));
  EXPECT_TRUE(Bcast(UnknownRank(), {2, 3}).IsUnknownRank());
  EXPECT_TRUE(Bcast({2, 3}, UnknownRank()).IsUnknownRank());
}

TEST(InferBroadcastShapeTest, MismatchNamesBothShapes) {
  gert::Shape out;
  ge::Status st = InferBroadcastShape(gert::Shape{2, 3}, gert::Shape{4}, &out);
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kParamInvalid);
  EXPECT_THAT(std::string(st.message()), HasSubstr("[2,3]"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("[4]"));
  EXPECT_FALSE(InferBroadcastShape(gert::Shape{-1, 2}, gert::Shape{3}, &out).ok());
  EXPECT_FALSE(InferBroadcastShape(gert::Shape{-3}, gert::Shape{1}, &out).ok());
  EXPECT_FALSE(InferBroadcastShape(gert::Shape{2}, gert::Shape{2}, nullptr).ok());
}

TEST(InferBroadcastShapeTest, OutputMayAliasInput) {
  gert::Shape a{2, 1};
  ASSERT_TRUE(InferBroadcastShape(a, gert::Shape{3}, &a).ok());
  EXPECT_EQ(a, (gert::Shape{2, 3}));
}

TEST(InferBroadcastShapeTest, MultiInput) {
  gert::Shape a{2, 1, 1}, b{3, 1}, c{4}, d{-1};
  gert::Shape out;
  std::vector<const gert::Shape*> v = {&a, &b, &c};
  ASSERT_TRUE(InferBroadcastShape(v, &out).ok());
  EXPECT_EQ(out, (gert::Shape{2, 3, 4}));
  v = {&d, &a};
  ASSERT_TRUE(InferBroadcastShape(v, &out).ok());
  EXPECT_EQ(out, (gert::Shape{2, 1, -1}));
  ASSERT_TRUE(InferBroadcastShape(std::vector<const gert::Shape*>{}, &out).ok());
  EXPECT_TRUE(out.IsScalar());
  gert::Shape bad{5};
  v = {&a, &c, &bad};
  ge::Status st = InferBroadcastShape(v, &out);
  EXPECT_THAT(std::string(st.message()), HasSubstr("shape 2 [5]"));
  v = {&a, nullptr};
  EXPECT_FALSE(InferBroadcastShape(v, &out).ok());
}

// -------------------------------------------------------- BroadcastIndex

std::vector<std::vector<int64_t>> AllOffsets(const BroadcastIndex& bi) {
  std::vector<std::vector<int64_t>> r;
  int64_t expect_out = 0;
  bi.ForEach([&](int64_t o, const int64_t* offs) {
    EXPECT_EQ(o, expect_out++);
    r.emplace_back(offs, offs + bi.input_num());
  });
  return r;
}

TEST(BroadcastIndexTest, RowBroadcast) {
  gert::Shape a{2, 3}, b{3}, y{2, 3};
  auto bi = BroadcastIndex::Create({&a, &b}, y);
  ASSERT_TRUE(bi.ok()) << bi.status();
  EXPECT_EQ(bi->output_size(), 6);
  EXPECT_TRUE(bi->IsSameAsOutput(0));
  EXPECT_FALSE(bi->IsSameAsOutput(1));
  EXPECT_FALSE(bi->AllSameAsOutput());
  std::vector<int64_t> ia, ib;
  bi->ForEach2([&](int64_t o, int64_t x, int64_t z) {
    EXPECT_EQ(x, o);
    ia.push_back(x);
    ib.push_back(z);
  });
  EXPECT_THAT(ia, ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_THAT(ib, ElementsAre(0, 1, 2, 0, 1, 2));
}

TEST(BroadcastIndexTest, ColumnAndOuterBroadcast) {
  gert::Shape a{2, 1, 3}, b{1, 4, 1}, y{2, 4, 3};
  auto bi = BroadcastIndex::Create({&a, &b}, y);
  ASSERT_TRUE(bi.ok());
  auto offs = AllOffsets(*bi);
  ASSERT_EQ(offs.size(), 24u);
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 4; ++j) {
      for (int64_t k = 0; k < 3; ++k) {
        const auto& o = offs[(i * 4 + j) * 3 + k];
        EXPECT_EQ(o[0], i * 3 + k);
        EXPECT_EQ(o[1], j);
      }
    }
  }
}

TEST(BroadcastIndexTest, EqualShapesAndScalarsCoalesceToOneDim) {
  gert::Shape a{2, 3, 4}, s{}, one{1, 1}, y{2, 3, 4};
  auto bi = BroadcastIndex::Create({&a, &s, &one, &a}, y);
  ASSERT_TRUE(bi.ok());
  EXPECT_THAT(bi->dims(), ElementsAre(24));
  EXPECT_THAT(bi->Strides(0), ElementsAre(1));
  EXPECT_THAT(bi->Strides(1), ElementsAre(0));
  EXPECT_TRUE(bi->IsScalar(1));
  EXPECT_TRUE(bi->IsScalar(2));
  EXPECT_FALSE(bi->IsScalar(0));
  EXPECT_TRUE(bi->Strides(9).empty());
  auto offs = AllOffsets(*bi);
  ASSERT_EQ(offs.size(), 24u);
  EXPECT_EQ(offs[17], (std::vector<int64_t>{17, 0, 0, 17}));
}

TEST(BroadcastIndexTest, PartialCoalescing) {
  // b broadcasts over the last two dims: [2,3,4] vs [2,1,1] -> dims {2, 12}.
  gert::Shape a{2, 3, 4}, b{2, 1, 1}, y{2, 3, 4};
  auto bi = BroadcastIndex::Create({&a, &b}, y);
  ASSERT_TRUE(bi.ok());
  EXPECT_THAT(bi->dims(), ElementsAre(2, 12));
  EXPECT_THAT(bi->Strides(1), ElementsAre(1, 0));
  std::vector<int64_t> ib;
  bi->ForEach2([&](int64_t, int64_t, int64_t z) { ib.push_back(z); });
  ASSERT_EQ(ib.size(), 24u);
  for (size_t i = 0; i < ib.size(); ++i) EXPECT_EQ(ib[i], static_cast<int64_t>(i / 12));
}

TEST(BroadcastIndexTest, ThreeInputs) {
  gert::Shape c{2, 1}, x{3}, y{}, out{2, 3};
  auto bi = BroadcastIndex::Create({&c, &x, &y}, out);
  ASSERT_TRUE(bi.ok());
  std::vector<std::vector<int64_t>> got;
  bi->ForEach3([&](int64_t, int64_t a, int64_t b, int64_t z) { got.push_back({a, b, z}); });
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0], (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(got[2], (std::vector<int64_t>{0, 2, 0}));
  EXPECT_EQ(got[4], (std::vector<int64_t>{1, 1, 0}));
}

TEST(BroadcastIndexTest, ScalarOutputAndEmptyOutput) {
  gert::Shape s{}, one{1};
  auto bi = BroadcastIndex::Create({&s, &one}, one);
  ASSERT_TRUE(bi.ok());
  EXPECT_EQ(AllOffsets(*bi).size(), 1u);
  gert::Shape z{0, 3}, r{3}, zo{0, 3};
  bi = BroadcastIndex::Create({&z, &r}, zo);
  ASSERT_TRUE(bi.ok());
  EXPECT_EQ(bi->output_size(), 0);
  EXPECT_TRUE(AllOffsets(*bi).empty());
}

TEST(BroadcastIndexTest, MatchesNaiveIndexing) {
  // Random-ish shapes against a straightforward multi-index computation.
  const std::vector<std::pair<gert::Shape, gert::Shape>> cases = {
      {{3, 1, 5, 1}, {4, 1, 2}}, {{1, 2, 1, 3}, {2, 2, 2, 1}}, {{7}, {3, 1}}, {{1, 1, 6}, {1}}};
  for (const auto& [a, b] : cases) {
    gert::Shape y;
    ASSERT_TRUE(InferBroadcastShape(a, b, &y).ok());
    auto bi = BroadcastIndex::Create({&a, &b}, y);
    ASSERT_TRUE(bi.ok());
    const size_t rank = y.GetDimNum();
    auto naive = [&](const gert::Shape& s, int64_t o) {
      std::vector<int64_t> idx(rank);
      for (size_t d = rank; d-- > 0;) {
        idx[d] = o % y.GetDim(d);
        o /= y.GetDim(d);
      }
      int64_t off = 0;
      const size_t r = s.GetDimNum();
      for (size_t j = 0; j < r; ++j) {
        const int64_t dim = s.GetDim(j);
        off = off * dim + (dim == 1 ? 0 : idx[rank - r + j]);
      }
      return off;
    };
    int64_t count = 0;
    bi->ForEach2([&](int64_t o, int64_t ia, int64_t ib) {
      ++count;
      EXPECT_EQ(ia, naive(a, o)) << a.ToString() << " " << o;
      EXPECT_EQ(ib, naive(b, o)) << b.ToString() << " " << o;
    });
    EXPECT_EQ(count, y.GetShapeSize());
  }
}

TEST(BroadcastIndexTest, Errors) {
  gert::Shape a{2, 3}, b{4}, y{2, 3}, unk{-1, 3}, big{1, 2, 3};
  EXPECT_FALSE(BroadcastIndex::Create({&a, &b}, y).ok());
  EXPECT_FALSE(BroadcastIndex::Create({&unk}, y).ok());
  EXPECT_FALSE(BroadcastIndex::Create({&a}, unk).ok());
  EXPECT_FALSE(BroadcastIndex::Create({&big}, y).ok());
  EXPECT_FALSE(BroadcastIndex::Create({&a, nullptr}, y).ok());
  auto st = BroadcastIndex::Create({&a, &b}, y).status();
  EXPECT_THAT(std::string(st.message()), HasSubstr("input 1 shape [4]"));
}

}  // namespace
}  // namespace ops
