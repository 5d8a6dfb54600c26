// metadef/register/inc/register/ops_proto_manager.h
//
// OpsProtoManager: loads op plugin libraries (GE's ops proto .so files, seed
// 000 section 5) named by the option ge.opsProtoLibPath.
//
// A plugin library defines ops with REG_OP (and may register passes, fusion
// passes, framework mappings). Loading one library:
//   1. commits registrations already queued by the host (as "builtin"),
//   2. opens the override window (OpRegistry::SetRegisterOverridable) unless
//      the options say otherwise,
//   3. dlopen(path, RTLD_NOW | RTLD_LOCAL): the library's static REG_OP
//      receivers queue its registrations,
//   4. commits the queue tagged with the library path (OpRegistrationData::
//      source), then restores the window (closed after loading).
// Libraries are never unloaded (the registry keeps their function pointers);
// loading the same file again (same canonical path) does nothing.
//
// Linking contract (one registry per process): a plugin is built against the
// registry HEADERS only (//metadef/register:op_registry_headers) and leaves
// the registry symbols undefined; dlopen binds them to the host's registry.
// The host therefore links the registry as a shared library (Bazel's default
// for cc_test), or statically with -rdynamic ("linkopts = ['-rdynamic']") so
// that its symbols are exported; the registry targets are alwayslink so that
// every registry symbol is present. A symbol the host does not provide makes
// the load fail with the dynamic linker's "undefined symbol" message.
//
// Errors (all name the path):
//   * a path that does not exist                  NotFound
//   * dlopen failure (not a library, unresolved)  IoError with dlerror() text
//   * a registration conflict (same type, same priority, window closed) or a
//     malformed registration                      the registry's error, which
//     names the type and both sources
// Every entry of the list is attempted; the result is the first error (the
// messages of all failures are joined).
//
// Thread safety: loads are serialised by the manager. Do not load while other
// threads compile (the registry is read without locks).
//
// Example
//   RETURN_IF_ERROR(ge::OpsProtoManager::Instance().LoadOpsProtoLibs(
//       "/opt/ops/libcustom_ops.so:/opt/ops/more"));
#ifndef METADEF_REGISTER_INC_REGISTER_OPS_PROTO_MANAGER_H_
#define METADEF_REGISTER_INC_REGISTER_OPS_PROTO_MANAGER_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// The option naming the plugin path list.
inline constexpr char kOptionOpsProtoLibPath[] = "ge.opsProtoLibPath";

struct OpsProtoLoadOptions {
  // Open the override window while each library loads: its registrations
  // replace existing ones of equal priority (hot patch). When false, such a
  // registration is a conflict error and the existing one stays.
  bool allow_override = true;
};

class OpsProtoManager {
 public:
  static OpsProtoManager& Instance();

  // `paths`: ':'-separated list of library files and directories (every
  // regular file named *.so directly inside, sorted by name). Empty entries
  // are ignored; an empty list loads nothing.
  Status LoadOpsProtoLibs(absl::string_view paths, const OpsProtoLoadOptions& options = {});

  // Canonical paths of the loaded libraries, in load order.
  std::vector<std::string> GetLoadedLibraries() const;
  bool IsLoaded(absl::string_view path) const;

 private:
  OpsProtoManager() = default;
  struct Impl;
  Impl& impl() const;
};

}  // namespace ge

#endif  // METADEF_REGISTER_INC_REGISTER_OPS_PROTO_MANAGER_H_
