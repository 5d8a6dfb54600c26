// ops/math/einsum_op.cc
//
// Einsum (ONNX opset 12+, numpy.einsum semantics).
//   equation  "<term>,<term>,...[-><output>]"; a term is letters (a-z, A-Z)
//             with at most one "..." (spaces are ignored).
//   * A label repeated within one term takes that input's diagonal.
//   * "..." stands for the leading dims not named by letters; ellipsis dims
//     of different inputs broadcast numpy-style (right aligned, size 1
//     stretches). Dims of equal labels must match or be 1 (broadcast).
//   * Implicit output (no "->"): the ellipsis dims, then every letter that
//     appears exactly once in the equation, in ASCII order.
//   * Explicit output: each letter at most once and present in some input;
//     labels (and ellipsis dims) not in the output are summed over.
// Kernel: two-operand contractions without diagonals or one-sided summed
// labels become a batched GEMM (operands permuted to [batch, m, k] x
// [batch, k, n]); everything else runs a strided loop over the output and
// the summed labels. FLOAT16 accumulates in float; integers wrap around.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/gemm.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

const ge::TensorType& EinsumTypes() {
  static const ge::TensorType* t = new ge::TensorType(
      {ge::DT_UINT8, ge::DT_UINT16, ge::DT_UINT32, ge::DT_UINT64, ge::DT_INT8, ge::DT_INT16,
       ge::DT_INT32, ge::DT_INT64, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE});
  return *t;
}

// One parsed term: letters and where the ellipsis sits (-1: none).
struct Term {
  std::string letters;    // in order, ellipsis removed
  int ellipsis_pos = -1;  // index into letters before which "..." stands
};

// Labels: 0..51 are letters (a-z then A-Z: index by ASCII via LetterId);
// kEllipsisBase + i is ellipsis dim i (0 = outermost of the broadcast
// ellipsis shape).
constexpr int kEllipsisBase = 64;

int LetterId(char c) { return c >= 'a' ? c - 'a' + 26 : c - 'A'; }

std::string LabelName(int id) {
  if (id >= kEllipsisBase) return absl::StrCat("...[", id - kEllipsisBase, "]");
  return std::string(1, id >= 26 ? static_cast<char>('a' + id - 26) : static_cast<char>('A' + id));
}

struct EinsumSpec {
  std::vector<std::vector<int>> in_labels;  // label of each input axis
  std::vector<int> out_labels;
  int ellipsis_rank = 0;
  bool unknown_rank = false;  // an unknown-rank input makes the output rank unknown
};

ge::StatusOr<Term> ParseTerm(const gert::ContextBase& ctx, const std::string& s,
                             const std::string& where) {
  Term t;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      t.letters.push_back(c);
    } else if (c == '.') {
      if (s.compare(i, 3, "...") != 0) {
        return ctx.Error("equation ", where, " \"", s, "\": '.' must be part of \"...\"");
      }
      if (t.ellipsis_pos >= 0) {
        return ctx.Error("equation ", where, " \"", s, "\" has more than one \"...\"");
      }
      t.ellipsis_pos = static_cast<int>(t.letters.size());
      i += 2;
    } else {
      return ctx.Error("equation ", where, " \"", s, "\" has invalid character '",
                       std::string(1, c), "'");
    }
  }
  return t;
}

