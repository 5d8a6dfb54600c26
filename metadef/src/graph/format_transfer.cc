// metadef/src/graph/format_transfer.cc
//
// Implementation of format_transfer.h: blocked (physical) shapes and the data
// reordering between plain and blocked formats.
//
// Design
//   * Every supported pair is one `Pair` value; a transfer is a pair plus a
//     direction (plain -> blocked is "forward").
//   * Shapes: BlockedShape() maps a logical shape to the physical one. The
//     reverse direction of TransferShape is NotSupported, as in GE: the
//     logical C (or N, H, W) cannot be recovered from the padded blocked dims.
//     TransferFormat's reverse direction therefore takes the logical shape
//     from TransArgs::dst_shape and checks it against src_shape by running
//     BlockedShape() on it.
//   * Data: each kernel walks the blocks of the blocked tensor and moves one
//     block with Copy2D(), a strided 2-D copy templated on the element size
//     (1, 2, 4, 8, 16 bytes): memcpy of rows when both sides are contiguous;
//     a tiled transpose when each side is contiguous along the other's
//     strided axis (NCHW <-> NC1HWC0 is one per (n, c1)), done in SSE2
//     register blocks (8x8 for 2-byte, 4x4 for 4-byte, 2x2 for 8-byte
//     elements) with scalar edges; element-wise copy otherwise. Scalar moves
//     use fixed-size memcpy (alias- and alignment-safe; compiles to plain
//     loads / stores). Indices are computed with multiplications only.
//   * Forward kernels write every output byte (data or zero padding) block by
//     block, so the output is never zero-filled up front and a reused `out`
//     vector costs no extra pass; only blocks with padded columns are cleared
//     (whole, while hot in cache) before their data is copied in.
//   * `out` must not alias `args.data`.
#include "metadef/inc/external/graph/format_transfer.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

// N0 of FRACTAL_Z and H0 of FRACTAL_NZ.
constexpr int64_t kCubeSize = 16;

enum class Pair {
  kNchwNc1hwc0,
  kNhwcNc1hwc0,
  kNchwFractalZ,
  kHwcnFractalZ,
  kNdFractalNz,
  kNcdhwNdc1hwc0,
};

struct PairInfo {
  Format plain;
  Format blocked;
  Pair pair;
};

constexpr PairInfo kPairs[] = {
    {FORMAT_NCHW, FORMAT_NC1HWC0, Pair::kNchwNc1hwc0},
    {FORMAT_NHWC, FORMAT_NC1HWC0, Pair::kNhwcNc1hwc0},
    {FORMAT_NCHW, FORMAT_FRACTAL_Z, Pair::kNchwFractalZ},
    {FORMAT_HWCN, FORMAT_FRACTAL_Z, Pair::kHwcnFractalZ},
    {FORMAT_ND, FORMAT_FRACTAL_NZ, Pair::kNdFractalNz},
    {FORMAT_NCDHW, FORMAT_NDC1HWC0, Pair::kNcdhwNdc1hwc0},
};

struct Transfer {
  Pair pair;
  bool forward;  // plain -> blocked
};

// A FRACTAL_Z with a sub-format > 1 is GE's grouped-convolution layout, which
// is a different arrangement; it is not supported here.
bool IsGroupedBlocked(int32_t format) {
  return GetPrimaryFormat(format) == FORMAT_FRACTAL_Z && GetSubFormat(format) > 1;
}

// The supported transfer between two (packed) formats, if any.
bool FindTransfer(int32_t src_format, int32_t dst_format, Transfer* transfer) {
  const int32_t src = GetPrimaryFormat(src_format);
  const int32_t dst = GetPrimaryFormat(dst_format);
  for (const PairInfo& info : kPairs) {
    if (src == info.plain && dst == info.blocked) {
      if (IsGroupedBlocked(dst_format)) return false;
      *transfer = {info.pair, true};
      return true;
    }
    if (src == info.blocked && dst == info.plain) {
      if (IsGroupedBlocked(src_format)) return false;
      *transfer = {info.pair, false};
      return true;
    }
  }
  return false;
}

std::string FormatName(int32_t format) { return TypeUtils::FormatToSerialString(format); }

