// runtime/api/session_test.cc
#include "runtime/inc/runtime/session.h"

#include <string>
#include <thread>
#include <vector>

#include "build/om/om_file.h"
#include "gtest/gtest.h"
#include "runtime/testing/runtime_test_util.h"

namespace ge {
namespace {

std::vector<gert::HostTensor> One(gert::HostTensor t) {
  std::vector<gert::HostTensor> v;
  v.push_back(std::move(t));
  return v;
}

TEST(SessionTest, LoadRunUnloadByIds) {
  StatusOr<std::string> mlp = rttest::CompileOnnxToOm(rttest::Mlp());
  ASSERT_TRUE(mlp.ok()) << mlp.status();
  StatusOr<std::string> cnn = rttest::CompileOnnxToOm(rttest::SmallCnn());
  ASSERT_TRUE(cnn.ok()) << cnn.status();
  const std::string path = rttest::TempPath("session_cnn.om");
  ASSERT_TRUE(WriteFileAtomically(path, *cnn).ok());

  Session session;
  StatusOr<uint32_t> a = session.LoadModelFromBytes(*mlp);
  ASSERT_TRUE(a.ok()) << a.status();
  StatusOr<uint32_t> b = session.LoadModel(path);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_NE(*a, *b);
  EXPECT_GT(*a, 0u);
  EXPECT_EQ(session.ModelIds(), (std::vector<uint32_t>{*a, *b}));

  auto ya = session.RunModel(*a, One(rttest::PatternF32({2, 4})));
  ASSERT_TRUE(ya.ok()) << ya.status();
  EXPECT_EQ(ya->size(), 3u);
  auto yb = session.RunModel(*b, One(rttest::PatternF32({1, 3, 16, 16})));
  ASSERT_TRUE(yb.ok()) << yb.status();
  EXPECT_EQ(rttest::Floats((*yb)[0].tensor()).size(), 10u);
  // Inputs of the other model: a clean error naming the input.
  auto wrong = session.RunModel(*a, One(rttest::PatternF32({1, 3, 16, 16})));
  EXPECT_EQ(GetErrorCode(wrong.status()), ErrorCode::kParamInvalid);

  // The zero-copy path through the session.
  StatusOr<std::shared_ptr<Model>> m = session.GetModel(*b);
  ASSERT_TRUE(m.ok());
  gert::HostTensor x = rttest::PatternF32({1, 3, 16, 16});
  std::vector<float> y(10);
  gert::Tensor out(gert::Shape{1, 10}, DT_FLOAT, y.data(), 40);
  ASSERT_TRUE(
      session.RunModel(*b, absl::MakeConstSpan(&x.tensor(), 1), absl::MakeSpan(&out, 1)).ok());
  EXPECT_EQ(y, rttest::Floats((*yb)[0].tensor()));

  ASSERT_TRUE(session.UnloadModel(*a).ok());
  EXPECT_EQ(GetErrorCode(session.UnloadModel(*a)), ErrorCode::kNotFound);
  auto gone = session.RunModel(*a, One(rttest::PatternF32({2, 4})));
  EXPECT_EQ(GetErrorCode(gone.status()), ErrorCode::kNotFound);
  EXPECT_NE(gone.status().message().find(std::to_string(*a)), std::string::npos);
  // Ids are not reused.
  StatusOr<uint32_t> c = session.LoadModelFromBytes(*mlp);
  ASSERT_TRUE(c.ok());
  EXPECT_GT(*c, *b);
  // Load errors pass through.
  EXPECT_FALSE(session.LoadModel(rttest::TempPath("nope.om")).ok());
  EXPECT_FALSE(session.LoadModelFromBytes("not an om file").ok());
  EXPECT_EQ(session.ModelIds().size(), 2u);
}

TEST(SessionTest, ConcurrentRunsOfOneModel) {
  StatusOr<std::string> cnn = rttest::CompileOnnxToOm(rttest::SmallCnn());
  ASSERT_TRUE(cnn.ok()) << cnn.status();
  Session session;
  StatusOr<uint32_t> id = session.LoadModelFromBytes(*cnn);
  ASSERT_TRUE(id.ok());
  auto want = session.RunModel(*id, One(rttest::PatternF32({1, 3, 16, 16}, 8)));
  ASSERT_TRUE(want.ok());
  const std::vector<float> expected = rttest::Floats((*want)[0].tensor());
  std::vector<std::thread> threads;
  std::vector<int> good(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        auto y = session.RunModel(*id, One(rttest::PatternF32({1, 3, 16, 16}, 8)));
        if (y.ok() && rttest::Floats((*y)[0].tensor()) == expected) ++good[t];
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(good, (std::vector<int>{10, 10, 10, 10}));
}

}  // namespace
}  // namespace ge
