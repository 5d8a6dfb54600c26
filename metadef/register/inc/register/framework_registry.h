// metadef/register/inc/register/framework_registry.h
//
// FrameworkRegistry: maps the op types of an AI framework (ONNX, TensorFlow,
// Caffe, MindSpore) to our op types for the front-end parsers (seed 003:
// framework adaptation through FrameworkRegistry; GE's REGISTER_CUSTOM_OP).
// A mapping names the framework, the framework op type, optionally a domain
// and an opset / version range, our op type, and optionally a function that
// maps the framework node's attributes onto the OpDesc:
//
//   ge::Status MapConvAttrs(const void* node, ge::OpDesc& op);  // node: onnx::NodeProto*
//   REGISTER_CUSTOM_OP("Conv2D")
//       .Framework(ge::FrameworkType::ONNX)
//       .OriginOpType("Conv")
//       .VersionRange(1, 10)
//       .AttrMapping(MapConvAttrs);
//
// Domains: "" is the framework's default domain; for ONNX "ai.onnx" is the
// same domain as "". Versions are inclusive; kAnyVersion (-1) in a lookup
// selects the mapping with the highest versions. Several OriginOpType calls
// map several framework types to the same op type.
//
// Registration errors: empty types, an unknown framework, min > max or a
// negative version (ParamInvalid); a range overlapping another mapping of the
// same framework, type and domain (AlreadyExists naming both). Static
// receivers keep errors for GetRegistrationErrors. Lookup errors (NotFound)
// name the framework and type, and list the registered domains / versions or
// suggest close type names.
//
// Thread safety: every member takes the registry mutex (parse time, not the
// run path); mapping functions run without it.
#ifndef METADEF_REGISTER_INC_REGISTER_FRAMEWORK_REGISTRY_H_
#define METADEF_REGISTER_INC_REGISTER_FRAMEWORK_REGISTRY_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// GE's domi::FrameworkType numbering.
enum class FrameworkType : int32_t {
  CAFFE = 0,
  MINDSPORE = 1,
  TENSORFLOW = 3,
  ONNX = 5,
};

// "CAFFE", "MINDSPORE", "TENSORFLOW", "ONNX"; "FRAMEWORK(<n>)" otherwise.
std::string FrameworkTypeName(FrameworkType framework);

inline constexpr int64_t kAnyVersion = -1;
inline constexpr int64_t kMaxVersion = std::numeric_limits<int64_t>::max();

// Maps the framework node (framework-specific type, e.g. onnx::NodeProto)
// onto the OpDesc created for it.
using AttrMappingFn = std::function<Status(const void* framework_node, OpDesc& op)>;

struct FrameworkOpMapping {
  FrameworkType framework = FrameworkType::ONNX;
  std::string origin_type;  // framework op type
  std::string domain;       // "" = default domain
  int64_t min_version = 0;
  int64_t max_version = kMaxVersion;
  std::string op_type;         // our op type
  AttrMappingFn attr_mapping;  // may be empty
  std::string source;          // "builtin" or a plugin path, for messages

  // Runs attr_mapping (OK when there is none); errors are prefixed with the
  // framework and type.
  Status MapAttrs(const void* framework_node, OpDesc& op) const;
};

// The chain behind REGISTER_CUSTOM_OP.
class FrameworkRegistrationData {
 public:
  explicit FrameworkRegistrationData(std::string op_type) : op_type_(std::move(op_type)) {}

  FrameworkRegistrationData& Framework(FrameworkType framework) {
    framework_ = framework;
    return *this;
  }
  FrameworkRegistrationData& OriginOpType(std::string type) {
    origin_types_.push_back(std::move(type));
    return *this;
  }
  FrameworkRegistrationData& Domain(std::string domain) {
    domain_ = std::move(domain);
    return *this;
  }
  FrameworkRegistrationData& VersionRange(int64_t min_version, int64_t max_version) {
    min_version_ = min_version;
    max_version_ = max_version;
    return *this;
  }
  FrameworkRegistrationData& AttrMapping(AttrMappingFn fn) {
    attr_mapping_ = std::move(fn);
    return *this;
  }

  // One mapping per origin type.
  std::vector<FrameworkOpMapping> ToMappings() const;
  const std::string& GetOpType() const { return op_type_; }

 private:
  std::string op_type_;
  FrameworkType framework_ = FrameworkType::ONNX;
  std::vector<std::string> origin_types_;
  std::string domain_;
  int64_t min_version_ = 0;
  int64_t max_version_ = kMaxVersion;
  AttrMappingFn attr_mapping_;
};

class FrameworkReceiver {
 public:
  FrameworkReceiver(FrameworkRegistrationData& data);   // NOLINT(runtime/explicit)
  FrameworkReceiver(FrameworkRegistrationData&& data);  // NOLINT(runtime/explicit)
};

class FrameworkRegistry {
 public:
  static FrameworkRegistry& Instance();

  Status Register(FrameworkOpMapping mapping);
  // Every mapping of the chain (none registered when one fails; an empty
  // OriginOpType list is ParamInvalid).
  Status Register(const FrameworkRegistrationData& data);

  // A copy of the matching mapping (see the file comment for the rules).
  StatusOr<FrameworkOpMapping> Find(FrameworkType framework, absl::string_view origin_type,
                                    absl::string_view domain = "",
                                    int64_t version = kAnyVersion) const;
  // Sorted, unique framework op types of a framework.
  std::vector<std::string> GetOriginTypes(FrameworkType framework) const;

  std::vector<std::string> GetRegistrationErrors() const;
  // Test hook: removes every mapping of (framework, origin_type).
  bool UnregisterForTest(FrameworkType framework, absl::string_view origin_type);

 private:
  friend class FrameworkReceiver;
  FrameworkRegistry() = default;
  void Receive(const FrameworkRegistrationData& data);
  struct Impl;
  Impl& impl() const;
};

}  // namespace ge

#define GE_FRAMEWORK_CONCAT_INNER_(a, b) a##b
#define GE_FRAMEWORK_CONCAT_(a, b) GE_FRAMEWORK_CONCAT_INNER_(a, b)

// REGISTER_CUSTOM_OP("OurType").Framework(...).OriginOpType("...")...;
#define REGISTER_CUSTOM_OP(op_type)                                                          \
  static ::ge::FrameworkReceiver GE_FRAMEWORK_CONCAT_(g_ge_framework_receiver_, __COUNTER__) \
      __attribute__((unused)) = ::ge::FrameworkRegistrationData(op_type)

#endif  // METADEF_REGISTER_INC_REGISTER_FRAMEWORK_REGISTRY_H_
