// ops/common/broadcast.cc
#include "ops/common/broadcast.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"

namespace ops {

namespace {

ge::Status CheckDims(const gert::Shape& s) {
  if (s.IsUnknownRank()) return ge::OkStatus();
  for (size_t i = 0; i < s.GetDimNum(); ++i) {
    if (s.GetDim(i) < -1) {
      return ge::ParamInvalid("shape ", s.ToString(), " has invalid dim ", s.GetDim(i),
                              " at index ", i);
    }
  }
  return ge::OkStatus();
}

}  // namespace

ge::Status InferBroadcastShape(const gert::Shape& a, const gert::Shape& b, gert::Shape* out) {
  if (out == nullptr) return ge::ParamInvalid("InferBroadcastShape: null output shape");
  RETURN_IF_ERROR(CheckDims(a));
  RETURN_IF_ERROR(CheckDims(b));
  if (a.IsUnknownRank() || b.IsUnknownRank()) {
    gert::Shape r;
    r.AppendDim(ge::UNKNOWN_RANK);
    *out = r;
    return ge::OkStatus();
  }
  const size_t ra = a.GetDimNum();
  const size_t rb = b.GetDimNum();
  const size_t rank = std::max(ra, rb);
  gert::Shape r;
  r.SetDimNum(rank);
  for (size_t i = 0; i < rank; ++i) {
    // i counts from the right.
    const int64_t da = i < ra ? a.GetDim(ra - 1 - i) : 1;
    const int64_t db = i < rb ? b.GetDim(rb - 1 - i) : 1;
    int64_t d;
    if (da == db) {
      d = da;
    } else if (da == 1) {
      d = db;
    } else if (db == 1) {
      d = da;
    } else if (da == -1) {
      d = db;
    } else if (db == -1) {
      d = da;
    } else {
      return ge::ParamInvalid("shapes ", a.ToString(), " and ", b.ToString(),
                              " cannot broadcast: dim ", da, " vs ", db);
    }
    r.SetDim(rank - 1 - i, d);
  }
  *out = r;
  return ge::OkStatus();
}

ge::Status InferBroadcastShape(absl::Span<const gert::Shape* const> shapes, gert::Shape* out) {
  if (out == nullptr) return ge::ParamInvalid("InferBroadcastShape: null output shape");
  gert::Shape acc;  // scalar broadcasts with anything
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (shapes[i] == nullptr) return ge::ParamInvalid("InferBroadcastShape: shape ", i, " is null");
    const gert::Shape prev = acc;
    ge::Status st = InferBroadcastShape(prev, *shapes[i], &acc);
    if (!st.ok()) {
      return ge::MakeStatus(
          ge::GetErrorCode(st),
          absl::StrCat("shape ", i, " ", shapes[i]->ToString(), " does not broadcast with ",
                       prev.ToString(), " (the broadcast of shapes 0..", i, "): ", st.message()));
    }
  }
  *out = acc;
  return ge::OkStatus();
}

ge::StatusOr<BroadcastIndex> BroadcastIndex::Create(absl::Span<const gert::Shape* const> inputs,
                                                    const gert::Shape& out) {
  const size_t n = inputs.size();
  const size_t rank = out.GetDimNum();
  for (size_t d = 0; d < rank; ++d) {
    if (out.GetDim(d) < 0) {
      return ge::ParamInvalid("BroadcastIndex: output shape ", out.ToString(), " has unknown dims");
    }
  }
  const int64_t out_size = out.GetShapeSize();
  if (out_size < 0)
    return ge::Overflow("BroadcastIndex: output shape ", out.ToString(), " is too large");

  BroadcastIndex bi;
  bi.input_num_ = n;
  bi.output_size_ = out_size;
  bi.same_.assign(n, false);
  bi.scalar_.assign(n, false);
  // Raw strides over the full output rank.
  absl::InlinedVector<int64_t, 24> raw(rank * n, 0);
  for (size_t k = 0; k < n; ++k) {
    const gert::Shape* s = inputs[k];
    if (s == nullptr) return ge::ParamInvalid("BroadcastIndex: input ", k, " shape is null");
    const size_t r = s->GetDimNum();
    if (r > rank) {
      return ge::ParamInvalid("BroadcastIndex: input ", k, " shape ", s->ToString(),
                              " has a higher rank than the output ", out.ToString());
    }
    int64_t stride = 1;
    for (size_t j = 0; j < r; ++j) {
      const size_t in_d = r - 1 - j;
      const size_t out_d = rank - 1 - j;
      const int64_t dim = s->GetDim(in_d);
      const int64_t od = out.GetDim(out_d);
      if (dim < 0) {
        return ge::ParamInvalid("BroadcastIndex: input ", k, " shape ", s->ToString(),
                                " has unknown dims");
      }
      if (dim != od && dim != 1) {
        return ge::ParamInvalid("BroadcastIndex: input ", k, " shape ", s->ToString(),
                                " does not broadcast to ", out.ToString());
      }
      raw[out_d * n + k] = (dim == 1) ? 0 : stride;
      stride *= dim;  // cannot overflow: bounded by out_size per dim
    }
    const int64_t in_size = s->GetShapeSize();
    bi.scalar_[k] = in_size == 1;
    bi.same_[k] = in_size == out_size;
  }
  // Drop size-1 output dims, then merge dims contiguous for every input.
  absl::InlinedVector<int64_t, 8>& dims = bi.dims_;
  absl::InlinedVector<int64_t, 24>& strides = bi.strides_;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t od = out.GetDim(d);
    if (od == 1) continue;
    const int64_t* s = raw.data() + d * n;
    if (!dims.empty()) {
      // Can the previous (outer) dim merge into this one?
      int64_t* prev = strides.data() + (dims.size() - 1) * n;
      bool mergeable = true;
      for (size_t k = 0; k < n; ++k) {
        if (prev[k] != s[k] * od) {
          mergeable = false;
          break;
        }
      }
      if (mergeable) {
        dims.back() *= od;
        for (size_t k = 0; k < n; ++k) prev[k] = s[k];
        continue;
      }
    }
    dims.push_back(od);
    strides.insert(strides.end(), s, s + n);
  }
  return bi;
}

bool BroadcastIndex::AllSameAsOutput() const {
  for (size_t k = 0; k < input_num_; ++k) {
    if (!same_[k]) return false;
  }
  return true;
}

std::vector<int64_t> BroadcastIndex::Strides(size_t i) const {
  std::vector<int64_t> r;
  if (i >= input_num_) return r;
  for (size_t d = 0; d < dims_.size(); ++d) r.push_back(strides_[d * input_num_ + i]);
  return r;
}

}  // namespace ops
