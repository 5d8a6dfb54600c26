// runtime/executor/io_check.cc
#include "runtime/executor/io_check.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

std::string DtName(int32_t dt) {
  return TypeUtils::DataTypeToSerialString(static_cast<DataType>(dt));
}

// "DT_VARIANT (a sequence or optional value)" for the variant type.
std::string ExpectedDtName(int32_t dt) {
  std::string s = DtName(dt);
  if (dt == DT_VARIANT) s += " (a sequence or optional value)";
  return s;
}

std::string DimsString(const proto::ModelIoDef& def) {
  std::string s = "[";
  for (int i = 0; i < def.dims_size(); ++i) {
    if (i > 0) s += ",";
    absl::StrAppend(&s, def.dims(i));
  }
  s += "]";
  return s;
}

}  // namespace

bool IsUnknownRankIoDef(const proto::ModelIoDef& def) {
  return def.dims_size() == 1 && def.dims(0) == UNKNOWN_RANK;
}

Status CheckIoDef(const proto::ModelIoDef& def, absl::string_view what, size_t index,
                  bool allow_unknown) {
  const std::string head = absl::StrCat("model ", what, " ", index, " '", def.name(), "': ");
  if (!TypeUtils::IsDataTypeValid(def.data_type()) ||
      (def.data_type() == DT_UNDEFINED && !allow_unknown)) {
    return ParamInvalid(head, "invalid data type ", def.data_type());
  }
  if (static_cast<size_t>(def.dims_size()) > gert::kMaxDimNum) {
    return OutOfRange(head, def.dims_size(), " dims exceed the maximum rank ", gert::kMaxDimNum);
  }
  if (allow_unknown && IsUnknownRankIoDef(def)) return OkStatus();
  bool known = true;
  int64_t count = 1;
  for (int i = 0; i < def.dims_size(); ++i) {
    const int64_t d = def.dims(i);
    if (d < -1 || (d == -1 && !allow_unknown)) {
      return ParamInvalid(head, "dim ", i, " is ", d, " in ", DimsString(def));
    }
    if (d == -1) {
      known = false;
      continue;
    }
    if (d != 0 && count > INT64_MAX / d) {
      return Overflow(head, "element count of ", DimsString(def), " overflows");
    }
    count *= d;
  }
  if (known && !allow_unknown) {  // dynamic models: size is advisory
    StatusOr<size_t> bytes = gert::HostStorageBytes(static_cast<DataType>(def.data_type()), count);
    if (!bytes.ok()) return Annotate(bytes.status(), head);
    if (def.size() < *bytes) {
      return ParamInvalid(head, "size ", def.size(), " is smaller than the ", *bytes, " bytes of ",
                          DimsString(def), " ", DtName(def.data_type()));
    }
  }
  return OkStatus();
}

Status CheckUserTensor(const proto::ModelIoDef& def, const gert::Tensor& tensor,
                       absl::string_view what, size_t index) {
  const int32_t dt = static_cast<int32_t>(tensor.GetDataType());
  if (def.data_type() == DT_UNDEFINED ? dt == DT_UNDEFINED : dt != def.data_type()) {
    return ParamInvalid(what, " ", index, " '", def.name(), "': data type is ", DtName(dt),
                        ", the model expects ",
                        def.data_type() == DT_UNDEFINED ? std::string("a defined data type")
                                                        : ExpectedDtName(def.data_type()));
  }
  const gert::Shape& shape = tensor.GetShape();
  if (!IsUnknownRankIoDef(def)) {
    bool match = shape.GetDimNum() == static_cast<size_t>(def.dims_size());
    for (size_t d = 0; match && d < shape.GetDimNum(); ++d) {
      const int64_t want = def.dims(static_cast<int>(d));
      match = (want < 0 && shape.GetDim(d) >= 0) || want == shape.GetDim(d);
    }
    if (!match) {
      return ParamInvalid(what, " ", index, " '", def.name(), "': shape is ", shape.ToString(),
                          ", the model expects ", DimsString(def));
    }
  }
  StatusOr<size_t> bytes = gert::HostStorageBytes(tensor.GetDataType(), shape.GetShapeSize());
  if (!bytes.ok()) {
    return Annotate(bytes.status(), what, " ", index, " '", def.name(), "': ");
  }
  // The model's tasks address up to def.size() bytes of the buffer (the
  // loader bounds their references by it; it is at least the shape's bytes
  // for a static model and 0 for a dynamic one).
  const size_t need = std::max<size_t>(*bytes, static_cast<size_t>(def.size()));
  if (tensor.GetSize() < need || (need > 0 && tensor.GetAddr() == nullptr)) {
    return ParamInvalid(what, " ", index, " '", def.name(), "': buffer of ", tensor.GetSize(),
                        " bytes", tensor.GetAddr() == nullptr ? " (null)" : "", " does not hold ",
                        shape.ToString(), " ", DtName(dt), " (", need, " bytes",
                        need > *bytes ? " the model addresses" : "", ")");
  }
  return OkStatus();
}

Status CheckUserTensorCount(size_t expected, size_t got, absl::string_view what) {
  if (expected != got) {
    return ParamInvalid("the model expects ", expected, " ", what, "s, got ", got);
  }
  return OkStatus();
}

}  // namespace ge
