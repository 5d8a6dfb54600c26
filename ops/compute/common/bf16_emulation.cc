// ops/compute/common/bf16_emulation.cc
#include "ops/compute/common/bf16_emulation.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "ops/common/op_util.h"
#include "ops/compute/common/dnnl_common.h"

namespace ops {
namespace compute {
namespace {

// Run keeps its substitute tensors on the stack: nodes with more inputs or
// outputs are not emulated (Prepare says so).
constexpr size_t kMaxInputs = 32;
constexpr size_t kMaxOutputs = 8;
constexpr size_t kAlign = 64;
// Elements per chunk of the threaded conversions.
constexpr int64_t kConvertGrain = 1 << 14;

size_t AlignUp(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

void ToFloat(const uint16_t* src, float* dst, int64_t n) {
  ParallelFor(n, kConvertGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) dst[i] = Bf16ToFloat(src[i]);
  });
}

void ToBf16(const float* src, uint16_t* dst, int64_t n) {
  ParallelFor(n, kConvertGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) dst[i] = FloatToBf16(src[i]);
  });
}

// How Run substitutes one tensor.
struct Slot {
  bool convert = false;  // BF16 made FLOAT
  bool fixed = false;    // an input converted at Prepare (data in `fixed_data`)
  size_t offset = 0;     // in the conversion workspace
  int64_t elements = 0;
};

class Bf16EmulatedKernel final : public ge::OpKernel {
 public:
  Bf16EmulatedKernel(const ge::KernelDef& def, Bf16Emulation mode) : def_(def), mode_(mode) {}

  ge::Status Prepare(gert::TilingContext& ctx) override {
    ge::Status native = ge::OkStatus();
    if (mode_ == Bf16Emulation::kFallback) {
      gert::TilingContext trial = ctx;
      std::unique_ptr<ge::OpKernel> k = def_.NewKernel();
      if (k == nullptr)
        return ctx.ErrorWithCode(ge::ErrorCode::kInternal, "kernel created nothing");
      native = k->Prepare(trial);
      if (native.ok() || !HasBf16Tensor(ctx)) {
        inner_ = std::move(k);
        ctx = trial;
        return native;
      }
    } else if (!HasBf16Tensor(ctx)) {
      inner_ = def_.NewKernel();
      return inner_->Prepare(ctx);
    }
    ge::Status emulated = PrepareEmulated(ctx);
    if (emulated.ok() || native.ok()) return emulated;
    return ge::MakeStatus(
        ge::GetErrorCode(native),
        absl::StrCat(native.message(), "; in FLOAT for want of native BF16: ", emulated.message()));
  }

