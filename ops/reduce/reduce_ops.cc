// ops/reduce/reduce_ops.cc
//
// ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2,
// ReduceLogSum, ReduceLogSumExp, ReduceSumSquare (ONNX opset 17).
//   Axes: ReduceSum takes them as optional input 1 (INT64, opset 13) and has
//   noop_with_empty_axes (1: empty / absent axes return the input
//   unchanged); the others take the `axes` attribute. No axes (or an empty
//   list without noop) reduce every dim. Axes are in [-r, r-1]; duplicates
//   are errors. keepdims (default 1) keeps reduced dims as 1.
//   Infer shape with axes unknown (a non-constant axes input): keepdims gives
//   rank r with -1 dims (dims of size 1 stay 1); otherwise the rank is
//   r - len(axes) when the axes length is known, else unknown.
//   Empty reductions (a reduced dim of size 0) give the identity of the
//   operation: Sum / L1 / L2 / SumSquare 0, Prod 1, Max -inf (lowest int),
//   Min +inf (highest int), LogSum / LogSumExp -inf, Mean NaN (0 for ints).
// Arithmetic: float types accumulate in double (Max / Min compare in the
// element's compute type, NaN propagates); integer Sum / Prod / L1 /
// SumSquare wrap around; integer Mean / L2 / LogSum / LogSumExp compute in
// double and saturate back.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"
#include "ops/reduce/reduce_util.h"

