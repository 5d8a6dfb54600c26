// graph/serialization/src/attr_serializer_test.cc
//
// The per-type attribute serializers and their registry: every type round
// trips, the encoding of lists / data types / empty values, the registry's
// registration rules, replacement by a custom serializer, nesting limits and
// error paths.
#include "graph/serialization/inc/attr_serializer.h"

#include <atomic>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/proto/ge_ir.pb.h"
#include "graph/serialization/testing/graph_compare.h"
#include "graph/serialization/testing/random_graph.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ListValue = proto::AttrDef::ListValue;

StatusOr<proto::AttrDef> Write(const AttrValue& v) {
  SerializeContext ctx;
  proto::AttrDef def;
  RETURN_IF_ERROR(SerializeAttrValue(v, &def, ctx));
  return def;
}

StatusOr<AttrValue> Read(const proto::AttrDef& def, DeserializeOptions options = {}) {
  DeserializeContext ctx;
  ctx.options = options;
  AttrValue v;
  RETURN_IF_ERROR(DeserializeAttrValue(def, &v, ctx));
  return v;
}

TEST(AttrSerializerTest, EveryTypeRoundTrips) {
  std::mt19937_64 rng(3);
  const auto values = ge::testing::AllAttrTypes(rng, 1);
  ASSERT_EQ(values.size(), 25u);  // 22 types + none + 2 empty lists
  for (const auto& [name, value] : values) {
    SCOPED_TRACE(name);
    StatusOr<proto::AttrDef> def = Write(value);
    ASSERT_TRUE(def.ok()) << def.status();
    StatusOr<AttrValue::ValueType> type = AttrSerializerRegistry::ValueTypeOf(*def);
    ASSERT_TRUE(type.ok()) << type.status();
    EXPECT_EQ(*type, value.GetValueType());
    StatusOr<AttrValue> back = Read(*def);
    ASSERT_TRUE(back.ok()) << back.status();
    GE_EXPECT_OK(ge::testing::CompareAttrValues(value, *back));
  }
}

TEST(AttrSerializerTest, Encoding) {
  StatusOr<proto::AttrDef> def = Write(AttrValue::CreateFrom<std::vector<int64_t>>({3, -1}));
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(def->list().val_type(), ListValue::VT_LIST_INT);
  EXPECT_THAT(def->list().i(), ElementsAre(3, -1));

  def = Write(AttrValue::CreateFrom<std::vector<float>>({}));
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(def->value_case(), proto::AttrDef::kList);
  EXPECT_EQ(def->list().val_type(), ListValue::VT_LIST_FLOAT);
  StatusOr<AttrValue> back = Read(*def);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->GetValueType(), AttrValue::VT_LIST_FLOAT);

  def = Write(AttrValue::CreateFrom<std::vector<DataType>>({DT_FLOAT, DT_UNDEFINED, DT_INT1}));
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(def->list().val_type(), ListValue::VT_LIST_DATA_TYPE);
  EXPECT_THAT(def->list().dt(), ElementsAre(proto::DT_FLOAT, proto::DT_UNDEFINED, proto::DT_INT1));

  def = Write(AttrValue::CreateFrom<DataType>(DT_BF16));
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(def->dt(), proto::DT_BF16);

  def = Write(AttrValue::CreateFrom<std::vector<bool>>({true, false}));
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(def->list().val_type(), ListValue::VT_LIST_BOOL);
  EXPECT_THAT(def->list().b(), ElementsAre(true, false));

  def = Write(AttrValue());
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(def->value_case(), proto::AttrDef::VALUE_NOT_SET);
  back = Read(*def);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->IsEmpty());

  def = Write(AttrValue::CreateFrom<std::string>(std::string("a\0b", 3)));
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(def->s(), std::string("a\0b", 3));
}

TEST(AttrSerializerTest, RegistryHasEveryBuiltinType) {
  std::mt19937_64 rng(1);
  for (const auto& [name, value] : ge::testing::AllAttrTypes(rng, 0)) {
    if (value.IsEmpty()) continue;
    EXPECT_NE(AttrSerializerRegistry::Instance().Get(value.GetValueType()), nullptr) << name;
  }
  EXPECT_EQ(AttrSerializerRegistry::Instance().Get(AttrValue::VT_NONE), nullptr);
  EXPECT_EQ(AttrSerializerRegistry::Instance().Get(static_cast<AttrValue::ValueType>(500)),
            nullptr);
}

