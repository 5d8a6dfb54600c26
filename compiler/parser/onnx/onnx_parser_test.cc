// compiler/parser/onnx/onnx_parser_test.cc
//
// OnnxModelParser on small models built with the ONNX protobuf API: graph
// structure (Data / Const / op nodes / NetOutput, descs, edges, names),
// attributes, optional and variadic inputs, dim_param, options (input shapes,
// output nodes), subgraphs with captured outer values (If, Loop, Scan,
// nested), external data, custom framework mappings, and the golden messages
// of bad models (every problem in one error).
#include "compiler/parser/onnx/onnx_parser.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compiler/parser/onnx/onnx_op_map.h"
#include "compiler/parser/onnx/onnx_tensor.h"
#include "compiler/parser/onnx/onnx_test_util.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_types.h"
#include "graph/inc/graph/utils/node_utils.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/register/framework_registry.h"
#include "runtime/reference/reference_interpreter.h"

namespace ge {
namespace {

using onnx::TensorProto;
using onnx_test::AddFloatAttr;
using onnx_test::AddGraphAttr;
using onnx_test::AddIntAttr;
using onnx_test::AddIntsAttr;
using onnx_test::FloatHost;
using onnx_test::FloatsOf;
using onnx_test::MakeNode;
using onnx_test::TensorValueInfo;

// A graph under construction.
struct G {
  onnx::GraphProto g;
  explicit G(const std::string& name = "main") { g.set_name(name); }
  G& In(const std::string& name, std::vector<int64_t> dims, int32_t t = TensorProto::FLOAT) {
    *g.add_input() = TensorValueInfo(name, t, dims);
    return *this;
  }
  G& Out(const std::string& name) {
    g.add_output()->set_name(name);
    return *this;
  }
  G& Init(const onnx::TensorProto& t) {
    *g.add_initializer() = t;
    return *this;
  }
  G& Node(const onnx::NodeProto& n) {
    *g.add_node() = n;
    return *this;
  }
  std::string Bytes(int64_t opset = 17) const {
    return onnx_test::Serialize(onnx_test::MakeModel(g, opset));
  }
};

StatusOr<ComputeGraphPtr> Parse(const std::string& bytes, ParseOptions opts = ParseOptions()) {
  OnnxModelParser parser;
  return parser.ParseBytes(bytes, opts);
}

std::vector<std::string> NodeNames(const ComputeGraph& g) {
  std::vector<std::string> names;
  for (const NodePtr& n : g.GetDirectNode()) names.push_back(n->GetName() + ":" + n->GetType());
  return names;
}

// "producer:out" of input i of the node ("" when unlinked).
std::string Source(const Node& n, int i) {
  InDataAnchorPtr a = n.GetInDataAnchor(i);
  if (a == nullptr || a->GetPeerOutAnchor() == nullptr) return "";
  OutDataAnchorPtr p = a->GetPeerOutAnchor();
  return p->GetOwnerNode()->GetName() + ":" + std::to_string(p->GetIdx());
}

int64_t IntAttr(const AttrHolder& h, const std::string& name) {
  StatusOr<int64_t> v = AttrUtils::GetInt(&h, name);
  return v.ok() ? *v : -999;
}

std::vector<gert::HostTensor> Vec(gert::HostTensor a) {
  std::vector<gert::HostTensor> v;
  v.push_back(std::move(a));
  return v;
}

std::vector<gert::HostTensor> Vec(gert::HostTensor a, gert::HostTensor b) {
  std::vector<gert::HostTensor> v;
  v.push_back(std::move(a));
  v.push_back(std::move(b));
  return v;
}

// ------------------------------------------------------------ structure

TEST(OnnxParserTest, BuildsDataConstNodesAndNetOutput) {
  G m;
  m.In("x", {2, 3})
      .Init(onnx_test::FloatTensor("w", {3}, {1, 2, 3}))
      .Node(MakeNode("Add", {"x", "w"}, {"y"}, "add"))
      .Node(MakeNode("Relu", {"y"}, {"z"}, "relu"))
      .Out("z")
      .Out("y");
  OnnxParseInfo info;
  ParseOptions opts;
  opts.info = &info;
  opts.always_infer_shapes = true;
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes(), opts);
  ASSERT_TRUE(g.ok()) << g.status();
  const ComputeGraph& graph = **g;
  EXPECT_TRUE(info.shapes_inferred);
  EXPECT_EQ(graph.GetName(), "main");
  EXPECT_EQ(NodeNames(graph), (std::vector<std::string>{"x:Data", "w:Const", "add:Add", "relu:Relu",
                                                        "NetOutput:NetOutput"}));
  EXPECT_EQ(info.converter, "none");
  EXPECT_EQ(info.opset, 17);
  EXPECT_EQ(info.ir_version, 8);

