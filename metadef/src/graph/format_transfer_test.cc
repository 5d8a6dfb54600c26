// Tests for metadef/inc/external/graph/format_transfer.h: C0 selection,
// physical shapes (including unknown dims), hand-checked data layouts, round
// trips against an independent scatter-based reference, and every error path.
#include "metadef/inc/external/graph/format_transfer.h"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Format WithC0(Format primary, int32_t c0_format) {
  return static_cast<Format>(GetFormatFromSubAndC0(primary, 0, c0_format));
}

std::vector<uint8_t> FloatBytes(const std::vector<float>& v) {
  std::vector<uint8_t> out(v.size() * sizeof(float));
  if (!v.empty()) std::memcpy(out.data(), v.data(), out.size());
  return out;
}

std::vector<float> BytesToFloats(const std::vector<uint8_t>& b) {
  std::vector<float> out(b.size() / sizeof(float));
  if (!out.empty()) std::memcpy(out.data(), b.data(), b.size());
  return out;
}

// 1, 2, 3, ... as floats.
std::vector<float> Iota(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i + 1);
  return v;
}

StatusOr<std::vector<uint8_t>> DoTransfer(const std::vector<uint8_t>& data, Format src, Format dst,
                                          std::vector<int64_t> src_shape, DataType dt,
                                          std::vector<int64_t> dst_shape = {}) {
  TransArgs args;
  args.data = data.empty() ? nullptr : data.data();
  args.src_format = src;
  args.dst_format = dst;
  args.src_shape = std::move(src_shape);
  args.dst_shape = std::move(dst_shape);
  args.src_data_type = dt;
  std::vector<uint8_t> out;
  RETURN_IF_ERROR(TransferFormat(args, &out));
  return out;
}

// ------------------------------------------------------------------ C0 ----

TEST(GetCubeC0Test, ByDataType) {
  EXPECT_EQ(GetCubeC0(DT_FLOAT16).value(), 16);
  EXPECT_EQ(GetCubeC0(DT_FLOAT).value(), 16);
  EXPECT_EQ(GetCubeC0(DT_BF16).value(), 16);
  EXPECT_EQ(GetCubeC0(DT_INT16).value(), 16);
  EXPECT_EQ(GetCubeC0(DT_INT32).value(), 16);
  EXPECT_EQ(GetCubeC0(DT_INT64).value(), 16);
  EXPECT_EQ(GetCubeC0(DT_INT8).value(), 32);
  EXPECT_EQ(GetCubeC0(DT_UINT8).value(), 32);
  EXPECT_EQ(GetCubeC0(DT_INT4).value(), 64);
  EXPECT_EQ(GetCubeC0(DT_UINT4).value(), 64);
}

TEST(GetCubeC0Test, NoElementSizeIsNotSupported) {
  for (DataType dt : {DT_STRING, DT_UNDEFINED}) {
    auto c0 = GetCubeC0(dt);
    ASSERT_FALSE(c0.ok()) << dt;
    EXPECT_EQ(GetErrorCode(c0.status()), ErrorCode::kNotSupported);
    EXPECT_THAT(std::string(c0.status().message()),
                HasSubstr(dt == DT_STRING ? "DT_STRING" : "DT_UNDEFINED"));
  }
  // An out-of-range enum value is an error, not a crash.
  EXPECT_FALSE(GetCubeC0(static_cast<DataType>(999)).ok());
}

// -------------------------------------------------- IsTransferSupported ----

TEST(IsTransferSupportedTest, BothDirectionsOfEveryPair) {
  const std::vector<std::pair<Format, Format>> pairs = {
      {FORMAT_NCHW, FORMAT_NC1HWC0},   {FORMAT_NHWC, FORMAT_NC1HWC0},
      {FORMAT_NCHW, FORMAT_FRACTAL_Z}, {FORMAT_HWCN, FORMAT_FRACTAL_Z},
      {FORMAT_ND, FORMAT_FRACTAL_NZ},  {FORMAT_NCDHW, FORMAT_NDC1HWC0}};
  for (const auto& [plain, blocked] : pairs) {
    EXPECT_TRUE(IsTransferSupported(plain, blocked)) << plain << "->" << blocked;
    EXPECT_TRUE(IsTransferSupported(blocked, plain)) << blocked << "->" << plain;
  }
}

TEST(IsTransferSupportedTest, IdentityPackedAndUnsupported) {
  EXPECT_TRUE(IsTransferSupported(FORMAT_NCHW, FORMAT_NCHW));
  EXPECT_TRUE(IsTransferSupported(FORMAT_NCHW, WithC0(FORMAT_NC1HWC0, 4)));
  EXPECT_FALSE(IsTransferSupported(FORMAT_NCHW, FORMAT_FRACTAL_NZ));
  EXPECT_FALSE(IsTransferSupported(FORMAT_NHWC, FORMAT_FRACTAL_Z));
  EXPECT_FALSE(IsTransferSupported(FORMAT_ND, FORMAT_NC1HWC0));
  EXPECT_FALSE(IsTransferSupported(FORMAT_NC1HWC0, FORMAT_FRACTAL_Z));
  // Grouped FRACTAL_Z (sub-format = groups > 1) is a different layout.
  const Format grouped = static_cast<Format>(GetFormatFromSub(FORMAT_FRACTAL_Z, 2));
  EXPECT_FALSE(IsTransferSupported(FORMAT_NCHW, grouped));
  EXPECT_FALSE(IsTransferSupported(grouped, FORMAT_NCHW));
}

// --------------------------------------------------------- TransferShape ----