// ranks[i] < 0: unknown rank.
ge::StatusOr<EinsumSpec> ParseEinsum(const gert::ContextBase& ctx, const std::string& equation,
                                     const std::vector<int64_t>& ranks) {
  std::string eq;
  for (char c : equation) {
    if (c != ' ' && c != '\t' && c != '\n') eq.push_back(c);
  }
  std::string lhs = eq, rhs;
  const size_t arrow = eq.find("->");
  const bool explicit_out = arrow != std::string::npos;
  if (explicit_out) {
    lhs = eq.substr(0, arrow);
    rhs = eq.substr(arrow + 2);
    if (rhs.find("->") != std::string::npos) {
      return ctx.Error("equation \"", equation, "\" has more than one \"->\"");
    }
  }
  std::vector<std::string> terms;
  size_t start = 0;
  while (true) {
    const size_t comma = lhs.find(',', start);
    terms.push_back(
        lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != ranks.size()) {
    return ctx.Error("equation \"", equation, "\" has ", terms.size(),
                     " input terms but the node has ", ranks.size(), " inputs");
  }
  EinsumSpec spec;
  std::vector<Term> parsed;
  int counts[52] = {};
  bool any_ellipsis = false;
  for (size_t i = 0; i < terms.size(); ++i) {
    ASSIGN_OR_RETURN(Term t, ParseTerm(ctx, terms[i], absl::StrCat("term ", i)));
    const int64_t nl = static_cast<int64_t>(t.letters.size());
    if (ranks[i] >= 0) {
      if (t.ellipsis_pos < 0 && ranks[i] != nl) {
        return ctx.Error("equation term ", i, " \"", terms[i], "\" names ", nl, " dims but input ",
                         i, " has rank ", ranks[i]);
      }
      if (t.ellipsis_pos >= 0 && ranks[i] < nl) {
        return ctx.Error("equation term ", i, " \"", terms[i], "\" names ", nl,
                         " dims (plus \"...\") but input ", i, " has rank ", ranks[i]);
      }
      if (t.ellipsis_pos >= 0) {
        spec.ellipsis_rank = std::max(spec.ellipsis_rank, static_cast<int>(ranks[i] - nl));
      }
    } else if (t.ellipsis_pos >= 0) {
      spec.unknown_rank = true;
    }
    if (t.ellipsis_pos >= 0) any_ellipsis = true;
    for (char c : t.letters) ++counts[LetterId(c)];
    parsed.push_back(std::move(t));
  }
  // Input labels.
  for (size_t i = 0; i < parsed.size(); ++i) {
    const Term& t = parsed[i];
    std::vector<int> labels;
    const int nl = static_cast<int>(t.letters.size());
    const int erank = t.ellipsis_pos >= 0 && ranks[i] >= 0 ? static_cast<int>(ranks[i]) - nl : 0;
    for (int j = 0; j <= nl; ++j) {
      if (j == t.ellipsis_pos) {
        for (int e = 0; e < erank; ++e)
          labels.push_back(kEllipsisBase + spec.ellipsis_rank - erank + e);
      }
      if (j < nl) labels.push_back(LetterId(t.letters[static_cast<size_t>(j)]));
    }
    spec.in_labels.push_back(std::move(labels));
  }
  // Output labels.
  if (explicit_out) {
    ASSIGN_OR_RETURN(Term o, ParseTerm(ctx, rhs, "output"));
    bool seen[52] = {};
    for (int j = 0; j <= static_cast<int>(o.letters.size()); ++j) {
      if (j == o.ellipsis_pos) {
        for (int e = 0; e < spec.ellipsis_rank; ++e) spec.out_labels.push_back(kEllipsisBase + e);
      }
      if (j == static_cast<int>(o.letters.size())) break;
      const char c = o.letters[static_cast<size_t>(j)];
      const int id = LetterId(c);
      if (counts[id] == 0) {
        return ctx.Error("equation \"", equation, "\": output label '", std::string(1, c),
                         "' does not appear in any input term");
      }
      if (seen[id]) {
        return ctx.Error("equation \"", equation, "\": output label '", std::string(1, c),
                         "' appears more than once");
      }
      seen[id] = true;
      spec.out_labels.push_back(id);
    }
  } else {
    if (any_ellipsis) {
      for (int e = 0; e < spec.ellipsis_rank; ++e) spec.out_labels.push_back(kEllipsisBase + e);
    }
    // ASCII order: 'A'..'Z' (ids 0..25) then 'a'..'z' (26..51).
    for (int id = 0; id < 52; ++id) {
      if (counts[id] == 1) spec.out_labels.push_back(id);
    }
  }
  if (spec.out_labels.size() > gert::kMaxDimNum) {
    return ctx.Error("equation \"", equation, "\" gives an output of rank ", spec.out_labels.size(),
                     ", above the maximum ", gert::kMaxDimNum);
  }
  return spec;
}

// Size of every label (index: label id) from the input shapes. Size-1 dims
// broadcast; -1 (unknown) dims give -1 unless another input knows the size.
// `known` false for labels that appear in no input.
ge::Status LabelSizes(const gert::ContextBase& ctx, const EinsumSpec& spec,
                      const std::vector<const gert::Shape*>& shapes, std::vector<int64_t>* sizes) {
  sizes->assign(kEllipsisBase + gert::kMaxDimNum + 1, -2);  // -2: not seen
  for (size_t i = 0; i < spec.in_labels.size(); ++i) {
    const std::vector<int>& labels = spec.in_labels[i];
    for (size_t ax = 0; ax < labels.size(); ++ax) {
      const int64_t d =
          shapes[i] != nullptr && !shapes[i]->IsUnknownRank() ? shapes[i]->GetDim(ax) : -1;
      if (d < -1) return ctx.Error("input ", i, " has invalid dim ", d);
      int64_t& s = (*sizes)[static_cast<size_t>(labels[ax])];
      if (s == -2 || s == 1) {
        if (s == -2 || d != -1)
          s = d;
        else
          s = -1;
      } else if (d == 1 || d == s) {
        // keep
      } else if (s == -1) {
        s = d;
      } else if (d != -1) {
        return ctx.Error("label '", LabelName(labels[ax]), "' has size ", s,
                         " in an earlier input but input ", i, " dim ", ax, " has size ", d,
                         " (shape ", shapes[i]->ToString(), ")");
      }
    }
  }
  // Repeated labels within one input may mix 1 and n (1 broadcasts) only if
  // the sizes agree; the loop above already checked equality or 1.
  return ge::OkStatus();
}

ge::StatusOr<std::string> GetEquation(const gert::ContextBase& ctx) {
  auto eq = ctx.GetStr("equation");
  if (!eq.ok()) {
    return ctx.Error("required attribute 'equation' is missing or not a string: ",
                     eq.status().message());
  }
  return *eq;
}

ge::Status InferEinsum(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(std::string equation, GetEquation(ctx));
  const size_t n = ctx.GetInputNum();
  if (n == 0) return ctx.Error("Einsum needs at least one input");
  std::vector<int64_t> ranks(n);
  std::vector<const gert::Shape*> shapes(n);
  for (size_t i = 0; i < n; ++i) {
    shapes[i] = ctx.GetInputShape(i);
    if (shapes[i] == nullptr) return ctx.Error("input ", i, " is missing");
    ranks[i] = shapes[i]->IsUnknownRank() ? -1 : static_cast<int64_t>(shapes[i]->GetDimNum());
  }
  ASSIGN_OR_RETURN(EinsumSpec spec, ParseEinsum(ctx, equation, ranks));
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 is missing");
  if (spec.unknown_rank) {
    *y = gert::Shape{ge::UNKNOWN_RANK};
    return ge::OkStatus();
  }
  std::vector<int64_t> sizes;
  RETURN_IF_ERROR(LabelSizes(ctx, spec, shapes, &sizes));
  gert::Shape out;
  for (int l : spec.out_labels) out.AppendDim(sizes[static_cast<size_t>(l)]);
  *y = out;
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  // Each label's range: the broadcast of the ranges of every axis carrying
  // it (1 broadcasts, other sizes must meet); output axes take their label's.
  std::vector<std::optional<DimRange>> label_range(sizes.size());
  for (size_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(gert::ShapeRange r, InputRange(ctx, i));
    const std::vector<int>& labels = spec.in_labels[i];
    if (r.size() != labels.size()) continue;
    for (size_t ax = 0; ax < labels.size(); ++ax) {
      std::optional<DimRange>& lr = label_range[static_cast<size_t>(labels[ax])];
      if (!lr.has_value()) {
        lr = r[ax];
        continue;
      }
      ge::StatusOr<DimRange> b = BroadcastDimRange(*lr, r[ax]);
      if (!b.ok()) {
        return ctx.Error("label '", LabelName(labels[ax]), "': input ", i, " dim ", ax, " range ",
                         DimRangeString(r[ax]), " conflicts with ", DimRangeString(*lr),
                         " from earlier axes");
      }
      lr = *b;
    }
  }
  gert::ShapeRange range;
  for (int l : spec.out_labels) {
    const std::optional<DimRange>& lr = label_range[static_cast<size_t>(l)];
    range.push_back(lr.has_value() ? *lr : DimRange{0, kUnboundedDim});
  }
  return SetOutputRange(ctx, 0, std::move(range));
}

ge::Status VerifyEinsum(gert::InferShapeContext& ctx) {
  for (size_t i = 1; i < ctx.GetInputNum(); ++i) {
    if (ctx.GetInputDataType(i) != ctx.GetInputDataType(0)) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " is ",
                               DataTypeName(ctx.GetInputDataType(i)), " but input 0 is ",
                               DataTypeName(ctx.GetInputDataType(0)));
    }
  }
  return ge::OkStatus();
}

