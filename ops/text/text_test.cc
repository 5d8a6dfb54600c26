// ops/text/text_test.cc: StringNormalizer, TfIdfVectorizer.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ops/common/onnx_case_runner.h"
#include "ops/rnn/case_loader.h"
#include "ops/rnn/op_tester.h"

namespace ops {
namespace {

using optest::ErrorContains;
using optest::I32;
using optest::I64;
using optest::Near;
using optest::OpTester;
using optest::Str;

// ONNX 1.12 strnormalizer / tfidfvectorizer node tests.
OPS_ONNX_CASE_SUITE(TextOnnxTest, optest::LoadCasesOrDie("ops/text/testdata/onnx_cases.txt"),
                    testing::CompareOptions());

// ---------------------------------------------------------------- StringNormalizer

TEST(StringNormalizerTest, StopwordsAndCase) {
  OpTester t("StringNormalizer");
  t.AttrStrs("stopwords", {"monday"}).AttrStr("case_change_action", "UPPER");
  t.Input(Str({4}, {"Monday", "tuesday", "MONDAY", "wednesday"}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), gert::Shape{2});
  EXPECT_EQ(t.OutStrings(0), (std::vector<std::string>{"TUESDAY", "WEDNESDAY"}));
  // Case-sensitive: only the exact "monday" goes.
  OpTester s("StringNormalizer");
  s.AttrStrs("stopwords", {"monday"}).AttrInt("is_case_sensitive", 1);
  s.Input(Str({1, 3}, {"Monday", "monday", "x"}));
  ASSERT_TRUE(s.Run(1).ok());
  EXPECT_EQ(s.Out(0).GetShape(), (gert::Shape{1, 2}));
  EXPECT_EQ(s.OutStrings(0), (std::vector<std::string>{"Monday", "x"}));
}

TEST(StringNormalizerTest, EverythingRemoved) {
  OpTester t("StringNormalizer");
  t.AttrStrs("stopwords", {"a", "b"}).Input(Str({1, 2}, {"A", "b"}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1}));
  EXPECT_EQ(t.OutStrings(0), (std::vector<std::string>{""}));
}

TEST(StringNormalizerTest, Utf8CaseMapping) {
  OpTester low("StringNormalizer");
  low.AttrStr("case_change_action", "LOWER")
      .Input(Str({4}, {"\xC3\x84\xC3\x96\xC3\x9C",                          // ÄÖÜ
                       "\xCE\xA9\xCE\x9C\xCE\x88\xCE\x93\xCE\x91",          // ΩΜΈΓΑ
                       "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\x95\xD0\xA2",  // ПривЕТ
                       "AB\xFF"
                       "C"}));  // invalid byte kept
  ASSERT_TRUE(low.Run(1).ok());
  EXPECT_EQ(low.OutStrings(0),
            (std::vector<std::string>{"\xC3\xA4\xC3\xB6\xC3\xBC",
                                      "\xCF\x89\xCE\xBC\xCE\xAD\xCE\xB3\xCE\xB1",
                                      "\xD0\xBF\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82",
                                      "ab\xFF"
                                      "c"}));
  OpTester up("StringNormalizer");
  up.AttrStr("case_change_action", "UPPER")
      .Input(Str({2}, {"stra\xC3\x9F"
                       "e \xC3\xBF",
                       "\xC5\x82\xC3\xB3"
                       "d\xC5\xBA"}));  // straße ÿ, łódź
  ASSERT_TRUE(up.Run(1).ok());
  EXPECT_EQ(up.OutStrings(0), (std::vector<std::string>{"STRA\xC3\x9F"
                                                        "E \xC5\xB8",
                                                        "\xC5\x81\xC3\x93"
                                                        "D\xC5\xB9"}));
  // Case-insensitive stopwords beyond ASCII.
  OpTester stop("StringNormalizer");
  stop.AttrStrs("stopwords", {"\xC3\xA4pfel"}).Input(Str({2}, {"\xC3\x84PFEL", "birne"}));
  ASSERT_TRUE(stop.Run(1).ok());
  EXPECT_EQ(stop.OutStrings(0), (std::vector<std::string>{"birne"}));
}

TEST(StringNormalizerTest, InferShapes) {
  OpTester t("StringNormalizer", "sn");
  ASSERT_TRUE(t.InferShapes({{5}}, {ge::DT_STRING}, 1).ok());
  EXPECT_EQ(t.InferredShape(0), gert::Shape{5});  // nothing can be removed
  OpTester s("StringNormalizer", "sn");
  s.AttrStrs("stopwords", {"x"});
  ASSERT_TRUE(s.InferShapes({{1, 5}}, {ge::DT_STRING}, 1).ok());
  EXPECT_EQ(s.InferredShape(0), (gert::Shape{1, -1}));
  ASSERT_TRUE(s.InferShapes({{-2}}, {ge::DT_STRING}, 1).ok());
  EXPECT_TRUE(s.InferredShape(0).IsUnknownRank());
  EXPECT_TRUE(ErrorContains(s.InferShapes({{2, 5}}, {ge::DT_STRING}, 1),
                            "must have shape [C] or [1, C], got [2,5]", "sn"));
  EXPECT_TRUE(ErrorContains(s.InferShapes({{5}}, {ge::DT_INT32}, 1), "must be DT_STRING", "sn"));
}

TEST(StringNormalizerTest, AttributeErrors) {
  OpTester t("StringNormalizer", "sn");
  t.AttrStr("case_change_action", "TITLE");
  EXPECT_TRUE(ErrorContains(t.InferShapes({{5}}, {ge::DT_STRING}, 1), "\"TITLE\"", "sn"));
  OpTester l("StringNormalizer", "sn");
  l.AttrStr("locale", "tr_TR");
  ge::Status st = l.InferShapes({{5}}, {ge::DT_STRING}, 1);
  EXPECT_TRUE(ErrorContains(st, "locale \"tr_TR\" is not supported", "sn"));
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported);
  OpTester ok("StringNormalizer", "sn");
  ok.AttrStr("locale", "en_US").Input(Str({1}, {"A"}));
  EXPECT_TRUE(ok.Run(1).ok());
}

