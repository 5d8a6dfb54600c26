// ops/cast/cast_ops.cc
//
// Cast (attribute "to": a ge::DataType) and CastLike (the target type is
// input 1's type), ONNX opset 17 semantics over FLOAT, FLOAT16, BF16, DOUBLE,
// INT8..INT64, UINT8..UINT64, BOOL and STRING:
//   numeric -> numeric  ops::ConvertElement: numpy astype without undefined
//                       behaviour (float -> int truncates and saturates, NaN
//                       -> 0; int -> int wraps; -> FLOAT16 / BF16 round to
//                       nearest even, once).
//   numeric -> STRING   floats: the shortest digits that round-trip in the
//                       source type, numpy's str layout ("0.1", "3.0",
//                       "1e-05", "1.5e+16", "nan", "inf", "-inf"; scientific
//                       when |x| < 1e-4 or >= 1e16); integers in decimal;
//                       BOOL "True" / "False".
//   STRING -> numeric   plain or scientific decimal ("3.14", "1e-5", "1E8"),
//                       "NaN", "INF", "+INF", "-INF" (any case), surrounding
//                       whitespace ignored. Integer targets parse integers
//                       exactly and otherwise go through double. BOOL: "True"
//                       / "False" (any case) or a number != 0. Anything else
//                       is a ParamInvalid naming the element and the string.
//   STRING -> STRING    copy.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/cast/cast_util.h"
#include "ops/common/op_util.h"

namespace ops {

// ------------------------------------------------------------ formatting

namespace {

// True when `text` parses back to exactly `v` in type T.
template <typename T>
bool RoundTrips(const char* text, T v) {
  const double d = std::strtod(text, nullptr);
  if constexpr (std::is_same_v<T, double>) {
    return d == v;
  } else if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(d) == v;
  } else {
    return ConvertElement<T>(d).bits == v.bits;
  }
}

template <typename T>
constexpr int MaxDigits() {
  if constexpr (std::is_same_v<T, double>) {
    return 17;
  } else if constexpr (std::is_same_v<T, float>) {
    return 9;
  } else if constexpr (std::is_same_v<T, fp16_t>) {
    return 5;
  } else {
    return 4;  // bf16_t
  }
}

}  // namespace

template <typename T>
std::string FormatFloat(T v) {
  const double d = static_cast<double>(ToCompute(v));
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  if (d == 0) return std::signbit(d) ? "-0.0" : "0.0";
  // Shortest "%.{p}e" that round-trips.
  char buf[64];
  for (int p = 0; p < MaxDigits<T>(); ++p) {
    std::snprintf(buf, sizeof(buf), "%.*e", p, d);
    if (RoundTrips<T>(buf, v)) break;
  }
  // buf is "[-]d[.ddd]e[+-]xx": split into sign, digits, exponent.
  std::string s(buf);
  const bool neg = s[0] == '-';
  if (neg) s.erase(0, 1);
  const size_t e = s.find('e');
  std::string digits = s.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int exp = std::atoi(s.c_str() + e + 1);
  std::string out = neg ? "-" : "";
  const double mag = std::fabs(d);
  if (mag >= 1e16 || mag < 1e-4) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) absl::StrAppend(&out, ".", digits.substr(1));
    std::snprintf(buf, sizeof(buf), "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    out += buf;
  } else if (exp >= 0) {
    const size_t int_len = static_cast<size_t>(exp) + 1;
    if (digits.size() <= int_len) {
      out += digits + std::string(int_len - digits.size(), '0') + ".0";
    } else {
      absl::StrAppend(&out, digits.substr(0, int_len), ".", digits.substr(int_len));
    }
  } else {
    absl::StrAppend(&out, "0.", std::string(static_cast<size_t>(-exp - 1), '0'), digits);
  }
  return out;
}

template std::string FormatFloat<float>(float);
template std::string FormatFloat<double>(double);
template std::string FormatFloat<fp16_t>(fp16_t);
template std::string FormatFloat<bf16_t>(bf16_t);

