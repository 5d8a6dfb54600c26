// compiler/parser/onnx/onnx_op_resolver.h
//
// Internal to the ONNX parser: op lookup. OpResolver finds a node's
// FrameworkRegistry mapping and op registration for the model's opsets,
// cached per (domain as written, op type) for one parse; an error says what
// is missing. OpsetMap: the model's opset imports by canonical domain.
//
// Example
//   OpResolver ops(OpsetMap(model));
//   StatusOr<OpLookup> op = ops.Find(node);
//   if (!op.ok()) ... op.status() names the op type and domain ...
#ifndef COMPILER_PARSER_ONNX_ONNX_OP_RESOLVER_H_
#define COMPILER_PARSER_ONNX_ONNX_OP_RESOLVER_H_

#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/parser/onnx/onnx_op_map.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/register/framework_registry.h"
#include "metadef/register/inc/register/op_registry.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace onnx_parser {

struct OpLookup {
  const FrameworkOpMapping* mapping = nullptr;
  const OpRegistrationData* reg = nullptr;
};

// Caches FrameworkRegistry lookups for one parse.
class OpResolver {
 public:
  explicit OpResolver(absl::flat_hash_map<std::string, int64_t> opsets)
      : opsets_(std::move(opsets)) {}

  // The mapping and registration of an op; an error describes what is missing.
  // Cached by (domain as written, op type): no string is built for a hit.
  StatusOr<OpLookup> Find(const onnx::NodeProto& n) {
    auto dit = by_domain_.find(n.domain());
    if (dit == by_domain_.end()) {
      dit = by_domain_.try_emplace(n.domain()).first;
    }
    absl::flat_hash_map<std::string, const Entry*>& types = dit->second;
    auto tit = types.find(n.op_type());
    if (tit == types.end()) {
      StatusOr<OpLookup> found = FindUncached(n);
      auto eit =
          cache_.find(absl::StrCat(onnx_parser::CanonicalDomain(n.domain()), "\n", n.op_type()));
      tit = types.emplace(n.op_type(), eit == cache_.end() ? nullptr : &eit->second).first;
      if (tit->second == nullptr) return found;  // domain not accepted
    }
    const Entry* e = tit->second;
    if (e == nullptr) return FindUncached(n);
    if (!e->error.ok()) return e->error;
    return OpLookup{e->mapping.get(), e->reg};
  }

 private:
  StatusOr<OpLookup> FindUncached(const onnx::NodeProto& n) {
    const std::string domain = onnx_parser::CanonicalDomain(n.domain());
    if (!onnx_parser::IsAcceptedDomain(n.domain())) {
      return NotSupported("domain '", n.domain(), "' is not supported (accepted: '', '",
                          onnx_parser::kOnnxDomain, "', '", onnx_parser::kOnnxTrainingDomain, "')");
    }
    const std::string key = absl::StrCat(domain, "\n", n.op_type());
    auto it = cache_.find(key);
    if (it == cache_.end()) {
      Entry e;
      auto v = opsets_.find(domain);
      const int64_t version = v == opsets_.end() ? kAnyVersion : v->second;
      StatusOr<FrameworkOpMapping> m =
          FrameworkRegistry::Instance().Find(FrameworkType::ONNX, n.op_type(), domain, version);
      if (!m.ok()) {
        e.error = NotSupported("unsupported op type '", n.op_type(), "' (domain '", domain, "')");
      } else {
        e.mapping = std::make_unique<FrameworkOpMapping>(std::move(m).value());
        e.reg = OpRegistry::Instance().Find(e.mapping->op_type);
        if (e.reg == nullptr) {
          e.error = NotSupported("unsupported op type '", n.op_type(), "' (domain '", domain,
                                 "'): op ", e.mapping->op_type, " is not in the linked op library");
        }
      }
      it = cache_.emplace(key, std::move(e)).first;
    }
    if (!it->second.error.ok()) return it->second.error;
    return OpLookup{it->second.mapping.get(), it->second.reg};
  }

  struct Entry {
    std::unique_ptr<FrameworkOpMapping> mapping;
    const OpRegistrationData* reg = nullptr;
    Status error;
  };
  absl::flat_hash_map<std::string, int64_t> opsets_;
  // Canonical "domain\nop_type" -> entry (node_hash_map: entries stay put).
  absl::node_hash_map<std::string, Entry> cache_;
  // Domain as written -> op type -> entry (nullptr: the domain is not accepted).
  absl::flat_hash_map<std::string, absl::flat_hash_map<std::string, const Entry*>> by_domain_;
};

// The model's opset imports: canonical domain -> version.
absl::flat_hash_map<std::string, int64_t> OpsetMap(const onnx::ModelProto& model);

}  // namespace onnx_parser
}  // namespace ge

#endif  // COMPILER_PARSER_ONNX_ONNX_OP_RESOLVER_H_
