// Tests of RefineRunningPrecisionPass: each precision mode on a small CNN
// (which nodes change type, where Casts go, how many), the keep_dtype list,
// the graph staying consistent for shape inference, and the errors.
#include "compiler/passes/refine_running_precision_pass.h"

#include <string>
#include <vector>

#include "compiler/passes/const_value_util.h"
#include "compiler/passes/infer_shape_pass.h"
#include "compiler/passes/testing/pass_test_util.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using passtest::CountType;
using passtest::InferDescsByRunning;
using reftest::F32;
using reftest::F32Fill;
using reftest::Inputs;
using reftest::TestGraph;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

DataType InType(const NodePtr& n, uint32_t i) {
  return n->GetOpDescBarePtr()->GetInputDescBarePtr(i)->GetDataType();
}
DataType OutType(const NodePtr& n, uint32_t i = 0) {
  return n->GetOpDescBarePtr()->GetOutputDescBarePtr(i)->GetDataType();
}
// The type of the node feeding input i.
std::string ProducerType(const NodePtr& n, uint32_t i) {
  return n->GetInDataAnchor(static_cast<int32_t>(i))->GetPeerOutAnchor()->GetOwnerNode()->GetType();
}

reftest::Attrs Kernel3() {
  return {{"kernel_shape", AttrValue::CreateFrom<std::vector<int64_t>>({3, 3})},
          {"pads", AttrValue::CreateFrom<std::vector<int64_t>>({1, 1, 1, 1})}};
}

// x -> Conv(w1, b1) -> Relu -> MaxPool -> Conv(w2) -> Flatten -> Softmax.
struct Cnn {
  TestGraph g{"cnn"};
  NodePtr x, c1, relu, pool, c2, flat, soft;
  Cnn() {
    x = g.Data("x", 0);
    NodePtr w1 = g.Const("w1", F32Fill({4, 3, 3, 3}, 0.05f));
    NodePtr b1 = g.Const("b1", F32Fill({4}, 0.1f));
    NodePtr w2 = g.Const("w2", F32Fill({2, 4, 3, 3}, 0.02f));
    c1 = g.Op("c1", "Conv", {x, w1, b1}, Kernel3());
    relu = g.Op("relu", "Relu", {c1});
    pool = g.Op("pool", "MaxPool", {relu},
                {{"kernel_shape", AttrValue::CreateFrom<std::vector<int64_t>>({2, 2})},
                 {"strides", AttrValue::CreateFrom<std::vector<int64_t>>({2, 2})}});
    c2 = g.Op("c2", "Conv", {pool, w2}, Kernel3());
    flat = g.Op("flat", "Flatten", {c2});
    soft = g.Op("soft", "Softmax", {flat});
    g.NetOutput({soft});
    CheckOk(InferDescsByRunning(g.graph(), Inputs(F32Fill({1, 3, 6, 6}, 1.0f))), "infer");
  }
  static void CheckOk(const Status& st, const char* what) { ASSERT_TRUE(st.ok()) << what << st; }
};

StatusOr<bool> RunMode(const ComputeGraphPtr& g, const std::string& mode,
                       std::vector<std::string> keep = {},
                       RefineRunningPrecisionPass* out = nullptr) {
  RefineRunningPrecisionPass local;
  RefineRunningPrecisionPass& pass = out != nullptr ? *out : local;
  PassSettings s;
  s.precision_mode = mode;
  s.keep_dtype = std::move(keep);
  pass.Configure(s);
  return pass.Run(g);
}

// After the pass every edge's two ends agree and the graph's inputs and
// outputs kept their types; a fresh shape inference changes nothing.
void ExpectConsistent(const ComputeGraphPtr& g) {
  for (const NodePtr& n : g->GetDirectNode()) {
    for (uint32_t i = 0; i < n->GetOpDescBarePtr()->GetAllInputsSize(); ++i) {
      const InDataAnchorPtr in = n->GetInDataAnchor(static_cast<int32_t>(i));
      if (in == nullptr || in->GetPeerOutAnchor() == nullptr) continue;
      const OutDataAnchorPtr src = in->GetPeerOutAnchor();
      EXPECT_EQ(OutType(src->GetOwnerNode(), static_cast<uint32_t>(src->GetIdx())), InType(n, i))
          << src->GetOwnerNode()->GetName() << " -> " << n->GetName() << ":" << i;
    }
  }
  InferShapePass infer;
  StatusOr<bool> changed = infer.Run(g);
  GE_ASSERT_OK(changed.status());
  EXPECT_FALSE(*changed) << "shape inference disagrees with the retyped descs";
}

