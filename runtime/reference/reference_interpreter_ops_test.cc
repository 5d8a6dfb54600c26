// runtime/reference/reference_interpreter_ops_test.cc
//
// Graphs of real ops from the op library (//ops/elementwise, //ops/math,
// //ops/array, //ops/reduce) run through the reference interpreter, checked
// against values computed here by hand.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/gert/tensor.h"
#include "runtime/reference/reference_interpreter.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using gert::HostTensor;
using reftest::Attrs;
using reftest::Dims;
using reftest::F32;
using reftest::I64;
using reftest::Inputs;
using reftest::Out;
using reftest::TestGraph;
using reftest::ToF32;
using reftest::ToI64;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::Pointwise;
using Interp = ReferenceInterpreter;

MATCHER(NearlyEq, "") { return std::fabs(std::get<0>(arg) - std::get<1>(arg)) < 1e-5f; }

// A DT_STRING HostTensor of shape `dims` (default: [n]).
HostTensor StringTensor(const std::vector<std::string>& v, std::vector<int64_t> dims = {-1}) {
  if (dims.size() == 1 && dims[0] == -1) dims[0] = static_cast<int64_t>(v.size());
  auto shape = gert::Shape::FromDims(dims);
  EXPECT_TRUE(shape.ok());
  auto t = HostTensor::Create(DT_STRING, *shape);
  EXPECT_TRUE(t.ok()) << t.status();
  std::string* p = t->MutableData<std::string>();
  for (size_t i = 0; i < v.size(); ++i) p[i] = v[i];
  return std::move(t).value();
}

std::vector<std::string> Strings(const HostTensor& t) {
  const std::string* p = t.GetData<std::string>();
  return std::vector<std::string>(p, p + t.tensor().GetShapeSize());
}

// y = relu(x @ w1 + b1) @ w2 + b2, computed directly.
std::vector<float> MlpByHand(const std::vector<float>& x, const std::vector<float>& w1,
                             const std::vector<float>& b1, const std::vector<float>& w2,
                             const std::vector<float>& b2, int n, int k, int h, int m) {
  std::vector<float> hidden(n * h), y(n * m);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < h; ++j) {
      float s = b1[j];
      for (int t = 0; t < k; ++t) s += x[i * k + t] * w1[t * h + j];
      hidden[i * h + j] = s > 0 ? s : 0;
    }
    for (int j = 0; j < m; ++j) {
      float s = b2[j];
      for (int t = 0; t < h; ++t) s += hidden[i * h + t] * w2[t * m + j];
      y[i * m + j] = s;
    }
  }
  return y;
}

TEST(ReferenceInterpreterOpsTest, SmallMlp) {
  const std::vector<float> x = {0.5f, -1, 2, 1, 0, -3};                          // [2, 3]
  const std::vector<float> w1 = {1, -2, 0.5f, 0, 0, 1, -1, 2, 3, 0.25f, 1, -1};  // [3, 4]
  const std::vector<float> b1 = {0.1f, -0.2f, 0.3f, -5};                         // [4]
  const std::vector<float> w2 = {1, 2, -1, 0.5f, 0.25f, -3, 2, 1};               // [4, 2]
  const std::vector<float> b2 = {-1, 1};                                         // [2]

  TestGraph g("mlp");
  NodePtr in = g.Data("x", 0);
  NodePtr mm1 = g.Op("mm1", "MatMul", {in, g.Const("w1", F32({3, 4}, w1))});
  NodePtr add1 = g.Op("add1", "Add", {mm1, g.Const("b1", F32({4}, b1))});
  NodePtr relu = g.Op("relu", "Relu", {add1});
  NodePtr mm2 = g.Op("mm2", "MatMul", {relu, g.Const("w2", F32({4, 2}, w2))});
  NodePtr add2 = g.Op("add2", "Add", {mm2, g.Const("b2", F32({2}, b2))});
  g.NetOutput({add2});

  auto r = Interp::Run(*g.graph(), Inputs(F32({2, 3}, x)));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_THAT(Dims((*r)[0]), ElementsAre(2, 2));
  EXPECT_THAT(ToF32((*r)[0]), Pointwise(NearlyEq(), MlpByHand(x, w1, b1, w2, b2, 2, 3, 4, 2)));

  // A batch of another size runs through the same graph.
  auto r3 = Interp::Run(*g.graph(), Inputs(F32({1, 3}, {1, 1, 1})));
  ASSERT_TRUE(r3.ok()) << r3.status();
  EXPECT_THAT(ToF32((*r3)[0]),
              Pointwise(NearlyEq(), MlpByHand({1, 1, 1}, w1, b1, w2, b2, 1, 3, 4, 2)));

  // A wrong inner dimension is reported by MatMul, naming the node.
  auto bad = Interp::Run(*g.graph(), Inputs(F32({2, 2}, {1, 2, 3, 4})));
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("node mm1 (MatMul)"));
}

