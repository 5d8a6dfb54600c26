// compiler/parser/onnx/onnx_version_test.cc
//
// Opset normalisation: every builtin adapter on a small old-opset model, run
// through the parser and the reference interpreter against hand-computed
// results (and against ONNX's converter where it handles the model), the
// kAuto fallback when ONNX's converter fails or is known to change the
// semantics, and the errors of unconvertible ops.
#include "compiler/parser/onnx/onnx_version.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/parser/onnx/onnx_parser.h"
#include "compiler/parser/onnx/onnx_test_util.h"
#include "graph/inc/graph/node.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_interpreter.h"

namespace ge {
namespace {

using onnx::TensorProto;
using onnx_test::AddFloatAttr;
using onnx_test::AddIntAttr;
using onnx_test::AddIntsAttr;
using onnx_test::AddStringAttr;
using onnx_test::FloatHost;
using onnx_test::FloatsOf;
using onnx_test::MakeNode;
using onnx_test::TensorValueInfo;

// A one-node model at `opset`: inputs (name, dims) of FLOAT, outputs FLOAT.
onnx::ModelProto OneNode(const onnx::NodeProto& node, int64_t opset,
                         const std::vector<std::pair<std::string, std::vector<int64_t>>>& inputs,
                         const std::vector<std::string>& outputs) {
  onnx::GraphProto g;
  g.set_name("g");
  *g.add_node() = node;
  for (const auto& [name, dims] : inputs)
    *g.add_input() = TensorValueInfo(name, TensorProto::FLOAT, dims);
  for (const std::string& o : outputs) {
    onnx::ValueInfoProto* vi = g.add_output();
    vi->set_name(o);
  }
  onnx::ModelProto m = onnx_test::MakeModel(g, opset);
  m.set_ir_version(3);
  return m;
}

struct RunResult {
  Status status;
  std::vector<gert::HostTensor> outputs;
  OnnxParseInfo info;
  ComputeGraphPtr graph;
};

RunResult ParseAndRun(const onnx::ModelProto& model, OnnxVersionConverter converter,
                      std::vector<gert::HostTensor> inputs) {
  RunResult r;
  OnnxModelParser parser;
  ParseOptions opts;
  opts.converter = converter;
  opts.info = &r.info;
  StatusOr<ComputeGraphPtr> graph = parser.ParseBytes(onnx_test::Serialize(model), opts);
  if (!graph.ok()) {
    r.status = graph.status();
    return r;
  }
  r.graph = *graph;
  StatusOr<std::vector<gert::HostTensor>> outs =
      ReferenceInterpreter::Run(**graph, std::move(inputs));
  if (!outs.ok()) {
    r.status = outs.status();
    return r;
  }
  r.outputs = std::move(outs).value();
  return r;
}

std::vector<gert::HostTensor> Inputs(gert::HostTensor a) {
  std::vector<gert::HostTensor> v;
  v.push_back(std::move(a));
  return v;
}

std::vector<gert::HostTensor> Inputs(gert::HostTensor a, gert::HostTensor b) {
  std::vector<gert::HostTensor> v;
  v.push_back(std::move(a));
  v.push_back(std::move(b));
  return v;
}

// Parses with the builtin adapters and with kAuto; both must give `want`.
void ExpectOutput(const onnx::ModelProto& model,
                  const std::function<std::vector<gert::HostTensor>()>& inputs,
                  const std::vector<int64_t>& want_dims, const std::vector<float>& want,
                  const std::string& expect_auto_converter = "") {
  for (OnnxVersionConverter c : {OnnxVersionConverter::kBuiltin, OnnxVersionConverter::kAuto}) {
    SCOPED_TRACE(c == OnnxVersionConverter::kBuiltin ? "builtin" : "auto");
    RunResult r = ParseAndRun(model, c, inputs());
    ASSERT_TRUE(r.status.ok()) << r.status;
    EXPECT_EQ(r.info.opset, 17);
    if (c == OnnxVersionConverter::kBuiltin) {
      EXPECT_EQ(r.info.converter, "builtin");
    }
    if (c == OnnxVersionConverter::kAuto && !expect_auto_converter.empty()) {
      EXPECT_EQ(r.info.converter, expect_auto_converter);
    }
    ASSERT_EQ(r.outputs.size(), 1u);
    EXPECT_EQ(r.outputs[0].GetShape().ToVector(), want_dims);
    EXPECT_EQ(FloatsOf(r.outputs[0]), want);
  }
}

// The single non-Data / non-Const / non-NetOutput node types of the root.
std::vector<std::string> OpTypes(const ComputeGraph& g) {
  std::vector<std::string> types;
  for (const NodePtr& n : g.GetDirectNode()) {
    const std::string& t = n->GetType();
    if (t != "Data" && t != "Const" && t != "NetOutput") types.push_back(t);
  }
  return types;
}

TEST(OnnxVersionTest, ModelAtTargetIsUntouched) {
  onnx::ModelProto m = OneNode(MakeNode("Relu", {"x"}, {"y"}), 17, {{"x", {2}}}, {"y"});
  StatusOr<onnx_parser::OpsetConversion> c =
      onnx_parser::NormalizeOpset(&m, 17, OnnxVersionConverter::kAuto);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->converter, "none");
  EXPECT_EQ(c->from_opset, 17);