TEST(RefineRunningPrecisionPassTest, DefaultModesChangeNothing) {
  for (const char* mode : {"", "must_keep_origin_dtype", "allow_fp32_to_fp16"}) {
    Cnn m;
    StatusOr<bool> changed = RunMode(m.g.graph(), mode);
    GE_ASSERT_OK(changed.status());
    EXPECT_FALSE(*changed) << mode;
    EXPECT_EQ(CountType(*m.g.graph(), "Cast"), 0u) << mode;
    EXPECT_EQ(OutType(m.c1), DT_FLOAT) << mode;
  }
}

TEST(RefineRunningPrecisionPassTest, MixedPrecisionKeepsChainsInBf16) {
  Cnn m;
  RefineRunningPrecisionPass pass;
  StatusOr<bool> changed = RunMode(m.g.graph(), "allow_mix_precision", {}, &pass);
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  // White Conv, then the gray chain Relu -> MaxPool -> Conv -> Flatten fed
  // in BF16; black Softmax stays FLOAT.
  EXPECT_EQ(OutType(m.c1), DT_BF16);
  EXPECT_EQ(OutType(m.relu), DT_BF16);
  EXPECT_EQ(OutType(m.pool), DT_BF16);
  EXPECT_EQ(OutType(m.c2), DT_BF16);
  EXPECT_EQ(OutType(m.flat), DT_BF16);
  EXPECT_EQ(OutType(m.soft), DT_FLOAT);
  EXPECT_EQ(pass.retyped_nodes(), 5);
  // Casts: x into BF16, flat back to FLOAT; none inside the chain. The
  // weights w1, b1, w2 get BF16 copies.
  EXPECT_EQ(pass.inserted_casts(), 2);
  EXPECT_EQ(pass.converted_constants(), 3);
  EXPECT_EQ(CountType(*m.g.graph(), "Cast"), 2u);
  EXPECT_EQ(ProducerType(m.relu, 0), "Conv");
  EXPECT_EQ(ProducerType(m.pool, 0), "Relu");
  EXPECT_EQ(ProducerType(m.c2, 0), "MaxPool");
  EXPECT_EQ(ProducerType(m.c1, 0), "Cast");
  EXPECT_EQ(ProducerType(m.c1, 1), "Const");
  NodePtr w1 = m.g.graph()->FindNode("w1_bf16");
  ASSERT_NE(w1, nullptr);
  EXPECT_EQ(OutType(w1), DT_BF16);
  StatusOr<gert::HostTensor> w1v = GetConstNodeValue(*w1);
  GE_ASSERT_OK(w1v.status());
  ASSERT_EQ(w1v->GetDataType(), DT_BF16);
  // 0.05 rounded to BF16 (nearest even): 0x3D4D.
  EXPECT_EQ(w1v->GetData<uint16_t>()[0], 0x3D4D);
  EXPECT_EQ(ProducerType(m.soft, 0), "Cast");
  // Named after the producer; "to" set.
  NodePtr cast = m.g.graph()->FindNode("x_0_to_bf16");
  ASSERT_NE(cast, nullptr);
  EXPECT_EQ(*AttrUtils::GetDataType(cast->GetOpDesc(), "to"), DT_BF16);
  ASSERT_NE(m.g.graph()->FindNode("flat_0_to_float"), nullptr);
  EXPECT_EQ(InType(m.c1, 0), DT_BF16);
  EXPECT_EQ(OutType(m.x), DT_FLOAT);
  ExpectConsistent(m.g.graph());
}

TEST(RefineRunningPrecisionPassTest, OneCastPerProducerAndType) {
  // x feeds two Convs: one shared Cast.
  TestGraph g("two");
  NodePtr x = g.Data("x", 0);
  NodePtr w = g.Const("w", F32Fill({2, 3, 3, 3}, 0.1f));
  NodePtr a = g.Op("a", "Conv", {x, w}, Kernel3());
  NodePtr b = g.Op("b", "Conv", {x, w}, Kernel3());
  g.NetOutput({a, b});
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), Inputs(F32Fill({1, 3, 4, 4}, 1.0f))));
  RefineRunningPrecisionPass pass;
  GE_ASSERT_OK(RunMode(g.graph(), "allow_mix_precision", {}, &pass).status());
  // x's Cast and w's BF16 copy shared; a and b back to FLOAT for the output.
  EXPECT_EQ(pass.inserted_casts(), 3);
  EXPECT_EQ(pass.converted_constants(), 1);
  EXPECT_EQ(a->GetInDataAnchor(0)->GetPeerOutAnchor(), b->GetInDataAnchor(0)->GetPeerOutAnchor());
  ExpectConsistent(g.graph());
}