  NodePtr x = graph.FindNode("x");
  EXPECT_EQ(IntAttr(*x->GetOpDesc(), kAttrDataIndex), 0);
  EXPECT_EQ(x->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(x->GetOpDesc()->GetOutputDesc(0).GetDataType(), DT_FLOAT);
  ASSERT_EQ(graph.GetInputNodes().size(), 1u);

  NodePtr w = graph.FindNode("w");
  StatusOr<GeTensor> value = AttrUtils::GetTensor(w->GetOpDesc(), ATTR_NAME_WEIGHTS);
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(value->GetTensorDesc().GetShape().GetDims(), std::vector<int64_t>{3});
  EXPECT_EQ(value->GetDataSize(), 12u);

  NodePtr add = graph.FindNode("add");
  EXPECT_EQ(Source(*add, 0), "x:0");
  EXPECT_EQ(Source(*add, 1), "w:0");
  // Output descs come from ONNX shape inference.
  EXPECT_EQ(add->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(add->GetOpDesc()->GetOutputDesc(0).GetDataType(), DT_FLOAT);
  // Input descs follow the producers.
  EXPECT_EQ(add->GetOpDesc()->GetInputDesc(1).GetShape().GetDims(), std::vector<int64_t>{3});

  NodePtr out = graph.FindNode("NetOutput");
  EXPECT_EQ(Source(*out, 0), "relu:0");
  EXPECT_EQ(Source(*out, 1), "add:0");
  ASSERT_EQ(graph.GetGraphOutNodesInfo().size(), 2u);
  EXPECT_EQ(graph.GetGraphOutNodesInfo()[0].first->GetName(), "relu");
  EXPECT_EQ(graph.GetGraphOutNodesInfo()[1].first->GetName(), "add");

  StatusOr<std::vector<gert::HostTensor>> outs =
      ReferenceInterpreter::Run(graph, Vec(FloatHost({2, 3}, {-5, 0, 1, 2, -3, -4})));
  ASSERT_TRUE(outs.ok()) << outs.status();
  ASSERT_EQ(outs->size(), 2u);
  EXPECT_EQ(FloatsOf((*outs)[0]), (std::vector<float>{0, 2, 4, 3, 0, 0}));
  EXPECT_EQ(FloatsOf((*outs)[1]), (std::vector<float>{-4, 2, 4, 3, -1, -1}));
}

TEST(OnnxParserTest, OnnxShapeInferenceRunsOnlyWhenItAddsSomething) {
  G m;
  m.In("x", {2, 3})
      .Node(MakeNode("Relu", {"x"}, {"y"}, "relu"))
      .Node(MakeNode("Neg", {"y"}, {"z"}, "neg"))
      .Node(MakeNode("Abs", {"z"}, {"w"}, "abs"))
      .Out("w");
  // z has a value_info: its desc is used even without inference.
  *m.g.add_value_info() = TensorValueInfo("z", TensorProto::FLOAT, {2, 3});
  auto parse = [&](const G& model, bool infer, bool always, OnnxParseInfo* info) {
    ParseOptions opts;
    opts.info = info;
    opts.infer_shapes = infer;
    opts.always_infer_shapes = always;
    return Parse(model.Bytes(), opts);
  };
  {
    // Every op has an infer function, no symbols, no subgraphs: skipped.
    OnnxParseInfo info;
    StatusOr<ComputeGraphPtr> g = parse(m, true, false, &info);
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_FALSE(info.shapes_inferred);
    const OpDesc& relu = *(*g)->FindNode("relu")->GetOpDesc();
    EXPECT_TRUE(relu.GetOutputDesc(0).GetShape().IsUnknownDimNum());
    EXPECT_EQ(relu.GetOutputDesc(0).GetDataType(), DT_UNDEFINED);
    EXPECT_EQ(relu.GetOutputDesc(0).GetName(), "y");
    const OpDesc& neg = *(*g)->FindNode("neg")->GetOpDesc();
    EXPECT_TRUE(neg.GetInputDesc(0).GetShape().IsUnknownDimNum());
    EXPECT_EQ(neg.GetOutputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(neg.GetOutputDesc(0).GetDataType(), DT_FLOAT);
    const OpDesc& abs = *(*g)->FindNode("abs")->GetOpDesc();
    EXPECT_EQ(abs.GetInputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
  }
  {
    OnnxParseInfo info;
    StatusOr<ComputeGraphPtr> g = parse(m, true, true, &info);
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_TRUE(info.shapes_inferred);
    const OpDesc& relu = *(*g)->FindNode("relu")->GetOpDesc();
    EXPECT_EQ(relu.GetOutputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(relu.GetOutputDesc(0).GetDataType(), DT_FLOAT);
    const OpDesc& abs = *(*g)->FindNode("abs")->GetOpDesc();
    EXPECT_EQ(abs.GetOutputDesc(0).GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
  }
  {
    // infer_shapes = false wins over always_infer_shapes.
    OnnxParseInfo info;
    ASSERT_TRUE(parse(m, false, true, &info).ok());
    EXPECT_FALSE(info.shapes_inferred);
  }
  {
    // A dim_param symbol on an input: inference carries it (see
    // DimParamsAndUnknownDims), so it runs.
    G sym = m;
    sym.g.mutable_input(0)
        ->mutable_type()
        ->mutable_tensor_type()
        ->mutable_shape()
        ->mutable_dim(0)
        ->set_dim_param("N");
    OnnxParseInfo info;
    StatusOr<ComputeGraphPtr> g = parse(sym, true, false, &info);
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_TRUE(info.shapes_inferred);
    EXPECT_EQ((*g)->FindNode("relu")->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(),
              (std::vector<int64_t>{-1, 3}));
  }
  {
    // A subgraph: inference runs.
    G then_g("then");
    then_g.Node(MakeNode("Relu", {"x"}, {"t"}, "t_relu")).Out("t");
    G else_g("else");
    else_g.Node(MakeNode("Neg", {"x"}, {"e"}, "e_neg")).Out("e");
    G cond;
    cond.In("x", {2}).In("c", {}, TensorProto::BOOL);
    onnx::NodeProto if_node = MakeNode("If", {"c"}, {"r"}, "if");
    AddGraphAttr(&if_node, "then_branch", then_g.g);
    AddGraphAttr(&if_node, "else_branch", else_g.g);
    cond.Node(if_node).Out("r");
    OnnxParseInfo info;
    StatusOr<ComputeGraphPtr> g = parse(cond, true, false, &info);
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_TRUE(info.shapes_inferred);
  }
}

TEST(OnnxParserTest, InitializerListedAsInputIsConst) {
  G m;
  m.In("x", {2})
      .In("w", {2})
      .In("z", {2})
      .Init(onnx_test::FloatTensor("w", {2}, {10, 20}))
      .Node(MakeNode("Add", {"x", "w"}, {"s"}, "a1"))
      .Node(MakeNode("Add", {"s", "z"}, {"y"}, "a2"))
      .Out("y");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ((*g)->FindNode("w")->GetType(), "Const");
  EXPECT_EQ(IntAttr(*(*g)->FindNode("x")->GetOpDesc(), kAttrDataIndex), 0);
  EXPECT_EQ(IntAttr(*(*g)->FindNode("z")->GetOpDesc(), kAttrDataIndex), 1);
  StatusOr<std::vector<gert::HostTensor>> outs =
      ReferenceInterpreter::Run(**g, Vec(FloatHost({2}, {1, 2}), FloatHost({2}, {100, 200})));
  ASSERT_TRUE(outs.ok()) << outs.status();
  EXPECT_EQ(FloatsOf((*outs)[0]), (std::vector<float>{111, 222}));
}

TEST(OnnxParserTest, OutputsMayBeInputsOrInitializers) {
  G m;
  m.In("x", {1}).Init(onnx_test::FloatTensor("c", {1}, {7})).Out("c").Out("x").Out("x");
  m.Node(MakeNode("Identity", {"x"}, {"unused"}, "id"));
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  NodePtr out = (*g)->FindNode("NetOutput");
  EXPECT_EQ(Source(*out, 0), "c:0");
  EXPECT_EQ(Source(*out, 1), "x:0");
  EXPECT_EQ(Source(*out, 2), "x:0");
  StatusOr<std::vector<gert::HostTensor>> outs =
      ReferenceInterpreter::Run(**g, Vec(FloatHost({1}, {3})));
  ASSERT_TRUE(outs.ok()) << outs.status();
  EXPECT_EQ(FloatsOf((*outs)[0]), std::vector<float>{7});
  EXPECT_EQ(FloatsOf((*outs)[2]), std::vector<float>{3});
}

TEST(OnnxParserTest, NodeNamesAreUniquePerGraph) {
  G m;
  m.In("x", {1})
      .Node(MakeNode("Relu", {"x"}, {"a"}))
      .Node(MakeNode("Neg", {"a"}, {"b"}, "x"))
      .Node(MakeNode("Abs", {"b"}, {"c"}, "NetOutput"))
      .Out("c");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(NodeNames(**g), (std::vector<std::string>{"x:Data", "Relu_0:Relu", "x_1:Neg",
                                                      "NetOutput:Abs", "NetOutput_1:NetOutput"}));
}

// Generated names ("<op_type>_<index>") against given names that look
// generated, and against "_<k>" names made for clashes (either order).
TEST(OnnxParserTest, GeneratedNodeNamesNeverClash) {
  {
    // A later node is named like an earlier node's generated name.
    G m;
    m.In("x", {1})
        .Node(MakeNode("Relu", {"x"}, {"a"}))
        .Node(MakeNode("Neg", {"a"}, {"b"}, "Relu_0"))
        .Out("b");
    StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_EQ(NodeNames(**g), (std::vector<std::string>{"x:Data", "Relu_0:Relu", "Relu_0_1:Neg",
                                                        "NetOutput:NetOutput"}));
  }
  {
    // With a given name that looks generated ("Neg_3"), every name is
    // checked in build order: node 0 (clashing with the input "Neg") takes
    // "Neg_1" first, node 1's generated "Neg_1" then becomes "Neg_1_1".
    G m;
    m.In("Neg", {1})
        .Node(MakeNode("Relu", {"Neg"}, {"a"}, "Neg"))
        .Node(MakeNode("Neg", {"a"}, {"b"}))
        .Node(MakeNode("Abs", {"b"}, {"c"}, "Neg_3"))
        .Out("c");
    StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_EQ(NodeNames(**g), (std::vector<std::string>{"Neg:Data", "Neg_1:Relu", "Neg_1_1:Neg",
                                                        "Neg_3:Abs", "NetOutput:NetOutput"}));
  }
  {
    // Without a name that looks generated, generated names are not checked
    // one by one; a "_<k>" name made for a clash skips the generated name
    // of node k: node 0 takes "Neg_2", node 1 keeps "Neg_1".
    G m;
    m.In("Neg", {1})
        .Node(MakeNode("Relu", {"Neg"}, {"a"}, "Neg"))
        .Node(MakeNode("Neg", {"a"}, {"b"}))
        .Out("b");
    StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_EQ(NodeNames(**g), (std::vector<std::string>{"Neg:Data", "Neg_2:Relu", "Neg_1:Neg",
                                                        "NetOutput:NetOutput"}));
  }
}

TEST(OnnxParserTest, UnsortedNodesAreSortedAndCyclesRejected) {
  G m;
  m.In("x", {2})
      .Node(MakeNode("Neg", {"a"}, {"b"}, "second"))
      .Node(MakeNode("Relu", {"x"}, {"a"}, "first"))
      .Out("b");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(NodeNames(**g), (std::vector<std::string>{"x:Data", "first:Relu", "second:Neg",
                                                      "NetOutput:NetOutput"}));

  G cyc;
  cyc.In("x", {2})
      .Node(MakeNode("Add", {"x", "b"}, {"a"}, "p"))
      .Node(MakeNode("Neg", {"a"}, {"b"}, "q"))
      .Out("b");
  g = Parse(cyc.Bytes());
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kGraphCycle);
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model 'main': 1 error:\n"
            "  graph 'main': nodes form a cycle: node 'p' (Add), node 'q' (Neg)");
}

TEST(OnnxParserTest, OptionalAndVariadicInputs) {
  G m;
  m.In("x", {3})
      .In("hi", {})
      .In("b", {1})
      .Node(MakeNode("Clip", {"x", "", "hi"}, {"c"}, "clip"))
      .Node(MakeNode("Concat", {"c", "b", "c"}, {"y"}, "cat"))
      .Out("y");
  onnx::NodeProto* cat = m.g.mutable_node(1);
  AddIntAttr(cat, "axis", 0);
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  NodePtr clip = (*g)->FindNode("clip");
  EXPECT_EQ(Source(*clip, 0), "x:0");
  EXPECT_EQ(Source(*clip, 1), "");
  EXPECT_EQ(Source(*clip, 2), "hi:0");
  EXPECT_FALSE(clip->GetOpDesc()->GetInputDesc(1).IsValid());  // absent optional input
  NodePtr concat = (*g)->FindNode("cat");
  EXPECT_EQ(concat->GetAllInDataAnchorsSize(), 3u);
  EXPECT_EQ(Source(*concat, 2), "clip:0");
  std::vector<gert::HostTensor> in;
  in.push_back(FloatHost({3}, {-1, 5, 9}));
  in.push_back(FloatHost({}, {4}));
  in.push_back(FloatHost({1}, {0}));
  StatusOr<std::vector<gert::HostTensor>> outs = ReferenceInterpreter::Run(**g, std::move(in));
  ASSERT_TRUE(outs.ok()) << outs.status();
  EXPECT_EQ(FloatsOf((*outs)[0]), (std::vector<float>{-1, 4, 4, 0, -1, 4, 4}));
}

TEST(OnnxParserTest, AttributesAreConverted) {
  G m;
  m.In("x", {1, 1, 3, 3});
  onnx::NodeProto cast = MakeNode("Cast", {"x"}, {"c"}, "cast");
  AddIntAttr(&cast, "to", TensorProto::INT64);
  onnx::NodeProto conv = MakeNode("Conv", {"x", "w"}, {"y"}, "conv");
  AddIntsAttr(&conv, "kernel_shape", {2, 2});
  AddIntsAttr(&conv, "pads", {0, 0, 1, 1});
  onnx::NodeProto leaky = MakeNode("LeakyRelu", {"y"}, {"l"}, "leaky");
  AddFloatAttr(&leaky, "alpha", 0.5f);
  onnx::NodeProto constant = MakeNode("Constant", {}, {"k"}, "const");
  {
    onnx::AttributeProto* a = constant.add_attribute();
    a->set_name("sparse_value");
    a->set_type(onnx::AttributeProto::SPARSE_TENSOR);
    a->mutable_sparse_tensor()->add_dims(3);
    *a->mutable_sparse_tensor()->mutable_values() = onnx_test::FloatTensor("v", {1}, {5});
    *a->mutable_sparse_tensor()->mutable_indices() = onnx_test::Int64Tensor("i", {1}, {2});
  }
  m.Init(onnx_test::FloatTensor("w", {1, 1, 2, 2}, {1, 1, 1, 1}))
      .Node(cast)
      .Node(conv)
      .Node(leaky)
      .Node(constant)
      .Out("c")
      .Out("l")
      .Out("k");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  StatusOr<DataType> to = AttrUtils::GetDataType((*g)->FindNode("cast")->GetOpDesc(), "to");
  ASSERT_TRUE(to.ok()) << to.status();
  EXPECT_EQ(*to, DT_INT64);
  StatusOr<std::vector<int64_t>> pads =
      AttrUtils::GetListInt((*g)->FindNode("conv")->GetOpDesc(), "pads");
  ASSERT_TRUE(pads.ok());
  EXPECT_EQ(*pads, (std::vector<int64_t>{0, 0, 1, 1}));
  StatusOr<float> alpha = AttrUtils::GetFloat((*g)->FindNode("leaky")->GetOpDesc(), "alpha");
  ASSERT_TRUE(alpha.ok());
  EXPECT_EQ(*alpha, 0.5f);
  OpDescPtr k = (*g)->FindNode("const")->GetOpDesc();
  EXPECT_FALSE(k->HasAttr("sparse_value"));
  StatusOr<GeTensor> dense = AttrUtils::GetTensor(k, "value");
  ASSERT_TRUE(dense.ok()) << dense.status();
  EXPECT_EQ(dense->GetDataSize(), 12u);

  std::vector<float> x(9, 1.0f);
  StatusOr<std::vector<gert::HostTensor>> outs =
      ReferenceInterpreter::Run(**g, Vec(FloatHost({1, 1, 3, 3}, x)));
  ASSERT_TRUE(outs.ok()) << outs.status();
  EXPECT_EQ(onnx_test::Int64sOf((*outs)[0]), std::vector<int64_t>(9, 1));
  EXPECT_EQ(FloatsOf((*outs)[1]), (std::vector<float>{4, 4, 2, 4, 4, 2, 2, 2, 1}));
  EXPECT_EQ(FloatsOf((*outs)[2]), (std::vector<float>{0, 0, 5}));
}

TEST(OnnxParserTest, DimParamsAndUnknownDims) {
  G m;
  onnx::ValueInfoProto x = TensorValueInfo("x", TensorProto::FLOAT, {-1, 3, -1});
  x.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_param("N");
  *m.g.add_input() = x;
  onnx::ValueInfoProto norank;
  norank.set_name("r");
  norank.mutable_type()->mutable_tensor_type()->set_elem_type(TensorProto::INT32);
  *m.g.add_input() = norank;
  m.Node(MakeNode("Relu", {"x"}, {"y"}, "relu")).Node(MakeNode("Neg", {"r"}, {"z"}, "neg"));
  m.Out("y").Out("z");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  GeTensorDesc d = (*g)->FindNode("x")->GetOpDesc()->GetOutputDesc(0);
  EXPECT_EQ(d.GetShape().GetDims(), (std::vector<int64_t>{-1, 3, -1}));
  StatusOr<std::vector<std::string>> params = AttrUtils::GetListStr(d, onnx_parser::kAttrDimParams);
  ASSERT_TRUE(params.ok()) << params.status();
  EXPECT_EQ(*params, (std::vector<std::string>{"N", "", ""}));
  // ONNX shape inference carries the symbol to the Relu output.
  GeTensorDesc y = (*g)->FindNode("relu")->GetOpDesc()->GetOutputDesc(0);
  EXPECT_EQ(y.GetShape().GetDims(), (std::vector<int64_t>{-1, 3, -1}));
  StatusOr<std::vector<std::string>> yp = AttrUtils::GetListStr(y, onnx_parser::kAttrDimParams);
  ASSERT_TRUE(yp.ok());
  EXPECT_EQ((*yp)[0], "N");
  GeTensorDesc r = (*g)->FindNode("r")->GetOpDesc()->GetOutputDesc(0);
  EXPECT_TRUE(r.GetShape().IsUnknownDimNum());
  EXPECT_EQ(r.GetDataType(), DT_INT32);
}

TEST(OnnxParserTest, SequenceInputIsVariant) {
  G m;
  onnx::ValueInfoProto s;
  s.set_name("s");
  *s.mutable_type()->mutable_sequence_type()->mutable_elem_type() =
      TensorValueInfo("e", TensorProto::FLOAT, {2}).type();
  *m.g.add_input() = s;
  m.Out("s");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  GeTensorDesc d = (*g)->FindNode("s")->GetOpDesc()->GetOutputDesc(0);
  EXPECT_EQ(d.GetDataType(), DT_VARIANT);
  EXPECT_EQ(*AttrUtils::GetStr(d, onnx_parser::kAttrOnnxType), "seq(tensor(float))");
  std::vector<gert::HostTensor> elems;
  elems.push_back(FloatHost({2}, {1, 2}));
  StatusOr<gert::HostTensor> seq = gert::HostTensor::CreateSequence(std::move(elems));
  ASSERT_TRUE(seq.ok());
  StatusOr<std::vector<gert::HostTensor>> outs =
      ReferenceInterpreter::Run(**g, Vec(std::move(seq).value()));
  ASSERT_TRUE(outs.ok()) << outs.status();
  EXPECT_EQ((*outs)[0].GetDataType(), DT_VARIANT);
}

// ------------------------------------------------------------ options

TEST(OnnxParserTest, InputShapesOverride) {
  G m;
  onnx::ValueInfoProto x = TensorValueInfo("x", TensorProto::FLOAT, {-1, 3});
  x.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_param("N");
  *m.g.add_input() = x;
  m.Init(onnx_test::FloatTensor("w", {3}, {1, 1, 1}));
  m.Node(MakeNode("Add", {"x", "w"}, {"y"}, "add")).Out("y");
  ParseOptions opts;
  // The Add output below comes from ONNX shape inference, which a model of
  // fixed input shapes and registered ops would skip.
  opts.always_infer_shapes = true;
  opts.input_shapes["x"] = {4, 3};
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes(), opts);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ((*g)->FindNode("x")->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(),
            (std::vector<int64_t>{4, 3}));
  EXPECT_EQ((*g)->FindNode("add")->GetOpDesc()->GetOutputDesc(0).GetShape().GetDims(),
            (std::vector<int64_t>{4, 3}));

  opts.input_shapes["x"] = {-1, 3};  // -1 keeps the model's dim (and its name)
  g = Parse(m.Bytes(), opts);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_TRUE(AttrUtils::HasAttr((*g)->FindNode("x")->GetOpDesc()->GetOutputDesc(0),
                                 onnx_parser::kAttrDimParams));

  struct Case {
    std::string name;
    std::vector<int64_t> dims;
    std::string message;
  };
  const Case cases[] = {
      {"y", {1}, "input_shapes: 'y' is not a graph input of the model (inputs: x)"},
      {"w", {3}, "input_shapes: 'w' is not a graph input of the model (inputs: x)"},
      {"x", {4}, "input_shapes: input 'x' has rank 2 in the model, the override [4] has rank 1"},
      {"x",
       {4, 5},
       "input_shapes: input 'x' dim 1 is fixed to 3 in the model, the override gives 5"},
      {"x", {-2, 3}, "input_shapes: input 'x' dim 0 is -2, expected >= -1"},
  };
  for (const Case& c : cases) {
    ParseOptions bad;
    bad.input_shapes[c.name] = c.dims;
    StatusOr<ComputeGraphPtr> r = Parse(m.Bytes(), bad);
    ASSERT_FALSE(r.ok()) << c.name;
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
    EXPECT_EQ(std::string(r.status().message()), c.message);
  }
}

TEST(OnnxParserTest, OutputNodesOption) {
  G m;
  m.In("x", {2})
      .Node(MakeNode("Relu", {"x"}, {"a"}, "relu"))
      .Node(MakeNode("TopK", {"a", "k"}, {"v", "i"}, "topk"))
      .Init(onnx_test::Int64Tensor("k", {1}, {1}))
      .Out("v");
  ParseOptions opts;
  opts.output_nodes = {"a", "topk:1"};
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes(), opts);
  ASSERT_TRUE(g.ok()) << g.status();
  NodePtr out = (*g)->FindNode("NetOutput");
  ASSERT_EQ(out->GetAllInDataAnchorsSize(), 2u);
  EXPECT_EQ(Source(*out, 0), "relu:0");
  EXPECT_EQ(Source(*out, 1), "topk:1");

  opts.output_nodes = {"topk"};
  g = Parse(m.Bytes(), opts);
  ASSERT_TRUE(g.ok()) << g.status();
  out = (*g)->FindNode("NetOutput");
  ASSERT_EQ(out->GetAllInDataAnchorsSize(), 2u);
  EXPECT_EQ(Source(*out, 1), "topk:1");

  opts.output_nodes = {"nothing"};
  g = Parse(m.Bytes(), opts);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model 'main': output_nodes: 'nothing' is neither a value nor a node of graph "
            "'main'");
  opts.output_nodes = {"topk:5"};
  g = Parse(m.Bytes(), opts);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model 'main': output_nodes: node 'topk' has no output 5 (it has 2)");
}

// ------------------------------------------------------------ bad models

TEST(OnnxParserTest, BrokenBytesAndVersions) {
  StatusOr<ComputeGraphPtr> g = Parse("this is not a protobuf");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kParseFailed);
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model '<bytes>': the 22 bytes are not a valid ONNX ModelProto");

