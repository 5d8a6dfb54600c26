// graph/serialization/src/model_serialize_test.cc
//
// Round trips of random and hand-built graph trees through ModelSerialize
// (bytes, GraphDef, text): byte-identical re-serialization and structural
// equality; the exact edge encoding; consumer order; subgraph trees; the
// errors of serializing graphs the format cannot carry.
#include "graph/serialization/inc/model_serialize.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_types.h"
#include "graph/proto/ge_ir.pb.h"
#include "graph/serialization/inc/model_serialize_proto.h"
#include "graph/serialization/testing/graph_compare.h"
#include "graph/serialization/testing/random_graph.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> Names(const ComputeGraph& g) { return ge::testing::NodeNames(g); }

ComputeGraphPtr RoundTrip(const ComputeGraph& g) {
  StatusOr<std::string> bytes = ModelSerialize::SerializeModel(g);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  if (!bytes.ok()) return nullptr;
  StatusOr<ComputeGraphPtr> back = ModelSerialize::DeserializeModel(*bytes);
  EXPECT_TRUE(back.ok()) << back.status();
  return back.ok() ? *back : nullptr;
}

proto::ModelDef ToProto(const ComputeGraph& g) {
  proto::ModelDef m;
  Status st = ModelSerializeImp::SerializeModel(g, &m);
  EXPECT_TRUE(st.ok()) << st;
  return m;
}

const proto::OpDef& OpNamed(const proto::GraphDef& g, const std::string& name) {
  for (const proto::OpDef& op : g.op()) {
    if (op.name() == name) return op;
  }
  static const proto::OpDef* const kNone = new proto::OpDef();
  ADD_FAILURE() << "no op " << name;
  return *kNone;
}

class RandomRoundTripTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(RandomRoundTripTest, ModelBytesAreStableAndGraphsEqual) {
  const ComputeGraphPtr g = ge::testing::RandomGraph(GetParam());
  StatusOr<std::string> bytes1 = ModelSerialize::SerializeModel(*g);
  ASSERT_TRUE(bytes1.ok()) << bytes1.status();
  StatusOr<ComputeGraphPtr> g2 = ModelSerialize::DeserializeModel(*bytes1);
  ASSERT_TRUE(g2.ok()) << g2.status();
  GE_EXPECT_OK(ge::testing::CompareGraphs(*g, **g2));
  StatusOr<std::string> bytes2 = ModelSerialize::SerializeModel(**g2);
  ASSERT_TRUE(bytes2.ok()) << bytes2.status();
  EXPECT_TRUE(*bytes1 == *bytes2) << "re-serialized bytes differ (" << bytes1->size() << " vs "
                                  << bytes2->size() << " bytes)";
  // The same seed builds an equal graph with equal bytes.
  StatusOr<std::string> again =
      ModelSerialize::SerializeModel(*ge::testing::RandomGraph(GetParam()));
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(*again == *bytes1);
}

TEST_P(RandomRoundTripTest, GraphDefAndTextRoundTrip) {
  const ComputeGraphPtr g = ge::testing::RandomGraph(GetParam());
  StatusOr<std::string> bytes = ModelSerialize::SerializeGraph(*g);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  StatusOr<ComputeGraphPtr> g2 = ModelSerialize::DeserializeGraph(*bytes);
  ASSERT_TRUE(g2.ok()) << g2.status();
  GE_EXPECT_OK(ge::testing::CompareGraphs(*g, **g2));
  StatusOr<std::string> bytes2 = ModelSerialize::SerializeGraph(**g2);
  ASSERT_TRUE(bytes2.ok());
  EXPECT_TRUE(*bytes == *bytes2);

  StatusOr<std::string> text = ModelSerialize::SerializeModelToText(*g);
  ASSERT_TRUE(text.ok()) << text.status();
  StatusOr<ComputeGraphPtr> g3 = ModelSerialize::DeserializeModelFromText(*text);
  ASSERT_TRUE(g3.ok()) << g3.status();
  GE_EXPECT_OK(ge::testing::CompareGraphs(*g, **g3));
}

