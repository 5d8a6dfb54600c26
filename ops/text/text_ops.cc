// ops/text/text_ops.cc
//
// Text ops (ONNX opset 9-17): StringNormalizer and TfIdfVectorizer with
// reference host-CPU kernels.
//
// StringNormalizer  X: STRING [C] or [1, C]. Removes the elements equal to a
//   stopword (is_case_sensitive = 0 compares lower-cased forms), then applies
//   case_change_action LOWER / UPPER / NONE. When everything is removed the
//   output is [""] of shape [1] (or [1, 1]). Case mapping is locale-free
//   Unicode simple case mapping for ASCII, Latin-1, Latin Extended-A, Greek
//   and Cyrillic (UTF-8 decoded; invalid bytes pass through unchanged);
//   locale may be absent, "", "C", "POSIX" or an en_US / en-US variant, other
//   locales are NotSupported. The output length depends on the value of X:
//   -1 while it is unknown.
// TfIdfVectorizer  X: INT32 / INT64 (with pool_int64s) or STRING (with
//   pool_strings), [C] or [N, C] -> FLOAT [max(ngram_indexes) + 1] or
//   [N, ...]. The pool holds the 1-grams, then 2-grams, ...; ngram_counts[i]
//   is the pool position where the (i+1)-grams start. For every n in
//   [min_gram_length, max_gram_length] and skip in [0, max_skip_count]
//   (1-grams once), the n-gram at positions p, p + skip + 1, ... of each row
//   is counted when it is in the pool. mode TF: counts; IDF: weight (default
//   1) where the count is > 0; TFIDF: count * weight. Pool n-grams sharing
//   an output index add up.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"

