// graph/serialization/src/model_op_descs_test.cc
//
// DecodeModelOpDescs against the full decode (ModelSerialize::DeserializeModel):
// equal OpDescs (compared through their canonical OpDef bytes) on random
// graphs with attributes of every type, equal graph name / id / attributes /
// input and output nodes; on bad bytes (the bad-input corpus, truncations,
// random mutations) the same status whenever the first defect is in the
// root graph, and never a crash.
#include "graph/serialization/inc/model_op_descs.h"

#include <random>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_types.h"
#include "graph/proto/ge_ir.pb.h"
#include "graph/serialization/inc/model_serialize.h"
#include "graph/serialization/inc/model_serialize_proto.h"
#include "graph/serialization/src/graph_codec.h"
#include "graph/serialization/testing/bad_input_corpus.h"
#include "graph/serialization/testing/graph_compare.h"
#include "graph/serialization/testing/random_graph.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::HasSubstr;

std::string OpBytes(const OpDesc& op) {
  SerializeContext ctx;
  std::string out;
  Status st = codec::EncodeOpDesc(op, ctx, &out);
  EXPECT_TRUE(st.ok()) << st;
  return out;
}

// Light result == the full decode's root graph.
void ExpectSameAsFull(const ModelOpDescs& light, const ComputeGraph& full) {
  EXPECT_EQ(light.graph_name, full.GetName());
  EXPECT_EQ(light.graph_id, full.GetGraphID());
  GE_EXPECT_OK(testing::CompareAttrStores(light.attrs, full.GetAttrStore()));
  EXPECT_EQ(light.num_graphs, 1 + full.GetAllSubgraphs().size());
  const std::vector<Node*>& nodes = full.GetDirectNodePtr();
  ASSERT_EQ(light.ops.size(), nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const OpDesc& want = *nodes[i]->GetOpDescBarePtr();
    const OpDesc& got = *light.ops[i];
    ASSERT_EQ(got.GetName(), want.GetName()) << "op " << i;
    EXPECT_EQ(got.GetType(), want.GetType()) << got.GetName();
    EXPECT_EQ(got.GetId(), want.GetId()) << got.GetName();
    EXPECT_EQ(got.GetAllInputsSize(), want.GetAllInputsSize()) << got.GetName();
    EXPECT_EQ(got.GetAllOutputsDescSize(), want.GetAllOutputsDescSize()) << got.GetName();
    GE_EXPECT_OK(testing::CompareAttrStores(got.GetAttrStore(), want.GetAttrStore()));
    EXPECT_TRUE(OpBytes(got) == OpBytes(want)) << "op '" << got.GetName() << "' differs";
  }
  std::vector<std::string> want_inputs, got_inputs;
  for (const NodePtr& n : full.GetInputNodes()) want_inputs.push_back(n->GetName());
  for (uint32_t i : light.input_ops) {
    ASSERT_LT(i, light.ops.size());
    got_inputs.push_back(light.ops[i]->GetName());
  }
  EXPECT_EQ(got_inputs, want_inputs);
  const auto& want_outputs = full.GetGraphOutNodesInfo();
  ASSERT_EQ(light.outputs.size(), want_outputs.size());
  for (size_t k = 0; k < want_outputs.size(); ++k) {
    ASSERT_LT(light.outputs[k].first, light.ops.size());
    EXPECT_EQ(light.ops[light.outputs[k].first]->GetName(), want_outputs[k].first->GetName());
    EXPECT_EQ(light.outputs[k].second, want_outputs[k].second);
  }
}

// When the light decode fails, the full decode fails the same way; a model
// without subgraphs gives the same result either way.
void ExpectConsistent(absl::string_view bytes, const DeserializeOptions& options,
                      bool has_subgraphs) {
  StatusOr<ModelOpDescs> light = DecodeModelOpDescs(bytes, options);
  StatusOr<ComputeGraphPtr> full = ModelSerialize::DeserializeModel(bytes, options);
  if (!light.ok()) {
    ASSERT_FALSE(full.ok()) << "light: " << light.status();
    EXPECT_EQ(GetErrorCode(light.status()), GetErrorCode(full.status()));
    EXPECT_EQ(light.status().message(), full.status().message());
  } else if (!has_subgraphs) {
    ASSERT_TRUE(full.ok()) << full.status();
  }
  if (light.ok() && full.ok()) ExpectSameAsFull(*light, **full);
}

class RandomModelTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(RandomModelTest, SameOpDescsAsTheFullDecode) {
  for (bool subgraphs : {false, true}) {
    SCOPED_TRACE(subgraphs ? "with subgraphs" : "root only");
    testing::RandomGraphOptions opts;
    opts.with_subgraphs = subgraphs;
    opts.num_nodes = 40;
    const ComputeGraphPtr g = testing::RandomGraph(GetParam(), opts);
    StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*g);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    StatusOr<ComputeGraphPtr> full = ModelSerialize::DeserializeModel(*bytes);
    ASSERT_TRUE(full.ok()) << full.status();
    StatusOr<ModelOpDescs> light = DecodeModelOpDescs(*bytes);
    ASSERT_TRUE(light.ok()) << light.status();
    ExpectSameAsFull(*light, **full);
    EXPECT_EQ(light->num_graphs > 1, subgraphs && !g->GetAllSubgraphs().empty());
  }
}

TEST_P(RandomModelTest, TruncationsAndMutationsMatchTheFullDecode) {
  testing::RandomGraphOptions opts;
  opts.with_subgraphs = false;
  opts.num_nodes = 12;
  const ComputeGraphPtr g = testing::RandomGraph(GetParam(), opts);
  StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*g);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  const size_t step = std::max<size_t>(1, bytes->size() / 150);
  for (size_t len = 0; len < bytes->size(); len += step) {
    SCOPED_TRACE(len);
    StatusOr<ModelOpDescs> light = DecodeModelOpDescs(absl::string_view(*bytes).substr(0, len));
    StatusOr<ComputeGraphPtr> full =
        ModelSerialize::DeserializeModel(absl::string_view(*bytes).substr(0, len));
    ASSERT_EQ(light.ok(), full.ok()) << (light.ok() ? full.status() : light.status());
    if (!light.ok()) {
      EXPECT_EQ(light.status().message(), full.status().message());
    }
  }
  std::mt19937_64 rng(GetParam());
  for (int m = 0; m < 150; ++m) {
    std::string mutated = *bytes;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < flips; ++k) {
      mutated[rng() % mutated.size()] = static_cast<char>(rng());
    }
    SCOPED_TRACE(m);
    ExpectConsistent(mutated, DeserializeOptions(), /*has_subgraphs=*/false);
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomModelTest, ::testing::Range<uint64_t>(0, 12));

TEST(ModelOpDescsTest, EveryAttributeType) {
  testing::GraphBuilder b("attrs");
  NodePtr data = b.AddNode("data", DATA, 0, 1, GeShape({2, 3}), DT_INT32);
  NodePtr op = b.AddNode("op", "Custom", 1, 2, GeShape({-1, 3}), DT_FLOAT16);
  b.AddDataEdge(data, 0, op, 0);
  std::mt19937_64 rng(7);
  const auto values = testing::AllAttrTypes(rng, /*graph_depth=*/1);
  ASSERT_GT(values.size(), 20u);
  for (const auto& [name, value] : values) {
    GE_ASSERT_OK(op->GetOpDescBarePtr()->MutableAttrStore().Set(name, value));
    GE_ASSERT_OK(b.graph()->MutableAttrStore().Set("g_" + name, value));
  }
  GE_ASSERT_OK(b.graph()->AddOutputNodeByIndex(op, 1));
  StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*b.graph());
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  StatusOr<ModelOpDescs> light = DecodeModelOpDescs(*bytes);
  ASSERT_TRUE(light.ok()) << light.status();
  StatusOr<ComputeGraphPtr> full = ModelSerialize::DeserializeModel(*bytes);
  ASSERT_TRUE(full.ok()) << full.status();
  ExpectSameAsFull(*light, **full);
  ASSERT_EQ(light->ops.size(), 2u);
  const OpDesc& got = *light->ops[1];
  EXPECT_EQ(got.GetName(), "op");
  EXPECT_EQ(got.GetType(), "Custom");
  EXPECT_EQ(got.GetId(), 1);
  EXPECT_EQ(got.GetInputDescPtr(0)->GetShape(), GeShape({-1, 3}));
  EXPECT_EQ(got.GetOutputDescPtr(1)->GetDataType(), DT_FLOAT16);
  EXPECT_EQ(got.GetAttrStore().size(), values.size());
  for (const auto& [name, value] : values) {
    const AttrValue* v = got.GetAttrStore().Get(name);
    ASSERT_NE(v, nullptr) << name;
    GE_EXPECT_OK(testing::CompareAttrValues(*v, value));
  }
  EXPECT_EQ(light->input_ops, std::vector<uint32_t>({0}));
  ASSERT_EQ(light->outputs.size(), 1u);
  EXPECT_EQ(light->outputs[0], (std::pair<uint32_t, int32_t>(1, 1)));
  EXPECT_EQ(light->num_graphs, 1u);
  // The descs are free: they can join a graph.
  ComputeGraph g2("g2");
  for (const OpDescPtr& d : light->ops) GE_EXPECT_OK(g2.AddNode(d).status());
  EXPECT_EQ(g2.GetDirectNodesSize(), 2u);
}