TEST_P(RandomRoundTripTest, SortsAgreeAfterRoundTrip) {
  // Peer orders survive, so every sort gives the same order on both graphs.
  for (TopoSortingMode mode : {TopoSortingMode::kBFS, TopoSortingMode::kDFS, TopoSortingMode::kRDFS,
                               TopoSortingMode::kStableRDFS}) {
    const ComputeGraphPtr g = ge::testing::RandomGraph(GetParam());
    const ComputeGraphPtr g2 = RoundTrip(*g);
    ASSERT_NE(g2, nullptr);
    GE_ASSERT_OK(g->TopologicalSorting(mode));
    GE_ASSERT_OK(g2->TopologicalSorting(mode));
    EXPECT_EQ(Names(*g), Names(*g2)) << TopoSortingModeName(mode);
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomRoundTripTest, ::testing::Range<uint64_t>(0, 40));

TEST(ModelSerializeTest, RandomGraphsUseEveryFeature) {
  // Guards the generator: the features the round trip must cover occur.
  int output_orders = 0, anchor_nums = 0, control_to_data = 0, data_to_control = 0;
  int optional = 0, names = 0, registered = 0, packed_formats = 0;
  SerializeOptions strings;
  strings.layout_strings = true;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    proto::ModelDef m;
    GE_ASSERT_OK(ModelSerializeImp::SerializeModel(*ge::testing::RandomGraph(seed), &m, strings));
    for (const proto::GraphDef& g : m.graph()) {
      registered += g.registered_name().empty() ? 0 : 1;
      for (const proto::OpDef& op : g.op()) {
        output_orders += op.output_order_size();
        anchor_nums += (op.has_in_anchor_num() ? 1 : 0) + (op.has_out_anchor_num() ? 1 : 0);
        optional += op.optional_input_size();
        names += op.input_name_size();
        const int n_anchors =
            op.has_in_anchor_num() ? static_cast<int>(op.in_anchor_num()) : op.input_desc_size();
        for (int k = 0; k < op.input_size(); ++k) {
          const bool data = k < n_anchors;
          const bool ctrl_src = absl::EndsWith(op.input(k), ":-1");
          control_to_data += data && ctrl_src ? 1 : 0;
          data_to_control += !data && !ctrl_src ? 1 : 0;
        }
        for (const proto::TensorDescriptor& td : op.output_desc()) {
          packed_formats += td.layout().find(':') != std::string::npos ? 1 : 0;
        }
      }
    }
  }
  EXPECT_GT(output_orders, 0);
  EXPECT_GT(anchor_nums, 0);
  EXPECT_GT(control_to_data, 0);
  EXPECT_GT(data_to_control, 0);
  EXPECT_GT(optional, 0);
  EXPECT_GT(names, 0);
  EXPECT_GT(registered, 0);
  EXPECT_GT(packed_formats, 0);
}

// a(Data) -> b -> d; a -> c -> d (d input 1); c --ctrl--> d; b:0 --> e ctrl
// (data -> control); a ctrl -> e:0 (control -> data); e input 1 unconnected.
struct SmallGraph {
  ComputeGraphPtr graph;
  NodePtr a, b, c, d, e;
};

SmallGraph BuildSmall() {
  ge::testing::GraphBuilder builder("small");
  SmallGraph s;
  s.a = builder.AddNode("a", DATA, 0, 1);
  s.b = builder.AddNode("b", "Relu", 1, 1);
  s.c = builder.AddNode("c", "Relu", 1, 1);
  s.d = builder.AddNode("d", "Add", 2, 1);
  s.e = builder.AddNode("e", "Add", 2, 1);
  builder.AddDataEdge(s.a, 0, s.b, 0);
  builder.AddDataEdge(s.a, 0, s.c, 0);
  builder.AddDataEdge(s.b, 0, s.d, 0);
  builder.AddDataEdge(s.c, 0, s.d, 1);
  builder.AddControlEdge(s.c, s.d);
  Status st = s.b->GetOutDataAnchor(0)->LinkTo(s.e->GetInControlAnchor());
  EXPECT_TRUE(st.ok()) << st;
  st = s.a->GetOutControlAnchor()->LinkTo(s.e->GetInDataAnchor(0));
  EXPECT_TRUE(st.ok()) << st;
  st = builder.graph()->AddOutputNodeByIndex(s.d, 0);
  EXPECT_TRUE(st.ok()) << st;
  s.graph = builder.graph();
  return s;
}