namespace ops {
namespace {

// ------------------------------------------------------------ case mapping

// Simple lower-case mapping of one code point (see the file comment).
uint32_t ToLowerCp(uint32_t c) {
  if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
  if ((c >= 0xC0 && c <= 0xDE && c != 0xD7)) return c + 32;  // Latin-1
  if (c == 0x130) return 'i';                                // dotted capital I
  if (c >= 0x100 && c <= 0x137 && c % 2 == 0) return c + 1;  // Latin Ext-A pairs
  if (c >= 0x139 && c <= 0x148 && c % 2 == 1) return c + 1;
  if (c >= 0x14A && c <= 0x177 && c % 2 == 0) return c + 1;
  if (c == 0x178) return 0xFF;
  if (c >= 0x179 && c <= 0x17E && c % 2 == 1) return c + 1;
  if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return c + 32;  // Greek
  if (c == 0x386) return 0x3AC;
  if (c >= 0x388 && c <= 0x38A) return c + 37;
  if (c == 0x38C) return 0x3CC;
  if (c == 0x38E || c == 0x38F) return c + 63;
  if (c >= 0x410 && c <= 0x42F) return c + 32;  // Cyrillic
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  return c;
}

uint32_t ToUpperCp(uint32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') ? c - 32 : c;
  if (c >= 0xE0 && c <= 0xFE && c != 0xF7) return c - 32;
  if (c == 0xFF) return 0x178;
  if (c == 0x131) return 'I';  // dotless small i
  if (c >= 0x101 && c <= 0x137 && c % 2 == 1) return c - 1;
  if (c >= 0x13A && c <= 0x148 && c % 2 == 0) return c - 1;
  if (c >= 0x14B && c <= 0x177 && c % 2 == 1) return c - 1;
  if (c >= 0x17A && c <= 0x17E && c % 2 == 0) return c - 1;
  if (c >= 0x3B1 && c <= 0x3CB && c != 0x3C2) return c - 32;
  if (c == 0x3C2) return 0x3A3;  // final sigma
  if (c == 0x3AC) return 0x386;
  if (c >= 0x3AD && c <= 0x3AF) return c - 37;
  if (c == 0x3CC) return 0x38C;
  if (c == 0x3CD || c == 0x3CE) return c - 63;
  if (c >= 0x430 && c <= 0x44F) return c - 32;
  if (c >= 0x450 && c <= 0x45F) return c - 80;
  return c;
}

void AppendUtf8(uint32_t c, std::string* out) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

// Maps every decodable code point of s; invalid sequences are copied.
std::string MapCase(const std::string& s, bool upper) {
  std::string out;
  out.reserve(s.size());
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char b = p[i];
    uint32_t cp = 0;
    size_t len = 0;
    if (b < 0x80) {
      cp = b;
      len = 1;
    } else if ((b & 0xE0) == 0xC0) {
      cp = b & 0x1F;
      len = 2;
    } else if ((b & 0xF0) == 0xE0) {
      cp = b & 0x0F;
      len = 3;
    } else if ((b & 0xF8) == 0xF0) {
      cp = b & 0x07;
      len = 4;
    }
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k) {
      ok = (p[i + k] & 0xC0) == 0x80;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    // Reject overlong forms and surrogates: copy such bytes unchanged.
    static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    ok = ok && cp >= kMin[len] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    if (!ok) {
      out.push_back(static_cast<char>(b));
      ++i;
      continue;
    }
    AppendUtf8(upper ? ToUpperCp(cp) : ToLowerCp(cp), &out);
    i += len;
  }
  return out;
}

// ------------------------------------------------------------ StringNormalizer

enum class CaseAction { kNone, kLower, kUpper };

struct NormalizerAttrs {
  CaseAction action = CaseAction::kNone;
  bool case_sensitive = false;
  std::vector<std::string> stopwords;
};

ge::StatusOr<NormalizerAttrs> ReadNormalizerAttrs(const gert::ContextBase& ctx) {
  NormalizerAttrs a;
  ASSIGN_OR_RETURN(std::string action, ctx.GetStrOr("case_change_action", "NONE"));
  if (action == "NONE") {
    a.action = CaseAction::kNone;
  } else if (action == "LOWER") {
    a.action = CaseAction::kLower;
  } else if (action == "UPPER") {
    a.action = CaseAction::kUpper;
  } else {
    return ctx.Error("attribute case_change_action must be LOWER, UPPER or NONE, got \"", action,
                     "\"");
  }
  ASSIGN_OR_RETURN(int64_t cs, ctx.GetIntOr("is_case_sensitive", 0));
  a.case_sensitive = cs != 0;
  ASSIGN_OR_RETURN(std::string locale, ctx.GetStrOr("locale", ""));
  static const char* const kLocales[] = {"",      "C",           "POSIX",     "en_US",
                                         "en-US", "en_US.UTF-8", "en_US.utf8"};
  bool known = false;
  for (const char* l : kLocales) known = known || locale == l;
  if (!known) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "locale \"", locale,
                             "\" is not supported (only en_US / the default)");
  }
  ASSIGN_OR_RETURN(a.stopwords, ctx.GetListStrOr("stopwords", {}));
  return a;
}

// [C] or [1, C]; returns the position of C.
ge::StatusOr<size_t> NormalizerInputDim(const gert::ContextBase& ctx, const gert::Shape& s) {
  if (s.GetDimNum() == 1) return size_t{0};
  if (s.GetDimNum() == 2 && (s.GetDim(0) == 1 || s.GetDim(0) < 0)) return size_t{1};
  return ctx.Error("input 0 must have shape [C] or [1, C], got ", s.ToString());
}

// The kept (and case-mapped) strings.
std::vector<std::string> Normalize(const NormalizerAttrs& a, const std::string* x, int64_t n) {
  absl::flat_hash_set<std::string> stop;
  for (const std::string& w : a.stopwords) stop.insert(a.case_sensitive ? w : MapCase(w, false));
  std::vector<std::string> out;
  for (int64_t i = 0; i < n; ++i) {
    if (!stop.empty() && stop.contains(a.case_sensitive ? x[i] : MapCase(x[i], false))) continue;
    switch (a.action) {
      case CaseAction::kNone:
        out.push_back(x[i]);
        break;
      case CaseAction::kLower:
        out.push_back(MapCase(x[i], false));
        break;
      case CaseAction::kUpper:
        out.push_back(MapCase(x[i], true));
        break;
    }
  }
  return out;
}