std::string ShapeString(const std::vector<int64_t>& dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

// ---- Dim arithmetic with unknown (-1) propagation. ----

int64_t CeilDivDim(int64_t dim, int64_t block) {
  if (dim == UNKNOWN_DIM) return UNKNOWN_DIM;
  return dim / block + (dim % block != 0 ? 1 : 0);
}

StatusOr<int64_t> MulDim(int64_t a, int64_t b) {
  if (a == UNKNOWN_DIM || b == UNKNOWN_DIM) return UNKNOWN_DIM;
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) {
    return Overflow("dim product ", a, " * ", b, " overflows int64");
  }
  return product;
}

StatusOr<int64_t> CheckedMul(int64_t a, int64_t b, absl::string_view what) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) {
    return Overflow(what, " overflows int64 (", a, " * ", b, ")");
  }
  return product;
}

// Dims must be >= 0 or -1 (unknown).
Status CheckDims(const std::vector<int64_t>& dims) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < UNKNOWN_DIM) {
      return ParamInvalid("dim ", i, " is ", dims[i], "; dims must be >= 0 or -1 (unknown)");
    }
  }
  return OkStatus();
}

Status CheckRank(const std::vector<int64_t>& dims, size_t rank, int32_t format) {
  if (dims.size() != rank) {
    return ParamInvalid(FormatName(format), " needs rank ", rank, ", got rank ", dims.size());
  }
  return OkStatus();
}

// Logical dims must all be known for a data transfer.
Status CheckKnown(const std::vector<int64_t>& dims, absl::string_view what) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      return ParamInvalid(what, " ", ShapeString(dims), " has dim ", i, " = ", dims[i],
                          "; data transfer needs a known shape");
    }
  }
  return OkStatus();
}

StatusOr<int64_t> ElementCount(const std::vector<int64_t>& dims, absl::string_view what) {
  int64_t count = 1;
  for (int64_t d : dims) {
    if (__builtin_mul_overflow(count, d, &count)) {
      return Overflow("element count of ", what, " ", ShapeString(dims), " overflows int64");
    }
  }
  return count;
}

// C0 for a transfer: the one packed in the blocked format, else by data type.
StatusOr<int64_t> ResolveC0(int32_t blocked_format, DataType data_type) {
  const int64_t packed = GetC0Value(blocked_format);
  if (packed > 0) return packed;
  return GetCubeC0(data_type);
}

// Physical shape of the logical `dims` (in the pair's plain format).
StatusOr<std::vector<int64_t>> BlockedShape(Pair pair, int64_t c0,
                                            const std::vector<int64_t>& dims) {
  RETURN_IF_ERROR(CheckDims(dims));
  switch (pair) {
    case Pair::kNchwNc1hwc0: {
      RETURN_IF_ERROR(CheckRank(dims, 4, FORMAT_NCHW));
      return std::vector<int64_t>{dims[0], CeilDivDim(dims[1], c0), dims[2], dims[3], c0};
    }
    case Pair::kNhwcNc1hwc0: {
      RETURN_IF_ERROR(CheckRank(dims, 4, FORMAT_NHWC));
      return std::vector<int64_t>{dims[0], CeilDivDim(dims[3], c0), dims[1], dims[2], c0};
    }
    case Pair::kNchwFractalZ:
    case Pair::kHwcnFractalZ: {
      const bool nchw = pair == Pair::kNchwFractalZ;
      RETURN_IF_ERROR(CheckRank(dims, 4, nchw ? FORMAT_NCHW : FORMAT_HWCN));
      const int64_t n = nchw ? dims[0] : dims[3];
      const int64_t c = nchw ? dims[1] : dims[2];
      const int64_t h = nchw ? dims[2] : dims[0];
      const int64_t w = nchw ? dims[3] : dims[1];
      ASSIGN_OR_RETURN(int64_t c1h, MulDim(CeilDivDim(c, c0), h));
      ASSIGN_OR_RETURN(int64_t c1hw, MulDim(c1h, w));
      return std::vector<int64_t>{c1hw, CeilDivDim(n, kCubeSize), kCubeSize, c0};
    }
    case Pair::kNdFractalNz: {
      if (dims.empty()) {
        return ParamInvalid("ND -> FRACTAL_NZ needs rank >= 1, got rank 0");
      }
      std::vector<int64_t> out;
      out.reserve(dims.size() + 2);
      int64_t h = 1;
      if (dims.size() >= 2) {
        out.assign(dims.begin(), dims.end() - 2);
        h = dims[dims.size() - 2];
      }
      const int64_t w = dims.back();
      out.push_back(CeilDivDim(w, c0));
      out.push_back(CeilDivDim(h, kCubeSize));
      out.push_back(kCubeSize);
      out.push_back(c0);
      return out;
    }
    case Pair::kNcdhwNdc1hwc0: {
      RETURN_IF_ERROR(CheckRank(dims, 5, FORMAT_NCDHW));
      return std::vector<int64_t>{dims[0], dims[2], CeilDivDim(dims[1], c0), dims[3], dims[4], c0};
    }
  }
  return Internal("unknown format pair ", static_cast<int>(pair));
}

