// graph/src/testing/status_matchers.h
//
// Test helper (testonly): gtest assertions on ge::Status / ge::StatusOr that
// print the status message on failure.
//
// Example
//   GE_ASSERT_OK(graph->TopologicalSorting());
//   GE_EXPECT_CODE(op->UpdateInputDesc(9, d), ge::ErrorCode::kOutOfRange);
#ifndef GRAPH_SRC_TESTING_STATUS_MATCHERS_H_
#define GRAPH_SRC_TESTING_STATUS_MATCHERS_H_

#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"

#define GE_EXPECT_OK(expr)                                                 \
  do {                                                                     \
    const ::ge::Status ge_tmp_st_ = ::ge::status_internal::AsStatus(expr); \
    EXPECT_TRUE(ge_tmp_st_.ok()) << ge_tmp_st_;                            \
  } while (false)

#define GE_ASSERT_OK(expr)                                                 \
  do {                                                                     \
    const ::ge::Status ge_tmp_st_ = ::ge::status_internal::AsStatus(expr); \
    ASSERT_TRUE(ge_tmp_st_.ok()) << ge_tmp_st_;                            \
  } while (false)

#define GE_EXPECT_CODE(expr, code)                                         \
  do {                                                                     \
    const ::ge::Status ge_tmp_st_ = ::ge::status_internal::AsStatus(expr); \
    EXPECT_EQ(::ge::GetErrorCode(ge_tmp_st_), (code)) << ge_tmp_st_;       \
  } while (false)

#endif  // GRAPH_SRC_TESTING_STATUS_MATCHERS_H_