TEST(ModelSerializeTest, EdgeEncoding) {
  const SmallGraph s = BuildSmall();
  const proto::ModelDef m = ToProto(*s.graph);
  ASSERT_EQ(m.graph_size(), 1);
  const proto::GraphDef& g = m.graph(0);
  EXPECT_EQ(g.name(), "small");
  EXPECT_THAT(g.input(), ElementsAre("a"));
  EXPECT_THAT(g.output(), ElementsAre("d:0"));
  EXPECT_THAT(OpNamed(g, "a").input(), ElementsAre());
  EXPECT_THAT(OpNamed(g, "b").input(), ElementsAre("a:0"));
  EXPECT_THAT(OpNamed(g, "d").input(), ElementsAre("b:0", "c:0", "c:-1"));
  // control -> data in the data section, unconnected input, data -> control.
  EXPECT_THAT(OpNamed(g, "e").input(), ElementsAre("a:-1", "", "b:0"));
  for (const proto::OpDef& op : g.op()) EXPECT_EQ(op.output_order_size(), 0) << op.name();
}

TEST(ModelSerializeTest, SmallGraphRoundTrip) {
  const SmallGraph s = BuildSmall();
  const ComputeGraphPtr back = RoundTrip(*s.graph);
  ASSERT_NE(back, nullptr);
  GE_EXPECT_OK(ge::testing::CompareGraphs(*s.graph, *back));
  EXPECT_EQ(ge::testing::EdgeStrings(*s.graph), ge::testing::EdgeStrings(*back));
  EXPECT_EQ(back->FindNode("e")
                ->GetInDataAnchor(0)
                ->GetPeerOutControlAnchorPtr()
                ->GetOwnerNodeBarePtr()
                ->GetName(),
            "a");
  EXPECT_FALSE(back->FindNode("e")->GetInDataAnchor(1)->IsLinked());
}

// A graph above the writer's size sample (4096 nodes) whose nodes take more
// than its up-front guess of 128 bytes each: the buffer is sized from the
// sample instead of doubled at the end (a doubling keeps a spare copy's
// worth of capacity, twice the bytes), and the bytes are unchanged by it.
TEST(ModelSerializeTest, LargeGraphBufferIsSizedFromASample) {
  ge::testing::GraphBuilder builder("large");
  const std::string pad(96, 'n');
  NodePtr prev = builder.AddNode("in", DATA, 0, 1);
  for (int i = 0; i < 12000; ++i) {
    NodePtr n = builder.AddNode(absl::StrCat(pad, "_relu_", i), "Relu", 1, 1, GeShape({1, 16}));
    builder.AddDataEdge(prev, 0, n, 0);
    prev = n;
  }
  const ComputeGraph& g = *builder.graph();
  StatusOr<std::string> bytes = ModelSerialize::SerializeModel(g);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_GT(bytes->size(), 128u * g.GetDirectNodesSize());
  EXPECT_LE(bytes->capacity(), bytes->size() / 4 * 5 + (size_t{1} << 20));
  // The same bytes as protobuf's own encoder writes, and stable on a re-read.
  EXPECT_EQ(*bytes, ToProto(g).SerializeAsString());
  const ComputeGraphPtr back = RoundTrip(g);
  ASSERT_NE(back, nullptr);
  StatusOr<std::string> again = ModelSerialize::SerializeModel(*back);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *bytes);
}

