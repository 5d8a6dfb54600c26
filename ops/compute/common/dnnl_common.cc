// ops/compute/common/dnnl_common.cc
#include "ops/compute/common/dnnl_common.h"

#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"

// How many oneDNN primitive executes are running (any thread: oneDNN's
// OpenMP workers allocate inside the caller's execute too). oneDNN 2.6
// builds a std::unordered_map of a primitive's arguments on every execute
// (dnnl_primitive_execute), and its workers set up per-thread state on
// their first run; no public call avoids either. Run-path allocation tests
// (//metadef/register:alloc_counter) count those apart through this hook,
// so that every allocation outside the library still counts.
extern "C" int* ge_in_library_call() {
  static int depth = 0;
  return &depth;
}

namespace ops {
namespace compute {

dnnl::engine& CpuEngine() {
  static dnnl::engine* const e = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *e;
}

dnnl::stream& CpuStream() {
  static dnnl::stream* const s = new dnnl::stream(CpuEngine());
  return *s;
}

ge::StatusOr<dnnl::memory::data_type> DnnlType(ge::DataType dt) {
  using dt_t = dnnl::memory::data_type;
  switch (dt) {
    case ge::DT_FLOAT:
      return dt_t::f32;
    case ge::DT_BF16:
      return dt_t::bf16;
    case ge::DT_FLOAT16:
      return dt_t::f16;
    case ge::DT_INT8:
      return dt_t::s8;
    case ge::DT_UINT8:
      return dt_t::u8;
    case ge::DT_INT32:
      return dt_t::s32;
    default:
      return ge::NotSupported("data type ", static_cast<int>(dt), " has no oneDNN type");
  }
}

dnnl::memory::dims Dims(const gert::Shape& s) {
  dnnl::memory::dims d(s.GetDimNum());
  for (size_t i = 0; i < s.GetDimNum(); ++i) d[i] = s.GetDim(i);
  return d;
}

ge::StatusOr<dnnl::memory::format_tag> PlainTag(size_t rank) {
  using tag = dnnl::memory::format_tag;
  switch (rank) {
    case 0:
    case 1:
      return tag::a;
    case 2:
      return tag::ab;
    case 3:
      return tag::abc;
    case 4:
      return tag::abcd;
    case 5:
      return tag::abcde;
    case 6:
      return tag::abcdef;
    default:
      return ge::NotSupported("rank ", rank, " is beyond oneDNN's 6 dims");
  }
}

ge::StatusOr<dnnl::memory::format_tag> TagOf(ge::Format format, size_t rank) {
  using tag = dnnl::memory::format_tag;
  const ge::Format primary = static_cast<ge::Format>(ge::GetPrimaryFormat(format));
  switch (primary) {
    case ge::FORMAT_NHWC:
      if (rank == 4) return tag::acdb;
      break;
    case ge::FORMAT_NDHWC:
      if (rank == 5) return tag::acdeb;
      break;
    case ge::FORMAT_NC1HWC0:
      if (rank == 4) return tag::aBcd16b;
      if (rank == 3) return tag::aBc16b;
      break;
    default:
      return PlainTag(rank);
  }
  return ge::NotSupported("format ", static_cast<int>(primary), " with rank ", rank,
                          " has no oneDNN layout");
}

ge::StatusOr<dnnl::memory::desc> DescOf(const gert::Tensor& t) {
  ASSIGN_OR_RETURN(dnnl::memory::data_type dt, DnnlType(t.GetDataType()));
  ASSIGN_OR_RETURN(dnnl::memory::format_tag tag, TagOf(t.GetFormat(), t.GetShape().GetDimNum()));
  dnnl::memory::dims dims = Dims(t.GetShape());
  if (dims.empty()) dims = {1};
  return dnnl::memory::desc(dims, dt, tag);
}

ge::StatusOr<dnnl::memory::desc> PlainDesc(const gert::Shape& shape, ge::DataType dt) {
  ASSIGN_OR_RETURN(dnnl::memory::data_type t, DnnlType(dt));
  ASSIGN_OR_RETURN(dnnl::memory::format_tag tag, PlainTag(shape.GetDimNum()));
  dnnl::memory::dims dims = Dims(shape);
  if (dims.empty()) dims = {1};
  return dnnl::memory::desc(dims, t, tag);
}

bool HasBf16() {
  static const bool has = [] {
    const dnnl::cpu_isa isa = dnnl::get_effective_cpu_isa();
    return isa == dnnl::cpu_isa::avx512_core_bf16 || isa == dnnl::cpu_isa::avx512_core_amx;
  }();
  return has;
}

float ElementAsFloat(const void* data, ge::DataType dt, int64_t i) {
  if (dt != ge::DT_BF16) return static_cast<const float*>(data)[i];
  const uint32_t u = static_cast<uint32_t>(static_cast<const uint16_t*>(data)[i]) << 16;
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

// ------------------------------------------------------------ PreparedPrimitive

ge::Status PreparedPrimitive::Init(dnnl::primitive prim, const dnnl::memory::desc& scratchpad) {
  prim_ = std::move(prim);
  scratchpad_bytes_ = scratchpad.get_size();
  mems_.clear();
  unbound_.clear();
  args_.clear();
  if (scratchpad_bytes_ > 0) {
    return DnnlCall("scratchpad memory", [&] {
      mems_.emplace_back(scratchpad, CpuEngine(), static_cast<void*>(DNNL_MEMORY_NONE));
      args_.push_back(dnnl_exec_arg_t{DNNL_ARG_SCRATCHPAD, mems_.back().get()});
    });
  }
  return ge::OkStatus();
}

ge::Status PreparedPrimitive::AddArg(int dnnl_arg, const dnnl::memory::desc& md,
                                     const void* fixed) {
  return DnnlCall("primitive argument", [&] {
    mems_.emplace_back(
        md, CpuEngine(),
        fixed == nullptr ? static_cast<void*>(DNNL_MEMORY_NONE) : const_cast<void*>(fixed));
    if (fixed == nullptr) unbound_.push_back(static_cast<int>(args_.size()));
    args_.push_back(dnnl_exec_arg_t{dnnl_arg, mems_.back().get()});
  });
}

ge::Status PreparedPrimitive::Execute(absl::Span<const void* const> handles,
                                      absl::Span<void* const> workspaces) const {
  if (handles.size() != unbound_.size()) {
    return ge::Internal("primitive expects ", unbound_.size(), " buffers, got ", handles.size());
  }
  if (scratchpad_bytes_ > 0) {
    if (workspaces.empty() || workspaces[0] == nullptr) {
      return ge::Internal("primitive needs a ", scratchpad_bytes_, "-byte scratchpad and has none");
    }
    if (dnnl_memory_set_data_handle_v2(args_[0].memory, workspaces[0], nullptr) != dnnl_success) {
      return ge::Internal("cannot bind the scratchpad");
    }
  }
  for (size_t i = 0; i < handles.size(); ++i) {
    if (dnnl_memory_set_data_handle_v2(args_[unbound_[i]].memory, const_cast<void*>(handles[i]),
                                       nullptr) != dnnl_success) {
      return ge::Internal("cannot bind argument ", i);
    }
  }
  __atomic_add_fetch(ge_in_library_call(), 1, __ATOMIC_SEQ_CST);
  const dnnl_status_t st = dnnl_primitive_execute(prim_.get(), CpuStream().get(),
                                                  static_cast<int>(args_.size()), args_.data());
  __atomic_sub_fetch(ge_in_library_call(), 1, __ATOMIC_SEQ_CST);
  if (st != dnnl_success)
    return ge::Internal("oneDNN execute failed (status ", static_cast<int>(st), ")");
  return ge::OkStatus();
}

// ------------------------------------------------------------ buffers

void AlignedBuffer::Free::operator()(void* p) const { std::free(p); }

ge::StatusOr<AlignedBuffer> AlignedBuffer::Allocate(size_t bytes) {
  AlignedBuffer b;
  const size_t rounded = (bytes + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
  if (p == nullptr) return ge::MemoryAllocFailed("cannot allocate ", bytes, " bytes");
  b.data_.reset(p);
  b.size_ = bytes;
  return b;
}

// The kernel keeps the reordered copy: the source's whole pages go back to
// the system (a mapped model file's pages are reclaimed; they would be read
// from the file again if anything touched them; anonymous memory without
// swap stays as it is). The data is unchanged either way.
void ReleasePages(const void* p, size_t bytes) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + page - 1) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) / page * page;
#ifdef MADV_PAGEOUT
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_PAGEOUT);
#endif
}

