// graph/serialization/testing/random_graph.cc
#include "graph/serialization/testing/random_graph.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace testing {
namespace {

void Check(const Status& st, const char* what) {
  if (!st.ok()) {
    std::fprintf(stderr, "RandomGraph: %s failed: %s\n", what, st.ToString().c_str());
    std::abort();
  }
}

template <typename T>
T CheckValue(StatusOr<T> v, const char* what) {
  Check(v.status(), what);
  return std::move(v).value();
}

uint64_t Uniform(std::mt19937_64& rng, uint64_t n) { return n == 0 ? 0 : rng() % n; }
bool Chance(std::mt19937_64& rng, int percent) { return static_cast<int>(rng() % 100) < percent; }

template <typename T>
const T& Pick(std::mt19937_64& rng, const std::vector<T>& v) {
  return v[Uniform(rng, v.size())];
}

const std::vector<DataType>& DataTypes() {
  static const std::vector<DataType>* const kTypes = [] {
    auto* v = new std::vector<DataType>();
    for (int32_t t = 0; t < DT_MAX; ++t) {
      if (t != 5) v->push_back(static_cast<DataType>(t));  // 5 is a hole
    }
    return v;
  }();
  return *kTypes;
}

Format RandomFormat(std::mt19937_64& rng) {
  static const std::vector<Format> kPlain = {
      FORMAT_NCHW,         FORMAT_NHWC,        FORMAT_ND,     FORMAT_NC1HWC0, FORMAT_FRACTAL_Z,
      FORMAT_HWCN,         FORMAT_FRACTAL_NZ,  FORMAT_NDHWC,  FORMAT_NCDHW,   FORMAT_NDC1HWC0,
      FORMAT_FRACTAL_Z_3D, FORMAT_NC1HWC0_C04, FORMAT_C1HWC0, FORMAT_CHWN,    FORMAT_RESERVED};
  const Format f = Pick(rng, kPlain);
  if (Chance(rng, 20) && f != FORMAT_RESERVED) {
    // Packed sub-format and / or C0 (C0 code 5 = 16, 6 = 32).
    const int32_t sub = static_cast<int32_t>(Uniform(rng, 4));
    const int32_t c0 = Chance(rng, 50) ? 5 + static_cast<int32_t>(Uniform(rng, 2)) : 0;
    return static_cast<Format>(GetFormatFromSubAndC0(f, sub, c0));
  }
  return f;
}

GeShape RandomShape(std::mt19937_64& rng) {
  switch (Uniform(rng, 8)) {
    case 0:
      return GeShape();  // scalar
    case 1:
      return GeShape({UNKNOWN_RANK});
    default: {
      std::vector<int64_t> dims(1 + Uniform(rng, 5));
      for (int64_t& d : dims)
        d = Chance(rng, 20) ? UNKNOWN_DIM : static_cast<int64_t>(Uniform(rng, 65));
      return GeShape(dims);
    }
  }
}

GeTensorDesc::ShapeRange RangeFor(std::mt19937_64& rng, const GeShape& shape) {
  GeTensorDesc::ShapeRange range;
  for (int64_t d : shape.GetDims()) {
    if (d >= 0) {
      range.emplace_back(d, Chance(rng, 50) ? d : -1);
    } else {
      range.emplace_back(1, Chance(rng, 50) ? -1 : 100);
    }
  }
  return range;
}

std::string RandomString(std::mt19937_64& rng, size_t max_len) {
  std::string s(Uniform(rng, max_len + 1), ' ');
  for (char& c : s) c = static_cast<char>(Uniform(rng, 256));  // any byte, NUL included
  return s;
}

AttrValue::Bytes RandomBytes(std::mt19937_64& rng, size_t max_len) {
  AttrValue::Bytes b(Uniform(rng, max_len + 1));
  for (uint8_t& x : b) x = static_cast<uint8_t>(rng());
  return b;
}

float RandomFloat(std::mt19937_64& rng) {
  static const std::vector<float> kSpecial = {0.0f,
                                              -0.0f,
                                              1.5f,
                                              -3.25e-7f,
                                              std::numeric_limits<float>::infinity(),
                                              std::numeric_limits<float>::max(),
                                              std::numeric_limits<float>::denorm_min()};
  if (Chance(rng, 30)) return Pick(rng, kSpecial);
  return static_cast<float>(static_cast<int64_t>(rng() % 2000001) - 1000000) / 1024.0f;
}

int64_t RandomInt(std::mt19937_64& rng) {
  static const std::vector<int64_t> kSpecial = {0, -1, std::numeric_limits<int64_t>::min(),
                                                std::numeric_limits<int64_t>::max()};
  if (Chance(rng, 20)) return Pick(rng, kSpecial);
  return static_cast<int64_t>(rng() % 200001) - 100000;
}

GeTensor RandomTensor(std::mt19937_64& rng) {
  GeTensorDesc desc = RandomTensorDesc(rng, false);
  if (Chance(rng, 20)) return GeTensor(desc);
  const AttrValue::Bytes data = RandomBytes(rng, 64);
  return GeTensor(desc, data);
}

ComputeGraphPtr BuildRandom(uint64_t seed, const RandomGraphOptions& options,
                            const std::string& name);

ComputeGraphPtr SmallGraph(std::mt19937_64& rng, int depth) {
  RandomGraphOptions o;
  o.num_nodes = 3 + static_cast<int>(Uniform(rng, 3));
  o.with_subgraphs = Chance(rng, 50);
  o.attr_graph_depth = depth;
  return BuildRandom(rng(), o, absl::StrCat("attr_graph_", Uniform(rng, 1000)));
}

NamedAttrs RandomNamedAttrs(std::mt19937_64& rng, int depth) {
  NamedAttrs na(absl::StrCat("func_", Uniform(rng, 100)));
  Check(na.SetAttr("x", AttrValue::CreateFrom<int64_t>(RandomInt(rng))), "named attr x");
  Check(na.SetAttr("s", AttrValue::CreateFrom<std::string>(RandomString(rng, 8))), "named attr s");
  if (depth > 0) {
    Check(na.SetAttr("inner", AttrValue::CreateFrom<NamedAttrs>(RandomNamedAttrs(rng, depth - 1))),
          "named attr inner");
  }
  return na;
}

std::vector<std::pair<std::string, AttrValue>> AttrTypes(std::mt19937_64& rng, int graph_depth,
                                                         bool include_graphs);

// Every type (graphs of depth graph_depth) or a random subset of the types
// that hold no graph.
void AddAttrs(std::mt19937_64& rng, AttrHolder* holder, int graph_depth, bool all_types) {
  const auto values = AttrTypes(rng, graph_depth, all_types);
  for (const auto& [name, value] : values) {
    if (!all_types && !Chance(rng, 15)) continue;
    Check(holder->SetAttr(absl::StrCat("_", name), value), "SetAttr");
  }
}

OpDescPtr RandomOp(std::mt19937_64& rng, const std::string& name, const std::string& type,
                   int graph_depth, bool all_attrs) {
  auto op = std::make_shared<OpDesc>(name, type);
  const int n_in = type == DATA ? 0 : static_cast<int>(Uniform(rng, 4));
  for (int i = 0; i < n_in; ++i) {
    GeTensorDesc desc = RandomTensorDesc(rng, Chance(rng, 10));
    switch (Uniform(rng, 5)) {
      case 0:
        Check(op->AddInputDesc(absl::StrCat("x", i), desc), "AddInputDesc(name)");
        break;
      case 1: {
        if (Chance(rng, 50)) {  // an absent optional input
          desc = GeTensorDesc(GeShape(), FORMAT_RESERVED, DT_UNDEFINED);
        }
        Check(op->AddOptionalInputDesc(absl::StrCat("opt", i), desc), "AddOptionalInputDesc");
        break;
      }
      case 2:
        Check(op->AddDynamicInputDesc(absl::StrCat("dyn", i, "_"), 2), "AddDynamicInputDesc");
        break;
      default:
        Check(op->AddInputDesc(desc), "AddInputDesc");
    }
  }
  const int n_out = 1 + static_cast<int>(Uniform(rng, 3));
  for (int i = 0; i < n_out; ++i) {
    const GeTensorDesc desc = RandomTensorDesc(rng, Chance(rng, 10));
    if (Chance(rng, 30)) {
      Check(op->AddOutputDesc(absl::StrCat("y", i), desc), "AddOutputDesc(name)");
    } else {
      Check(op->AddOutputDesc(desc), "AddOutputDesc");
    }
  }
  if (Chance(rng, 40)) {
    Check(op->AppendIrInput("x", kIrInputRequired), "AppendIrInput");
    Check(op->AppendIrInput("opt", kIrInputOptional), "AppendIrInput");
    Check(op->AppendIrInput("dyn", kIrInputDynamic), "AppendIrInput");
    Check(op->AppendIrOutput("y", kIrOutputRequired), "AppendIrOutput");
    Check(op->AppendIrOutput("ys", kIrOutputDynamic), "AppendIrOutput");
    Check(op->AppendIrAttrName("axis"), "AppendIrAttrName");
  }
  if (Chance(rng, 30)) {
    op->SetStreamId(static_cast<int64_t>(Uniform(rng, 4)));
    op->SetInputOffset({RandomInt(rng), 64});
    op->SetOutputOffset({128});
    op->SetWorkspace({0, 512});
    op->SetWorkspaceBytes({512, 1024});
    op->SetOpEngineName("AIcoreEngine");
    op->SetOpKernelLibName("AIcoreKernel");
    op->SetSrcName({"a", "b"});
    op->SetSrcIndex({0, 1});
    op->SetDstName({"c"});
    op->SetDstIndex({2});
    op->SetIsInputConst({true, false, true});
  }
  if (all_attrs) {
    AddAttrs(rng, op.get(), graph_depth, true);
  } else if (Chance(rng, 50)) {
    AddAttrs(rng, op.get(), graph_depth, false);
  }
  return op;
}

struct PlannedEdge {
  Anchor* from;
  Anchor* to;
};

// Adds a subgraph under `parent` (a node of `parent_graph`) registered at
// `root` under `reg_name`.
ComputeGraphPtr AddSubgraph(std::mt19937_64& rng, const ComputeGraphPtr& root,
                            const ComputeGraphPtr& parent_graph, const NodePtr& parent,
                            const std::string& graph_name, const std::string& reg_name,
                            const std::string& slot) {
  auto sg = std::make_shared<ComputeGraph>(graph_name);
  auto data_op = std::make_shared<OpDesc>(absl::StrCat(graph_name, "_data"), DATA);
  Check(data_op->AddInputDesc(RandomTensorDesc(rng, false)), "data input");
  Check(data_op->AddOutputDesc(RandomTensorDesc(rng, false)), "data output");
  Check(data_op->SetAttr(ATTR_NAME_PARENT_NODE_INDEX, AttrValue::CreateFrom<int64_t>(0)),
        "parent idx");
  auto body_op = RandomOp(rng, absl::StrCat(graph_name, "_body"), "Relu", 0, false);
  auto out_op = std::make_shared<OpDesc>(absl::StrCat(graph_name, "_out"), NETOUTPUT);
  Check(out_op->AddInputDesc(RandomTensorDesc(rng, false)), "netoutput input");
  NodePtr data = CheckValue(sg->AddNode(data_op), "AddNode");
  NodePtr body = CheckValue(sg->AddNode(body_op), "AddNode");
  NodePtr out = CheckValue(sg->AddNode(out_op), "AddNode");
  if (body->GetAllInDataAnchorsSize() > 0) {
    Check(data->GetOutDataAnchorBarePtr(0)->LinkTo(body->GetInDataAnchorBarePtr(0)), "link");
  }
  Check(body->GetOutDataAnchorBarePtr(0)->LinkTo(out->GetInDataAnchorBarePtr(0)), "link");
  Check(sg->AddOutputNodeByIndex(body, 0), "AddOutputNodeByIndex");
  sg->SetParentGraph(parent_graph);
  sg->SetParentNode(parent);
  OpDesc& pop = *parent->GetOpDescBarePtr();
  Check(pop.AddSubgraphName(slot), "AddSubgraphName");
  Check(pop.SetSubgraphInstanceName(
            static_cast<uint32_t>(pop.GetSubgraphInstanceNames().size() - 1), reg_name),
        "SetSubgraphInstanceName");
  Check(root->AddSubgraph(reg_name, sg), "AddSubgraph");
  return sg;
}

ComputeGraphPtr BuildRandom(uint64_t seed, const RandomGraphOptions& options,
                            const std::string& name) {
  std::mt19937_64 rng(seed);
  auto graph = std::make_shared<ComputeGraph>(name);
  if (Chance(rng, 50)) graph->SetGraphID(static_cast<uint32_t>(Uniform(rng, 1000)));
  AddAttrs(rng, graph.get(), options.attr_graph_depth, options.attr_graph_depth > 0);

  static const std::vector<std::string> kTypes = {"Add",    "Conv2D", "Relu", CONSTANT,
                                                  "MatMul", "Custom", DATA};
  std::vector<NodePtr> nodes;
  for (int i = 0; i < options.num_nodes; ++i) {
    std::string type = i == 0 ? std::string(DATA) : Pick(rng, kTypes);
    std::string node_name = absl::StrCat(name, "/n", i);
    if (Chance(rng, 10)) node_name += ":x:1";  // colons inside names
    const bool all_attrs = i == 1 && options.attr_graph_depth > 0;
    OpDescPtr op = RandomOp(rng, node_name, type, options.attr_graph_depth - 1, all_attrs);
    NodePtr node = CheckValue(graph->AddNode(op), "AddNode");
    if (Chance(rng, 20)) op->SetId(RandomInt(rng));
    if (Chance(rng, 5)) Check(node->AppendInDataAnchors(1), "AppendInDataAnchors");
    if (Chance(rng, 5)) Check(node->AppendOutDataAnchors(1), "AppendOutDataAnchors");
    nodes.push_back(node);
  }
  // Edges from earlier to later nodes (a DAG), linked in random order.
  std::vector<PlannedEdge> edges;
  for (size_t d = 1; d < nodes.size(); ++d) {
    Node& dst = *nodes[d];
    for (size_t i = 0; i < dst.GetAllInDataAnchorsSize(); ++i) {
      if (!Chance(rng, 75)) continue;  // leave unconnected
      Node& src = *nodes[Uniform(rng, d)];
      Anchor* to = dst.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
      if (Chance(rng, 5) || src.GetAllOutDataAnchorsSize() == 0) {
        edges.push_back({src.GetOutControlAnchorBarePtr(), to});  // control -> data
      } else {
        edges.push_back({src.GetOutDataAnchorBarePtr(
                             static_cast<int32_t>(Uniform(rng, src.GetAllOutDataAnchorsSize()))),
                         to});
      }
    }
    const int n_ctrl = static_cast<int>(Uniform(rng, 3));
    std::vector<size_t> srcs;
    for (int k = 0; k < n_ctrl; ++k) {
      const size_t s = Uniform(rng, d);
      if (std::find(srcs.begin(), srcs.end(), s) != srcs.end()) continue;
      srcs.push_back(s);
      Node& src = *nodes[s];
      if (Chance(rng, 25) && src.GetAllOutDataAnchorsSize() > 0) {
        edges.push_back({src.GetOutDataAnchorBarePtr(0), dst.GetInControlAnchorBarePtr()});
      } else {
        edges.push_back({src.GetOutControlAnchorBarePtr(), dst.GetInControlAnchorBarePtr()});
      }
    }
  }
  std::shuffle(edges.begin(), edges.end(), rng);
  for (const PlannedEdge& e : edges) {
    if (e.to->IsInData() && e.to->IsLinked()) continue;
    Check(e.from->LinkWith(e.to), "LinkWith");
  }
  // Inputs: the Data nodes, plus or minus one.
  if (nodes.size() > 2 && Chance(rng, 30)) Check(graph->AddInputNode(nodes[2]), "AddInputNode");
  if (Chance(rng, 20) && !graph->GetInputNodes().empty()) {
    Check(graph->RemoveInputNode(graph->GetInputNodes().front()), "RemoveInputNode");
  }
  for (size_t k = 0; k < std::min<size_t>(2, nodes.size()); ++k) {
    const NodePtr& n = nodes[nodes.size() - 1 - k];
    if (n->GetAllOutDataAnchorsSize() > 0) {
      Check(graph->AddOutputNodeByIndex(
                n, static_cast<int32_t>(Uniform(rng, n->GetAllOutDataAnchorsSize()))),
            "AddOutputNodeByIndex");
    }
  }
  if (options.with_subgraphs && nodes.size() >= 4) {
    // Two parents with a subgraph each; the first subgraph has a nested one;
    // the second is registered under an alias; one parentless subgraph.
    const NodePtr& p1 = nodes[nodes.size() / 2];
    const NodePtr& p2 = nodes[nodes.size() / 2 + 1];
    ComputeGraphPtr s1 =
        AddSubgraph(rng, graph, graph, p1, name + "_then", name + "_then", "then_branch");
    NodePtr inner_parent = s1->FindNode(name + "_then_body");
    AddSubgraph(rng, graph, s1, inner_parent, name + "_then_inner", name + "_then_inner", "body");
    AddSubgraph(rng, graph, graph, p2, name + "_else", name + "_else_alias", "else_branch");
    Check(p1->GetOpDescBarePtr()->RegisterSubgraphIrName("then_branch", kStatic), "IR subgraph");
    Check(p2->GetOpDescBarePtr()->RegisterSubgraphIrName("branches", kDynamic), "IR subgraph");
    p2->GetOpDescBarePtr()->AddSubgraphInstanceName("");  // an unbound instance without a slot
    auto loose = std::make_shared<ComputeGraph>(name + "_partition");
    CheckValue(loose->AddNode(RandomOp(rng, name + "_partition/n0", "Relu", 0, false)), "AddNode");
    Check(graph->AddSubGraph(loose), "AddSubGraph");
  }
  return graph;
}

}  // namespace

