// ops/nn/nn_util.h
//
// Helpers shared by the nn family (convolution, pooling, normalization,
// softmax, sampling) that are not in //ops/common:op_util:
//
//   Window attributes  ReadWindowSpec: auto_pad / kernel_shape / strides /
//                      dilations / pads / ceil_mode of Conv, ConvTranspose
//                      and the pools, validated for a spatial rank;
//                      ComputeWindowDim: one output dim and its effective pads
//                      (NOTSET, SAME_UPPER, SAME_LOWER, VALID, ceil_mode; -1
//                      input dims give -1).
//   Geometry           ConvGeometry: image / kernel / output positions of an
//                      N-d sliding window, with Im2Col (image -> columns) and
//                      Col2ImAdd (columns summed back into an image), shared
//                      by Conv, ConvTranspose, ConvInteger, QLinearConv and
//                      Col2Im.
//   GEMM               Gemm<T>: C (+)= A * B for row-major float / double /
//                      int32 matrices; cache-blocked with a 4 x 16 register
//                      tile (GCC vector extensions).
//   Compute buffers    ComputeInput<C> / ComputeOutput<C>: a tensor's
//                      elements as float or double, pointing at the tensor
//                      when its dtype already is C, otherwise converted
//                      (FLOAT16, BF16, FLOAT, DOUBLE, integers) into an
//                      owned buffer once per kernel call.
//   Registration       AttrInt / AttrFloat / AttrStr / AttrInts defaults,
//                      FloatTypes() and the other TensorType sets.
//   Kernel I/O         GetOptionalInput, PrepareOptionalOutput, CheckSameDtype.
//   Shapes             NnShape(dims) (checked rank), DimsStr ("[1,2]").
//
// Errors from helpers that see a context name the node; others carry no
// node prefix (wrap them with ops::WithNode).
//
// Example (a pooling infer shape)
//   ASSIGN_OR_RETURN(WindowSpec spec, ReadWindowSpec(ctx, x.GetDimNum() - 2, {}, opts));
//   for (size_t i = 0; i < spec.rank(); ++i) {
//     ASSIGN_OR_RETURN(WindowDim d, ComputeWindowDim(ctx, spec, i, x.GetDim(i + 2)));
//     y.AppendDim(d.out);
//   }
#ifndef OPS_NN_NN_UTIL_H_
#define OPS_NN_NN_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "ops/common/op_util.h"