// ---------------------------------------------------------------- kernel

// Strides of every input over the output labels and the summed labels.
struct EinsumLoop {
  std::vector<int64_t> out_dims;                  // output label sizes
  std::vector<int64_t> sum_dims;                  // summed label sizes
  std::vector<std::vector<int64_t>> out_strides;  // [input][out label]
  std::vector<std::vector<int64_t>> sum_strides;  // [input][summed label]
};

EinsumLoop BuildLoop(const EinsumSpec& spec, const std::vector<const gert::Shape*>& shapes,
                     const std::vector<int64_t>& sizes) {
  EinsumLoop loop;
  std::vector<int> sum_labels;
  std::vector<bool> in_out(sizes.size(), false);
  for (int l : spec.out_labels) in_out[static_cast<size_t>(l)] = true;
  std::vector<bool> added(sizes.size(), false);
  for (const auto& labels : spec.in_labels) {
    for (int l : labels) {
      if (!in_out[static_cast<size_t>(l)] && !added[static_cast<size_t>(l)]) {
        added[static_cast<size_t>(l)] = true;
        sum_labels.push_back(l);
      }
    }
  }
  for (int l : spec.out_labels)
    loop.out_dims.push_back(std::max<int64_t>(sizes[static_cast<size_t>(l)], 1));
  for (int l : sum_labels) loop.sum_dims.push_back(sizes[static_cast<size_t>(l)]);
  // A label absent from every input (an output ellipsis dim when no input
  // has one) has size 1; sizes[] holds -2 for it.
  for (size_t j = 0; j < spec.out_labels.size(); ++j) {
    const int64_t s = sizes[static_cast<size_t>(spec.out_labels[j])];
    loop.out_dims[j] = s == -2 ? 1 : s;
  }
  for (size_t i = 0; i < spec.in_labels.size(); ++i) {
    const auto& labels = spec.in_labels[i];
    std::vector<int64_t> label_stride(sizes.size(), 0);
    int64_t stride = 1;
    for (size_t ax = labels.size(); ax-- > 0;) {
      const int64_t d = shapes[i]->GetDim(ax);
      if (d != 1) label_stride[static_cast<size_t>(labels[ax])] += stride;
      stride *= d;
    }
    std::vector<int64_t> os, ss;
    for (int l : spec.out_labels) os.push_back(label_stride[static_cast<size_t>(l)]);
    for (int l : sum_labels) ss.push_back(label_stride[static_cast<size_t>(l)]);
    loop.out_strides.push_back(std::move(os));
    loop.sum_strides.push_back(std::move(ss));
  }
  return loop;
}

