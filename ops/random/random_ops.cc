// ops/random/random_ops.cc
//
// Random generator ops (ONNX opset 1-17): RandomUniform, RandomUniformLike,
// RandomNormal, RandomNormalLike, Bernoulli, Multinomial with reference
// host-CPU kernels.
//
// Randomness: xoshiro256** seeded through splitmix64. With the `seed`
// attribute (a float, as in ONNX) every run of a node gives the same values
// (the seed's bits and the op type pick the stream); without it each run
// draws a fresh seed from std::random_device. Values cannot match other
// implementations bit for bit (ONNX says so too); they are portable across
// platforms since no std:: distribution is used. Uniform doubles take 53
// random bits; normals use Box-Muller.
//
//   RandomUniform / RandomNormal  attributes shape (required), dtype
//     (default FLOAT; FLOAT16 / FLOAT / DOUBLE), low / high (uniform in
//     [low, high), drawn in double; rounding to a narrow dtype may give
//     high itself) or mean / scale.
//   *Like  the input's shape; dtype attribute or else the input's dtype
//     (which must then be FLOAT16 / FLOAT / DOUBLE).
//   Bernoulli  input probabilities p in [0, 1] (others are errors), output
//     1 with probability p; dtype attribute or else the input's dtype.
//   Multinomial  input [batch, classes] unnormalised log-probabilities,
//     attribute sample_size (default 1) -> [batch, sample_size] class indices
//     of dtype INT32 (default) or INT64. A row without a finite maximum
//     (all -inf, NaN, +inf) is an error.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

constexpr double kPi = 3.14159265358979323846;

// ------------------------------------------------------------ generator

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t sm = seed;
    for (uint64_t& w : s_) w = SplitMix64(&sm);
  }
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // [0, 1) with 53 random bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Standard normal (Box-Muller; the second value is kept for the next call).
  double Normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = 1.0 - Uniform();  // (0, 1]: log is finite
    const double u2 = Uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    spare_ = r * std::sin(2.0 * kPi * u2);
    has_spare_ = true;
    return r * std::cos(2.0 * kPi * u2);
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
  bool has_spare_ = false;
  double spare_ = 0;
};

// FNV-1a of the op type: different ops with one seed use different streams.
uint64_t TypeSalt(absl::string_view type) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : type) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
}

// The node's generator: deterministic with the seed attribute.
ge::StatusOr<Rng> MakeRng(const gert::ContextBase& ctx) {
  const uint64_t salt = TypeSalt(ctx.GetNodeType());
  if (ctx.HasAttr("seed")) {
    ASSIGN_OR_RETURN(float seed, ctx.GetFloat("seed"));
    uint32_t bits;
    std::memcpy(&bits, &seed, sizeof(bits));
    if (seed == 0.0f) bits = 0;  // -0 and +0 give the same stream
    return Rng(salt ^ (static_cast<uint64_t>(bits) * 0x9e3779b97f4a7c15ull));
  }
  static std::atomic<uint64_t> counter{0};
  std::random_device rd;
  const uint64_t entropy =
      (static_cast<uint64_t>(rd()) << 32) ^ rd() ^
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
      (counter.fetch_add(1) * 0xd1b54a32d192ed03ull);
  return Rng(salt ^ entropy);
}

// ------------------------------------------------------------ dtypes

ge::TensorType RandomFloatTypes() {
  return ge::TensorType{ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE};
}
ge::TensorType BernoulliOutputTypes() {
  return ge::TensorType{ge::DT_FLOAT16, ge::DT_FLOAT,  ge::DT_DOUBLE, ge::DT_BF16, ge::DT_UINT8,
                        ge::DT_UINT16,  ge::DT_UINT32, ge::DT_UINT64, ge::DT_INT8, ge::DT_INT16,
                        ge::DT_INT32,   ge::DT_INT64,  ge::DT_BOOL};
}
ge::TensorType LikeInputTypes() {
  return ge::TensorType{ge::DT_UINT8,   ge::DT_UINT16,    ge::DT_UINT32,    ge::DT_UINT64,
                        ge::DT_INT8,    ge::DT_INT16,     ge::DT_INT32,     ge::DT_INT64,
                        ge::DT_FLOAT16, ge::DT_FLOAT,     ge::DT_DOUBLE,    ge::DT_STRING,
                        ge::DT_BOOL,    ge::DT_COMPLEX64, ge::DT_COMPLEX128};
}