TEST(RefineRunningPrecisionPassTest, ForceFp16RetypesBlackOpsToo) {
  Cnn m;
  GE_ASSERT_OK(RunMode(m.g.graph(), "force_fp16").status());
  EXPECT_EQ(OutType(m.c1), DT_BF16);
  EXPECT_EQ(OutType(m.soft), DT_BF16);
  // Only the graph's edges convert: x in and soft out.
  EXPECT_EQ(CountType(*m.g.graph(), "Cast"), 2u);
  ExpectConsistent(m.g.graph());
}

TEST(RefineRunningPrecisionPassTest, KeepDtypeByNameAndByType) {
  {
    Cnn m;
    GE_ASSERT_OK(RunMode(m.g.graph(), "allow_mix_precision", {"relu"}).status());
    EXPECT_EQ(OutType(m.c1), DT_BF16);
    EXPECT_EQ(OutType(m.relu), DT_FLOAT);
    // Gray MaxPool now gets FLOAT and stays; the white Conv after it does not.
    EXPECT_EQ(OutType(m.pool), DT_FLOAT);
    EXPECT_EQ(OutType(m.c2), DT_BF16);
    ExpectConsistent(m.g.graph());
  }
  {
    Cnn m;
    RefineRunningPrecisionPass pass;
    StatusOr<bool> changed = RunMode(m.g.graph(), "allow_mix_precision", {"OpType::Conv"}, &pass);
    GE_ASSERT_OK(changed.status());
    EXPECT_FALSE(*changed);
    EXPECT_EQ(pass.retyped_nodes(), 0);
  }
}

TEST(RefineRunningPrecisionPassTest, ForceFp32RetypesReducedNodes) {
  TestGraph g("half");
  NodePtr x = g.TypedData("x", 0, {2, 8}, DT_BF16);
  NodePtr r = g.Op("r", "Relu", {x});
  NodePtr s = g.Op("s", "Sigmoid", {r});
  g.NetOutput({s});
  GE_ASSERT_OK(InferShapePass().Run(g.graph()).status());
  ASSERT_EQ(OutType(r), DT_BF16);
  RefineRunningPrecisionPass pass;
  GE_ASSERT_OK(RunMode(g.graph(), "force_fp32", {}, &pass).status());
  EXPECT_EQ(OutType(r), DT_FLOAT);
  EXPECT_EQ(OutType(s), DT_FLOAT);
  EXPECT_EQ(OutType(x), DT_BF16);  // the graph's input keeps its type
  EXPECT_EQ(pass.inserted_casts(), 2);
  ExpectConsistent(g.graph());
}

TEST(RefineRunningPrecisionPassTest, GrayNodesFedInFloatStayFloat) {
  TestGraph g("gray");
  NodePtr x = g.Data("x", 0);
  NodePtr r = g.Op("r", "Relu", {x});
  g.NetOutput({r});
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), Inputs(F32Fill({2, 3}, 1.0f))));
  StatusOr<bool> changed = RunMode(g.graph(), "allow_mix_precision");
  GE_ASSERT_OK(changed.status());
  EXPECT_FALSE(*changed);
  EXPECT_EQ(OutType(r), DT_FLOAT);
}

TEST(RefineRunningPrecisionPassTest, Errors) {
  Cnn m;
  StatusOr<bool> bad = RunMode(m.g.graph(), "fp8_please");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("fp8_please"));
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("allow_mix_precision"));
  StatusOr<bool> missing = RunMode(m.g.graph(), "allow_mix_precision", {"no_such_node"});
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("no_such_node"));
  EXPECT_EQ(CountType(*m.g.graph(), "Cast"), 0u);
}

TEST(RefineRunningPrecisionPassTest, ParsesModesAndKeepLists) {
  EXPECT_EQ(*ParsePrecisionMode(""), PrecisionMode::kMustKeepOriginDtype);
  EXPECT_EQ(*ParsePrecisionMode("force_fp16"), PrecisionMode::kForceFp16);
  EXPECT_EQ(*ParsePrecisionMode("allow_mix_precision_bf16"), PrecisionMode::kAllowMixPrecision);
  EXPECT_FALSE(ParsePrecisionMode("FORCE_FP16").ok());
  StatusOr<std::vector<std::string>> l =
      ParseKeepDtypeList("# kept in FLOAT\nconv1\n\n  OpType::Softmax  \r\nfc\n");
  GE_ASSERT_OK(l.status());
  EXPECT_THAT(*l, ElementsAre("conv1", "OpType::Softmax", "fc"));
  StatusOr<std::vector<std::string>> bad = ParseKeepDtypeList("a\nOpType::\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("line 2"));
}

}  // namespace
}  // namespace ge