  g = Parse("");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model '<bytes>': the 0 bytes hold no graph (not an ONNX model?)");

  G m;
  m.In("x", {1}).Node(MakeNode("Relu", {"x"}, {"y"})).Out("y");
  onnx::ModelProto model = onnx_test::MakeModel(m.g, 13);
  model.set_ir_version(2);
  g = Parse(onnx_test::Serialize(model));
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kNotSupported);
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model 'main': IR version 2 is not supported (supported: 3 to 8)");
  model.set_ir_version(9);
  g = Parse(onnx_test::Serialize(model));
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model 'main': IR version 9 is not supported (supported: 3 to 8)");

  g = Parse(m.Bytes(18));
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kNotSupported);
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model 'main': default-domain opset 18 is newer than the supported opset 17");

  ParseOptions opts;
  opts.target_opset = 13;
  g = Parse(m.Bytes(), opts);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(std::string(g.status().message()),
            "target opset 13 is not supported: the op library implements opset 17");

  OnnxModelParser parser;
  g = parser.ParseFile("/nonexistent/model.onnx");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kNotFound);
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model file '/nonexistent/model.onnx' cannot be opened");
}

TEST(OnnxParserTest, EveryProblemInOneError) {
  G m;
  onnx::NodeProto custom = MakeNode("Gelu", {"x"}, {"g"}, "gelu");
  custom.set_domain("com.microsoft");
  m.In("x", {2})
      .Node(MakeNode("FooBar", {"x"}, {"a"}, "f1"))
      .Node(MakeNode("Relu", {"missing"}, {"b"}, "relu"))
      .Node(MakeNode("BazQux", {"a", "b"}, {"c"}))
      .Node(MakeNode("Neg", {"c"}, {"d"}, "relu"))
      .Node(custom)
      .Out("d")
      .Out("nowhere");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kGraphInvalid);
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model 'main': 6 errors:\n"
            "  graph 'main': duplicate node name 'relu'\n"
            "  graph 'main': node 'f1' (FooBar): unsupported op type 'FooBar' (domain '')\n"
            "  graph 'main': node 'relu' (Relu): input 'missing' is not defined (no graph input, "
            "initializer or node output has this name)\n"
            "  graph 'main': node #2 (BazQux): unsupported op type 'BazQux' (domain '')\n"
            "  graph 'main': node 'gelu' (Gelu): domain 'com.microsoft' is not supported "
            "(accepted: '', 'ai.onnx', 'ai.onnx.preview.training')\n"
            "  graph 'main': graph output 'nowhere' is not produced by any node, input or "
            "initializer");
}