class FixedIntSerializer : public AttrSerializer {
 public:
  Status Serialize(const AttrValue&, proto::AttrDef* def, SerializeContext&) const override {
    def->set_i(42);
    return OkStatus();
  }
  Status Deserialize(const proto::AttrDef&, AttrValue* value, DeserializeContext&) const override {
    value->Set<int64_t>(7);
    return OkStatus();
  }
};

// Counts calls (when `calls` is not null) and forwards to another serializer.
class CountingSerializer : public AttrSerializer {
 public:
  CountingSerializer(const AttrSerializer* inner, std::atomic<int>* calls)
      : inner_(inner), calls_(calls) {}
  Status Serialize(const AttrValue& v, proto::AttrDef* def, SerializeContext& ctx) const override {
    if (calls_ != nullptr) ++*calls_;
    return inner_->Serialize(v, def, ctx);
  }
  Status Deserialize(const proto::AttrDef& def, AttrValue* v,
                     DeserializeContext& ctx) const override {
    if (calls_ != nullptr) ++*calls_;
    return inner_->Deserialize(def, v, ctx);
  }

 private:
  const AttrSerializer* inner_;
  std::atomic<int>* calls_;
};

TEST(AttrSerializerTest, RegistrationRules) {
  AttrSerializerRegistry& r = AttrSerializerRegistry::Instance();
  Status st = r.Register(AttrValue::VT_INT, std::make_unique<FixedIntSerializer>());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kAlreadyExists);
  EXPECT_THAT(st.message(), HasSubstr("int"));
  GE_EXPECT_CODE(
      r.Register(static_cast<AttrValue::ValueType>(500), std::make_unique<FixedIntSerializer>()),
      ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(r.Register(static_cast<AttrValue::ValueType>(40), nullptr),
                 ErrorCode::kParamInvalid);
  // A type the graph does not have yet plugs into a free slot.
  const auto future = static_cast<AttrValue::ValueType>(40);
  EXPECT_EQ(r.Get(future), nullptr);
  GE_EXPECT_OK(r.Register(future, std::make_unique<FixedIntSerializer>()));
  EXPECT_NE(r.Get(future), nullptr);
}