TEST(ModelSerializeTest, NonCanonicalConsumerOrderIsRecorded) {
  ge::testing::GraphBuilder builder("order");
  NodePtr a = builder.AddNode("a", DATA, 0, 1);
  NodePtr b = builder.AddNode("b", "Relu", 1, 1);
  NodePtr c = builder.AddNode("c", "Relu", 1, 1);
  NodePtr x = builder.AddNode("x", "NoOp", 0, 0);
  builder.AddDataEdge(a, 0, c, 0);  // c linked first: a's peers are [c, b]
  builder.AddDataEdge(a, 0, b, 0);
  builder.AddControlEdge(x, c);  // x's control peers are [c, b]
  builder.AddControlEdge(x, b);
  builder.AddControlEdge(a, c);  // c's in-control peers are [x, a]: entry order
  const proto::ModelDef m = ToProto(*builder.graph());
  const proto::OpDef& op_a = OpNamed(m.graph(0), "a");
  ASSERT_EQ(op_a.output_order_size(), 1);
  EXPECT_EQ(op_a.output_order(0).index(), 0);
  EXPECT_THAT(op_a.output_order(0).peer_rank(), ElementsAre(1, 0));
  const proto::OpDef& op_x = OpNamed(m.graph(0), "x");
  ASSERT_EQ(op_x.output_order_size(), 1);
  EXPECT_EQ(op_x.output_order(0).index(), -1);
  EXPECT_THAT(OpNamed(m.graph(0), "c").input(), ElementsAre("a:0", "x:-1", "a:-1"));

  const ComputeGraphPtr back = RoundTrip(*builder.graph());
  ASSERT_NE(back, nullptr);
  GE_EXPECT_OK(ge::testing::CompareGraphs(*builder.graph(), *back));
  const auto peers = back->FindNode("a")->GetOutDataAnchor(0)->GetPeerInDataAnchors();
  ASSERT_EQ(peers.size(), 2u);
  EXPECT_EQ(peers[0]->GetOwnerNode()->GetName(), "c");
  EXPECT_EQ(peers[1]->GetOwnerNode()->GetName(), "b");
}

TEST(ModelSerializeTest, DescsAndPortNamesSurvive) {
  auto op = std::make_shared<OpDesc>("conv", "Conv2D");
  GeTensorDesc x(GeShape({1, -1, 224, 224}), FORMAT_NCHW, DT_FLOAT16);
  x.SetOriginShape(GeShape({1, 3, 224, 224}));
  x.SetOriginFormat(FORMAT_NHWC);
  x.SetOriginDataType(DT_FLOAT);
  GE_ASSERT_OK(x.SetShapeRange({{1, 1}, {1, 16}, {224, 224}, {224, -1}}));
  x.SetName("input_tensor");
  x.SetDeviceType(DeviceType::kCpu);
  x.SetDataOffset(64);
  GE_ASSERT_OK(x.SetAttr("_note", AttrValue::CreateFrom<std::string>("hi")));
  GE_ASSERT_OK(op->AddInputDesc("x", x));
  GE_ASSERT_OK(
      op->AddOptionalInputDesc("bias", GeTensorDesc(GeShape(), FORMAT_RESERVED, DT_UNDEFINED)));
  const Format packed = static_cast<Format>(GetFormatFromSubAndC0(FORMAT_FRACTAL_Z, 2, 5));
  GE_ASSERT_OK(op->AddOutputDesc("y", GeTensorDesc(GeShape({4, 4, 16, 16}), packed, DT_INT4)));
  ge::testing::GraphBuilder builder("descs");
  GE_ASSERT_OK(builder.graph()->AddNode(op).status());

  const proto::ModelDef m = ToProto(*builder.graph());
  const proto::OpDef& def = m.graph(0).op(0);
  EXPECT_THAT(def.input_name(), ElementsAre("x", "bias"));
  EXPECT_THAT(def.optional_input(), ElementsAre(1u));
  EXPECT_EQ(def.output_desc(0).format(), packed);
  EXPECT_TRUE(def.output_desc(0).layout().empty());
  EXPECT_FALSE(def.output_desc(0).has_origin_format());  // equal to the format
  EXPECT_EQ(def.output_desc(0).dtype(), proto::DT_INT4);
  EXPECT_EQ(def.input_desc(0).origin_format(), FORMAT_NHWC);
  EXPECT_EQ(def.input_desc(0).origin_dtype(), proto::DT_FLOAT);
  EXPECT_EQ(def.input_desc(0).device_type(), "CPU");
  // Layout strings on request (text dumps always have them).
  SerializeOptions strings;
  strings.layout_strings = true;
  proto::ModelDef with_strings;
  GE_ASSERT_OK(ModelSerializeImp::SerializeModel(*builder.graph(), &with_strings, strings));
  EXPECT_EQ(with_strings.graph(0).op(0).output_desc(0).layout(), "FRACTAL_Z:2:C0_16");
  EXPECT_EQ(with_strings.graph(0).op(0).input_desc(0).origin_layout(), "NHWC");

  const ComputeGraphPtr back = RoundTrip(*builder.graph());
  ASSERT_NE(back, nullptr);
  GE_EXPECT_OK(ge::testing::CompareGraphs(*builder.graph(), *back));
  const OpDesc& op2 = *back->FindNode("conv")->GetOpDesc();
  EXPECT_TRUE(op2.IsOptionalInput("bias"));
  EXPECT_EQ(op2.GetOutputDesc(0).GetFormat(), packed);
  EXPECT_EQ(op2.GetInputDesc(0).GetOriginShape(), GeShape({1, 3, 224, 224}));
}

