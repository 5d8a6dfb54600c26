// graph/serialization/src/graph_text_syntax.h
//
// Internal to //graph/serialization:graph_text: the lexical pieces the text
// form's printer (graph_text_printer.cc) and parser (graph_text_parser.cc)
// share: bare-name characters, quoting, %references, dtype spellings and
// literal element text.
#ifndef GRAPH_SERIALIZATION_SRC_GRAPH_TEXT_SYNTAX_H_
#define GRAPH_SERIALIZATION_SRC_GRAPH_TEXT_SYNTAX_H_

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/serialization/inc/graph_text.h"
#include "graph/serialization/inc/tensor_serialize_utils.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace graph_text_internal {

inline bool IsBareStart(char c) { return absl::ascii_isalpha(c) || c == '_'; }
inline bool IsBareChar(char c) {
  return absl::ascii_isalnum(c) || c == '_' || c == '.' || c == '/';
}

inline bool IsDataTypeNode(const std::string& type) {
  return type == "Data" || type == "RefData" || type == "AippData";
}

inline std::string Quote(absl::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c >= 0x20 && c < 0x7f) {
          out += static_cast<char>(c);
        } else {
          static const char kHex[] = "0123456789abcdef";
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        }
    }
  }
  out += '"';
  return out;
}

// A name: bare when it lexes as one identifier, quoted otherwise.
inline std::string Name(absl::string_view s) {
  if (s.empty() || !IsBareStart(s[0])) return Quote(s);
  for (char c : s) {
    if (!IsBareChar(c)) return Quote(s);
  }
  return std::string(s);
}

inline std::string Ref(absl::string_view s) {
  bool bare = !s.empty();
  for (char c : s) bare = bare && IsBareChar(c);
  return bare ? absl::StrCat("%", s) : absl::StrCat("%", Quote(s));
}

inline std::string DtypeName(DataType dt) {
  std::string s = TypeUtils::DataTypeToSerialString(dt);
  if (absl::StartsWith(s, "DT_")) s = s.substr(3);
  return absl::AsciiStrToLower(s);
}

inline std::string FloatText(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  if (std::isnan(f)) return bits == 0x7fc00000u ? "nan" : absl::StrCat("nan(", bits, ")");
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  char buf[64];
  for (int prec = 6; prec <= 9; ++prec) {
    std::snprintf(buf, sizeof(buf), "%.*g", prec, static_cast<double>(f));
    if (std::strtof(buf, nullptr) == f &&
        std::signbit(std::strtof(buf, nullptr)) == std::signbit(f)) {
      break;
    }
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

inline std::string DoubleText(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof(bits));
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[64];
  for (int prec = 15; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof(buf), "%.*g", prec, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

// Element size of the dtypes whose tensors may print as literal values.
inline size_t LiteralElementSize(DataType dt) {
  switch (dt) {
    case DT_FLOAT:
    case DT_INT32:
    case DT_UINT32:
      return 4;
    case DT_DOUBLE:
    case DT_INT64:
    case DT_UINT64:
      return 8;
    case DT_INT16:
    case DT_UINT16:
      return 2;
    case DT_INT8:
    case DT_UINT8:
    case DT_BOOL:
      return 1;
    default:
      return 0;
  }
}
constexpr int64_t kMaxLiteralElements = 16;

inline std::string ElementText(DataType dt, const uint8_t* p) {
  switch (dt) {
    case DT_FLOAT: {
      float v;
      std::memcpy(&v, p, 4);
      return FloatText(v);
    }
    case DT_DOUBLE: {
      double v;
      std::memcpy(&v, p, 8);
      return std::isnan(v) ? "" : DoubleText(v);
    }
    case DT_INT32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return absl::StrCat(v);
    }
    case DT_UINT32: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return absl::StrCat(v);
    }
    case DT_INT64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return absl::StrCat(v);
    }
    case DT_UINT64: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return absl::StrCat(v);
    }
    case DT_INT16: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return absl::StrCat(v);
    }
    case DT_UINT16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return absl::StrCat(v);
    }
    case DT_INT8:
      return absl::StrCat(static_cast<int8_t>(*p));
    case DT_UINT8:
      return absl::StrCat(*p);
    case DT_BOOL:
      return *p == 0 ? "false" : *p == 1 ? "true" : "";
    default:
      return "";
  }
}

}  // namespace graph_text_internal
}  // namespace ge

#endif  // GRAPH_SERIALIZATION_SRC_GRAPH_TEXT_SYNTAX_H_
