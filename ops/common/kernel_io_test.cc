// ops/common/kernel_io_test.cc
#include "ops/common/kernel_io.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/common/tensor_values.h"

namespace ops {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// ------------------------------------------------------------- kernel I/O

class FakeAllocator : public gert::OutputAllocator {
 public:
  ge::Status Allocate(size_t output_index, gert::Tensor* tensor) override {
    ++calls;
    auto t = gert::HostTensor::Create(tensor->GetDataType(), tensor->GetShape());
    if (!t.ok()) return t.status();
    held.push_back(std::move(*t));
    tensor->SetData(held.back().tensor().GetAddr(), held.back().tensor().GetSize());
    return ge::OkStatus();
  }
  int calls = 0;
  std::vector<gert::HostTensor> held;
};

TEST(KernelIoTest, GetKernelInputValidates) {
  auto x = MakeHostTensor<float>(ge::DT_FLOAT, {2}, {1.0f, 2.0f});
  ASSERT_TRUE(x.ok());
  gert::Tensor broken(gert::Shape{4}, ge::DT_FLOAT, nullptr, 0);
  gert::KernelRunContextBuilder b;
  b.Node("k1", "Abs").Inputs({&x->tensor(), nullptr, &broken});
  gert::KernelContext* ctx = b.Build();
  auto in0 = GetKernelInput(*ctx, 0);
  ASSERT_TRUE(in0.ok());
  EXPECT_EQ(*in0, &x->tensor());
  auto in1 = GetKernelInput(*ctx, 1);
  EXPECT_THAT(std::string(in1.status().message()), HasSubstr("k1"));
  EXPECT_THAT(std::string(in1.status().message()), HasSubstr("input 1"));
  auto in2 = GetKernelInput(*ctx, 2);
  EXPECT_THAT(std::string(in2.status().message()), HasSubstr("input 2"));
  EXPECT_FALSE(GetKernelInput(*ctx, 7).ok());
}

TEST(KernelIoTest, PrepareOutputReusesMatchingTensor) {
  auto y = gert::HostTensor::Create(ge::DT_FLOAT, gert::Shape{2, 2});
  ASSERT_TRUE(y.ok());
  gert::KernelRunContextBuilder b;
  b.Node("k2", "Abs").Outputs({y->MutableTensor()});
  gert::KernelContext* ctx = b.Build();
  auto out = PrepareOutput(*ctx, 0, gert::Shape{2, 2}, ge::DT_FLOAT);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, y->MutableTensor());
  auto mismatch = PrepareOutput(*ctx, 0, gert::Shape{4}, ge::DT_FLOAT);
  EXPECT_THAT(std::string(mismatch.status().message()), HasSubstr("k2"));
  EXPECT_THAT(std::string(mismatch.status().message()), HasSubstr("[4]"));
  EXPECT_FALSE(PrepareOutput(*ctx, 0, gert::Shape{2, 2}, ge::DT_INT32).ok());
  EXPECT_FALSE(PrepareOutput(*ctx, 1, gert::Shape{2, 2}, ge::DT_FLOAT).ok());
  EXPECT_FALSE(PrepareOutput(*ctx, 0, gert::Shape{-1}, ge::DT_FLOAT).ok());
}

TEST(KernelIoTest, PrepareOutputAllocatesUnknownShapes) {
  gert::Tensor y(gert::Shape{-1}, ge::DT_INT64, nullptr, 0);
  FakeAllocator alloc;
  gert::KernelRunContextBuilder b;
  b.Node("k3", "NonZero").Outputs({&y}).Allocator(&alloc);
  gert::KernelContext* ctx = b.Build();
  auto out = PrepareOutput(*ctx, 0, gert::Shape{1, 3}, ge::DT_INT64);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(alloc.calls, 1);
  EXPECT_EQ((*out)->GetShape(), (gert::Shape{1, 3}));
  EXPECT_NE((*out)->GetAddr(), nullptr);
  EXPECT_GE((*out)->GetSize(), 3 * sizeof(int64_t));
}

}  // namespace
}  // namespace ops
