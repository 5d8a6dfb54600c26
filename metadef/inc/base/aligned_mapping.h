// metadef/inc/base/aligned_mapping.h
//
// MapAligned: an anonymous private mapping that starts on a power-of-two
// boundary (e.g. 2 MiB, so that transparent huge pages can back it from its
// first byte). mmap gives page alignment only; this maps `bytes + align`,
// then returns the unaligned head and the tail beyond `bytes` to the
// system, so exactly [result, result + bytes) stays mapped.
//
// Used by the graph's small-object pool (read-write chunks) and the OM
// loader (a PROT_NONE reservation the file is then mapped over with
// MAP_FIXED). Not ABI-public (not under inc/external).
//
//   void* p = MapAligned(size_t{64} << 20, size_t{2} << 20, PROT_READ | PROT_WRITE, 0);
//   if (p == nullptr) ... errno says why ...
//   ... munmap(p, size_t{64} << 20) when done ...
#ifndef METADEF_INC_BASE_ALIGNED_MAPPING_H_
#define METADEF_INC_BASE_ALIGNED_MAPPING_H_

#include <cstddef>

namespace ge {

// The system's page size (sysconf; 4 KiB on x86-64, up to 64 KiB on
// arm64).
size_t SystemPageSize();

// `bytes` is rounded up to whole pages; `align` must be a power of two of at
// least the page size (else nullptr with errno EINVAL). `extra_flags` are
// or-ed into MAP_PRIVATE | MAP_ANONYMOUS (e.g. MAP_NORESERVE). nullptr with
// errno from mmap when the mapping fails, or EOVERFLOW when bytes + align
// overflows.
void* MapAligned(size_t bytes, size_t align, int prot, int extra_flags);

}  // namespace ge

#endif  // METADEF_INC_BASE_ALIGNED_MAPPING_H_
