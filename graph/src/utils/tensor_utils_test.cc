// graph/src/utils/tensor_utils_test.cc
#include "graph/inc/graph/utils/tensor_utils.h"

#include <cstdint>
#include <vector>

#include "graph/inc/graph/ge_tensor.h"
#include "graph/src/testing/file_view_testing.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/graph/tensor_desc.h"

namespace ge {
namespace {

TEST(TensorUtilsTest, PlainFormatsAreAlignedByteSizes) {
  EXPECT_EQ(*TensorUtils::CalcTensorMemSize(GeShape({2, 3}), FORMAT_ND, DT_FLOAT), 64);
  EXPECT_EQ(*TensorUtils::CalcTensorMemSize(GeShape({16}), FORMAT_ND, DT_FLOAT), 64);
  EXPECT_EQ(*TensorUtils::CalcTensorMemSize(GeShape({17}), FORMAT_ND, DT_FLOAT), 128);
  EXPECT_EQ(*TensorUtils::CalcTensorMemSize(GeShape({1, 3, 224, 224}), FORMAT_NCHW, DT_FLOAT),
            602112);
  EXPECT_EQ(*TensorUtils::CalcTensorMemSize(GeShape(), FORMAT_ND, DT_INT8), 64);
  EXPECT_EQ(*TensorUtils::CalcTensorMemSize(GeShape({0, 5}), FORMAT_ND, DT_INT8), 0);
  // Sub-byte types round up.
  EXPECT_EQ(*TensorUtils::GetTensorSizeInBytes(GeTensorDesc(GeShape({3}), FORMAT_ND, DT_INT4)), 2);
}

TEST(TensorUtilsTest, FastPathMatchesTensorDesc) {
  const std::vector<std::vector<int64_t>> shapes = {{1}, {7, 9}, {2, 3, 5, 7}, {128, 3}, {}};
  const std::vector<DataType> types = {DT_FLOAT, DT_FLOAT16, DT_INT64,
                                       DT_BOOL,  DT_UINT1,   DT_COMPLEX64};
  for (const auto& dims : shapes) {
    for (DataType dt : types) {
      for (Format f : {FORMAT_ND, FORMAT_NCHW, FORMAT_NHWC}) {
        GeTensorDesc desc(GeShape(dims), f, dt);
        auto fast = TensorUtils::CalcTensorMemSize(desc);
        auto reference = desc.ToTensorDesc().GetSize();
        ASSERT_EQ(fast.ok(), reference.ok());
        if (fast.ok()) {
          EXPECT_EQ(*fast, *reference) << desc.DebugString();
        }
      }
    }
  }
}

TEST(TensorUtilsTest, BlockedFormatUsesOriginShape) {
  GeTensorDesc desc(GeShape({1, 1, 4, 4, 16}), FORMAT_NC1HWC0, DT_FLOAT16);
  desc.SetOriginShape(GeShape({1, 3, 4, 4}));
  desc.SetOriginFormat(FORMAT_NCHW);
  auto size = TensorUtils::CalcTensorMemSize(desc);
  ASSERT_TRUE(size.ok()) << size.status();
  EXPECT_EQ(*size, *desc.ToTensorDesc().GetSize());
  EXPECT_EQ(*size, 1 * 1 * 4 * 4 * 16 * 2);
}

TEST(TensorUtilsTest, ErrorsForUnsizableTensors) {
  GE_EXPECT_CODE(TensorUtils::CalcTensorMemSize(GeShape({-1, 3}), FORMAT_ND, DT_FLOAT),
                 ErrorCode::kParamInvalid);
  EXPECT_FALSE(TensorUtils::CalcTensorMemSize(GeShape({2}), FORMAT_ND, DT_STRING).ok());
  GE_EXPECT_CODE(
      TensorUtils::CalcTensorMemSize(GeShape({int64_t{1} << 62, 8}), FORMAT_ND, DT_FLOAT),
      ErrorCode::kOverflow);
}

TEST(TensorUtilsTest, MetaAccessors) {
  GeTensorDesc d;
  TensorUtils::SetSize(d, 512);
  TensorUtils::SetReuseInput(d, true);
  TensorUtils::SetReuseInputIndex(d, 2);
  TensorUtils::SetDataOffset(d, 64);
  TensorUtils::SetRealDimCnt(d, 3);
  TensorUtils::SetWeightSize(d, 8);
  TensorUtils::SetInputTensor(d, true);
  TensorUtils::SetOutputTensor(d, true);
  EXPECT_EQ(TensorUtils::GetSize(d), 512);
  EXPECT_TRUE(TensorUtils::GetReuseInput(d));
  EXPECT_EQ(TensorUtils::GetReuseInputIndex(d), 2);
  EXPECT_EQ(TensorUtils::GetDataOffset(d), 64);
  EXPECT_EQ(TensorUtils::GetRealDimCnt(d), 3);
  EXPECT_EQ(TensorUtils::GetWeightSize(d), 8);
  EXPECT_TRUE(TensorUtils::IsInputTensor(d));
  EXPECT_TRUE(TensorUtils::IsOutputTensor(d));
}

TEST(TensorUtilsTest, SampledContentHashSamplesStartMiddleAndEnd) {
  const GeTensorDesc desc(GeShape({1024}), FORMAT_ND, DT_FLOAT);
  std::vector<uint8_t> bytes(4096);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7);
  const GeTensor a(desc, bytes);
  const size_t key = TensorUtils::SampledContentHash(a);
  EXPECT_EQ(TensorUtils::SampledContentHash(GeTensor(desc, bytes)), key);
  // A byte outside the samples (64 at 0, at 2048 and at 4032) keeps the key;
  // one inside each sample, another dtype or another shape changes it.
  std::vector<uint8_t> other = bytes;
  other[1000] ^= 1;
  EXPECT_EQ(TensorUtils::SampledContentHash(GeTensor(desc, other)), key);
  for (size_t at : {size_t{3}, size_t{2050}, size_t{4095}}) {
    other = bytes;
    other[at] ^= 1;
    EXPECT_NE(TensorUtils::SampledContentHash(GeTensor(desc, other)), key) << at;
  }
  EXPECT_NE(TensorUtils::SampledContentHash(
                GeTensor(GeTensorDesc(GeShape({1024}), FORMAT_ND, DT_INT32), bytes)),
            key);
  EXPECT_NE(TensorUtils::SampledContentHash(
                GeTensor(GeTensorDesc(GeShape({32, 32}), FORMAT_ND, DT_FLOAT), bytes)),
            key);
  // A FileView of unaligned bytes is hashed in place, without its aligned copy.
  GeTensor viewed(desc);
  viewed.SetData(testing::UnalignedFileView(bytes));
  EXPECT_EQ(TensorUtils::SampledContentHash(viewed), key);
  EXPECT_FALSE(viewed.GetBuffer()->has_copy());
  // Tiny and empty tensors.
  const GeTensorDesc one(GeShape({1}), FORMAT_ND, DT_UINT8);
  EXPECT_NE(TensorUtils::SampledContentHash(GeTensor(one, std::vector<uint8_t>{1})),
            TensorUtils::SampledContentHash(GeTensor(one, std::vector<uint8_t>{2})));
  EXPECT_EQ(
      TensorUtils::SampledContentHash(GeTensor(GeTensorDesc(GeShape({0}), FORMAT_ND, DT_FLOAT))),
      TensorUtils::SampledContentHash(GeTensor(GeTensorDesc(GeShape({0}), FORMAT_ND, DT_FLOAT))));
}

}  // namespace
}  // namespace ge