TEST(TransferShapeTest, HeaderExample) {
  auto dims = TransferShape(FORMAT_NCHW, FORMAT_NC1HWC0, DT_FLOAT, {1, 64, 56, 56});
  ASSERT_TRUE(dims.ok()) << dims.status();
  EXPECT_THAT(*dims, ElementsAre(1, 4, 56, 56, 16));
}

TEST(TransferShapeTest, Nc1hwc0) {
  EXPECT_THAT(TransferShape(FORMAT_NCHW, FORMAT_NC1HWC0, DT_FLOAT16, {2, 3, 5, 7}).value(),
              ElementsAre(2, 1, 5, 7, 16));
  EXPECT_THAT(TransferShape(FORMAT_NHWC, FORMAT_NC1HWC0, DT_FLOAT, {1, 56, 57, 60}).value(),
              ElementsAre(1, 4, 56, 57, 16));
  EXPECT_THAT(TransferShape(FORMAT_NCHW, FORMAT_NC1HWC0, DT_INT8, {1, 33, 2, 2}).value(),
              ElementsAre(1, 2, 2, 2, 32));
  EXPECT_THAT(TransferShape(FORMAT_NCHW, FORMAT_NC1HWC0, DT_UINT8, {1, 32, 2, 2}).value(),
              ElementsAre(1, 1, 2, 2, 32));
  EXPECT_THAT(TransferShape(FORMAT_NCHW, FORMAT_NC1HWC0, DT_INT4, {1, 65, 1, 1}).value(),
              ElementsAre(1, 2, 1, 1, 64));
  // Zero channels: zero C1.
  EXPECT_THAT(TransferShape(FORMAT_NCHW, FORMAT_NC1HWC0, DT_FLOAT, {1, 0, 2, 2}).value(),
              ElementsAre(1, 0, 2, 2, 16));
}

TEST(TransferShapeTest, FractalZ) {
  // {N=32, C=20, H=3, W=3} -> {C1*H*W = 2*9, N1 = 2, 16, C0 = 16}.
  EXPECT_THAT(TransferShape(FORMAT_NCHW, FORMAT_FRACTAL_Z, DT_FLOAT16, {32, 20, 3, 3}).value(),
              ElementsAre(18, 2, 16, 16));
  // N = 17 pads to 32.
  EXPECT_THAT(TransferShape(FORMAT_HWCN, FORMAT_FRACTAL_Z, DT_FLOAT16, {3, 3, 20, 17}).value(),
              ElementsAre(18, 2, 16, 16));
  EXPECT_THAT(TransferShape(FORMAT_NCHW, FORMAT_FRACTAL_Z, DT_INT8, {1, 33, 1, 2}).value(),
              ElementsAre(4, 1, 16, 32));
}

TEST(TransferShapeTest, FractalNz) {
  EXPECT_THAT(TransferShape(FORMAT_ND, FORMAT_FRACTAL_NZ, DT_FLOAT16, {2, 3, 20, 33}).value(),
              ElementsAre(2, 3, 3, 2, 16, 16));
  EXPECT_THAT(TransferShape(FORMAT_ND, FORMAT_FRACTAL_NZ, DT_FLOAT, {5, 7}).value(),
              ElementsAre(1, 1, 16, 16));
  EXPECT_THAT(TransferShape(FORMAT_ND, FORMAT_FRACTAL_NZ, DT_INT8, {16, 64}).value(),
              ElementsAre(2, 1, 16, 32));
  // Rank 1 is {1, W}.
  EXPECT_THAT(TransferShape(FORMAT_ND, FORMAT_FRACTAL_NZ, DT_FLOAT16, {40}).value(),
              ElementsAre(3, 1, 16, 16));
}

TEST(TransferShapeTest, Ndc1hwc0) {
  EXPECT_THAT(TransferShape(FORMAT_NCDHW, FORMAT_NDC1HWC0, DT_FLOAT16, {1, 20, 2, 4, 5}).value(),
              ElementsAre(1, 2, 2, 4, 5, 16));
}

TEST(TransferShapeTest, PackedC0Overrides) {
  // c0_format 4 -> C0 = 8; c0_format 1 -> C0 = 1.
  EXPECT_THAT(
      TransferShape(FORMAT_NCHW, WithC0(FORMAT_NC1HWC0, 4), DT_FLOAT16, {1, 10, 2, 2}).value(),
      ElementsAre(1, 2, 2, 2, 8));
  EXPECT_THAT(TransferShape(FORMAT_NCHW, WithC0(FORMAT_NC1HWC0, 1), DT_INT8, {1, 3, 2, 2}).value(),
              ElementsAre(1, 3, 2, 2, 1));
  EXPECT_THAT(TransferShape(FORMAT_ND, WithC0(FORMAT_FRACTAL_NZ, 5), DT_INT8, {4, 40}).value(),
              ElementsAre(3, 1, 16, 16));
  EXPECT_THAT(
      TransferShape(FORMAT_NCHW, WithC0(FORMAT_FRACTAL_Z, 3), DT_FLOAT, {17, 5, 1, 1}).value(),
      ElementsAre(2, 2, 16, 4));
}

