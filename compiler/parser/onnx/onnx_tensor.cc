// compiler/parser/onnx/onnx_tensor.cc
#include "compiler/parser/onnx/onnx_tensor.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "graph/inc/graph/attr_value.h"

namespace ge {
namespace onnx_parser {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "ONNX raw_data is little-endian; this conversion assumes a little-endian host");

using onnx::TensorProto;

// Bytes of one element in GeTensor storage; 0 for STRING (objects).
int64_t ElementBytes(DataType dt) {
  switch (dt) {
    case DT_BOOL:
    case DT_INT8:
    case DT_UINT8:
      return 1;
    case DT_INT16:
    case DT_UINT16:
    case DT_FLOAT16:
    case DT_BF16:
      return 2;
    case DT_INT32:
    case DT_UINT32:
    case DT_FLOAT:
      return 4;
    case DT_INT64:
    case DT_UINT64:
    case DT_DOUBLE:
    case DT_COMPLEX64:
      return 8;
    case DT_COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

std::string DimsString(absl::Span<const int64_t> dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

std::string DtName(DataType dt) {
  StatusOr<int32_t> onnx_type = DataTypeToOnnx(dt);
  return onnx_type.ok() ? OnnxElemTypeName(*onnx_type) : absl::StrCat("DataType(", dt, ")");
}

// Element count of `dims`; ParseFailed for negative dims, Overflow.
StatusOr<int64_t> CountElements(absl::Span<const int64_t> dims, absl::string_view what) {
  int64_t count = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      return ParseFailed(what, ": dim ", i, " is negative (", dims[i], ") in shape ",
                         DimsString(dims));
    }
    if (dims[i] != 0 && count > std::numeric_limits<int64_t>::max() / dims[i]) {
      return Overflow(what, ": element count of shape ", DimsString(dims), " overflows int64");
    }
    count *= dims[i];
  }
  return count;
}

template <typename Dst, typename Src>
void CopyCast(const Src* src, int64_t n, uint8_t* dst) {
  for (int64_t i = 0; i < n; ++i) {
    const Dst v = static_cast<Dst>(src[i]);
    std::memcpy(dst + i * static_cast<int64_t>(sizeof(Dst)), &v, sizeof(Dst));
  }
}

Status Mismatch(absl::string_view what, absl::string_view field, int64_t got, int64_t want,
                absl::Span<const int64_t> dims, DataType dt) {
  return ParseFailed(what, ": ", field, " holds ", got, " values but shape ", DimsString(dims),
                     " of ", DtName(dt), " needs ", want);
}

// The bytes of a non-string tensor from its typed field.
StatusOr<std::vector<uint8_t>> TypedFieldBytes(const TensorProto& t, DataType dt, int64_t count,
                                               absl::Span<const int64_t> dims,
                                               absl::string_view what) {
  const int64_t esize = ElementBytes(dt);
  // Every case below checks its field's count before writing: a shape its
  // fields cannot fill (a hostile one of 2^40 elements) allocates nothing.
  const int64_t present = int64_t{t.float_data_size()} + t.double_data_size() +
                          t.int32_data_size() + t.int64_data_size() + t.uint64_data_size();
  std::vector<uint8_t> out(count <= present ? static_cast<size_t>(count * esize) : 0);
  uint8_t* dst = out.data();
  switch (dt) {
    case DT_FLOAT:
      if (t.float_data_size() != count) {
        return Mismatch(what, "float_data", t.float_data_size(), count, dims, dt);
      }
      CopyCast<float>(t.float_data().data(), count, dst);
      break;
    case DT_COMPLEX64:
      if (t.float_data_size() != 2 * count) {
        return Mismatch(what, "float_data", t.float_data_size(), 2 * count, dims, dt);
      }
      CopyCast<float>(t.float_data().data(), 2 * count, dst);
      break;
    case DT_DOUBLE:
      if (t.double_data_size() != count) {
        return Mismatch(what, "double_data", t.double_data_size(), count, dims, dt);
      }
      CopyCast<double>(t.double_data().data(), count, dst);
      break;
    case DT_COMPLEX128:
      if (t.double_data_size() != 2 * count) {
        return Mismatch(what, "double_data", t.double_data_size(), 2 * count, dims, dt);
      }
      CopyCast<double>(t.double_data().data(), 2 * count, dst);
      break;
    case DT_INT64:
      if (t.int64_data_size() != count) {
        return Mismatch(what, "int64_data", t.int64_data_size(), count, dims, dt);
      }
      CopyCast<int64_t>(t.int64_data().data(), count, dst);
      break;
    case DT_UINT32:
    case DT_UINT64:
      if (t.uint64_data_size() != count) {
        return Mismatch(what, "uint64_data", t.uint64_data_size(), count, dims, dt);
      }
      if (dt == DT_UINT32) {
        CopyCast<uint32_t>(t.uint64_data().data(), count, dst);
      } else {
        CopyCast<uint64_t>(t.uint64_data().data(), count, dst);
      }
      break;
    case DT_INT32:
    case DT_INT16:
    case DT_INT8:
    case DT_UINT16:
    case DT_UINT8:
    case DT_BOOL:
    case DT_FLOAT16:
    case DT_BF16: {
      if (t.int32_data_size() != count) {
        return Mismatch(what, "int32_data", t.int32_data_size(), count, dims, dt);
      }
      const int32_t* src = t.int32_data().data();
      if (dt == DT_INT32) {
        CopyCast<int32_t>(src, count, dst);
      } else if (dt == DT_INT16) {
        CopyCast<int16_t>(src, count, dst);
      } else if (dt == DT_INT8) {
        CopyCast<int8_t>(src, count, dst);
      } else if (dt == DT_UINT8) {
        CopyCast<uint8_t>(src, count, dst);
      } else if (dt == DT_BOOL) {
        for (int64_t i = 0; i < count; ++i) dst[i] = src[i] != 0 ? 1 : 0;
      } else {  // UINT16, FLOAT16, BF16: the low 16 bits
        CopyCast<uint16_t>(src, count, dst);
      }
      break;
    }
    default:
      return NotSupported(what, ": element type ", DtName(dt), " is not supported");
  }
  return out;
}

// "dir/sub" joined with "file"; `rel` must be relative.
std::string JoinPath(const std::string& dir, const std::string& rel) {
  if (dir.empty()) return rel;
  if (dir.back() == '/') return dir + rel;
  return dir + "/" + rel;
}

std::string ExternalLocation(const TensorProto& t) {
  for (const onnx::StringStringEntryProto& e : t.external_data()) {
    if (e.key() == "location") return e.value();
  }
  return "";
}

}  // namespace

StatusOr<DataType> DataTypeFromOnnx(int32_t elem_type) {
  switch (elem_type) {
    case TensorProto::UNDEFINED:
      return DT_UNDEFINED;
    case TensorProto::FLOAT:
      return DT_FLOAT;
    case TensorProto::UINT8:
      return DT_UINT8;
    case TensorProto::INT8:
      return DT_INT8;
    case TensorProto::UINT16:
      return DT_UINT16;
    case TensorProto::INT16:
      return DT_INT16;
    case TensorProto::INT32:
      return DT_INT32;
    case TensorProto::INT64:
      return DT_INT64;
    case TensorProto::STRING:
      return DT_STRING;
    case TensorProto::BOOL:
      return DT_BOOL;
    case TensorProto::FLOAT16:
      return DT_FLOAT16;
    case TensorProto::DOUBLE:
      return DT_DOUBLE;
    case TensorProto::UINT32:
      return DT_UINT32;
    case TensorProto::UINT64:
      return DT_UINT64;
    case TensorProto::COMPLEX64:
      return DT_COMPLEX64;
    case TensorProto::COMPLEX128:
      return DT_COMPLEX128;
    case TensorProto::BFLOAT16:
      return DT_BF16;
    default:
      return ParamInvalid("unknown ONNX element type ", elem_type);
  }
}

StatusOr<int32_t> DataTypeToOnnx(DataType dtype) {
  switch (dtype) {
    case DT_UNDEFINED:
      return TensorProto::UNDEFINED;
    case DT_FLOAT:
      return TensorProto::FLOAT;
    case DT_UINT8:
      return TensorProto::UINT8;
    case DT_INT8:
      return TensorProto::INT8;
    case DT_UINT16:
      return TensorProto::UINT16;
    case DT_INT16:
      return TensorProto::INT16;
    case DT_INT32:
      return TensorProto::INT32;
    case DT_INT64:
      return TensorProto::INT64;
    case DT_STRING:
      return TensorProto::STRING;
    case DT_BOOL:
      return TensorProto::BOOL;
    case DT_FLOAT16:
      return TensorProto::FLOAT16;
    case DT_DOUBLE:
      return TensorProto::DOUBLE;
    case DT_UINT32:
      return TensorProto::UINT32;
    case DT_UINT64:
      return TensorProto::UINT64;
    case DT_COMPLEX64:
      return TensorProto::COMPLEX64;
    case DT_COMPLEX128:
      return TensorProto::COMPLEX128;
    case DT_BF16:
      return TensorProto::BFLOAT16;
    default:
      return NotSupported("data type ", static_cast<int32_t>(dtype), " has no ONNX counterpart");
  }
}

std::string OnnxElemTypeName(int32_t elem_type) {
  switch (elem_type) {
    case TensorProto::UNDEFINED:
      return "undefined";
    case TensorProto::FLOAT:
      return "float";
    case TensorProto::UINT8:
      return "uint8";
    case TensorProto::INT8:
      return "int8";
    case TensorProto::UINT16:
      return "uint16";
    case TensorProto::INT16:
      return "int16";
    case TensorProto::INT32:
      return "int32";
    case TensorProto::INT64:
      return "int64";
    case TensorProto::STRING:
      return "string";
    case TensorProto::BOOL:
      return "bool";
    case TensorProto::FLOAT16:
      return "float16";
    case TensorProto::DOUBLE:
      return "double";
    case TensorProto::UINT32:
      return "uint32";
    case TensorProto::UINT64:
      return "uint64";
    case TensorProto::COMPLEX64:
      return "complex64";
    case TensorProto::COMPLEX128:
      return "complex128";
    case TensorProto::BFLOAT16:
      return "bfloat16";
    default:
      return absl::StrCat("elem_type(", elem_type, ")");
  }
}

namespace {

// An external-data tensor's byte range, resolved and checked.
struct ExternalRange {
  std::string location;  // as written in the model
  std::string path;      // resolved, inside the model directory
  int64_t offset = 0;
  int64_t length = 0;
};

StatusOr<ExternalRange> ResolveExternalData(const TensorProto& t, const TensorLoadContext& ctx,
                                            absl::string_view what) {
  ExternalRange r;
  int64_t length = -1;
  for (const onnx::StringStringEntryProto& e : t.external_data()) {
    if (e.key() == "location") {
      r.location = e.value();
    } else if (e.key() == "offset") {
      if (!absl::SimpleAtoi(e.value(), &r.offset) || r.offset < 0) {
        return ParseFailed(what, ": external data offset '", e.value(),
                           "' is not a non-negative integer");
      }
    } else if (e.key() == "length") {
      if (!absl::SimpleAtoi(e.value(), &length) || length < 0) {
        return ParseFailed(what, ": external data length '", e.value(),
                           "' is not a non-negative integer");
      }
    }
  }
  const std::string& location = r.location;
  if (location.empty()) return ParseFailed(what, ": external data has no 'location'");
  if (ctx.model_dir.empty()) {
    return ParamInvalid(what, ": external data '", location,
                        "' needs the model directory (parse the file, or set "
                        "ParseOptions::model_dir)");
  }
  if (location[0] == '/') {
    return ParamInvalid(what, ": external data location '", location,
                        "' is absolute; it must be relative to the model directory");
  }
  char dir_buf[PATH_MAX];
  if (realpath(ctx.model_dir.c_str(), dir_buf) == nullptr) {
    return NotFound(what, ": model directory '", ctx.model_dir, "' does not exist");
  }
  const std::string dir(dir_buf);
  const std::string joined = JoinPath(dir, location);
  char file_buf[PATH_MAX];
  if (realpath(joined.c_str(), file_buf) == nullptr) {
    return NotFound(what, ": external data file '", location, "' not found in '", ctx.model_dir,
                    "'");
  }
  r.path = file_buf;
  const std::string prefix = dir == "/" ? dir : dir + "/";
  if (r.path.compare(0, prefix.size(), prefix) != 0) {
    return ParamInvalid(what, ": external data location '", location,
                        "' resolves outside the model directory '", ctx.model_dir, "'");
  }
  struct stat st;
  if (::stat(r.path.c_str(), &st) != 0) {
    return IoError(what, ": cannot size external data file '", location, "'");
  }
  if (!S_ISREG(st.st_mode)) {
    return ParamInvalid(what, ": external data file '", location, "' is not a regular file");
  }
  const int64_t size = static_cast<int64_t>(st.st_size);
  if (r.offset > size) {
    return OutOfRange(what, ": external data offset ", r.offset, " is past the end of '", location,
                      "' (", size, " bytes)");
  }
  if (length < 0) length = size - r.offset;
  if (length > size - r.offset) {
    return OutOfRange(what, ": external data '", location, "' has ", size - r.offset,
                      " bytes after offset ", r.offset, ", expected ", length);
  }
  r.length = length;
  return r;
}

// The bytes of a resolved range, read.
StatusOr<std::string> ReadExternalRange(const ExternalRange& r, absl::string_view what) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(r.path.c_str(), "rb"), &std::fclose);
  if (f == nullptr) return IoError(what, ": cannot open external data file '", r.location, "'");
  std::string bytes(static_cast<size_t>(r.length), '\0');
  if (std::fseek(f.get(), static_cast<long>(r.offset), SEEK_SET) != 0 ||  // NOLINT(runtime/int)
      (r.length > 0 && std::fread(&bytes[0], 1, bytes.size(), f.get()) != bytes.size())) {
    return IoError(what, ": short read from external data file '", r.location, "'");
  }
  return bytes;
}

}  // namespace