// ---------------------------------------------------------------- TfIdfVectorizer

OpTester& TfIdfAttrs(OpTester& t, const std::string& mode, int64_t min_n, int64_t max_n,
                     int64_t skip) {
  return t.AttrStr("mode", mode)
      .AttrInt("min_gram_length", min_n)
      .AttrInt("max_gram_length", max_n)
      .AttrInt("max_skip_count", skip);
}

TEST(TfIdfTest, StringPoolModes) {
  // X = a b a c a b; pool 1-grams {a, c}, 2-grams {(a, b)}:
  // counts a = 3, c = 1, (a b) = 2.
  const std::vector<std::string> x = {"a", "b", "a", "c", "a", "b"};
  for (const auto& [mode, want] : std::vector<std::pair<std::string, std::vector<double>>>{
           {"TF", {3, 1, 2}}, {"IDF", {0.5, 2, 3}}, {"TFIDF", {1.5, 2, 6}}}) {
    OpTester t("TfIdfVectorizer");
    TfIdfAttrs(t, mode, 1, 2, 0)
        .AttrStrs("pool_strings", {"a", "c", "a", "b"})
        .AttrInts("ngram_counts", {0, 2})
        .AttrInts("ngram_indexes", {0, 1, 2});
    if (mode != "TF") t.AttrFloats("weights", {0.5, 2, 3});
    t.Input(Str({6}, x));
    ASSERT_TRUE(t.Run(1).ok()) << mode;
    EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_FLOAT);
    EXPECT_TRUE(Near(t.OutValues(0), want)) << mode;
  }
}

TEST(TfIdfTest, SkipsAndMinLength) {
  // X = 1 2 1 2; (1, 2) with skip 0 at 0 and 2, skip 2 at (0, 3): 3 times;
  // unigram 2 counted once per position (2 times) whatever the skips.
  OpTester t("TfIdfVectorizer");
  TfIdfAttrs(t, "TF", 1, 2, 2)
      .AttrInts("pool_int64s", {2, 1, 2})
      .AttrInts("ngram_counts", {0, 1})
      .AttrInts("ngram_indexes", {1, 0});
  t.Input(I64({4}, {1, 2, 1, 2}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {3, 2}));
  OpTester m("TfIdfVectorizer");
  TfIdfAttrs(m, "TF", 2, 2, 2)
      .AttrInts("pool_int64s", {2, 1, 2})
      .AttrInts("ngram_counts", {0, 1})
      .AttrInts("ngram_indexes", {1, 0});
  m.Input(I32({2, 4}, {1, 2, 1, 2, 2, 2, 2, 2}));
  ASSERT_TRUE(m.Run(1).ok());
  EXPECT_EQ(m.Out(0).GetShape(), (gert::Shape{2, 2}));
  EXPECT_TRUE(Near(m.OutValues(0), {3, 0, 0, 0}));
}

