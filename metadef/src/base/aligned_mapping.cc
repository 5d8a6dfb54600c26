// metadef/src/base/aligned_mapping.cc
#include "metadef/inc/base/aligned_mapping.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace ge {

size_t SystemPageSize() {
  static const size_t kPage = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  return kPage;
}

void* MapAligned(size_t bytes, size_t align, int prot, int extra_flags) {
  const size_t kPage = SystemPageSize();
  if (align < kPage || (align & (align - 1)) != 0) {
    errno = EINVAL;
    return nullptr;
  }
  if (bytes > SIZE_MAX - kPage - align) {
    errno = EOVERFLOW;
    return nullptr;
  }
  bytes = (bytes + kPage - 1) & ~(kPage - 1);
  const size_t map_bytes = bytes + align;
  void* m = ::mmap(nullptr, map_bytes, prot, MAP_PRIVATE | MAP_ANONYMOUS | extra_flags, -1, 0);
  if (m == MAP_FAILED) return nullptr;
  const uintptr_t base = reinterpret_cast<uintptr_t>(m);
  const uintptr_t aligned = (base + align - 1) & ~(uintptr_t{align} - 1);
  // Give back the unaligned head and the tail.
  if (aligned > base) ::munmap(m, aligned - base);
  const uintptr_t end = aligned + bytes;
  const uintptr_t map_end = base + map_bytes;
  if (map_end > end) ::munmap(reinterpret_cast<void*>(end), map_end - end);
  return reinterpret_cast<void*>(aligned);
}

}  // namespace ge
