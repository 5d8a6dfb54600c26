// metadef/src/graph/tensor_type.cc
//
// TensorType / ListTensorType checks and data type promotion. Promotion
// classifies each type into a category (see Category) and resolves a pair by
// the higher category, so symmetry holds by construction.
#include "metadef/inc/external/graph/tensor_type.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

std::string Name(DataType dt) { return TypeUtils::DataTypeToSerialString(dt); }

// Ordered by promotion rank: a pair resolves towards the higher category.
enum class Category : int {
  kBool = 0,
  kInt = 1,       // signed or unsigned, incl. sub-byte
  kLowFloat = 2,  // floats narrower than 16 bits (FP8 / FP6 / FP4)
  kFloat = 3,     // FLOAT16, BF16, FLOAT, DOUBLE
  kComplex = 4,
  kOther = 5,  // not numeric: never promotes with a different type
};

struct TypeInfo {
  Category category;
  int64_t bits;
  bool is_signed;
};

TypeInfo Classify(DataType dt) {
  // Only called on valid types; opaque types have no size and are kOther.
  const StatusOr<int64_t> bits = TypeUtils::GetSizeInBits(dt);
  const int64_t b = bits.ok() ? *bits : 0;
  const bool is_signed = TypeUtils::IsSignedType(dt);
  if (dt == DT_BOOL) return {Category::kBool, b, false};
  if (TypeUtils::IsComplexType(dt)) return {Category::kComplex, b, true};
  if (TypeUtils::IsFloatType(dt)) {
    return {b < 16 ? Category::kLowFloat : Category::kFloat, b, is_signed};
  }
  if (TypeUtils::IsIntegerType(dt)) return {Category::kInt, b, is_signed};
  return {Category::kOther, b, is_signed};
}

DataType SignedIntOfBits(int64_t bits) {
  switch (bits) {
    case 1:
      return DT_INT1;
    case 2:
      return DT_INT2;
    case 4:
      return DT_INT4;
    case 8:
      return DT_INT8;
    case 16:
      return DT_INT16;
    case 32:
      return DT_INT32;
    default:
      return DT_INT64;
  }
}

// The real type of each component of a complex type.
DataType ComplexComponent(DataType complex) {
  switch (complex) {
    case DT_COMPLEX32:
      return DT_FLOAT16;
    case DT_COMPLEX64:
      return DT_FLOAT;
    default:
      return DT_DOUBLE;
  }
}

Status Mismatch(DataType a, DataType b, absl::string_view reason) {
  return TypeMismatch("cannot promote data types ", Name(a), " and ", Name(b), ": ", reason);
}

StatusOr<DataType> PromoteValid(DataType a, DataType b) {
  if (a == b) return a;
  TypeInfo ia = Classify(a);
  TypeInfo ib = Classify(b);
  if (ia.category == Category::kOther || ib.category == Category::kOther) {
    const DataType bad = ia.category == Category::kOther ? a : b;
    return Mismatch(a, b, absl::StrCat(Name(bad), " is not a numeric type"));
  }
  // Order the pair so that `hi` has the higher category (then more bits, then
  // the smaller enum value): every rule below sees the same (hi, lo).
  DataType hi = a;
  DataType lo = b;
  const auto key = [](const TypeInfo& i, DataType dt) {
    return std::make_tuple(static_cast<int>(i.category), i.bits, -static_cast<int32_t>(dt));
  };
  if (key(ia, a) < key(ib, b)) {
    std::swap(hi, lo);
    std::swap(ia, ib);
  }
  if (ib.category == Category::kBool) return hi;

  switch (ia.category) {
    case Category::kInt: {  // lo is an int too
      if (ia.is_signed == ib.is_signed) return ia.bits >= ib.bits ? hi : lo;
      const TypeInfo& u = ia.is_signed ? ib : ia;
      const TypeInfo& s = ia.is_signed ? ia : ib;
      if (u.bits >= 64) {
        return Mismatch(a, b,
                        absl::StrCat("no signed integer type holds every ",
                                     Name(ia.is_signed ? lo : hi), " value"));
      }
      return SignedIntOfBits(std::max(s.bits, 2 * u.bits));
    }
    case Category::kLowFloat:  // lo is an int or a different small float
      return DT_FLOAT16;
    case Category::kFloat:
      if (ib.category == Category::kFloat && ia.bits == ib.bits) {
        return DT_FLOAT;  // FLOAT16 x BF16: neither holds the other
      }
      return hi;  // wider float, or a small float / an int into this float
    case Category::kComplex: {
      if (ib.category == Category::kComplex) return hi;  // the wider complex
      ASSIGN_OR_RETURN(const DataType component,
                       PromoteValid(ComplexComponent(hi), lo));
      switch (component) {
        case DT_FLOAT16:
          return DT_COMPLEX32;
        case DT_FLOAT:
          return DT_COMPLEX64;
        case DT_DOUBLE:
          return DT_COMPLEX128;
        default:
          return Internal("complex promotion of ", Name(a), " and ", Name(b),
                          " gave component type ", Name(component));
      }
    }
    default:
      return Internal("unhandled promotion of ", Name(a), " and ", Name(b));
  }
}

