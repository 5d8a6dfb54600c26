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

namespace ge {

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
    // MAP_POPULATE: the loader reads every byte (checksum) and the weights
    // are used in place, so fault the page-cache pages in with one call
    // instead of one fault per page.
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      return IoError("cannot map model file '", path, "' (", size, " bytes): ",
                     std::strerror(err));
    }
    data = static_cast<const uint8_t*>(p);
  }
  ::close(fd);  // the mapping stays valid
  return std::shared_ptr<const MappedFile>(new MappedFile(path, data, size));
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
}

StatusOr<std::shared_ptr<const AlignedBytes>> AlignedBytes::Copy(absl::string_view bytes) {
  void* p = nullptr;
  if (posix_memalign(&p, 4096, bytes.empty() ? 1 : bytes.size()) != 0 || p == nullptr) {
    return MemoryAllocFailed("cannot allocate ", bytes.size(), " bytes for the model");
  }
  if (!bytes.empty()) std::memcpy(p, bytes.data(), bytes.size());
  return std::shared_ptr<const AlignedBytes>(new AlignedBytes(static_cast<uint8_t*>(p), bytes.size()));
}

AlignedBytes::~AlignedBytes() { std::free(data_); }

}  // namespace ge