GeTensorDesc RandomTensorDesc(std::mt19937_64& rng, bool with_attrs) {
  const GeShape shape = RandomShape(rng);
  GeTensorDesc desc(shape, RandomFormat(rng), Pick(rng, DataTypes()));
  if (Chance(rng, 30)) desc.SetOriginShape(RandomShape(rng));
  if (Chance(rng, 30)) desc.SetOriginFormat(RandomFormat(rng));
  if (Chance(rng, 30)) desc.SetOriginDataType(Pick(rng, DataTypes()));
  if (!shape.IsUnknownDimNum() && !shape.IsScalar() && Chance(rng, 30)) {
    Check(desc.SetShapeRange(RangeFor(rng, shape)), "SetShapeRange");
    if (Chance(rng, 20)) desc.SetShape(GeShape({7}));  // the range goes stale
  }
  const GeShape& origin = desc.GetOriginShape();
  if (!origin.IsUnknownDimNum() && !origin.IsScalar() && Chance(rng, 20)) {
    Check(desc.SetOriginShapeRange(RangeFor(rng, origin)), "SetOriginShapeRange");
  }
  if (Chance(rng, 20)) desc.SetName(absl::StrCat("t", Uniform(rng, 100)));
  if (Chance(rng, 15)) {
    desc.SetRealDimCnt(Chance(rng, 50) ? static_cast<int64_t>(desc.GetShape().GetDimNum())
                                       : static_cast<int64_t>(Uniform(rng, 6)));
  }
  if (Chance(rng, 20)) {
    desc.SetSizeMeta(static_cast<int64_t>(Uniform(rng, 1 << 20)));
    desc.SetWeightSize(static_cast<int64_t>(Uniform(rng, 1 << 10)));
    desc.SetReuseInput(Chance(rng, 50));
    desc.SetReuseInputIndex(static_cast<int64_t>(Uniform(rng, 3)));
    desc.SetDataOffset(static_cast<int64_t>(Uniform(rng, 4096)));
    desc.SetDeviceType(Chance(rng, 50) ? DeviceType::kCpu : DeviceType::kNpu);
    desc.SetInputTensor(Chance(rng, 50));
    desc.SetOutputTensor(Chance(rng, 50));
  }
  if (with_attrs) {
    Check(desc.SetAttr("_mem_type", AttrValue::CreateFrom<int64_t>(RandomInt(rng))), "desc attr");
    Check(desc.SetAttr("_origin_name", AttrValue::CreateFrom<std::string>(RandomString(rng, 6))),
          "desc attr");
    if (Chance(rng, 30)) {
      Check(desc.SetAttr("_nested",
                         AttrValue::CreateFrom<GeTensorDesc>(RandomTensorDesc(rng, false))),
            "desc attr");
    }
  }
  return desc;
}