TEST(ReferenceInterpreterOpsTest, BroadcastingElementwiseChain) {
  // ((a + b) * c - a) / d with a [2, 3], b [3], c [2, 1], d scalar.
  TestGraph g("broadcast");
  NodePtr a = g.Data("a", 0);
  NodePtr b = g.Data("b", 1);
  NodePtr c = g.Data("c", 2);
  NodePtr d = g.Const("d", F32({}, {2}));
  NodePtr sum = g.Op("sum", "Add", {a, b});
  NodePtr prod = g.Op("prod", "Mul", {sum, c});
  NodePtr diff = g.Op("diff", "Sub", {prod, a});
  NodePtr quot = g.Op("quot", "Div", {diff, d});
  g.NetOutput({quot, sum});
  auto r = Interp::Run(*g.graph(), Inputs(F32({2, 3}, {1, 2, 3, 4, 5, 6}), F32({3}, {10, 20, 30}),
                                          F32({2, 1}, {1, -1})));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(Dims((*r)[0]), ElementsAre(2, 3));
  // row 0: (a+b)*1 - a = b -> [5, 10, 15]; row 1: -(a+b) - a -> [-18, -30, -42] / 2
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(5, 10, 15, -9, -15, -21));
  EXPECT_THAT(ToF32((*r)[1]), ElementsAre(11, 22, 33, 14, 25, 36));

  auto bad = Interp::Run(
      *g.graph(), Inputs(F32({2, 3}, {1, 2, 3, 4, 5, 6}), F32({2}, {1, 2}), F32({2, 1}, {1, -1})));
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("node sum (Add)"));
}

TEST(ReferenceInterpreterOpsTest, NonZeroHasADataDependentShape) {
  TestGraph g("nonzero");
  NodePtr x = g.Data("x", 0);
  g.NetOutput({g.Op("nz", "NonZero", {x})});
  auto r = Interp::Run(*g.graph(), Inputs(F32({2, 3}, {1, 0, 0, 0, 3, 4})));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].GetDataType(), DT_INT64);
  EXPECT_THAT(Dims((*r)[0]), ElementsAre(2, 3));
  EXPECT_THAT(ToI64((*r)[0]), ElementsAre(0, 1, 1, 0, 1, 2));

  r = Interp::Run(*g.graph(), Inputs(F32({4}, {0, 0, 0, 0})));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(Dims((*r)[0]), ElementsAre(1, 0));
}