// ---- Data kernels. Strides and counts are in elements. ----

template <size_t S>
inline void CopyElem(uint8_t* dst, const uint8_t* src) {
  std::memcpy(dst, src, S);
}

inline size_t Bytes(int64_t elements, size_t elem_size) {
  return static_cast<size_t>(elements) * elem_size;
}

// dst[r * drs + c * dcs] = src[r * srs + c * scs] for r < rows, c < cols,
// element by element, in tiles of columns so that the strided side of a tile
// stays within a few cache lines while the rows of the tile are walked.
template <size_t S>
void Copy2DScalar(const uint8_t* src, int64_t srs, int64_t scs, uint8_t* dst, int64_t drs,
                  int64_t dcs, int64_t rows, int64_t cols) {
  constexpr int64_t kTile = 16;
  const size_t src_step = Bytes(scs, S);
  const size_t dst_step = Bytes(dcs, S);
  for (int64_t c_begin = 0; c_begin < cols; c_begin += kTile) {
    const int64_t c_count = std::min(kTile, cols - c_begin);
    for (int64_t r = 0; r < rows; ++r) {
      const uint8_t* s = src + Bytes(r * srs + c_begin * scs, S);
      uint8_t* d = dst + Bytes(r * drs + c_begin * dcs, S);
      for (int64_t c = 0; c < c_count; ++c) {
        CopyElem<S>(d, s);
        s += src_step;
        d += dst_step;
      }
    }
  }
}

// Transposes one kBlock x kBlock block of S-byte elements:
// dst[r * drs + c] = src[r + c * scs] for r, c < kBlock. Only defined (with
// kBlock > 1) where SSE2 is available; see TransposeTraits.
template <size_t S>
struct TransposeTraits {
  static constexpr int64_t kBlock = 1;
  static void Block(const uint8_t*, int64_t, uint8_t*, int64_t) {}
};

#if defined(__SSE2__)
template <>
struct TransposeTraits<2> {
  static constexpr int64_t kBlock = 8;
  static void Block(const uint8_t* src, int64_t scs, uint8_t* dst, int64_t drs) {
    const size_t ss = Bytes(scs, 2);
    const size_t ds = Bytes(drs, 2);
    const __m128i a0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
    const __m128i a1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + ss));
    const __m128i a2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * ss));
    const __m128i a3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 3 * ss));
    const __m128i a4 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 4 * ss));
    const __m128i a5 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 5 * ss));
    const __m128i a6 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 6 * ss));
    const __m128i a7 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 7 * ss));
    const __m128i b0 = _mm_unpacklo_epi16(a0, a1);
    const __m128i b1 = _mm_unpackhi_epi16(a0, a1);
    const __m128i b2 = _mm_unpacklo_epi16(a2, a3);
    const __m128i b3 = _mm_unpackhi_epi16(a2, a3);
    const __m128i b4 = _mm_unpacklo_epi16(a4, a5);
    const __m128i b5 = _mm_unpackhi_epi16(a4, a5);
    const __m128i b6 = _mm_unpacklo_epi16(a6, a7);
    const __m128i b7 = _mm_unpackhi_epi16(a6, a7);
    const __m128i c0 = _mm_unpacklo_epi32(b0, b2);
    const __m128i c1 = _mm_unpackhi_epi32(b0, b2);
    const __m128i c2 = _mm_unpacklo_epi32(b1, b3);
    const __m128i c3 = _mm_unpackhi_epi32(b1, b3);
    const __m128i c4 = _mm_unpacklo_epi32(b4, b6);
    const __m128i c5 = _mm_unpackhi_epi32(b4, b6);
    const __m128i c6 = _mm_unpacklo_epi32(b5, b7);
    const __m128i c7 = _mm_unpackhi_epi32(b5, b7);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_unpacklo_epi64(c0, c4));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + ds), _mm_unpackhi_epi64(c0, c4));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 2 * ds), _mm_unpacklo_epi64(c1, c5));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 3 * ds), _mm_unpackhi_epi64(c1, c5));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 4 * ds), _mm_unpacklo_epi64(c2, c6));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 5 * ds), _mm_unpackhi_epi64(c2, c6));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 6 * ds), _mm_unpacklo_epi64(c3, c7));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 7 * ds), _mm_unpackhi_epi64(c3, c7));
  }
};