TEST(TransferShapeTest, UnknownDimsPropagate) {
  EXPECT_THAT(TransferShape(FORMAT_NCHW, FORMAT_NC1HWC0, DT_FLOAT, {-1, -1, 4, 4}).value(),
              ElementsAre(-1, -1, 4, 4, 16));
  EXPECT_THAT(TransferShape(FORMAT_NHWC, FORMAT_NC1HWC0, DT_FLOAT, {1, -1, 4, 20}).value(),
              ElementsAre(1, 2, -1, 4, 16));
  // A product with an unknown dim is unknown.
  EXPECT_THAT(TransferShape(FORMAT_NCHW, FORMAT_FRACTAL_Z, DT_FLOAT, {16, 3, -1, 3}).value(),
              ElementsAre(-1, 1, 16, 16));
  EXPECT_THAT(TransferShape(FORMAT_NCHW, FORMAT_FRACTAL_Z, DT_FLOAT, {-1, 3, 3, 3}).value(),
              ElementsAre(9, -1, 16, 16));
  EXPECT_THAT(TransferShape(FORMAT_HWCN, FORMAT_FRACTAL_Z, DT_FLOAT, {3, 3, -1, 3}).value(),
              ElementsAre(-1, 1, 16, 16));
  EXPECT_THAT(TransferShape(FORMAT_ND, FORMAT_FRACTAL_NZ, DT_FLOAT, {-1, -1, 20}).value(),
              ElementsAre(-1, 2, -1, 16, 16));
  EXPECT_THAT(TransferShape(FORMAT_ND, FORMAT_FRACTAL_NZ, DT_FLOAT, {-1}).value(),
              ElementsAre(-1, 1, 16, 16));
  EXPECT_THAT(TransferShape(FORMAT_NCDHW, FORMAT_NDC1HWC0, DT_FLOAT, {1, -1, -1, 2, 2}).value(),
              ElementsAre(1, -1, -1, 2, 2, 16));
}

TEST(TransferShapeTest, IdentityReturnsInput) {
  const std::vector<int64_t> dims = {1, -1, 7};
  EXPECT_EQ(TransferShape(FORMAT_ND, FORMAT_ND, DT_FLOAT, dims).value(), dims);
  // Equal primary formats with different C0 packing are an identity too.
  const std::vector<int64_t> blocked = {1, 1, 2, 2, 16};
  EXPECT_EQ(TransferShape(FORMAT_NC1HWC0, WithC0(FORMAT_NC1HWC0, 4), DT_FLOAT, blocked).value(),
            blocked);
}

TEST(TransferShapeTest, WrongRankNamesFormatsAndShape) {
  auto r = TransferShape(FORMAT_NCHW, FORMAT_NC1HWC0, DT_FLOAT, {1, 2, 3});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  const std::string msg(r.status().message());
  EXPECT_THAT(msg, HasSubstr("NCHW"));
  EXPECT_THAT(msg, HasSubstr("NC1HWC0"));
  EXPECT_THAT(msg, HasSubstr("[1,2,3]"));
  EXPECT_THAT(msg, HasSubstr("rank 4"));

  for (auto [src, dst, dims] : std::vector<std::tuple<Format, Format, std::vector<int64_t>>>{
           {FORMAT_NHWC, FORMAT_NC1HWC0, {1, 2, 3, 4, 5}},
           {FORMAT_NCHW, FORMAT_FRACTAL_Z, {1, 2}},
           {FORMAT_HWCN, FORMAT_FRACTAL_Z, {}},
           {FORMAT_ND, FORMAT_FRACTAL_NZ, {}},
           {FORMAT_NCDHW, FORMAT_NDC1HWC0, {1, 2, 3, 4}}}) {
    auto bad = TransferShape(src, dst, DT_FLOAT16, dims);
    ASSERT_FALSE(bad.ok()) << src << "->" << dst;
    EXPECT_EQ(GetErrorCode(bad.status()), ErrorCode::kParamInvalid) << bad.status();
  }
}

TEST(TransferShapeTest, NegativeDimIsParamInvalid) {
  auto r = TransferShape(FORMAT_NCHW, FORMAT_NC1HWC0, DT_FLOAT, {1, -3, 4, 4});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("[1,-3,4,4]"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("dim 1 is -3"));
  // -2 (unknown rank marker) is not a dim either.
  auto nz = TransferShape(FORMAT_ND, FORMAT_FRACTAL_NZ, DT_FLOAT, {-2});
  ASSERT_FALSE(nz.ok());
  EXPECT_EQ(GetErrorCode(nz.status()), ErrorCode::kParamInvalid);
}

TEST(TransferShapeTest, UnsupportedPairNamesBothFormats) {
  auto r = TransferShape(FORMAT_NCHW, FORMAT_FRACTAL_NZ, DT_FLOAT, {1, 2, 3, 4});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotSupported);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("NCHW"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("FRACTAL_NZ"));
}

TEST(TransferShapeTest, BlockedToPlainIsNotSupported) {
  // The logical C cannot be recovered from C1 * C0 (as in GE).
  auto r = TransferShape(FORMAT_NC1HWC0, FORMAT_NCHW, DT_FLOAT, {1, 1, 2, 2, 16});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotSupported);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("NC1HWC0"));
}

TEST(TransferShapeTest, BadDataTypeIsNotSupported) {
  auto r = TransferShape(FORMAT_NCHW, FORMAT_NC1HWC0, DT_STRING, {1, 2, 3, 4});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotSupported);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("DT_STRING"));
  // A packed C0 does not need the data type's C0.
  EXPECT_TRUE(TransferShape(FORMAT_NCHW, WithC0(FORMAT_NC1HWC0, 5), DT_STRING, {1, 2, 3, 4}).ok());
}

TEST(TransferShapeTest, ProductOverflowIsOverflow) {
  const int64_t big = int64_t{1} << 40;
  auto r = TransferShape(FORMAT_NCHW, FORMAT_FRACTAL_Z, DT_FLOAT, {1, big, big, big});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kOverflow);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("FRACTAL_Z"));
}

TEST(TransferShapeTest, GroupedFractalZIsNotSupported) {
  const Format grouped = static_cast<Format>(GetFormatFromSub(FORMAT_FRACTAL_Z, 4));
  auto r = TransferShape(FORMAT_NCHW, grouped, DT_FLOAT, {16, 16, 1, 1});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotSupported);
}

