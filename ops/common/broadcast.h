// ops/common/broadcast.h
//
// Numpy broadcasting: InferBroadcastShape (two shapes or a list; -1 dims and
// unknown rank allowed) for infer functions, and BroadcastIndex (the input
// element offsets of every output element, with dims coalesced so that equal
// shapes and scalars run as one flat loop) for kernels. Errors are
// ParamInvalid naming the shapes; nothing aborts.
//
// Example
//   gert::Shape y;
//   RETURN_IF_ERROR(ops::InferBroadcastShape(a, b, &y));
//   ASSIGN_OR_RETURN(ops::BroadcastIndex bi, ops::BroadcastIndex::Create({&a, &b}, y));
//   bi.ForEach2([&](int64_t o, int64_t ia, int64_t ib) { out[o] = x0[ia] + x1[ib]; });
#ifndef OPS_COMMON_BROADCAST_H_
#define OPS_COMMON_BROADCAST_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ops {

// Numpy broadcasting of two shapes into *out. Dims align from the right; a
// pair (a, b) gives: a == b -> a; 1 vs x -> x (so 1 vs -1 -> -1); -1 vs n
// (n != 1) -> n; anything else is ParamInvalid naming both shapes. Either
// shape of unknown rank gives unknown rank ([-2]). Dims < -1 are
// ParamInvalid. `out` may alias `a` or `b`.
ge::Status InferBroadcastShape(const gert::Shape& a, const gert::Shape& b, gert::Shape* out);
// Broadcast of every shape (none may be null); an empty list gives a scalar.
// The error names the index of the shape that does not broadcast.
ge::Status InferBroadcastShape(absl::Span<const gert::Shape* const> shapes, gert::Shape* out);

// Input element offsets for every element of a broadcast output.
//
// Create() checks that every input broadcasts to `out` (all dims known) and
// precomputes per-input strides over the output dims (0 on broadcast dims),
// dropping size-1 output dims and merging dims that are contiguous for every
// input: equal shapes and scalars then run as one flat loop.
//
//   ASSIGN_OR_RETURN(ops::BroadcastIndex bi,
//                    ops::BroadcastIndex::Create({&a_shape, &b_shape}, y_shape));
//   bi.ForEach2([&](int64_t o, int64_t ia, int64_t ib) { y[o] = a[ia] + b[ib]; });
class BroadcastIndex {
 public:
  BroadcastIndex() = default;
  static ge::StatusOr<BroadcastIndex> Create(absl::Span<const gert::Shape* const> inputs,
                                             const gert::Shape& out);
  static ge::StatusOr<BroadcastIndex> Create(std::initializer_list<const gert::Shape*> inputs,
                                             const gert::Shape& out) {
    return Create(absl::Span<const gert::Shape* const>(inputs.begin(), inputs.size()), out);
  }

  size_t input_num() const { return input_num_; }
  int64_t output_size() const { return output_size_; }
  // Input i has exactly the output's elements (its offset is the output index).
  bool IsSameAsOutput(size_t i) const { return i < same_.size() && same_[i]; }
  // Input i has a single element (offset always 0).
  bool IsScalar(size_t i) const { return i < scalar_.size() && scalar_[i]; }
  bool AllSameAsOutput() const;
  // Coalesced output dims (outermost first) and input i's element strides.
  absl::Span<const int64_t> dims() const { return dims_; }
  std::vector<int64_t> Strides(size_t i) const;

  // Calls f(out_index, const int64_t* in_offsets) for every output element
  // in row-major order; in_offsets has input_num() entries.
  template <typename F>
  void ForEach(F&& f) const;
  // Two / three input forms: f(out_index, offset0, offset1[, offset2]).
  template <typename F>
  void ForEach2(F&& f) const;
  template <typename F>
  void ForEach3(F&& f) const;

 private:
  // Runs `row(out_start, offsets, inner_count, inner_strides)` for every
  // innermost row.
  template <typename Row>
  void ForEachRow(Row&& row) const;

  // Inline capacity covers rank <= 8 with up to 3 inputs: creating an index
  // for such shapes allocates nothing (kernels on the run path).
  size_t input_num_ = 0;
  int64_t output_size_ = 0;
  absl::InlinedVector<int64_t, 8> dims_;      // coalesced, no size-1 dims
  absl::InlinedVector<int64_t, 24> strides_;  // dims_.size() x input_num_, row-major
  absl::InlinedVector<bool, 8> same_;
  absl::InlinedVector<bool, 8> scalar_;
};

// ------------------------------------------------------------ implementation

template <typename Row>
void BroadcastIndex::ForEachRow(Row&& row) const {
  if (output_size_ <= 0) return;
  const size_t n = input_num_;
  const size_t rank = dims_.size();
  absl::InlinedVector<int64_t, 8> offsets(n, 0);
  if (rank == 0) {
    absl::InlinedVector<int64_t, 8> zero(n, 0);
    row(int64_t{0}, offsets.data(), int64_t{1}, zero.data());
    return;
  }
  const int64_t inner = dims_[rank - 1];
  const int64_t* inner_strides = strides_.data() + (rank - 1) * n;
  absl::InlinedVector<int64_t, 8> counter(rank, 0);
  for (int64_t out = 0; out < output_size_; out += inner) {
    row(out, offsets.data(), inner, inner_strides);
    // Advance the outer dims (odometer).
    for (size_t d = rank - 1; d-- > 0;) {
      const int64_t* s = strides_.data() + d * n;
      if (++counter[d] < dims_[d]) {
        for (size_t k = 0; k < n; ++k) offsets[k] += s[k];
        break;
      }
      for (size_t k = 0; k < n; ++k) offsets[k] -= s[k] * (dims_[d] - 1);
      counter[d] = 0;
    }
  }
}

template <typename F>
void BroadcastIndex::ForEach(F&& f) const {
  const size_t n = input_num_;
  absl::InlinedVector<int64_t, 8> cur(n, 0);
  ForEachRow([&](int64_t out, const int64_t* offs, int64_t count, const int64_t* st) {
    for (size_t k = 0; k < n; ++k) cur[k] = offs[k];
    for (int64_t j = 0; j < count; ++j) {
      f(out + j, static_cast<const int64_t*>(cur.data()));
      for (size_t k = 0; k < n; ++k) cur[k] += st[k];
    }
  });
}

template <typename F>
void BroadcastIndex::ForEach2(F&& f) const {
  ForEachRow([&](int64_t out, const int64_t* offs, int64_t count, const int64_t* st) {
    int64_t a = offs[0], b = offs[1];
    const int64_t sa = st[0], sb = st[1];
    for (int64_t j = 0; j < count; ++j, a += sa, b += sb) f(out + j, a, b);
  });
}

template <typename F>
void BroadcastIndex::ForEach3(F&& f) const {
  ForEachRow([&](int64_t out, const int64_t* offs, int64_t count, const int64_t* st) {
    int64_t a = offs[0], b = offs[1], c = offs[2];
    const int64_t sa = st[0], sb = st[1], sc = st[2];
    for (int64_t j = 0; j < count; ++j, a += sa, b += sb, c += sc) f(out + j, a, b, c);
  });
}

}  // namespace ops

#endif  // OPS_COMMON_BROADCAST_H_
