// build/cache/model_cache_test.cc
#include "build/cache/model_cache.h"

#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "build/model/build_test_util.h"
#include "build/model/model_builder.h"
#include "build/om/om_file.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/src/testing/file_view_testing.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using buildtest::GraphMaker;

ComputeGraphPtr Graph(float w0 = 1.0f, const std::string& act = "Relu") {
  GraphMaker g("cached");
  NodePtr x = g.Data("x", 0, {4});
  NodePtr w = g.ConstF32("w", {4}, {w0, 2, 3, 4});
  g.NetOutput({{g.Unary("act", act, g.Binary("add", "Add", x, w)), 0}});
  return g.graph();
}

std::string TestDir(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return absl::StrCat(tmp != nullptr ? tmp : "/tmp", "/", name);
}

// Compiles through the cache, counting builder invocations.
struct Compiler {
  ModelCache cache;
  int builds = 0;
  StatusOr<std::string> Compile(const ComputeGraphPtr& graph,
                                const std::map<std::string, std::string>& options, bool* hit) {
    ASSIGN_OR_RETURN(std::string key, ModelCache::ComputeKey(*graph, options));
    return cache.GetOrBuild(
        key,
        [&]() -> StatusOr<std::string> {
          ++builds;
          ModelBuildOptions o;
          o.attrs = options;
          ASSIGN_OR_RETURN(GeRootModelPtr m, ModelBuilder(o).Build(graph));
          return SaveOm(*m);
        },
        hit);
  }
};

TEST(ModelCacheTest, HitSkipsCompilation) {
  Compiler c{ModelCache(TestDir("cache1"))};
  const std::map<std::string, std::string> opts = {{"soc_version", "x86"}};
  bool hit = true;
  auto first = c.Compile(Graph(), opts, &hit);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_FALSE(hit);
  EXPECT_EQ(c.builds, 1);
  auto second = c.Compile(Graph(), opts, &hit);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_TRUE(hit);
  EXPECT_EQ(c.builds, 1);
  EXPECT_EQ(*first, *second);
  EXPECT_TRUE(ParseOmFile(AsBytes(*second)).ok());
}

TEST(ModelCacheTest, AnyChangeMisses) {
  Compiler c{ModelCache(TestDir("cache2"))};
  const std::map<std::string, std::string> opts = {{"a", "1"}, {"b", "2"}};
  bool hit = false;
  ASSERT_TRUE(c.Compile(Graph(), opts, &hit).ok());
  EXPECT_EQ(c.builds, 1);
  ASSERT_TRUE(c.Compile(Graph(1.0000001f), opts, &hit).ok());  // one constant byte
  EXPECT_FALSE(hit);
  ASSERT_TRUE(c.Compile(Graph(1.0f, "Sigmoid"), opts, &hit).ok());  // graph structure
  EXPECT_FALSE(hit);
  ASSERT_TRUE(c.Compile(Graph(), {{"a", "1"}, {"b", "3"}}, &hit).ok());  // an option value
  EXPECT_FALSE(hit);
  ASSERT_TRUE(c.Compile(Graph(), {{"a", "1"}}, &hit).ok());  // an option removed
  EXPECT_FALSE(hit);
  ASSERT_TRUE(c.Compile(Graph(), {{"a", "12"}, {"b", ""}}, &hit).ok());  // same concatenation
  EXPECT_FALSE(hit);
  EXPECT_EQ(c.builds, 6);
  ASSERT_TRUE(c.Compile(Graph(), opts, &hit).ok());
  EXPECT_TRUE(hit);
  EXPECT_EQ(c.builds, 6);
}

TEST(ModelCacheTest, KeyIsStableHex) {
  auto k1 = ModelCache::ComputeKey(*Graph(), {{"x", "y"}});
  auto k2 = ModelCache::ComputeKey(*Graph(), {{"x", "y"}});
  ASSERT_TRUE(k1.ok() && k2.ok());
  EXPECT_EQ(*k1, *k2);
  EXPECT_EQ(k1->size(), 64u);
  EXPECT_EQ(k1->find_first_not_of("0123456789abcdef"), std::string::npos);
}

// A constant viewing unaligned bytes of a model file is hashed in place:
// the same key as owned bytes, and no aligned copy is made.
TEST(ModelCacheTest, FileBackedConstantsAreHashedWithoutACopy) {
  ComputeGraphPtr graph = Graph();
  auto expected = ModelCache::ComputeKey(*Graph(), {});
  ASSERT_TRUE(expected.ok());
  std::shared_ptr<AlignedBuffer> view =
      testing::ViewTensorAttrAsUnalignedFile(graph->FindNode("w")->GetOpDescBarePtr(), "value");
  ASSERT_NE(view, nullptr);
  auto key = ModelCache::ComputeKey(*graph, {});
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(*key, *expected);
  EXPECT_FALSE(view->has_copy());
}

TEST(ModelCacheTest, CorruptEntryIsAMissAndBadKeysRejected) {
  ModelCache cache(TestDir("cache3"));
  const std::string key(64, 'a');
  ASSERT_TRUE(cache.Store(key, "not an om file").ok());
  auto r = cache.Lookup(key);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->has_value());
  struct stat st;
  EXPECT_NE(::stat(cache.PathFor(key).c_str(), &st), 0);  // removed
  EXPECT_EQ(GetErrorCode(cache.Lookup("../../etc/passwd").status()), ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(cache.Store(std::string(64, 'G'), "x")), ErrorCode::kParamInvalid);
  auto miss = cache.Lookup(std::string(64, 'b'));
  ASSERT_TRUE(miss.ok());
  EXPECT_FALSE(miss->has_value());
  bool hit = true;
  EXPECT_FALSE(cache.GetOrBuild(std::string(64, 'c'), nullptr, &hit).ok());
  // A failing build stores nothing.
  auto failed = cache.GetOrBuild(
      std::string(64, 'd'), []() -> StatusOr<std::string> { return Internal("compile failed"); });
  EXPECT_EQ(GetErrorCode(failed.status()), ErrorCode::kInternal);
  EXPECT_NE(::stat(cache.PathFor(std::string(64, 'd')).c_str(), &st), 0);
}

}  // namespace
}  // namespace ge