std::vector<std::pair<std::string, AttrValue>> AllAttrTypes(std::mt19937_64& rng, int graph_depth) {
  return AttrTypes(rng, graph_depth, true);
}

namespace {

std::vector<std::pair<std::string, AttrValue>> AttrTypes(std::mt19937_64& rng, int graph_depth,
                                                         bool include_graphs) {
  std::vector<std::pair<std::string, AttrValue>> v;
  auto add = [&v](AttrValue value) {
    v.emplace_back(std::string(AttrValue::ValueTypeName(value.GetValueType())), std::move(value));
  };
  add(AttrValue());
  add(AttrValue::CreateFrom<int64_t>(RandomInt(rng)));
  add(AttrValue::CreateFrom<float>(RandomFloat(rng)));
  add(AttrValue::CreateFrom<bool>(Chance(rng, 50)));
  add(AttrValue::CreateFrom<std::string>(RandomString(rng, 12)));
  add(AttrValue::CreateFrom<DataType>(Pick(rng, DataTypes())));
  add(AttrValue::CreateFrom<GeTensorDesc>(RandomTensorDesc(rng, true)));
  add(AttrValue::CreateFrom<GeTensor>(RandomTensor(rng)));
  add(AttrValue::CreateFrom<AttrValue::Bytes>(RandomBytes(rng, 16)));
  const int sub_depth = graph_depth > 0 ? graph_depth - 1 : 0;
  if (include_graphs) add(AttrValue::CreateFrom<ComputeGraphPtr>(SmallGraph(rng, sub_depth)));
  add(AttrValue::CreateFrom<NamedAttrs>(RandomNamedAttrs(rng, 2)));
  add(AttrValue::CreateFrom<std::vector<std::vector<int64_t>>>(
      {{RandomInt(rng), 2}, {}, {RandomInt(rng)}}));
  add(AttrValue::CreateFrom<std::vector<std::vector<float>>>(
      {{RandomFloat(rng)}, {}, {RandomFloat(rng), RandomFloat(rng)}}));
  add(AttrValue::CreateFrom<std::vector<int64_t>>({RandomInt(rng), RandomInt(rng), 0}));
  add(AttrValue::CreateFrom<std::vector<float>>({RandomFloat(rng), RandomFloat(rng)}));
  add(AttrValue::CreateFrom<std::vector<bool>>({true, false, Chance(rng, 50)}));
  add(AttrValue::CreateFrom<std::vector<std::string>>({RandomString(rng, 5), "", "x"}));
  add(AttrValue::CreateFrom<std::vector<DataType>>(
      {Pick(rng, DataTypes()), DT_UNDEFINED, DT_INT1}));
  add(AttrValue::CreateFrom<std::vector<GeTensorDesc>>(
      {RandomTensorDesc(rng, false), RandomTensorDesc(rng, true)}));
  add(AttrValue::CreateFrom<std::vector<GeTensor>>({RandomTensor(rng), RandomTensor(rng)}));
  add(AttrValue::CreateFrom<std::vector<AttrValue::Bytes>>({RandomBytes(rng, 8), {}}));
  if (include_graphs) {
    add(AttrValue::CreateFrom<std::vector<ComputeGraphPtr>>({SmallGraph(rng, sub_depth)}));
  }
  add(AttrValue::CreateFrom<std::vector<NamedAttrs>>({RandomNamedAttrs(rng, 1), NamedAttrs()}));
  // Empty lists keep their type.
  v.emplace_back("empty_list_int", AttrValue::CreateFrom<std::vector<int64_t>>({}));
  v.emplace_back("empty_list_graph", AttrValue::CreateFrom<std::vector<ComputeGraphPtr>>({}));
  return v;
}

}  // namespace

ComputeGraphPtr RandomGraph(uint64_t seed, const RandomGraphOptions& options) {
  return BuildRandom(seed, options, absl::StrCat("g", seed));
}

}  // namespace testing
}  // namespace ge