  onnx::ModelProto newer = OneNode(MakeNode("Relu", {"x"}, {"y"}), 18, {{"x", {2}}}, {"y"});
  c = onnx_parser::NormalizeOpset(&newer, 17, OnnxVersionConverter::kAuto);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(std::string(c.status().message()),
            "model opset 18 is newer than the supported opset 17");
}

TEST(OnnxVersionTest, ReshapeShapeAttributeBecomesInput) {
  onnx::NodeProto n = MakeNode("Reshape", {"x"}, {"y"}, "r");
  AddIntsAttr(&n, "shape", {3, -1});
  onnx::ModelProto m = OneNode(n, 4, {{"x", {2, 3}}}, {"y"});
  onnx::ModelProto adapted = m;
  ASSERT_TRUE(onnx_parser::ApplyBuiltinAdapters(&adapted, 17).ok());
  ASSERT_EQ(adapted.graph().node_size(), 1);
  EXPECT_EQ(adapted.graph().node(0).input_size(), 2);
  EXPECT_EQ(adapted.graph().node(0).attribute_size(), 0);
  ASSERT_EQ(adapted.graph().initializer_size(), 1);
  EXPECT_EQ(adapted.graph().initializer(0).int64_data_size(), 2);
  EXPECT_EQ(onnx_parser::DefaultDomainOpset(adapted), 17);
  ExpectOutput(m,
               [] {
                 return Inputs(FloatHost({2, 3}, {1, 2, 3, 4, 5, 6}));
               },
               {3, 2}, {1, 2, 3, 4, 5, 6});
}

TEST(OnnxVersionTest, SliceAttributesBecomeInputs) {
  onnx::NodeProto n = MakeNode("Slice", {"x"}, {"y"}, "s");
  AddIntsAttr(&n, "starts", {1});
  AddIntsAttr(&n, "ends", {3});
  AddIntsAttr(&n, "axes", {1});
  ExpectOutput(OneNode(n, 9, {{"x", {2, 4}}}, {"y"}),
               [] {
                 return Inputs(FloatHost({2, 4}, {0, 1, 2, 3, 4, 5, 6, 7}));
               },
               {2, 2}, {1, 2, 5, 6});
}

TEST(OnnxVersionTest, SqueezeUnsqueezeAxesBecomeInputs) {
  onnx::NodeProto u = MakeNode("Unsqueeze", {"x"}, {"y"}, "u");
  AddIntsAttr(&u, "axes", {0, 2});
  ExpectOutput(OneNode(u, 11, {{"x", {2}}}, {"y"}),
               [] {
                 return Inputs(FloatHost({2}, {1, 2}));
               },
               {1, 2, 1}, {1, 2});
  onnx::NodeProto s = MakeNode("Squeeze", {"x"}, {"y"}, "s");
  AddIntsAttr(&s, "axes", {1});
  ExpectOutput(OneNode(s, 12, {{"x", {2, 1}}}, {"y"}),
               [] {
                 return Inputs(FloatHost({2, 1}, {3, 4}));
               },
               {2}, {3, 4});
}

TEST(OnnxVersionTest, ReduceSumAxesBecomeInput) {
  onnx::NodeProto n = MakeNode("ReduceSum", {"x"}, {"y"}, "r");
  AddIntsAttr(&n, "axes", {1});
  AddIntAttr(&n, "keepdims", 0);
  ExpectOutput(OneNode(n, 11, {{"x", {2, 3}}}, {"y"}),
               [] {
                 return Inputs(FloatHost({2, 3}, {1, 2, 3, 4, 5, 6}));
               },
               {2}, {6, 15});
}

TEST(OnnxVersionTest, SplitAttributeBecomesInput) {
  onnx::NodeProto n = MakeNode("Split", {"x"}, {"a", "b"}, "s");
  AddIntsAttr(&n, "split", {1, 3});
  AddIntAttr(&n, "axis", 0);
  onnx::ModelProto m = OneNode(n, 11, {{"x", {4}}}, {"a", "b"});
  for (OnnxVersionConverter c : {OnnxVersionConverter::kBuiltin, OnnxVersionConverter::kOnnx}) {
    RunResult r = ParseAndRun(m, c, Inputs(FloatHost({4}, {1, 2, 3, 4})));
    ASSERT_TRUE(r.status.ok()) << r.status;
    ASSERT_EQ(r.outputs.size(), 2u);
    EXPECT_EQ(FloatsOf(r.outputs[0]), std::vector<float>{1});
    EXPECT_EQ(FloatsOf(r.outputs[1]), (std::vector<float>{2, 3, 4}));
  }
}

TEST(OnnxVersionTest, PadAttributesBecomeInputs) {
  onnx::NodeProto n = MakeNode("Pad", {"x"}, {"y"}, "p");
  AddIntsAttr(&n, "pads", {1, 0});
  AddFloatAttr(&n, "value", 9.0f);
  ExpectOutput(OneNode(n, 2, {{"x", {2}}}, {"y"}),
               [] {
                 return Inputs(FloatHost({2}, {1, 2}));
               },
               {3}, {9, 1, 2});
  // Opset 1 spells the attribute `paddings` (ONNX's converter cannot convert it).
  onnx::NodeProto old = MakeNode("Pad", {"x"}, {"y"}, "p");
  AddIntsAttr(&old, "paddings", {0, 2});
  AddStringAttr(&old, "mode", "edge");
  RunResult r = ParseAndRun(OneNode(old, 1, {{"x", {2}}}, {"y"}), OnnxVersionConverter::kBuiltin,
                            Inputs(FloatHost({2}, {1, 2})));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(FloatsOf(r.outputs[0]), (std::vector<float>{1, 2, 2, 2}));
}

TEST(OnnxVersionTest, ClipMinMaxBecomeInputs) {
  onnx::NodeProto n = MakeNode("Clip", {"x"}, {"y"}, "c");
  AddFloatAttr(&n, "min", -1.0f);
  AddFloatAttr(&n, "max", 2.0f);
  ExpectOutput(OneNode(n, 6, {{"x", {4}}}, {"y"}),
               [] {
                 return Inputs(FloatHost({4}, {-5, 0, 1.5f, 7}));
               },
               {4}, {-1, 0, 1.5f, 2});
  onnx::NodeProto only_max = MakeNode("Clip", {"x"}, {"y"}, "c");
  AddFloatAttr(&only_max, "max", 0.5f);
  ExpectOutput(OneNode(only_max, 6, {{"x", {2}}}, {"y"}),
               [] {
                 return Inputs(FloatHost({2}, {-5, 3}));
               },
               {2}, {-5, 0.5f});
}

TEST(OnnxVersionTest, TopKAttributeBecomesInput) {
  onnx::NodeProto n = MakeNode("TopK", {"x"}, {"v", "i"}, "t");
  AddIntAttr(&n, "k", 2);
  onnx::ModelProto m = OneNode(n, 9, {{"x", {4}}}, {"v", "i"});
  RunResult r =
      ParseAndRun(m, OnnxVersionConverter::kBuiltin, Inputs(FloatHost({4}, {3, 9, 1, 5})));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(FloatsOf(r.outputs[0]), (std::vector<float>{9, 5}));
  EXPECT_EQ(onnx_test::Int64sOf(r.outputs[1]), (std::vector<int64_t>{1, 3}));
}

TEST(OnnxVersionTest, UpsampleScalesBecomeInput) {
  onnx::NodeProto n = MakeNode("Upsample", {"x"}, {"y"}, "u");
  onnx::AttributeProto* a = n.add_attribute();
  a->set_name("scales");
  a->set_type(onnx::AttributeProto::FLOATS);
  for (float s : {1.0f, 1.0f, 1.0f, 2.0f}) a->add_floats(s);
  AddStringAttr(&n, "mode", "nearest");
  // Upsample before opset 11 is never given to ONNX's converter (it changes
  // the coordinate mapping), so kAuto uses the builtin adapters too.
  ExpectOutput(
      OneNode(n, 7, {{"x", {1, 1, 1, 2}}}, {"y"}),
      [] {
        return Inputs(FloatHost({1, 1, 1, 2}, {1, 2}));
      },
      {1, 1, 1, 4}, {1, 1, 2, 2}, "builtin");

  onnx::NodeProto v1 = MakeNode("Upsample", {"x"}, {"y"}, "u");
  AddFloatAttr(&v1, "height_scale", 2.0f);
  AddFloatAttr(&v1, "width_scale", 1.0f);
  AddStringAttr(&v1, "mode", "nearest");
  RunResult r = ParseAndRun(OneNode(v1, 1, {{"x", {1, 1, 2, 1}}}, {"y"}),
                            OnnxVersionConverter::kAuto, Inputs(FloatHost({1, 1, 2, 1}, {1, 2})));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.outputs[0].GetShape().ToVector(), (std::vector<int64_t>{1, 1, 4, 1}));
  EXPECT_EQ(FloatsOf(r.outputs[0]), (std::vector<float>{1, 1, 2, 2}));
}

