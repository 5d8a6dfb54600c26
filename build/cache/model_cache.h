// build/cache/model_cache.h
//
// ModelCache (seed 002 §7): compiled OM files keyed by a SHA-256 over what
// determines the compilation result:
//   * the serialized graph without tensor bytes (ModelSerialize, deterministic),
//   * the bytes, dtype and dims of every Const / Constant value (root graph
//     then subgraphs, in node order; GE's ComputeHashForConstNodes),
//   * the options map (std::map: sorted by key), each key and value length
//     prefixed so that no two different inputs concatenate equally.
// The key is 64 lowercase hex digits; entries are files <dir>/<key>.om.
//
// Lookup returns the bytes of a valid entry (ParseOmFile accepts it) or
// nullopt on a miss; a corrupt entry is a miss (and is removed). Store writes
// atomically (temp file + rename), so concurrent builders never see half a
// file. GetOrBuild runs `build` only on a miss.
//
// Example
//   ModelCache cache("/var/cache/ge");
//   ASSIGN_OR_RETURN(std::string key, ModelCache::ComputeKey(*graph, options));
//   ASSIGN_OR_RETURN(std::string om, cache.GetOrBuild(key, [&] { return Compile(); }));
#ifndef BUILD_CACHE_MODEL_CACHE_H_
#define BUILD_CACHE_MODEL_CACHE_H_

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class ModelCache {
 public:
  explicit ModelCache(std::string dir) : dir_(std::move(dir)) {}

  static StatusOr<std::string> ComputeKey(const ComputeGraph& graph,
                                          const std::map<std::string, std::string>& options);

  // nullopt on a miss. ParamInvalid for a malformed key.
  StatusOr<std::optional<std::string>> Lookup(const std::string& key) const;
  // Creates the directory if needed.
  Status Store(const std::string& key, absl::string_view om_bytes) const;
  // The cached bytes, or build() stored under key. `*hit` tells which.
  StatusOr<std::string> GetOrBuild(const std::string& key,
                                   const std::function<StatusOr<std::string>()>& build,
                                   bool* hit = nullptr) const;

  std::string PathFor(const std::string& key) const;
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

}  // namespace ge

#endif  // BUILD_CACHE_MODEL_CACHE_H_
