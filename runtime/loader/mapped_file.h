// runtime/loader/mapped_file.h
//
// MappedFile: a whole file memory-mapped read-only (mmap PROT_READ,
// MAP_PRIVATE), the owner of the weights of a model loaded from an OM file
// (GeModel::weights.owner holds it, so the mapping lives as long as any
// model uses it). AlignedBytes: a heap copy of caller bytes with the same
// role for Model::LoadFromBytes (4096-byte aligned, like a mapping).
//
// Contract
//   * Open fails with NotFound (no such file), IoError (open / fstat / mmap
//     failure, not a regular file) naming the path and the OS error. An empty
//     file maps to an empty span (no mapping).
//   * The mapping is unmapped (and the file closed) when the last shared_ptr
//     goes away.
//   * The mapping is 2 MiB-aligned with MADV_HUGEPAGE (files of 2 MiB or
//     more) and is not prefaulted: pages are mapped on first touch, so a
//     loader that reads the file with ReadAt leaves the weights' first touch
//     to the first run that reads them.
//   * A file truncated by another process while mapped can fault on access
//     (SIGBUS); OM files are written atomically (rename), which never does
//     that to an open mapping.
//
// Example
//   ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> f, MappedFile::Open(path));
//   ASSIGN_OR_RETURN(GeRootModelPtr m, LoadGeRootModelFromOm(f->bytes(), f));
#ifndef RUNTIME_LOADER_MAPPED_FILE_H_
#define RUNTIME_LOADER_MAPPED_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class MappedFile {
 public:
  static StatusOr<std::shared_ptr<const MappedFile>> Open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  absl::Span<const uint8_t> bytes() const { return {data_, size_}; }
  const std::string& path() const { return path_; }
  // The open file (read-only), for reading the same bytes with pread
  // (ReadAt), e.g. to hash them without touching the mapping.
  // Fills `out` with the file's bytes at [offset, offset + out.size());
  // IoError naming the path on a failed or short read.
  Status ReadAt(uint64_t offset, absl::Span<uint8_t> out) const;

 private:
  MappedFile(std::string path, int fd, const uint8_t* data, size_t size)
      : path_(std::move(path)), fd_(fd), data_(data), size_(size) {}
  std::string path_;
  int fd_ = -1;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// A page-aligned heap copy of `bytes`.
class AlignedBytes {
 public:
  static StatusOr<std::shared_ptr<const AlignedBytes>> Copy(absl::string_view bytes);
  ~AlignedBytes();
  AlignedBytes(const AlignedBytes&) = delete;
  AlignedBytes& operator=(const AlignedBytes&) = delete;

  absl::Span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  AlignedBytes(uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace ge

#endif  // RUNTIME_LOADER_MAPPED_FILE_H_
