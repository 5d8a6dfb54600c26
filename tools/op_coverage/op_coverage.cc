// tools/op_coverage: prints the op coverage table of issue 4.
//
// Prints exactly the three figures of the table:
//   op types defined: N                  (registered op types)
//   op types with host kernels: M        (of those, with a host-CPU kernel)
//   ONNX node-test op types covered: C of T (P%)
//                                         (op types used by the ONNX node
//                                         tests that are defined and have a
//                                         host kernel)
// followed by "missing op types:" and the uncovered ones with the reason
// ("(not defined)" / "(no host kernel)"), or "none". The ONNX op types come
// from --onnx_ops, a file with one "domain:type" or "type" per line made by
// onnx_op_types.py from /usr/share/libonnx-testdata/data/node (checked in
// as onnx_node_op_types.txt). --list also prints every registered type.
//
//   bazel run //tools/op_coverage --
//     --onnx_ops=$PWD/tools/op_coverage/onnx_node_op_types.txt
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
  std::printf("op types defined: %zu\n", types.size());
  std::printf("op types with host kernels: %zu\n", with_host);
  if (onnx_ops_path.empty()) return 0;

  std::ifstream in(onnx_ops_path);
  if (!in) {
    std::fprintf(stderr, "op_coverage: cannot read %s\n", onnx_ops_path.c_str());
    return 2;
  }
  std::set<std::string> onnx_ops;
  for (std::string line; std::getline(in, line);) {
    line = std::string(absl::StripAsciiWhitespace(line));
    if (!line.empty() && line[0] != '#') onnx_ops.insert(line);
  }
  if (onnx_ops.empty()) {
    std::fprintf(stderr, "op_coverage: %s lists no op types\n", onnx_ops_path.c_str());
    return 2;
  }
  // Covered: defined and runnable on the host CPU. The rest are listed with
  // the reason.
  size_t covered = 0;
  std::vector<std::string> missing;
  for (const std::string& full : onnx_ops) {
    // "domain:Type" for non-default domains; we register the bare type.
    std::vector<std::string> parts = absl::StrSplit(full, ':');
    const ge::OpRegistrationData* d = registry.Find(parts.back());
    if (d == nullptr) {
      missing.push_back(full + " (not defined)");
    } else if (d->FindKernel(ge::kEngineHostCpu) == nullptr) {
      missing.push_back(full + " (no host kernel)");
    } else {
      ++covered;
    }
  }
  std::printf("ONNX node-test op types covered: %zu of %zu (%.1f%%)\n", covered, onnx_ops.size(),
              100.0 * static_cast<double>(covered) / static_cast<double>(onnx_ops.size()));
  std::printf("missing op types:");
  if (missing.empty()) std::printf(" none");
  for (const auto& m : missing) std::printf(" %s", m.c_str());
  std::printf("\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