gert::Shape NormalizerOutputShape(size_t c_dim, int64_t count) {
  // Everything removed: a single empty string.
  const int64_t c = count == 0 ? 1 : count;
  return c_dim == 0 ? gert::Shape{c} : gert::Shape{1, c};
}

ge::Status InferStringNormalizer(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(NormalizerAttrs a, ReadNormalizerAttrs(ctx));
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 is required");
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 is missing");
  if (x->IsUnknownRank()) {
    *y = gert::Shape{ge::UNKNOWN_RANK};
    return ge::OkStatus();
  }
  ASSIGN_OR_RETURN(size_t c_dim, NormalizerInputDim(ctx, *x));
  const gert::Tensor* v = ctx.GetInputTensor(0);
  if (v != nullptr && v->GetDataType() == ge::DT_STRING && CheckTensorData(*v).ok()) {
    std::vector<std::string> out = Normalize(a, v->GetData<std::string>(), v->GetShapeSize());
    *y = NormalizerOutputShape(c_dim, static_cast<int64_t>(out.size()));
  } else if (a.stopwords.empty() && x->GetDim(c_dim) > 0) {
    *y = NormalizerOutputShape(c_dim, x->GetDim(c_dim));  // nothing can be removed
  } else {
    *y = c_dim == 0 ? gert::Shape{-1} : gert::Shape{1, -1};
  }
  return ge::OkStatus();
}

ge::Status VerifyStringInput(gert::InferShapeContext& ctx) {
  if (ctx.GetInputDataType(0) != ge::DT_STRING) {
    return ctx.Error("input 0 must be DT_STRING, got ", DataTypeName(ctx.GetInputDataType(0)));
  }
  return ge::OkStatus();
}

ge::Status StringNormalizerKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(NormalizerAttrs a, ReadNormalizerAttrs(ctx));
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  if (x->GetDataType() != ge::DT_STRING) {
    return ctx.Error("input 0 must be DT_STRING, got ", DataTypeName(x->GetDataType()));
  }
  ASSIGN_OR_RETURN(size_t c_dim, NormalizerInputDim(ctx, x->GetShape()));
  std::vector<std::string> out = Normalize(a, x->GetData<std::string>(), x->GetShapeSize());
  const gert::Shape ys = NormalizerOutputShape(c_dim, static_cast<int64_t>(out.size()));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, ge::DT_STRING));
  std::string* p = y->GetData<std::string>();
  if (out.empty()) {
    p[0].clear();
    return ge::OkStatus();
  }
  for (size_t i = 0; i < out.size(); ++i) p[i] = std::move(out[i]);
  return ge::OkStatus();
}

// ------------------------------------------------------------ TfIdfVectorizer

enum class TfIdfMode { kTf, kIdf, kTfIdf };

struct TfIdfAttrs {
  int64_t min_n = 1, max_n = 1, max_skip = 0;
  TfIdfMode mode = TfIdfMode::kTf;
  std::vector<int64_t> counts;   // ngram_counts
  std::vector<int64_t> indexes;  // ngram_indexes
  std::vector<int64_t> pool_ints;
  std::vector<std::string> pool_strings;
  std::vector<float> weights;
  bool string_pool = false;
  int64_t output_size = 0;  // max(ngram_indexes) + 1
  // Per pool n-gram: its length and first pool position.
  std::vector<int64_t> gram_len;
  std::vector<int64_t> gram_start;
};