// The corpus cases whose defect is in a subgraph (or in the subgraph
// registry), which the light decode does not read.
const std::set<std::string>& SubgraphOnlyCases() {
  static const auto* const kCases = new std::set<std::string>(
      {"missing_parent_graph", "missing_parent_node", "missing_subgraph", "parent_chain_cycle"});
  return *kCases;
}

TEST(ModelOpDescsTest, BadInputCorpusFailsLikeTheFullDecode) {
  size_t rejected = 0;
  std::vector<std::string> accepted;
  for (const testing::BadInputCase& c : testing::BadInputCorpus()) {
    SCOPED_TRACE(c.name);
    StatusOr<ModelOpDescs> light = DecodeModelOpDescs(c.bytes, c.options);
    StatusOr<ComputeGraphPtr> full = ModelSerialize::DeserializeModel(c.bytes, c.options);
    ASSERT_FALSE(full.ok());
    if (light.ok()) {
      accepted.push_back(c.name);
      continue;
    }
    ++rejected;
    EXPECT_EQ(GetErrorCode(light.status()), c.code) << light.status();
    EXPECT_EQ(light.status().message(), full.status().message());
  }
  EXPECT_GT(rejected, 20u);
  EXPECT_EQ(std::set<std::string>(accepted.begin(), accepted.end()), SubgraphOnlyCases());
}

TEST(ModelOpDescsTest, MissingSubgraphInAModelWithoutSubgraphs) {
  testing::GraphBuilder b("main");
  NodePtr data = b.AddNode("data", DATA, 0, 1);
  NodePtr iff = b.AddNode("if", "If", 1, 1);
  b.AddDataEdge(data, 0, iff, 0);
  iff->GetOpDescBarePtr()->AddSubgraphInstanceName("");
  iff->GetOpDescBarePtr()->AddSubgraphInstanceName("");
  // The serializer refuses dangling instance names: name it in the proto.
  proto::ModelDef m;
  GE_ASSERT_OK(ModelSerializeImp::SerializeModel(*b.graph(), &m));
  m.mutable_graph(0)->mutable_op(1)->set_subgraph_name(1, "then");
  StatusOr<std::string> bytes = ModelSerializeImp::ToBytes(m);
  ASSERT_TRUE(bytes.ok());
  StatusOr<ModelOpDescs> light = DecodeModelOpDescs(*bytes);
  ASSERT_FALSE(light.ok());
  EXPECT_EQ(GetErrorCode(light.status()), ErrorCode::kNotFound);
  EXPECT_THAT(std::string(light.status().message()),
              HasSubstr("graph 'main' node 'if' refers to missing subgraph 'then'"));
  ExpectConsistent(*bytes, DeserializeOptions(), false);
}