template <>
struct TransposeTraits<4> {
  static constexpr int64_t kBlock = 4;
  static void Block(const uint8_t* src, int64_t scs, uint8_t* dst, int64_t drs) {
    const size_t ss = Bytes(scs, 4);
    const size_t ds = Bytes(drs, 4);
    const __m128i a0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
    const __m128i a1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + ss));
    const __m128i a2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * ss));
    const __m128i a3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 3 * ss));
    const __m128i t0 = _mm_unpacklo_epi32(a0, a1);
    const __m128i t1 = _mm_unpacklo_epi32(a2, a3);
    const __m128i t2 = _mm_unpackhi_epi32(a0, a1);
    const __m128i t3 = _mm_unpackhi_epi32(a2, a3);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_unpacklo_epi64(t0, t1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + ds), _mm_unpackhi_epi64(t0, t1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 2 * ds), _mm_unpacklo_epi64(t2, t3));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 3 * ds), _mm_unpackhi_epi64(t2, t3));
  }
};

template <>
struct TransposeTraits<8> {
  static constexpr int64_t kBlock = 2;
  static void Block(const uint8_t* src, int64_t scs, uint8_t* dst, int64_t drs) {
    const __m128i a0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
    const __m128i a1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + Bytes(scs, 8)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_unpacklo_epi64(a0, a1));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + Bytes(drs, 8)), _mm_unpackhi_epi64(a0, a1));
  }
};
#endif  // __SSE2__

// dst[r * drs + c] = src[r + c * scs]: a transpose. Vector blocks where the
// element size has a TransposeTraits block, scalar edges.
template <size_t S>
void Transpose(const uint8_t* src, int64_t scs, uint8_t* dst, int64_t drs, int64_t rows,
               int64_t cols) {
  using Traits = TransposeTraits<S>;
  constexpr int64_t kBlock = Traits::kBlock;
  if (kBlock == 1 || rows < kBlock || cols < kBlock) {
    Copy2DScalar<S>(src, 1, scs, dst, drs, 1, rows, cols);
    return;
  }
  // Tiles of columns: the rows of the tile are read from a few cache lines of
  // each of the tile's source rows.
  constexpr int64_t kTile = 16 * kBlock;
  const int64_t rows_v = rows - rows % kBlock;
  const int64_t cols_v = cols - cols % kBlock;
  for (int64_t c_begin = 0; c_begin < cols_v; c_begin += kTile) {
    const int64_t c_end = std::min(cols_v, c_begin + kTile);
    for (int64_t r = 0; r < rows_v; r += kBlock) {
      for (int64_t c = c_begin; c < c_end; c += kBlock) {
        Traits::Block(src + Bytes(r + c * scs, S), scs, dst + Bytes(r * drs + c, S), drs);
      }
    }
  }
  // Edges: the last rows (all columns), then the last columns of the others.
  Copy2DScalar<S>(src + Bytes(rows_v, S), 1, scs, dst + Bytes(rows_v * drs, S), drs, 1,
                  rows - rows_v, cols);
  Copy2DScalar<S>(src + Bytes(cols_v * scs, S), 1, scs, dst + Bytes(cols_v, S), drs, 1, rows_v,
                  cols - cols_v);
}