TEST(TfIdfTest, InferShapes) {
  OpTester t("TfIdfVectorizer", "tf");
  TfIdfAttrs(t, "TF", 1, 1, 0)
      .AttrInts("pool_int64s", {4, 5, 6})
      .AttrInts("ngram_counts", {0})
      .AttrInts("ngram_indexes", {0, 7, 2});
  ASSERT_TRUE(t.InferShapes({{-1, 10}}, {ge::DT_INT64}, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 8}));
  EXPECT_EQ(t.InferredDtype(0), ge::DT_FLOAT);
  ASSERT_TRUE(t.InferShapes({{10}}, {ge::DT_INT32}, 1).ok());
  EXPECT_EQ(t.InferredShape(0), gert::Shape{8});
  EXPECT_TRUE(ErrorContains(t.InferShapes({{2, 3, 4}}, {ge::DT_INT32}, 1), "[C] or [N, C]", "tf"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{3}}, {ge::DT_STRING}, 1),
                            "pool_int64s needs a DT_INT32 / DT_INT64 input", "tf"));
}

TEST(TfIdfTest, AttributeErrors) {
  auto base = [](OpTester& t) -> OpTester& {
    return TfIdfAttrs(t, "TF", 1, 2, 0).AttrInts("pool_int64s", {1, 2, 3, 4, 5});
  };
  OpTester counts("TfIdfVectorizer", "tf");
  base(counts).AttrInts("ngram_counts", {0, 2}).AttrInts("ngram_indexes", {0, 1, 2});
  EXPECT_TRUE(ErrorContains(counts.InferShapes({{3}}, {ge::DT_INT64}, 1),
                            "ngram_counts[1] = 2: the 2-grams must span a multiple of 2", "tf"));
  OpTester idx("TfIdfVectorizer", "tf");
  base(idx).AttrInts("ngram_counts", {0, 3}).AttrInts("ngram_indexes", {0, 1});
  EXPECT_TRUE(ErrorContains(idx.InferShapes({{3}}, {ge::DT_INT64}, 1),
                            "ngram_indexes has 2 entries but the pool holds 4 n-grams", "tf"));
  OpTester neg("TfIdfVectorizer", "tf");
  base(neg).AttrInts("ngram_counts", {0, 3}).AttrInts("ngram_indexes", {0, 1, -2, 3});
  EXPECT_TRUE(
      ErrorContains(neg.InferShapes({{3}}, {ge::DT_INT64}, 1), "ngram_indexes[2] = -2", "tf"));
  OpTester w("TfIdfVectorizer", "tf");
  base(w)
      .AttrInts("ngram_counts", {0, 3})
      .AttrInts("ngram_indexes", {0, 1, 2, 3})
      .AttrFloats("weights", {1});
  EXPECT_TRUE(ErrorContains(w.InferShapes({{3}}, {ge::DT_INT64}, 1),
                            "weights has 1 entries, expected 4", "tf"));
  OpTester mode("TfIdfVectorizer", "tf");
  TfIdfAttrs(mode, "BM25", 1, 1, 0).AttrInts("ngram_counts", {0}).AttrInts("ngram_indexes", {});
  EXPECT_TRUE(ErrorContains(mode.InferShapes({{3}}, {ge::DT_INT64}, 1), "\"BM25\"", "tf"));
  OpTester len("TfIdfVectorizer", "tf");
  TfIdfAttrs(len, "TF", 3, 2, 0).AttrInts("ngram_counts", {0}).AttrInts("ngram_indexes", {});
  EXPECT_TRUE(ErrorContains(len.InferShapes({{3}}, {ge::DT_INT64}, 1),
                            "min_gram_length <= max_gram_length", "tf"));
  OpTester missing("TfIdfVectorizer", "tf");
  missing.AttrStr("mode", "TF");
  EXPECT_TRUE(
      ErrorContains(missing.InferShapes({{3}}, {ge::DT_INT64}, 1), "min_gram_length", "tf"));
}

TEST(TfIdfTest, HugeSkipAndGramLengthAreHarmless) {
  OpTester t("TfIdfVectorizer");
  TfIdfAttrs(t, "TF", 1, int64_t{1} << 40, int64_t{1} << 62)
      .AttrInts("pool_int64s", {1, 1, 2})
      .AttrInts("ngram_counts", {0, 1})
      .AttrInts("ngram_indexes", {0, 1});
  t.Input(I64({3}, {1, 1, 2}));
  ASSERT_TRUE(t.Run(1).ok());
  // Unigram 1 twice; bigram (1, 2) with skip 0 and skip 1.
  EXPECT_TRUE(Near(t.OutValues(0), {2, 2}));
}

}  // namespace
}  // namespace ops
