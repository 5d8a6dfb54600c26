// graph/src/attr_utils_test.cc
#include "graph/inc/graph/attr_utils.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

TEST(AttrUtilsTest, ScalarRoundTrips) {
  auto op = std::make_shared<OpDesc>("n", "T");
  GE_ASSERT_OK(AttrUtils::SetInt(op, "i", -7));
  GE_ASSERT_OK(AttrUtils::SetFloat(op, "f", 1.5f));
  GE_ASSERT_OK(AttrUtils::SetBool(op, "b", true));
  GE_ASSERT_OK(AttrUtils::SetStr(op, "s", "text"));
  GE_ASSERT_OK(AttrUtils::SetDataType(op, "dt", DT_BF16));
  GE_ASSERT_OK(AttrUtils::SetBytes(op, "bytes", {1, 2, 3}));
  EXPECT_EQ(*AttrUtils::GetInt(op, "i"), -7);
  EXPECT_EQ(*AttrUtils::GetFloat(op, "f"), 1.5f);
  EXPECT_TRUE(*AttrUtils::GetBool(op, "b"));
  EXPECT_EQ(*AttrUtils::GetStr(op, "s"), "text");
  EXPECT_EQ(*AttrUtils::GetDataType(op, "dt"), DT_BF16);
  EXPECT_EQ(*AttrUtils::GetBytes(op, "bytes"), (AttrValue::Bytes{1, 2, 3}));
  GE_ASSERT_OK(AttrUtils::SetInt(op, "i", 8));  // replace
  EXPECT_EQ(*AttrUtils::GetInt(op, "i"), 8);
}

TEST(AttrUtilsTest, TensorGraphAndNamedAttrsRoundTrips) {
  auto op = std::make_shared<OpDesc>("n", "T");
  GeTensor t(GeTensorDesc(GeShape({2}), FORMAT_ND, DT_UINT8), std::vector<uint8_t>{4, 5});
  GE_ASSERT_OK(AttrUtils::SetTensor(op, "t", t));
  auto got = AttrUtils::GetTensor(op, "t");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, t);
  EXPECT_TRUE(got->SharesDataWith(t));  // copy-on-write copy
  GE_ASSERT_OK(AttrUtils::SetTensorDesc(op, "td", t.GetTensorDesc()));
  EXPECT_EQ(*AttrUtils::GetTensorDesc(op, "td"), t.GetTensorDesc());
  auto g = std::make_shared<ComputeGraph>("body");
  GE_ASSERT_OK(AttrUtils::SetGraph(op, "g", g));
  EXPECT_EQ(*AttrUtils::GetGraph(op, "g"), g);
  NamedAttrs fn("fn");
  GE_ASSERT_OK(AttrUtils::SetInt(fn, "k", 3));
  GE_ASSERT_OK(AttrUtils::SetNamedAttrs(op, "na", fn));
  auto na = AttrUtils::GetNamedAttrs(op, "na");
  ASSERT_TRUE(na.ok());
  EXPECT_EQ(na->GetName(), "fn");
  EXPECT_EQ(*AttrUtils::GetInt(*na, "k"), 3);
}

