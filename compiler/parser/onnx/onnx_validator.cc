// compiler/parser/onnx/onnx_validator.cc
#include "compiler/parser/onnx/onnx_validator.h"

#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/parser/onnx/onnx_function.h"
#include "compiler/parser/onnx/onnx_op_map.h"

namespace ge {
namespace onnx_parser {

using onnx::AttributeProto;
using onnx::GraphProto;
using onnx::ModelProto;
using onnx::NodeProto;
using onnx::ValueInfoProto;

namespace {

// Structural checks of the model as given (before version conversion).
class Validator {
 public:
  Validator(const ModelProto& model, OpResolver* ops, Problems* problems)
      : model_(model),
        opsets_(OpsetMap(model)),
        ops_(ops),
        problems_(problems),
        has_default_opset_(opsets_.contains("")) {}

  // Name sets view the model's strings.
  using NameSet = absl::flat_hash_set<absl::string_view>;

  // The root graph's index (after Check of the root): valid while the
  // model's root graph is not changed.
  GraphIndex TakeRootIndex() { return std::move(root_index_); }

  // Checks g. Its values are indexed on the way (GraphIndex, what the
  // builder needs); the root graph's index is kept (TakeRootIndex).
  void Check(const GraphProto& g, const std::string& path,
             const std::vector<const GraphIndex*>& outer, bool is_root) {
    const std::string where = GraphLabel(path);
    GraphIndex local;
    GraphIndex& index = is_root ? root_index_ : local;
    index = GraphIndex();
    const int n_nodes = g.node_size();
    index.Reserve(g);
    // Defines `name`: its id (inserted: a new one).
    auto define = [&index](const std::string& name, int32_t producer) {
      auto [it, inserted] =
          index.ids.try_emplace(name, static_cast<int32_t>(index.producer.size()));
      if (inserted) index.producer.push_back(producer);
      return std::make_pair(it->second, inserted);
    };
    NameSet inputs;
    inputs.reserve(static_cast<size_t>(g.input_size()));
    for (const ValueInfoProto& vi : g.input()) {
      if (vi.name().empty()) {
        problems_->Add(ErrorCode::kGraphInvalid, where, "a graph input has an empty name");
      } else if (!inputs.insert(vi.name()).second) {
        problems_->Add(ErrorCode::kGraphInvalid, where, "duplicate graph input '", vi.name(), "'");
      }
      define(vi.name(), -1);
    }
    NameSet inits;
    auto add_init = [&](const std::string& name) {
      if (name.empty()) {
        problems_->Add(ErrorCode::kGraphInvalid, where, "an initializer has an empty name");
      } else if (!inits.insert(name).second) {
        problems_->Add(ErrorCode::kGraphInvalid, where, "duplicate initializer '", name, "'");
      }
      define(name, -1);
    };
    for (const onnx::TensorProto& t : g.initializer()) add_init(t.name());
    for (const onnx::SparseTensorProto& t : g.sparse_initializer()) add_init(t.values().name());

    // Pass 1 (node names, outputs, input ids): an input is looked up right
    // after its producer defined it (cache-friendly); one not defined yet
    // (kOuter here) is looked up again in pass 2, once every output is.
    NameSet node_names;
    for (int i = 0; i < n_nodes; ++i) {
      const NodeProto& n = g.node(i);
      if (!n.name().empty() && !node_names.insert(n.name()).second) {
        problems_->Add(ErrorCode::kGraphInvalid, where, "duplicate node name '", n.name(), "'");
      }
      index.in_begin.push_back(static_cast<int32_t>(index.in_ids.size()));
      // Most inputs are outputs of the node just before (models are mostly
      // chains): those are matched without a hash lookup.
      const NodeProto* prev = i > 0 ? &g.node(i - 1) : nullptr;
      const int32_t* prev_ids =
          i > 0 ? index.out_ids.data() + index.out_begin[static_cast<size_t>(i) - 1] : nullptr;
      for (const std::string& in : n.input()) {
        if (in.empty()) {
          index.in_ids.push_back(GraphIndex::kEmpty);
          continue;
        }
        int32_t id = GraphIndex::kOuter;
        bool matched = false;
        for (int k = 0; prev != nullptr && k < prev->output_size(); ++k) {
          if (prev->output(k) == in) {
            id = prev_ids[k];
            matched = true;
            break;
          }
        }
        if (!matched) id = index.Find(in);
        index.in_ids.push_back(id);
      }
      index.out_begin.push_back(static_cast<int32_t>(index.out_ids.size()));
      for (const std::string& o : n.output()) {
        if (o.empty()) {
          index.out_ids.push_back(GraphIndex::kEmpty);
          continue;
        }
        const auto [id, inserted] = define(o, i);
        index.out_ids.push_back(id);
        if (!inserted) {
          problems_->Add(ErrorCode::kGraphInvalid, where, NodeLabel(n, i), ": output '", o,
                         "' is already defined (values must be assigned once)");
        }
      }
    }
    index.in_begin.push_back(static_cast<int32_t>(index.in_ids.size()));
    index.out_begin.push_back(static_cast<int32_t>(index.out_ids.size()));
    auto in_outer = [&](const std::string& name) {
      for (const GraphIndex* s : outer) {
        if (s->ids.contains(name)) return true;
      }
      return false;
    };
    std::vector<const GraphIndex*> inner_outer = outer;
    inner_outer.push_back(&index);
    for (int i = 0; i < n_nodes; ++i) {
      const NodeProto& n = g.node(i);
      auto label = [&]() { return absl::StrCat(where, NodeLabel(n, i), ": "); };
      StatusOr<OpLookup> op = ops_->Find(n);
      if (!op.ok() && !onnx_parser::CanInline(model_, n, DomainOpset(n.domain()))) {
        problems_->AddStatus(op.status(), label());
      } else if (!has_default_opset_ && onnx_parser::CanonicalDomain(n.domain()).empty()) {
        problems_->Add(ErrorCode::kGraphInvalid, label(),
                       "the model imports no opset of the default ONNX domain");
      }
      int32_t* in_ids = index.in_ids.data() + index.in_begin[static_cast<size_t>(i)];
      for (int k = 0; k < n.input_size(); ++k) {
        if (in_ids[k] != GraphIndex::kOuter) continue;
        const std::string& in = n.input(k);
        in_ids[k] = index.Find(in);  // defined by a later node (or here)?
        if (in_ids[k] < 0 && !in_outer(in)) {
          problems_->Add(ErrorCode::kGraphInvalid, label(), "input '", in,
                         "' is not defined (no graph input, initializer or node output has "
                         "this name)");
        }
      }
      for (const AttributeProto& a : n.attribute()) {
        if (a.has_g()) Check(a.g(), SubgraphPath(path, n, i, a.name()), inner_outer, false);
        for (int k = 0; k < a.graphs_size(); ++k) {
          Check(a.graphs(k), SubgraphPath(path, n, i, absl::StrCat(a.name(), k)), inner_outer,
                false);
        }
      }
    }
    if (is_root && g.output_size() == 0) {
      problems_->Add(ErrorCode::kGraphInvalid, where, "the graph has no outputs");
    }
    for (const ValueInfoProto& vi : g.output()) {
      if (!index.ids.contains(vi.name()) && !in_outer(vi.name())) {
        problems_->Add(ErrorCode::kGraphInvalid, where, "graph output '", vi.name(),
                       "' is not produced by any node, input or initializer");
      }
    }
  }

 private:
  int64_t DomainOpset(const std::string& domain) const {
    auto it = opsets_.find(onnx_parser::CanonicalDomain(domain));
    return it == opsets_.end() ? 0 : it->second;
  }

  const ModelProto& model_;
  const absl::flat_hash_map<std::string, int64_t> opsets_;
  OpResolver* ops_;
  Problems* problems_;
  bool has_default_opset_;
  GraphIndex root_index_;
};

}  // namespace

GraphIndex ValidateModel(const ModelProto& model, const std::string& root_name, OpResolver* ops,
                         Problems* problems) {
  Validator validator(model, ops, problems);
  validator.Check(model.graph(), root_name, {}, /*is_root=*/true);
  return validator.TakeRootIndex();
}
}  // namespace onnx_parser
}  // namespace ge