TEST(OnnxParserTest, UnsupportedOpsOnlyIsNotSupported) {
  G m;
  onnx::NodeProto n1 = MakeNode("Frobnicate", {"x"}, {"a"}, "n1");
  onnx::NodeProto n2 = MakeNode("Frobnicate", {"a"}, {"b"}, "n2");
  m.In("x", {2}).Node(n1).Node(n2).Out("b");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kNotSupported);
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model 'main': 2 errors:\n"
            "  graph 'main': node 'n1' (Frobnicate): unsupported op type 'Frobnicate' (domain '')\n"
            "  graph 'main': node 'n2' (Frobnicate): unsupported op type 'Frobnicate' (domain '')");
}

TEST(OnnxParserTest, DomainRejectionNamesDomainAndNode) {
  G m;
  onnx::NodeProto n = MakeNode("Relu", {"x"}, {"y"}, "custom_relu");
  n.set_domain("com.example");
  m.In("x", {2}).Node(n).Out("y");
  onnx::ModelProto model = onnx_test::MakeModel(m.g, 17);
  onnx::OperatorSetIdProto* o = model.add_opset_import();
  o->set_domain("com.example");
  o->set_version(1);
  StatusOr<ComputeGraphPtr> g = Parse(onnx_test::Serialize(model));
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kNotSupported);
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model 'main': 1 error:\n"
            "  graph 'main': node 'custom_relu' (Relu): domain 'com.example' is not supported "
            "(accepted: '', 'ai.onnx', 'ai.onnx.preview.training')");

  // "ai.onnx" is the default domain.
  m.g.mutable_node(0)->set_domain("ai.onnx");
  EXPECT_TRUE(Parse(m.Bytes()).ok());
}

