// graph/serialization/src/graph_codec_test.cc
//
// The graph codec against the generated protobuf classes: its bytes are
// canonical (generated parse + serialize gives them back), its writer's
// length handling matches protobuf's, and its reader accepts any valid
// encoding (unpacked repeated scalars, any field order, unknown fields,
// repeated singular fields) and rejects malformed ones.
#include "graph/serialization/src/graph_codec.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/proto/ge_ir.pb.h"
#include "graph/serialization/inc/model_serialize.h"
#include "graph/serialization/inc/model_serialize_proto.h"
#include "graph/serialization/testing/graph_compare.h"
#include "graph/serialization/testing/random_graph.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "metadef/inc/base/wire_format.h"

namespace ge {
namespace {

using ::testing::HasSubstr;
using wire::WireWriter;

// Generated parse + deterministic serialize of codec bytes.
template <typename Message>
std::string Regenerated(const std::string& bytes) {
  Message m;
  Status st = ModelSerializeImp::ParseBytes(bytes, &m);
  EXPECT_TRUE(st.ok()) << st;
  StatusOr<std::string> again = ModelSerializeImp::ToBytes(m);
  EXPECT_TRUE(again.ok());
  return again.ok() ? *again : std::string();
}

TEST(GraphCodecTest, BytesAreCanonical) {
  std::vector<SerializeOptions> variants(4);
  variants[1].layout_strings = true;
  variants[2].omit_tensor_data = true;
  variants[3].structure_only = true;
  for (uint64_t seed = 0; seed < 25; ++seed) {
    const ComputeGraphPtr g = testing::RandomGraph(seed);
    for (size_t v = 0; v < variants.size(); ++v) {
      SCOPED_TRACE(testing::RandomGraphOptions().num_nodes + seed * 100 + v);
      StatusOr<std::string> model = ModelSerialize::SerializeModel(*g, variants[v]);
      ASSERT_TRUE(model.ok()) << model.status();
      EXPECT_TRUE(Regenerated<proto::ModelDef>(*model) == *model)
          << "seed " << seed << " variant " << v;
      StatusOr<std::string> graph = ModelSerialize::SerializeGraph(*g, variants[v]);
      ASSERT_TRUE(graph.ok()) << graph.status();
      EXPECT_TRUE(Regenerated<proto::GraphDef>(*graph) == *graph)
          << "seed " << seed << " variant " << v;
    }
  }
}

// One GraphDef holding one op named `name`, written by WireWriter with a
// length hint, against the generated encoding.
TEST(GraphCodecTest, MessageLengthsMatchProtobuf) {
  for (size_t name_len : {0, 5, 125, 126, 127, 128, 200, 16383, 16384, 20000, 3000000}) {
    for (size_t hint : {0, 1, 200, 20000, 100000000}) {
      const std::string name(name_len, 'x');
      std::string bytes;
      {
        WireWriter w(&bytes);
        w.String(proto::GraphDef::kNameFieldNumber, "g");
        const size_t op = w.BeginMessage(proto::GraphDef::kOpFieldNumber, hint);
        w.String(proto::OpDef::kNameFieldNumber, name);
        const size_t desc = w.BeginMessage(proto::OpDef::kInputDescFieldNumber, hint);
        w.Int32(proto::TensorDescriptor::kDtypeFieldNumber, proto::DT_INT8);
        w.EndMessage(desc);
        w.EndMessage(op);
        w.UInt32(proto::GraphDef::kGraphIdFieldNumber, 7);
      }
      proto::GraphDef expected;
      expected.set_name("g");
      proto::OpDef* op = expected.add_op();
      op->set_name(name);
      op->add_input_desc()->set_dtype(proto::DT_INT8);
      expected.set_graph_id(7);
      StatusOr<std::string> want = ModelSerializeImp::ToBytes(expected);
      ASSERT_TRUE(want.ok());
      EXPECT_TRUE(bytes == *want) << "name length " << name_len << " hint " << hint;
    }
  }
}

TEST(GraphCodecTest, NegativeAndPackedScalarsMatchProtobuf) {
  std::string bytes;
  {
    WireWriter w(&bytes);
    const std::vector<int64_t> dims = {-1, 0, 3, int64_t{1} << 40, -2};
    w.PackedInt64<int64_t>(proto::ShapeDef::kDimFieldNumber, dims);
  }
  proto::ShapeDef expected;
  for (int64_t d : {int64_t{-1}, int64_t{0}, int64_t{3}, int64_t{1} << 40, int64_t{-2}})
    expected.add_dim(d);
  EXPECT_TRUE(bytes == *ModelSerializeImp::ToBytes(expected));

  std::string order;
  {
    WireWriter w(&order);
    w.Int32(proto::OutputOrder::kIndexFieldNumber, -1);
    const std::vector<uint32_t> ranks = {2, 0, 300};
    w.PackedUInt32<uint32_t>(proto::OutputOrder::kPeerRankFieldNumber, ranks);
  }
  proto::OutputOrder o;
  o.set_index(-1);
  for (uint32_t r : {2u, 0u, 300u}) o.add_peer_rank(r);
  EXPECT_TRUE(order == *ModelSerializeImp::ToBytes(o));
}

// A hand-encoded model: op fields in reverse order, dims not packed, unknown
// fields of every wire type, a repeated singular field (the last wins) and a
// shape split over two fields (messages merge).
std::string HandEncodedModel(bool with_group) {
  auto desc = [](std::vector<int64_t> dims_a, std::vector<int64_t> dims_b) {
    std::string d;
    WireWriter w(&d);
    w.Int64Always(999, 5);         // unknown varint
    w.StringAlways(1000, "junk");  // unknown length-delimited
    w.Tag(1001, wire::kFixed32);   // unknown fixed32
    w.Append("abcd", 4);
    w.Tag(1002, wire::kFixed64);  // unknown fixed64
    w.Append("abcdefgh", 8);
    w.Int32(proto::TensorDescriptor::kFormatFieldNumber, FORMAT_NHWC);
    for (const auto& part : {dims_a, dims_b}) {
      const size_t shape = w.BeginMessage(proto::TensorDescriptor::kShapeFieldNumber);
      for (int64_t v : part) w.Int64Always(proto::ShapeDef::kDimFieldNumber, v);  // unpacked
      w.EndMessage(shape);
    }
    w.Int32(proto::TensorDescriptor::kDtypeFieldNumber, proto::DT_FLOAT16);
    return d;
  };
  std::string graph;
  {
    WireWriter w(&graph);
    w.StringAlways(proto::GraphDef::kOutputFieldNumber, "b:0");
    // op b first in the bytes is still op 0: ops are in field order.
    const size_t a = w.BeginMessage(proto::GraphDef::kOpFieldNumber);
    w.Message(proto::OpDef::kOutputDescFieldNumber, desc({2}, {3, 4}));
    w.StringAlways(proto::OpDef::kTypeFieldNumber, "Data");
    w.StringAlways(proto::OpDef::kNameFieldNumber, "wrong");
    w.StringAlways(proto::OpDef::kNameFieldNumber, "a");  // the last wins
    if (with_group) w.Tag(77, wire::kStartGroup);
    w.EndMessage(a);
    const size_t b = w.BeginMessage(proto::GraphDef::kOpFieldNumber);
    w.Message(proto::OpDef::kOutputDescFieldNumber, desc({1}, {}));
    w.Message(proto::OpDef::kInputDescFieldNumber, desc({2, 3}, {4}));
    w.StringAlways(proto::OpDef::kInputFieldNumber, "a:0");
    w.StringAlways(proto::OpDef::kNameFieldNumber, "b");
    w.EndMessage(b);
    w.StringAlways(proto::GraphDef::kNameFieldNumber, "hand");
  }
  std::string model;
  {
    WireWriter w(&model);
    w.StringAlways(proto::ModelDef::kGraphFieldNumber, graph);
    w.StringAlways(proto::ModelDef::kNameFieldNumber, "hand");
    w.UInt32Always(123, 9);  // unknown
  }
  return model;
}

TEST(GraphCodecTest, ReaderAcceptsAnyValidEncoding) {
  StatusOr<ComputeGraphPtr> g = ModelSerialize::DeserializeModel(HandEncodedModel(false));
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ((*g)->GetName(), "hand");
  EXPECT_EQ(ge::testing::NodeNames(**g), (std::vector<std::string>{"a", "b"}));
  const NodePtr a = (*g)->FindNode("a");
  const NodePtr b = (*g)->FindNode("b");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->GetOpDesc()->GetOutputDesc(0).GetShape(), GeShape({2, 3, 4}));
  EXPECT_EQ(a->GetOpDesc()->GetOutputDesc(0).GetDataType(), DT_FLOAT16);
  EXPECT_EQ(a->GetOpDesc()->GetOutputDesc(0).GetFormat(), FORMAT_NHWC);
  EXPECT_EQ(b->GetOpDesc()->GetInputDesc(0).GetShape(), GeShape({2, 3, 4}));
  ASSERT_EQ(b->GetInDataNodes().size(), 1u);
  EXPECT_EQ(b->GetInDataNodes()[0], a);
  ASSERT_EQ((*g)->GetGraphOutNodesInfo().size(), 1u);
  EXPECT_EQ((*g)->GetGraphOutNodesInfo()[0].first, b);
}

TEST(GraphCodecTest, ReaderRejectsMalformedEncodings) {
  StatusOr<ComputeGraphPtr> g = ModelSerialize::DeserializeModel(HandEncodedModel(true));
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kParseFailed);
  EXPECT_THAT(std::string(g.status().message()),
              HasSubstr("truncated or malformed op 0 of graph 'hand'"));

