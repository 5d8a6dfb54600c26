// runtime/loader/mapped_file.cc
#include "runtime/loader/mapped_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <utility>

#include "metadef/inc/base/aligned_mapping.h"

namespace ge {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

// Maps the whole file read-only at a 2 MiB-aligned address and asks for huge
// mappings (a hint): when the page cache holds the file in 2 MiB folios,
// each 2 MiB is then one mapping instead of 512, which on a VM is the
// difference between ~40 ms and ~2 ms to first touch a 100 MB model.
StatusOr<const uint8_t*> MapWhole(int fd, size_t size, const std::string& path) {
  auto fail = [&](const char* what) {
    const int err = errno;
    return IoError("cannot map model file '", path, "' (", size, " bytes): ", what, ": ",
                   std::strerror(err));
  };
  uint8_t* at = nullptr;
  if (size >= kHugePage) {
    // Reserve the address space on a 2 MiB boundary, then map the file
    // over it.
    at = static_cast<uint8_t*>(MapAligned(size, kHugePage, PROT_NONE, MAP_NORESERVE));
    if (at == nullptr) return fail("reserving address space");
  }
  void* p = ::mmap(at, size, PROT_READ, MAP_PRIVATE | (at != nullptr ? MAP_FIXED : 0), fd, 0);
  if (p == MAP_FAILED) {
    const StatusOr<const uint8_t*> st = fail("mmap");
    if (at != nullptr) ::munmap(at, size);
    return st;
  }
  if (size >= kHugePage) (void)::madvise(p, size, MADV_HUGEPAGE);
  return static_cast<const uint8_t*>(p);
}

}  // namespace

StatusOr<std::shared_ptr<const MappedFile>> MappedFile::Open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT) return NotFound("model file '", path, "' does not exist");
    return IoError("cannot open model file '", path, "': ", std::strerror(err));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return IoError("cannot stat model file '", path, "': ", std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return IoError("model file '", path, "' is not a regular file");
  }
  const size_t size = static_cast<size_t>(st.st_size);
  const uint8_t* data = nullptr;
  if (size > 0) {
    StatusOr<const uint8_t*> mapped = MapWhole(fd, size, path);
    if (!mapped.ok()) {
      ::close(fd);
      return mapped.status();
    }
    data = *mapped;
  }
  return std::shared_ptr<const MappedFile>(new MappedFile(path, fd, data, size));
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
  if (fd_ >= 0) ::close(fd_);
}

Status MappedFile::ReadAt(uint64_t offset, absl::Span<uint8_t> out) const {
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n =
        ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return IoError("reading model file '", path_, "' at offset ", offset + done, ": ",
                     n < 0 ? std::strerror(errno) : "unexpected end of file");
    }
    done += static_cast<size_t>(n);
  }
  return OkStatus();
}

StatusOr<std::shared_ptr<const AlignedBytes>> AlignedBytes::Copy(absl::string_view bytes) {
  void* p = nullptr;
  if (posix_memalign(&p, 4096, bytes.empty() ? 1 : bytes.size()) != 0 || p == nullptr) {
    return MemoryAllocFailed("cannot allocate ", bytes.size(), " bytes for the model");
  }
  if (!bytes.empty()) std::memcpy(p, bytes.data(), bytes.size());
  return std::shared_ptr<const AlignedBytes>(
      new AlignedBytes(static_cast<uint8_t*>(p), bytes.size()));
}

AlignedBytes::~AlignedBytes() { std::free(data_); }

}  // namespace ge