  ge::Status Run(gert::KernelContext& ctx) const override {
    if (inner_ == nullptr) return ctx.ErrorWithCode(ge::ErrorCode::kInternal, "run unprepared");
    if (!emulating_) return inner_->Run(ctx);
    const absl::Span<void* const> ws = ctx.GetWorkspaces();
    if (ws.size() <= inner_workspaces_ || ws[inner_workspaces_] == nullptr) {
      return ctx.ErrorWithCode(ge::ErrorCode::kInternal, "the BF16 conversions need workspace ",
                               inner_workspaces_);
    }
    auto* base = static_cast<uint8_t*>(ws[inner_workspaces_]);
    const size_t n_in = ctx.GetInputNum(), n_out = ctx.GetOutputNum();
    if (n_in != in_.size() || n_out != out_.size()) {
      return ctx.ErrorWithCode(ge::ErrorCode::kInternal, n_in, " inputs and ", n_out,
                               " outputs; prepared for ", in_.size(), " and ", out_.size());
    }
    std::array<gert::Tensor, kMaxInputs> in_t;
    std::array<const gert::Tensor*, kMaxInputs> in_p;
    std::array<gert::Tensor, kMaxOutputs> out_t;
    std::array<gert::Tensor*, kMaxOutputs> out_p;
    for (size_t i = 0; i < n_in; ++i) {
      const gert::Tensor* t = ctx.GetInputTensor(i);
      in_p[i] = t;
      const Slot& s = in_[i];
      if (!s.convert || t == nullptr) continue;
      if (s.fixed) {
        in_p[i] = &fixed_[i];
        continue;
      }
      if (t->GetAddr() == nullptr || t->GetSize() < static_cast<size_t>(s.elements) * 2) {
        return ctx.Error("input ", i, " needs ", s.elements * 2, " bytes of BF16 data");
      }
      in_t[i] = *t;
      auto* f = reinterpret_cast<float*>(base + s.offset);
      in_t[i].SetDataType(ge::DT_FLOAT);
      in_t[i].SetData(f, static_cast<size_t>(s.elements) * 4);
      ToFloat(t->GetData<uint16_t>(), f, s.elements);
      in_p[i] = &in_t[i];
    }
    for (size_t i = 0; i < n_out; ++i) {
      gert::Tensor* t = ctx.GetOutputTensor(i);
      out_p[i] = t;
      const Slot& s = out_[i];
      if (!s.convert || t == nullptr) continue;
      if (t->GetAddr() == nullptr || t->GetSize() < static_cast<size_t>(s.elements) * 2) {
        return ctx.Error("output ", i, " needs ", s.elements * 2, " bytes");
      }
      out_t[i] = *t;
      out_t[i].SetDataType(ge::DT_FLOAT);
      out_t[i].SetData(base + s.offset, static_cast<size_t>(s.elements) * 4);
      out_p[i] = &out_t[i];
    }
    gert::KernelContext inner;
    inner.SetNode(ctx.GetNodeName(), ctx.GetNodeType());
    inner.SetAttrHolder(ctx.GetAttrHolder());
    inner.SetTensors(absl::MakeConstSpan(in_p.data(), n_in),
                     absl::MakeConstSpan(out_p.data(), n_out));
    inner.SetIrInputs(ctx.GetIrInputs());
    inner.SetOutputAllocator(ctx.GetOutputAllocator());
    inner.SetSubgraphRunner(ctx.GetSubgraphRunner());
    inner.SetWorkspaces(ws.first(inner_workspaces_));
    RETURN_IF_ERROR(inner_->Run(inner));
    for (size_t i = 0; i < n_out; ++i) {
      if (!out_[i].convert || out_p[i] == ctx.GetOutputTensor(i)) continue;
      ToBf16(out_t[i].GetData<float>(), ctx.GetOutputTensor(i)->GetData<uint16_t>(),
             out_[i].elements);
    }
    return ge::OkStatus();
  }

  bool BindsAddresses() const override { return inner_ != nullptr && inner_->BindsAddresses(); }
  const ge::OpKernel* inner() const { return inner_.get(); }
  bool emulating() const { return emulating_; }

 private:
  static bool HasBf16Tensor(const gert::TilingContext& ctx) {
    for (size_t i = 0; i < ctx.GetInputNum(); ++i) {
      const gert::Tensor* t = ctx.GetInputTensor(i);
      if (t != nullptr && t->GetDataType() == ge::DT_BF16) return true;
    }
    for (size_t i = 0; i < ctx.GetOutputNum(); ++i) {
      const gert::Tensor* t = ctx.GetOutputTensor(i);
      if (t != nullptr && t->GetDataType() == ge::DT_BF16) return true;
    }
    return false;
  }

