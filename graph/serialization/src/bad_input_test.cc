// graph/serialization/src/bad_input_test.cc
//
// Deserializing corrupt or hostile data: every case of the bad-input corpus
// (generated here, and the checked-in files in testdata/corpus/) fails with
// the expected code and message; truncations and random byte mutations of
// valid models never crash (run under --config=asan / --config=ubsan too).
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/serialization/inc/model_serialize.h"
#include "graph/serialization/inc/model_serialize_proto.h"
#include "graph/serialization/testing/bad_input_corpus.h"
#include "graph/serialization/testing/random_graph.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::HasSubstr;

constexpr char kCorpusDir[] = "graph/serialization/testdata/corpus/";

void ExpectRejected(const testing::BadInputCase& c, absl::string_view bytes) {
  SCOPED_TRACE(c.name);
  StatusOr<ComputeGraphPtr> g = ModelSerialize::DeserializeModel(bytes, c.options);
  ASSERT_FALSE(g.ok()) << "accepted";
  EXPECT_EQ(GetErrorCode(g.status()), c.code) << g.status();
  EXPECT_THAT(std::string(g.status().message()), HasSubstr(c.fragment));
}

TEST(BadInputTest, BaseModelIsValid) {
  StatusOr<std::string> bytes = ModelSerializeImp::ToBytes(testing::BaseModel());
  ASSERT_TRUE(bytes.ok());
  StatusOr<ComputeGraphPtr> g = ModelSerialize::DeserializeModel(*bytes);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ((*g)->GetDirectNodesSize(), 3u);
  ASSERT_NE((*g)->GetSubgraph("then"), nullptr);
  EXPECT_EQ((*g)->GetSubgraph("then")->GetParentNode()->GetName(), "c");
}

TEST(BadInputTest, GeneratedCorpus) {
  const std::vector<testing::BadInputCase> corpus = testing::BadInputCorpus();
  EXPECT_GE(corpus.size(), 60u);
  for (const testing::BadInputCase& c : corpus) ExpectRejected(c, c.bytes);
}

TEST(BadInputTest, CheckedInCorpus) {
  int found = 0, expected = 0;
  for (const testing::BadInputCase& c : testing::BadInputCorpus()) {
    if (!c.checked_in) continue;
    ++expected;
    std::ifstream in(std::string(kCorpusDir) + c.name + ".pb", std::ios::binary);
    if (!in) {
      ADD_FAILURE() << "missing corpus file " << c.name
                    << ".pb (bazel run //graph/serialization:make_corpus)";
      continue;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    ++found;
    ExpectRejected(c, ss.str());
  }
  EXPECT_EQ(found, expected);
  EXPECT_GE(found, 15);
}

// Valid bytes of a random graph with every feature.
std::string ValidBytes(uint64_t seed) {
  testing::RandomGraphOptions o;
  o.num_nodes = 10;
  StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*testing::RandomGraph(seed, o));
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  return bytes.ok() ? *bytes : std::string();
}

TEST(BadInputTest, TruncationsNeverCrash) {
  const std::string bytes = ValidBytes(1);
  ASSERT_FALSE(bytes.empty());
  int rejected = 0;
  const size_t stride = bytes.size() / 1500 + 1;
  for (size_t n = 0; n < bytes.size(); n += stride) {
    StatusOr<ComputeGraphPtr> g =
        ModelSerialize::DeserializeModel(absl::string_view(bytes).substr(0, n));
    if (!g.ok()) {
      ++rejected;
      EXPECT_FALSE(g.status().message().empty());
    }
  }
  EXPECT_GT(rejected, 0);
  GE_EXPECT_OK(ModelSerialize::DeserializeModel(bytes).status());
}

TEST(BadInputTest, RandomMutationsNeverCrash) {
  std::mt19937_64 rng(2024);
  const std::string base = ValidBytes(2);
  ASSERT_FALSE(base.empty());
  int accepted = 0, rejected = 0;
  for (int iter = 0; iter < 1500; ++iter) {
    std::string bytes = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = rng() % bytes.size();
      switch (rng() % 3) {
        case 0:
          bytes[pos] = static_cast<char>(rng());
          break;
        case 1:
          bytes[pos] = static_cast<char>(bytes[pos] ^ (1 << (rng() % 8)));
          break;
        default:
          bytes.erase(pos, 1 + rng() % 8);
          if (bytes.empty()) bytes = "x";
      }
    }
    StatusOr<ComputeGraphPtr> g = ModelSerialize::DeserializeModel(bytes);
    if (g.ok()) {
      ++accepted;
      // Whatever was accepted is a graph the serializer can write again.
      GE_EXPECT_OK(ModelSerialize::SerializeModel(**g).status());
    } else {
      ++rejected;
      EXPECT_FALSE(g.status().message().empty());
    }
  }
  EXPECT_GT(rejected, 0);
  (void)accepted;
}

TEST(BadInputTest, MutatedTextNeverCrashes) {
  StatusOr<std::string> text = ModelSerialize::SerializeModelToText(*testing::RandomGraph(3));
  ASSERT_TRUE(text.ok());
  std::mt19937_64 rng(7);
  for (int iter = 0; iter < 300; ++iter) {
    std::string t = *text;
    const size_t pos = rng() % t.size();
    t.erase(pos, 1 + rng() % 16);
    StatusOr<ComputeGraphPtr> g = ModelSerialize::DeserializeModelFromText(t);
    if (!g.ok()) {
      EXPECT_FALSE(g.status().message().empty());
    }
  }
}

}  // namespace
}  // namespace ge
