// tools/op_coverage: prints the op coverage table of issue 4.
//
// Reads the ONNX op types used by a test-data tree (one "domain:type" or
// "type" per line in a file produced by onnx_op_types.py, or given with
// --onnx_ops), and reports which are registered and which have a host-CPU
// kernel, per registered op and in total.
//
//   bazel run //tools/op_coverage -- --onnx_ops=/tmp/onnx_ops.txt
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "metadef/register/inc/register/op_registry.h"

namespace {

int Run(int argc, char** argv) {
  std::string onnx_ops_path;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg(argv[i]);
    if (absl::ConsumePrefix(&arg, "--onnx_ops=")) {
      onnx_ops_path = std::string(arg);
    } else if (arg == "--list") {
      list = true;
    } else {
      std::fprintf(stderr, "op_coverage: unknown argument '%s'\n", argv[i]);
      return 2;
    }
  }
  ge::OpRegistry& registry = ge::OpRegistry::Instance();
  std::vector<std::string> types = registry.GetAllTypes();
  size_t with_host = 0;
  for (const std::string& t : types) {
    const ge::OpRegistrationData* d = registry.Find(t);
    const bool host = d != nullptr && d->FindKernel(ge::kEngineHostCpu) != nullptr;
    with_host += host ? 1 : 0;
    if (list) std::printf("%s\t%s\n", t.c_str(), host ? "host_kernel" : "definition_only");
  }
  std::printf("op types defined: %zu\nop types with host kernels: %zu\n", types.size(),
              with_host);
  if (onnx_ops_path.empty()) return 0;

  std::ifstream in(onnx_ops_path);
  if (!in) {
    std::fprintf(stderr, "op_coverage: cannot read %s\n", onnx_ops_path.c_str());
    return 2;
  }
  std::set<std::string> onnx_ops;
  for (std::string line; std::getline(in, line);) {
    line = std::string(absl::StripAsciiWhitespace(line));
    if (!line.empty()) onnx_ops.insert(line);
  }
  size_t defined = 0, runnable = 0;
  std::vector<std::string> missing, no_kernel;
  for (const std::string& full : onnx_ops) {
    // "domain:Type" for non-default domains; we register the bare type.
    std::vector<std::string> parts = absl::StrSplit(full, ':');
    const std::string& type = parts.back();
    const ge::OpRegistrationData* d = registry.Find(type);
    if (d == nullptr) {
      missing.push_back(full);
      continue;
    }
    ++defined;
    if (d->FindKernel(ge::kEngineHostCpu) != nullptr) {
      ++runnable;
    } else {
      no_kernel.push_back(full);
    }
  }
  std::printf("ONNX node-test op types: %zu\n", onnx_ops.size());
  std::printf("  defined: %zu (%.1f%%)\n", defined, 100.0 * defined / onnx_ops.size());
  std::printf("  with host kernel: %zu (%.1f%%)\n", runnable, 100.0 * runnable / onnx_ops.size());
  std::printf("  missing:");
  for (const auto& m : missing) std::printf(" %s", m.c_str());
  std::printf("\n  defined without host kernel:");
  for (const auto& m : no_kernel) std::printf(" %s", m.c_str());
  std::printf("\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