namespace ops {
namespace {

enum class ReduceKind {
  kSum,
  kMean,
  kMax,
  kMin,
  kProd,
  kL1,
  kL2,
  kLogSum,
  kLogSumExp,
  kSumSquare,
};

const ge::TensorType& ReduceTypes() {
  static const ge::TensorType* t =
      new ge::TensorType({ge::DT_UINT32, ge::DT_UINT64, ge::DT_INT32, ge::DT_INT64, ge::DT_FLOAT16,
                          ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_BF16});
  return *t;
}

const ge::TensorType& MinMaxTypes() {
  static const ge::TensorType* t =
      new ge::TensorType({ge::DT_UINT32, ge::DT_UINT64, ge::DT_INT32, ge::DT_INT64, ge::DT_FLOAT16,
                          ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_BF16, ge::DT_UINT8, ge::DT_INT8});
  return *t;
}

// ---------------------------------------------------------------- axes

// The axes a node reduces, as far as they are known.
struct AxesSpec {
  bool known = true;          // values known
  std::vector<int64_t> axes;  // raw (unnormalised) values when known
  int64_t unknown_len = -1;   // when !known: number of axes if known, else -1
  bool noop_with_empty = false;
  bool keepdims = true;
};

template <ReduceKind K>
constexpr bool kAxesAsInput = K == ReduceKind::kSum;

template <ReduceKind K>
ge::Status ReadCommonAttrs(const gert::ContextBase& ctx, AxesSpec* spec) {
  ASSIGN_OR_RETURN(int64_t keepdims, ctx.GetIntOr("keepdims", 1));
  spec->keepdims = keepdims != 0;
  if constexpr (kAxesAsInput<K>) {
    ASSIGN_OR_RETURN(int64_t noop, ctx.GetIntOr("noop_with_empty_axes", 0));
    spec->noop_with_empty = noop != 0;
  } else {
    ASSIGN_OR_RETURN(spec->axes, ctx.GetListIntOr("axes", {}));
  }
  return ge::OkStatus();
}

template <ReduceKind K>
ge::StatusOr<AxesSpec> AxesForInfer(gert::InferShapeContext& ctx) {
  AxesSpec spec;
  RETURN_IF_ERROR(ReadCommonAttrs<K>(ctx, &spec));
  if constexpr (kAxesAsInput<K>) {
    const gert::Shape* as = ctx.GetInputShape(1);
    if (as == nullptr) return spec;  // absent: empty axes
    const gert::Tensor* av = ctx.GetInputTensor(1);
    if (av != nullptr) {
      auto values = ReadIntTensor(*av);
      if (!values.ok()) return ctx.Error("input 1 (axes): ", values.status().message());
      spec.axes = std::move(*values);
      return spec;
    }
    if (as->GetDimNum() > 1 && !as->IsUnknownRank()) {
      return ctx.Error("input 1 (axes) must be 1-D, got shape ", as->ToString());
    }
    const int64_t len = as->IsUnknownRank() ? -1 : as->GetShapeSize();
    if (len == 0) return spec;  // known to be empty
    spec.known = false;
    spec.unknown_len = len;
  }
  return spec;
}

template <ReduceKind K>
ge::StatusOr<AxesSpec> AxesForKernel(gert::KernelContext& ctx) {
  AxesSpec spec;
  RETURN_IF_ERROR(ReadCommonAttrs<K>(ctx, &spec));
  if constexpr (kAxesAsInput<K>) {
    if (ctx.GetInputTensor(1) != nullptr) {
      ASSIGN_OR_RETURN(const gert::Tensor* av, GetKernelInput(ctx, 1));
      auto values = ReadIntTensor(*av);
      if (!values.ok()) return ctx.Error("input 1 (axes): ", values.status().message());
      spec.axes = std::move(*values);
    }
  }
  return spec;
}

// Per-dim reduce flags for known axes; `identity` when the node is a no-op.
ge::Status ResolveAxes(const gert::ContextBase& ctx, const AxesSpec& spec, size_t rank,
                       std::vector<bool>* reduced, bool* identity) {
  *identity = false;
  reduced->assign(rank, false);
  if (spec.axes.empty()) {
    if (spec.noop_with_empty) {
      *identity = true;
    } else {
      reduced->assign(rank, true);
    }
    return ge::OkStatus();
  }
  auto norm = NormalizeAxes(spec.axes, static_cast<int64_t>(rank));
  if (!norm.ok()) return ctx.Error("axes: ", norm.status().message());
  for (int64_t a : *norm) (*reduced)[static_cast<size_t>(a)] = true;
  return ge::OkStatus();
}

gert::Shape ReducedShape(const gert::Shape& x, const std::vector<bool>& reduced, bool keepdims) {
  gert::Shape out;
  for (size_t i = 0; i < x.GetDimNum(); ++i) {
    if (!reduced[i]) {
      out.AppendDim(x.GetDim(i));
    } else if (keepdims) {
      out.AppendDim(1);
    }
  }
  return out;
}

template <ReduceKind K>
ge::Status InferReduce(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (data) is missing");
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 (reduced) is missing");
  ASSIGN_OR_RETURN(AxesSpec spec, AxesForInfer<K>(ctx));
  if (x->IsUnknownRank()) {
    if (spec.known && spec.axes.empty()) {
      if (spec.noop_with_empty) {
        *y = *x;
      } else {
        *y = spec.keepdims ? *x : gert::Shape{};
      }
    } else {
      *y = *x;  // unknown rank
    }
    return ge::OkStatus();
  }
  const size_t rank = x->GetDimNum();
  if (spec.known) {
    std::vector<bool> reduced;
    bool identity = false;
    RETURN_IF_ERROR(ResolveAxes(ctx, spec, rank, &reduced, &identity));
    *y = identity ? *x : ReducedShape(*x, reduced, spec.keepdims);
    if (!AnyInputRange(ctx)) return ge::OkStatus();
    // Kept dims keep their ranges; reduced dims become 1 or vanish.
    ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
    if (identity) return SetOutputRange(ctx, 0, std::move(xr));
    gert::ShapeRange range;
    for (size_t i = 0; i < rank; ++i) {
      if (!reduced[i]) {
        range.push_back(xr[i]);
      } else if (spec.keepdims) {
        range.push_back(DimRange{1, 1});
      }
    }
    return SetOutputRange(ctx, 0, std::move(range));
  }
  if (spec.keepdims) {
    gert::Shape out;
    for (int64_t d : x->GetDims()) out.AppendDim(d == 1 ? 1 : -1);
    *y = out;
  } else if (spec.unknown_len >= 0) {
    if (spec.unknown_len > static_cast<int64_t>(rank)) {
      return ctx.Error("input 1 (axes) has ", spec.unknown_len, " entries but input 0 (data) ",
                       x->ToString(), " has rank ", rank);
    }
    gert::Shape out;
    for (int64_t i = 0; i < static_cast<int64_t>(rank) - spec.unknown_len; ++i) out.AppendDim(-1);
    *y = out;
  } else {
    *y = gert::Shape{ge::UNKNOWN_RANK};
  }
  return ge::OkStatus();
}

// ---------------------------------------------------------------- reduction ops

// Accumulator for "sum-like" ops: double for floats, wrap-around uint64 for
// integers.
template <typename T>
using WideAcc = std::conditional_t<kIsFloatLike<T>, double, uint64_t>;

template <typename T, typename A>
inline A ToAcc(T x) {
  if constexpr (std::is_same<A, uint64_t>::value) {
    if constexpr (std::is_signed<T>::value) {
      return static_cast<uint64_t>(static_cast<int64_t>(x));
    } else {
      return static_cast<uint64_t>(x);
    }
  } else {
    return static_cast<A>(ToCompute(x));
  }
}

template <typename T, typename A>
struct SumOp {
  A Init() const { return A{0}; }
  A Map(T x, int64_t) const { return ToAcc<T, A>(x); }
  A Combine(A a, A b) const { return a + b; }
};

template <typename T, typename A>
struct SumSquareOp {
  A Init() const { return A{0}; }
  A Map(T x, int64_t) const {
    const A v = ToAcc<T, A>(x);
    return v * v;
  }
  A Combine(A a, A b) const { return a + b; }
};

template <typename T, typename A>
struct L1Op {
  A Init() const { return A{0}; }
  A Map(T x, int64_t) const {
    const A v = ToAcc<T, A>(x);
    if constexpr (std::is_same<A, uint64_t>::value) {
      if constexpr (std::is_signed<T>::value) {
        return x < 0 ? A{0} - v : v;
      } else {
        return v;
      }
    } else {
      return std::fabs(v);
    }
  }
  A Combine(A a, A b) const { return a + b; }
};

template <typename T, typename A>
struct ProdOp {
  A Init() const { return A{1}; }
  A Map(T x, int64_t) const { return ToAcc<T, A>(x); }
  A Combine(A a, A b) const { return a * b; }
};

// Max / Min in the compute type; NaN propagates.
template <typename T, typename A, bool kMax>
struct ExtremumOp {
  A Init() const {
    if constexpr (std::is_floating_point<A>::value) {
      return kMax ? -std::numeric_limits<A>::infinity() : std::numeric_limits<A>::infinity();
    } else {
      return kMax ? std::numeric_limits<A>::lowest() : std::numeric_limits<A>::max();
    }
  }
  A Map(T x, int64_t) const { return static_cast<A>(ToCompute(x)); }
  A Combine(A a, A b) const {
    if constexpr (std::is_floating_point<A>::value) {
      if (a != a) return a;
      if (b != b) return b;
    }
    if constexpr (kMax) {
      return a >= b ? a : b;
    } else {
      return a <= b ? a : b;
    }
  }
};

// sum(exp(x - shift[o])) for LogSumExp's second pass.
template <typename T>
struct SumExpOp {
  const double* shift = nullptr;
  double Init() const { return 0.0; }
  double Map(T x, int64_t o) const {
    return std::exp(static_cast<double>(ToCompute(x)) - shift[o]);
  }
  double Combine(double a, double b) const { return a + b; }
};

template <typename T>
struct RealSumOp {  // sum in double (integer Mean / L2 / LogSum)
  double Init() const { return 0.0; }
  double Map(T x, int64_t) const { return static_cast<double>(ToCompute(x)); }
  double Combine(double a, double b) const { return a + b; }
};

template <typename T>
struct RealSumSquareOp {
  double Init() const { return 0.0; }
  double Map(T x, int64_t) const {
    const double v = static_cast<double>(ToCompute(x));
    return v * v;
  }
  double Combine(double a, double b) const { return a + b; }
};

// Runs op over x (row-major, geometry g) into acc (one per output element,
// pre-initialised with op.Init()).
template <typename T, typename A, typename Op>
void ReduceLoop(const ReduceGeometry& g, const T* x, A* acc, const Op& op) {
  if (g.in_count <= 0) return;
  const size_t nd = g.dims.size();
  if (nd == 0) {  // every dim has size 1
    acc[0] = op.Combine(acc[0], op.Map(x[0], 0));
    return;
  }
  const int64_t inner = g.dims[nd - 1];
  const bool inner_reduced = g.reduced[nd - 1];
  std::vector<int64_t> ctr(nd, 0);
  int64_t out = 0;
  for (int64_t in = 0; in < g.in_count; in += inner) {
    const T* row = x + in;
    if (inner_reduced) {
      A p0 = op.Init(), p1 = op.Init(), p2 = op.Init(), p3 = op.Init();
      int64_t j = 0;
      for (; j + 4 <= inner; j += 4) {
        p0 = op.Combine(p0, op.Map(row[j], out));
        p1 = op.Combine(p1, op.Map(row[j + 1], out));
        p2 = op.Combine(p2, op.Map(row[j + 2], out));
        p3 = op.Combine(p3, op.Map(row[j + 3], out));
      }
      for (; j < inner; ++j) p0 = op.Combine(p0, op.Map(row[j], out));
      acc[out] = op.Combine(acc[out], op.Combine(op.Combine(p0, p1), op.Combine(p2, p3)));
    } else {
      A* arow = acc + out;
      for (int64_t j = 0; j < inner; ++j) arow[j] = op.Combine(arow[j], op.Map(row[j], out + j));
    }
    // Advance the outer dims.
    for (size_t d = nd - 1; d-- > 0;) {
      if (++ctr[d] < g.dims[d]) {
        out += g.out_strides[d];
        break;
      }
      out -= g.out_strides[d] * (g.dims[d] - 1);
      ctr[d] = 0;
    }
  }
}

template <typename T, typename A, typename Op>
std::vector<A> Accumulate(const ReduceGeometry& g, const T* x, const Op& op) {
  std::vector<A> acc(static_cast<size_t>(g.out_count), op.Init());
  ReduceLoop<T, A, Op>(g, x, acc.data(), op);
  return acc;
}

template <typename T, typename A>
inline T ToOutput(A v) {
  if constexpr (kIsFloatLike<T>) {
    return FromCompute<T>(static_cast<ComputeType<T>>(v));
  } else if constexpr (std::is_floating_point<A>::value) {
    return SaturateCast<T>(static_cast<double>(v));
  } else {
    return static_cast<T>(v);  // modular for wrap-around accumulators
  }
}

template <typename T, typename A, typename F>
void WriteOut(const std::vector<A>& acc, T* y, F&& finalize) {
  for (size_t i = 0; i < acc.size(); ++i) y[i] = ToOutput<T>(finalize(acc[i]));
}

template <ReduceKind K, typename T>
void RunReduce(const ReduceGeometry& g, const T* x, T* y) {
  using W = WideAcc<T>;
  auto id = [](auto v) { return v; };
  if constexpr (K == ReduceKind::kSum) {
    WriteOut(Accumulate<T, W>(g, x, SumOp<T, W>{}), y, id);
  } else if constexpr (K == ReduceKind::kSumSquare) {
    WriteOut(Accumulate<T, W>(g, x, SumSquareOp<T, W>{}), y, id);
  } else if constexpr (K == ReduceKind::kL1) {
    WriteOut(Accumulate<T, W>(g, x, L1Op<T, W>{}), y, id);
  } else if constexpr (K == ReduceKind::kProd) {
    WriteOut(Accumulate<T, W>(g, x, ProdOp<T, W>{}), y, id);
  } else if constexpr (K == ReduceKind::kMax || K == ReduceKind::kMin) {
    using C = ComputeType<T>;
    WriteOut(Accumulate<T, C>(g, x, ExtremumOp<T, C, K == ReduceKind::kMax>{}), y, id);
  } else if constexpr (K == ReduceKind::kMean) {
    const double count = static_cast<double>(g.reduce_count);
    if constexpr (kIsFloatLike<T>) {
      WriteOut(Accumulate<T, double>(g, x, RealSumOp<T>{}), y, [&](double s) { return s / count; });
    } else {
      WriteOut(Accumulate<T, double>(g, x, RealSumOp<T>{}), y,
               [&](double s) { return count > 0 ? std::trunc(s / count) : 0.0; });
    }
  } else if constexpr (K == ReduceKind::kL2) {
    WriteOut(Accumulate<T, double>(g, x, RealSumSquareOp<T>{}), y,
             [](double s) { return std::sqrt(s); });
  } else if constexpr (K == ReduceKind::kLogSum) {
    WriteOut(Accumulate<T, double>(g, x, RealSumOp<T>{}), y, [](double s) { return std::log(s); });
  } else {  // kLogSumExp: max-shifted for stability
    std::vector<double> shift = Accumulate<T, double>(g, x, ExtremumOp<T, double, true>{});
    for (double& s : shift) {
      if (!std::isfinite(s)) s = std::isnan(s) ? s : (s > 0 ? s : 0.0);
    }
    SumExpOp<T> op;
    op.shift = shift.data();
    std::vector<double> sums = Accumulate<T, double>(g, x, op);
    for (size_t i = 0; i < sums.size(); ++i) {
      const double s = shift[i];
      // A +inf maximum gives +inf; otherwise log(sum) + shift.
      sums[i] = std::isinf(s) ? s : std::log(sums[i]) + s;
    }
    WriteOut(sums, y, id);
  }
}

template <ReduceKind K>
ge::Status ReduceKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(AxesSpec spec, AxesForKernel<K>(ctx));
  const gert::Shape& xs = x->GetShape();
  std::vector<bool> reduced;
  bool identity = false;
  RETURN_IF_ERROR(ResolveAxes(ctx, spec, xs.GetDimNum(), &reduced, &identity));
  const ge::DataType dt = x->GetDataType();
  const gert::Shape ys = identity ? xs : ReducedShape(xs, reduced, spec.keepdims);
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, ys, dt));
  return WithNode(ctx, DispatchType<kTgAllFloat | kTgInt>(
                           dt,
                           [&](auto tag) -> ge::Status {
                             using T = typename decltype(tag)::type;
                             const T* in = x->GetData<T>();
                             T* out = y->GetData<T>();
                             if (identity) {
                               std::copy(in, in + xs.GetShapeSize(), out);
                               return ge::OkStatus();
                             }
                             const ReduceGeometry g = MakeReduceGeometry(xs, reduced);
                             RunReduce<K, T>(g, in, out);
                             return ge::OkStatus();
                           },
                           "reduction input data"));
}

}  // namespace

