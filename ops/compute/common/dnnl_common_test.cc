// ops/compute/common/dnnl_common_test.cc
#include "ops/compute/common/dnnl_common.h"

#include <atomic>
#include <vector>

#include "gtest/gtest.h"

namespace ops {
namespace compute {
namespace {

TEST(DnnlCommonTest, TypesAndLayouts) {
  EXPECT_EQ(*DnnlType(ge::DT_FLOAT), dnnl::memory::data_type::f32);
  EXPECT_EQ(*DnnlType(ge::DT_BF16), dnnl::memory::data_type::bf16);
  EXPECT_FALSE(DnnlType(ge::DT_STRING).ok());
  EXPECT_EQ(*TagOf(ge::FORMAT_NCHW, 4), dnnl::memory::format_tag::abcd);
  EXPECT_EQ(*TagOf(ge::FORMAT_NHWC, 4), dnnl::memory::format_tag::acdb);
  EXPECT_EQ(*TagOf(ge::FORMAT_NC1HWC0, 4), dnnl::memory::format_tag::aBcd16b);
  EXPECT_FALSE(TagOf(ge::FORMAT_NHWC, 3).ok());
  EXPECT_FALSE(PlainTag(7).ok());
}

TEST(DnnlCommonTest, PreparedPrimitiveRunsWithBoundHandles) {
  // A ReLU prepared once and executed on two buffer pairs.
  dnnl::memory::desc md = *PlainDesc(gert::Shape{2, 3}, ge::DT_FLOAT);
  PreparedPrimitive p;
  ASSERT_TRUE(DnnlCall("relu", [&] {
                auto d = dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference,
                                                     dnnl::algorithm::eltwise_relu, md, 0.f);
                dnnl::primitive_attr attr;
                attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
                auto pd = dnnl::eltwise_forward::primitive_desc(d, attr, CpuEngine());
                ASSERT_TRUE(p.Init(dnnl::eltwise_forward(pd), pd.scratchpad_desc()).ok());
              }).ok());
  ASSERT_TRUE(p.AddArg(DNNL_ARG_SRC, md).ok());
  ASSERT_TRUE(p.AddArg(DNNL_ARG_DST, md).ok());
  float a[6] = {-1, 2, -3, 4, -5, 6}, b[6] = {};
  ASSERT_TRUE(p.Execute({a, b}, {}).ok());
  EXPECT_EQ(std::vector<float>(b, b + 6), (std::vector<float>{0, 2, 0, 4, 0, 6}));
  float c[6] = {1, -1, 1, -1, 1, -1};
  ASSERT_TRUE(p.Execute({c, a}, {}).ok());
  EXPECT_EQ(std::vector<float>(a, a + 6), (std::vector<float>{1, 0, 1, 0, 1, 0}));
  EXPECT_FALSE(p.Execute({c}, {}).ok());  // one handle short
}

TEST(DnnlCommonTest, ReorderOnceToBlocked) {
  std::vector<float> src(1 * 32 * 2 * 2);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i);
  dnnl::memory::desc plain({1, 32, 2, 2}, dnnl::memory::data_type::f32,
                           dnnl::memory::format_tag::nchw);
  dnnl::memory::desc blocked({1, 32, 2, 2}, dnnl::memory::data_type::f32,
                             dnnl::memory::format_tag::nChw16c);
  ge::StatusOr<AlignedBuffer> b = ReorderOnce(plain, src.data(), blocked);
  ASSERT_TRUE(b.ok()) << b.status();
  const float* d = static_cast<const float*>(b->data());
  // nChw16c: [c1][h][w][c0]: element (c=1, h=0, w=0) is at offset 1.
  EXPECT_EQ(d[1], src[1 * 4]);
  // (c=17, h=1, w=1): block 1, offset (1*2+1)*16 + 1.
  EXPECT_EQ(d[64 + 3 * 16 + 1], src[17 * 4 + 3]);
}

TEST(DnnlCommonTest, ParallelForCoversTheRangeOnce) {
  for (int threads : {1, 2}) {
    SetIntraOpThreads(threads);
    EXPECT_EQ(IntraOpThreads(), threads);
    std::vector<std::atomic<int>> hits(1000);
    ParallelFor(1000, 10, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) hits[i]++;
    });
    for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  }
}

}  // namespace
}  // namespace compute
}  // namespace ops
