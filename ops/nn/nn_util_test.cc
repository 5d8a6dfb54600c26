// ops/nn/nn_util_test.cc: window arithmetic, im2col / col2im, GEMM and the
// compute buffers of the nn family.
#include "ops/nn/nn_util.h"

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace ops {
namespace nn {
namespace {

class Ctx : public gert::ContextBase {
 public:
  explicit Ctx(const ge::NamedAttrs* attrs) {
    SetNode("w1", "Pool");
    SetAttrHolder(attrs);
  }
};

TEST(WindowSpecTest, DefaultsAndValidation) {
  ge::NamedAttrs attrs;
  ASSERT_TRUE(attrs.SetAttr("kernel_shape", AttrInts({3, 2})).ok());
  Ctx ctx(&attrs);
  WindowSpecOptions opts;
  opts.kernel_required = true;
  ge::StatusOr<WindowSpec> s = ReadWindowSpec(ctx, 2, {}, opts);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->strides, (DimVec{1, 1}));
  EXPECT_EQ(s->dilations, (DimVec{1, 1}));
  EXPECT_EQ(s->pads, (PadVec{0, 0, 0, 0}));
  ge::StatusOr<WindowSpec> bad = ReadWindowSpec(ctx, 3, {}, opts);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("node w1 (Pool)"), absl::string_view::npos);
  ASSERT_TRUE(attrs.SetAttr("pads", AttrInts({0, -1, 0, 0})).ok());
  EXPECT_FALSE(ReadWindowSpec(ctx, 2, {}, opts).ok());
}

TEST(WindowSpecTest, OutputDims) {
  ge::NamedAttrs attrs;
  Ctx ctx(&attrs);
  WindowSpec spec;
  spec.kernel = {3};
  spec.strides = {2};
  spec.dilations = {2};
  spec.pads = {1, 2};
  // dk = 5; NOTSET floor((10 + 3 - 5) / 2) + 1 = 5.
  ge::StatusOr<WindowDim> d = ComputeWindowDim(ctx, spec, 0, 10);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->out, 5);
  EXPECT_EQ(d->pad_begin, 1);
  spec.ceil_mode = true;  // ceil(8 / 2) + 1 = 5 as well; 11: ceil(9 / 2) + 1 = 6
  EXPECT_EQ(ComputeWindowDim(ctx, spec, 0, 11)->out, 6);
  EXPECT_EQ(ComputeWindowDim(ctx, spec, 0, -1)->out, -1);
  spec.auto_pad = AutoPad::kSameLower;
  d = ComputeWindowDim(ctx, spec, 0, 10);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->out, 5);  // ceil(10 / 2); total pad (4 * 2 + 5 - 10) = 3
  EXPECT_EQ(d->pad_begin, 2);
  EXPECT_EQ(d->pad_end, 1);
  spec.auto_pad = AutoPad::kValid;
  EXPECT_EQ(ComputeWindowDim(ctx, spec, 0, 10)->out, 3);
  EXPECT_FALSE(ComputeWindowDim(ctx, spec, 0, 4).ok());
  spec.kernel = {int64_t{1} << 62};
  spec.dilations = {4};
  EXPECT_EQ(ge::GetErrorCode(ComputeWindowDim(ctx, spec, 0, 10).status()),
            ge::ErrorCode::kOverflow);
}

// A finalized 2-D geometry (dims as {rows, columns}).
ConvGeometry MakeGeometry2d(DimVec image, DimVec kernel, DimVec strides, DimVec dilations,
                            DimVec pad_begin, DimVec out) {
  ConvGeometry g;
  g.image = std::move(image);
  g.kernel = std::move(kernel);
  g.strides = std::move(strides);
  g.dilations = std::move(dilations);
  g.pad_begin = std::move(pad_begin);
  g.out = std::move(out);
  EXPECT_TRUE(g.Finalize().ok());
  return g;
}

// Rows read -1..5 (one pad row each side), columns 0..5.
ConvGeometry Geometry2d() { return MakeGeometry2d({5, 6}, {3, 2}, {2, 1}, {1, 2}, {1, 0}, {3, 4}); }