StatusOr<std::string> ReadExternalData(const TensorProto& t, const TensorLoadContext& ctx,
                                       absl::string_view what) {
  ASSIGN_OR_RETURN(const ExternalRange r, ResolveExternalData(t, ctx, what));
  return ReadExternalRange(r, what);
}

// ------------------------------------------------------------ mapped files

std::shared_ptr<const MappedFileRegion> MappedFileRegion::Map(int fd, size_t size) {
  void* addr = nullptr;
  if (size > 0) {
    // Not MAP_POPULATE: pages are mapped when something reads them.
    addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) {
      ::close(fd);
      return nullptr;
    }
  }
  return std::make_shared<const MappedFileRegion>(addr, size, fd);
}

MappedFileRegion::~MappedFileRegion() {
  if (addr_ != nullptr) ::munmap(addr_, size_);
  ::close(fd_);
}

struct ExternalDataFiles::State {
  absl::Mutex mu;
  absl::flat_hash_map<std::string, std::shared_ptr<const MappedFileRegion>> files
      ABSL_GUARDED_BY(mu);
};

ExternalDataFiles::ExternalDataFiles() : state_(std::make_unique<State>()) {}
ExternalDataFiles::~ExternalDataFiles() = default;

StatusOr<std::shared_ptr<AlignedBuffer>> ExternalDataFiles::View(const std::string& path,
                                                                 uint64_t offset, uint64_t length,
                                                                 absl::string_view location,
                                                                 absl::string_view what) {
  std::shared_ptr<const MappedFileRegion> m;
  {
    absl::MutexLock lock(&state_->mu);
    auto it = state_->files.find(path);
    if (it != state_->files.end()) m = it->second;
  }
  if (m == nullptr) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return IoError(what, ": cannot open external data file '", location, "'");
    struct stat st;
    if (::fstat(fd, &st) != 0 || st.st_size <= 0) {
      ::close(fd);
      return IoError(what, ": cannot size external data file '", location, "'");
    }
    std::shared_ptr<const MappedFileRegion> made =
        MappedFileRegion::Map(fd, static_cast<size_t>(st.st_size));
    if (made == nullptr) return IoError(what, ": cannot map external data file '", location, "'");
    absl::MutexLock lock(&state_->mu);
    m = state_->files.try_emplace(path, std::move(made)).first->second;
  }
  // The file may have changed size since the caller checked it.
  if (offset > m->size() || length > m->size() - offset) {
    return OutOfRange(what, ": external data '", location, "' has ", m->size(),
                      " bytes, the tensor needs [", offset, ", +", length, ")");
  }
  std::shared_ptr<AlignedBuffer> view = AlignedBuffer::FileView(
      m->data() + offset, static_cast<size_t>(length), m, FileExtent{m->fd(), offset});
  if (view == nullptr) return Internal(what, ": cannot view external data '", location, "'");
  return view;
}

