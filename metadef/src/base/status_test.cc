#include "metadef/inc/external/base/status.h"

#include <string>

#include "gtest/gtest.h"

namespace ge {
namespace {

Status FailIfNegative(int v) {
  if (v < 0) return ParamInvalid("value ", v, " is negative");
  return OkStatus();
}

StatusOr<int> Twice(int v) {
  RETURN_IF_ERROR(FailIfNegative(v));
  return 2 * v;
}

StatusOr<int> Quadruple(int v) {
  ASSIGN_OR_RETURN(int t, Twice(v));
  ASSIGN_OR_RETURN(t, Twice(t));
  return t;
}

Status ForwardStatusOr(int v) {
  RETURN_IF_ERROR(Twice(v));
  return OkStatus();
}

TEST(StatusTest, FactoryCarriesProjectCodeAndMessage) {
  Status s = ParamInvalid("dim ", -3, " at index ", 2);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(GetErrorCode(s), ErrorCode::kParamInvalid);
  EXPECT_EQ(s.message(), "dim -3 at index 2");
}

TEST(StatusTest, EveryCodeRoundTrips) {
  for (ErrorCode c : {ErrorCode::kFailed, ErrorCode::kParamInvalid, ErrorCode::kNotSupported,
                      ErrorCode::kNotFound, ErrorCode::kAlreadyExists, ErrorCode::kOutOfRange,
                      ErrorCode::kOverflow, ErrorCode::kGraphCycle, ErrorCode::kGraphInvalid,
                      ErrorCode::kTypeMismatch, ErrorCode::kParseFailed,
                      ErrorCode::kMemoryAllocFailed, ErrorCode::kInternal, ErrorCode::kIoError}) {
    Status s = MakeStatus(c, "x");
    EXPECT_FALSE(s.ok()) << ErrorCodeName(c);
    EXPECT_EQ(GetErrorCode(s), c) << ErrorCodeName(c);
    EXPECT_EQ(s.code(), ToAbslCode(c));
    EXPECT_NE(ErrorCodeName(c), "UNKNOWN_ERROR_CODE");
  }
  EXPECT_TRUE(MakeStatus(ErrorCode::kSuccess, "ignored").ok());
  EXPECT_EQ(GetErrorCode(OkStatus()), ErrorCode::kSuccess);
}

TEST(StatusTest, PlainAbslStatusMapsToProjectCode) {
  EXPECT_EQ(GetErrorCode(absl::NotFoundError("x")), ErrorCode::kNotFound);
  EXPECT_EQ(GetErrorCode(absl::InvalidArgumentError("x")), ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(absl::CancelledError("x")), ErrorCode::kFailed);
}

TEST(StatusTest, OverflowAndOutOfRangeStayDistinct) {
  EXPECT_EQ(GetErrorCode(Overflow("a")), ErrorCode::kOverflow);
  EXPECT_EQ(GetErrorCode(OutOfRange("a")), ErrorCode::kOutOfRange);
}

TEST(StatusTest, MacrosPropagate) {
  EXPECT_EQ(*Quadruple(3), 12);
  StatusOr<int> bad = Quadruple(-1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(GetErrorCode(bad.status()), ErrorCode::kParamInvalid);
  EXPECT_EQ(bad.status().message(), "value -1 is negative");
  EXPECT_TRUE(ForwardStatusOr(1).ok());
  EXPECT_FALSE(ForwardStatusOr(-1).ok());
}

TEST(StatusTest, AnnotateKeepsCode) {
  Status s = Annotate(NotFound("attr 'axis'"), "node conv1 (Conv2D): ");
  EXPECT_EQ(GetErrorCode(s), ErrorCode::kNotFound);
  EXPECT_EQ(s.message(), "node conv1 (Conv2D): attr 'axis'");
  EXPECT_TRUE(Annotate(OkStatus(), "x").ok());
}

}  // namespace
}  // namespace ge
