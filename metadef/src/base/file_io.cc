// metadef/src/base/file_io.cc
#include "metadef/inc/base/file_io.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace ge {
namespace {

// The outermost directory on `path`'s way that does not exist, or "" when
// every parent exists (a relative path's parents start at the working
// directory).
std::string MissingDirectory(const std::string& path) {
  std::string missing;
  std::string dir = path;
  while (true) {
    const size_t slash = dir.find_last_of('/');
    if (slash == std::string::npos || slash == 0) break;
    dir.resize(slash);
    struct stat st;
    if (::stat(dir.c_str(), &st) == 0) break;
    missing = dir;
  }
  return missing;
}

// Puts `tmp` at `path` atomically; 0 or the errno of the failure. An
// existing regular file at `path` is swapped out (RENAME_EXCHANGE) and then
// unlinked instead of being renamed over: ext4 (auto_da_alloc) allocates the
// blocks of a file renamed over another before the rename returns (tens of
// ms for a 100 MB file), which the exchange and the unlink do not wait for.
int ReplaceFile(const std::string& tmp, const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
      ::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE) == 0) {
    if (::unlink(tmp.c_str()) == 0) return 0;
    // What was swapped out cannot be removed: swap back, rename over it.
    ::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE);
  }
  return ::rename(tmp.c_str(), path.c_str()) == 0 ? 0 : errno;
}

}  // namespace

StatusOr<std::string> ReadFileToString(const std::string& path, uint64_t max_size) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return NotFound("cannot open '", path, "': ", std::strerror(errno));
    return ParamInvalid("cannot open '", path, "': ", std::strerror(errno));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return ParamInvalid("'", path, "' is not a regular file");
  }
  if (static_cast<uint64_t>(st.st_size) > max_size) {
    ::close(fd);
    return OutOfRange("'", path, "' has ", st.st_size, " bytes, more than the limit ", max_size);
  }
  std::string out(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::read(fd, &out[done], out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      return Internal("reading '", path, "' failed after ", done, " bytes");
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  return out;
}

Status PwriteAll(int fd, const uint8_t* data, uint64_t size, uint64_t offset,
                 const std::string& path) {
  uint64_t done = 0;
  while (done < size) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(size - done, uint64_t{1} << 30));
    const ssize_t w = ::pwrite(fd, data + done, n, static_cast<off_t>(offset + done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      return Internal("writing '", path, "' failed at offset ", offset + done, ": ",
                      std::strerror(w < 0 ? errno : EIO));
    }
    done += static_cast<uint64_t>(w);
  }
  return OkStatus();
}

uint64_t CopyFileRange(int src_fd, uint64_t src_offset, int fd, uint64_t offset, uint64_t size) {
  uint64_t done = 0;
  while (done < size) {
    loff_t in = static_cast<loff_t>(src_offset + done);
    loff_t out = static_cast<loff_t>(offset + done);
    const ssize_t n = ::copy_file_range(src_fd, &in, fd, &out, static_cast<size_t>(size - done), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<uint64_t>(n);
  }
  return done;
}

StatusOr<AtomicFile> AtomicFile::Create(const std::string& path) {
  std::string tmp = absl::StrCat(path, ".tmp.", ::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    const std::string missing = err == ENOENT ? MissingDirectory(path) : std::string();
    if (!missing.empty()) {
      return ParamInvalid("cannot create '", tmp, "': ", std::strerror(err), " (directory '",
                          missing, "' does not exist)");
    }
    return ParamInvalid("cannot create '", tmp, "': ", std::strerror(err));
  }
  return AtomicFile(path, std::move(tmp), fd);
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)),
      tmp_(std::move(other.tmp_)),
      fd_(std::exchange(other.fd_, -1)),
      pending_(std::exchange(other.pending_, false)) {}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    Abandon();
    path_ = std::move(other.path_);
    tmp_ = std::move(other.tmp_);
    fd_ = std::exchange(other.fd_, -1);
    pending_ = std::exchange(other.pending_, false);
  }
  return *this;
}

AtomicFile::~AtomicFile() { Abandon(); }

void AtomicFile::Abandon() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (pending_) ::unlink(tmp_.c_str());
  pending_ = false;
}

Status AtomicFile::Commit(bool sync) {
  if (!pending_ || fd_ < 0) return Internal("'", tmp_, "' was already committed or abandoned");
  if (sync && ::fsync(fd_) != 0) {
    const int err = errno;
    Abandon();
    return Internal("flushing '", tmp_, "' failed: ", std::strerror(err));
  }
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) {
    const int err = errno;
    Abandon();
    return Internal("closing '", tmp_, "' failed: ", std::strerror(err));
  }
  if (const int err = ReplaceFile(tmp_, path_); err != 0) {
    Abandon();
    return Internal("renaming '", tmp_, "' to '", path_, "' failed: ", std::strerror(err));
  }
  pending_ = false;
  return OkStatus();
}

Status WriteFileAtomically(const std::string& path, absl::string_view bytes) {
  ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  RETURN_IF_ERROR(PwriteAll(file.fd(), reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                            0, file.temp_path()));
  return file.Commit(/*sync=*/true);
}

}  // namespace ge
