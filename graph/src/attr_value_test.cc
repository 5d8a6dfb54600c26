// graph/src/attr_value_test.cc
#include "graph/inc/graph/attr_value.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

TEST(AttrValueTest, DefaultIsNone) {
  AttrValue v;
  EXPECT_TRUE(v.IsEmpty());
  EXPECT_EQ(v.GetValueType(), AttrValue::VT_NONE);
  EXPECT_EQ(v.Get<int64_t>(), nullptr);
}

TEST(AttrValueTest, CompactSize) { EXPECT_LE(sizeof(AttrValue), 40u); }

TEST(AttrValueTest, EveryTypeReportsItsValueType) {
  EXPECT_EQ(AttrValue::CreateFrom<int64_t>(1).GetValueType(), AttrValue::VT_INT);
  EXPECT_EQ(AttrValue::CreateFrom<float>(1.5f).GetValueType(), AttrValue::VT_FLOAT);
  EXPECT_EQ(AttrValue::CreateFrom<bool>(true).GetValueType(), AttrValue::VT_BOOL);
  EXPECT_EQ(AttrValue::CreateFrom<std::string>("s").GetValueType(), AttrValue::VT_STRING);
  EXPECT_EQ(AttrValue::CreateFrom<DataType>(DT_INT8).GetValueType(), AttrValue::VT_DATA_TYPE);
  EXPECT_EQ(AttrValue::CreateFrom<GeTensorDesc>(GeTensorDesc()).GetValueType(),
            AttrValue::VT_TENSOR_DESC);
  EXPECT_EQ(AttrValue::CreateFrom<GeTensor>(GeTensor()).GetValueType(), AttrValue::VT_TENSOR);
  EXPECT_EQ(AttrValue::CreateFrom<AttrValue::Bytes>({1, 2}).GetValueType(), AttrValue::VT_BYTES);
  EXPECT_EQ(AttrValue::CreateFrom<ComputeGraphPtr>(nullptr).GetValueType(), AttrValue::VT_GRAPH);
  EXPECT_EQ(AttrValue::CreateFrom<NamedAttrs>(NamedAttrs("f")).GetValueType(),
            AttrValue::VT_NAMED_ATTRS);
  EXPECT_EQ(AttrValue::CreateFrom<std::vector<std::vector<int64_t>>>({{1}}).GetValueType(),
            AttrValue::VT_LIST_LIST_INT);
  EXPECT_EQ(AttrValue::CreateFrom<std::vector<std::vector<float>>>({{1.f}}).GetValueType(),
            AttrValue::VT_LIST_LIST_FLOAT);
  EXPECT_EQ(AttrValue::CreateFrom<std::vector<int64_t>>({1}).GetValueType(),
            AttrValue::VT_LIST_INT);
  EXPECT_EQ(AttrValue::CreateFrom<std::vector<float>>({1.f}).GetValueType(),
            AttrValue::VT_LIST_FLOAT);
  EXPECT_EQ(AttrValue::CreateFrom<std::vector<bool>>({true}).GetValueType(),
            AttrValue::VT_LIST_BOOL);
  EXPECT_EQ(AttrValue::CreateFrom<std::vector<std::string>>({"a"}).GetValueType(),
            AttrValue::VT_LIST_STRING);
  EXPECT_EQ(AttrValue::CreateFrom<std::vector<DataType>>({DT_FLOAT}).GetValueType(),
            AttrValue::VT_LIST_DATA_TYPE);
  EXPECT_EQ(AttrValue::CreateFrom<std::vector<GeTensorDesc>>({}).GetValueType(),
            AttrValue::VT_LIST_TENSOR_DESC);
  EXPECT_EQ(AttrValue::CreateFrom<std::vector<GeTensor>>({}).GetValueType(),
            AttrValue::VT_LIST_TENSOR);
  EXPECT_EQ(AttrValue::CreateFrom<std::vector<AttrValue::Bytes>>({}).GetValueType(),
            AttrValue::VT_LIST_BYTES);
  EXPECT_EQ(AttrValue::CreateFrom<std::vector<ComputeGraphPtr>>({}).GetValueType(),
            AttrValue::VT_LIST_GRAPH);
  EXPECT_EQ(AttrValue::CreateFrom<std::vector<NamedAttrs>>({}).GetValueType(),
            AttrValue::VT_LIST_NAMED_ATTRS);
}

