#include "metadef/inc/external/base/status.h"

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/types/optional.h"

namespace ge {
namespace {

constexpr absl::string_view kErrorCodePayload = "type.ge/error_code";

}  // namespace

absl::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kSuccess:
      return "SUCCESS";
    case ErrorCode::kFailed:
      return "FAILED";
    case ErrorCode::kParamInvalid:
      return "PARAM_INVALID";
    case ErrorCode::kNotSupported:
      return "NOT_SUPPORTED";
    case ErrorCode::kNotFound:
      return "NOT_FOUND";
    case ErrorCode::kAlreadyExists:
      return "ALREADY_EXISTS";
    case ErrorCode::kOutOfRange:
      return "OUT_OF_RANGE";
    case ErrorCode::kOverflow:
      return "OVERFLOW";
    case ErrorCode::kGraphCycle:
      return "GRAPH_CYCLE";
    case ErrorCode::kGraphInvalid:
      return "GRAPH_INVALID";
    case ErrorCode::kTypeMismatch:
      return "TYPE_MISMATCH";
    case ErrorCode::kParseFailed:
      return "PARSE_FAILED";
    case ErrorCode::kMemoryAllocFailed:
      return "MEMORY_ALLOC_FAILED";
    case ErrorCode::kInternal:
      return "INTERNAL";
    case ErrorCode::kIoError:
      return "IO_ERROR";
  }
  return "UNKNOWN_ERROR_CODE";
}

absl::StatusCode ToAbslCode(ErrorCode code) {
  switch (code) {
    case ErrorCode::kSuccess:
      return absl::StatusCode::kOk;
    case ErrorCode::kFailed:
      return absl::StatusCode::kUnknown;
    case ErrorCode::kParamInvalid:
      return absl::StatusCode::kInvalidArgument;
    case ErrorCode::kNotSupported:
      return absl::StatusCode::kUnimplemented;
    case ErrorCode::kNotFound:
      return absl::StatusCode::kNotFound;
    case ErrorCode::kAlreadyExists:
      return absl::StatusCode::kAlreadyExists;
    case ErrorCode::kOutOfRange:
      return absl::StatusCode::kOutOfRange;
    case ErrorCode::kOverflow:
      return absl::StatusCode::kOutOfRange;
    case ErrorCode::kGraphCycle:
      return absl::StatusCode::kFailedPrecondition;
    case ErrorCode::kGraphInvalid:
      return absl::StatusCode::kFailedPrecondition;
    case ErrorCode::kTypeMismatch:
      return absl::StatusCode::kInvalidArgument;
    case ErrorCode::kParseFailed:
      return absl::StatusCode::kDataLoss;
    case ErrorCode::kMemoryAllocFailed:
      return absl::StatusCode::kResourceExhausted;
    case ErrorCode::kInternal:
      return absl::StatusCode::kInternal;
    case ErrorCode::kIoError:
      return absl::StatusCode::kUnavailable;
  }
  return absl::StatusCode::kUnknown;
}

Status MakeStatus(ErrorCode code, absl::string_view message) {
  if (code == ErrorCode::kSuccess) return absl::OkStatus();
  Status status(ToAbslCode(code), message);
  status.SetPayload(kErrorCodePayload, absl::Cord(absl::StrCat(static_cast<uint32_t>(code))));
  return status;
}

ErrorCode GetErrorCode(const Status& status) {
  if (status.ok()) return ErrorCode::kSuccess;
  absl::optional<absl::Cord> payload = status.GetPayload(kErrorCodePayload);
  uint32_t value = 0;
  if (payload.has_value() && absl::SimpleAtoi(std::string(*payload), &value)) {
    return static_cast<ErrorCode>(value);
  }
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
      return ErrorCode::kParamInvalid;
    case absl::StatusCode::kUnimplemented:
      return ErrorCode::kNotSupported;
    case absl::StatusCode::kNotFound:
      return ErrorCode::kNotFound;
    case absl::StatusCode::kAlreadyExists:
      return ErrorCode::kAlreadyExists;
    case absl::StatusCode::kOutOfRange:
      return ErrorCode::kOutOfRange;
    case absl::StatusCode::kDataLoss:
      return ErrorCode::kParseFailed;
    case absl::StatusCode::kResourceExhausted:
      return ErrorCode::kMemoryAllocFailed;
    case absl::StatusCode::kInternal:
      return ErrorCode::kInternal;
    default:
      return ErrorCode::kFailed;
  }
}

}  // namespace ge
