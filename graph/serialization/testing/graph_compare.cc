// graph/serialization/testing/graph_compare.cc
#include "graph/serialization/testing/graph_compare.h"

#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/serialization/inc/graph_text.h"

namespace ge {
namespace testing {
namespace {

template <typename T>
Status Diff(const char* what, const T& a, const T& b) {
  return GraphInvalid(what, ": ", a, " vs ", b);
}

#define GE_CMP(what, a, b)                                  \
  do {                                                      \
    const auto& ge_a_ = (a);                                \
    const auto& ge_b_ = (b);                                \
    if (!(ge_a_ == ge_b_)) return Diff(what, ge_a_, ge_b_); \
  } while (false)

#define GE_CMP_LIST(what, a, b)                                             \
  do {                                                                      \
    const auto& ge_a_ = (a);                                                \
    const auto& ge_b_ = (b);                                                \
    if (!(ge_a_ == ge_b_)) {                                                \
      return GraphInvalid(what, ": [", absl::StrJoin(ge_a_, ","), "] vs [", \
                          absl::StrJoin(ge_b_, ","), "]");                  \
    }                                                                       \
  } while (false)

Status Within(const Status& st, const std::string& where) {
  return st.ok() ? st : Annotate(st, where, " / ");
}

bool SameFloatBits(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }

std::string PeerString(const Anchor* p) {
  if (p == nullptr) return "";
  const Node* n = p->GetOwnerNodeBarePtr();
  return absl::StrCat(n == nullptr ? "<null>" : n->GetName(), ":", p->GetIdx(),
                      p->IsInControl() || p->IsOutControl() ? "c" : "d");
}

std::vector<std::string> Peers(const Anchor& a) {
  std::vector<std::string> out;
  for (const Anchor* p : a.PeerAnchors()) out.push_back(PeerString(p));
  return out;
}

template <typename E, typename Fn>
Status CompareVectors(const char* what, const std::vector<E>& a, const std::vector<E>& b, Fn fn) {
  if (a.size() != b.size())
    return GraphInvalid(what, ": ", a.size(), " vs ", b.size(), " elements");
  for (size_t i = 0; i < a.size(); ++i) {
    RETURN_IF_ERROR(Within(fn(a[i], b[i]), absl::StrCat(what, "[", i, "]")));
  }
  return OkStatus();
}

Status CompareNamedAttrs(const NamedAttrs& a, const NamedAttrs& b) {
  GE_CMP("named attrs name", a.GetName(), b.GetName());
  return CompareAttrStores(a.GetAttrStore(), b.GetAttrStore());
}

Status CompareTensors(const GeTensor& a, const GeTensor& b) {
  RETURN_IF_ERROR(CompareTensorDescs(a.GetTensorDesc(), b.GetTensorDesc()));
  const auto da = a.GetData();
  const auto db = b.GetData();
  if (da.size() != db.size() ||
      (!da.empty() && std::memcmp(da.data(), db.data(), da.size()) != 0)) {
    return GraphInvalid("tensor data differ (", da.size(), " vs ", db.size(), " bytes)");
  }
  return OkStatus();
}

Status CompareGraphPtrs(const ComputeGraphPtr& a, const ComputeGraphPtr& b) {
  if (a == nullptr || b == nullptr) {
    if (a != b) return GraphInvalid("graph: null vs non-null");
    return OkStatus();
  }
  return CompareGraphs(*a, *b);
}

Status CompareOpDescs(const OpDesc& a, const OpDesc& b) {
  GE_CMP("name", a.GetName(), b.GetName());
  GE_CMP("type", a.GetType(), b.GetType());
  GE_CMP("id", a.GetId(), b.GetId());
  GE_CMP("stream id", a.GetStreamId(), b.GetStreamId());
  GE_CMP("input count", a.GetAllInputsSize(), b.GetAllInputsSize());
  for (uint32_t i = 0; i < a.GetAllInputsSize(); ++i) {
    GE_CMP(absl::StrCat("input ", i, " name").c_str(), a.GetInputNameByIndex(i),
           b.GetInputNameByIndex(i));
    GE_CMP(absl::StrCat("input ", i, " optional").c_str(), a.IsOptionalInput(i),
           b.IsOptionalInput(i));
    RETURN_IF_ERROR(Within(CompareTensorDescs(*a.GetInputDescBarePtr(i), *b.GetInputDescBarePtr(i)),
                           absl::StrCat("input desc ", i)));
  }
  GE_CMP("output count", a.GetAllOutputsDescSize(), b.GetAllOutputsDescSize());
  for (uint32_t i = 0; i < a.GetAllOutputsDescSize(); ++i) {
    GE_CMP(absl::StrCat("output ", i, " name").c_str(), a.GetOutputNameByIndex(i),
           b.GetOutputNameByIndex(i));
    RETURN_IF_ERROR(
        Within(CompareTensorDescs(*a.GetOutputDescBarePtr(i), *b.GetOutputDescBarePtr(i)),
               absl::StrCat("output desc ", i)));
  }
  auto ir_in = [](const OpDesc& o) {
    std::vector<std::string> v;
    for (const auto& [n, k] : o.GetIrInputs()) v.push_back(absl::StrCat(n, "/", k));
    return v;
  };
  auto ir_out = [](const OpDesc& o) {
    std::vector<std::string> v;
    for (const auto& [n, k] : o.GetIrOutputs()) v.push_back(absl::StrCat(n, "/", k));
    return v;
  };
  auto ir_sub = [](const OpDesc& o) {
    std::vector<std::string> v;
    for (const auto& [n, k] : o.GetOrderedSubgraphIrNames()) v.push_back(absl::StrCat(n, "/", k));
    return v;
  };
  auto slots = [](const OpDesc& o) {
    std::vector<std::string> v;
    for (const auto& [n, k] : o.GetSubgraphNameIndexes()) v.push_back(absl::StrCat(n, "=", k));
    return v;
  };
  GE_CMP_LIST("IR inputs", ir_in(a), ir_in(b));
  GE_CMP_LIST("IR outputs", ir_out(a), ir_out(b));
  GE_CMP_LIST("IR subgraphs", ir_sub(a), ir_sub(b));
  GE_CMP_LIST("IR attr names", a.GetIrAttrNames(), b.GetIrAttrNames());
  GE_CMP_LIST("subgraph slots", slots(a), slots(b));
  GE_CMP_LIST("subgraph instances", a.GetSubgraphInstanceNames(), b.GetSubgraphInstanceNames());
  GE_CMP_LIST("input offsets", a.GetInputOffset(), b.GetInputOffset());
  GE_CMP_LIST("output offsets", a.GetOutputOffset(), b.GetOutputOffset());
  GE_CMP_LIST("workspace", a.GetWorkspace(), b.GetWorkspace());
  GE_CMP_LIST("workspace bytes", a.GetWorkspaceBytes(), b.GetWorkspaceBytes());
  GE_CMP_LIST("src names", a.GetSrcName(), b.GetSrcName());
  GE_CMP_LIST("src indices", a.GetSrcIndex(), b.GetSrcIndex());
  GE_CMP_LIST("dst names", a.GetDstName(), b.GetDstName());
  GE_CMP_LIST("dst indices", a.GetDstIndex(), b.GetDstIndex());
  GE_CMP_LIST("is input const", a.GetIsInputConst(), b.GetIsInputConst());
  GE_CMP("engine name", a.GetOpEngineName(), b.GetOpEngineName());
  GE_CMP("kernel lib name", a.GetOpKernelLibName(), b.GetOpKernelLibName());
  return Within(CompareAttrStores(a.GetAttrStore(), b.GetAttrStore()), "attrs");
}

Status CompareNodes(const Node& a, const Node& b) {
  RETURN_IF_ERROR(CompareOpDescs(*a.GetOpDescBarePtr(), *b.GetOpDescBarePtr()));
  GE_CMP("in data anchors", a.GetAllInDataAnchorsSize(), b.GetAllInDataAnchorsSize());
  GE_CMP("out data anchors", a.GetAllOutDataAnchorsSize(), b.GetAllOutDataAnchorsSize());
  for (size_t i = 0; i < a.GetAllInDataAnchorsSize(); ++i) {
    GE_CMP_LIST(absl::StrCat("in anchor ", i, " peers").c_str(),
                Peers(*a.GetInDataAnchorBarePtr(static_cast<int32_t>(i))),
                Peers(*b.GetInDataAnchorBarePtr(static_cast<int32_t>(i))));
  }
  for (size_t i = 0; i < a.GetAllOutDataAnchorsSize(); ++i) {
    GE_CMP_LIST(absl::StrCat("out anchor ", i, " peers").c_str(),
                Peers(*a.GetOutDataAnchorBarePtr(static_cast<int32_t>(i))),
                Peers(*b.GetOutDataAnchorBarePtr(static_cast<int32_t>(i))));
  }
  GE_CMP_LIST("in control peers", Peers(*a.GetInControlAnchorBarePtr()),
              Peers(*b.GetInControlAnchorBarePtr()));
  GE_CMP_LIST("out control peers", Peers(*a.GetOutControlAnchorBarePtr()),
              Peers(*b.GetOutControlAnchorBarePtr()));
  return OkStatus();
}

Status CompareGraphBodies(const ComputeGraph& a, const ComputeGraph& b) {
  GE_CMP("name", a.GetName(), b.GetName());
  GE_CMP("graph id", a.GetGraphID(), b.GetGraphID());
  RETURN_IF_ERROR(Within(CompareAttrStores(a.GetAttrStore(), b.GetAttrStore()), "graph attrs"));
  GE_CMP("node count", a.GetDirectNodesSize(), b.GetDirectNodesSize());
  auto ia = a.DirectNodes().begin();
  auto ib = b.DirectNodes().begin();
  for (; ia != a.DirectNodes().end(); ++ia, ++ib) {
    RETURN_IF_ERROR(
        Within(CompareNodes(**ia, **ib), absl::StrCat("node '", (*ia)->GetName(), "'")));
  }
  auto names = [](const std::vector<NodePtr>& v) {
    std::vector<std::string> out;
    for (const NodePtr& n : v) out.push_back(n == nullptr ? "<null>" : n->GetName());
    return out;
  };
  auto outs = [](const ComputeGraph& g) {
    std::vector<std::string> out;
    for (const auto& [n, i] : g.GetGraphOutNodesInfo()) {
      out.push_back(absl::StrCat(n == nullptr ? "<null>" : n->GetName(), ":", i));
    }
    return out;
  };
  GE_CMP_LIST("input nodes", names(a.GetInputNodes()), names(b.GetInputNodes()));
  GE_CMP_LIST("output nodes", outs(a), outs(b));
  return OkStatus();
}

std::string RegisteredNameOf(const ComputeGraph& registry, const ComputeGraphPtr& sg) {
  if (registry.GetSubgraph(sg->GetName()) == sg) return sg->GetName();
  const NodePtr parent = sg->GetParentNode();
  if (parent != nullptr) {
    for (const std::string& inst : parent->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
      if (!inst.empty() && registry.GetSubgraph(inst) == sg) return inst;
    }
  }
  return "<unknown>";
}

}  // namespace

std::vector<ComputeGraphPtr> TreeSubgraphs(const ComputeGraph& graph) {
  return SubgraphsBelow(graph);
}

Status CompareTensorDescs(const GeTensorDesc& a, const GeTensorDesc& b) {
  GeTensorDesc ca(a);
  GeTensorDesc cb(b);
  ca.MutableAttrStore().Clear();
  cb.MutableAttrStore().Clear();
  if (!(ca == cb)) {
    return GraphInvalid(
        "tensor desc fields differ: ", a.DebugString(), " origin ", a.GetOriginShape().ToString(),
        " name '", a.GetName(), "' real ", a.GetRealDimCnt(), " vs ", b.DebugString(), " origin ",
        b.GetOriginShape().ToString(), " name '", b.GetName(), "' real ", b.GetRealDimCnt());
  }
  return Within(CompareAttrStores(a.GetAttrStore(), b.GetAttrStore()), "desc attrs");
}

Status CompareAttrStores(const AttrStore& a, const AttrStore& b) {
  GE_CMP_LIST("attribute names", a.GetAllNames(), b.GetAllNames());
  for (size_t i = 0; i < a.size(); ++i) {
    RETURN_IF_ERROR(Within(CompareAttrValues(a.ValueAt(i), b.ValueAt(i)),
                           absl::StrCat("attr '", a.NameAt(i), "'")));
  }
  return OkStatus();
}

Status CompareAttrValues(const AttrValue& a, const AttrValue& b) {
  if (a.GetValueType() != b.GetValueType()) {
    return GraphInvalid("value type ", AttrValue::ValueTypeName(a.GetValueType()), " vs ",
                        AttrValue::ValueTypeName(b.GetValueType()));
  }
  switch (a.GetValueType()) {
    case AttrValue::VT_FLOAT:
      if (!SameFloatBits(*a.Get<float>(), *b.Get<float>())) {
        return Diff("float", *a.Get<float>(), *b.Get<float>());
      }
      return OkStatus();
    case AttrValue::VT_LIST_FLOAT:
      return CompareVectors(
          "list_float", *a.Get<std::vector<float>>(), *b.Get<std::vector<float>>(),
          [](float x, float y) { return SameFloatBits(x, y) ? OkStatus() : Diff("float", x, y); });
    case AttrValue::VT_LIST_LIST_FLOAT:
      return CompareVectors("list_list_float", *a.Get<std::vector<std::vector<float>>>(),
                            *b.Get<std::vector<std::vector<float>>>(),
                            [](const std::vector<float>& x, const std::vector<float>& y) {
                              return CompareVectors("inner", x, y, [](float p, float q) {
                                return SameFloatBits(p, q) ? OkStatus() : Diff("float", p, q);
                              });
                            });
    case AttrValue::VT_TENSOR_DESC:
      return CompareTensorDescs(*a.Get<GeTensorDesc>(), *b.Get<GeTensorDesc>());
    case AttrValue::VT_LIST_TENSOR_DESC:
      return CompareVectors("list_tensor_desc", *a.Get<std::vector<GeTensorDesc>>(),
                            *b.Get<std::vector<GeTensorDesc>>(), CompareTensorDescs);
    case AttrValue::VT_TENSOR:
      return CompareTensors(*a.Get<GeTensor>(), *b.Get<GeTensor>());
    case AttrValue::VT_LIST_TENSOR:
      return CompareVectors("list_tensor", *a.Get<std::vector<GeTensor>>(),
                            *b.Get<std::vector<GeTensor>>(), CompareTensors);
    case AttrValue::VT_GRAPH:
      return CompareGraphPtrs(*a.Get<ComputeGraphPtr>(), *b.Get<ComputeGraphPtr>());
    case AttrValue::VT_LIST_GRAPH:
      return CompareVectors("list_graph", *a.Get<std::vector<ComputeGraphPtr>>(),
                            *b.Get<std::vector<ComputeGraphPtr>>(), CompareGraphPtrs);
    case AttrValue::VT_NAMED_ATTRS:
      return CompareNamedAttrs(*a.Get<NamedAttrs>(), *b.Get<NamedAttrs>());
    case AttrValue::VT_LIST_NAMED_ATTRS:
      return CompareVectors("list_named_attrs", *a.Get<std::vector<NamedAttrs>>(),
                            *b.Get<std::vector<NamedAttrs>>(), CompareNamedAttrs);
    default:
      if (!(a == b)) {
        return GraphInvalid("values of type ", AttrValue::ValueTypeName(a.GetValueType()),
                            " differ");
      }
      return OkStatus();
  }
}

Status CompareGraphs(const ComputeGraph& a, const ComputeGraph& b) {
  const std::string where = absl::StrCat("graph '", a.GetName(), "'");
  RETURN_IF_ERROR(Within(CompareGraphBodies(a, b), where));
  const std::vector<ComputeGraphPtr> sa = TreeSubgraphs(a);
  const std::vector<ComputeGraphPtr> sb = TreeSubgraphs(b);
  if (sa.size() != sb.size()) {
    return GraphInvalid(where, ": ", sa.size(), " vs ", sb.size(), " subgraphs");
  }
  for (size_t i = 0; i < sa.size(); ++i) {
    const std::string sub = absl::StrCat(where, " / subgraph ", i, " '", sa[i]->GetName(), "'");
    RETURN_IF_ERROR(Within(CompareGraphBodies(*sa[i], *sb[i]), sub));
    GE_CMP(absl::StrCat(sub, " registered name").c_str(),
           RegisteredNameOf(*a.GetRootGraphBarePtr(), sa[i]),
           RegisteredNameOf(*b.GetRootGraphBarePtr(), sb[i]));
    const ComputeGraph* pa = sa[i]->GetParentGraphBarePtr();
    const ComputeGraph* pb = sb[i]->GetParentGraphBarePtr();
    GE_CMP(absl::StrCat(sub, " parent graph").c_str(), pa == nullptr ? "" : pa->GetName(),
           pb == nullptr ? "" : pb->GetName());
    const NodePtr na = sa[i]->GetParentNode();
    const NodePtr nb = sb[i]->GetParentNode();
    GE_CMP(absl::StrCat(sub, " parent node").c_str(), na == nullptr ? "" : na->GetName(),
           nb == nullptr ? "" : nb->GetName());
  }
  return OkStatus();
}

#undef GE_CMP
#undef GE_CMP_LIST

}  // namespace testing
}  // namespace ge
