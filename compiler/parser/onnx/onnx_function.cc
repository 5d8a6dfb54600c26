// compiler/parser/onnx/onnx_function.cc
#include "compiler/parser/onnx/onnx_function.h"

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "compiler/parser/onnx/onnx_op_map.h"
#include "compiler/parser/onnx/onnx_version.h"
#include "onnx/defs/schema.h"

namespace ge {
namespace onnx_parser {
namespace {

using onnx::AttributeProto;
using onnx::FunctionProto;
using onnx::GraphProto;
using onnx::ModelProto;
using onnx::NodeProto;

constexpr int kMaxInlineDepth = 8;

const FunctionProto* FindLocalFunction(const ModelProto& model, const NodeProto& n) {
  for (const FunctionProto& f : model.functions()) {
    if (f.name() == n.op_type() && f.domain() == n.domain()) return &f;
  }
  return nullptr;
}

const onnx::OpSchema* FindSchema(const NodeProto& n, int64_t opset) {
  if (!IsAcceptedDomain(n.domain())) return nullptr;
  return onnx::OpSchemaRegistry::Schema(n.op_type(), static_cast<int>(opset),
                                        CanonicalDomain(n.domain()));
}

int64_t DomainOpset(const ModelProto& model, const std::string& domain) {
  const std::string want = CanonicalDomain(domain);
  for (const onnx::OperatorSetIdProto& o : model.opset_import()) {
    if (CanonicalDomain(o.domain()) == want) return o.version();
  }
  return 0;
}

int64_t FunctionDefaultOpset(const FunctionProto& f, int64_t fallback) {
  for (const onnx::OperatorSetIdProto& o : f.opset_import()) {
    if (CanonicalDomain(o.domain()).empty()) return o.version();
  }
  return fallback;
}

void AddTypes(const GraphProto& g, ValueTypes* out) {
  for (const auto& vi : g.input()) (*out)[vi.name()] = vi.type();
  for (const auto& vi : g.output()) (*out)[vi.name()] = vi.type();
  for (const auto& vi : g.value_info()) (*out)[vi.name()] = vi.type();
  for (const auto& t : g.initializer()) {
    onnx::TypeProto type;
    type.mutable_tensor_type()->set_elem_type(t.data_type());
    auto* shape = type.mutable_tensor_type()->mutable_shape();
    for (int64_t d : t.dims()) shape->add_dim()->set_dim_value(d);
    (*out)[t.name()] = type;
  }
  for (const NodeProto& n : g.node()) {
    for (const AttributeProto& a : n.attribute()) {
      if (a.has_g()) AddTypes(a.g(), out);
      for (const GraphProto& sub : a.graphs()) AddTypes(sub, out);
    }
  }
}

void CollectNames(const GraphProto& g, absl::flat_hash_set<std::string>* names) {
  for (const auto& vi : g.input()) names->insert(vi.name());
  for (const auto& vi : g.output()) names->insert(vi.name());
  for (const auto& t : g.initializer()) names->insert(t.name());
  for (const NodeProto& n : g.node()) {
    names->insert(n.name());
    for (const std::string& o : n.output()) names->insert(o);
    for (const AttributeProto& a : n.attribute()) {
      if (a.has_g()) CollectNames(a.g(), names);
      for (const GraphProto& sub : a.graphs()) CollectNames(sub, names);
    }
  }
}

class Inliner {
 public:
  Inliner(ModelProto* model, int64_t target, const ValueTypes& types,
          const NodeSupportFn& supported)
      : model_(model), target_(target), types_(types), supported_(supported) {
    CollectNames(model->graph(), &names_);
  }

  Status Run(int64_t* inlined) {
    RETURN_IF_ERROR(InlineGraph(model_->mutable_graph(), 0));
    *inlined = count_;
    return OkStatus();
  }

 private:
  std::string Fresh(const std::string& hint) {
    if (names_.insert(hint).second) return hint;
    for (int64_t k = 1;; ++k) {
      std::string name = absl::StrCat(hint, "_", k);
      if (names_.insert(name).second) return name;
    }
  }

