// graph/src/utils/tensor_utils_test.cc
#include "graph/inc/graph/utils/tensor_utils.h"

#include <cstdint>
#include <vector>

#include "graph/inc/graph/ge_tensor.h"
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
  const std::vector<DataType> types = {DT_FLOAT, DT_FLOAT16, DT_INT64, DT_BOOL, DT_UINT1,
                                       DT_COMPLEX64};
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

}  // namespace
}  // namespace ge