ge::StatusOr<TfIdfAttrs> ReadTfIdfAttrs(const gert::ContextBase& ctx) {
  TfIdfAttrs a;
  ASSIGN_OR_RETURN(a.min_n, ctx.GetInt("min_gram_length"));
  ASSIGN_OR_RETURN(a.max_n, ctx.GetInt("max_gram_length"));
  ASSIGN_OR_RETURN(a.max_skip, ctx.GetInt("max_skip_count"));
  if (a.min_n < 1 || a.max_n < a.min_n) {
    return ctx.Error("need 1 <= min_gram_length <= max_gram_length, got ", a.min_n, " and ",
                     a.max_n);
  }
  if (a.max_skip < 0) return ctx.Error("max_skip_count must be >= 0, got ", a.max_skip);
  ASSIGN_OR_RETURN(std::string mode, ctx.GetStr("mode"));
  if (mode == "TF") {
    a.mode = TfIdfMode::kTf;
  } else if (mode == "IDF") {
    a.mode = TfIdfMode::kIdf;
  } else if (mode == "TFIDF") {
    a.mode = TfIdfMode::kTfIdf;
  } else {
    return ctx.Error("attribute mode must be TF, IDF or TFIDF, got \"", mode, "\"");
  }
  ASSIGN_OR_RETURN(a.counts, ctx.GetListInt("ngram_counts"));
  ASSIGN_OR_RETURN(a.indexes, ctx.GetListInt("ngram_indexes"));
  ASSIGN_OR_RETURN(a.pool_ints, ctx.GetListIntOr("pool_int64s", {}));
  ASSIGN_OR_RETURN(a.pool_strings, ctx.GetListStrOr("pool_strings", {}));
  ASSIGN_OR_RETURN(a.weights, ctx.GetListFloatOr("weights", {}));
  if (!a.pool_ints.empty() && !a.pool_strings.empty()) {
    return ctx.Error("only one of pool_int64s and pool_strings may be set");
  }
  a.string_pool = !a.pool_strings.empty();
  const int64_t pool_size =
      static_cast<int64_t>(a.string_pool ? a.pool_strings.size() : a.pool_ints.size());
  // Split the pool into n-grams.
  for (size_t i = 0; i < a.counts.size(); ++i) {
    const int64_t n = static_cast<int64_t>(i) + 1;
    const int64_t start = a.counts[i];
    const int64_t end = i + 1 < a.counts.size() ? a.counts[i + 1] : pool_size;
    if (start < 0 || start > end || end > pool_size || (end - start) % n != 0) {
      return ctx.Error("ngram_counts[", i, "] = ", start, ": the ", n,
                       "-grams must span a multiple of ", n, " pool items within [0, ", pool_size,
                       "], got [", start, ", ", end, ")");
    }
    for (int64_t p = start; p < end; p += n) {
      a.gram_len.push_back(n);
      a.gram_start.push_back(p);
    }
  }
  if (a.indexes.size() != a.gram_len.size()) {
    return ctx.Error("ngram_indexes has ", a.indexes.size(), " entries but the pool holds ",
                     a.gram_len.size(), " n-grams");
  }
  if (!a.weights.empty() && a.weights.size() != a.indexes.size()) {
    return ctx.Error("weights has ", a.weights.size(), " entries, expected ", a.indexes.size());
  }
  int64_t max_index = -1;
  for (size_t i = 0; i < a.indexes.size(); ++i) {
    if (a.indexes[i] < 0)
      return ctx.Error("ngram_indexes[", i, "] = ", a.indexes[i], " is negative");
    max_index = std::max(max_index, a.indexes[i]);
  }
  a.output_size = max_index + 1;
  return a;
}

ge::Status InferTfIdf(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(TfIdfAttrs a, ReadTfIdfAttrs(ctx));
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 is required");
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 is missing");
  if (x->IsUnknownRank()) {
    // [C] or [N, C]: the rank is unknown too.
    *y = gert::Shape{ge::UNKNOWN_RANK};
    return ge::OkStatus();
  }
  if (x->GetDimNum() == 1) {
    *y = gert::Shape{a.output_size};
  } else if (x->GetDimNum() == 2) {
    *y = gert::Shape{x->GetDim(0), a.output_size};
  } else {
    return ctx.Error("input 0 must have shape [C] or [N, C], got ", x->ToString());
  }
  return ge::OkStatus();
}