// dst[r * drs + c * dcs] = src[r * srs + c * scs] for r < rows, c < cols.
template <size_t S>
void Copy2D(const uint8_t* src, int64_t srs, int64_t scs, uint8_t* dst, int64_t drs, int64_t dcs,
            int64_t rows, int64_t cols) {
  if (rows <= 0 || cols <= 0) return;
  if (scs == 1 && dcs == 1) {
    const size_t run = Bytes(cols, S);
    for (int64_t r = 0; r < rows; ++r) {
      std::memcpy(dst + Bytes(r * drs, S), src + Bytes(r * srs, S), run);
    }
    return;
  }
  if (srs == 1 && dcs == 1) {
    Transpose<S>(src, scs, dst, drs, rows, cols);
    return;
  }
  Copy2DScalar<S>(src, srs, scs, dst, drs, dcs, rows, cols);
}

// Zero padding of a block of `total_rows` rows of `row_len` elements whose
// first `valid_rows` rows will hold `valid_cols` data elements; called before
// the data is copied in. A block with padded columns is cleared whole with one
// memset (the data then overwrites it): much cheaper than a short memset per
// row, and the block is still in cache when the data arrives.
template <size_t S>
void ZeroPadding(uint8_t* block, int64_t valid_rows, int64_t total_rows, int64_t row_len,
                 int64_t valid_cols) {
  if (valid_cols < row_len) {
    std::memset(block, 0, Bytes(total_rows * row_len, S));
  } else if (valid_rows < total_rows) {
    std::memset(block + Bytes(valid_rows * row_len, S), 0,
                Bytes((total_rows - valid_rows) * row_len, S));
  }
}

// NCDHW <-> N D C1 HW C0 (D == 1 gives NCHW <-> NC1HWC0).
template <size_t S>
void NcdhwBlocked(bool forward, const uint8_t* src, uint8_t* dst, int64_t n_dim, int64_t c_dim,
                  int64_t d_dim, int64_t hw, int64_t c0) {
  const int64_t c1_dim = CeilDivDim(c_dim, c0);
  const int64_t dhw = d_dim * hw;
  for (int64_t n = 0; n < n_dim; ++n) {
    for (int64_t d = 0; d < d_dim; ++d) {
      for (int64_t c1 = 0; c1 < c1_dim; ++c1) {
        const int64_t c_begin = c1 * c0;
        const int64_t c_count = std::min(c0, c_dim - c_begin);
        const int64_t blocked = ((n * d_dim + d) * c1_dim + c1) * hw * c0;
        const int64_t plain = (n * c_dim + c_begin) * dhw + d * hw;
        if (forward) {
          uint8_t* block = dst + Bytes(blocked, S);
          ZeroPadding<S>(block, hw, hw, c0, c_count);
          // block[hw * C0 + c] = src[c * DHW + hw]
          Copy2D<S>(src + Bytes(plain, S), 1, dhw, block, c0, 1, hw, c_count);
        } else {
          // dst[c * DHW + hw] = block[hw * C0 + c]
          Copy2D<S>(src + Bytes(blocked, S), 1, c0, dst + Bytes(plain, S), dhw, 1, c_count, hw);
        }
      }
    }
  }
}

// NHWC <-> NC1HWC0.
template <size_t S>
void NhwcNc1hwc0(bool forward, const uint8_t* src, uint8_t* dst, int64_t n_dim, int64_t hw,
                 int64_t c_dim, int64_t c0) {
  const int64_t c1_dim = CeilDivDim(c_dim, c0);
  for (int64_t n = 0; n < n_dim; ++n) {
    for (int64_t c1 = 0; c1 < c1_dim; ++c1) {
      const int64_t c_begin = c1 * c0;
      const int64_t c_count = std::min(c0, c_dim - c_begin);
      const int64_t blocked = (n * c1_dim + c1) * hw * c0;
      const int64_t plain = n * hw * c_dim + c_begin;
      if (forward) {
        uint8_t* block = dst + Bytes(blocked, S);
        ZeroPadding<S>(block, hw, hw, c0, c_count);
        Copy2D<S>(src + Bytes(plain, S), c_dim, 1, block, c0, 1, hw, c_count);
      } else {
        Copy2D<S>(src + Bytes(blocked, S), c0, 1, dst + Bytes(plain, S), c_dim, 1, hw, c_count);
      }
    }
  }
}