TEST(OnnxParserTest, DuplicateNames) {
  G m;
  m.In("x", {2})
      .In("x", {2})
      .Init(onnx_test::FloatTensor("w", {2}, {1, 2}))
      .Init(onnx_test::FloatTensor("w", {2}, {1, 2}))
      .Node(MakeNode("Relu", {"x"}, {"w"}, "r1"))
      .Node(MakeNode("Relu", {"x"}, {"y"}, "r2"))
      .Node(MakeNode("Neg", {"x"}, {"y"}, "r3"))
      .Out("y");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model 'main': 4 errors:\n"
            "  graph 'main': duplicate graph input 'x'\n"
            "  graph 'main': duplicate initializer 'w'\n"
            "  graph 'main': node 'r1' (Relu): output 'w' is already defined (values must be "
            "assigned once)\n"
            "  graph 'main': node 'r3' (Neg): output 'y' is already defined (values must be "
            "assigned once)");
}

TEST(OnnxParserTest, BadInitializerAndArityAreReportedTogether) {
  G m;
  onnx::TensorProto bad = onnx_test::FloatTensor("w", {2, 2}, {1, 2, 3});
  m.In("x", {2})
      .Init(bad)
      .Node(MakeNode("Relu", {"x", "x"}, {"a"}, "two_in"))
      .Node(MakeNode("Add", {"x"}, {"b"}, "one_in"))
      .Out("a")
      .Out("b");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_FALSE(g.ok());
  const std::string msg(g.status().message());
  EXPECT_NE(msg.find("ONNX model 'main': 3 errors:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("graph 'main': initializer 'w': float_data holds 3 values but shape "
                     "[2,2] of float needs 4"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("node 'two_in' (Relu): has 2 inputs but the op takes at most 1"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("node 'one_in' (Add): required input 1 ('"), std::string::npos) << msg;
}

// ------------------------------------------------------------ subgraphs

// A branch that returns Add(outer_a, outer_b) or Neg(outer_a).
onnx::GraphProto Branch(const std::string& name, bool add) {
  G b(name);
  if (add) {
    b.Node(MakeNode("Add", {"a", "b"}, {name + "_out"}, name + "_add"));
  } else {
    b.Node(MakeNode("Neg", {"a"}, {name + "_out"}, name + "_neg"));
  }
  b.Out(name + "_out");
  return b.g;
}

TEST(OnnxParserTest, IfBranchesCaptureOuterValues) {
  G m;
  onnx::NodeProto n = MakeNode("If", {"c"}, {"y"}, "if");
  AddGraphAttr(&n, "then_branch", Branch("then", true));
  AddGraphAttr(&n, "else_branch", Branch("else", false));
  m.In("c", {}, TensorProto::BOOL).In("a", {2}).In("b", {2}).Node(n).Out("y");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  NodePtr node = (*g)->FindNode("if");
  // cond, then the captures in first-use order: a, b.
  ASSERT_EQ(node->GetAllInDataAnchorsSize(), 3u);
  EXPECT_EQ(Source(*node, 0), "c:0");
  EXPECT_EQ(Source(*node, 1), "a:0");
  EXPECT_EQ(Source(*node, 2), "b:0");
  EXPECT_EQ(IntAttr(*node->GetOpDesc(), kAttrCapturedInputs), 2);
  EXPECT_EQ(node->GetOpDesc()->GetSubgraphInstanceNames(),
            (std::vector<std::string>{"if_then_branch", "if_else_branch"}));
  ComputeGraphPtr then_g = (*g)->GetSubgraph("if_then_branch");
  ComputeGraphPtr else_g = (*g)->GetSubgraph("if_else_branch");
  ASSERT_NE(then_g, nullptr);
  ASSERT_NE(else_g, nullptr);
  EXPECT_EQ(then_g->GetParentNode(), node);
  EXPECT_EQ(then_g->GetParentGraph(), *g);
  EXPECT_EQ(NodeNames(*then_g),
            (std::vector<std::string>{"a:Data", "b:Data", "then_add:Add", "NetOutput:NetOutput"}));
  EXPECT_EQ(IntAttr(*then_g->FindNode("a")->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX), 1);
  EXPECT_EQ(IntAttr(*then_g->FindNode("b")->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX), 2);
  // The else branch uses only `a`.
  EXPECT_EQ(NodeNames(*else_g),
            (std::vector<std::string>{"a:Data", "else_neg:Neg", "NetOutput:NetOutput"}));
  EXPECT_EQ(IntAttr(*else_g->FindNode("a")->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX), 1);
  GeTensorDesc out_desc = then_g->FindNode("NetOutput")->GetOpDesc()->GetInputDesc(0);
  EXPECT_EQ(IntAttr(out_desc, ATTR_NAME_PARENT_NODE_INDEX), 0);
  EXPECT_EQ((*g)->GetAllSubgraphs().size(), 2u);
  // The data-node parent index is the parent input index (graph layer view).
  StatusOr<NodePtr> producer = NodeUtils::GetParentInput(*then_g->FindNode("b"));
  ASSERT_TRUE(producer.ok()) << producer.status();
  EXPECT_EQ((*producer)->GetName(), "b");

  for (bool cond : {true, false}) {
    std::vector<gert::HostTensor> in;
    in.push_back(onnx_test::BoolHost({}, {cond}));
    in.push_back(FloatHost({2}, {1, 2}));
    in.push_back(FloatHost({2}, {10, 20}));
    StatusOr<std::vector<gert::HostTensor>> outs = ReferenceInterpreter::Run(**g, std::move(in));
    ASSERT_TRUE(outs.ok()) << outs.status();
    const std::vector<float> want = cond ? std::vector<float>{11, 22} : std::vector<float>{-1, -2};
    EXPECT_EQ(FloatsOf((*outs)[0]), want);
  }
}

// Loop computing: for i in [0, M): acc = acc + step (step captured), and a
// scan output of acc * scale (scale captured).
onnx::GraphProto LoopBody() {
  G b("body");
  b.In("iter", {}, TensorProto::INT64).In("cond_in", {}, TensorProto::BOOL).In("acc_in", {1});
  b.Node(MakeNode("Add", {"acc_in", "step"}, {"acc_out"}, "accumulate"))
      .Node(MakeNode("Mul", {"acc_out", "scale"}, {"scaled"}, "scale_it"))
      .Node(MakeNode("Identity", {"cond_in"}, {"cond_out"}, "keep_going"))
      .Out("cond_out")
      .Out("acc_out")
      .Out("scaled");
  return b.g;
}

TEST(OnnxParserTest, LoopCapturesBecomeLoopCarriedValues) {
  G m;
  onnx::NodeProto n = MakeNode("Loop", {"M", "", "acc0"}, {"acc", "scans"}, "loop");
  AddGraphAttr(&n, "body", LoopBody());
  m.In("M", {}, TensorProto::INT64)
      .In("acc0", {1})
      .In("step", {1})
      .Init(onnx_test::FloatTensor("scale", {1}, {10}))
      .Node(n)
      .Out("acc")
      .Out("scans");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  NodePtr loop = (*g)->FindNode("loop");
  // M, cond (absent), acc0, then the captures step and scale.
  ASSERT_EQ(loop->GetAllInDataAnchorsSize(), 5u);
  EXPECT_EQ(Source(*loop, 1), "");
  EXPECT_EQ(Source(*loop, 3), "step:0");
  EXPECT_EQ(Source(*loop, 4), "scale:0");
  // Outputs: acc, the two pass-through captures, the scan output.
  ASSERT_EQ(loop->GetAllOutDataAnchorsSize(), 4u);
  EXPECT_EQ(Source(*(*g)->FindNode("NetOutput"), 1), "loop:3");
  ComputeGraphPtr body = (*g)->GetSubgraph("loop_body");
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(IntAttr(*body->FindNode("iter")->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX), 0);
  EXPECT_EQ(IntAttr(*body->FindNode("cond_in")->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX), 1);
  EXPECT_EQ(IntAttr(*body->FindNode("acc_in")->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX), 2);
  EXPECT_EQ(IntAttr(*body->FindNode("step")->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX), 3);
  EXPECT_EQ(IntAttr(*body->FindNode("scale")->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX), 4);
  NodePtr body_out = body->FindNode("NetOutput");
  ASSERT_EQ(body_out->GetAllInDataAnchorsSize(), 5u);
  EXPECT_EQ(Source(*body_out, 0), "keep_going:0");
  EXPECT_EQ(Source(*body_out, 1), "accumulate:0");
  EXPECT_EQ(Source(*body_out, 2), "step:0");
  EXPECT_EQ(Source(*body_out, 3), "scale:0");
  EXPECT_EQ(Source(*body_out, 4), "scale_it:0");
  EXPECT_FALSE(
      AttrUtils::HasAttr(body_out->GetOpDesc()->GetInputDesc(0), ATTR_NAME_PARENT_NODE_INDEX));
  EXPECT_EQ(IntAttr(body_out->GetOpDesc()->GetInputDesc(4), ATTR_NAME_PARENT_NODE_INDEX), 3);

  std::vector<gert::HostTensor> in;
  in.push_back(onnx_test::Int64Host({}, {3}));
  in.push_back(FloatHost({1}, {1}));
  in.push_back(FloatHost({1}, {2}));
  StatusOr<std::vector<gert::HostTensor>> outs = ReferenceInterpreter::Run(**g, std::move(in));
  ASSERT_TRUE(outs.ok()) << outs.status();
  ASSERT_EQ(outs->size(), 2u);
  EXPECT_EQ(FloatsOf((*outs)[0]), std::vector<float>{7});
  EXPECT_EQ((*outs)[1].GetShape().ToVector(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(FloatsOf((*outs)[1]), (std::vector<float>{30, 50, 70}));
}

TEST(OnnxParserTest, ScanCapturesBecomeStates) {
  // Running sum of x scaled by a captured factor.
  G b("body");
  b.In("s_in", {1}).In("x_in", {1});
  b.Node(MakeNode("Mul", {"x_in", "factor"}, {"fx"}, "scale"))
      .Node(MakeNode("Add", {"s_in", "fx"}, {"s_out"}, "acc"))
      .Node(MakeNode("Identity", {"s_out"}, {"y_out"}, "emit"))
      .Out("s_out")
      .Out("y_out");
  onnx::NodeProto n = MakeNode("Scan", {"s0", "xs"}, {"s", "ys"}, "scan");
  AddIntAttr(&n, "num_scan_inputs", 1);
  AddGraphAttr(&n, "body", b.g);
  G m;
  m.In("s0", {1}).In("xs", {3, 1}).In("factor", {1}).Node(n).Out("s").Out("ys");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  NodePtr scan = (*g)->FindNode("scan");
  ASSERT_EQ(scan->GetAllInDataAnchorsSize(), 3u);
  EXPECT_EQ(Source(*scan, 0), "s0:0");
  EXPECT_EQ(Source(*scan, 1), "factor:0");  // captures sit between states and scan inputs
  EXPECT_EQ(Source(*scan, 2), "xs:0");
  ComputeGraphPtr body = (*g)->GetSubgraph("scan_body");
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(IntAttr(*body->FindNode("x_in")->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX), 2);
  EXPECT_EQ(IntAttr(*body->FindNode("factor")->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX), 1);
  std::vector<gert::HostTensor> in;
  in.push_back(FloatHost({1}, {0}));
  in.push_back(FloatHost({3, 1}, {1, 2, 3}));
  in.push_back(FloatHost({1}, {2}));
  StatusOr<std::vector<gert::HostTensor>> outs = ReferenceInterpreter::Run(**g, std::move(in));
  ASSERT_TRUE(outs.ok()) << outs.status();
  ASSERT_EQ(outs->size(), 2u);
  EXPECT_EQ(FloatsOf((*outs)[0]), std::vector<float>{12});
  EXPECT_EQ(FloatsOf((*outs)[1]), (std::vector<float>{2, 6, 12}));
}

TEST(OnnxParserTest, NestedBodiesCaptureThroughEveryLevel) {
  // Loop body contains an If whose branches read the root value `bias`.
  G then_b("then");
  then_b.Node(MakeNode("Add", {"acc_in", "bias"}, {"t_out"}, "t_add")).Out("t_out");
  G else_b("else");
  else_b.Node(MakeNode("Sub", {"acc_in", "bias"}, {"e_out"}, "e_sub")).Out("e_out");
  onnx::NodeProto branch = MakeNode("If", {"cond_in"}, {"next"}, "choose");
  AddGraphAttr(&branch, "then_branch", then_b.g);
  AddGraphAttr(&branch, "else_branch", else_b.g);
  G body("body");
  body.In("iter", {}, TensorProto::INT64).In("cond_in", {}, TensorProto::BOOL).In("acc_in", {1});
  body.Node(branch).Node(MakeNode("Identity", {"cond_in"}, {"cond_out"}, "c"));
  body.Out("cond_out").Out("next");
  onnx::NodeProto loop = MakeNode("Loop", {"M", "", "acc0"}, {"acc"}, "loop");
  AddGraphAttr(&loop, "body", body.g);
  G m;
  m.In("M", {}, TensorProto::INT64).In("acc0", {1}).In("bias", {1}).Node(loop).Out("acc");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  NodePtr loop_node = (*g)->FindNode("loop");
  EXPECT_EQ(Source(*loop_node, 3), "bias:0");
  ComputeGraphPtr loop_body = (*g)->GetSubgraph("loop_body");
  ASSERT_NE(loop_body, nullptr);
  NodePtr choose = loop_body->FindNode("choose");
  ASSERT_NE(choose, nullptr);
  // If inputs: cond, acc_in (body Data), bias (the loop body's capture Data).
  EXPECT_EQ(Source(*choose, 0), "cond_in:0");
  EXPECT_EQ(Source(*choose, 1), "acc_in:0");
  EXPECT_EQ(Source(*choose, 2), "bias:0");
  ComputeGraphPtr then_g = (*g)->GetSubgraph("choose_then_branch");
  ASSERT_NE(then_g, nullptr);
  EXPECT_EQ(then_g->GetParentGraph(), loop_body);
  EXPECT_EQ((*g)->GetAllSubgraphs().size(), 3u);
  // Every node of the tree.
  // Root 5, loop body 7 (iter, cond_in, acc_in, bias, choose, c, NetOutput),
  // each branch 4.
  EXPECT_EQ((*g)->GetAllNodesSize(), 5u + 7u + 4u + 4u);
}

// ------------------------------------------------------------ external data

// Writes `bytes` to `name` in the test's temporary directory; its path.
std::string WriteTestFile(const std::string& name, const std::string& bytes) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp == nullptr ? "/tmp" : tmp) + "/" + name;
  std::ofstream f(path, std::ios::binary);
  f << bytes;
  return path;
}

TEST(OnnxParserTest, ExternalDataThroughParseFileAndParseBytes) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = std::string(tmp == nullptr ? "/tmp" : tmp) + "/parser_ext";
  ::mkdir(dir.c_str(), 0755);
  const float w[3] = {1, 2, 3};
  {
    std::ofstream f(dir + "/w.bin", std::ios::binary);
    f.write("JUNK", 4);
    f.write(reinterpret_cast<const char*>(w), sizeof(w));
  }
  G m;
  onnx::TensorProto t;
  t.set_name("w");
  t.set_data_type(TensorProto::FLOAT);
  t.add_dims(3);
  t.set_data_location(TensorProto::EXTERNAL);
  for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>>{
           {"location", "w.bin"}, {"offset", "4"}, {"length", "12"}}) {
    auto* e = t.add_external_data();
    e->set_key(k);
    e->set_value(v);
  }
  m.In("x", {3}).Init(t).Node(MakeNode("Mul", {"x", "w"}, {"y"}, "mul")).Out("y");
  const std::string bytes = m.Bytes();
  {
    std::ofstream f(dir + "/model.onnx", std::ios::binary);
    f << bytes;
  }
  OnnxModelParser parser;
  StatusOr<ComputeGraphPtr> g = parser.ParseFile(dir + "/model.onnx");
  ASSERT_TRUE(g.ok()) << g.status();
  // The tensor views the mapped external file at its offset (no copy; 4 is
  // not 16-byte aligned, so its aligned copy is made when a kernel reads it).
  {
    StatusOr<GeTensor> value =
        AttrUtils::GetTensor((*g)->FindNode("w")->GetOpDesc(), ATTR_NAME_WEIGHTS);
    ASSERT_TRUE(value.ok()) << value.status();
    ASSERT_NE(value->GetBuffer()->file_extent(), nullptr);
    EXPECT_EQ(value->GetBuffer()->file_extent()->offset, 4u);
    EXPECT_EQ(std::memcmp(value->GetBytes().data(), w, sizeof(w)), 0);
    EXPECT_FALSE(value->GetBuffer()->has_copy());
  }
  StatusOr<std::vector<gert::HostTensor>> outs =
      ReferenceInterpreter::Run(**g, Vec(FloatHost({3}, {2, 2, 2})));
  ASSERT_TRUE(outs.ok()) << outs.status();
  EXPECT_EQ(FloatsOf((*outs)[0]), (std::vector<float>{2, 4, 6}));
  // A length that does not match the shape is still named.
  {
    onnx::TensorProto bad = t;
    bad.mutable_external_data(2)->set_value("8");
    G mb;
    mb.In("x", {3}).Init(bad).Node(MakeNode("Mul", {"x", "w"}, {"y"}, "mul")).Out("y");
    ParseOptions in_dir;
    in_dir.model_dir = dir;
    StatusOr<ComputeGraphPtr> bad_g = parser.ParseBytes(mb.Bytes(), in_dir);
    ASSERT_FALSE(bad_g.ok());
    const std::string message(bad_g.status().message());
    EXPECT_NE(message.find("external data 'w.bin' has 8 bytes but shape"), std::string::npos)
        << message;
  }

  g = parser.ParseBytes(bytes);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model 'main': 1 error:\n"
            "  graph 'main': initializer 'w': external data 'w.bin' needs the model directory "
            "(parse the file, or set ParseOptions::model_dir)");
  ParseOptions opts;
  opts.model_dir = dir;
  EXPECT_TRUE(parser.ParseBytes(bytes, opts).ok());

  // Version conversion keeps the external reference.
  for (OnnxVersionConverter c : {OnnxVersionConverter::kOnnx, OnnxVersionConverter::kBuiltin}) {
    ParseOptions old_opset;
    old_opset.model_dir = dir;
    old_opset.converter = c;
    g = parser.ParseBytes(m.Bytes(11), old_opset);
    ASSERT_TRUE(g.ok()) << g.status();
    outs = ReferenceInterpreter::Run(**g, Vec(FloatHost({3}, {1, 1, 1})));
    ASSERT_TRUE(outs.ok()) << outs.status();
    EXPECT_EQ(FloatsOf((*outs)[0]), (std::vector<float>{1, 2, 3}));
  }
}