TEST(OnnxVersionTest, Resize10UsesAsymmetricCoordinates) {
  onnx::NodeProto n = MakeNode("Resize", {"x", "scales"}, {"y"}, "r");
  AddStringAttr(&n, "mode", "linear");
  onnx::ModelProto m = OneNode(n, 10, {{"x", {1, 1, 1, 2}}}, {"y"});
  *m.mutable_graph()->add_initializer() = onnx_test::FloatTensor("scales", {4}, {1, 1, 1, 2});
  // Asymmetric linear: x_in = x_out / 2 -> 1, 1.5, 2, 2 (clamped).
  ExpectOutput(
      m,
      [] {
        return Inputs(FloatHost({1, 1, 1, 2}, {1, 2}));
      },
      {1, 1, 1, 4}, {1, 1.5f, 2, 2}, "builtin");
}

TEST(OnnxVersionTest, DropoutRatioAndLegacyAttributesDropped) {
  onnx::NodeProto n = MakeNode("Dropout", {"x"}, {"y"}, "d");
  AddFloatAttr(&n, "ratio", 0.25f);
  AddIntAttr(&n, "is_test", 1);
  ExpectOutput(OneNode(n, 6, {{"x", {3}}}, {"y"}),
               [] {
                 return Inputs(FloatHost({3}, {1, 2, 3}));
               },
               {3}, {1, 2, 3});
}

