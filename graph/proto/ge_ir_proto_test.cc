// graph/proto/ge_ir_proto_test.cc
//
// Guards the wire compatibility of ge_ir.proto with GE's schema: the field
// numbers GE files use must not move, our additions must not collide with
// them, and the presence-carrying fields keep presence.
#include <string>

#include "graph/proto/ge_ir.pb.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

int Number(const google::protobuf::Descriptor* d, const std::string& field) {
  const google::protobuf::FieldDescriptor* f = d->FindFieldByName(field);
  return f == nullptr ? -1 : f->number();
}

TEST(GeIrProtoTest, GeFieldNumbersAreStable) {
  const auto* op = proto::OpDef::descriptor();
  EXPECT_EQ(Number(op, "name"), 1);
  EXPECT_EQ(Number(op, "type"), 2);
  EXPECT_EQ(Number(op, "input"), 5);
  EXPECT_EQ(Number(op, "attr"), 10);
  EXPECT_EQ(Number(op, "id"), 21);
  EXPECT_EQ(Number(op, "stream_id"), 22);
  EXPECT_EQ(Number(op, "input_desc"), 33);
  EXPECT_EQ(Number(op, "output_desc"), 34);
  EXPECT_EQ(Number(op, "subgraph_name"), 35);
  const auto* graph = proto::GraphDef::descriptor();
  EXPECT_EQ(Number(graph, "input"), 4);
  EXPECT_EQ(Number(graph, "output"), 5);
  EXPECT_EQ(Number(graph, "op"), 6);
  EXPECT_EQ(Number(graph, "attr"), 11);
  const auto* model = proto::ModelDef::descriptor();
  EXPECT_EQ(Number(model, "graph"), 7);
  const auto* td = proto::TensorDescriptor::descriptor();
  EXPECT_EQ(Number(td, "dtype"), 2);
  EXPECT_EQ(Number(td, "shape"), 3);
  EXPECT_EQ(Number(td, "layout"), 4);
  EXPECT_EQ(Number(td, "real_dim_cnt"), 16);
  const auto* attr = proto::AttrDef::descriptor();
  EXPECT_EQ(Number(attr, "list"), 1);
  EXPECT_EQ(Number(attr, "g"), 13);
  EXPECT_EQ(Number(attr, "dt"), 15);
  EXPECT_EQ(proto::DT_FLOAT, 1);
  EXPECT_EQ(proto::DT_UNDEFINED, 0);
  EXPECT_EQ(proto::AttrDef::ListValue::VT_LIST_INT, 2);
}

TEST(GeIrProtoTest, OptionalFieldsHavePresence) {
  proto::TensorDescriptor td;
  EXPECT_FALSE(td.has_real_dim_cnt());
  td.set_real_dim_cnt(0);
  EXPECT_TRUE(td.has_real_dim_cnt());
  proto::OpDef op;
  EXPECT_FALSE(op.has_in_anchor_num());
  op.set_in_anchor_num(0);
  EXPECT_TRUE(op.has_in_anchor_num());
  // A zero with presence survives the wire.
  proto::OpDef back;
  ASSERT_TRUE(back.ParseFromString(op.SerializeAsString()));
  EXPECT_TRUE(back.has_in_anchor_num());
}

TEST(GeIrProtoTest, UnknownEnumValuesArePreserved) {
  // proto3 enums are open: a hostile value reaches the deserializer, which
  // must check it (see graph/serialization).
  proto::TensorDescriptor td;
  td.set_dtype(static_cast<proto::DataType>(999));
  proto::TensorDescriptor back;
  ASSERT_TRUE(back.ParseFromString(td.SerializeAsString()));
  EXPECT_EQ(static_cast<int>(back.dtype()), 999);
  EXPECT_FALSE(proto::DataType_IsValid(999));
}

}  // namespace
}  // namespace ge
