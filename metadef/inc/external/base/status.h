// metadef/inc/external/base/status.h
//
// ge::Status: the project's error value, built on absl::Status.
//
// Contract
//   * Every fallible function returns ge::Status or ge::StatusOr<T>; both are
//     [[nodiscard]] (absl marks them ABSL_MUST_USE_RESULT).
//   * A status carries a canonical absl code plus the project's own ErrorCode
//     (GE's error numbers), stored as a payload so that it survives copies and
//     absl::Status round trips.
//   * Messages name what is wrong and where: node, op type, value, reason.
//
// Example
//   ge::Status CheckDim(int64_t d) {
//     if (d < -2) return ge::ParamInvalid("dim ", d, " is negative");
//     return ge::OkStatus();
//   }
//   ge::StatusOr<int64_t> Size(...) {
//     RETURN_IF_ERROR(CheckDim(d));
//     ASSIGN_OR_RETURN(int64_t n, Multiply(a, b));
//     return n;
//   }
#ifndef METADEF_INC_EXTERNAL_BASE_STATUS_H_
#define METADEF_INC_EXTERNAL_BASE_STATUS_H_

#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace ge {

using Status = absl::Status;
template <typename T>
using StatusOr = absl::StatusOr<T>;

// The project's error codes (GE's error numbers). Each maps to one canonical
// absl code; GetErrorCode recovers the project code from any Status.
enum class ErrorCode : uint32_t {
  kSuccess = 0,
  kFailed = 0xFFFFFFFF,
  kParamInvalid = 145000,   // an argument or input value is invalid
  kNotSupported = 145001,   // valid, but not implemented / not supported
  kNotFound = 145002,       // a named thing (type, node, attr, file) is absent
  kAlreadyExists = 145003,  // duplicate name / registration
  kOutOfRange = 145004,     // index or value outside its range
  kOverflow = 145005,       // arithmetic overflow (sizes, shapes)
  kGraphCycle = 145006,     // the graph has a cycle
  kGraphInvalid = 145007,   // structural problem in a graph
  kTypeMismatch = 145008,   // wrong attribute / data type
  kParseFailed = 145009,    // malformed input file or bytes
  kMemoryAllocFailed = 145010,
  kInternal = 145011,  // a broken invariant inside the project
  kIoError = 145012,   // file system / OS error
};

// Name of an error code ("PARAM_INVALID", ...).
absl::string_view ErrorCodeName(ErrorCode code);

// The canonical absl code used for a project code.
absl::StatusCode ToAbslCode(ErrorCode code);

// Builds a status with the given project code and message. kSuccess gives OK.
Status MakeStatus(ErrorCode code, absl::string_view message);

// The project code of a status: the payload if present, otherwise derived from
// the canonical code (OK -> kSuccess).
ErrorCode GetErrorCode(const Status& status);

inline Status OkStatus() { return absl::OkStatus(); }

// Convenience constructors; arguments are concatenated with absl::StrCat.
#define GE_STATUS_FACTORY_(Name, Code)                         \
  template <typename... Args>                                  \
  Status Name(const Args&... args) {                           \
    return MakeStatus(ErrorCode::Code, absl::StrCat(args...)); \
  }
GE_STATUS_FACTORY_(Failed, kFailed)
GE_STATUS_FACTORY_(ParamInvalid, kParamInvalid)
GE_STATUS_FACTORY_(NotSupported, kNotSupported)
GE_STATUS_FACTORY_(NotFound, kNotFound)
GE_STATUS_FACTORY_(AlreadyExists, kAlreadyExists)
GE_STATUS_FACTORY_(OutOfRange, kOutOfRange)
GE_STATUS_FACTORY_(Overflow, kOverflow)
GE_STATUS_FACTORY_(GraphCycle, kGraphCycle)
GE_STATUS_FACTORY_(GraphInvalid, kGraphInvalid)
GE_STATUS_FACTORY_(TypeMismatch, kTypeMismatch)
GE_STATUS_FACTORY_(ParseFailed, kParseFailed)
GE_STATUS_FACTORY_(MemoryAllocFailed, kMemoryAllocFailed)
GE_STATUS_FACTORY_(Internal, kInternal)
GE_STATUS_FACTORY_(IoError, kIoError)
#undef GE_STATUS_FACTORY_

// Prepends context to a status message, keeping its codes:
//   return Annotate(st, "node ", name, ": ");
template <typename... Args>
Status Annotate(const Status& status, const Args&... prefix) {
  if (status.ok()) return status;
  return MakeStatus(GetErrorCode(status), absl::StrCat(prefix..., status.message()));
}

namespace status_internal {
inline const Status& AsStatus(const Status& s) { return s; }
template <typename T>
const Status& AsStatus(const StatusOr<T>& s) {
  return s.status();
}
}  // namespace status_internal

}  // namespace ge

#define GE_STATUS_CONCAT_INNER_(a, b) a##b
#define GE_STATUS_CONCAT_(a, b) GE_STATUS_CONCAT_INNER_(a, b)

// Evaluates `expr` (a Status or StatusOr); returns its status if not OK.
#define RETURN_IF_ERROR(expr)                                 \
  do {                                                        \
    const auto& ge_status_tmp_ = (expr);                      \
    if (!ge_status_tmp_.ok()) {                               \
      return ::ge::status_internal::AsStatus(ge_status_tmp_); \
    }                                                         \
  } while (false)

// ASSIGN_OR_RETURN(lhs, expr): evaluates a StatusOr; on error returns its
// status, otherwise moves the value into `lhs` (which may be a declaration).
#define ASSIGN_OR_RETURN(lhs, expr) \
  GE_ASSIGN_OR_RETURN_IMPL_(GE_STATUS_CONCAT_(ge_statusor_, __LINE__), lhs, expr)
#define GE_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()

#endif  // METADEF_INC_EXTERNAL_BASE_STATUS_H_