TEST(OnnxVersionTest, BatchNormalizationLegacyAttributes) {
  onnx::NodeProto n = MakeNode("BatchNormalization", {"x", "s", "b", "m", "v"}, {"y"}, "bn");
  AddIntsAttr(&n, "consumed_inputs", {0, 0, 0, 1, 1});
  AddIntAttr(&n, "is_test", 1);
  AddIntAttr(&n, "spatial", 1);
  AddFloatAttr(&n, "epsilon", 0.0f);
  onnx::ModelProto m = OneNode(n, 5, {{"x", {1, 2, 1, 1}}}, {"y"});
  *m.mutable_graph()->add_initializer() = onnx_test::FloatTensor("s", {2}, {2, 3});
  *m.mutable_graph()->add_initializer() = onnx_test::FloatTensor("b", {2}, {1, 0});
  *m.mutable_graph()->add_initializer() = onnx_test::FloatTensor("m", {2}, {0, 1});
  *m.mutable_graph()->add_initializer() = onnx_test::FloatTensor("v", {2}, {1, 4});
  RunResult r =
      ParseAndRun(m, OnnxVersionConverter::kBuiltin, Inputs(FloatHost({1, 2, 1, 1}, {5, 5})));
  ASSERT_TRUE(r.status.ok()) << r.status;
  // (5 - 0) / 1 * 2 + 1 = 11; (5 - 1) / 2 * 3 + 0 = 6.
  EXPECT_EQ(FloatsOf(r.outputs[0]), (std::vector<float>{11, 6}));

  onnx::NodeProto per_act = n;
  AddIntAttr(&per_act, "spatial", 0);
  per_act.mutable_attribute()->DeleteSubrange(2, 1);  // the spatial=1 entry
  onnx::ModelProto bad = m;
  *bad.mutable_graph()->mutable_node(0) = per_act;
  r = ParseAndRun(bad, OnnxVersionConverter::kBuiltin, Inputs(FloatHost({1, 2, 1, 1}, {5, 5})));
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(std::string(r.status.message()),
            "ONNX model 'g': converting from opset 5 to 17: node 'bn' (BatchNormalization, opset "
            "5): spatial=0 (per-activation statistics) is not supported");
}