// ------------------------------------------------- TransferFormat by hand ----

TEST(TransferFormatTest, NchwToNc1hwc0ByHand) {
  // NCHW 1x3x2x2: src[c][hw] = 1 + 4c + hw. NC1HWC0 {1, 1, 2, 2, 16}.
  const std::vector<float> src = Iota(12);
  auto out = DoTransfer(FloatBytes(src), FORMAT_NCHW, FORMAT_NC1HWC0, {1, 3, 2, 2}, DT_FLOAT);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<float> got = BytesToFloats(*out);
  ASSERT_EQ(got.size(), 64u);
  std::vector<float> want(64, 0.0f);
  for (int hw = 0; hw < 4; ++hw) {
    for (int c = 0; c < 3; ++c) want[hw * 16 + c] = static_cast<float>(1 + 4 * c + hw);
  }
  EXPECT_EQ(got, want);
  // Spot checks of the layout: (h=0,w=1) holds channel 0..2 at 16..18.
  EXPECT_EQ(got[16], 2.0f);
  EXPECT_EQ(got[17], 6.0f);
  EXPECT_EQ(got[18], 10.0f);
  EXPECT_EQ(got[19], 0.0f);
  EXPECT_EQ(got[63], 0.0f);
}

TEST(TransferFormatTest, Nc1hwc0ToNchwByHandDropsPadding) {
  // NC1HWC0 {1, 1, 1, 2, 4} (C0 = 4 packed) -> NCHW {1, 3, 1, 2}.
  const Format c4 = WithC0(FORMAT_NC1HWC0, 3);
  const std::vector<float> src = {1, 2, 3, 99, 4, 5, 6, 99};
  auto out = DoTransfer(FloatBytes(src), c4, FORMAT_NCHW, {1, 1, 1, 2, 4}, DT_FLOAT, {1, 3, 1, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_THAT(BytesToFloats(*out), ElementsAre(1, 4, 2, 5, 3, 6));
}

TEST(TransferFormatTest, NhwcToNc1hwc0ByHand) {
  // NHWC {1, 1, 2, 3} with C0 = 4 packed: {1, 1, 1, 2, 4}.
  const std::vector<float> src = {1, 2, 3, 4, 5, 6};
  auto out =
      DoTransfer(FloatBytes(src), FORMAT_NHWC, WithC0(FORMAT_NC1HWC0, 3), {1, 1, 2, 3}, DT_FLOAT);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_THAT(BytesToFloats(*out), ElementsAre(1, 2, 3, 0, 4, 5, 6, 0));
}

TEST(TransferFormatTest, NchwToFractalZByHand) {
  // NCHW {2, 3, 1, 2} with C0 = 4 -> FRACTAL_Z {1*1*2, 1, 16, 4}:
  // out[hw][n][c] = src[n][c][hw], N padded to 16, C padded to 4.
  const std::vector<float> src = Iota(12);
  auto out =
      DoTransfer(FloatBytes(src), FORMAT_NCHW, WithC0(FORMAT_FRACTAL_Z, 3), {2, 3, 1, 2}, DT_FLOAT);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<float> got = BytesToFloats(*out);
  ASSERT_EQ(got.size(), 2u * 16 * 4);
  std::vector<float> want(got.size(), 0.0f);
  for (int hw = 0; hw < 2; ++hw) {
    for (int n = 0; n < 2; ++n) {
      for (int c = 0; c < 3; ++c) {
        want[(hw * 16 + n) * 4 + c] = static_cast<float>(1 + (n * 3 + c) * 2 + hw);
      }
    }
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(got[0], 1.0f);       // n0 c0 hw0
  EXPECT_EQ(got[4], 7.0f);       // n1 c0 hw0
  EXPECT_EQ(got[64 + 1], 4.0f);  // hw1: n0 c1
}

TEST(TransferFormatTest, HwcnToFractalZByHand) {
  // HWCN {1, 1, 2, 3} (C = 2, N = 3) with C0 = 2 -> {1, 1, 16, 2}.
  const std::vector<float> src = {1, 2, 3, 4, 5, 6};  // [c][n]
  auto out =
      DoTransfer(FloatBytes(src), FORMAT_HWCN, WithC0(FORMAT_FRACTAL_Z, 2), {1, 1, 2, 3}, DT_FLOAT);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<float> got = BytesToFloats(*out);
  ASSERT_EQ(got.size(), 32u);
  std::vector<float> want(32, 0.0f);
  want[0] = 1;  // n0 c0
  want[1] = 4;  // n0 c1
  want[2] = 2;
  want[3] = 5;
  want[4] = 3;
  want[5] = 6;
  EXPECT_EQ(got, want);
}

TEST(TransferFormatTest, NdToFractalNzByHand) {
  // ND {3, 5} with C0 = 2 -> {3, 1, 16, 2}: out[w1][h][w0] = src[h][2 w1 + w0].
  const std::vector<float> src = Iota(15);
  auto out = DoTransfer(FloatBytes(src), FORMAT_ND, WithC0(FORMAT_FRACTAL_NZ, 2), {3, 5}, DT_FLOAT);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<float> got = BytesToFloats(*out);
  ASSERT_EQ(got.size(), 3u * 16 * 2);
  std::vector<float> want(got.size(), 0.0f);
  for (int h = 0; h < 3; ++h) {
    for (int w = 0; w < 5; ++w) want[((w / 2) * 16 + h) * 2 + w % 2] = src[h * 5 + w];
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(got[2], 6.0f);   // w1 0, h 1, w0 0 = src[1][0]
  EXPECT_EQ(got[65], 0.0f);  // w1 2, h 0, w0 1 = W padding
}

TEST(TransferFormatTest, NdRank1ToFractalNz) {
  // {5} is {1, 5}: with C0 = 4 -> {2, 1, 16, 4}.
  const std::vector<float> src = {1, 2, 3, 4, 5};
  auto out = DoTransfer(FloatBytes(src), FORMAT_ND, WithC0(FORMAT_FRACTAL_NZ, 3), {5}, DT_FLOAT);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<float> got = BytesToFloats(*out);
  ASSERT_EQ(got.size(), 128u);
  std::vector<float> want(128, 0.0f);
  want[0] = 1;
  want[1] = 2;
  want[2] = 3;
  want[3] = 4;
  want[64] = 5;
  EXPECT_EQ(got, want);
  auto back =
      DoTransfer(*out, WithC0(FORMAT_FRACTAL_NZ, 3), FORMAT_ND, {2, 1, 16, 4}, DT_FLOAT, {5});
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(BytesToFloats(*back), src);
}

TEST(TransferFormatTest, NcdhwToNdc1hwc0ByHand) {
  // NCDHW {1, 2, 2, 1, 1} with C0 = 4 -> {1, 2, 1, 1, 1, 4}: out[d][c].
  const std::vector<float> src = {1, 2, 3, 4};  // [c][d]
  auto out = DoTransfer(FloatBytes(src), FORMAT_NCDHW, WithC0(FORMAT_NDC1HWC0, 3), {1, 2, 2, 1, 1},
                        DT_FLOAT);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_THAT(BytesToFloats(*out), ElementsAre(1, 3, 0, 0, 2, 4, 0, 0));
}

TEST(TransferFormatTest, Int8UsesC0Of32) {
  std::vector<uint8_t> src = {1, 2, 3};
  auto out = DoTransfer(src, FORMAT_NCHW, FORMAT_NC1HWC0, {1, 3, 1, 1}, DT_INT8);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<uint8_t> want(32, 0);
  want[0] = 1;
  want[1] = 2;
  want[2] = 3;
  EXPECT_EQ(*out, want);
}

TEST(TransferFormatTest, PaddingIsZeroInReusedOutput) {
  // The output vector is resized, not cleared: the padding must still be 0.
  const std::vector<float> src = Iota(3 * 4 * 5);
  TransArgs args;
  const std::vector<uint8_t> bytes = FloatBytes(src);
  args.data = bytes.data();
  args.src_format = FORMAT_NCHW;
  args.dst_format = FORMAT_NC1HWC0;
  args.src_shape = {1, 3, 4, 5};
  args.src_data_type = DT_FLOAT;
  std::vector<uint8_t> out(20 * 16 * sizeof(float), 0xAB);
  ASSERT_TRUE(TransferFormat(args, &out).ok());
  const std::vector<float> got = BytesToFloats(out);
  ASSERT_EQ(got.size(), 320u);
  for (int hw = 0; hw < 20; ++hw) {
    for (int c = 0; c < 16; ++c) {
      EXPECT_EQ(got[hw * 16 + c], c < 3 ? src[c * 20 + hw] : 0.0f) << hw << "," << c;
    }
  }
  // Same for FRACTAL_Z (N and C padding) and FRACTAL_NZ (H and W padding).
  args.dst_format = FORMAT_FRACTAL_Z;
  std::fill(out.begin(), out.end(), 0xCD);
  out.resize(20 * 16 * 16 * sizeof(float), 0xCD);
  ASSERT_TRUE(TransferFormat(args, &out).ok());
  int64_t nonzero = 0;
  for (float f : BytesToFloats(out)) nonzero += f != 0.0f;
  EXPECT_EQ(nonzero, 60);
  args.src_format = FORMAT_ND;
  args.dst_format = FORMAT_FRACTAL_NZ;
  std::fill(out.begin(), out.end(), 0xCD);
  ASSERT_TRUE(TransferFormat(args, &out).ok());
  nonzero = 0;
  for (float f : BytesToFloats(out)) nonzero += f != 0.0f;
  EXPECT_EQ(nonzero, 60);
}

TEST(TransferFormatTest, UnalignedSourceWorks) {
  // data need not be aligned to the element size.
  const std::vector<float> src = Iota(2 * 3 * 3);
  std::vector<uint8_t> buffer(1 + src.size() * sizeof(float));
  std::memcpy(buffer.data() + 1, src.data(), src.size() * sizeof(float));
  TransArgs args;
  args.data = buffer.data() + 1;
  args.src_format = FORMAT_NCHW;
  args.dst_format = FORMAT_NC1HWC0;
  args.src_shape = {2, 3, 3, 1};
  args.src_data_type = DT_FLOAT;
  std::vector<uint8_t> blocked;
  ASSERT_TRUE(TransferFormat(args, &blocked).ok());
  args.data = blocked.data();
  std::swap(args.src_format, args.dst_format);
  args.dst_shape = args.src_shape;
  args.src_shape = {2, 1, 3, 1, 16};
  std::vector<uint8_t> back;
  ASSERT_TRUE(TransferFormat(args, &back).ok());
  EXPECT_EQ(BytesToFloats(back), src);
}

TEST(TransferFormatTest, IdentityCopies) {
  const std::vector<uint8_t> src = {1, 2, 3, 4, 5, 6};
  auto out = DoTransfer(src, FORMAT_NCHW, FORMAT_NCHW, {1, 3, 1, 1}, DT_FLOAT16);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, src);
  // Identity still validates the shape against the data.
  auto bad = DoTransfer({}, FORMAT_ND, FORMAT_ND, {2}, DT_FLOAT);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(GetErrorCode(bad.status()), ErrorCode::kParamInvalid);
}

TEST(TransferFormatTest, EmptyTensorWithNullData) {
  auto out = DoTransfer({}, FORMAT_NCHW, FORMAT_NC1HWC0, {1, 0, 4, 4}, DT_FLOAT);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE(out->empty());
  auto fz = DoTransfer({}, FORMAT_NCHW, FORMAT_FRACTAL_Z, {0, 3, 4, 4}, DT_FLOAT);
  ASSERT_TRUE(fz.ok()) << fz.status();
  EXPECT_TRUE(fz->empty());
  auto back =
      DoTransfer({}, FORMAT_FRACTAL_NZ, FORMAT_ND, {2, 0, 1, 16, 16}, DT_FLOAT16, {2, 3, 0});
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->empty());
}

// --------------------------------------------- Round trips vs reference ----

// Element size in bytes of the dtypes used below.
int64_t ElemSize(DataType dt) {
  switch (dt) {
    case DT_INT8:
    case DT_UINT8:
      return 1;
    case DT_FLOAT16:
    case DT_BF16:
      return 2;
    case DT_FLOAT:
    case DT_INT32:
      return 4;
    case DT_INT64:
    case DT_DOUBLE:
      return 8;
    case DT_COMPLEX128:
      return 16;
    default:
      return -1;
  }
}

int64_t Product(const std::vector<int64_t>& v, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t i = begin; i < end; ++i) p *= v[i];
  return p;
}

// Independent scatter formulation: for each logical index, its position in the
// blocked tensor (linear, in elements).
int64_t BlockedOffset(Format plain_format, Format blocked_primary,
                      const std::vector<int64_t>& plain, const std::vector<int64_t>& blocked,
                      int64_t c0, const std::vector<int64_t>& idx) {
  auto linear = [&](const std::vector<int64_t>& at) {
    int64_t off = 0;
    for (size_t i = 0; i < blocked.size(); ++i) off = off * blocked[i] + at[i];
    return off;
  };
  switch (blocked_primary) {
    case FORMAT_NC1HWC0: {
      int64_t n, c, h, w;
      if (plain_format == FORMAT_NCHW) {
        n = idx[0], c = idx[1], h = idx[2], w = idx[3];
      } else {
        n = idx[0], h = idx[1], w = idx[2], c = idx[3];
      }
      return linear({n, c / c0, h, w, c % c0});
    }
    case FORMAT_FRACTAL_Z: {
      int64_t n, c, h, w, hd, wd;
      if (plain_format == FORMAT_NCHW) {
        n = idx[0], c = idx[1], h = idx[2], w = idx[3], hd = plain[2], wd = plain[3];
      } else {
        h = idx[0], w = idx[1], c = idx[2], n = idx[3], hd = plain[0], wd = plain[1];
      }
      return linear({(c / c0) * hd * wd + h * wd + w, n / 16, n % 16, c % c0});
    }
    case FORMAT_FRACTAL_NZ: {
      std::vector<int64_t> at(idx.begin(), idx.end() - (idx.size() >= 2 ? 2 : 1));
      const int64_t h = idx.size() >= 2 ? idx[idx.size() - 2] : 0;
      const int64_t w = idx.back();
      at.push_back(w / c0);
      at.push_back(h / 16);
      at.push_back(h % 16);
      at.push_back(w % c0);
      return linear(at);
    }
    case FORMAT_NDC1HWC0:
      return linear({idx[0], idx[2], idx[1] / c0, idx[3], idx[4], idx[1] % c0});
    default:
      ADD_FAILURE() << "no reference for " << blocked_primary;
      return 0;
  }
}

std::vector<uint8_t> ReferenceBlocked(Format plain_format, Format blocked_format,
                                      const std::vector<int64_t>& plain,
                                      const std::vector<int64_t>& blocked, int64_t c0, int64_t elem,
                                      const std::vector<uint8_t>& src) {
  std::vector<uint8_t> out(static_cast<size_t>(Product(blocked, 0, blocked.size()) * elem), 0);
  const int64_t count = Product(plain, 0, plain.size());
  std::vector<int64_t> idx(plain.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t rem = i;
    for (size_t d = plain.size(); d-- > 0;) {
      idx[d] = rem % plain[d];
      rem /= plain[d];
    }
    const int64_t off =
        BlockedOffset(plain_format, static_cast<Format>(GetPrimaryFormat(blocked_format)), plain,
                      blocked, c0, idx);
    std::memcpy(&out[static_cast<size_t>(off * elem)], &src[static_cast<size_t>(i * elem)],
                static_cast<size_t>(elem));
  }
  return out;
}

struct RoundTripCase {
  Format plain;
  Format blocked;
  std::vector<int64_t> shape;
};

std::string CaseName(const RoundTripCase& c, DataType dt) {
  return absl::StrCat(static_cast<int>(c.plain), "<->", static_cast<int>(c.blocked), " [",
                      absl::StrJoin(c.shape, ","), "] dt ", static_cast<int>(dt));
}

void CheckRoundTrip(const RoundTripCase& c, DataType dt, std::mt19937* rng) {
  SCOPED_TRACE(CaseName(c, dt));
  const int64_t elem = ElemSize(dt);
  ASSERT_GT(elem, 0);
  const int64_t count = Product(c.shape, 0, c.shape.size());
  std::vector<uint8_t> src(static_cast<size_t>(count * elem));
  // Nonzero bytes so that a dropped element or a misplaced pad is visible.
  for (uint8_t& b : src) b = static_cast<uint8_t>(1 + (*rng)() % 255);

  auto blocked_shape = TransferShape(c.plain, c.blocked, dt, c.shape);
  ASSERT_TRUE(blocked_shape.ok()) << blocked_shape.status();
  const int64_t packed_c0 = GetC0Value(c.blocked);
  const int64_t c0 = packed_c0 > 0 ? packed_c0 : GetCubeC0(dt).value();

  auto blocked = DoTransfer(src, c.plain, c.blocked, c.shape, dt);
  ASSERT_TRUE(blocked.ok()) << blocked.status();
  EXPECT_EQ(*blocked, ReferenceBlocked(c.plain, c.blocked, c.shape, *blocked_shape, c0, elem, src));

  auto back = DoTransfer(*blocked, c.blocked, c.plain, *blocked_shape, dt, c.shape);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, src);
}