TEST(OnnxParserTest, SparseInitializerBecomesDenseConst) {
  G m;
  onnx::SparseTensorProto* sp = m.g.add_sparse_initializer();
  sp->add_dims(4);
  *sp->mutable_values() = onnx_test::FloatTensor("w", {2}, {5, 6});
  *sp->mutable_indices() = onnx_test::Int64Tensor("w_idx", {2}, {0, 3});
  m.In("x", {4}).Node(MakeNode("Add", {"x", "w"}, {"y"}, "add")).Out("y");
  for (int64_t opset : {17, 12}) {
    StatusOr<ComputeGraphPtr> g = Parse(m.Bytes(opset));
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_EQ((*g)->FindNode("w")->GetType(), "Const");
    StatusOr<std::vector<gert::HostTensor>> outs =
        ReferenceInterpreter::Run(**g, Vec(FloatHost({4}, {1, 1, 1, 1})));
    ASSERT_TRUE(outs.ok()) << outs.status();
    EXPECT_EQ(FloatsOf((*outs)[0]), (std::vector<float>{6, 1, 1, 7})) << opset;
  }
}

// Big initializers are held out of the parsed message and land in their
// Const tensors intact, from a file (read from the page cache) and from bytes.
TEST(OnnxParserTest, LargeInitializersKeepTheirBytes) {
  constexpr int kN = 4096;  // 16 KiB: held out
  std::vector<float> w(kN);
  for (int i = 0; i < kN; ++i) w[static_cast<size_t>(i)] = static_cast<float>(i) * 0.5f - 7.0f;
  // As raw_data (what exporters write; float_data is never held out).
  onnx::TensorProto raw = onnx_test::FloatTensor("w", {kN}, {});
  raw.set_raw_data(std::string(reinterpret_cast<const char*>(w.data()), sizeof(float) * kN));
  G m;
  m.In("x", {kN})
      .Init(onnx_test::FloatTensor("small", {2}, {1, 2}))
      .Init(raw)
      .Node(MakeNode("Add", {"x", "w"}, {"y"}, "add"))
      .Out("y")
      .Out("small");
  const std::string bytes = m.Bytes();
  const std::string path = WriteTestFile("large_init.onnx", bytes);
  OnnxModelParser parser;
  for (bool from_file : {true, false}) {
    StatusOr<ComputeGraphPtr> g = from_file ? parser.ParseFile(path) : parser.ParseBytes(bytes);
    ASSERT_TRUE(g.ok()) << g.status();
    StatusOr<GeTensor> value =
        AttrUtils::GetTensor((*g)->FindNode("w")->GetOpDesc(), ATTR_NAME_WEIGHTS);
    ASSERT_TRUE(value.ok()) << value.status();
    ASSERT_EQ(value->GetDataSize(), sizeof(float) * kN);
    EXPECT_EQ(
        reinterpret_cast<uintptr_t>(value->GetData().data()) % AlignedBuffer::kMinViewAlignment,
        0u);
    EXPECT_EQ(std::memcmp(value->GetData().data(), w.data(), sizeof(float) * kN), 0) << from_file;
    StatusOr<std::vector<gert::HostTensor>> outs =
        ReferenceInterpreter::Run(**g, Vec(FloatHost({kN}, std::vector<float>(kN, 1.0f))));
    ASSERT_TRUE(outs.ok()) << outs.status();
    const std::vector<float> y = FloatsOf((*outs)[0]);
    ASSERT_EQ(y.size(), static_cast<size_t>(kN));
    EXPECT_EQ(y[0], -6.0f);
    EXPECT_EQ(y[kN - 1], static_cast<float>(kN - 1) * 0.5f - 6.0f);
    EXPECT_EQ(FloatsOf((*outs)[1]), (std::vector<float>{1, 2}));
  }
  // A raw_data size that does not match the shape is still reported.
  G bad;
  onnx::TensorProto t = raw;
  t.set_dims(0, kN + 1);
  bad.In("x", {kN + 1}).Init(t).Node(MakeNode("Add", {"x", "w"}, {"y"}, "add")).Out("y");
  StatusOr<ComputeGraphPtr> g = parser.ParseBytes(bad.Bytes());
  ASSERT_FALSE(g.ok());
  EXPECT_NE(std::string(g.status().message()).find("initializer 'w': raw_data has 16384 bytes"),
            std::string::npos)
      << g.status();
}