// Arithmetic in the compute type: wrap-around for integers (uint64_t).
template <typename C>
void RunLoop(const EinsumLoop& loop, const std::vector<const C*>& in, C* out) {
  const size_t n_in = in.size();
  const size_t ro = loop.out_dims.size();
  const size_t rs = loop.sum_dims.size();
  int64_t out_count = 1;
  for (int64_t d : loop.out_dims) out_count *= d;
  int64_t sum_count = 1;
  for (int64_t d : loop.sum_dims) sum_count *= d;
  std::vector<int64_t> oc(ro, 0), sc(rs, 0);
  std::vector<int64_t> obase(n_in, 0), soff(n_in, 0);
  for (int64_t o = 0; o < out_count; ++o) {
    C acc = C{0};
    if (sum_count > 0) {
      std::fill(sc.begin(), sc.end(), 0);
      std::fill(soff.begin(), soff.end(), 0);
      for (int64_t s = 0; s < sum_count; ++s) {
        C prod = in[0][obase[0] + soff[0]];
        for (size_t t = 1; t < n_in; ++t) prod = prod * in[t][obase[t] + soff[t]];
        acc = acc + prod;
        for (size_t d = rs; d-- > 0;) {
          if (++sc[d] < loop.sum_dims[d]) {
            for (size_t t = 0; t < n_in; ++t) soff[t] += loop.sum_strides[t][d];
            break;
          }
          for (size_t t = 0; t < n_in; ++t)
            soff[t] -= loop.sum_strides[t][d] * (loop.sum_dims[d] - 1);
          sc[d] = 0;
        }
      }
    }
    out[o] = acc;
    for (size_t d = ro; d-- > 0;) {
      if (++oc[d] < loop.out_dims[d]) {
        for (size_t t = 0; t < n_in; ++t) obase[t] += loop.out_strides[t][d];
        break;
      }
      for (size_t t = 0; t < n_in; ++t) obase[t] -= loop.out_strides[t][d] * (loop.out_dims[d] - 1);
      oc[d] = 0;
    }
  }
}