TEST(OnnxVersionTest, SoftmaxCoercesToTwoDimensions) {
  // Opset 11 Softmax(axis=1) on [1,2,2] normalises over the last two dims.
  onnx::NodeProto n = MakeNode("Softmax", {"x"}, {"y"}, "sm");
  AddIntAttr(&n, "axis", 1);
  onnx::ModelProto m = OneNode(n, 11, {{"x", {1, 2, 2}}}, {"y"});
  onnx::ModelProto adapted = m;
  ASSERT_TRUE(onnx_parser::ApplyBuiltinAdapters(&adapted, 17).ok());
  std::vector<std::string> types;
  for (const auto& node : adapted.graph().node()) types.push_back(node.op_type());
  EXPECT_EQ(types, (std::vector<std::string>{"Shape", "Flatten", "Softmax", "Reshape"}));
  ExpectOutput(m,
               [] {
                 return Inputs(FloatHost({1, 2, 2}, {0, 0, 0, 0}));
               },
               {1, 2, 2}, {0.25f, 0.25f, 0.25f, 0.25f});

  // The last axis needs no rewrite.
  onnx::NodeProto last = MakeNode("Softmax", {"x"}, {"y"}, "sm");
  AddIntAttr(&last, "axis", 2);
  onnx::ModelProto m2 = OneNode(last, 11, {{"x", {1, 2, 2}}}, {"y"});
  ASSERT_TRUE(onnx_parser::ApplyBuiltinAdapters(&m2, 17).ok());
  ASSERT_EQ(m2.graph().node_size(), 1);
  EXPECT_EQ(m2.graph().node(0).attribute(0).i(), -1);
}

TEST(OnnxVersionTest, CastTypeNameFallsBackToBuiltin) {
  onnx::NodeProto n = MakeNode("Cast", {"x"}, {"y"}, "c");
  AddStringAttr(&n, "to", "INT64");
  onnx::ModelProto m = OneNode(n, 1, {{"x", {2}}}, {"y"});
  RunResult r = ParseAndRun(m, OnnxVersionConverter::kAuto, Inputs(FloatHost({2}, {1.7f, -2.2f})));
  ASSERT_TRUE(r.status.ok()) << r.status;
  // ONNX's converter has no Cast adapter from opset 5: the builtin ones ran.
  EXPECT_EQ(r.info.converter, "builtin");
  EXPECT_EQ(r.info.source_opset, 1);
  EXPECT_FALSE(r.info.onnx_converter_error.empty());
  EXPECT_EQ(onnx_test::Int64sOf(r.outputs[0]), (std::vector<int64_t>{1, -2}));

  r = ParseAndRun(m, OnnxVersionConverter::kOnnx, Inputs(FloatHost({2}, {1.7f, -2.2f})));
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(GetErrorCode(r.status), ErrorCode::kNotSupported);
  EXPECT_NE(r.status.message().find("ONNX version converter failed from opset 1 to 17"),
            std::string::npos)
      << r.status;

  onnx::NodeProto bad = MakeNode("Cast", {"x"}, {"y"}, "c");
  AddStringAttr(&bad, "to", "FLOAT99");
  r = ParseAndRun(OneNode(bad, 1, {{"x", {2}}}, {"y"}), OnnxVersionConverter::kBuiltin,
                  Inputs(FloatHost({2}, {1, 2})));
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(std::string(r.status.message()),
            "ONNX model 'g': converting from opset 1 to 17: node 'c' (Cast, opset 1): unknown "
            "type name 'FLOAT99' in attribute 'to'");
}

TEST(OnnxVersionTest, ConcatAxisDefaultsToOne) {
  onnx::NodeProto n = MakeNode("Concat", {"a", "b"}, {"y"}, "c");
  ExpectOutput(OneNode(n, 3, {{"a", {1, 1}}, {"b", {1, 1}}}, {"y"}),
               [] {
                 return Inputs(FloatHost({1, 1}, {1}), FloatHost({1, 1}, {2}));
               },
               {1, 2}, {1, 2});
}

TEST(OnnxVersionTest, LegacyBroadcastAxisAlignsB) {
  // Opset 6 Add(broadcast=1, axis=1): B [2] lines up with A's dim 1 of [1,2,3].
  onnx::NodeProto n = MakeNode("Add", {"a", "b"}, {"y"}, "add");
  AddIntAttr(&n, "broadcast", 1);
  AddIntAttr(&n, "axis", 1);
  onnx::ModelProto m = OneNode(n, 6, {{"a", {1, 2, 3}}, {"b", {2}}}, {"y"});
  RunResult r =
      ParseAndRun(m, OnnxVersionConverter::kAuto,
                  Inputs(FloatHost({1, 2, 3}, {0, 0, 0, 1, 1, 1}), FloatHost({2}, {10, 20})));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.info.converter, "builtin");  // ONNX's converter rejects this model
  EXPECT_EQ(FloatsOf(r.outputs[0]), (std::vector<float>{10, 10, 10, 21, 21, 21}));
  EXPECT_EQ(OpTypes(*r.graph), (std::vector<std::string>{"Unsqueeze", "Add"}));

  // Without the ranks the alignment cannot be built.
  onnx::ModelProto unknown = OneNode(n, 6, {{"a", {}}, {"b", {2}}}, {"y"});
  unknown.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->clear_shape();
  r = ParseAndRun(unknown, OnnxVersionConverter::kBuiltin,
                  Inputs(FloatHost({1, 2, 3}, {0, 0, 0, 1, 1, 1}), FloatHost({2}, {10, 20})));
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(std::string(r.status.message()),
            "ONNX model 'g': converting from opset 6 to 17: node 'add' (Add, opset 6): legacy "
            "broadcast with axis 1 needs the ranks of both inputs, which are unknown");
}

