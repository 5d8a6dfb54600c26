// metadef/inc/base/file_io.h
//
// Whole-file I/O on POSIX descriptors, with errors as Status values that
// name the path and the reason (strerror), and, when a file cannot be
// created because a parent directory does not exist, that directory.
//
//   * ReadFileToString: a regular file's bytes (NotFound when it does not
//     exist, OutOfRange above `max_size`).
//   * AtomicFile: a temp file `<path>.tmp.<pid>` in the target's directory,
//     written through its descriptor (PwriteAll, CopyFileRange) and then
//     put at `path` by Commit (optional fsync, close, rename). Until Commit
//     succeeds `path` is untouched, and a failed or abandoned AtomicFile
//     removes its temp file. Other processes see the old file or the whole
//     new one, never a part.
//   * WriteFileAtomically: an AtomicFile holding `bytes`, fsync-ed.
//   * PwriteAll / CopyFileRange: positioned writes of all the bytes, and a
//     kernel file-to-file copy (no user-space buffer).
//
// Not ABI-public (not under inc/external).
//
// Example
//   ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create("out/model.om"));
//   RETURN_IF_ERROR(PwriteAll(file.fd(), data, size, 0, file.temp_path()));
//   RETURN_IF_ERROR(file.Commit(/*sync=*/false));
//   ASSIGN_OR_RETURN(std::string bytes, ReadFileToString("out/model.om"));
#ifndef METADEF_INC_BASE_FILE_IO_H_
#define METADEF_INC_BASE_FILE_IO_H_

#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// Reads a whole regular file (OutOfRange above max_size bytes; NotFound
// when it does not exist; ParamInvalid when it cannot be opened or is not
// a regular file; Internal when a read fails).
StatusOr<std::string> ReadFileToString(const std::string& path,
                                       uint64_t max_size = uint64_t{1} << 36);

// Writes `bytes` to `<path>.tmp.<pid>` in the same directory, fsyncs it,
// then renames it over `path`; on failure the temp file is removed and
// `path` is untouched.
Status WriteFileAtomically(const std::string& path, absl::string_view bytes);

// pwrite of all `size` bytes at `offset` of `fd` (EINTR retried; writes
// of at most 1 GiB each). Internal naming `path` and the offset on failure.
Status PwriteAll(int fd, const uint8_t* data, uint64_t size, uint64_t offset,
                 const std::string& path);

// Copies `size` bytes at `src_offset` of `src_fd` to `offset` of `fd` in the
// kernel (copy_file_range: no user-space copy); returns how many it copied,
// fewer than `size` when the kernel cannot (another file system, an old
// kernel, an error): the caller writes the rest.
uint64_t CopyFileRange(int src_fd, uint64_t src_offset, int fd, uint64_t offset, uint64_t size);

// A file that appears at its path whole or not at all (see the file
// comment). Move-only.
class AtomicFile {
 public:
  // Creates (truncates) `<path>.tmp.<pid>`, mode 0644. ParamInvalid naming
  // the temp file and the reason, and the missing directory if a parent of
  // `path` does not exist.
  static StatusOr<AtomicFile> Create(const std::string& path);

  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // Not committed: closes and removes the temp file.
  ~AtomicFile();

  // The temp file's descriptor (write-only) and path (for messages).
  int fd() const { return fd_; }
  const std::string& temp_path() const { return tmp_; }
  const std::string& path() const { return path_; }

  // fsync (with `sync`), close, then the temp file replaces `path`.
  // Internal naming the step and the reason; on failure the temp file is
  // removed. Call once.
  Status Commit(bool sync);

 private:
  AtomicFile(std::string path, std::string tmp, int fd)
      : path_(std::move(path)), tmp_(std::move(tmp)), fd_(fd), pending_(true) {}
  void Abandon();

  std::string path_;
  std::string tmp_;
  int fd_ = -1;           // -1 once closed
  bool pending_ = false;  // a temp file exists that Commit has not placed
};

}  // namespace ge

#endif  // METADEF_INC_BASE_FILE_IO_H_