  Status InlineGraph(GraphProto* g, int depth) {
    bool changed = true;
    for (int round = 0; changed; ++round) {
      if (round > kMaxInlineDepth) {
        return NotSupported("graph '", g->name(), "': functions nest deeper than ", kMaxInlineDepth,
                            " levels (recursive function?)");
      }
      changed = false;
      std::vector<NodeProto> out;
      out.reserve(static_cast<size_t>(g->node_size()));
      for (int i = 0; i < g->node_size(); ++i) {
        // Moved out (no copy): the node list is rebuilt from `out` below.
        NodeProto n = std::move(*g->mutable_node(i));
        for (AttributeProto& a : *n.mutable_attribute()) {
          if (a.has_g()) RETURN_IF_ERROR(InlineGraph(a.mutable_g(), depth + 1));
          for (GraphProto& sub : *a.mutable_graphs()) RETURN_IF_ERROR(InlineGraph(&sub, depth + 1));
        }
        StatusOr<bool> done = MaybeInline(n, i, g, &out);
        if (!done.ok()) return done.status();
        if (*done) {
          changed = true;
          ++count_;
        } else {
          out.push_back(std::move(n));
        }
      }
      g->clear_node();
      g->mutable_node()->Reserve(static_cast<int>(out.size()));
      for (NodeProto& n : out) *g->add_node() = std::move(n);
    }
    return OkStatus();
  }

  // Appends the body of `n` to *out when it is to be inlined.
  StatusOr<bool> MaybeInline(const NodeProto& n, int index, GraphProto* g,
                             std::vector<NodeProto>* out) {
    const std::string where =
        absl::StrCat("node '", n.name().empty() ? absl::StrCat("#", index) : n.name(), "' (",
                     n.op_type(), "): ");
    FunctionProto built;
    const FunctionProto* fn = FindLocalFunction(*model_, n);
    const onnx::OpSchema* schema = nullptr;
    int64_t fn_opset = 0;
    if (fn != nullptr) {
      fn_opset = FunctionDefaultOpset(*fn, DomainOpset(*model_, ""));
    } else {
      if (!IsAcceptedDomain(n.domain()) || supported_(n)) return false;
      schema = FindSchema(n, DomainOpset(*model_, n.domain()));
      if (schema == nullptr) return false;
      if (schema->HasFunction()) {
        fn = schema->GetFunction();
      } else if (schema->HasContextDependentFunction()) {
        std::vector<onnx::TypeProto> input_types;
        for (const std::string& in : n.input()) {
          auto it = types_.find(in);
          if (!in.empty() && it == types_.end()) return false;  // the builder needs the types
          input_types.push_back(in.empty() ? onnx::TypeProto() : it->second);
        }
        onnx::FunctionBodyBuildContextImpl ctx(n, input_types);
        try {
          if (!schema->BuildContextDependentFunction(ctx, built)) return false;
        } catch (const std::exception& e) {
          return NotSupported(where, "building its ONNX function body failed: ", e.what());
        }
        fn = &built;
      } else {
        return false;
      }
      if (fn == nullptr) return false;
      fn_opset = FunctionDefaultOpset(*fn, schema->SinceVersion());
    }

    const std::string prefix =
        absl::StrCat(n.name().empty() ? absl::StrCat(n.op_type(), "_", index) : n.name(), "/");
    absl::flat_hash_map<std::string, std::string> rename;
    for (int i = 0; i < fn->input_size(); ++i) {
      rename[fn->input(i)] = i < n.input_size() ? n.input(i) : "";
    }
    for (int i = 0; i < fn->output_size(); ++i) {
      const bool given = i < n.output_size() && !n.output(i).empty();
      rename[fn->output(i)] = given ? n.output(i) : Fresh(prefix + fn->output(i));
    }
    auto map_name = [&](const std::string& name) -> std::string {
      if (name.empty()) return name;
      auto it = rename.find(name);
      if (it != rename.end()) return it->second;
      std::string fresh = Fresh(prefix + name);
      rename.emplace(name, fresh);
      return fresh;
    };
    GraphProto body;
    body.set_name(prefix);
    for (int k = 0; k < fn->node_size(); ++k) {
      NodeProto b = fn->node(k);
      b.set_name(Fresh(prefix + (b.name().empty() ? absl::StrCat(b.op_type(), "_", k) : b.name())));
      for (std::string& in : *b.mutable_input()) in = map_name(in);
      for (std::string& o : *b.mutable_output()) o = map_name(o);
      ResolveAttributes(&b, n, schema);
      for (AttributeProto& a : *b.mutable_attribute()) {
        if (a.has_g()) RenameFree(a.mutable_g(), rename);
        for (GraphProto& sub : *a.mutable_graphs()) RenameFree(&sub, rename);
      }
      *body.add_node() = std::move(b);
    }
    if (fn_opset > 0 && fn_opset < target_) {
      ModelProto temp;
      temp.set_ir_version(model_->ir_version());
      auto* o = temp.add_opset_import();
      o->set_domain("");
      o->set_version(fn_opset);
      *temp.mutable_graph() = std::move(body);
      Status st = ApplyBuiltinAdapters(&temp, target_);
      if (!st.ok()) return Annotate(st, where, "its function body (opset ", fn_opset, "): ");
      body = std::move(*temp.mutable_graph());
      for (onnx::TensorProto& t : *body.mutable_initializer()) {
        names_.insert(t.name());
        *g->add_initializer() = std::move(t);
      }
    }
    for (NodeProto& b : *body.mutable_node()) out->push_back(std::move(b));
    return true;
  }