TEST(ReferenceInterpreterOpsTest, ReshapeWithAShapeComputedInTheGraph) {
  // reshape(x, concat(gather(shape(x), [0]), [-1])) : [2, 3, 4] -> [2, 12]
  TestGraph g("computed_shape");
  NodePtr x = g.Data("x", 0);
  NodePtr shape = g.Op("shape", "Shape", {x});
  NodePtr first = g.Op("first", "Gather", {shape, g.Const("zero", I64({1}, {0}))},
                       {{"axis", AttrValue::CreateFrom<int64_t>(0)}});
  NodePtr target = g.Op("target", "Concat", {first, g.Const("rest", I64({1}, {-1}))},
                        {{"axis", AttrValue::CreateFrom<int64_t>(0)}}, {{"inputs", 2}});
  NodePtr reshaped = g.Op("reshaped", "Reshape", {x, target});
  NodePtr total = g.Op("total", "ReduceSum", {reshaped, g.Const("axes", I64({1}, {1}))},
                       {{"keepdims", AttrValue::CreateFrom<int64_t>(0)}});
  g.NetOutput({reshaped, target, total});

  std::vector<float> values(24);
  for (int i = 0; i < 24; ++i) values[i] = static_cast<float>(i);
  auto r = Interp::Run(*g.graph(), Inputs(F32({2, 3, 4}, values)));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(Dims((*r)[0]), ElementsAre(2, 12));
  EXPECT_THAT(ToF32((*r)[0]), ElementsAreArray(values));
  EXPECT_THAT(ToI64((*r)[1]), ElementsAre(2, -1));
  EXPECT_THAT(Dims((*r)[2]), ElementsAre(2));
  EXPECT_THAT(ToF32((*r)[2]), ElementsAre(66, 210));  // 0+..+11, 12+..+23

  r = Interp::Run(*g.graph(), Inputs(F32({3, 1, 2}, {1, 2, 3, 4, 5, 6})));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(Dims((*r)[0]), ElementsAre(3, 2));
  EXPECT_THAT(ToF32((*r)[2]), ElementsAre(3, 7, 11));
}

TEST(ReferenceInterpreterOpsTest, StatsAndTracingOnARealGraph) {
  TestGraph g("traced");
  NodePtr x = g.Data("x", 0);
  NodePtr relu = g.Op("relu", "Relu", {x});
  NodePtr neg = g.Op("neg", "Neg", {relu});
  g.NetOutput({neg});
  std::vector<std::string> shapes;
  Interp::Stats stats;
  Interp::Options opts;
  opts.stats = &stats;
  opts.node_callback = [&shapes](const Interp::NodeRunInfo& info) {
    for (const gert::Tensor* t : info.outputs) {
      shapes.push_back(info.node->GetName() + t->GetShape().ToString());
    }
    return OkStatus();
  };
  auto r = Interp::Run(*g.graph(), Inputs(F32({3}, {-1, 2, -3})), opts);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(0, -2, 0));
  EXPECT_THAT(shapes, ElementsAre("x[3]", "relu[3]", "neg[3]"));
  EXPECT_EQ(stats.kernels_executed, 2);
  EXPECT_EQ(stats.live_bytes, 0);
}

// A DT_STRING Const in GE's string layout (as the ONNX parser stores it)
// feeds string ops and the graph output.
TEST(ReferenceInterpreterOpsTest, StringConstFeedsStringOps) {
  HostTensor words = StringTensor(std::vector<std::string>({"ab", "", "Cd"}));
  HostTensor more = StringTensor(std::vector<std::string>({"x y"}));
  TestGraph g("strings");
  NodePtr c = g.Const("words", words);
  NodePtr cat = g.Op("cat", "Concat", {c, g.Const("more", more)},
                     {{"axis", AttrValue::CreateFrom<int64_t>(0)}}, {{"inputs", 2}});
  NodePtr upper = g.Op("upper", "StringNormalizer", {cat},
                       {{"case_change_action", AttrValue::CreateFrom<std::string>("UPPER")}});
  g.NetOutput({upper, c, g.Op("id", "Identity", {c})});
  auto r = Interp::Run(*g.graph(), Inputs());
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 3u);
  ASSERT_EQ((*r)[0].GetDataType(), DT_STRING);
  EXPECT_THAT(Dims((*r)[0]), ElementsAre(4));
  EXPECT_THAT(Strings((*r)[0]), ElementsAre("AB", "", "CD", "X Y"));
  EXPECT_THAT(Strings((*r)[1]), ElementsAre("ab", "", "Cd"));
  EXPECT_THAT(Strings((*r)[2]), ElementsAre("ab", "", "Cd"));
}