std::vector<uint8_t> EncodeStringTensorData(absl::Span<const std::string> strings) {
  const size_t n = strings.size();
  size_t total = n * 2 * sizeof(int64_t);
  for (const std::string& s : strings) total += s.size() + 1;
  std::vector<uint8_t> out(total, 0);
  size_t pos = n * 2 * sizeof(int64_t);
  for (size_t i = 0; i < n; ++i) {
    const int64_t head[2] = {static_cast<int64_t>(pos), static_cast<int64_t>(strings[i].size())};
    std::memcpy(out.data() + i * sizeof(head), head, sizeof(head));
    if (!strings[i].empty()) std::memcpy(out.data() + pos, strings[i].data(), strings[i].size());
    pos += strings[i].size() + 1;
  }
  return out;
}

StatusOr<std::vector<std::string>> DecodeStringTensorData(absl::Span<const uint8_t> data,
                                                          int64_t count) {
  if (count < 0) return ParseFailed("string tensor: negative element count ", count);
  const uint64_t heads = static_cast<uint64_t>(count) * 2 * sizeof(int64_t);
  if (heads / (2 * sizeof(int64_t)) != static_cast<uint64_t>(count) || heads > data.size()) {
    return ParseFailed("string tensor: ", data.size(), " bytes cannot hold ", count,
                       " string headers");
  }
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    int64_t head[2];
    std::memcpy(head, data.data() + static_cast<size_t>(i) * sizeof(head), sizeof(head));
    if (head[0] < 0 || head[1] < 0 || static_cast<uint64_t>(head[0]) > data.size() ||
        static_cast<uint64_t>(head[1]) > data.size() - static_cast<uint64_t>(head[0])) {
      return ParseFailed("string tensor: element ", i, " (offset ", head[0], ", length ", head[1],
                         ") is outside the ", data.size(), " data bytes");
    }
    out.emplace_back(reinterpret_cast<const char*>(data.data()) + head[0],
                     static_cast<size_t>(head[1]));
  }
  return out;
}