namespace ops {
namespace nn {

// ============================================================ type sets

// FLOAT16, FLOAT, DOUBLE (ONNX "tensor(float16), tensor(float), tensor(double)").
ge::TensorType FloatTypes();
// FloatTypes() plus BF16.
ge::TensorType FloatTypesBf16();
// INT8, UINT8 (quantized convolution operands).
ge::TensorType QuantTypes();
// Every ONNX tensor type (DepthToSpace / SpaceToDepth).
ge::TensorType AllOnnxTypes();

// ============================================================ windows

enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };

// Window attributes of one node, for `rank()` spatial dims.
// Per-dim lists with inline storage for up to 8 spatial dims (16 pads), so
// kernels planning a window on the run path allocate nothing.
using DimVec = absl::InlinedVector<int64_t, 8>;
using PadVec = absl::InlinedVector<int64_t, 16>;

struct WindowSpec {
  AutoPad auto_pad = AutoPad::kNotSet;
  DimVec kernel;     // -1 when taken from an unknown weight dim
  DimVec strides;    // >= 1
  DimVec dilations;  // >= 1
  PadVec pads;       // 2 * rank(): begins then ends, >= 0
  bool ceil_mode = false;
  size_t rank() const { return kernel.size(); }
};

struct WindowSpecOptions {
  // kernel_shape is a required attribute (pools); otherwise it defaults to
  // `weight_kernel` (Conv: W's spatial dims).
  bool kernel_required = false;
  bool read_dilations = true;  // false: dilations are all 1 (AveragePool, LpPool)
  bool read_ceil_mode = false;
};

// Reads auto_pad, kernel_shape, strides, dilations, pads (and ceil_mode) for
// `nspatial` dims. Lists must have nspatial entries (pads 2 * nspatial);
// kernel dims and strides / dilations must be >= 1, pads >= 0. When the
// kernel_shape attribute is given and `weight_kernel` is known it must agree.
// Errors name the node, the attribute and its value.
ge::StatusOr<WindowSpec> ReadWindowSpec(const gert::ContextBase& ctx, size_t nspatial,
                                        absl::Span<const int64_t> weight_kernel,
                                        const WindowSpecOptions& options);

// Output size of spatial dim i and the pads the kernel applies there.
struct WindowDim {
  int64_t out = -1;
  int64_t pad_begin = 0;
  int64_t pad_end = 0;
};

// Output of spatial dim i for input size `in` (-1: unknown, giving -1):
//   NOTSET  floor((in + pb + pe - dk) / s) + 1   (ceil with ceil_mode; a
//           last window starting in the end padding is dropped, as PyTorch)
//   SAME_*  ceil(in / s), pads total max(0, (out - 1) * s + dk - in) split
//           begin = total / 2 (SAME_UPPER) or total - total / 2 (SAME_LOWER)
//   VALID   floor((in - dk) / s) + 1, no pads
// with dk = (k - 1) * d + 1. An output < 1 is ParamInvalid naming the dim.
ge::StatusOr<WindowDim> ComputeWindowDim(const gert::ContextBase& ctx, const WindowSpec& spec,
                                         size_t i, int64_t in);

// Ranges of a windowed op's output [N, channels, spatial...] from input X's
// range [N, C, spatial...]: N is copied, each spatial dim maps through
// ComputeWindowDim at both ends of its range (nondecreasing in the input
// size; a lower end too small for the window gives 1, the smallest valid
// output; an upper end too small is an error naming the node).
ge::StatusOr<gert::ShapeRange> WindowOutputRange(const gert::ContextBase& ctx,
                                                 const WindowSpec& spec,
                                                 const gert::ShapeRange& x_range,
                                                 std::pair<int64_t, int64_t> channels);

// ============================================================ geometry

// An N-d sliding window over an image of `channels` planes: output position
// o reads image position o * stride - pad_begin + k * dilation for kernel
// offset k (positions outside the image are padding).
struct ConvGeometry {
  DimVec image;  // spatial dims of the image
  DimVec kernel;
  DimVec strides;
  DimVec dilations;
  DimVec pad_begin;
  DimVec out;              // output positions per dim
  int64_t image_size = 1;  // products
  int64_t kernel_size = 1;
  int64_t out_size = 1;

  size_t rank() const { return image.size(); }
  // Recomputes the three products; Overflow when one does not fit.
  ge::Status Finalize();
  // A 1x1 kernel with stride 1 and no pads: columns == image.
  bool IsPointwise() const;
};

// cols[(c * kernel_size + k) * out_size + o] = image[c][position(o, k)] or
// pad_value outside the image; cols has channels * kernel_size * out_size
// elements.
template <typename T>
void Im2Col(const ConvGeometry& g, int64_t channels, const T* image, T pad_value, T* cols);

// Rows [p0, p0 + kc) and columns [j0, j0 + nc) of Im2Col's matrix for a
// 2-D geometry (pad value 0), written straight into GEMM panels of nr
// columns (ops::GemmPackBF32's layout): a convolution's GEMM packs its
// columns without the whole im2col matrix being written and read back.
void PackIm2Col2d(const ConvGeometry& g, const float* image, int64_t p0, int64_t kc, int64_t j0,
                  int64_t nc, int64_t nr, float* out);

// The transpose of Im2Col: image[c][position(o, k)] += cols[...] for every
// position inside the image.
template <typename T>
void Col2ImAdd(const ConvGeometry& g, int64_t channels, const T* cols, T* image);

extern template void Im2Col<float>(const ConvGeometry&, int64_t, const float*, float, float*);
extern template void Im2Col<double>(const ConvGeometry&, int64_t, const double*, double, double*);
extern template void Im2Col<int32_t>(const ConvGeometry&, int64_t, const int32_t*, int32_t,
                                     int32_t*);
extern template void Col2ImAdd<float>(const ConvGeometry&, int64_t, const float*, float*);
extern template void Col2ImAdd<double>(const ConvGeometry&, int64_t, const double*, double*);

// ============================================================ GEMM

// C[m x n] = A[m x k] * B[k x n] (+ C when accumulate), row-major with row
// strides lda / ldb / ldc. int32 arithmetic wraps (computed unsigned). A thin
// front of the shared packed GEMM (ops/common/gemm.h).
template <typename T>
void Gemm(int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb, T* c,
          int64_t ldc, bool accumulate);

extern template void Gemm<float>(int64_t, int64_t, int64_t, const float*, int64_t, const float*,
                                 int64_t, float*, int64_t, bool);
extern template void Gemm<double>(int64_t, int64_t, int64_t, const double*, int64_t, const double*,
                                  int64_t, double*, int64_t, bool);
extern template void Gemm<int32_t>(int64_t, int64_t, int64_t, const int32_t*, int64_t,
                                   const int32_t*, int64_t, int32_t*, int64_t, bool);

// ============================================================ buffers

// The elements of an input tensor as C (float or double).
template <typename C>
class ComputeInput {
 public:
  static_assert(std::is_same_v<C, float> || std::is_same_v<C, double>, "float or double");
  // t must have a known shape and data (ops::GetKernelInput checks that).
  // NotSupported for dtypes other than FLOAT16, BF16, FLOAT, DOUBLE and the
  // integer types.
  ge::Status Init(const gert::Tensor& t);
  const C* data() const { return ptr_; }
  int64_t size() const { return size_; }