// Copies a strided view (dims / strides in elements) into a dense buffer.
template <typename C>
void Gather(const C* src, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
            C* dst) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  std::vector<int64_t> ctr(dims.size(), 0);
  int64_t off = 0;
  for (int64_t i = 0; i < count; ++i) {
    dst[i] = src[off];
    for (size_t d = dims.size(); d-- > 0;) {
      if (++ctr[d] < dims[d]) {
        off += strides[d];
        break;
      }
      off -= strides[d] * (dims[d] - 1);
      ctr[d] = 0;
    }
  }
}

// Two-operand contraction as batched GEMM. Returns false when the spec does
// not fit (diagonals, broadcast dims, labels summed on one side only).
template <typename C>
bool TryGemmPath(const EinsumSpec& spec, const std::vector<const gert::Shape*>& shapes,
                 const std::vector<int64_t>& sizes, const std::vector<const C*>& in, C* out) {
  if (spec.in_labels.size() != 2) return false;
  const auto& la = spec.in_labels[0];
  const auto& lb = spec.in_labels[1];
  const size_t nl = sizes.size();
  std::vector<int> where(nl, 0);  // bit 0: in A, bit 1: in B, bit 2: in out
  for (size_t ax = 0; ax < la.size(); ++ax) {
    int& w = where[static_cast<size_t>(la[ax])];
    if (w & 1) return false;                                                        // diagonal
    if (shapes[0]->GetDim(ax) != sizes[static_cast<size_t>(la[ax])]) return false;  // broadcast
    w |= 1;
  }
  for (size_t ax = 0; ax < lb.size(); ++ax) {
    int& w = where[static_cast<size_t>(lb[ax])];
    if (w & 2) return false;
    if (shapes[1]->GetDim(ax) != sizes[static_cast<size_t>(lb[ax])]) return false;
    w |= 2;
  }
  for (int l : spec.out_labels) {
    if (where[static_cast<size_t>(l)] == 0) return false;  // output-only label
    where[static_cast<size_t>(l)] |= 4;
  }
  std::vector<int> batch, ml, nlab, kl;
  for (int l : spec.out_labels) {
    const int w = where[static_cast<size_t>(l)];
    if (w == 7)
      batch.push_back(l);
    else if (w == 5)
      ml.push_back(l);
    else if (w == 6)
      nlab.push_back(l);
  }
  for (int l : la) {
    const int w = where[static_cast<size_t>(l)];
    if (w == 3)
      kl.push_back(l);
    else if (w == 1 || w == 2)
      return false;  // summed on one side only
  }
  for (int l : lb) {
    if (where[static_cast<size_t>(l)] == 2) return false;
  }
  auto prod = [&](const std::vector<int>& ls) {
    int64_t p = 1;
    for (int l : ls) p *= sizes[static_cast<size_t>(l)];
    return p;
  };
  const int64_t nb = prod(batch), m = prod(ml), n = prod(nlab), k = prod(kl);
  auto strides_of = [&](const std::vector<int>& labels, const gert::Shape& s) {
    std::vector<int64_t> st(nl, 0);
    int64_t stride = 1;
    for (size_t ax = labels.size(); ax-- > 0;) {
      st[static_cast<size_t>(labels[ax])] = stride;
      stride *= s.GetDim(ax);
    }
    return st;
  };
  const std::vector<int64_t> sa = strides_of(la, *shapes[0]);
  const std::vector<int64_t> sb = strides_of(lb, *shapes[1]);
  auto view = [&](const std::vector<int64_t>& st,
                  std::initializer_list<const std::vector<int>*> groups, std::vector<int64_t>* dims,
                  std::vector<int64_t>* strides) {
    for (const std::vector<int>* g : groups) {
      for (int l : *g) {
        dims->push_back(sizes[static_cast<size_t>(l)]);
        strides->push_back(st[static_cast<size_t>(l)]);
      }
    }
  };
  std::vector<int64_t> da, ta, db, tb;
  view(sa, {&batch, &ml, &kl}, &da, &ta);
  view(sb, {&batch, &kl, &nlab}, &db, &tb);
  std::vector<C> pa(static_cast<size_t>(nb * m * k)), pb(static_cast<size_t>(nb * k * n));
  Gather(in[0], da, ta, pa.data());
  Gather(in[1], db, tb, pb.data());
  // Result in [batch, m, n] order, then permuted to the output order.
  std::vector<C> r(static_cast<size_t>(nb * m * n));
  for (int64_t b = 0; b < nb; ++b) {
    if constexpr (std::is_same<C, float>::value) {
      GemmF32(false, false, m, n, k, 1.0f, pa.data() + b * m * k, k, pb.data() + b * k * n, n, 0.0f,
              r.data() + b * m * n, n);
    } else {
      GemmF64(false, false, m, n, k, 1.0, pa.data() + b * m * k, k, pb.data() + b * k * n, n, 0.0,
              r.data() + b * m * n, n);
    }
  }
  // Strides of r per label, then gather in output label order.
  std::vector<int64_t> sr(nl, 0);
  {
    int64_t stride = 1;
    std::vector<int> order;
    order.insert(order.end(), batch.begin(), batch.end());
    order.insert(order.end(), ml.begin(), ml.end());
    order.insert(order.end(), nlab.begin(), nlab.end());
    for (size_t i = order.size(); i-- > 0;) {
      sr[static_cast<size_t>(order[i])] = stride;
      stride *= sizes[static_cast<size_t>(order[i])];
    }
  }
  std::vector<int64_t> od, os;
  for (int l : spec.out_labels) {
    od.push_back(sizes[static_cast<size_t>(l)]);
    os.push_back(sr[static_cast<size_t>(l)]);
  }
  Gather(r.data(), od, os, out);
  return true;
}