TEST(TransferFormatRoundTripTest, EveryPairDtypeAndOddSize) {
  const std::vector<RoundTripCase> cases = {
      {FORMAT_NCHW, FORMAT_NC1HWC0, {2, 3, 2, 3}},
      {FORMAT_NCHW, FORMAT_NC1HWC0, {1, 37, 5, 3}},
      {FORMAT_NCHW, FORMAT_NC1HWC0, {3, 32, 1, 1}},
      {FORMAT_NCHW, FORMAT_NC1HWC0, {1, 70, 9, 7}},  // > 16 columns: tiled path
      {FORMAT_NHWC, FORMAT_NC1HWC0, {2, 3, 4, 17}},
      {FORMAT_NHWC, FORMAT_NC1HWC0, {1, 1, 1, 65}},
      {FORMAT_NCHW, FORMAT_FRACTAL_Z, {17, 5, 3, 2}},
      {FORMAT_NCHW, FORMAT_FRACTAL_Z, {33, 40, 1, 1}},
      {FORMAT_HWCN, FORMAT_FRACTAL_Z, {3, 2, 5, 17}},
      {FORMAT_HWCN, FORMAT_FRACTAL_Z, {1, 1, 33, 20}},
      {FORMAT_ND, FORMAT_FRACTAL_NZ, {7}},
      {FORMAT_ND, FORMAT_FRACTAL_NZ, {17, 33}},
      {FORMAT_ND, FORMAT_FRACTAL_NZ, {2, 3, 5, 70}},
      {FORMAT_ND, FORMAT_FRACTAL_NZ, {1, 16, 64}},
      {FORMAT_NCDHW, FORMAT_NDC1HWC0, {2, 19, 3, 2, 3}},
      {FORMAT_NCDHW, FORMAT_NDC1HWC0, {1, 33, 2, 1, 1}},
      // Packed C0 overrides (C0 = 4, 2, 8).
      {FORMAT_NCHW, WithC0(FORMAT_NC1HWC0, 3), {2, 7, 3, 3}},
      {FORMAT_NHWC, WithC0(FORMAT_NC1HWC0, 2), {1, 2, 2, 5}},
      {FORMAT_HWCN, WithC0(FORMAT_FRACTAL_Z, 4), {2, 1, 9, 18}},
      {FORMAT_ND, WithC0(FORMAT_FRACTAL_NZ, 4), {3, 20, 9}},
      {FORMAT_NCDHW, WithC0(FORMAT_NDC1HWC0, 3), {1, 5, 2, 2, 2}},
  };
  std::mt19937 rng(42);
  for (const RoundTripCase& c : cases) {
    for (DataType dt : {DT_INT8, DT_FLOAT16, DT_FLOAT, DT_INT64, DT_COMPLEX128}) {
      CheckRoundTrip(c, dt, &rng);
    }
  }
}