  // Replaces attribute references by the call's attributes (or defaults);
  // a reference to an attribute nobody gives is dropped.
  static void ResolveAttributes(NodeProto* b, const NodeProto& call, const onnx::OpSchema* schema) {
    auto* attrs = b->mutable_attribute();
    for (int i = attrs->size() - 1; i >= 0; --i) {
      AttributeProto& a = *attrs->Mutable(i);
      if (a.ref_attr_name().empty()) continue;
      const AttributeProto* value = nullptr;
      for (const AttributeProto& c : call.attribute()) {
        if (c.name() == a.ref_attr_name()) value = &c;
      }
      if (value == nullptr && schema != nullptr) {
        auto it = schema->attributes().find(a.ref_attr_name());
        if (it != schema->attributes().end() && it->second.default_value.has_name()) {
          value = &it->second.default_value;
        }
      }
      if (value == nullptr) {
        attrs->DeleteSubrange(i, 1);
        continue;
      }
      const std::string name = a.name();
      a = *value;
      a.set_name(name);
    }
  }

  // Renames the outer-scope references of a body node's subgraph.
  static void RenameFree(GraphProto* g,
                         const absl::flat_hash_map<std::string, std::string>& rename) {
    absl::flat_hash_set<std::string> local;
    for (const auto& vi : g->input()) local.insert(vi.name());
    for (const auto& t : g->initializer()) local.insert(t.name());
    for (const NodeProto& n : g->node()) {
      for (const std::string& o : n.output()) local.insert(o);
    }
    auto map = [&](std::string* name) {
      if (local.contains(*name)) return;
      auto it = rename.find(*name);
      if (it != rename.end()) *name = it->second;
    };
    for (NodeProto& n : *g->mutable_node()) {
      for (std::string& in : *n.mutable_input()) map(&in);
      for (AttributeProto& a : *n.mutable_attribute()) {
        if (a.has_g()) RenameFree(a.mutable_g(), rename);
      }
    }
    for (auto& vi : *g->mutable_output()) map(vi.mutable_name());
  }

  ModelProto* model_;
  const int64_t target_;
  const ValueTypes& types_;
  const NodeSupportFn& supported_;
  absl::flat_hash_set<std::string> names_;
  int64_t count_ = 0;
};

}  // namespace

bool CanInline(const ModelProto& model, const NodeProto& node, int64_t opset) {
  if (FindLocalFunction(model, node) != nullptr) return true;
  const onnx::OpSchema* schema = FindSchema(node, opset);
  return schema != nullptr && (schema->HasFunction() || schema->HasContextDependentFunction());
}

namespace {

bool GraphHasInlinableCalls(const ModelProto& model, const GraphProto& g,
                            const NodeSupportFn& supported) {
  for (const NodeProto& n : g.node()) {
    for (const AttributeProto& a : n.attribute()) {
      if (a.has_g() && GraphHasInlinableCalls(model, a.g(), supported)) return true;
      for (const GraphProto& sub : a.graphs()) {
        if (GraphHasInlinableCalls(model, sub, supported)) return true;
      }
    }
    if (model.functions_size() > 0 && FindLocalFunction(model, n) != nullptr) return true;
    if (!IsAcceptedDomain(n.domain()) || supported(n)) continue;
    const onnx::OpSchema* schema = FindSchema(n, DomainOpset(model, n.domain()));
    if (schema != nullptr && (schema->HasFunction() || schema->HasContextDependentFunction())) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool HasInlinableCalls(const ModelProto& model, const NodeSupportFn& supported) {
  return GraphHasInlinableCalls(model, model.graph(), supported);
}

ValueTypes CollectValueTypes(const ModelProto& model) {
  ValueTypes types;
  AddTypes(model.graph(), &types);
  return types;
}

Status InlineFunctions(ModelProto* model, int64_t target_opset, const ValueTypes& types,
                       const NodeSupportFn& supported, int64_t* inlined) {
  *inlined = 0;
  Inliner inliner(model, target_opset, types, supported);
  return inliner.Run(inlined);
}

}  // namespace onnx_parser
}  // namespace ge