// The output dtype: the dtype attribute (dflt when absent; for *Like ops
// and Bernoulli dflt is the input's), checked against `allowed`.
ge::StatusOr<ge::DataType> OutputDtype(const gert::ContextBase& ctx, ge::DataType dflt,
                                       const ge::TensorType& allowed) {
  ge::DataType dt = dflt;
  const bool from_attr = ctx.HasAttr("dtype");
  if (from_attr) {
    ASSIGN_OR_RETURN(dt, ctx.GetDataType("dtype"));
  }
  if (!allowed.Contains(dt)) {
    if (!from_attr) {
      return ctx.Error("input 0 is ", DataTypeName(dt),
                       ": set the dtype attribute to choose a supported output type");
    }
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "dtype ", DataTypeName(dt),
                             " is not supported");
  }
  return dt;
}

// Fills y (of dtype dt, n elements) with gen() converted to dt.
template <typename Gen>
ge::Status Fill(const gert::ContextBase& ctx, gert::Tensor* y, Gen&& gen) {
  const int64_t n = y->GetShapeSize();
  return WithNode(ctx, DispatchType<kTgRealBool>(
                           y->GetDataType(),
                           [&](auto tag) {
                             using T = typename decltype(tag)::type;
                             T* p = y->GetData<T>();
                             for (int64_t i = 0; i < n; ++i) p[i] = ConvertElement<T>(gen());
                             return ge::OkStatus();
                           },
                           "random output"));
}

// ------------------------------------------------------------ RandomUniform / RandomNormal

ge::StatusOr<gert::Shape> ShapeAttr(const gert::ContextBase& ctx) {
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, ctx.GetListInt("shape"));
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) return ctx.Error("attribute shape[", i, "] = ", dims[i], " is negative");
  }
  ge::StatusOr<gert::Shape> s = gert::Shape::FromDims(dims);
  if (!s.ok()) return WithNode(ctx, s.status());
  return s;
}

ge::Status InferFromShapeAttr(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(gert::Shape s, ShapeAttr(ctx));
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 is missing");
  *y = s;
  return ge::OkStatus();
}

ge::Status InferGeneratorType(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(ge::DataType dt, OutputDtype(ctx, ge::DT_FLOAT, RandomFloatTypes()));
  ctx.SetOutputDataType(0, dt);
  return ge::OkStatus();
}

ge::Status InferLikeType(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(ge::DataType dt, OutputDtype(ctx, ctx.GetInputDataType(0), RandomFloatTypes()));
  ctx.SetOutputDataType(0, dt);
  return ge::OkStatus();
}

ge::Status InferBernoulliType(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(ge::DataType dt,
                   OutputDtype(ctx, ctx.GetInputDataType(0), BernoulliOutputTypes()));
  ctx.SetOutputDataType(0, dt);
  return ge::OkStatus();
}

enum class Dist { kUniform, kNormal };

// Shared by the four generators; `like` takes the shape (and default
// dtype) from input 0.
ge::Status GeneratorKernel(gert::KernelContext& ctx, Dist dist, bool like) {
  gert::Shape shape;
  ge::DataType dt;
  if (like) {
    const gert::Tensor* x = ctx.GetInputTensor(0);
    if (x == nullptr) return ctx.Error("input 0 is missing");
    if (x->GetShape().IsUnknownShape()) {
      return ctx.Error("input 0 shape ", x->GetShape().ToString(), " is not fully known");
    }
    shape = x->GetShape();
    ASSIGN_OR_RETURN(dt, OutputDtype(ctx, x->GetDataType(), RandomFloatTypes()));
  } else {
    ASSIGN_OR_RETURN(shape, ShapeAttr(ctx));
    ASSIGN_OR_RETURN(dt, OutputDtype(ctx, ge::DT_FLOAT, RandomFloatTypes()));
  }
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, shape, dt));
  ASSIGN_OR_RETURN(Rng rng, MakeRng(ctx));
  if (dist == Dist::kUniform) {
    ASSIGN_OR_RETURN(float low, ctx.GetFloatOr("low", 0.f));
    ASSIGN_OR_RETURN(float high, ctx.GetFloatOr("high", 1.f));
    const double lo = low, span = static_cast<double>(high) - low;
    return Fill(ctx, y, [&] { return lo + span * rng.Uniform(); });
  }
  ASSIGN_OR_RETURN(float mean, ctx.GetFloatOr("mean", 0.f));
  ASSIGN_OR_RETURN(float scale, ctx.GetFloatOr("scale", 1.f));
  const double m = mean, s = scale;
  return Fill(ctx, y, [&] { return m + s * rng.Normal(); });
}