TEST(TransferFormatRoundTripTest, HeaderExampleShapeFp32) {
  std::mt19937 rng(7);
  CheckRoundTrip({FORMAT_NCHW, FORMAT_NC1HWC0, {1, 64, 56, 56}}, DT_FLOAT, &rng);
  CheckRoundTrip({FORMAT_NCHW, FORMAT_NC1HWC0, {2, 60, 7, 7}}, DT_FLOAT16, &rng);
}

// ------------------------------------------------- TransferFormat errors ----

void ExpectError(const StatusOr<std::vector<uint8_t>>& r, ErrorCode code,
                 const std::vector<std::string>& parts) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), code) << r.status();
  for (const std::string& p : parts) {
    EXPECT_THAT(std::string(r.status().message()), HasSubstr(p));
  }
}

TEST(TransferFormatErrorTest, NullOutput) {
  const std::vector<uint8_t> data(4, 0);
  TransArgs args;
  args.data = data.data();
  args.src_format = FORMAT_NCHW;
  args.dst_format = FORMAT_NC1HWC0;
  args.src_shape = {1, 1, 1, 1};
  Status s = TransferFormat(args, nullptr);
  EXPECT_EQ(GetErrorCode(s), ErrorCode::kParamInvalid);
}

TEST(TransferFormatErrorTest, NullDataWithNonzeroSize) {
  ExpectError(DoTransfer({}, FORMAT_NCHW, FORMAT_NC1HWC0, {1, 3, 2, 2}, DT_FLOAT),
              ErrorCode::kParamInvalid, {"null", "48 bytes", "NCHW", "NC1HWC0"});
  ExpectError(DoTransfer({}, FORMAT_NC1HWC0, FORMAT_NCHW, {1, 1, 2, 2, 16}, DT_FLOAT, {1, 3, 2, 2}),
              ErrorCode::kParamInvalid, {"null"});
}

