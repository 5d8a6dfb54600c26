// metadef/inc/base/prefault.h
//
// PrefaultForWrite: maps in the pages of [data, data + bytes) writable in
// one system call (madvise MADV_POPULATE_WRITE, Linux 5.14+) instead of one
// page fault per 4 KiB page on first touch. On the build VM a fault's trap
// costs about as much as zeroing its page, so a loader populates a buffer
// of known size before filling it (the static executor's tensor views and
// per-task codes, the launch plan's decoded arrays). Pages already present
// are left alone; partial pages at either end are included.
//
// Best effort: false when the kernel does not support it or part of the
// range is not mapped; nothing is lost then (the pages fault in on first
// touch as usual). Not ABI-public.
//
//   std::vector<uint32_t> codes;
//   codes.reserve(n);
//   PrefaultForWrite(codes.data(), n * sizeof(uint32_t));
//   codes.resize(n);  // no page faults
#ifndef METADEF_INC_BASE_PREFAULT_H_
#define METADEF_INC_BASE_PREFAULT_H_

#include <cstddef>
#include <vector>

namespace ge {

bool PrefaultForWrite(void* data, size_t bytes);

// v->reserve(n) with the new capacity's pages populated (a vector about to
// grow to n elements).
template <typename T>
void ReservePrefaulted(std::vector<T>* v, size_t n) {
  if (n <= v->capacity()) return;
  v->reserve(n);
  PrefaultForWrite(v->data(), n * sizeof(T));
}

}  // namespace ge

#endif  // METADEF_INC_BASE_PREFAULT_H_