// From a file, a held-out initializer's tensor views the mapped file (no copy
// of its bytes) and names the file range it mirrors; the file stays open
// while a tensor views it and is closed with the last one.
TEST(OnnxParserTest, LargeInitializersFromAFileViewTheFile) {
  constexpr int kN = 3001;  // 12004 bytes: held out
  std::vector<float> w(kN);
  for (int i = 0; i < kN; ++i) w[static_cast<size_t>(i)] = static_cast<float>(i) - 100.0f;
  const std::string w_bytes(reinterpret_cast<const char*>(w.data()), sizeof(float) * kN);
  onnx::TensorProto raw = onnx_test::FloatTensor("w", {kN}, {});
  raw.set_raw_data(w_bytes);
  G m;
  m.In("x", {kN}).Init(raw).Node(MakeNode("Add", {"x", "w"}, {"y"}, "add")).Out("y");
  const std::string bytes = m.Bytes();
  const std::string path = WriteTestFile("file_view.onnx", bytes);
  OnnxModelParser parser;
  StatusOr<ComputeGraphPtr> g = parser.ParseFile(path);
  ASSERT_TRUE(g.ok()) << g.status();
  StatusOr<GeTensor> value =
      AttrUtils::GetTensor((*g)->FindNode("w")->GetOpDesc(), ATTR_NAME_WEIGHTS);
  ASSERT_TRUE(value.ok()) << value.status();
  const std::shared_ptr<AlignedBuffer>& buffer = value->GetBuffer();
  ASSERT_NE(buffer, nullptr);
  const FileExtent* extent = buffer->file_extent();
  ASSERT_NE(extent, nullptr);
  EXPECT_EQ(bytes.find(w_bytes), extent->offset);
  EXPECT_FALSE(buffer->has_copy());
  const int fd = extent->fd;
  struct stat st;
  ASSERT_EQ(::fstat(fd, &st), 0);
  EXPECT_EQ(static_cast<size_t>(st.st_size), bytes.size());
  char first[4];
  ASSERT_EQ(::pread(fd, first, 4, static_cast<off_t>(extent->offset)), 4);
  EXPECT_EQ(std::memcmp(first, w.data(), 4), 0);
  EXPECT_EQ(std::memcmp(value->GetBytes().data(), w.data(), w_bytes.size()), 0);
  EXPECT_EQ(std::memcmp(value->GetData().data(), w.data(), w_bytes.size()), 0);
  g = ComputeGraphPtr();
  EXPECT_NE(::fcntl(fd, F_GETFD), -1);  // the tensor still views the file
  value = GeTensor();
  EXPECT_EQ(::fcntl(fd, F_GETFD), -1);  // closed with the last view
}