ge::Status InferTfIdfType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ge::DT_FLOAT);
  return ge::OkStatus();
}

ge::Status VerifyTfIdf(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(TfIdfAttrs a, ReadTfIdfAttrs(ctx));
  const ge::DataType dt = ctx.GetInputDataType(0);
  if (a.string_pool && dt != ge::DT_STRING) {
    return ctx.Error("pool_strings needs a DT_STRING input, got ", DataTypeName(dt));
  }
  if (!a.string_pool && dt != ge::DT_INT32 && dt != ge::DT_INT64) {
    return ctx.Error("pool_int64s needs a DT_INT32 / DT_INT64 input, got ", DataTypeName(dt));
  }
  return ge::OkStatus();
}

// Key bytes of one n-gram: int64 values, or length-prefixed strings.
template <typename T>
void AppendKey(const T& v, std::string* key) {
  if constexpr (std::is_same_v<T, std::string>) {
    const uint64_t len = v.size();
    key->append(reinterpret_cast<const char*>(&len), sizeof(len));
    key->append(v);
  } else {
    const int64_t i = static_cast<int64_t>(v);
    key->append(reinterpret_cast<const char*>(&i), sizeof(i));
  }
}

template <typename T>
void CountRows(const TfIdfAttrs& a, const T* x, int64_t rows, int64_t c, float* y) {
  // Pool n-gram key -> ordinal, one map per length.
  // Lengths beyond the pool's longest n-grams cannot match.
  const int64_t max_n = std::min<int64_t>(a.max_n, static_cast<int64_t>(a.counts.size()));
  std::vector<absl::flat_hash_map<std::string, std::vector<int64_t>>> maps(
      static_cast<size_t>(max_n + 1));
  for (size_t g = 0; g < a.gram_len.size(); ++g) {
    const int64_t n = a.gram_len[g];
    if (n < a.min_n || n > max_n) continue;
    std::string key;
    for (int64_t k = 0; k < n; ++k) {
      if (a.string_pool) {
        AppendKey(a.pool_strings[a.gram_start[g] + k], &key);
      } else {
        AppendKey(a.pool_ints[a.gram_start[g] + k], &key);
      }
    }
    maps[n][key].push_back(static_cast<int64_t>(g));
  }
  std::vector<int64_t> counts(a.gram_len.size());
  std::string key;
  for (int64_t r = 0; r < rows; ++r) {
    std::fill(counts.begin(), counts.end(), 0);
    const T* row = x + r * c;
    for (int64_t n = a.min_n; n <= max_n; ++n) {
      if (maps[n].empty()) continue;
      const int64_t max_skip = n == 1 ? 0 : a.max_skip;
      for (int64_t skip = 0; skip <= max_skip; ++skip) {
        const int64_t stride = skip + 1;
        if (n > 1 && stride > c / (n - 1)) break;  // no n-gram fits any more
        // Start positions whose last item (start + (n-1) * stride) fits.
        for (int64_t start = 0; start + (n - 1) * stride < c; ++start) {
          key.clear();
          for (int64_t k = 0; k < n; ++k) AppendKey(row[start + k * stride], &key);
          auto it = maps[n].find(key);
          if (it == maps[n].end()) continue;
          for (int64_t g : it->second) ++counts[g];
        }
      }
    }
    float* out = y + r * a.output_size;
    std::fill(out, out + a.output_size, 0.f);
    for (size_t g = 0; g < counts.size(); ++g) {
      if (counts[g] == 0) continue;
      const float w = a.weights.empty() ? 1.f : a.weights[g];
      float v = 0.f;
      switch (a.mode) {
        case TfIdfMode::kTf:
          v = static_cast<float>(counts[g]);
          break;
        case TfIdfMode::kIdf:
          v = w;
          break;
        case TfIdfMode::kTfIdf:
          v = static_cast<float>(counts[g]) * w;
          break;
      }
      out[a.indexes[g]] += v;
    }
  }
}