TEST(Im2ColTest, MatchesDirectIndexing) {
  const ConvGeometry g = Geometry2d();
  const int64_t channels = 2;
  std::vector<float> image(static_cast<size_t>(channels * g.image_size));
  for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<float>(i + 1);
  std::vector<float> cols(static_cast<size_t>(channels * g.kernel_size * g.out_size), -7);
  Im2Col<float>(g, channels, image.data(), -1.0f, cols.data());
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t ky = 0; ky < 3; ++ky)
      for (int64_t kx = 0; kx < 2; ++kx)
        for (int64_t oy = 0; oy < 3; ++oy)
          for (int64_t ox = 0; ox < 4; ++ox) {
            const int64_t iy = oy * 2 - 1 + ky, ix = ox + kx * 2;
            const float want = (iy < 0 || iy >= 5 || ix >= 6)
                                   ? -1.0f
                                   : image[static_cast<size_t>((c * 5 + iy) * 6 + ix)];
            const int64_t row = (c * 3 + ky) * 2 + kx;
            EXPECT_EQ(cols[static_cast<size_t>(row * 12 + oy * 4 + ox)], want)
                << c << " " << ky << " " << kx << " " << oy << " " << ox;
          }
}

// PackIm2Col2d writes the panels a GEMM would pack from Im2Col's matrix:
// every row / column window and panel width, strides 1 and 2 in either
// direction, pads on both sides, dilation.
TEST(Im2ColTest, PackedColumnsAreIm2ColsPanels) {
  // Stride 1 with pads left and right (the memcpy path).
  const ConvGeometry wide = MakeGeometry2d({7, 9}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {7, 9});
  // Stride 2 along the row with pads (the gather path).
  const ConvGeometry strided = MakeGeometry2d({9, 11}, {3, 3}, {2, 2}, {1, 2}, {1, 2}, {5, 6});
  for (const ConvGeometry& g : {Geometry2d(), wide, strided}) {
    const int64_t channels = 3;
    std::vector<float> image(static_cast<size_t>(channels * g.image_size));
    for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<float>(i + 1);
    const int64_t rows = channels * g.kernel_size, cols_n = g.out_size;
    std::vector<float> cols(static_cast<size_t>(rows * cols_n));
    Im2Col<float>(g, channels, image.data(), 0.0f, cols.data());
    for (int64_t nr : {4, 16, 32}) {
      for (int64_t p0 : {int64_t{0}, int64_t{1}, rows / 2}) {
        for (int64_t j0 : {int64_t{0}, int64_t{3}, cols_n / 2}) {
          const int64_t kc = rows - p0, nc = cols_n - j0;
          const int64_t panels = (nc + nr - 1) / nr;
          std::vector<float> got(static_cast<size_t>(panels * kc * nr), -9.0f);
          PackIm2Col2d(g, image.data(), p0, kc, j0, nc, nr, got.data());
          for (int64_t q = 0; q < panels; ++q) {
            for (int64_t p = 0; p < kc; ++p) {
              for (int64_t j = 0; j < nr; ++j) {
                const int64_t col = j0 + q * nr + j;
                const float want =
                    col < cols_n ? cols[static_cast<size_t>((p0 + p) * cols_n + col)] : 0.0f;
                ASSERT_EQ(got[static_cast<size_t>(q * kc * nr + p * nr + j)], want)
                    << "nr " << nr << " p0 " << p0 << " j0 " << j0 << " row " << p0 + p
                    << " column " << col;
              }
            }
          }
        }
      }
    }
  }
}

TEST(Im2ColTest, Col2ImIsTheAdjoint) {
  // <Im2Col(x), c> == <x, Col2Im(c)> for random x, c (zero padding).
  const ConvGeometry g = Geometry2d();
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uni(-1, 1);
  std::vector<double> x(static_cast<size_t>(3 * g.image_size));
  std::vector<double> c(static_cast<size_t>(3 * g.kernel_size * g.out_size));
  for (double& v : x) v = uni(rng);
  for (double& v : c) v = uni(rng);
  std::vector<double> cols(c.size());
  Im2Col<double>(g, 3, x.data(), 0.0, cols.data());
  std::vector<double> back(x.size(), 0.0);
  Col2ImAdd<double>(g, 3, c.data(), back.data());
  double lhs = 0, rhs = 0;
  for (size_t i = 0; i < c.size(); ++i) lhs += cols[i] * c[i];
  for (size_t i = 0; i < x.size(); ++i) rhs += x[i] * back[i];
  EXPECT_NEAR(lhs, rhs, 1e-9);
}