  // An 11-byte varint, a length past the end, field number 0.
  for (const std::string& bad :
       {std::string("\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12),
        std::string("\x3a\x05\x0a", 3), std::string("\x00\x01", 2)}) {
    g = ModelSerialize::DeserializeModel(bad);
    ASSERT_FALSE(g.ok());
    EXPECT_THAT(std::string(g.status().message()), HasSubstr("truncated or malformed ModelDef"));
  }
}

TEST(GraphCodecTest, OpAndDescLevelApiRoundTrip) {
  const ComputeGraphPtr g = testing::RandomGraph(17);
  for (const NodePtr& node : g->GetDirectNode()) {
    SerializeContext sctx;
    proto::OpDef def;
    GE_ASSERT_OK(ModelSerializeImp::SerializeOpDesc(*node->GetOpDesc(), &def, sctx));
    EXPECT_EQ(def.input_size(), 0);  // no edges at this level
    DeserializeContext dctx;
    StatusOr<OpDescPtr> back = ModelSerializeImp::UnserializeOpDesc(def, dctx);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ((*back)->GetName(), node->GetName());
    EXPECT_EQ((*back)->GetAllInputsSize(), node->GetOpDesc()->GetAllInputsSize());
    for (uint32_t i = 0; i < node->GetOpDesc()->GetAllOutputsDescSize(); ++i) {
      GE_EXPECT_OK(testing::CompareTensorDescs(*node->GetOpDesc()->GetOutputDescBarePtr(i),
                                               *(*back)->GetOutputDescBarePtr(i)));
    }
  }
}

// Ops of one type with equal IR metadata share one decoded copy
// (copy-on-write); ops whose IR differs, or of another type, get their own.
TEST(GraphCodecTest, DecodedOpsOfATypeShareEqualIrMetadata) {
  testing::GraphBuilder b("ir");
  NodePtr a1 = b.AddNode("a1", "Conv2D", 1, 1);
  NodePtr a2 = b.AddNode("a2", "Conv2D", 1, 1);
  NodePtr a3 = b.AddNode("a3", "Conv2D", 1, 1);
  NodePtr r1 = b.AddNode("r1", "Relu", 1, 1);
  for (const NodePtr& n : {a1, a2, a3, r1}) {
    GE_ASSERT_OK(n->GetOpDesc()->AppendIrInput("x", kIrInputRequired));
    GE_ASSERT_OK(n->GetOpDesc()->AppendIrOutput("y", kIrOutputRequired));
  }
  for (const NodePtr& n : {a1, a2, a3}) {
    GE_ASSERT_OK(n->GetOpDesc()->AppendIrInput("bias", kIrInputOptional));
    GE_ASSERT_OK(n->GetOpDesc()->AppendIrAttrName("strides"));
  }
  // a3 differs in one kind only.
  GE_ASSERT_OK(a3->GetOpDesc()->AppendIrOutput("extra", kIrOutputDynamic));
  b.AddDataEdge(a1, 0, a2, 0);
  b.AddDataEdge(a2, 0, a3, 0);
  b.AddDataEdge(a3, 0, r1, 0);
  StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*b.graph());
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  StatusOr<ComputeGraphPtr> back = ModelSerialize::DeserializeModel(*bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  auto op = [&](const char* name) { return (*back)->FindNode(name)->GetOpDesc(); };
  EXPECT_TRUE(op("a2")->SharesIrMetaWith(*op("a1")));
  EXPECT_FALSE(op("a3")->SharesIrMetaWith(*op("a1")));
  EXPECT_FALSE(op("r1")->SharesIrMetaWith(*op("a1")));
  for (const char* name : {"a1", "a2", "a3", "r1"}) {
    const OpDescPtr orig = b.graph()->FindNode(name)->GetOpDesc();
    EXPECT_EQ(op(name)->GetIrInputs(), orig->GetIrInputs()) << name;
    EXPECT_EQ(op(name)->GetIrOutputs(), orig->GetIrOutputs()) << name;
    EXPECT_EQ(op(name)->GetIrAttrNames(), orig->GetIrAttrNames()) << name;
  }
  // Copy-on-write: changing one op's IR leaves the other alone.
  GE_ASSERT_OK(op("a2")->AppendIrInput("z", kIrInputDynamic));
  EXPECT_EQ(op("a1")->GetIrInputs().size(), 2u);
  EXPECT_EQ(op("a2")->GetIrInputs().size(), 3u);
}

}  // namespace
}  // namespace ge