// NCHW / HWCN <-> FRACTAL_Z {C1 * HW, N1, 16, C0}.
template <size_t S>
void FractalZ(bool forward, bool nchw, const uint8_t* src, uint8_t* dst, int64_t n_dim,
              int64_t c_dim, int64_t hw_dim, int64_t c0) {
  const int64_t c1_dim = CeilDivDim(c_dim, c0);
  const int64_t n_pad = CeilDivDim(n_dim, kCubeSize) * kCubeSize;
  // Strides of n and c in the plain tensor, and the offset of (c, hw).
  const int64_t n_stride = nchw ? c_dim * hw_dim : 1;
  const int64_t c_stride = nchw ? hw_dim : n_dim;
  for (int64_t c1 = 0; c1 < c1_dim; ++c1) {
    const int64_t c_begin = c1 * c0;
    const int64_t c_count = std::min(c0, c_dim - c_begin);
    for (int64_t hw = 0; hw < hw_dim; ++hw) {
      const int64_t blocked = (c1 * hw_dim + hw) * n_pad * c0;
      const int64_t plain = nchw ? c_begin * hw_dim + hw : (hw * c_dim + c_begin) * n_dim;
      // block[n * C0 + c] <-> plain[n * n_stride + c * c_stride]
      if (forward) {
        uint8_t* block = dst + Bytes(blocked, S);
        ZeroPadding<S>(block, n_dim, n_pad, c0, c_count);
        Copy2D<S>(src + Bytes(plain, S), n_stride, c_stride, block, c0, 1, n_dim, c_count);
      } else {
        Copy2D<S>(src + Bytes(blocked, S), 1, c0, dst + Bytes(plain, S), c_stride, n_stride,
                  c_count, n_dim);
      }
    }
  }
}

// ND {B..., H, W} <-> FRACTAL_NZ {B..., W1, H1, 16, C0}.
template <size_t S>
void FractalNz(bool forward, const uint8_t* src, uint8_t* dst, int64_t batch, int64_t h_dim,
               int64_t w_dim, int64_t c0) {
  const int64_t w1_dim = CeilDivDim(w_dim, c0);
  const int64_t h_pad = CeilDivDim(h_dim, kCubeSize) * kCubeSize;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t w1 = 0; w1 < w1_dim; ++w1) {
      const int64_t w_begin = w1 * c0;
      const int64_t w_count = std::min(c0, w_dim - w_begin);
      const int64_t blocked = (b * w1_dim + w1) * h_pad * c0;
      const int64_t plain = b * h_dim * w_dim + w_begin;
      if (forward) {
        uint8_t* block = dst + Bytes(blocked, S);
        ZeroPadding<S>(block, h_dim, h_pad, c0, w_count);
        Copy2D<S>(src + Bytes(plain, S), w_dim, 1, block, c0, 1, h_dim, w_count);
      } else {
        Copy2D<S>(src + Bytes(blocked, S), c0, 1, dst + Bytes(plain, S), w_dim, 1, h_dim, w_count);
      }
    }
  }
}