TEST(ModelSerializeTest, DefaultPortNamesAreNotWritten) {
  ge::testing::GraphBuilder builder("defaults");
  builder.AddNode("n", "Add", 2, 1);
  const proto::ModelDef m = ToProto(*builder.graph());
  EXPECT_EQ(m.graph(0).op(0).input_name_size(), 0);
  EXPECT_EQ(m.graph(0).op(0).output_name_size(), 0);
  const ComputeGraphPtr back = RoundTrip(*builder.graph());
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(back->FindNode("n")->GetOpDesc()->GetInputNameByIndex(1), "__input1");
}

TEST(ModelSerializeTest, SubgraphTreeRoundTripAndSubtreeSerialization) {
  const ComputeGraphPtr g = ge::testing::RandomGraph(5);
  ASSERT_GE(g->GetAllSubgraphs().size(), 3u);
  const proto::ModelDef m = ToProto(*g);
  EXPECT_EQ(m.graph_size(), 1 + static_cast<int>(g->GetAllSubgraphs().size()));
  EXPECT_EQ(m.graph(1).parent_graph(), "g5");
  EXPECT_EQ(m.graph(2).parent_graph(), "g5_then");  // nested
  // Serializing a subgraph writes it as a root with the subgraphs below it.
  const ComputeGraphPtr then = g->GetSubgraph("g5_then");
  ASSERT_NE(then, nullptr);
  const ComputeGraphPtr back = RoundTrip(*then);
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(back->GetParentGraph(), nullptr);
  ASSERT_EQ(back->GetAllSubgraphs().size(), 1u);
  EXPECT_EQ(back->GetAllSubgraphs()[0]->GetName(), "g5_then_inner");
  EXPECT_EQ(back->GetAllSubgraphs()[0]->GetParentGraph(), back);
  // With omit_subgraphs only the root is written.
  SerializeOptions root_only;
  root_only.omit_subgraphs = true;
  proto::ModelDef m2;
  GE_ASSERT_OK(ModelSerializeImp::SerializeModel(*g, &m2, root_only));
  EXPECT_EQ(m2.graph_size(), 1);
}

TEST(ModelSerializeTest, TensorDataCanBeOmitted) {
  ge::testing::GraphBuilder builder("weights");
  NodePtr n = builder.AddNode("w", CONSTANT, 0, 1);
  const GeTensor t(GeTensorDesc(GeShape({4}), FORMAT_ND, DT_UINT8),
                   std::vector<uint8_t>{1, 2, 3, 4});
  GE_ASSERT_OK(n->GetOpDesc()->SetAttr("value", AttrValue::CreateFrom<GeTensor>(t)));
  SerializeOptions no_data;
  no_data.omit_tensor_data = true;
  proto::ModelDef m;
  GE_ASSERT_OK(ModelSerializeImp::SerializeModel(*builder.graph(), &m, no_data));
  EXPECT_TRUE(m.graph(0).op(0).attr(0).value().t().data().empty());
  EXPECT_EQ(m.graph(0).op(0).attr(0).value().t().desc().shape().dim(0), 4);
  proto::ModelDef full = ToProto(*builder.graph());
  EXPECT_EQ(full.graph(0).op(0).attr(0).value().t().data(), std::string("\x01\x02\x03\x04"));
}