TEST(OnnxVersionTest, PRelu6SlopeIsPerChannel) {
  onnx::NodeProto n = MakeNode("PRelu", {"x", "slope"}, {"y"}, "p");
  onnx::ModelProto m = OneNode(n, 6, {{"x", {1, 2, 2}}, {"slope", {2}}}, {"y"});
  RunResult r =
      ParseAndRun(m, OnnxVersionConverter::kAuto,
                  Inputs(FloatHost({1, 2, 2}, {-1, -1, -1, 1}), FloatHost({2}, {0.5f, 2})));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.info.converter, "builtin");
  EXPECT_EQ(FloatsOf(r.outputs[0]), (std::vector<float>{-0.5f, -0.5f, -2, 1}));
}

TEST(OnnxVersionTest, Scan8BecomesNestedScans) {
  // Scan-8 over a batch of 2: state s [2,1], scan input x [2,3,1]; the body adds.
  onnx::GraphProto body;
  body.set_name("body");
  *body.add_input() = TensorValueInfo("s_in", TensorProto::FLOAT, {1});
  *body.add_input() = TensorValueInfo("x_in", TensorProto::FLOAT, {1});
  *body.add_node() = MakeNode("Add", {"s_in", "x_in"}, {"s_out"}, "acc");
  *body.add_node() = MakeNode("Identity", {"s_out"}, {"y_out"}, "copy");
  *body.add_output() = TensorValueInfo("s_out", TensorProto::FLOAT, {1});
  *body.add_output() = TensorValueInfo("y_out", TensorProto::FLOAT, {1});
  onnx::NodeProto scan = MakeNode("Scan", {"", "s", "x"}, {"s_final", "ys"}, "scan");
  AddIntAttr(&scan, "num_scan_inputs", 1);
  onnx_test::AddGraphAttr(&scan, "body", body);
  onnx::ModelProto m = OneNode(scan, 8, {{"s", {2, 1}}, {"x", {2, 3, 1}}}, {"s_final", "ys"});
  for (OnnxVersionConverter c : {OnnxVersionConverter::kAuto, OnnxVersionConverter::kBuiltin}) {
    RunResult r = ParseAndRun(
        m, c, Inputs(FloatHost({2, 1}, {0, 100}), FloatHost({2, 3, 1}, {1, 2, 3, 4, 5, 6})));
    ASSERT_TRUE(r.status.ok()) << r.status;
    EXPECT_EQ(r.info.converter, "builtin");
    ASSERT_EQ(r.outputs.size(), 2u);
    EXPECT_EQ(FloatsOf(r.outputs[0]), (std::vector<float>{6, 115}));
    EXPECT_EQ(r.outputs[1].GetShape().ToVector(), (std::vector<int64_t>{2, 3, 1}));
    EXPECT_EQ(FloatsOf(r.outputs[1]), (std::vector<float>{1, 3, 6, 104, 109, 115}));
  }
  onnx::NodeProto with_lens = scan;
  with_lens.set_input(0, "s");
  onnx::ModelProto bad =
      OneNode(with_lens, 8, {{"s", {2, 1}}, {"x", {2, 3, 1}}}, {"s_final", "ys"});
  RunResult r = ParseAndRun(bad, OnnxVersionConverter::kBuiltin, {});
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(std::string(r.status.message()),
            "ONNX model 'g': converting from opset 8 to 17: node 'scan' (Scan, opset 8): "
            "sequence_lens is not supported");
}

