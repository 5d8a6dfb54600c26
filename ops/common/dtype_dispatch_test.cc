// ops/common/dtype_dispatch_test.cc
#include "ops/common/dtype_dispatch.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ops {
namespace {

using ::testing::HasSubstr;

// -------------------------------------------------------------- dispatch

TEST(DispatchTest, CallsTheMatchingType) {
  std::vector<ge::DataType> seen;
  auto record = [&](auto tag) {
    using T = typename decltype(tag)::type;
    seen.push_back(DataTypeOf<T>());
    return ge::OkStatus();
  };
  for (ge::DataType dt :
       {ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_FLOAT16, ge::DT_BF16, ge::DT_INT8, ge::DT_INT16,
        ge::DT_INT32, ge::DT_INT64, ge::DT_UINT8, ge::DT_UINT16, ge::DT_UINT32, ge::DT_UINT64,
        ge::DT_BOOL, ge::DT_STRING, ge::DT_COMPLEX64, ge::DT_COMPLEX128}) {
    ASSERT_TRUE(DispatchType<kTgAll>(dt, record).ok()) << DataTypeName(dt);
    EXPECT_EQ(seen.back(), dt);
  }
}

TEST(DispatchTest, UnsupportedTypeNamesIt) {
  int calls = 0;
  auto f = [&](auto) {
    ++calls;
    return ge::OkStatus();
  };
  ge::Status st = DispatchType<kTgAllFloat>(ge::DT_INT32, f, "input x of Relu");
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported);
  EXPECT_THAT(std::string(st.message()), HasSubstr("DT_INT32"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("input x of Relu"));
  st = DispatchType<kTgReal>(ge::DT_STRING, f);
  EXPECT_THAT(std::string(st.message()), HasSubstr("DT_STRING"));
  st = DispatchType<kTgAll>(ge::DT_INT4, f);
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported);
  st = DispatchType<kTgAll>(static_cast<ge::DataType>(999), f);
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported);
  EXPECT_EQ(calls, 0);
}

TEST(DispatchTest, PropagatesTheFunctorStatus) {
  ge::Status st = DispatchType<kTgInt>(ge::DT_UINT8, [](auto) { return ge::Internal("boom"); });
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kInternal);
}

TEST(DispatchTest, TypeGroups) {
  EXPECT_EQ(TypeGroupOf(ge::DT_BF16), kTgHalf);
  EXPECT_EQ(TypeGroupOf(ge::DT_UINT32), kTgUnsigned);
  EXPECT_EQ(TypeGroupOf(ge::DT_INT4), 0u);
  EXPECT_TRUE(IsInGroups(ge::DT_INT16, kTgReal));
  EXPECT_FALSE(IsInGroups(ge::DT_BOOL, kTgReal));
  EXPECT_TRUE(IsInGroups(ge::DT_BOOL, kTgRealBool));
}

}  // namespace
}  // namespace ops