TEST(TransferFormatErrorTest, SubByteAndUnsizedTypes) {
  const std::vector<uint8_t> data(8, 1);
  ExpectError(DoTransfer(data, FORMAT_NCHW, FORMAT_NC1HWC0, {1, 2, 2, 2}, DT_INT4),
              ErrorCode::kNotSupported, {"DT_INT4", "byte"});
  ExpectError(DoTransfer(data, FORMAT_NCHW, FORMAT_NC1HWC0, {1, 2, 2, 2}, DT_UINT1),
              ErrorCode::kNotSupported, {"DT_UINT1"});
  auto s = DoTransfer(data, FORMAT_NCHW, FORMAT_NC1HWC0, {1, 2, 2, 2}, DT_STRING);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(GetErrorCode(s.status()), ErrorCode::kNotSupported) << s.status();
}

TEST(TransferFormatErrorTest, UnknownDims) {
  const std::vector<uint8_t> data(64, 1);
  ExpectError(DoTransfer(data, FORMAT_NCHW, FORMAT_NC1HWC0, {1, -1, 2, 2}, DT_FLOAT),
              ErrorCode::kParamInvalid, {"src_shape", "[1,-1,2,2]", "dim 1"});
  ExpectError(
      DoTransfer(data, FORMAT_NC1HWC0, FORMAT_NCHW, {1, 1, 2, 2, 16}, DT_FLOAT, {1, -1, 2, 2}),
      ErrorCode::kParamInvalid, {"dst_shape", "[1,-1,2,2]"});
  ExpectError(DoTransfer(data, FORMAT_NCHW, FORMAT_NC1HWC0, {1, -4, 2, 2}, DT_FLOAT),
              ErrorCode::kParamInvalid, {"-4"});
}