ge::StatusOr<double> ParseFloatString(absl::string_view text) {
  absl::string_view s = absl::StripAsciiWhitespace(text);
  absl::string_view body = s;
  bool neg = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    neg = body[0] == '-';
    body.remove_prefix(1);
  }
  if (absl::EqualsIgnoreCase(body, "inf") || absl::EqualsIgnoreCase(body, "infinity")) {
    return neg ? -HUGE_VAL : HUGE_VAL;
  }
  if (absl::EqualsIgnoreCase(body, "nan")) return std::nan("");
  // Plain decimal / scientific only (no hex floats, no empty string).
  if (body.empty()) return ge::ParamInvalid("\"", text, "\" is not a number");
  for (char c : body) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
          c == '+' || c == '-')) {
      return ge::ParamInvalid("\"", text, "\" is not a number");
    }
  }
  const std::string copy(s);
  char* end = nullptr;
  errno = 0;
  const double d = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) {
    return ge::ParamInvalid("\"", text, "\" is not a number");
  }
  return d;  // overflow gives +-inf, underflow 0 (as numpy)
}

namespace {

template <typename To>
ge::StatusOr<To> ParseStringAs(absl::string_view text) {
  if constexpr (std::is_same_v<To, bool>) {
    absl::string_view s = absl::StripAsciiWhitespace(text);
    if (absl::EqualsIgnoreCase(s, "true")) return true;
    if (absl::EqualsIgnoreCase(s, "false")) return false;
    ASSIGN_OR_RETURN(double d, ParseFloatString(text));
    return d != 0;
  } else if constexpr (kIsInteger<To>) {
    absl::string_view s = absl::StripAsciiWhitespace(text);
    if constexpr (std::is_signed_v<To>) {
      int64_t v;
      if (absl::SimpleAtoi(s, &v)) return static_cast<To>(v);  // wraps like astype
    } else {
      uint64_t v;
      if (absl::SimpleAtoi(s, &v)) return static_cast<To>(v);
    }
    ASSIGN_OR_RETURN(double d, ParseFloatString(text));
    return ConvertElement<To>(d);
  } else {
    ASSIGN_OR_RETURN(double d, ParseFloatString(text));
    return ConvertElement<To>(d);
  }
}

template <typename From>
std::string FormatElement(From v) {
  if constexpr (std::is_same_v<From, bool>) {
    return v ? "True" : "False";
  } else if constexpr (kIsFloatLike<From>) {
    return FormatFloat(v);
  } else {
    return absl::StrCat(v);
  }
}

constexpr uint32_t kCastGroups = kTgRealBool | kTgString;

}  // namespace

// ------------------------------------------------------------------ kernel

ge::Status CastTensor(const gert::ContextBase& ctx, const gert::Tensor& in, gert::Tensor* out) {
  const int64_t n = in.GetShapeSize();
  if (n < 0 || out == nullptr || out->GetShapeSize() != n) {
    return ctx.Error("cast needs known shapes with equal element counts, got ",
                     in.GetShape().ToString(), " -> ",
                     out == nullptr ? std::string("null") : out->GetShape().ToString());
  }
  return WithNode(ctx, DispatchType<kCastGroups>(
                           in.GetDataType(),
                           [&](auto from_tag) {
                             using From = typename decltype(from_tag)::type;
                             const From* src = in.GetData<From>();
                             return DispatchType<kCastGroups>(
                                 out->GetDataType(),
                                 [&](auto to_tag) -> ge::Status {
                                   using To = typename decltype(to_tag)::type;
                                   To* dst = out->GetData<To>();
                                   if constexpr (std::is_same_v<From, To>) {
                                     for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
                                   } else if constexpr (std::is_same_v<From, std::string>) {
                                     for (int64_t i = 0; i < n; ++i) {
                                       ge::StatusOr<To> v = ParseStringAs<To>(src[i]);
                                       if (!v.ok()) {
                                         return ge::Annotate(v.status(), "cannot cast element ", i,
                                                             " to ", DataTypeName(DataTypeOf<To>()),
                                                             ": ");
                                       }
                                       dst[i] = *v;
                                     }
                                   } else if constexpr (std::is_same_v<To, std::string>) {
                                     for (int64_t i = 0; i < n; ++i) dst[i] = FormatElement(src[i]);
                                   } else {
                                     for (int64_t i = 0; i < n; ++i)
                                       dst[i] = ConvertElement<To>(src[i]);
                                   }
                                   return ge::OkStatus();
                                 },
                                 "the output");
                           },
                           "the input"));
}