TEST(AttrUtilsTest, ListRoundTrips) {
  GeTensorDesc holder;
  GE_ASSERT_OK(AttrUtils::SetListInt(holder, "li", {1, 2, 3}));
  GE_ASSERT_OK(AttrUtils::SetListInt(holder, "li32", std::vector<int32_t>{-1, 5}));
  GE_ASSERT_OK(AttrUtils::SetListInt(holder, "lu32", std::vector<uint32_t>{7}));
  GE_ASSERT_OK(AttrUtils::SetListFloat(holder, "lf", {0.5f}));
  GE_ASSERT_OK(AttrUtils::SetListBool(holder, "lb", {true, false}));
  GE_ASSERT_OK(AttrUtils::SetListStr(holder, "ls", {"a", "b"}));
  GE_ASSERT_OK(AttrUtils::SetListDataType(holder, "ldt", {DT_INT8, DT_FLOAT}));
  GE_ASSERT_OK(AttrUtils::SetListTensor(holder, "lt", {GeTensor()}));
  GE_ASSERT_OK(AttrUtils::SetListTensorDesc(holder, "ltd", {GeTensorDesc(GeShape({1}))}));
  GE_ASSERT_OK(AttrUtils::SetListBytes(holder, "lbt", {{1}, {2, 3}}));
  GE_ASSERT_OK(AttrUtils::SetListGraph(holder, "lg", {nullptr}));
  GE_ASSERT_OK(AttrUtils::SetListNamedAttrs(holder, "lna", {NamedAttrs("x")}));
  GE_ASSERT_OK(AttrUtils::SetListListInt(holder, "lli", {{1, 2}, {}, {3}}));
  GE_ASSERT_OK(AttrUtils::SetListListFloat(holder, "llf", {{1.f}, {2.f, 3.f}}));
  EXPECT_EQ(*AttrUtils::GetListInt(holder, "li"), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(*AttrUtils::GetListInt(holder, "li32"), (std::vector<int64_t>{-1, 5}));
  EXPECT_EQ(*AttrUtils::GetListInt(holder, "lu32"), (std::vector<int64_t>{7}));
  EXPECT_EQ(*AttrUtils::GetListFloat(holder, "lf"), (std::vector<float>{0.5f}));
  EXPECT_EQ(*AttrUtils::GetListBool(holder, "lb"), (std::vector<bool>{true, false}));
  EXPECT_EQ(*AttrUtils::GetListStr(holder, "ls"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(*AttrUtils::GetListDataType(holder, "ldt"), (std::vector<DataType>{DT_INT8, DT_FLOAT}));
  EXPECT_EQ(AttrUtils::GetListTensor(holder, "lt")->size(), 1u);
  EXPECT_EQ(AttrUtils::GetListTensorDesc(holder, "ltd")->at(0).GetShape(), GeShape({1}));
  EXPECT_EQ(AttrUtils::GetListBytes(holder, "lbt")->at(1), (AttrValue::Bytes{2, 3}));
  EXPECT_EQ(AttrUtils::GetListGraph(holder, "lg")->size(), 1u);
  EXPECT_EQ(AttrUtils::GetListNamedAttrs(holder, "lna")->at(0).GetName(), "x");
  EXPECT_EQ(*AttrUtils::GetListListInt(holder, "lli"),
            (std::vector<std::vector<int64_t>>{{1, 2}, {}, {3}}));
  EXPECT_EQ(*AttrUtils::GetListListFloat(holder, "llf"),
            (std::vector<std::vector<float>>{{1.f}, {2.f, 3.f}}));
  auto ptr = AttrUtils::GetPtr<std::vector<int64_t>>(holder, "li");
  ASSERT_TRUE(ptr.ok());
  EXPECT_EQ((*ptr)->size(), 3u);
}

TEST(AttrUtilsTest, NotFoundAndTypeMismatchNameEverything) {
  auto op = std::make_shared<OpDesc>("n", "T");
  const Status missing = AttrUtils::GetInt(op, "axis").status();
  GE_EXPECT_CODE(missing, ErrorCode::kNotFound);
  EXPECT_NE(std::string(missing.message()).find("'axis'"), std::string::npos) << missing;
  GE_ASSERT_OK(AttrUtils::SetListInt(op, "axis", {1}));
  const Status wrong = AttrUtils::GetInt(op, "axis").status();
  GE_EXPECT_CODE(wrong, ErrorCode::kTypeMismatch);
  EXPECT_EQ(std::string(wrong.message()), "attribute 'axis' is list_int, not int");
  GE_EXPECT_CODE(AttrUtils::GetStr(op, "axis"), ErrorCode::kTypeMismatch);
  GE_EXPECT_CODE(AttrUtils::GetListFloat(op, "axis"), ErrorCode::kTypeMismatch);
  GE_ASSERT_OK(AttrUtils::SetFloat(op, "f", 1.f));
  EXPECT_EQ(std::string(AttrUtils::GetBool(op, "f").status().message()),
            "attribute 'f' is float, not bool");
}

TEST(AttrUtilsTest, NullHoldersAndEmptyNames) {
  OpDescPtr null_op;
  GE_EXPECT_CODE(AttrUtils::SetInt(null_op, "x", 1), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(AttrUtils::GetInt(null_op, "x"), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(AttrUtils::DelAttr(null_op, "x"), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(AttrUtils::GetAllAttrs(null_op), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(AttrUtils::GetAllAttrNames(null_op), ErrorCode::kParamInvalid);
  EXPECT_FALSE(AttrUtils::HasAttr(null_op, "x"));
  auto op = std::make_shared<OpDesc>("n", "T");
  GE_EXPECT_CODE(AttrUtils::SetInt(op, "", 1), ErrorCode::kParamInvalid);
}

TEST(AttrUtilsTest, HasDelAndGetAllInNameOrder) {
  auto graph = std::make_shared<ComputeGraph>("g");
  GE_ASSERT_OK(AttrUtils::SetInt(graph, "z", 1));
  GE_ASSERT_OK(AttrUtils::SetStr(graph, "a", "x"));
  EXPECT_TRUE(AttrUtils::HasAttr(graph, "z"));
  auto all = AttrUtils::GetAllAttrs(graph);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->begin()->first, "a");
  EXPECT_EQ(*AttrUtils::GetAllAttrNames(graph), (std::vector<std::string>{"a", "z"}));
  GE_ASSERT_OK(AttrUtils::DelAttr(graph, "z"));
  EXPECT_FALSE(AttrUtils::HasAttr(graph, "z"));
  GE_EXPECT_CODE(AttrUtils::DelAttr(graph, "z"), ErrorCode::kNotFound);
  // Const holders can be read.
  const ComputeGraph& cg = *graph;
  EXPECT_EQ(*AttrUtils::GetStr(cg, "a"), "x");
  ConstOpDescPtr const_op = std::make_shared<const OpDesc>("c", "T");
  EXPECT_FALSE(AttrUtils::HasAttr(const_op, "a"));
}

}  // namespace
}  // namespace ge