ge::StatusOr<AlignedBuffer> ReorderOnce(const dnnl::memory::desc& from, const void* src,
                                        const dnnl::memory::desc& to) {
  ASSIGN_OR_RETURN(AlignedBuffer out, AlignedBuffer::Allocate(to.get_size()));
  if (from == to) {
    std::memcpy(out.data(), src, to.get_size());
    return out;
  }
  RETURN_IF_ERROR(DnnlCall("weight reorder", [&] {
    dnnl::memory a(from, CpuEngine(), const_cast<void*>(src));
    dnnl::memory b(to, CpuEngine(), out.data());
    dnnl::reorder(a, b).execute(CpuStream(), a, b);
    CpuStream().wait();
  }));
  ReleasePages(src, from.get_size());
  return out;
}

// ------------------------------------------------------------ threads

int SetIntraOpThreads(int n) {
  if (n <= 0) n = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  if (n <= 0) n = 1;
  if (omp_get_max_threads() != n) omp_set_num_threads(n);
  return n;
}

int IntraOpThreads() { return omp_get_max_threads(); }

void ParallelFor(int64_t n, int64_t grain, void (*body)(void* ctx, int64_t begin, int64_t end),
                 void* ctx) {
  if (n <= 0) return;
  const int threads = omp_get_max_threads();
  if (threads <= 1 || n < 2 * grain || omp_in_parallel()) {
    body(ctx, 0, n);
    return;
  }
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const int nt = omp_get_num_threads();
    const int64_t chunk = (n + nt - 1) / nt;
    const int64_t b = chunk * t;
    const int64_t e = b + chunk < n ? b + chunk : n;
    if (b < e) body(ctx, b, e);
  }
}

}  // namespace compute
}  // namespace ops