namespace {

ge::TensorType CastTypes() {
  return ge::TensorType{ge::DT_FLOAT,  ge::DT_FLOAT16, ge::DT_DOUBLE, ge::DT_BF16,  ge::DT_INT8,
                        ge::DT_INT16,  ge::DT_INT32,   ge::DT_INT64,  ge::DT_UINT8, ge::DT_UINT16,
                        ge::DT_UINT32, ge::DT_UINT64,  ge::DT_BOOL,   ge::DT_STRING};
}

ge::StatusOr<ge::DataType> CastTarget(const gert::ContextBase& ctx) {
  ASSIGN_OR_RETURN(ge::DataType to, ctx.GetDataType("to"));
  if (!CastTypes().Contains(to)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "attribute to = ", DataTypeName(to),
                             " is not a supported Cast target");
  }
  return to;
}

ge::Status InferCastDataType(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(ge::DataType to, CastTarget(ctx));
  ctx.SetOutputDataType(0, to);
  return ge::OkStatus();
}

ge::Status VerifyCast(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(CastTarget(ctx).status());
  const ge::DataType in = ctx.GetInputDataType(0);
  if (!CastTypes().Contains(in)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input 0 type ", DataTypeName(in),
                             " cannot be cast");
  }
  return ge::OkStatus();
}

ge::Status CastKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(ge::DataType to, CastTarget(ctx));
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, x->GetShape(), to));
  return CastTensor(ctx, *x, y);
}

ge::Status InferCastLikeDataType(gert::InferShapeContext& ctx) {
  if (ctx.GetInputShape(1) == nullptr) return ctx.Error("input 1 (target_type) is missing");
  ctx.SetOutputDataType(0, ctx.GetInputDataType(1));
  return ge::OkStatus();
}

ge::Status VerifyCastLike(gert::InferShapeContext& ctx) {
  for (size_t i = 0; i < 2; ++i) {
    if (ctx.GetInputShape(i) == nullptr) return ctx.Error("input ", i, " is missing");
    if (!CastTypes().Contains(ctx.GetInputDataType(i))) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input ", i, " type ",
                               DataTypeName(ctx.GetInputDataType(i)), " is not supported");
    }
  }
  return ge::OkStatus();
}

ge::Status CastLikeKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  // Only the type of input 1 matters; its data may be anything.
  const gert::Tensor* like = ctx.GetInputTensor(1);
  if (like == nullptr) return ctx.Error("input 1 (target_type) is missing");
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, x->GetShape(), like->GetDataType()));
  return CastTensor(ctx, *x, y);
}

REG_OP(Cast)
    .Input("input", CastTypes())
    .Output("output", CastTypes())
    .RequiredAttr("to", ge::AttrValue::VT_DATA_TYPE)
    .InferShape(InferShapeSameAsInput0)
    .InferDataType(InferCastDataType)
    .Verify(VerifyCast);
REG_KERNEL(Cast, ge::kEngineHostCpu).Fn(CastKernel);

REG_OP(CastLike)
    .Input("input", CastTypes())
    .Input("target_type", CastTypes())
    .Output("output", CastTypes())
    .InferShape(InferShapeSameAsInput0)
    .InferDataType(InferCastLikeDataType)
    .Verify(VerifyCastLike);
REG_KERNEL(CastLike, ge::kEngineHostCpu).Fn(CastLikeKernel);

}  // namespace
}  // namespace ops