 private:
  const C* ptr_ = nullptr;
  int64_t size_ = 0;
  std::vector<C> buf_;
};

// An output tensor written as C: data() points into the tensor when its dtype
// is C, else into a buffer that Commit() converts (round to nearest even for
// FLOAT16 / BF16; round half to even and saturate for integers).
template <typename C>
class ComputeOutput {
 public:
  static_assert(std::is_same_v<C, float> || std::is_same_v<C, double>, "float or double");
  ge::Status Init(gert::Tensor* t);
  C* data() { return ptr_; }
  int64_t size() const { return size_; }
  void Commit();

 private:
  gert::Tensor* t_ = nullptr;
  C* ptr_ = nullptr;
  int64_t size_ = 0;
  std::vector<C> buf_;
};

extern template class ComputeInput<float>;
extern template class ComputeInput<double>;
extern template class ComputeOutput<float>;
extern template class ComputeOutput<double>;

// Runs f(TypeTag<double>) for DOUBLE and f(TypeTag<float>) for every other
// dtype (the compute type of the nn kernels).
template <typename F>
ge::Status DispatchCompute(ge::DataType dt, F&& f) {
  if (dt == ge::DT_DOUBLE) return f(TypeTag<double>{});
  return f(TypeTag<float>{});
}

// ============================================================ registration

inline ge::AttrValue AttrInt(int64_t v) { return ge::AttrValue::CreateFrom<int64_t>(v); }
inline ge::AttrValue AttrFloat(float v) { return ge::AttrValue::CreateFrom<float>(v); }
inline ge::AttrValue AttrStr(std::string v) {
  return ge::AttrValue::CreateFrom<std::string>(std::move(v));
}
inline ge::AttrValue AttrInts(std::vector<int64_t> v = {}) {
  return ge::AttrValue::CreateFrom<std::vector<int64_t>>(std::move(v));
}

// ============================================================ kernel I/O

// Optional input i: nullptr when absent, otherwise validated like
// ops::GetKernelInput.
ge::StatusOr<const gert::Tensor*> GetOptionalInput(const gert::KernelContext& ctx, size_t i);
// Optional output i: nullptr when the node does not produce it, otherwise
// ops::PrepareOutput(ctx, i, shape, dtype).
ge::StatusOr<gert::Tensor*> PrepareOptionalOutput(gert::KernelContext& ctx, size_t i,
                                                  const gert::Shape& shape, ge::DataType dtype);
// Infer data type helper: inputs `indices` must share one dtype (DT_UNDEFINED
// entries are skipped); the error names both inputs and types.
ge::Status CheckSameDtype(const gert::InferShapeContext& ctx,
                          std::initializer_list<size_t> indices);

// ============================================================ shapes

// A gert::Shape from dims; ParamInvalid (naming the node) beyond kMaxDimNum.
ge::StatusOr<gert::Shape> NnShape(const gert::ContextBase& ctx, absl::Span<const int64_t> dims);
// "[1,2,3]" for messages.
std::string DimsStr(absl::Span<const int64_t> dims);

}  // namespace nn
}  // namespace ops

#endif  // OPS_NN_NN_UTIL_H_