  // The FLOAT twin of one BF16 tensor fact; grows *ws_bytes by its
  // conversion buffer unless it is a constant input (converted here).
  ge::Status Substitute(const gert::TilingContext& ctx, const gert::Tensor& t, bool input, size_t i,
                        Slot* s, gert::Tensor* f32, size_t* ws_bytes) {
    *f32 = t;
    if (t.GetDataType() != ge::DT_BF16) return ge::OkStatus();
    s->convert = true;
    s->elements = t.GetShapeSize();
    if (s->elements < 0) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, input ? "input " : "output ", i,
                               " has unknown dims ", t.GetShape().ToString());
    }
    f32->SetDataType(ge::DT_FLOAT);
    const size_t bytes = static_cast<size_t>(s->elements) * 4;
    if (input && t.GetAddr() != nullptr) {
      if (t.GetSize() < static_cast<size_t>(s->elements) * 2) {
        return ctx.Error("input ", i, " holds ", t.GetSize(), " bytes, its shape needs ",
                         s->elements * 2);
      }
      ASSIGN_OR_RETURN(AlignedBuffer buf, AlignedBuffer::Allocate(bytes));
      ToFloat(t.GetData<uint16_t>(), static_cast<float*>(buf.data()), s->elements);
      f32->SetData(buf.data(), bytes);
      s->fixed = true;
      fixed_data_.push_back(std::move(buf));
      return ge::OkStatus();
    }
    f32->SetData(nullptr, 0);
    s->offset = *ws_bytes;
    *ws_bytes += AlignUp(bytes);
    return ge::OkStatus();
  }

  ge::Status PrepareEmulated(gert::TilingContext& ctx) {
    const size_t n_in = ctx.GetInputNum(), n_out = ctx.GetOutputNum();
    if (n_in > kMaxInputs || n_out > kMaxOutputs) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, n_in, " inputs and ", n_out,
                               " outputs; BF16 emulation takes at most ", kMaxInputs, " and ",
                               kMaxOutputs);
    }
    in_.assign(n_in, Slot());
    out_.assign(n_out, Slot());
    fixed_.assign(n_in, gert::Tensor());
    fixed_data_.clear();
    std::vector<gert::Tensor> facts(n_in + n_out);
    std::vector<const gert::Tensor*> ptrs(n_in + n_out, nullptr);
    size_t ws_bytes = 0;
    for (size_t i = 0; i < n_in + n_out; ++i) {
      const bool input = i < n_in;
      const gert::Tensor* t = input ? ctx.GetInputTensor(i) : ctx.GetOutputTensor(i - n_in);
      if (t == nullptr) continue;
      Slot* s = input ? &in_[i] : &out_[i - n_in];
      RETURN_IF_ERROR(Substitute(ctx, *t, input, input ? i : i - n_in, s, &facts[i], &ws_bytes));
      if (input && s->fixed) fixed_[i] = facts[i];
      ptrs[i] = &facts[i];
    }
    gert::TilingContext inner;
    inner.SetNode(ctx.GetNodeName(), ctx.GetNodeType());
    inner.SetAttrHolder(ctx.GetAttrHolder());
    inner.SetTensors(absl::MakeConstSpan(ptrs.data(), n_in),
                     absl::MakeConstSpan(ptrs.data() + n_in, n_out));
    inner_ = def_.NewKernel();
    if (inner_ == nullptr)
      return ctx.ErrorWithCode(ge::ErrorCode::kInternal, "kernel created nothing");
    RETURN_IF_ERROR(inner_->Prepare(inner));
    const absl::Span<const size_t> asked = inner.GetWorkspaceSizes();
    if (asked.size() >= gert::TilingContext::kMaxWorkspaces) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "the kernel uses ", asked.size(),
                               " workspaces; BF16 emulation needs one more");
    }
    for (size_t k = 0; k < asked.size(); ++k) RETURN_IF_ERROR(ctx.SetWorkspaceSize(k, asked[k]));
    inner_workspaces_ = asked.size();
    RETURN_IF_ERROR(ctx.SetWorkspaceSize(inner_workspaces_, ws_bytes));
    ctx.SetTilingKey(inner.GetTilingKey());
    ctx.SetBlockDim(inner.GetBlockDim());
    emulating_ = true;
    return ge::OkStatus();
  }

  const ge::KernelDef& def_;
  const Bf16Emulation mode_;
  std::unique_ptr<ge::OpKernel> inner_;
  bool emulating_ = false;
  size_t inner_workspaces_ = 0;
  std::vector<Slot> in_, out_;
  std::vector<gert::Tensor> fixed_;  // per input: the converted constant (when fixed)
  std::vector<AlignedBuffer> fixed_data_;
};

}  // namespace

std::unique_ptr<ge::OpKernel> NewBf16Emulated(const ge::KernelDef& def, Bf16Emulation mode) {
  if (def.stateless()) return nullptr;
  return std::make_unique<Bf16EmulatedKernel>(def, mode);
}

std::unique_ptr<ge::OpKernel> NewComputeKernel(const ge::KernelDef& def) {
  const bool bf16 =
      std::find(def.dtypes.begin(), def.dtypes.end(), ge::DT_BF16) != def.dtypes.end();
  if (!def.stateless() && bf16 && !HasBf16()) return NewBf16Emulated(def);
  return def.NewKernel();
}

const ge::OpKernel& UnwrapBf16Emulated(const ge::OpKernel& k) {
  const auto* d = dynamic_cast<const Bf16EmulatedKernel*>(&k);
  return d != nullptr && d->inner() != nullptr ? *d->inner() : k;
}

bool IsBf16Emulating(const ge::OpKernel& k) {
  const auto* d = dynamic_cast<const Bf16EmulatedKernel*>(&k);
  return d != nullptr && d->emulating();
}

}  // namespace compute
}  // namespace ops