ge::Status RandomUniformKernel(gert::KernelContext& ctx) {
  return GeneratorKernel(ctx, Dist::kUniform, false);
}
ge::Status RandomNormalKernel(gert::KernelContext& ctx) {
  return GeneratorKernel(ctx, Dist::kNormal, false);
}
ge::Status RandomUniformLikeKernel(gert::KernelContext& ctx) {
  return GeneratorKernel(ctx, Dist::kUniform, true);
}
ge::Status RandomNormalLikeKernel(gert::KernelContext& ctx) {
  return GeneratorKernel(ctx, Dist::kNormal, true);
}

// ------------------------------------------------------------ Bernoulli

ge::Status BernoulliKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(ge::DataType dt, OutputDtype(ctx, x->GetDataType(), BernoulliOutputTypes()));
  ge::StatusOr<std::vector<double>> p = ReadAsDoubles(*x);
  if (!p.ok()) return WithNode(ctx, p.status());
  for (size_t i = 0; i < p->size(); ++i) {
    const double v = (*p)[i];
    if (!(v >= 0.0 && v <= 1.0)) {
      return ctx.Error("input 0 element ", i, " = ", v, " is not a probability in [0, 1]");
    }
  }
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, x->GetShape(), dt));
  ASSIGN_OR_RETURN(Rng rng, MakeRng(ctx));
  size_t i = 0;
  return Fill(ctx, y, [&] { return rng.Uniform() < (*p)[i++] ? 1.0 : 0.0; });
}

// ------------------------------------------------------------ Multinomial

ge::StatusOr<int64_t> SampleSize(const gert::ContextBase& ctx) {
  ASSIGN_OR_RETURN(int64_t n, ctx.GetIntOr("sample_size", 1));
  if (n < 0) return ctx.Error("attribute sample_size must be >= 0, got ", n);
  return n;
}

ge::TensorType MultinomialOutputTypes() { return ge::TensorType{ge::DT_INT32, ge::DT_INT64}; }

ge::Status InferMultinomial(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(int64_t n, SampleSize(ctx));
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 is required");
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 is missing");
  if (x->IsUnknownRank()) {
    *y = gert::Shape{-1, n};
    return ge::OkStatus();
  }
  if (x->GetDimNum() != 2) {
    return ctx.Error("input 0 must be [batch_size, class_size], got ", x->ToString());
  }
  *y = gert::Shape{x->GetDim(0), n};
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  return SetOutputRange(ctx, 0, {xr[0], DimRangeOf(n)});
}

ge::Status InferMultinomialType(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(ge::DataType dt, OutputDtype(ctx, ge::DT_INT32, MultinomialOutputTypes()));
  ctx.SetOutputDataType(0, dt);
  return ge::OkStatus();
}

ge::Status MultinomialKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(int64_t n, SampleSize(ctx));
  ASSIGN_OR_RETURN(ge::DataType dt, OutputDtype(ctx, ge::DT_INT32, MultinomialOutputTypes()));
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const gert::Shape& xs = x->GetShape();
  if (xs.GetDimNum() != 2) {
    return ctx.Error("input 0 must be [batch_size, class_size], got ", xs.ToString());
  }
  const int64_t batch = xs.GetDim(0), classes = xs.GetDim(1);
  if (classes == 0 && batch > 0 && n > 0) return ctx.Error("input 0 has no classes to sample");
  ge::StatusOr<std::vector<double>> logits = ReadAsDoubles(*x);
  if (!logits.ok()) return WithNode(ctx, logits.status());
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, gert::Shape{batch, n}, dt));
  ASSIGN_OR_RETURN(Rng rng, MakeRng(ctx));
  std::vector<int64_t> samples(static_cast<size_t>(batch * n));
  std::vector<double> cdf(static_cast<size_t>(classes));
  for (int64_t b = 0; b < batch && n > 0; ++b) {
    const double* l = logits->data() + b * classes;
    double m = -HUGE_VAL;
    for (int64_t c = 0; c < classes; ++c) {
      if (std::isnan(l[c])) return ctx.Error("input 0 row ", b, " has NaN at class ", c);
      m = std::max(m, l[c]);
    }
    if (!std::isfinite(m)) {
      return ctx.Error("input 0 row ", b, " has no finite maximum (", m, "): not a distribution");
    }
    double total = 0;
    for (int64_t c = 0; c < classes; ++c) {
      total += std::exp(l[c] - m);
      cdf[c] = total;
    }
    for (int64_t k = 0; k < n; ++k) {
      const double u = rng.Uniform() * total;
      // First class whose cumulative mass exceeds u (classes of zero mass
      // are never chosen).
      int64_t c = std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin();
      if (c >= classes) c = classes - 1;
      samples[b * n + k] = c;
    }
  }
  if (dt == ge::DT_INT64) {
    std::copy(samples.begin(), samples.end(), y->GetData<int64_t>());
  } else {
    int32_t* p = y->GetData<int32_t>();
    for (size_t i = 0; i < samples.size(); ++i) p[i] = static_cast<int32_t>(samples[i]);
  }
  return ge::OkStatus();
}

