// compiler/parser/onnx/onnx_problems.h
//
// Internal to the ONNX parser: Problems, the errors collected over a whole
// model (validation and build go on after an error so that one run reports
// them all) and reported as one status naming the model; NodeLabel /
// GraphLabel, how messages name a node and a graph.
//
// Example
//   Problems problems;
//   problems.Add(ErrorCode::kParamInvalid, GraphLabel(path), NodeLabel(n, i), ": no such op");
//   RETURN_IF_ERROR(problems.ToStatus(model_name));
#ifndef COMPILER_PARSER_ONNX_ONNX_PROBLEMS_H_
#define COMPILER_PARSER_ONNX_ONNX_PROBLEMS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace onnx_parser {

// Problems collected over the whole model, reported as one status.
class Problems {
 public:
  template <typename... Args>
  void Add(ErrorCode code, const Args&... args) {
    items_.push_back({code, absl::StrCat(args...)});
  }
  void AddStatus(const Status& st, absl::string_view prefix) {
    items_.push_back({GetErrorCode(st), absl::StrCat(prefix, st.message())});
  }
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }

  Status ToStatus(absl::string_view model_name) const {
    if (items_.empty()) return OkStatus();
    ErrorCode code = items_[0].code;
    for (const Item& it : items_) {
      if (it.code != code) code = ErrorCode::kGraphInvalid;
    }
    std::string msg = absl::StrCat("ONNX model '", model_name, "': ", items_.size(),
                                   items_.size() == 1 ? " error:" : " errors:");
    for (const Item& it : items_) absl::StrAppend(&msg, "\n  ", it.text);
    return MakeStatus(code, msg);
  }

 private:
  struct Item {
    ErrorCode code;
    std::string text;
  };
  std::vector<Item> items_;
};

inline std::string NodeLabel(const onnx::NodeProto& n, int index) {
  if (!n.name().empty()) return absl::StrCat("node '", n.name(), "' (", n.op_type(), ")");
  return absl::StrCat("node #", index, " (", n.op_type(), ")");
}

inline std::string GraphLabel(const std::string& path) {
  return absl::StrCat("graph '", path, "': ");
}

}  // namespace onnx_parser
}  // namespace ge

#endif  // COMPILER_PARSER_ONNX_ONNX_PROBLEMS_H_