TEST(TransferFormatErrorTest, SizeOverflow) {
  const std::vector<uint8_t> data(16, 1);
  const int64_t big = int64_t{1} << 31;
  // The element count itself overflows.
  ExpectError(DoTransfer(data, FORMAT_NCHW, FORMAT_NC1HWC0, {big, big, big, 1}, DT_FLOAT),
              ErrorCode::kOverflow, {"src_shape"});
  // The count fits but the byte size does not.
  ExpectError(DoTransfer(data, FORMAT_NCHW, FORMAT_NC1HWC0, {big, big, 1, 1}, DT_FLOAT),
              ErrorCode::kOverflow, {"byte"});
  // The source fits (2^60 bytes) but the padded destination does not (C = 1
  // pads to 16: 2^64 bytes).
  ExpectError(DoTransfer(data, FORMAT_NCHW, FORMAT_NC1HWC0,
                         {int64_t{1} << 29, 1, int64_t{1} << 28, 1}, DT_INT64),
              ErrorCode::kOverflow, {"dst"});
}

TEST(TransferFormatErrorTest, InconsistentDstShape) {
  const std::vector<uint8_t> data(64 * 4, 1);
  // C = 20 needs C1 = 2, but src has C1 = 1.
  ExpectError(
      DoTransfer(data, FORMAT_NC1HWC0, FORMAT_NCHW, {1, 1, 2, 2, 16}, DT_FLOAT, {1, 20, 2, 2}),
      ErrorCode::kParamInvalid, {"[1,1,2,2,16]", "[1,20,2,2]", "[1,2,2,2,16]"});
  // H differs.
  ExpectError(
      DoTransfer(data, FORMAT_NC1HWC0, FORMAT_NCHW, {1, 1, 2, 2, 16}, DT_FLOAT, {1, 3, 4, 1}),
      ErrorCode::kParamInvalid, {"does not match"});
  // C0 of the data type differs from the src blocked dim.
  ExpectError(
      DoTransfer(data, FORMAT_NC1HWC0, FORMAT_NCHW, {1, 1, 2, 2, 16}, DT_INT8, {1, 3, 2, 2}),
      ErrorCode::kParamInvalid, {"C0 32"});
  // Missing / wrong-rank dst_shape.
  ExpectError(DoTransfer(data, FORMAT_FRACTAL_Z, FORMAT_NCHW, {1, 1, 16, 16}, DT_FLOAT),
              ErrorCode::kParamInvalid, {"dst_shape", "rank 4"});
  ExpectError(DoTransfer(data, FORMAT_FRACTAL_NZ, FORMAT_ND, {1, 1, 16, 16}, DT_FLOAT, {}),
              ErrorCode::kParamInvalid, {"dst_shape"});
  ExpectError(DoTransfer(data, FORMAT_FRACTAL_NZ, FORMAT_ND, {1, 1, 16, 16}, DT_FLOAT, {2, 4, 4}),
              ErrorCode::kParamInvalid, {"does not match"});
}

TEST(TransferFormatErrorTest, WrongRankSource) {
  const std::vector<uint8_t> data(64, 1);
  ExpectError(DoTransfer(data, FORMAT_NCDHW, FORMAT_NDC1HWC0, {1, 2, 2, 2}, DT_FLOAT),
              ErrorCode::kParamInvalid, {"NCDHW", "rank 5", "[1,2,2,2]"});
}

TEST(TransferFormatErrorTest, UnsupportedPair) {
  const std::vector<uint8_t> data(64, 1);
  ExpectError(DoTransfer(data, FORMAT_NHWC, FORMAT_FRACTAL_NZ, {1, 2, 2, 2}, DT_FLOAT),
              ErrorCode::kNotSupported, {"NHWC", "FRACTAL_NZ"});
  ExpectError(DoTransfer(data, FORMAT_NC1HWC0, FORMAT_FRACTAL_Z, {1, 1, 1, 1, 16}, DT_FLOAT),
              ErrorCode::kNotSupported, {"NC1HWC0", "FRACTAL_Z"});
}

}  // namespace
}  // namespace ge