TEST(ModelOpDescsTest, EnvelopeErrors) {
  StatusOr<ModelOpDescs> empty = DecodeModelOpDescs("");
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(std::string(empty.status().message()), HasSubstr("the model has no graph"));
  StatusOr<ModelOpDescs> junk = DecodeModelOpDescs("\x12\x7f\x01");
  ASSERT_FALSE(junk.ok());
  EXPECT_EQ(GetErrorCode(junk.status()), ErrorCode::kParseFailed);
  EXPECT_THAT(std::string(junk.status().message()), HasSubstr("truncated or malformed ModelDef"));
  ExpectConsistent("\x12\x7f\x01", DeserializeOptions(), false);
}

TEST(ModelOpDescsTest, LimitsAndCycles) {
  testing::GraphBuilder b("g");
  NodePtr a = b.AddNode("a", DATA, 0, 1);
  NodePtr x = b.AddNode("x", "Relu", 1, 1);
  NodePtr y = b.AddNode("y", "Relu", 1, 1);
  b.AddDataEdge(a, 0, x, 0);
  b.AddDataEdge(x, 0, y, 0);
  proto::ModelDef m;
  GE_ASSERT_OK(ModelSerializeImp::SerializeModel(*b.graph(), &m));
  StatusOr<std::string> ok_bytes = ModelSerializeImp::ToBytes(m);
  ASSERT_TRUE(ok_bytes.ok());
  DeserializeOptions small;
  small.max_ops_per_graph = 2;
  StatusOr<ModelOpDescs> limited = DecodeModelOpDescs(*ok_bytes, small);
  ASSERT_FALSE(limited.ok());
  EXPECT_EQ(GetErrorCode(limited.status()), ErrorCode::kOutOfRange);
  EXPECT_THAT(std::string(limited.status().message()),
              HasSubstr("has 3 ops, more than the limit of 2"));
  ExpectConsistent(*ok_bytes, small, false);

  // x <- y <- x: a cycle through a later op.
  m.mutable_graph(0)->mutable_op(1)->set_input(0, "y:0");
  StatusOr<std::string> cyc = ModelSerializeImp::ToBytes(m);
  ASSERT_TRUE(cyc.ok());
  StatusOr<ModelOpDescs> light = DecodeModelOpDescs(*cyc);
  ASSERT_FALSE(light.ok());
  EXPECT_EQ(GetErrorCode(light.status()), ErrorCode::kGraphCycle);
  EXPECT_THAT(std::string(light.status().message()), HasSubstr("has a cycle"));
  ExpectConsistent(*cyc, DeserializeOptions(), false);
  DeserializeOptions no_cycles;
  no_cycles.check_cycles = false;
  StatusOr<ModelOpDescs> unchecked = DecodeModelOpDescs(*cyc, no_cycles);
  ASSERT_TRUE(unchecked.ok()) << unchecked.status();
  EXPECT_EQ(unchecked->ops.size(), 3u);

  // Output index out of range, missing producer.
  m.mutable_graph(0)->mutable_op(1)->set_input(0, "a:1");
  StatusOr<std::string> bad_index = ModelSerializeImp::ToBytes(m);
  ASSERT_TRUE(bad_index.ok());
  StatusOr<ModelOpDescs> r1 = DecodeModelOpDescs(*bad_index);
  ASSERT_FALSE(r1.ok());
  EXPECT_THAT(std::string(r1.status().message()),
              HasSubstr("node 'x' input 0 refers to output 1 of node 'a', which has 1 outputs"));
  ExpectConsistent(*bad_index, DeserializeOptions(), false);
  m.mutable_graph(0)->mutable_op(1)->set_input(0, "nope:0");
  StatusOr<std::string> missing = ModelSerializeImp::ToBytes(m);
  ASSERT_TRUE(missing.ok());
  StatusOr<ModelOpDescs> r2 = DecodeModelOpDescs(*missing);
  ASSERT_FALSE(r2.ok());
  EXPECT_THAT(std::string(r2.status().message()),
              HasSubstr("node 'x' input 0 refers to missing node 'nope'"));
  ExpectConsistent(*missing, DeserializeOptions(), false);
}

}  // namespace
}  // namespace ge