TEST(ModelSerializeTest, StructureOnlyKeepsNamesTypesEdges) {
  const SmallGraph s = BuildSmall();
  SerializeOptions o;
  o.structure_only = true;
  proto::ModelDef m;
  GE_ASSERT_OK(ModelSerializeImp::SerializeModel(*s.graph, &m, o));
  const proto::OpDef& d = OpNamed(m.graph(0), "d");
  EXPECT_EQ(d.type(), "Add");
  EXPECT_EQ(d.input_desc_size(), 0);
  EXPECT_THAT(d.input(), ElementsAre("b:0", "c:0", "c:-1"));
  EXPECT_EQ(d.in_anchor_num(), 2u);
}

TEST(ModelSerializeTest, ComparatorSeesDifferences) {
  // The equality the round trips rely on is not vacuous.
  const ComputeGraphPtr g = ge::testing::RandomGraph(11);
  ComputeGraphPtr g2 = RoundTrip(*g);
  ASSERT_NE(g2, nullptr);
  GE_ASSERT_OK(ge::testing::CompareGraphs(*g, *g2));
  GE_ASSERT_OK(g2->SetAttr("_extra", AttrValue::CreateFrom<int64_t>(1)));
  Status st = ge::testing::CompareGraphs(*g, *g2);
  EXPECT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr("attribute names"));

  g2 = RoundTrip(*g);
  ASSERT_NE(g2, nullptr);
  GeTensorDescPtr out = g2->GetDirectNode()[3]->GetOpDesc()->MutableOutputDesc(0);
  ASSERT_NE(out, nullptr);
  const DataType before = out->GetOriginDataType();
  out->SetOriginDataType(before == DT_COMPLEX32 ? DT_INT8 : DT_COMPLEX32);
  ASSERT_NE(g2->GetDirectNode()[3]->GetOpDesc()->GetOutputDesc(0).GetOriginDataType(), before);
  st = ge::testing::CompareGraphs(*g, *g2);
  EXPECT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr("output desc 0 / tensor desc fields differ"));

  // Consumer order alone.
  const SmallGraph s = BuildSmall();
  const ComputeGraphPtr back = RoundTrip(*s.graph);
  ASSERT_NE(back, nullptr);
  NodePtr a = back->FindNode("a");
  NodePtr b = back->FindNode("b");
  GE_ASSERT_OK(a->GetOutDataAnchor(0)->Unlink(b->GetInDataAnchor(0)));
  GE_ASSERT_OK(a->GetOutDataAnchor(0)->LinkTo(b->GetInDataAnchor(0)));  // now [c, b]
  st = ge::testing::CompareGraphs(*s.graph, *back);
  EXPECT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr("out anchor 0 peers"));
}

// ---------------------------------------------------------------- errors

TEST(ModelSerializeTest, DuplicateNodeNamesAreRejected) {
  ge::testing::GraphBuilder builder("dups");
  builder.AddNode("same", "Relu", 0, 1);
  builder.AddNode("same", "Relu", 0, 1);
  StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*builder.graph());
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(GetErrorCode(bytes.status()), ErrorCode::kGraphInvalid);
  EXPECT_THAT(bytes.status().message(), HasSubstr("two nodes named 'same'"));
}

