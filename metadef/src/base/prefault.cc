// metadef/src/base/prefault.cc
#include "metadef/inc/base/prefault.h"

#include <sys/mman.h>

#include <cstdint>

#include "metadef/inc/base/aligned_mapping.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

namespace ge {
namespace {

// Buffers below this are left to fault in: a call costs about a fault.
constexpr size_t kMinBytes = size_t{16} << 10;

}  // namespace

bool PrefaultForWrite(void* data, size_t bytes) {
  if (data == nullptr || bytes < kMinBytes) return false;
  const uintptr_t page = SystemPageSize();
  const uintptr_t begin = reinterpret_cast<uintptr_t>(data) & ~(page - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes + page - 1) & ~(page - 1);
  return ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE) == 0;
}

}  // namespace ge