namespace {

// TensorFromOnnx with the raw bytes possibly held outside the message
// (`held`, kept alive by `owner`).
StatusOr<GeTensor> TensorFromOnnxImpl(const TensorProto& t, const TensorLoadContext& ctx,
                                      absl::string_view what, const absl::string_view* held,
                                      const std::shared_ptr<const void>& owner,
                                      const FileExtent* extent) {
  if (t.has_segment()) return NotSupported(what, ": segmented tensors are not supported");
  StatusOr<DataType> dt_or = DataTypeFromOnnx(t.data_type());
  if (!dt_or.ok()) return Annotate(dt_or.status(), what, ": ");
  const DataType dt = *dt_or;
  if (dt == DT_UNDEFINED) return ParseFailed(what, ": tensor has no data type");
  const std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
  ASSIGN_OR_RETURN(const int64_t count, CountElements(dims, what));
  GeTensorDesc desc(GeShape(dims), FORMAT_ND, dt);

  if (dt == DT_STRING) {
    if (t.data_location() == TensorProto::EXTERNAL) {
      return NotSupported(what, ": string tensors cannot use external data");
    }
    if (t.string_data_size() != count) {
      return Mismatch(what, "string_data", t.string_data_size(), count, dims, dt);
    }
    std::vector<std::string> strings(t.string_data().begin(), t.string_data().end());
    return GeTensor(desc, EncodeStringTensorData(strings));
  }

  const int64_t esize = ElementBytes(dt);
  if (esize == 0) return NotSupported(what, ": element type ", DtName(dt), " is not supported");
  if (count > std::numeric_limits<int64_t>::max() / esize) {
    return Overflow(what, ": byte size of shape ", DimsString(dims), " overflows");
  }
  const int64_t want_bytes = count * esize;

  if (t.data_location() == TensorProto::EXTERNAL) {
    ASSIGN_OR_RETURN(const ExternalRange r, ResolveExternalData(t, ctx, what));
    if (r.length != want_bytes) {
      return ParseFailed(what, ": external data '", ExternalLocation(t), "' has ", r.length,
                         " bytes but shape ", DimsString(dims), " of ", DtName(dt), " needs ",
                         want_bytes);
    }
    GeTensor out(desc);
    if (ctx.files != nullptr && dt != DT_BOOL && r.length > 0) {
      ASSIGN_OR_RETURN(std::shared_ptr<AlignedBuffer> view,
                       ctx.files->View(r.path, static_cast<uint64_t>(r.offset),
                                       static_cast<uint64_t>(r.length), r.location, what));
      out.SetData(std::move(view));  // no copy: the mapped file
      return out;
    }
    ASSIGN_OR_RETURN(std::string external, ReadExternalRange(r, what));
    if (dt == DT_BOOL) {
      for (char& b : external) b = b != 0 ? 1 : 0;
    }
    out.SetData(std::move(external));  // no copy
    return out;
  }
  absl::string_view raw;
  bool has_raw = false;
  if (held != nullptr) {
    raw = *held;
    has_raw = true;
  } else if (t.has_raw_data()) {
    raw = t.raw_data();
    has_raw = true;
  }
  if (has_raw) {
    if (static_cast<int64_t>(raw.size()) != want_bytes) {
      return ParseFailed(what, ": raw_data has ", raw.size(), " bytes but shape ", DimsString(dims),
                         " of ", DtName(dt), " needs ", want_bytes);
    }
    const auto* data = reinterpret_cast<const uint8_t*>(raw.data());
    if (dt == DT_BOOL) {
      std::vector<uint8_t> bytes(data, data + raw.size());
      for (uint8_t& b : bytes) b = b != 0 ? 1 : 0;
      return GeTensor(desc, bytes);
    }
    GeTensor out(desc);
    std::shared_ptr<AlignedBuffer> view =
        owner == nullptr    ? nullptr
        : extent != nullptr ? AlignedBuffer::FileView(data, raw.size(), owner, *extent)
                            : AlignedBuffer::View(data, raw.size(), owner);
    if (view != nullptr) {
      out.SetData(std::move(view));  // no copy
    } else {
      out.SetData(data, raw.size());
    }
    return out;
  }
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, TypedFieldBytes(t, dt, count, dims, what));
  return GeTensor(desc, bytes);
}

}  // namespace