TEST(AttrValueTest, GetReturnsOnlyTheHeldType) {
  AttrValue v = AttrValue::CreateFrom<int64_t>(7);
  ASSERT_NE(v.Get<int64_t>(), nullptr);
  EXPECT_EQ(*v.Get<int64_t>(), 7);
  EXPECT_EQ(v.Get<float>(), nullptr);
  EXPECT_EQ(v.Get<bool>(), nullptr);
  EXPECT_EQ(v.Get<std::vector<int64_t>>(), nullptr);
  *v.GetMutable<int64_t>() = 9;
  EXPECT_EQ(*v.Get<int64_t>(), 9);
  v.Set<std::string>("now a string");
  EXPECT_EQ(v.Get<int64_t>(), nullptr);
  EXPECT_EQ(*v.Get<std::string>(), "now a string");
}

TEST(AttrValueTest, BoxedValuesAreDeepCopies) {
  GeTensorDesc desc(GeShape({2, 3}), FORMAT_NCHW, DT_FLOAT16);
  AttrValue a = AttrValue::CreateFrom<GeTensorDesc>(desc);
  AttrValue b = a;
  EXPECT_EQ(a, b);
  b.GetMutable<GeTensorDesc>()->SetDataType(DT_INT8);
  EXPECT_EQ(a.Get<GeTensorDesc>()->GetDataType(), DT_FLOAT16);
  EXPECT_NE(a, b);

  NamedAttrs f("func");
  GE_ASSERT_OK(f.SetAttr("k", AttrValue::CreateFrom<int64_t>(1)));
  AttrValue na = AttrValue::CreateFrom<NamedAttrs>(f);
  AttrValue nb = na;
  GE_ASSERT_OK(nb.GetMutable<NamedAttrs>()->SetAttr("k", AttrValue::CreateFrom<int64_t>(2)));
  EXPECT_EQ(*na.Get<NamedAttrs>()->GetAttr("k")->Get<int64_t>(), 1);
  EXPECT_EQ(*nb.Get<NamedAttrs>()->GetAttr("k")->Get<int64_t>(), 2);
}

TEST(AttrValueTest, ValueTypeNames) {
  EXPECT_EQ(AttrValue::ValueTypeName(AttrValue::VT_INT), "int");
  EXPECT_EQ(AttrValue::ValueTypeName(AttrValue::VT_LIST_INT), "list_int");
  EXPECT_EQ(AttrValue::ValueTypeName(AttrValue::VT_LIST_LIST_FLOAT), "list_list_float");
  EXPECT_EQ(AttrValue::ValueTypeName(AttrValue::VT_NONE), "none");
  EXPECT_EQ(AttrValue::ValueTypeName(static_cast<AttrValue::ValueType>(555)), "unknown");
}

TEST(AttrStoreTest, IterationIsSortedByName) {
  AttrStore store;
  EXPECT_TRUE(store.empty());
  for (const char* name : {"zeta", "alpha", "mid", "beta", "_private"}) {
    GE_ASSERT_OK(store.Set(name, AttrValue::CreateFrom<std::string>(name)));
  }
  EXPECT_EQ(store.GetAllNames(),
            (std::vector<std::string>{"_private", "alpha", "beta", "mid", "zeta"}));
  for (size_t i = 0; i < store.size(); ++i) {
    EXPECT_EQ(*store.ValueAt(i).Get<std::string>(), store.NameAt(i));
  }
  std::map<std::string, AttrValue> all = store.GetAll();
  EXPECT_EQ(all.size(), 5u);
  EXPECT_EQ(all.begin()->first, "_private");
}