// Numeric Constant attributes become the node's 'value' tensor (what the
// build stage reads), also when a function body's attribute reference
// supplies them; strings keep value_strings.
TEST(OnnxParserTest, ConstantNumbersBecomeValueTensor) {
  G m;
  onnx::NodeProto ci = MakeNode("Constant", {}, {"ci"}, "ci");
  AddIntAttr(&ci, "value_int", 7);
  onnx::NodeProto cf = MakeNode("Constant", {}, {"cf"}, "cf");
  onnx::AttributeProto* floats = cf.add_attribute();
  floats->set_name("value_floats");
  floats->set_type(onnx::AttributeProto::FLOATS);
  floats->add_floats(1.5f);
  floats->add_floats(-2.0f);
  onnx::NodeProto cis = MakeNode("Constant", {}, {"cis"}, "cis");
  AddIntsAttr(&cis, "value_ints", {4, 5, 6});
  onnx::NodeProto cs = MakeNode("Constant", {}, {"cs"}, "cs");
  AddFloatAttr(&cs, "value_float", 0.25f);
  m.In("x", {2})
      .Node(ci)
      .Node(cf)
      .Node(cis)
      .Node(cs)
      .Node(MakeNode("Mul", {"x", "cf"}, {"y"}, "mul"))
      .Out("y")
      .Out("ci")
      .Out("cis")
      .Out("cs");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  struct Want {
    const char* node;
    DataType dt;
    std::vector<int64_t> dims;
    size_t bytes;
  };
  for (const Want& w : {Want{"ci", DT_INT64, {}, 8}, Want{"cf", DT_FLOAT, {2}, 8},
                        Want{"cis", DT_INT64, {3}, 24}, Want{"cs", DT_FLOAT, {}, 4}}) {
    NodePtr n = (*g)->FindNode(w.node);
    ASSERT_NE(n, nullptr) << w.node;
    StatusOr<GeTensor> value = AttrUtils::GetTensor(n->GetOpDesc(), ATTR_NAME_WEIGHTS);
    ASSERT_TRUE(value.ok()) << w.node << ": " << value.status();
    EXPECT_EQ(value->GetTensorDesc().GetDataType(), w.dt) << w.node;
    EXPECT_EQ(value->GetTensorDesc().GetShape().GetDims(), w.dims) << w.node;
    EXPECT_EQ(value->GetDataSize(), w.bytes) << w.node;
    EXPECT_EQ(n->GetOpDesc()->GetAttr("value_int"), nullptr);
    EXPECT_EQ(n->GetOpDesc()->GetAttr("value_floats"), nullptr);
  }
  StatusOr<std::vector<gert::HostTensor>> outs =
      ReferenceInterpreter::Run(**g, Vec(FloatHost({2}, {2, 4})));
  ASSERT_TRUE(outs.ok()) << outs.status();
  ASSERT_EQ(outs->size(), 4u);
  EXPECT_EQ(FloatsOf((*outs)[0]), (std::vector<float>{3, -8}));
  EXPECT_EQ(onnx_test::Int64sOf((*outs)[1]), (std::vector<int64_t>{7}));
  EXPECT_EQ(onnx_test::Int64sOf((*outs)[2]), (std::vector<int64_t>{4, 5, 6}));
  EXPECT_EQ(FloatsOf((*outs)[3]), (std::vector<float>{0.25f}));

  // A value_int of the wrong attribute type is an error naming the attribute.
  G bad;
  onnx::NodeProto wrong = MakeNode("Constant", {}, {"c"}, "c");
  AddFloatAttr(&wrong, "value_int", 1.0f);
  bad.Node(wrong).Out("c");
  g = Parse(bad.Bytes());
  ASSERT_FALSE(g.ok());
  EXPECT_NE(std::string(g.status().message()).find("attribute 'value_int' must be an int"),
            std::string::npos)
      << g.status();
}

// ------------------------------------------------------------ mappings

TEST(OnnxParserTest, PluginMappingsExtendTheParser) {
  // A custom ONNX op type of the default domain mapped onto Relu.
  FrameworkOpMapping mapping;
  mapping.framework = FrameworkType::ONNX;
  mapping.origin_type = "MyClampLow";
  mapping.op_type = "Relu";
  mapping.attr_mapping = [](const void* node, OpDesc& op) -> Status {
    const auto* n = static_cast<const onnx::NodeProto*>(node);
    return AttrUtils::SetStr(op, "_origin", n->op_type());
  };
  ASSERT_TRUE(FrameworkRegistry::Instance().Register(mapping).ok());
  G m;
  m.In("x", {2}).Node(MakeNode("MyClampLow", {"x"}, {"y"}, "c")).Out("y");
  StatusOr<ComputeGraphPtr> g = Parse(m.Bytes());
  FrameworkRegistry::Instance().UnregisterForTest(FrameworkType::ONNX, "MyClampLow");
  ASSERT_TRUE(g.ok()) << g.status();
  NodePtr n = (*g)->FindNode("c");
  EXPECT_EQ(n->GetType(), "Relu");
  EXPECT_EQ(*AttrUtils::GetStr(n->GetOpDesc(), "_origin"), "MyClampLow");
  StatusOr<std::vector<gert::HostTensor>> outs =
      ReferenceInterpreter::Run(**g, Vec(FloatHost({2}, {-1, 1})));
  ASSERT_TRUE(outs.ok()) << outs.status();
  EXPECT_EQ(FloatsOf((*outs)[0]), (std::vector<float>{0, 1}));
}

TEST(OnnxParserTest, BuiltinMappingsCoverOnnxDomains) {
  onnx_parser::EnsureOnnxMappingsRegistered();
  StatusOr<FrameworkOpMapping> conv =
      FrameworkRegistry::Instance().Find(FrameworkType::ONNX, "Conv", "ai.onnx", 17);
  ASSERT_TRUE(conv.ok()) << conv.status();
  EXPECT_EQ(conv->op_type, "Conv");
  StatusOr<FrameworkOpMapping> adam = FrameworkRegistry::Instance().Find(
      FrameworkType::ONNX, "Adam", onnx_parser::kOnnxTrainingDomain, 1);
  ASSERT_TRUE(adam.ok()) << adam.status();
  const std::vector<std::string> types = onnx_parser::BuiltinOnnxOpTypes("");
  EXPECT_GT(types.size(), 170u);
  EXPECT_TRUE(std::binary_search(types.begin(), types.end(), "Upsample"));
}

}  // namespace
}  // namespace ge