StatusOr<GeTensor> TensorFromOnnx(const TensorProto& t, const TensorLoadContext& ctx,
                                  absl::string_view what) {
  return TensorFromOnnxImpl(t, ctx, what, nullptr, nullptr, nullptr);
}

StatusOr<GeTensor> TensorFromOnnxWithRawData(const TensorProto& t, absl::string_view raw_data,
                                             std::shared_ptr<const void> owner,
                                             absl::string_view what, const FileExtent* extent) {
  if (t.data_location() == TensorProto::EXTERNAL) {
    return ParseFailed(what, ": raw data given for a tensor with external data");
  }
  return TensorFromOnnxImpl(t, TensorLoadContext{}, what, &raw_data, owner, extent);
}

StatusOr<GeTensor> SparseTensorFromOnnx(const onnx::SparseTensorProto& sparse,
                                        const TensorLoadContext& ctx, absl::string_view what) {
  const std::vector<int64_t> dims(sparse.dims().begin(), sparse.dims().end());
  ASSIGN_OR_RETURN(const int64_t count, CountElements(dims, what));
  const std::string values_what = absl::StrCat(what, " values");
  ASSIGN_OR_RETURN(GeTensor values, TensorFromOnnx(sparse.values(), ctx, values_what));
  const DataType dt = values.GetTensorDesc().GetDataType();
  if (dt == DT_STRING) return NotSupported(what, ": sparse string tensors are not supported");
  const GeShape& vshape = values.GetTensorDesc().GetShape();
  if (vshape.GetDimNum() != 1) {
    return ParseFailed(what, ": values must be 1-D, got shape ", vshape.ToString());
  }
  const int64_t nnz = vshape.GetDim(0);
  ASSIGN_OR_RETURN(GeTensor indices,
                   TensorFromOnnx(sparse.indices(), ctx, absl::StrCat(what, " indices")));
  if (indices.GetTensorDesc().GetDataType() != DT_INT64) {
    return ParseFailed(what, ": indices must be int64, got ",
                       DtName(indices.GetTensorDesc().GetDataType()));
  }
  const GeShape& ishape = indices.GetTensorDesc().GetShape();
  const int64_t rank = static_cast<int64_t>(dims.size());
  const bool linear = ishape.GetDimNum() == 1 && ishape.GetDim(0) == nnz;
  const bool coords =
      ishape.GetDimNum() == 2 && ishape.GetDim(0) == nnz && ishape.GetDim(1) == rank;
  if (!linear && !coords) {
    return ParseFailed(what, ": indices shape ", ishape.ToString(), " must be [", nnz, "] or [",
                       nnz, ",", rank, "] for ", nnz, " values of shape ", DimsString(dims));
  }
  const int64_t esize = ElementBytes(dt);
  std::vector<uint8_t> dense(static_cast<size_t>(count * esize), 0);
  const absl::Span<const uint8_t> idx_bytes = indices.GetData();
  const absl::Span<const uint8_t> val_bytes = values.GetData();
  for (int64_t i = 0; i < nnz; ++i) {
    int64_t pos = 0;
    if (linear) {
      std::memcpy(&pos, idx_bytes.data() + i * 8, 8);
    } else {
      for (int64_t d = 0; d < rank; ++d) {
        int64_t c = 0;
        std::memcpy(&c, idx_bytes.data() + (i * rank + d) * 8, 8);
        if (c < 0 || c >= dims[static_cast<size_t>(d)]) {
          return ParseFailed(what, ": index ", i, " coordinate ", d, " is ", c, ", outside dim ",
                             dims[static_cast<size_t>(d)]);
        }
        pos = pos * dims[static_cast<size_t>(d)] + c;
      }
    }
    if (pos < 0 || pos >= count) {
      return ParseFailed(what, ": index ", i, " is ", pos, ", outside the ", count,
                         " elements of shape ", DimsString(dims));
    }
    std::memcpy(dense.data() + pos * esize, val_bytes.data() + i * esize,
                static_cast<size_t>(esize));
  }
  return GeTensor(GeTensorDesc(GeShape(dims), FORMAT_ND, dt), dense);
}