TEST(AttrStoreTest, SetReplacesAndDeleteRemoves) {
  AttrStore store;
  GE_ASSERT_OK(store.Set("a", AttrValue::CreateFrom<int64_t>(1)));
  GE_ASSERT_OK(store.Set("a", AttrValue::CreateFrom<float>(2.0f)));
  EXPECT_EQ(store.size(), 1u);
  EXPECT_EQ(store.Get("a")->GetValueType(), AttrValue::VT_FLOAT);
  GE_ASSERT_OK(store.Set("b", AttrValue::CreateFrom<int64_t>(3)));
  GE_ASSERT_OK(store.Set("c", AttrValue::CreateFrom<int64_t>(4)));
  GE_ASSERT_OK(store.Delete("b"));
  EXPECT_EQ(store.GetAllNames(), (std::vector<std::string>{"a", "c"}));
  GE_EXPECT_CODE(store.Delete("b"), ErrorCode::kNotFound);
  EXPECT_NE(std::string(store.Delete("nope").message()).find("nope"), std::string::npos);
  GE_ASSERT_OK(store.Delete("a"));
  GE_ASSERT_OK(store.Delete("c"));
  EXPECT_TRUE(store.empty());
  EXPECT_EQ(store.Get("a"), nullptr);
}

TEST(AttrStoreTest, EmptyNameIsRejected) {
  AttrStore store;
  GE_EXPECT_CODE(store.Set("", AttrValue::CreateFrom<int64_t>(1)), ErrorCode::kParamInvalid);
  EXPECT_TRUE(store.empty());
}

TEST(AttrStoreTest, ManyEntriesStaySortedAndFindable) {
  AttrStore store;
  for (int i = 99; i >= 0; --i) {
    GE_ASSERT_OK(store.Set("k" + std::to_string(i), AttrValue::CreateFrom<int64_t>(i)));
  }
  ASSERT_EQ(store.size(), 100u);
  for (size_t i = 1; i < store.size(); ++i) EXPECT_LT(store.NameAt(i - 1), store.NameAt(i));
  for (int i = 0; i < 100; ++i) {
    const AttrValue* v = store.Get("k" + std::to_string(i));
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(*v->Get<int64_t>(), i);
  }
}

TEST(AttrStoreTest, CopiesAreIndependent) {
  AttrStore a;
  GE_ASSERT_OK(a.Set("x", AttrValue::CreateFrom<std::vector<int64_t>>({1, 2})));
  AttrStore b = a;
  EXPECT_EQ(a, b);
  b.GetMutable("x")->GetMutable<std::vector<int64_t>>()->push_back(3);
  EXPECT_EQ(a.Get("x")->Get<std::vector<int64_t>>()->size(), 2u);
  EXPECT_NE(a, b);
  AttrStore c;
  c = b;
  EXPECT_EQ(c, b);
  AttrStore moved = std::move(c);
  EXPECT_EQ(moved, b);
  b.Clear();
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(moved.size(), 1u);
}

TEST(AttrHolderTest, NamedAttrsHolder) {
  NamedAttrs na("fn");
  EXPECT_EQ(na.GetName(), "fn");
  GE_ASSERT_OK(na.SetAttr("b", AttrValue::CreateFrom<bool>(true)));
  EXPECT_TRUE(na.HasAttr("b"));
  EXPECT_EQ(na.GetAllAttrNames(), std::vector<std::string>{"b"});
  GE_ASSERT_OK(na.DelAttr("b"));
  EXPECT_FALSE(na.HasAttr("b"));
  GE_EXPECT_CODE(na.DelAttr("b"), ErrorCode::kNotFound);
}

}  // namespace
}  // namespace ge