template <typename T>
struct EinsumCompute {
  using type = uint64_t;  // integers: wrap-around in 64 bits
};
template <>
struct EinsumCompute<float> {
  using type = float;
};
template <>
struct EinsumCompute<double> {
  using type = double;
};
template <>
struct EinsumCompute<fp16_t> {
  using type = float;
};
template <>
struct EinsumCompute<bf16_t> {
  using type = float;
};

template <typename T, typename C>
C ToEinsumCompute(T v) {
  if constexpr (std::is_same<C, uint64_t>::value) {
    return static_cast<uint64_t>(static_cast<int64_t>(v));  // sign-extends signed types
  } else {
    return static_cast<C>(ToCompute(v));
  }
}

template <typename T, typename C>
T FromEinsumCompute(C v) {
  if constexpr (kIsHalf<T>) {
    return FromCompute<T>(v);
  } else {
    return static_cast<T>(v);
  }
}

ge::Status EinsumKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(std::string equation, GetEquation(ctx));
  const size_t n = ctx.GetInputNum();
  if (n == 0) return ctx.Error("Einsum needs at least one input");
  std::vector<const gert::Tensor*> ts(n);
  std::vector<const gert::Shape*> shapes(n);
  std::vector<int64_t> ranks(n);
  for (size_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(ts[i], GetKernelInput(ctx, i));
    if (ts[i]->GetDataType() != ts[0]->GetDataType()) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " is ",
                               DataTypeName(ts[i]->GetDataType()), " but input 0 is ",
                               DataTypeName(ts[0]->GetDataType()));
    }
    shapes[i] = &ts[i]->GetShape();
    ranks[i] = static_cast<int64_t>(shapes[i]->GetDimNum());
  }
  ASSIGN_OR_RETURN(EinsumSpec spec, ParseEinsum(ctx, equation, ranks));
  std::vector<int64_t> sizes;
  RETURN_IF_ERROR(LabelSizes(ctx, spec, shapes, &sizes));
  gert::Shape out_shape;
  for (int l : spec.out_labels) {
    const int64_t s = sizes[static_cast<size_t>(l)];
    out_shape.AppendDim(s == -2 ? 1 : s);
  }
  const ge::DataType dt = ts[0]->GetDataType();
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, out_shape, dt));
  const int64_t out_count = out_shape.GetShapeSize();
  if (out_count == 0) return ge::OkStatus();
  return WithNode(ctx, DispatchType<kTgAllFloat | kTgInt>(
                           dt,
                           [&](auto tag) -> ge::Status {
                             using T = typename decltype(tag)::type;
                             using C = typename EinsumCompute<T>::type;
                             std::vector<std::vector<C>> converted;
                             std::vector<const C*> in(n);
                             if constexpr (std::is_same<T, C>::value) {
                               for (size_t i = 0; i < n; ++i) in[i] = ts[i]->GetData<T>();
                             } else {
                               converted.resize(n);
                               for (size_t i = 0; i < n; ++i) {
                                 const int64_t cnt = ts[i]->GetShapeSize();
                                 converted[i].resize(static_cast<size_t>(cnt));
                                 const T* src = ts[i]->GetData<T>();
                                 for (int64_t j = 0; j < cnt; ++j) {
                                   converted[i][static_cast<size_t>(j)] =
                                       ToEinsumCompute<T, C>(src[j]);
                                 }
                                 in[i] = converted[i].data();
                               }
                             }
                             std::vector<C> result;
                             C* dst = nullptr;
                             if constexpr (std::is_same<T, C>::value) {
                               dst = y->GetData<T>();
                             } else {
                               result.resize(static_cast<size_t>(out_count));
                               dst = result.data();
                             }
                             bool done = false;
                             if constexpr (std::is_floating_point<C>::value) {
                               done = TryGemmPath<C>(spec, shapes, sizes, in, dst);
                             }
                             if (!done) {
                               // Any input with no elements makes every sum empty (zeros).
                               bool empty = false;
                               for (size_t i = 0; i < n; ++i)
                                 empty = empty || ts[i]->GetShapeSize() == 0;
                               if (empty) {
                                 std::fill(dst, dst + out_count, C{0});
                               } else {
                                 RunLoop<C>(BuildLoop(spec, shapes, sizes), in, dst);
                               }
                             }
                             if constexpr (!std::is_same<T, C>::value) {
                               T* yo = y->GetData<T>();
                               for (int64_t j = 0; j < out_count; ++j) {
                                 yo[j] = FromEinsumCompute<T, C>(result[static_cast<size_t>(j)]);
                               }
                             }
                             return ge::OkStatus();
                           },
                           "Einsum inputs"));
}

}  // namespace

REG_OP(Einsum)
    .DynamicInput("Inputs", EinsumTypes())
    .Output("Output", EinsumTypes())
    .RequiredAttr("equation", ge::AttrValue::VT_STRING)
    .InferShape(InferEinsum)
    .Verify(VerifyEinsum);
REG_KERNEL(Einsum, ge::kEngineHostCpu).Fn(EinsumKernel);

}  // namespace ops