ge::Status TfIdfKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(TfIdfAttrs a, ReadTfIdfAttrs(ctx));
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const gert::Shape& xs = x->GetShape();
  int64_t rows, c;
  gert::Shape ys;
  if (xs.GetDimNum() == 1) {
    rows = 1;
    c = xs.GetDim(0);
    ys = gert::Shape{a.output_size};
  } else if (xs.GetDimNum() == 2) {
    rows = xs.GetDim(0);
    c = xs.GetDim(1);
    ys = gert::Shape{rows, a.output_size};
  } else {
    return ctx.Error("input 0 must have shape [C] or [N, C], got ", xs.ToString());
  }
  const ge::DataType dt = x->GetDataType();
  if (a.string_pool != (dt == ge::DT_STRING)) {
    return ctx.Error(a.string_pool ? "pool_strings needs a DT_STRING input, got "
                                   : "pool_int64s needs an integer input, got ",
                     DataTypeName(dt));
  }
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, ge::DT_FLOAT));
  float* out = y->GetData<float>();
  switch (dt) {
    case ge::DT_STRING:
      CountRows(a, x->GetData<std::string>(), rows, c, out);
      break;
    case ge::DT_INT32:
      CountRows(a, x->GetData<int32_t>(), rows, c, out);
      break;
    case ge::DT_INT64:
      CountRows(a, x->GetData<int64_t>(), rows, c, out);
      break;
    default:
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input 0 data type ", DataTypeName(dt),
                               " is not supported");
  }
  return ge::OkStatus();
}

}  // namespace

// locale has no ONNX default: read when present.
REG_OP(StringNormalizer)
    .Input("X", ge::TensorType{ge::DT_STRING})
    .Output("Y", ge::TensorType{ge::DT_STRING})
    .Attr("case_change_action", ge::AttrValue::CreateFrom<std::string>("NONE"))
    .Attr("is_case_sensitive", ge::AttrValue::CreateFrom<int64_t>(0))
    .Attr("stopwords", ge::AttrValue::CreateFrom<std::vector<std::string>>({}))
    .InferShape(InferStringNormalizer)
    .Verify(VerifyStringInput)
    .DataDependentOutputShape()
    .ValueDependentInput("X");
REG_KERNEL(StringNormalizer, ge::kEngineHostCpu).Fn(StringNormalizerKernel);

REG_OP(TfIdfVectorizer)
    .Input("X", ge::TensorType{ge::DT_STRING, ge::DT_INT32, ge::DT_INT64})
    .Output("Y", ge::TensorType{ge::DT_FLOAT})
    .RequiredAttr("max_gram_length", ge::AttrValue::VT_INT)
    .RequiredAttr("max_skip_count", ge::AttrValue::VT_INT)
    .RequiredAttr("min_gram_length", ge::AttrValue::VT_INT)
    .RequiredAttr("mode", ge::AttrValue::VT_STRING)
    .RequiredAttr("ngram_counts", ge::AttrValue::VT_LIST_INT)
    .RequiredAttr("ngram_indexes", ge::AttrValue::VT_LIST_INT)
    .Attr("pool_int64s", ge::AttrValue::CreateFrom<std::vector<int64_t>>({}))
    .Attr("pool_strings", ge::AttrValue::CreateFrom<std::vector<std::string>>({}))
    .Attr("weights", ge::AttrValue::CreateFrom<std::vector<float>>({}))
    .InferShape(InferTfIdf)
    .InferDataType(InferTfIdfType)
    .Verify(VerifyTfIdf);
REG_KERNEL(TfIdfVectorizer, ge::kEngineHostCpu).Fn(TfIdfKernel);

}  // namespace ops
