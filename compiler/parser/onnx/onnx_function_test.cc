// compiler/parser/onnx/onnx_function_test.cc
//
// Function inlining, with a restricted op library (elementwise, reduce,
// array, cast; no nn family): model-local functions (attribute references,
// nested calls, recursion), ops the library lacks replaced by their ONNX
// function bodies (static: MeanVarianceNormalization; context-dependent:
// LayerNormalization), checked by running the result.
#include "compiler/parser/onnx/onnx_function.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "compiler/parser/onnx/onnx_parser.h"
#include "compiler/parser/onnx/onnx_test_util.h"
#include "graph/inc/graph/node.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_interpreter.h"

namespace ge {
namespace {

using onnx::TensorProto;
using onnx_test::FloatHost;
using onnx_test::FloatsOf;
using onnx_test::MakeNode;
using onnx_test::TensorValueInfo;

constexpr char kDomain[] = "custom.fn";

// y = x * alpha + x, alpha from the call's attribute.
onnx::FunctionProto ScaleAdd() {
  onnx::FunctionProto f;
  f.set_name("ScaleAdd");
  f.set_domain(kDomain);
  f.add_input("x");
  f.add_output("y");
  f.add_attribute("alpha");
  onnx::NodeProto c = MakeNode("Constant", {}, {"a"});
  onnx::AttributeProto* ref = c.add_attribute();
  ref->set_name("value_float");
  ref->set_type(onnx::AttributeProto::FLOAT);
  ref->set_ref_attr_name("alpha");
  *f.add_node() = c;
  *f.add_node() = MakeNode("Mul", {"x", "a"}, {"t"});
  *f.add_node() = MakeNode("Add", {"t", "x"}, {"y"});
  auto* o = f.add_opset_import();
  o->set_domain("");
  o->set_version(17);
  return f;
}

// z = ScaleAdd(ScaleAdd(x)) (a local function calling another one).
onnx::FunctionProto Twice() {
  onnx::FunctionProto f;
  f.set_name("Twice");
  f.set_domain(kDomain);
  f.add_input("x");
  f.add_output("z");
  f.add_attribute("alpha");
  for (const auto& [in, out] : {std::pair<std::string, std::string>{"x", "m"}, {"m", "z"}}) {
    onnx::NodeProto call = MakeNode("ScaleAdd", {in}, {out});
    call.set_domain(kDomain);
    onnx::AttributeProto* ref = call.add_attribute();
    ref->set_name("alpha");
    ref->set_type(onnx::AttributeProto::FLOAT);
    ref->set_ref_attr_name("alpha");
    *f.add_node() = call;
  }
  auto* o = f.add_opset_import();
  o->set_domain(kDomain);
  o->set_version(1);
  return f;
}

onnx::ModelProto ModelWithFunctions(const onnx::NodeProto& call) {
  onnx::GraphProto g;
  g.set_name("main");
  *g.add_input() = TensorValueInfo("x", TensorProto::FLOAT, {2});
  *g.add_node() = call;
  g.add_output()->set_name("y");
  onnx::ModelProto m = onnx_test::MakeModel(g, 17);
  auto* o = m.add_opset_import();
  o->set_domain(kDomain);
  o->set_version(1);
  *m.add_functions() = ScaleAdd();
  *m.add_functions() = Twice();
  return m;
}

StatusOr<std::vector<gert::HostTensor>> ParseAndRun(const onnx::ModelProto& m,
                                                    std::vector<gert::HostTensor> inputs,
                                                    OnnxParseInfo* info,
                                                    ComputeGraphPtr* graph_out = nullptr) {
  OnnxModelParser parser;
  ParseOptions opts;
  opts.info = info;
  ASSIGN_OR_RETURN(ComputeGraphPtr graph, parser.ParseBytes(onnx_test::Serialize(m), opts));
  if (graph_out != nullptr) *graph_out = graph;
  return ReferenceInterpreter::Run(*graph, std::move(inputs));
}

std::vector<gert::HostTensor> One(gert::HostTensor t) {
  std::vector<gert::HostTensor> v;
  v.push_back(std::move(t));
  return v;
}

TEST(OnnxFunctionTest, ModelLocalFunctionsAreInlined) {
  onnx::NodeProto call = MakeNode("Twice", {"x"}, {"y"}, "twice");
  call.set_domain(kDomain);
  onnx_test::AddFloatAttr(&call, "alpha", 2.0f);
  OnnxParseInfo info;
  ComputeGraphPtr graph;
  StatusOr<std::vector<gert::HostTensor>> outs =
      ParseAndRun(ModelWithFunctions(call), One(FloatHost({2}, {1, -1})), &info, &graph);
  ASSERT_TRUE(outs.ok()) << outs.status();
  // Twice, then its two ScaleAdd calls.
  EXPECT_EQ(info.inlined_functions, 3);
  // x * 3 twice.
  EXPECT_EQ(FloatsOf((*outs)[0]), (std::vector<float>{9, -9}));
  std::vector<std::string> types;
  for (const NodePtr& n : graph->GetDirectNode()) types.push_back(n->GetType());
  EXPECT_EQ(types, (std::vector<std::string>{"Data", "Constant", "Mul", "Add", "Constant", "Mul",
                                             "Add", "NetOutput"}));
  // Inlined values and nodes are prefixed with the call.
  EXPECT_NE(graph->FindNode("twice/ScaleAdd_0/Mul_1"), nullptr);
  EXPECT_NE(graph->FindNode("twice/ScaleAdd_1/Add_2"), nullptr);
}

TEST(OnnxFunctionTest, LocalFunctionsSurviveVersionConversion) {
  onnx::NodeProto call = MakeNode("ScaleAdd", {"x"}, {"y"}, "sa");
  call.set_domain(kDomain);
  onnx_test::AddFloatAttr(&call, "alpha", 1.0f);
  onnx::ModelProto m = ModelWithFunctions(call);
  m.mutable_opset_import(0)->set_version(13);
  // ONNX's converter fails on the custom-domain call; kAuto falls back.
  for (OnnxVersionConverter c : {OnnxVersionConverter::kAuto, OnnxVersionConverter::kBuiltin}) {
    OnnxModelParser parser;
    ParseOptions opts;
    OnnxParseInfo info;
    opts.converter = c;
    opts.info = &info;
    StatusOr<ComputeGraphPtr> g = parser.ParseBytes(onnx_test::Serialize(m), opts);
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_EQ(info.converter, "builtin");
    EXPECT_EQ(info.inlined_functions, 1);
    StatusOr<std::vector<gert::HostTensor>> outs =
        ReferenceInterpreter::Run(**g, One(FloatHost({2}, {1, 2})));
    ASSERT_TRUE(outs.ok()) << outs.status();
    EXPECT_EQ(FloatsOf((*outs)[0]), (std::vector<float>{2, 4}));
  }
}

TEST(OnnxFunctionTest, MissingAttributeReferenceIsDropped) {
  // Without alpha the Constant has no value: the op reports it when run.
  onnx::NodeProto call = MakeNode("ScaleAdd", {"x"}, {"y"}, "sa");
  call.set_domain(kDomain);
  OnnxParseInfo info;
  StatusOr<std::vector<gert::HostTensor>> outs =
      ParseAndRun(ModelWithFunctions(call), One(FloatHost({2}, {1, 2})), &info);
  ASSERT_FALSE(outs.ok());
  EXPECT_EQ(info.inlined_functions, 1);
  EXPECT_NE(outs.status().message().find("exactly one of value"), std::string::npos)
      << outs.status();
}

TEST(OnnxFunctionTest, RecursiveFunctionsAreRejected) {
  onnx::ModelProto m = ModelWithFunctions(MakeNode("Loopy", {"x"}, {"y"}, "l"));
  m.mutable_graph()->mutable_node(0)->set_domain(kDomain);
  onnx::FunctionProto f;
  f.set_name("Loopy");
  f.set_domain(kDomain);
  f.add_input("x");
  f.add_output("y");
  onnx::NodeProto self = MakeNode("Loopy", {"x"}, {"y"});
  self.set_domain(kDomain);
  *f.add_node() = self;
  *m.add_functions() = f;
  OnnxModelParser parser;
  StatusOr<ComputeGraphPtr> g = parser.ParseBytes(onnx_test::Serialize(m));
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kNotSupported);
  EXPECT_EQ(std::string(g.status().message()),
            "ONNX model 'main': graph 'main': functions nest deeper than 8 levels (recursive "
            "function?)");
}

TEST(OnnxFunctionTest, MissingOpWithStaticFunctionBody) {
  // MeanVarianceNormalization (nn family, not linked) over axes 0 of [4].
  onnx::GraphProto g;
  g.set_name("main");
  *g.add_input() = TensorValueInfo("x", TensorProto::FLOAT, {4});
  onnx::NodeProto mvn = MakeNode("MeanVarianceNormalization", {"x"}, {"y"}, "mvn");
  onnx_test::AddIntsAttr(&mvn, "axes", {0});
  *g.add_node() = mvn;
  g.add_output()->set_name("y");
  OnnxParseInfo info;
  StatusOr<std::vector<gert::HostTensor>> outs =
      ParseAndRun(onnx_test::MakeModel(g, 13), One(FloatHost({4}, {1, 2, 3, 4})), &info);
  ASSERT_TRUE(outs.ok()) << outs.status();
  EXPECT_EQ(info.inlined_functions, 1);
  const std::vector<float> y = FloatsOf((*outs)[0]);
  ASSERT_EQ(y.size(), 4u);
  // mean 2.5, std sqrt(1.25).
  const float s = std::sqrt(1.25f);
  const float want[4] = {-1.5f / s, -0.5f / s, 0.5f / s, 1.5f / s};
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(y[static_cast<size_t>(i)], want[i], 1e-4) << i;
}

TEST(OnnxFunctionTest, MissingOpWithContextDependentFunctionBody) {
  onnx::GraphProto g;
  g.set_name("main");
  *g.add_input() = TensorValueInfo("x", TensorProto::FLOAT, {1, 2});
  *g.add_initializer() = onnx_test::FloatTensor("scale", {2}, {1, 2});
  *g.add_initializer() = onnx_test::FloatTensor("bias", {2}, {0, 1});
  onnx::NodeProto ln = MakeNode("LayerNormalization", {"x", "scale", "bias"}, {"y"}, "ln");
  onnx_test::AddFloatAttr(&ln, "epsilon", 0.0f);
  *g.add_node() = ln;
  g.add_output()->set_name("y");
  OnnxParseInfo info;
  StatusOr<std::vector<gert::HostTensor>> outs =
      ParseAndRun(onnx_test::MakeModel(g, 17), One(FloatHost({1, 2}, {1, 3})), &info);
  ASSERT_TRUE(outs.ok()) << outs.status();
  EXPECT_EQ(info.inlined_functions, 1);
  const std::vector<float> y = FloatsOf((*outs)[0]);
  ASSERT_EQ(y.size(), 2u);
  EXPECT_NEAR(y[0], -1.0f, 1e-5);
  EXPECT_NEAR(y[1], 3.0f, 1e-5);
}

TEST(OnnxFunctionTest, OpsWithoutFunctionBodyStayUnsupported) {
  onnx::GraphProto g;
  g.set_name("main");
  *g.add_input() = TensorValueInfo("x", TensorProto::FLOAT, {1, 1, 2, 2});
  *g.add_node() = MakeNode("GlobalMaxPool", {"x"}, {"y"}, "pool");
  g.add_output()->set_name("y");
  OnnxModelParser parser;
  StatusOr<ComputeGraphPtr> graph =
      parser.ParseBytes(onnx_test::Serialize(onnx_test::MakeModel(g, 17)));
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(std::string(graph.status().message()),
            "ONNX model 'main': 1 error:\n"
            "  graph 'main': node 'pool' (GlobalMaxPool): unsupported op type 'GlobalMaxPool' "
            "(domain ''): op GlobalMaxPool is not in the linked op library");
}

}  // namespace
}  // namespace ge
