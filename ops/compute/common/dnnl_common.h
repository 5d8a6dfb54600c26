// ops/compute/common/dnnl_common.h
//
// What every compute-engine (AIcoreEngine) kernel shares: the one oneDNN
// CPU engine and stream of the process, type and layout mapping between
// ge and oneDNN, a primitive prepared with its argument slots (executed
// through the C API over a fixed array, so a run allocates nothing), a
// one-off reorder for weights at Prepare, and conversion of oneDNN errors
// (exceptions) into Status.
//
// Layouts. A plain tensor (ND, NCHW, NCDHW, ...) maps to oneDNN's plain
// tags (a, ab, abc, abcd, ...); NHWC to acdb / NDHWC to acdeb; NC1HWC0
// with C0 = 16 to nChw16c (NDC1HWC0 to nCdhw16c). A kernel creates its
// primitive with its activations in the tensors' layouts and weights
// `format_tag::any`, then reorders the weights once (ReorderOnce).
//
// Threads: oneDNN runs on the OpenMP runtime it links (libgomp); the
// executor sets the intra-op thread count of the calling thread
// (SetIntraOpThreads) and our own threaded kernels use the same OpenMP pool
// (ParallelFor). There is never a second pool.
//
// Example (a kernel's Prepare / Run)
//   ASSIGN_OR_RETURN(dnnl::memory::desc src, PlainDesc(x->GetShape(), x->GetDataType()));
//   ... pd = dnnl::eltwise_forward::primitive_desc(...) ...
//   prim_.Init(dnnl::eltwise_forward(pd), pd.scratchpad_desc());
//   prim_.AddArg(DNNL_ARG_SRC, src); prim_.AddArg(DNNL_ARG_DST, dst);
//   // Run:
//   return prim_.Execute({x->GetAddr(), y->GetAddr()}, ctx.GetWorkspaces());
#ifndef OPS_COMPUTE_COMMON_DNNL_COMMON_H_
#define OPS_COMPUTE_COMMON_DNNL_COMMON_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "dnnl.hpp"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ops {
namespace compute {

// The process's oneDNN CPU engine and its stream (created on first use:
// at load, by the first Prepare).
dnnl::engine& CpuEngine();
dnnl::stream& CpuStream();

// Runs `f`, turning a dnnl::error into Internal naming `what`.
template <typename F>
ge::Status DnnlCall(const char* what, F&& f) {
  try {
    f();
  } catch (const dnnl::error& e) {
    return ge::Internal(what, ": oneDNN: ", e.what(), " (status ", static_cast<int>(e.status), ")");
  } catch (const std::exception& e) {
    return ge::Internal(what, ": ", e.what());
  }
  return ge::OkStatus();
}

// DT_FLOAT -> f32, DT_BF16 -> bf16, DT_FLOAT16 -> f16, DT_INT8 -> s8,
// DT_UINT8 -> u8, DT_INT32 -> s32; NotSupported otherwise.
ge::StatusOr<dnnl::memory::data_type> DnnlType(ge::DataType dt);
dnnl::memory::dims Dims(const gert::Shape& s);
// The plain row-major tag of a rank (1..6).
ge::StatusOr<dnnl::memory::format_tag> PlainTag(size_t rank);
// The tag of a tensor of `rank` logical dims (N, C, spatial...) stored in
// `format`: plain, NHWC / NDHWC (channels last), NC1HWC0 / NDC1HWC0 (C0 16).
ge::StatusOr<dnnl::memory::format_tag> TagOf(ge::Format format, size_t rank);
// A memory desc of a tensor in its own layout.
ge::StatusOr<dnnl::memory::desc> DescOf(const gert::Tensor& t);
ge::StatusOr<dnnl::memory::desc> PlainDesc(const gert::Shape& shape, ge::DataType dt);

// Whether the CPU has native BF16 dot products (AVX512_BF16 / AMX).
bool HasBf16();

// `t` when the node has that tensor (null for an absent optional one: no
// tensor, or DT_UNDEFINED).
inline const gert::Tensor* PresentTensor(const gert::Tensor* t) {
  return t == nullptr || t->GetDataType() == ge::DT_UNDEFINED ? nullptr : t;
}

// Element i of FLOAT or BF16 data, as float (parameters read at Prepare).
float ElementAsFloat(const void* data, ge::DataType dt, int64_t i);

// One primitive and its argument slots. Prepare: Init, then AddArg per
// argument (in the order Execute's handles come); arguments bound at
// Prepare (reordered weights) pass their buffer to AddArg. Run: Execute
// binds the handles and the scratchpad, then executes on CpuStream().
// Execute mutates the slots' handles: Runs of one prepared kernel are
// serialised by the executor (a model runs one Run at a time).
class PreparedPrimitive {
 public:
  // `scratchpad`: the primitive's user scratchpad (empty for none).
  ge::Status Init(dnnl::primitive prim, const dnnl::memory::desc& scratchpad);
  // Adds an argument; `fixed` (may be null) binds it now (weights).
  ge::Status AddArg(int dnnl_arg, const dnnl::memory::desc& md, const void* fixed = nullptr);
  // Bytes of scratchpad the primitive needs (its workspace 0).
  size_t scratchpad_bytes() const { return scratchpad_bytes_; }
  // handles[i] for the i-th argument added without `fixed`; workspaces[0]
  // must hold scratchpad_bytes() when that is non-zero.
  ge::Status Execute(absl::Span<const void* const> handles,
                     absl::Span<void* const> workspaces) const;
  bool initialized() const { return static_cast<bool>(prim_); }

 private:
  dnnl::primitive prim_;
  size_t scratchpad_bytes_ = 0;
  std::vector<dnnl::memory> mems_;  // per argument (scratchpad last when present)
  std::vector<int> unbound_;        // indices into args_ that Execute binds
  mutable std::vector<dnnl_exec_arg_t> args_;
};

// A 64-byte aligned buffer owned by a kernel (reordered weights).
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  static ge::StatusOr<AlignedBuffer> Allocate(size_t bytes);
  void* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, Free> data_;
  size_t size_ = 0;
};

// Reorders `src` (in layout `from`) into a new buffer of layout `to`, once.
ge::StatusOr<AlignedBuffer> ReorderOnce(const dnnl::memory::desc& from, const void* src,
                                        const dnnl::memory::desc& to);

// Sets the OpenMP thread count of the calling thread (oneDNN's and
// ParallelFor's); n <= 0 means the number of cores. Returns the count set.
int SetIntraOpThreads(int n);
int IntraOpThreads();

// Runs body(begin, end) over [0, n) split into chunks on the OpenMP pool of
// the calling thread (inline when n < grain or one thread).
void ParallelFor(int64_t n, int64_t grain, void (*body)(void* ctx, int64_t begin, int64_t end),
                 void* ctx);
template <typename F>
void ParallelFor(int64_t n, int64_t grain, F&& f) {
  ParallelFor(
      n, grain, [](void* c, int64_t b, int64_t e) { (*static_cast<F*>(c))(b, e); },
      static_cast<void*>(&f));
}

}  // namespace compute
}  // namespace ops

#endif  // OPS_COMPUTE_COMMON_DNNL_COMMON_H_