TEST(OnnxVersionTest, SubgraphNodesAreAdaptedToo) {
  // An If (opset 11) whose branch uses Squeeze with the axes attribute.
  onnx::GraphProto then_g;
  then_g.set_name("then");
  onnx::NodeProto sq = MakeNode("Squeeze", {"x"}, {"t"}, "sq");
  AddIntsAttr(&sq, "axes", {0});
  *then_g.add_node() = sq;
  then_g.add_output()->set_name("t");
  onnx::GraphProto else_g;
  else_g.set_name("else");
  *else_g.add_node() = MakeNode("Neg", {"x"}, {"e0"}, "neg");
  onnx::NodeProto sq2 = MakeNode("Squeeze", {"e0"}, {"e"}, "sq2");
  AddIntsAttr(&sq2, "axes", {0});
  *else_g.add_node() = sq2;
  else_g.add_output()->set_name("e");
  onnx::NodeProto node = MakeNode("If", {"c"}, {"y"}, "if");
  onnx_test::AddGraphAttr(&node, "then_branch", then_g);
  onnx_test::AddGraphAttr(&node, "else_branch", else_g);
  onnx::GraphProto g;
  g.set_name("g");
  *g.add_node() = node;
  *g.add_input() = TensorValueInfo("c", TensorProto::BOOL, {});
  *g.add_input() = TensorValueInfo("x", TensorProto::FLOAT, {1, 2});
  g.add_output()->set_name("y");
  onnx::ModelProto m = onnx_test::MakeModel(g, 11);
  onnx::ModelProto adapted = m;
  ASSERT_TRUE(onnx_parser::ApplyBuiltinAdapters(&adapted, 17).ok());
  const onnx::GraphProto& then_adapted = adapted.graph().node(0).attribute(0).g();
  EXPECT_EQ(then_adapted.node(0).input_size(), 2);
  EXPECT_EQ(then_adapted.initializer_size(), 1);
}

TEST(OnnxVersionTest, UnconvertibleOpsAreErrors) {
  onnx::NodeProto tile = MakeNode("Tile", {"x", "t", "a"}, {"y"}, "tile");
  RunResult r = ParseAndRun(OneNode(tile, 5, {{"x", {2}}, {"t", {}}, {"a", {}}}, {"y"}),
                            OnnxVersionConverter::kAuto, {});
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(GetErrorCode(r.status), ErrorCode::kNotSupported);
  EXPECT_NE(r.status.message().find(
                "node 'tile' (Tile, opset 5): Tile-1 (tiles, axis) has a different signature"),
            std::string::npos)
      << r.status;
  // Both converters are named.
  EXPECT_NE(r.status.message().find("ONNX version converter:"), std::string::npos) << r.status;
}

// ONNX's adapters assume each node matches its schema: a one-input Add at
// opset 6 segfaulted the broadcast adapter (found by
// //testing/fuzz:onnx_mutation_fuzz). Such a model never reaches them.
TEST(OnnxVersionTest, NodesBreakingTheirSchemaNeverReachOnnxsConverter) {
  onnx::ModelProto m = OneNode(MakeNode("Add", {"x"}, {"y"}, "lone_add"), 6, {{"x", {2}}}, {"y"});
  onnx::ModelProto forced = m;
  StatusOr<onnx_parser::OpsetConversion> c =
      onnx_parser::NormalizeOpset(&forced, 17, OnnxVersionConverter::kOnnx);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(GetErrorCode(c.status()), ErrorCode::kNotSupported);
  EXPECT_NE(c.status().message().find("Add (node 'lone_add') does not match its opset 6 schema"),
            std::string::npos)
      << c.status();

  // kAuto skips it; the parser then names the node and its arity.
  RunResult r = ParseAndRun(m, OnnxVersionConverter::kAuto, Inputs(FloatHost({2}, {1, 2})));
  ASSERT_FALSE(r.status.ok());
  EXPECT_NE(r.status.message().find("lone_add"), std::string::npos) << r.status;

  // An op with no schema at the model's opset, and a negative opset.
  onnx::ModelProto unknown =
      OneNode(MakeNode("NoSuchOp", {"x"}, {"y"}, "n"), 6, {{"x", {2}}}, {"y"});
  c = onnx_parser::NormalizeOpset(&unknown, 17, OnnxVersionConverter::kOnnx);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("NoSuchOp (node 'n') has no opset 6 schema"),
            std::string::npos)
      << c.status();
  onnx::ModelProto negative = OneNode(MakeNode("Relu", {"x"}, {"y"}), -1, {{"x", {2}}}, {"y"});
  c = onnx_parser::NormalizeOpset(&negative, 17, OnnxVersionConverter::kAuto);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(std::string(c.status().message()), "model opset -1 is negative");
}