// Runs the kernel for `transfer`; `plain` is the logical shape (already
// validated against the pair's rank and known).
template <size_t S>
void RunKernel(const Transfer& transfer, const std::vector<int64_t>& plain, int64_t c0,
               const uint8_t* src, uint8_t* dst) {
  const bool fwd = transfer.forward;
  switch (transfer.pair) {
    case Pair::kNchwNc1hwc0:
      NcdhwBlocked<S>(fwd, src, dst, plain[0], plain[1], 1, plain[2] * plain[3], c0);
      return;
    case Pair::kNcdhwNdc1hwc0:
      NcdhwBlocked<S>(fwd, src, dst, plain[0], plain[1], plain[2], plain[3] * plain[4], c0);
      return;
    case Pair::kNhwcNc1hwc0:
      NhwcNc1hwc0<S>(fwd, src, dst, plain[0], plain[1] * plain[2], plain[3], c0);
      return;
    case Pair::kNchwFractalZ:
      FractalZ<S>(fwd, true, src, dst, plain[0], plain[1], plain[2] * plain[3], c0);
      return;
    case Pair::kHwcnFractalZ:
      FractalZ<S>(fwd, false, src, dst, plain[3], plain[2], plain[0] * plain[1], c0);
      return;
    case Pair::kNdFractalNz: {
      int64_t batch = 1;
      int64_t h = 1;
      if (plain.size() >= 2) {
        for (size_t i = 0; i + 2 < plain.size(); ++i) batch *= plain[i];
        h = plain[plain.size() - 2];
      }
      FractalNz<S>(fwd, src, dst, batch, h, plain.back(), c0);
      return;
    }
  }
}

Status TransferFormatImpl(const TransArgs& args, std::vector<uint8_t>* out) {
  if (out == nullptr) return ParamInvalid("output vector is null");
  ASSIGN_OR_RETURN(const int64_t bits, TypeUtils::GetSizeInBits(args.src_data_type));
  if (bits <= 0 || bits % 8 != 0) {
    return NotSupported("data type ", TypeUtils::DataTypeToSerialString(args.src_data_type), " (",
                        bits, " bits) is not byte-addressable");
  }
  const int64_t elem_size = bits / 8;

  RETURN_IF_ERROR(CheckKnown(args.src_shape, "src_shape"));
  ASSIGN_OR_RETURN(const int64_t src_count, ElementCount(args.src_shape, "src_shape"));
  ASSIGN_OR_RETURN(const int64_t src_bytes,
                   CheckedMul(src_count, elem_size, "byte size of src_shape"));

  const bool identity = GetPrimaryFormat(args.src_format) == GetPrimaryFormat(args.dst_format);
  Transfer transfer{};
  if (!identity && !FindTransfer(args.src_format, args.dst_format, &transfer)) {
    return NotSupported("transfer from ", FormatName(args.src_format), " to ",
                        FormatName(args.dst_format), " is not supported");
  }
  if (args.data == nullptr && src_bytes > 0) {
    return ParamInvalid("data is null but src_shape ", ShapeString(args.src_shape), " holds ",
                        src_bytes, " bytes");
  }
  if (identity) {
    if (static_cast<uint64_t>(src_bytes) > out->max_size()) {
      return Overflow("output of ", src_bytes, " bytes is too large");
    }
    if (src_bytes == 0) {
      out->clear();
    } else {
      out->assign(args.data, args.data + src_bytes);
    }
    return OkStatus();
  }

  ASSIGN_OR_RETURN(
      const int64_t c0,
      ResolveC0(transfer.forward ? args.dst_format : args.src_format, args.src_data_type));
  std::vector<int64_t> plain;
  std::vector<int64_t> dst_dims;
  if (transfer.forward) {
    plain = args.src_shape;
    ASSIGN_OR_RETURN(dst_dims, BlockedShape(transfer.pair, c0, plain));
  } else {
    RETURN_IF_ERROR(CheckKnown(args.dst_shape, "dst_shape"));
    auto expected = BlockedShape(transfer.pair, c0, args.dst_shape);
    if (!expected.ok()) {
      return Annotate(expected.status(), "dst_shape ", ShapeString(args.dst_shape), ": ");
    }
    if (*expected != args.src_shape) {
      return ParamInvalid("src_shape ", ShapeString(args.src_shape), " does not match dst_shape ",
                          ShapeString(args.dst_shape), ", whose ", FormatName(args.src_format),
                          " shape with C0 ", c0, " is ", ShapeString(*expected));
    }
    plain = args.dst_shape;
    dst_dims = args.dst_shape;
  }
  ASSIGN_OR_RETURN(const int64_t dst_count, ElementCount(dst_dims, "dst shape"));
  ASSIGN_OR_RETURN(const int64_t dst_bytes,
                   CheckedMul(dst_count, elem_size, "byte size of dst shape"));
  if (static_cast<uint64_t>(dst_bytes) > out->max_size()) {
    return Overflow("output of ", dst_bytes, " bytes is too large");
  }
  out->resize(static_cast<size_t>(dst_bytes));
  if (dst_bytes == 0) return OkStatus();
  // The blocked side always holds at least as many elements as the plain
  // side, so a non-empty destination implies non-empty (non-null) source data.
  uint8_t* dst = out->data();
  switch (elem_size) {
    case 1:
      RunKernel<1>(transfer, plain, c0, args.data, dst);
      break;
    case 2:
      RunKernel<2>(transfer, plain, c0, args.data, dst);
      break;
    case 4:
      RunKernel<4>(transfer, plain, c0, args.data, dst);
      break;
    case 8:
      RunKernel<8>(transfer, plain, c0, args.data, dst);
      break;
    case 16:
      RunKernel<16>(transfer, plain, c0, args.data, dst);
      break;
    default:
      return NotSupported("element size ", elem_size, " bytes of ",
                          TypeUtils::DataTypeToSerialString(args.src_data_type),
                          " is not supported");
  }
  return OkStatus();
}

}  // namespace

