// build/cache/model_cache.cc
#include "build/cache/model_cache.h"

#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "build/om/om_file.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/serialization/inc/model_serialize.h"
#include "metadef/inc/base/file_io.h"

namespace ge {
namespace {

class Hasher {
 public:
  Hasher() : ctx_(EVP_MD_CTX_new()) {
    ok_ = ctx_ != nullptr && EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) == 1;
  }
  ~Hasher() { EVP_MD_CTX_free(ctx_); }
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;
  void Bytes(const void* data, size_t size) {
    if (ok_ && size > 0) ok_ = EVP_DigestUpdate(ctx_, data, size) == 1;
  }
  void U64(uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<uint8_t>(v >> (8 * i));
    Bytes(b, 8);
  }
  void Field(absl::string_view s) {
    U64(s.size());
    Bytes(s.data(), s.size());
  }
  StatusOr<std::string> HexDigest() {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!ok_ || EVP_DigestFinal_ex(ctx_, md, &len) != 1 || len != 32) {
      return Internal("SHA-256 computation failed");
    }
    static const char kHex[] = "0123456789abcdef";
    std::string out(64, '0');
    for (unsigned i = 0; i < 32; ++i) {
      out[2 * i] = kHex[md[i] >> 4];
      out[2 * i + 1] = kHex[md[i] & 15];
    }
    return out;
  }

 private:
  EVP_MD_CTX* ctx_;
  bool ok_ = false;
};

void HashConsts(const ComputeGraph& graph, Hasher& h) {
  for (const NodePtr& n : graph.DirectNodes()) {
    const std::string& type = n->GetType();
    if (type != "Const" && type != "Constant") continue;
    const AttrValue* v = n->GetOpDescBarePtr()->GetAttr("value");
    const GeTensor* t = v == nullptr ? nullptr : v->Get<GeTensor>();
    h.Field(n->GetName());
    if (t == nullptr) {
      h.U64(~uint64_t{0});
      continue;
    }
    h.U64(static_cast<uint64_t>(t->GetTensorDesc().GetDataType()));
    absl::Span<const int64_t> dims = t->GetTensorDesc().GetShape().GetDimsSpan();
    h.U64(dims.size());
    for (int64_t d : dims) h.U64(static_cast<uint64_t>(d));
    absl::Span<const uint8_t> data = t->GetBytes();  // never a FileView's aligned copy
    h.U64(data.size());
    h.Bytes(data.data(), data.size());
  }
}

Status CheckKey(const std::string& key) {
  if (key.size() != 64) return ParamInvalid("model cache key '", key, "' is not 64 hex digits");
  for (char c : key) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      return ParamInvalid("model cache key '", key, "' has a non-hex character");
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::string> ModelCache::ComputeKey(const ComputeGraph& graph,
                                             const std::map<std::string, std::string>& options) {
  SerializeOptions so;
  so.omit_tensor_data = true;
  ASSIGN_OR_RETURN(std::string def, ModelSerialize::SerializeModel(graph, so));
  Hasher h;
  h.Field("ge.model_cache.v1");
  h.Field(def);
  HashConsts(graph, h);
  for (const ComputeGraphPtr& sub : graph.GetAllSubgraphs()) {
    if (sub != nullptr) HashConsts(*sub, h);
  }
  h.U64(options.size());
  for (const auto& [k, v] : options) {
    h.Field(k);
    h.Field(v);
  }
  return h.HexDigest();
}

std::string ModelCache::PathFor(const std::string& key) const {
  return absl::StrCat(dir_, "/", key, ".om");
}

StatusOr<std::optional<std::string>> ModelCache::Lookup(const std::string& key) const {
  RETURN_IF_ERROR(CheckKey(key));
  const std::string path = PathFor(key);
  StatusOr<std::string> bytes = ReadFileToString(path);
  if (!bytes.ok()) {
    if (GetErrorCode(bytes.status()) == ErrorCode::kNotFound) return std::optional<std::string>();
    return bytes.status();
  }
  if (!ParseOmFile(AsBytes(*bytes)).ok()) {
    ::unlink(path.c_str());  // corrupt entry: drop it, rebuild
    return std::optional<std::string>();
  }
  return std::optional<std::string>(std::move(bytes).value());
}

Status ModelCache::Store(const std::string& key, absl::string_view om_bytes) const {
  RETURN_IF_ERROR(CheckKey(key));
  if (dir_.empty()) return ParamInvalid("model cache directory is empty");
  if (::mkdir(dir_.c_str(), 0755) != 0 && errno != EEXIST) {
    return ParamInvalid("cannot create model cache directory '", dir_, "': ", std::strerror(errno));
  }
  return WriteFileAtomically(PathFor(key), om_bytes);
}

StatusOr<std::string> ModelCache::GetOrBuild(const std::string& key,
                                             const std::function<StatusOr<std::string>()>& build,
                                             bool* hit) const {
  ASSIGN_OR_RETURN(std::optional<std::string> cached, Lookup(key));
  if (hit != nullptr) *hit = cached.has_value();
  if (cached.has_value()) return std::move(*cached);
  if (!build) return ParamInvalid("model cache miss and no build function");
  ASSIGN_OR_RETURN(std::string om, build());
  RETURN_IF_ERROR(Store(key, om));
  return om;
}

}  // namespace ge