// libonnx's shape inference functions crash on nodes that break their
// schema or index dims by an unchecked attribute (found by
// //testing/fuzz:onnx_mutation_fuzz); such models skip it and the parser
// names the node.
TEST(OnnxVersionTest, ShapeInferenceHazardsAreFoundAndSkipped) {
  // A dim_param makes the parser want ONNX shape inference.
  onnx::ValueInfoProto x = TensorValueInfo("x", TensorProto::FLOAT, {2, 3});
  x.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_param("N");

  onnx::ModelProto fine = OneNode(MakeNode("Relu", {"x"}, {"y"}), 17, {}, {"y"});
  *fine.mutable_graph()->add_input() = x;
  EXPECT_EQ(onnx_parser::OnnxShapeInferenceHazard(fine), "");

  // An absent single input (EyeLike's propagateShape read a null type).
  onnx::ModelProto eye = OneNode(MakeNode("EyeLike", {""}, {"y"}, "eye"), 17, {}, {"y"});
  *eye.mutable_graph()->add_input() = x;
  EXPECT_NE(onnx_parser::OnnxShapeInferenceHazard(eye).find("EyeLike (node 'eye') does not match"),
            std::string::npos);

  // A missing required attribute (Scan's num_scan_inputs).
  onnx::NodeProto scan = MakeNode("Scan", {"x"}, {"y"}, "scan");
  onnx::GraphProto body;
  body.set_name("body");
  scan.add_attribute()->set_name("body");
  scan.mutable_attribute(0)->set_type(onnx::AttributeProto::GRAPH);
  *scan.mutable_attribute(0)->mutable_g() = body;
  onnx::ModelProto scan_model = OneNode(scan, 17, {}, {"y"});
  *scan_model.mutable_graph()->add_input() = x;
  EXPECT_NE(
      onnx_parser::OnnxShapeInferenceHazard(scan_model).find("Scan (node 'scan') does not match"),
      std::string::npos);

  // LayerNormalization's axis below -rank (or past int32) is indexed unchecked.
  for (int64_t axis : {int64_t{-3}, int64_t{1} << 31}) {
    onnx::NodeProto ln = MakeNode("LayerNormalization", {"x", "s"}, {"y"}, "ln");
    AddIntAttr(&ln, "axis", axis);
    onnx::ModelProto m = OneNode(ln, 17, {{"s", {3}}}, {"y"});
    *m.mutable_graph()->add_input() = x;
    EXPECT_EQ(onnx_parser::OnnxShapeInferenceHazard(m),
              absl::StrCat("LayerNormalization (node 'ln'): axis ", axis,
                           " is out of range for its input of rank 2"));
    RunResult r = ParseAndRun(m, OnnxVersionConverter::kAuto, {});
    EXPECT_FALSE(r.status.ok());
    EXPECT_FALSE(r.info.shapes_inferred);
  }
  onnx::NodeProto ln = MakeNode("LayerNormalization", {"x", "s"}, {"y"}, "ln");
  AddIntAttr(&ln, "axis", -2);
  onnx::ModelProto ok = OneNode(ln, 17, {{"s", {3}}}, {"y"});
  *ok.mutable_graph()->add_input() = x;
  EXPECT_EQ(onnx_parser::OnnxShapeInferenceHazard(ok), "");

  // A zero stride made convPoolShapeInference divide by zero (SIGFPE).
  for (const char* attr : {"strides", "dilations", "kernel_shape"}) {
    onnx::NodeProto pool = MakeNode("MaxPool", {"x"}, {"y"}, "pool");
    AddIntsAttr(&pool, "kernel_shape", {1});
    AddIntsAttr(&pool, attr, {0});
    if (std::string(attr) == "kernel_shape")
      pool.mutable_attribute()->erase(pool.mutable_attribute()->begin());
    onnx::ModelProto m = OneNode(pool, 17, {}, {"y"});
    *m.mutable_graph()->add_input() = x;
    EXPECT_EQ(onnx_parser::OnnxShapeInferenceHazard(m),
              absl::StrCat("MaxPool (node 'pool'): ", attr, " has 0, not positive"));
    RunResult r = ParseAndRun(m, OnnxVersionConverter::kAuto, {});
    EXPECT_FALSE(r.status.ok());
    EXPECT_FALSE(r.info.shapes_inferred);
  }

  // Every hazard parses to an error naming the node, without a crash.
  for (const onnx::ModelProto* m : {&eye, &scan_model}) {
    RunResult r = ParseAndRun(*m, OnnxVersionConverter::kAuto, {});
    ASSERT_FALSE(r.status.ok());
    EXPECT_FALSE(r.info.shapes_inferred);
  }
}

}  // namespace
}  // namespace ge