StatusOr<int64_t> GetCubeC0(DataType data_type) {
  switch (data_type) {
    case DT_STRING:
    case DT_STRING_REF:
    case DT_RESOURCE:
    case DT_VARIANT:
    case DT_UNDEFINED:
      return NotSupported("data type ", TypeUtils::DataTypeToSerialString(data_type),
                          " has no C0 (no fixed element size)");
    default:
      break;
  }
  auto bits = TypeUtils::GetSizeInBits(data_type);
  if (!bits.ok()) {
    return MakeStatus(ErrorCode::kNotSupported,
                      absl::StrCat("data type ", TypeUtils::DataTypeToSerialString(data_type),
                                   " has no C0: ", bits.status().message()));
  }
  // One cube row is 32 bytes for 8-bit and 4-bit types, 16 elements otherwise.
  if (*bits == 4) return 64;
  if (*bits == 8) return 32;
  if (*bits >= 16 && *bits % 8 == 0) return 16;
  return NotSupported("data type ", TypeUtils::DataTypeToSerialString(data_type), " (", *bits,
                      " bits) has no C0");
}

bool IsTransferSupported(Format src_format, Format dst_format) {
  if (GetPrimaryFormat(src_format) == GetPrimaryFormat(dst_format)) return true;
  Transfer transfer{};
  return FindTransfer(src_format, dst_format, &transfer);
}

StatusOr<std::vector<int64_t>> TransferShape(Format src_format, Format dst_format,
                                             DataType data_type,
                                             const std::vector<int64_t>& src_dims) {
  if (GetPrimaryFormat(src_format) == GetPrimaryFormat(dst_format)) return src_dims;
  const auto context = [&] {
    return absl::StrCat("TransferShape ", FormatName(src_format), " -> ", FormatName(dst_format),
                        " (", TypeUtils::DataTypeToSerialString(data_type), ", shape ",
                        ShapeString(src_dims), "): ");
  };
  Transfer transfer{};
  if (!FindTransfer(src_format, dst_format, &transfer)) {
    return NotSupported(context(), "transfer from ", FormatName(src_format), " to ",
                        FormatName(dst_format), " is not supported");
  }
  if (!transfer.forward) {
    return NotSupported(context(), "the logical ", FormatName(dst_format),
                        " shape cannot be derived from a ", FormatName(src_format),
                        " shape (the padding is unknown)");
  }
  auto c0 = ResolveC0(dst_format, data_type);
  if (!c0.ok()) return Annotate(c0.status(), context());
  auto shape = BlockedShape(transfer.pair, *c0, src_dims);
  if (!shape.ok()) return Annotate(shape.status(), context());
  return shape;
}

Status TransferFormat(const TransArgs& args, std::vector<uint8_t>* out) {
  Status status = TransferFormatImpl(args, out);
  if (status.ok()) return status;
  return Annotate(status, "TransferFormat ", FormatName(args.src_format), " -> ",
                  FormatName(args.dst_format), " (",
                  TypeUtils::DataTypeToSerialString(args.src_data_type), ", src_shape ",
                  ShapeString(args.src_shape), "): ");
}

}  // namespace ge