TEST(ReferenceInterpreterOpsTest, StringConstScalarAndEmpty) {
  HostTensor scalar = StringTensor(std::vector<std::string>({"only"}), {});
  HostTensor empty = StringTensor(std::vector<std::string>({}), {0});
  TestGraph g("strings2");
  g.NetOutput({g.Const("s", scalar), g.Const("e", empty)});
  auto r = Interp::Run(*g.graph(), Inputs());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(Dims((*r)[0]), ElementsAre());
  EXPECT_THAT(Strings((*r)[0]), ElementsAre("only"));
  EXPECT_THAT(Dims((*r)[1]), ElementsAre(0));
}

TEST(ReferenceInterpreterOpsTest, MalformedStringConstIsAnErrorNamingTheNode) {
  // Header of element 1 points past the data.
  std::vector<uint8_t> bytes = reftest::EncodeGeStrings({"a", "b"});
  const int64_t bad_offset = 1000;
  std::memcpy(bytes.data() + 16, &bad_offset, sizeof(bad_offset));
  TestGraph g("bad_strings");
  g.NetOutput({g.ConstTensor("bad", GeTensor(GeTensorDesc(GeShape({2}), FORMAT_ND, DT_STRING),
                                             bytes.data(), bytes.size()))});
  auto r = Interp::Run(*g.graph(), Inputs());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kGraphInvalid);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("bad"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("string element 1"));

  // Too few bytes for the headers.
  TestGraph g2("short_strings");
  const uint8_t few[4] = {0, 0, 0, 0};
  g2.NetOutput({g2.ConstTensor(
      "short", GeTensor(GeTensorDesc(GeShape({3}), FORMAT_ND, DT_STRING), few, sizeof(few)))});
  r = Interp::Run(*g2.graph(), Inputs());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("short"));
}

// With skip_unconsumed_optional_outputs, optional outputs nobody consumes
// are not produced (the kernel gets a null output tensor); consumed ones are.
TEST(ReferenceInterpreterOpsTest, UnconsumedOptionalOutputsAreSkipped) {
  const Attrs pool_attrs = {{"kernel_shape", AttrValue::CreateFrom<std::vector<int64_t>>({2})},
                            {"strides", AttrValue::CreateFrom<std::vector<int64_t>>({2})}};
  TestGraph g("maxpool_y_only");
  NodePtr x = g.Data("x", 0);
  NodePtr pool = g.Op("pool", "MaxPool", {x}, pool_attrs);
  g.NetOutput({Out(pool, 0)});
  std::vector<bool> indices_present;
  Interp::Options opts;
  opts.skip_unconsumed_optional_outputs = true;
  opts.node_callback = [&](const Interp::NodeRunInfo& info) {
    if (info.node->GetName() == "pool") indices_present.push_back(info.outputs[1] != nullptr);
    return OkStatus();
  };
  auto r = Interp::Run(*g.graph(), Inputs(F32({1, 1, 4}, {1, 5, 3, 2})), opts);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToF32((*r)[0]), ElementsAre(5, 3));
  EXPECT_THAT(indices_present, ElementsAre(false));

  TestGraph g2("maxpool_both");
  NodePtr x2 = g2.Data("x", 0);
  NodePtr pool2 = g2.Op("pool", "MaxPool", {x2}, pool_attrs);
  g2.NetOutput({Out(pool2, 0), Out(pool2, 1)});
  indices_present.clear();
  r = Interp::Run(*g2.graph(), Inputs(F32({1, 1, 4}, {1, 5, 3, 2})), opts);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ToI64((*r)[1]), ElementsAre(1, 2));
  EXPECT_THAT(indices_present, ElementsAre(true));

  // Off (the default): every output is produced.
  opts.skip_unconsumed_optional_outputs = false;
  indices_present.clear();
  r = Interp::Run(*g.graph(), Inputs(F32({1, 1, 4}, {1, 5, 3, 2})), opts);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(indices_present, ElementsAre(true));
}

}  // namespace
}  // namespace ge