TEST(ModelSerializeTest, CrossGraphEdgeIsRejected) {
  ge::testing::GraphBuilder b1("one");
  ge::testing::GraphBuilder b2("two");
  NodePtr x = b1.AddNode("x", "Relu", 0, 1);
  NodePtr y = b2.AddNode("y", "Relu", 1, 1);
  GE_ASSERT_OK(x->GetOutDataAnchor(0)->LinkTo(y->GetInDataAnchor(0)));
  StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*b2.graph());
  ASSERT_FALSE(bytes.ok());
  EXPECT_THAT(bytes.status().message(),
              HasSubstr("comes from node 'x', which is not in graph 'two'"));
  bytes = ModelSerialize::SerializeModel(*b1.graph());
  ASSERT_FALSE(bytes.ok());
  EXPECT_THAT(bytes.status().message(), HasSubstr("feeds node 'y', which is not in graph 'one'"));
}

TEST(ModelSerializeTest, GraphHoldingItselfIsRejected) {
  auto g = std::make_shared<ComputeGraph>("self");
  GE_ASSERT_OK(g->SetAttr("me", AttrValue::CreateFrom<ComputeGraphPtr>(g)));
  StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*g);
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(GetErrorCode(bytes.status()), ErrorCode::kOutOfRange);
  EXPECT_THAT(bytes.status().message(), HasSubstr("nested more than 16 levels"));
  GE_ASSERT_OK(g->DelAttr("me"));  // break the reference cycle
}

TEST(ModelSerializeTest, NullGraphAttrAndBadFormatAreRejected) {
  ge::testing::GraphBuilder builder("bad");
  NodePtr n = builder.AddNode("n", "Relu", 0, 1);
  GE_ASSERT_OK(n->GetOpDesc()->SetAttr("g", AttrValue::CreateFrom<ComputeGraphPtr>(nullptr)));
  StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*builder.graph());
  ASSERT_FALSE(bytes.ok());
  EXPECT_THAT(bytes.status().message(),
              HasSubstr("node 'n': attribute 'g': graph attribute holds a null graph"));
  GE_ASSERT_OK(n->GetOpDesc()->DelAttr("g"));
  n->GetOpDesc()->MutableOutputDesc(0)->SetFormat(static_cast<Format>(0x7fffffff));
  bytes = ModelSerialize::SerializeModel(*builder.graph());
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(GetErrorCode(bytes.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(bytes.status().message(), HasSubstr("output desc 0: format 2147483647"));
}

TEST(ModelSerializeTest, UnregisteredSubgraphInstanceIsRejected) {
  ge::testing::GraphBuilder builder("inst");
  NodePtr n = builder.AddNode("if", "If", 0, 1);
  n->GetOpDesc()->AddSubgraphInstanceName("missing_branch");
  StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*builder.graph());
  ASSERT_FALSE(bytes.ok());
  EXPECT_THAT(bytes.status().message(),
              HasSubstr("node 'if' refers to subgraph 'missing_branch', which is not registered"));
}

TEST(ModelSerializeTest, CyclesCanBeAcceptedOnRequest) {
  ge::testing::GraphBuilder builder("loop");
  NodePtr a = builder.AddNode("a", "Relu", 1, 1);
  NodePtr b = builder.AddNode("b", "Relu", 1, 1);
  builder.AddDataEdge(a, 0, b, 0);
  builder.AddDataEdge(b, 0, a, 0);
  StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*builder.graph());
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  StatusOr<ComputeGraphPtr> back = ModelSerialize::DeserializeModel(*bytes);
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(GetErrorCode(back.status()), ErrorCode::kGraphCycle);
  EXPECT_THAT(back.status().message(), HasSubstr("a -> b -> a"));
  DeserializeOptions lax;
  lax.check_cycles = false;
  back = ModelSerialize::DeserializeModel(*bytes, lax);
  ASSERT_TRUE(back.ok()) << back.status();
  GE_EXPECT_OK(ge::testing::CompareGraphs(*builder.graph(), **back));
}

TEST(ModelSerializeTest, TextParseErrorsNameTheLine) {
  StatusOr<ComputeGraphPtr> g =
      ModelSerialize::DeserializeModelFromText("graph {\n  name: \"x\"\n  op { bogus: 1 }\n}\n");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kParseFailed);
  EXPECT_THAT(g.status().message(), HasSubstr("3:"));
  EXPECT_THAT(g.status().message(), HasSubstr("bogus"));
}

}  // namespace
}  // namespace ge