ge::AttrValue AttrFloat(float v) { return ge::AttrValue::CreateFrom<float>(v); }

}  // namespace

// Attributes without an ONNX default (seed; dtype of the *Like ops and
// Bernoulli) are not declared with one: they are read when present.
REG_OP(RandomUniform)
    .Output("output", RandomFloatTypes())
    .RequiredAttr("shape", ge::AttrValue::VT_LIST_INT)
    .Attr("dtype", ge::AttrValue::CreateFrom<ge::DataType>(ge::DT_FLOAT))
    .Attr("high", AttrFloat(1.f))
    .Attr("low", AttrFloat(0.f))
    .InferShape(InferFromShapeAttr)
    .InferDataType(InferGeneratorType)
    .Random();
REG_KERNEL(RandomUniform, ge::kEngineHostCpu).Fn(RandomUniformKernel);

REG_OP(RandomNormal)
    .Output("output", RandomFloatTypes())
    .RequiredAttr("shape", ge::AttrValue::VT_LIST_INT)
    .Attr("dtype", ge::AttrValue::CreateFrom<ge::DataType>(ge::DT_FLOAT))
    .Attr("mean", AttrFloat(0.f))
    .Attr("scale", AttrFloat(1.f))
    .InferShape(InferFromShapeAttr)
    .InferDataType(InferGeneratorType)
    .Random();
REG_KERNEL(RandomNormal, ge::kEngineHostCpu).Fn(RandomNormalKernel);

REG_OP(RandomUniformLike)
    .Input("input", LikeInputTypes())
    .Output("output", RandomFloatTypes())
    .Attr("high", AttrFloat(1.f))
    .Attr("low", AttrFloat(0.f))
    .InferShape(InferShapeSameAsInput0)
    .InferDataType(InferLikeType)
    .Random();
REG_KERNEL(RandomUniformLike, ge::kEngineHostCpu).Fn(RandomUniformLikeKernel);

REG_OP(RandomNormalLike)
    .Input("input", LikeInputTypes())
    .Output("output", RandomFloatTypes())
    .Attr("mean", AttrFloat(0.f))
    .Attr("scale", AttrFloat(1.f))
    .InferShape(InferShapeSameAsInput0)
    .InferDataType(InferLikeType)
    .Random();
REG_KERNEL(RandomNormalLike, ge::kEngineHostCpu).Fn(RandomNormalLikeKernel);

REG_OP(Bernoulli)
    .Input("input", RandomFloatTypes())
    .Output("output", BernoulliOutputTypes())
    .InferShape(InferShapeSameAsInput0)
    .InferDataType(InferBernoulliType)
    .Random();
REG_KERNEL(Bernoulli, ge::kEngineHostCpu).Fn(BernoulliKernel);

REG_OP(Multinomial)
    .Input("input", RandomFloatTypes())
    .Output("output", MultinomialOutputTypes())
    .Attr("dtype", ge::AttrValue::CreateFrom<ge::DataType>(ge::DT_INT32))
    .Attr("sample_size", ge::AttrValue::CreateFrom<int64_t>(1))
    .InferShape(InferMultinomial)
    .InferDataType(InferMultinomialType)
    .Random();
REG_KERNEL(Multinomial, ge::kEngineHostCpu).Fn(MultinomialKernel);

}  // namespace ops
