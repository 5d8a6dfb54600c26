// tensor_compare: compares two tensor files (.pb / .npy) for the tool tests.
//
//   tensor_compare ACTUAL EXPECTED [RTOL [ATOL]]
//
// Passes (exit 0) when data types and shapes match and every element
// satisfies |a - e| <= atol + rtol * |e| (defaults 1e-4, 1e-5); otherwise
// exit 1 with the first mismatch named on stderr; exit 2 for bad arguments.
#include <cmath>
#include <cstdio>
#include <string>

#include "absl/strings/numbers.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "tools/common/tensor_io.h"

int main(int argc, char** argv) {
  if (argc < 3 || argc > 5) {
    std::fprintf(stderr, "usage: tensor_compare ACTUAL EXPECTED [RTOL [ATOL]]\n");
    return 2;
  }
  double rtol = 1e-4;
  double atol = 1e-5;
  if ((argc > 3 && !absl::SimpleAtod(argv[3], &rtol)) ||
      (argc > 4 && !absl::SimpleAtod(argv[4], &atol))) {
    std::fprintf(stderr, "tensor_compare: bad tolerance\n");
    return 2;
  }
  auto a = ge::tools::ReadTensorFile(argv[1]);
  auto e = ge::tools::ReadTensorFile(argv[2]);
  if (!a.ok() || !e.ok()) {
    std::fprintf(stderr, "tensor_compare: %s\n",
                 std::string((a.ok() ? e.status() : a.status()).message()).c_str());
    return 2;
  }
  if (a->GetDataType() != e->GetDataType()) {
    std::fprintf(stderr, "tensor_compare: data type %s != expected %s\n",
                 ge::TypeUtils::DataTypeToSerialString(a->GetDataType()).c_str(),
                 ge::TypeUtils::DataTypeToSerialString(e->GetDataType()).c_str());
    return 1;
  }
  if (a->GetShape() != e->GetShape()) {
    std::fprintf(stderr, "tensor_compare: shape %s != expected %s\n",
                 a->GetShape().ToString().c_str(), e->GetShape().ToString().c_str());
    return 1;
  }
  const int64_t n = a->tensor().GetShapeSize();
  for (int64_t i = 0; i < n; ++i) {
    const double va = ge::tools::ElementAsDouble(a->tensor(), i);
    const double ve = ge::tools::ElementAsDouble(e->tensor(), i);
    if (std::isnan(va) && std::isnan(ve)) continue;
    if (!(std::fabs(va - ve) <= atol + rtol * std::fabs(ve))) {
      std::fprintf(stderr, "tensor_compare: element %lld: %.9g != expected %.9g\n",
                   static_cast<long long>(i), va, ve);
      return 1;
    }
  }
  std::printf("tensor_compare: %lld elements match\n", static_cast<long long>(n));
  return 0;
}