std::string OnnxTypeString(const onnx::TypeProto& type) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType:
      return absl::StrCat("tensor(", OnnxElemTypeName(type.tensor_type().elem_type()), ")");
    case onnx::TypeProto::kSparseTensorType:
      return absl::StrCat("sparse_tensor(", OnnxElemTypeName(type.sparse_tensor_type().elem_type()),
                          ")");
    case onnx::TypeProto::kSequenceType:
      return absl::StrCat("seq(", OnnxTypeString(type.sequence_type().elem_type()), ")");
    case onnx::TypeProto::kOptionalType:
      return absl::StrCat("optional(", OnnxTypeString(type.optional_type().elem_type()), ")");
    case onnx::TypeProto::kMapType:
      return absl::StrCat("map(", OnnxElemTypeName(type.map_type().key_type()), ",",
                          OnnxTypeString(type.map_type().value_type()), ")");
    case onnx::TypeProto::kOpaqueType:
      return "opaque";
    default:
      return "undefined";
  }
}

StatusOr<GeTensorDesc> DescFromOnnxType(const onnx::TypeProto& type, absl::string_view what) {
  switch (type.value_case()) {
    case onnx::TypeProto::VALUE_NOT_SET: {
      GeTensorDesc desc(GeShape({UNKNOWN_RANK}), FORMAT_ND, DT_UNDEFINED);
      return desc;
    }
    case onnx::TypeProto::kTensorType: {
      const onnx::TypeProto::Tensor& tt = type.tensor_type();
      StatusOr<DataType> dt = DataTypeFromOnnx(tt.elem_type());
      if (!dt.ok()) return Annotate(dt.status(), what, ": ");
      if (!tt.has_shape()) return GeTensorDesc(GeShape({UNKNOWN_RANK}), FORMAT_ND, *dt);
      GeShape shape;
      bool any_param = false;
      for (const onnx::TensorShapeProto::Dimension& d : tt.shape().dim()) {
        if (d.has_dim_value()) {
          if (d.dim_value() < 0) {
            return ParseFailed(what, ": dim ", shape.GetDimNum(), " is negative (", d.dim_value(),
                               ")");
          }
          shape.AppendDim(d.dim_value());
        } else {
          shape.AppendDim(UNKNOWN_DIM);
          any_param = any_param || d.has_dim_param();
        }
      }
      GeTensorDesc desc(shape, FORMAT_ND, *dt);
      if (any_param) {
        std::vector<std::string> params;
        params.reserve(static_cast<size_t>(tt.shape().dim_size()));
        for (const onnx::TensorShapeProto::Dimension& d : tt.shape().dim()) {
          params.push_back(!d.has_dim_value() && d.has_dim_param() ? d.dim_param() : "");
        }
        RETURN_IF_ERROR(desc.SetAttr(kAttrDimParams, AttrValue::CreateFrom(std::move(params))));
      }
      return desc;
    }
    case onnx::TypeProto::kSequenceType:
    case onnx::TypeProto::kOptionalType: {
      GeTensorDesc desc(GeShape({UNKNOWN_DIM}), FORMAT_ND, DT_VARIANT);
      RETURN_IF_ERROR(desc.SetAttr(kAttrOnnxType, AttrValue::CreateFrom(OnnxTypeString(type))));
      return desc;
    }
    default:
      return NotSupported(what, ": ONNX type ", OnnxTypeString(type), " is not supported");
  }
}

}  // namespace onnx_parser
}  // namespace ge