Status CheckValid(DataType dt, absl::string_view what) {
  if (!TypeUtils::IsDataTypeValid(dt)) {
    return ParamInvalid("cannot promote ", what, "data type value ", static_cast<int32_t>(dt),
                        ": not a valid DataType");
  }
  return OkStatus();
}

}  // namespace

// ---------------------------------------------------------------------------
// TensorType
// ---------------------------------------------------------------------------

TensorType::TensorType(DataType dt) : allowed_{dt} {}

TensorType::TensorType(std::initializer_list<DataType> types) : allowed_(types) {}

TensorType::TensorType(const std::vector<DataType>& types) : allowed_(types.begin(), types.end()) {}

TensorType TensorType::ALL() {
  std::vector<DataType> types = TypeUtils::AllDataTypes();
  types.erase(std::remove(types.begin(), types.end(), DT_UNDEFINED), types.end());
  return TensorType(types);
}

TensorType TensorType::FloatingDataType() {
  return TensorType{DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_BF16};
}

TensorType TensorType::IntegerDataType() {
  return TensorType{DT_INT8,  DT_INT16,  DT_INT32,  DT_INT64,
                    DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64};
}

TensorType TensorType::NumberType() {
  const TensorType real = RealNumberType();
  std::vector<DataType> types(real.GetAllowedDataTypes().begin(), real.GetAllowedDataTypes().end());
  types.insert(types.end(), {DT_COMPLEX32, DT_COMPLEX64, DT_COMPLEX128});
  return TensorType(types);
}

TensorType TensorType::RealNumberType() {
  std::vector<DataType> types;
  for (const TensorType& t : {IntegerDataType(), FloatingDataType()}) {
    types.insert(types.end(), t.GetAllowedDataTypes().begin(), t.GetAllowedDataTypes().end());
  }
  return TensorType(types);
}

std::string TensorType::ToString() const {
  return absl::StrCat("{",
                      absl::StrJoin(allowed_, ", ",
                                    [](std::string* out, DataType dt) {
                                      out->append(TypeUtils::DataTypeToSerialString(dt));
                                    }),
                      "}");
}

Status TensorType::Check(absl::string_view input_name, DataType dt) const {
  if (Contains(dt)) return OkStatus();
  return ParamInvalid("input ", input_name, " has data type ",
                      TypeUtils::DataTypeToSerialString(dt), ", which is not in the allowed set ",
                      ToString());
}

Status ListTensorType::Check(absl::string_view list_name,
                             const std::vector<DataType>& types) const {
  for (size_t i = 0; i < types.size(); ++i) {
    RETURN_IF_ERROR(type_.Check(absl::StrCat(list_name, "[", i, "]"), types[i]));
  }
  return OkStatus();
}

// ---------------------------------------------------------------------------
// Promote
// ---------------------------------------------------------------------------

StatusOr<DataType> Promote(DataType a, DataType b) {
  RETURN_IF_ERROR(CheckValid(a, ""));
  RETURN_IF_ERROR(CheckValid(b, ""));
  return PromoteValid(a, b);
}

StatusOr<DataType> Promote(const std::vector<DataType>& types) {
  if (types.empty()) {
    return ParamInvalid("cannot promote an empty list of data types");
  }
  for (size_t i = 0; i < types.size(); ++i) {
    RETURN_IF_ERROR(CheckValid(types[i], absl::StrCat("types[", i, "]: ")));
  }
  // Canonical order: widest category first, then more bits, then enum value.
  // kOther sorts first so a non-numeric type fails on its first partner.
  std::vector<size_t> order(types.size());
  std::vector<TypeInfo> infos;
  infos.reserve(types.size());
  for (size_t i = 0; i < types.size(); ++i) {
    order[i] = i;
    infos.push_back(Classify(types[i]));
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    const TypeInfo& ix = infos[x];
    const TypeInfo& iy = infos[y];
    if (ix.category != iy.category) return ix.category > iy.category;
    if (ix.bits != iy.bits) return ix.bits > iy.bits;
    return types[x] < types[y];
  });
  DataType result = types[order[0]];
  for (size_t k = 1; k < order.size(); ++k) {
    const size_t i = order[k];
    StatusOr<DataType> next = PromoteValid(result, types[i]);
    if (!next.ok()) {
      return Annotate(next.status(), "types[", i, "] (", Name(types[i]), "): ");
    }
    result = *next;
  }
  return result;
}

}  // namespace ge
