// metadef/register/src/ops_proto_manager.cc
//
// OpsProtoManager: path list expansion, dlopen with the override window open,
// commit of the library's queued registrations tagged with its path.
#include "metadef/register/inc/register/ops_proto_manager.h"

#include <dlfcn.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "metadef/register/inc/register/op_registry.h"

namespace ge {
namespace {

namespace fs = std::filesystem;

void Info(const std::string& line) {
  std::fprintf(stderr, "[INFO] ge ops proto: %s\n", line.c_str());
}

std::string Canonical(const std::string& path) {
  char* resolved = realpath(path.c_str(), nullptr);
  if (resolved == nullptr) return path;
  std::string out(resolved);
  free(resolved);
  return out;
}

// Expands one list entry into library files.
Status Expand(const std::string& entry, std::vector<std::string>* files) {
  std::error_code ec;
  const fs::file_status st = fs::status(entry, ec);
  if (ec || !fs::exists(st)) {
    return NotFound("ops proto library path '", entry, "' (from ", kOptionOpsProtoLibPath,
                    ") does not exist");
  }
  if (!fs::is_directory(st)) {
    files->push_back(entry);
    return OkStatus();
  }
  std::vector<std::string> found;
  fs::directory_iterator it(entry, ec);
  for (const fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
    std::error_code fec;
    const fs::path& p = it->path();
    if (!absl::EndsWith(p.filename().string(), ".so")) continue;
    if (!fs::is_regular_file(p, fec) || fec) continue;  // follows symlinks
    found.push_back(p.string());
  }
  if (ec) {
    return IoError("cannot list ops proto library directory '", entry, "': ", ec.message());
  }
  std::sort(found.begin(), found.end());
  if (found.empty()) Info(absl::StrCat("directory '", entry, "' holds no *.so library"));
  files->insert(files->end(), found.begin(), found.end());
  return OkStatus();
}

}  // namespace

struct OpsProtoManager::Impl {
  mutable absl::Mutex mu;
  std::vector<std::string> loaded ABSL_GUARDED_BY(mu);  // canonical paths
  std::vector<void*> handles ABSL_GUARDED_BY(mu);       // never closed

  Status LoadOne(const std::string& path, const OpsProtoLoadOptions& options)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);
};

OpsProtoManager& OpsProtoManager::Instance() {
  static OpsProtoManager* m = new OpsProtoManager();
  return *m;
}

OpsProtoManager::Impl& OpsProtoManager::impl() const {
  static Impl* i = new Impl();  // never destroyed: libraries stay loaded
  return *i;
}

Status OpsProtoManager::Impl::LoadOne(const std::string& path, const OpsProtoLoadOptions& options) {
  const std::string canonical = Canonical(path);
  if (std::find(loaded.begin(), loaded.end(), canonical) != loaded.end()) {
    Info(absl::StrCat("'", canonical, "' is already loaded"));
    return OkStatus();
  }
  // Host registrations queued so far are builtin, not the library's.
  OpRegistry& registry = OpRegistry::Instance();
  const size_t before = registry.size();
  const bool was_overridable = registry.IsRegisterOverridable();
  registry.SetRegisterOverridable(options.allow_override);

  KernelRegistry& kernels = KernelRegistry::Instance();
  kernels.SetDeferred(true);

  dlerror();  // clear
  void* handle = dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
  kernels.SetDeferred(false);
  if (handle == nullptr) {
    kernels.TakeDeferred();
    registry.SetRegisterOverridable(was_overridable);
    const char* err = dlerror();
    return IoError("cannot load ops proto library '", canonical,
                   "': ", err == nullptr ? "unknown dlopen error" : err);
  }
  handles.push_back(handle);
  loaded.push_back(canonical);
  const Status st = registry.CommitPending(canonical);
  registry.SetRegisterOverridable(was_overridable);
  // The library's kernels follow its op registrations: a kernel of an op
  // type the library now owns replaces the engine's earlier one; a kernel
  // of another op type is added only where the engine has none.
  for (KernelDef& def : kernels.TakeDeferred()) {
    def.source = canonical;
    const OpRegistrationData* op = registry.Find(def.op_type);
    const bool owned = op != nullptr && op->source == canonical;
    if (owned) {
      kernels.Unregister(def.op_type, def.engine);
    } else if (kernels.Find(def.op_type, def.engine) != nullptr) {
      Info(absl::StrCat("kernel for op ", def.op_type, " on engine '", def.engine, "' from '",
                        canonical, "' ignored: the op's registration is not the library's"));
      continue;
    }
    const std::string type = def.op_type;
    Status kst = kernels.Register(std::move(def));
    if (!kst.ok()) Info(absl::StrCat("kernel for op ", type, " not registered: ", kst.ToString()));
  }
  Info(absl::StrCat("loaded '", canonical, "' (", registry.size() - before,
                    " new op types, override window ", options.allow_override ? "open" : "closed",
                    " while loading)"));
  if (!st.ok()) {
    return Annotate(st, "ops proto library '", canonical, "': ");
  }
  return OkStatus();
}

Status OpsProtoManager::LoadOpsProtoLibs(absl::string_view paths,
                                         const OpsProtoLoadOptions& options) {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  std::vector<Status> errors;
  for (absl::string_view entry : absl::StrSplit(paths, ':', absl::SkipEmpty())) {
    std::vector<std::string> files;
    Status st = Expand(std::string(entry), &files);
    if (!st.ok()) {
      errors.push_back(std::move(st));
      continue;
    }
    for (const std::string& f : files) {
      Status ls = im.LoadOne(f, options);
      if (!ls.ok()) errors.push_back(std::move(ls));
    }
  }
  if (errors.empty()) return OkStatus();
  if (errors.size() == 1) return errors.front();
  std::vector<std::string> messages;
  for (const Status& e : errors) messages.emplace_back(e.message());
  return MakeStatus(
      GetErrorCode(errors.front()),
      absl::StrCat(errors.size(), " ops proto libraries failed: ", absl::StrJoin(messages, "; ")));
}

std::vector<std::string> OpsProtoManager::GetLoadedLibraries() const {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  return im.loaded;
}

bool OpsProtoManager::IsLoaded(absl::string_view path) const {
  const std::string canonical = Canonical(std::string(path));
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  return std::find(im.loaded.begin(), im.loaded.end(), canonical) != im.loaded.end();
}

}  // namespace ge