#define GE_REDUCE_OP_(Name, Kind, Types)                                 \
  REG_OP(Name)                                                           \
      .Input("data", Types)                                              \
      .Output("reduced", Types)                                          \
      .Attr("axes", ge::AttrValue::CreateFrom<std::vector<int64_t>>({})) \
      .Attr("keepdims", ge::AttrValue::CreateFrom<int64_t>(1))           \
      .InferShape(InferReduce<ReduceKind::Kind>);                        \
  REG_KERNEL(Name, ge::kEngineHostCpu).Fn(ReduceKernel<ReduceKind::Kind>)

GE_REDUCE_OP_(ReduceMean, kMean, ReduceTypes());
GE_REDUCE_OP_(ReduceMax, kMax, MinMaxTypes());
GE_REDUCE_OP_(ReduceMin, kMin, MinMaxTypes());
GE_REDUCE_OP_(ReduceProd, kProd, ReduceTypes());
GE_REDUCE_OP_(ReduceL1, kL1, ReduceTypes());
GE_REDUCE_OP_(ReduceL2, kL2, ReduceTypes());
GE_REDUCE_OP_(ReduceLogSum, kLogSum, ReduceTypes());
GE_REDUCE_OP_(ReduceLogSumExp, kLogSumExp, ReduceTypes());
GE_REDUCE_OP_(ReduceSumSquare, kSumSquare, ReduceTypes());
#undef GE_REDUCE_OP_

REG_OP(ReduceSum)
    .Input("data", ReduceTypes())
    .OptionalInput("axes", ge::TensorType(ge::DT_INT64))
    .Output("reduced", ReduceTypes())
    .Attr("keepdims", ge::AttrValue::CreateFrom<int64_t>(1))
    .Attr("noop_with_empty_axes", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferReduce<ReduceKind::kSum>)
    .ValueDependentInput("axes");
REG_KERNEL(ReduceSum, ge::kEngineHostCpu).Fn(ReduceKernel<ReduceKind::kSum>);

}  // namespace ops