template <typename T>
void CheckGemm(int64_t m, int64_t n, int64_t k, bool accumulate) {
  std::mt19937 rng(static_cast<uint32_t>(m * 1000 + n * 10 + k));
  std::uniform_int_distribution<int> dist(-3, 3);
  const int64_t lda = k + 1, ldb = n + 2, ldc = n + 3;  // padded strides
  std::vector<T> a(static_cast<size_t>(m * lda)), b(static_cast<size_t>(k * ldb));
  std::vector<T> c(static_cast<size_t>(m * ldc));
  for (T& v : a) v = static_cast<T>(dist(rng));
  for (T& v : b) v = static_cast<T>(dist(rng));
  for (T& v : c) v = static_cast<T>(dist(rng));
  std::vector<T> want = c;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      T acc = accumulate ? want[static_cast<size_t>(i * ldc + j)] : T{0};
      for (int64_t p = 0; p < k; ++p) {
        acc += a[static_cast<size_t>(i * lda + p)] * b[static_cast<size_t>(p * ldb + j)];
      }
      want[static_cast<size_t>(i * ldc + j)] = acc;
    }
  Gemm<T>(m, n, k, a.data(), lda, b.data(), ldb, c.data(), ldc, accumulate);
  EXPECT_EQ(c, want) << m << "x" << n << "x" << k;  // small integers: exact
}

TEST(GemmTest, MatchesNaiveForShapesAroundTileSizes) {
  for (int64_t m : {1, 3, 4, 5, 9}) {
    for (int64_t n : {1, 7, 16, 17, 33}) {
      for (int64_t k : {0, 1, 5, 300}) {
        CheckGemm<float>(m, n, k, false);
        CheckGemm<double>(m, n, k, true);
        CheckGemm<int32_t>(m, n, k, k % 2 == 1);
      }
    }
  }
}

TEST(ComputeBufferTest, ConvertsHalfAndIntegers) {
  ge::StatusOr<gert::HostTensor> h =
      MakeHostTensorFromDoubles(ge::DT_FLOAT16, {3}, std::vector<double>{0.5, -2, 1000});
  ASSERT_TRUE(h.ok());
  ComputeInput<float> in;
  ASSERT_TRUE(in.Init(h->tensor()).ok());
  EXPECT_EQ(in.size(), 3);
  EXPECT_EQ(in.data()[1], -2.0f);
  EXPECT_NE(static_cast<const void*>(in.data()), h->tensor().GetAddr());

  ge::StatusOr<gert::HostTensor> f = gert::HostTensor::Create(ge::DT_FLOAT, {2});
  ASSERT_TRUE(f.ok());
  ComputeInput<float> direct;
  ASSERT_TRUE(direct.Init(f->tensor()).ok());
  EXPECT_EQ(static_cast<const void*>(direct.data()), f->tensor().GetAddr());

  ge::StatusOr<gert::HostTensor> q = gert::HostTensor::Create(ge::DT_INT8, {3});
  ASSERT_TRUE(q.ok());
  ComputeOutput<double> out;
  ASSERT_TRUE(out.Init(q->MutableTensor()).ok());
  out.data()[0] = 2.5;   // half to even -> 2
  out.data()[1] = -300;  // saturates
  out.data()[2] = 7.6;
  out.Commit();
  const int8_t* p = q->GetData<int8_t>();
  EXPECT_EQ(p[0], 2);
  EXPECT_EQ(p[1], -128);
  EXPECT_EQ(p[2], 8);

  ge::StatusOr<gert::HostTensor> s = gert::HostTensor::Create(ge::DT_STRING, {1});
  ASSERT_TRUE(s.ok());
  ComputeInput<float> bad;
  EXPECT_EQ(ge::GetErrorCode(bad.Init(s->tensor())), ge::ErrorCode::kNotSupported);
}

}  // namespace
}  // namespace nn
}  // namespace ops