TEST(AttrSerializerTest, ReplacedSerializerIsUsed) {
  AttrSerializerRegistry& r = AttrSerializerRegistry::Instance();
  const AttrSerializer* builtin = r.Get(AttrValue::VT_LIST_INT);
  ASSERT_NE(builtin, nullptr);
  std::atomic<int> calls{0};
  GE_ASSERT_OK(r.Register(AttrValue::VT_LIST_INT,
                          std::make_unique<CountingSerializer>(builtin, &calls),
                          /*replace=*/true));
  StatusOr<proto::AttrDef> def = Write(AttrValue::CreateFrom<std::vector<int64_t>>({1, 2}));
  ASSERT_TRUE(def.ok());
  StatusOr<AttrValue> back = Read(*def);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back->Get<std::vector<int64_t>>(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(calls.load(), 2);
  // The replaced built-in stays alive; put it back (wrapped; `calls` dies
  // with this test, so the wrapper must not count).
  GE_ASSERT_OK(r.Register(AttrValue::VT_LIST_INT,
                          std::make_unique<CountingSerializer>(builtin, nullptr), true));
}

TEST(AttrSerializerTest, ListMismatchAndUnknownTypes) {
  proto::AttrDef def;
  def.mutable_list()->set_val_type(ListValue::VT_LIST_STRING);
  def.mutable_list()->add_s("x");
  def.mutable_list()->add_f(1.0f);
  StatusOr<AttrValue> v = Read(def);
  ASSERT_FALSE(v.ok());
  EXPECT_THAT(v.status().message(),
              HasSubstr("list_string attribute also carries 1 list_float elements"));

  proto::AttrDef no_type;
  no_type.mutable_list();
  v = Read(no_type);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(GetErrorCode(v.status()), ErrorCode::kParseFailed);

  proto::AttrDef dts;
  dts.mutable_list()->set_val_type(ListValue::VT_LIST_DATA_TYPE);
  dts.mutable_list()->add_dt(proto::DT_INT8);
  dts.mutable_list()->add_dt(-4);
  v = Read(dts);
  ASSERT_FALSE(v.ok());
  EXPECT_THAT(v.status().message(),
              HasSubstr("element 1: data type -4 is not a ge.proto.DataType"));
}

TEST(AttrSerializerTest, NestingLimits) {
  NamedAttrs na("leaf");
  for (int i = 0; i < 70; ++i) {
    NamedAttrs outer("f");
    GE_ASSERT_OK(outer.SetAttr("inner", AttrValue::CreateFrom<NamedAttrs>(na)));
    na = outer;
  }
  StatusOr<proto::AttrDef> def = Write(AttrValue::CreateFrom<NamedAttrs>(na));
  ASSERT_FALSE(def.ok());
  EXPECT_EQ(GetErrorCode(def.status()), ErrorCode::kOutOfRange);
  EXPECT_THAT(def.status().message(), HasSubstr("nested more than 64 levels"));
  EXPECT_THAT(def.status().message(), HasSubstr("attribute 'inner': attribute 'inner'"));

  // Within the limit it round trips; a lower reader limit rejects it.
  NamedAttrs small("leaf");
  for (int i = 0; i < 10; ++i) {
    NamedAttrs outer("f");
    GE_ASSERT_OK(outer.SetAttr("inner", AttrValue::CreateFrom<NamedAttrs>(small)));
    small = outer;
  }
  def = Write(AttrValue::CreateFrom<NamedAttrs>(small));
  ASSERT_TRUE(def.ok()) << def.status();
  GE_EXPECT_OK(Read(*def).status());
  DeserializeOptions tight;
  tight.max_attr_nesting = 5;
  GE_EXPECT_CODE(Read(*def, tight).status(), ErrorCode::kOutOfRange);
}

TEST(AttrSerializerTest, StoreErrorsNameTheAttribute) {
  AttrEntries attrs;
  proto::AttrEntry* good = attrs.Add();
  good->set_key("good");
  good->mutable_value()->set_i(1);
  proto::AttrEntry* bad = attrs.Add();
  bad->set_key("bad");
  bad->mutable_value()->set_dt(1234);
  AttrStore store;
  DeserializeContext ctx;
  Status st = DeserializeAttrStore(attrs, &store, ctx);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr("attribute 'bad': data type 1234"));

  AttrStore out;
  GE_ASSERT_OK(out.Set("z", AttrValue::CreateFrom<int64_t>(1)));
  GE_ASSERT_OK(
      out.Set("a", AttrValue::CreateFrom<std::vector<DataType>>({static_cast<DataType>(5)})));
  AttrEntries written;
  SerializeContext sctx;
  st = SerializeAttrStore(out, &written, sctx);
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(st.message(), HasSubstr("attribute 'a': data type 5 is not a ge::DataType"));
}

TEST(AttrSerializerTest, StoreEntriesInAnyOrderLastRepeatWins) {
  AttrEntries attrs;
  for (const auto& [key, value] :
       std::vector<std::pair<std::string, int64_t>>{{"b", 1}, {"a", 2}, {"b", 3}, {"c", 4}}) {
    proto::AttrEntry* e = attrs.Add();
    e->set_key(key);
    e->mutable_value()->set_i(value);
  }
  AttrStore store;
  DeserializeContext ctx;
  GE_ASSERT_OK(DeserializeAttrStore(attrs, &store, ctx));
  EXPECT_EQ(store.GetAllNames(), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(*store.Get("b")->Get<int64_t>(), 3);
  // Written back in name order.
  AttrEntries out;
  SerializeContext sctx;
  GE_ASSERT_OK(SerializeAttrStore(store, &out, sctx));
  ASSERT_EQ(out.size(), 3);
  EXPECT_EQ(out.Get(0).key(), "a");
  EXPECT_EQ(out.Get(2).key(), "c");
}

TEST(AttrSerializerTest, GraphAttrRoundTripsWithItsSubgraphs) {
  const ComputeGraphPtr g = ge::testing::RandomGraph(9);
  StatusOr<proto::AttrDef> def = Write(AttrValue::CreateFrom<ComputeGraphPtr>(g));
  ASSERT_TRUE(def.ok()) << def.status();
  EXPECT_EQ(def->g().subgraph_size(), static_cast<int>(g->GetAllSubgraphs().size()));
  StatusOr<AttrValue> back = Read(*def);
  ASSERT_TRUE(back.ok()) << back.status();
  GE_EXPECT_OK(ge::testing::CompareGraphs(*g, **back->Get<ComputeGraphPtr>()));
}

}  // namespace
}  // namespace ge
