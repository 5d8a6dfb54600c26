// metadef/register/src/op_register_c.cc
//
// The C registration interface: a builder around ge::OpReg, and trampolines
// (plain KernelFn / InferShapeFn) that find the C functions of the node's op
// type and convert between gert tensors and GeCTensor.
#include "metadef/register/inc/register/op_register_c.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"

struct GeCOpReg {
  explicit GeCOpReg(std::string type) : type(type), reg(std::move(type)) {}
  std::string type;
  ge::OpReg reg;
  std::string first_error;
  std::string engine;
  GeCKernelFn kernel = nullptr;
  void* kernel_user = nullptr;
  GeCInferShapeFn infer = nullptr;
  void* infer_user = nullptr;
};

namespace ge {
namespace {

thread_local std::string t_last_error;
thread_local const gert::KernelContext* t_kernel_ctx = nullptr;

struct CFunctions {
  GeCKernelFn kernel = nullptr;
  void* kernel_user = nullptr;
  GeCInferShapeFn infer = nullptr;
  void* infer_user = nullptr;
};

struct CTable {
  absl::Mutex mu;
  absl::flat_hash_map<std::string, CFunctions> by_type ABSL_GUARDED_BY(mu);
};

CTable& Table() {
  static CTable* t = new CTable();  // never destroyed
  return *t;
}

int Fail(const Status& st) {
  t_last_error = std::string(st.message());
  return static_cast<int>(GetErrorCode(st));
}

// Records a builder error (the first one poisons the builder).
int FailBuilder(GeCOpReg* reg, const Status& st) {
  if (reg != nullptr && reg->first_error.empty()) reg->first_error = std::string(st.message());
  return Fail(st);
}

int Ok() {
  t_last_error.clear();
  return 0;
}

std::string RegName(const GeCOpReg* reg) {
  return absl::StrCat("C op registration '", reg->type, "'");
}

Status CheckName(const GeCOpReg* reg, const char* name, const char* what) {
  if (name == nullptr || name[0] == '\0') {
    return ParamInvalid(RegName(reg), ": ", what, " name is null or empty");
  }
  return OkStatus();
}

StatusOr<TensorType> ToTensorType(const GeCOpReg* reg, const char* name, const int32_t* dtypes,
                                  size_t n) {
  if (dtypes == nullptr || n == 0) {
    return ParamInvalid(RegName(reg), ": '", name, "' has no allowed data types");
  }
  std::vector<DataType> types;
  for (size_t i = 0; i < n; ++i) {
    if (!TypeUtils::IsDataTypeValid(dtypes[i]) || dtypes[i] == DT_UNDEFINED) {
      return ParamInvalid(RegName(reg), ": '", name, "' allowed data type [", i, "] = ", dtypes[i],
                          " is not a valid data type");
    }
    types.push_back(static_cast<DataType>(dtypes[i]));
  }
  return TensorType(types);
}

void ToC(const gert::Shape& s, GeCShape* out) {
  out->dim_num = s.GetDimNum();
  for (size_t d = 0; d < s.GetDimNum(); ++d) out->dims[d] = s.GetDim(d);
}

void TensorToC(const gert::Tensor* t, GeCTensor* out) {
  if (t == nullptr) {
    out->dtype = DT_UNDEFINED;
    out->shape.dim_num = 0;
    out->data = nullptr;
    out->size = 0;
    return;
  }
  out->dtype = t->GetDataType();
  ToC(t->GetShape(), &out->shape);
  out->data = const_cast<void*>(t->GetAddr());
  out->size = t->GetSize();
}

bool LookUp(absl::string_view type, CFunctions* fns) {
  CTable& table = Table();
  absl::ReaderMutexLock lock(&table.mu);
  auto it = table.by_type.find(type);
  if (it == table.by_type.end()) return false;
  *fns = it->second;
  return true;
}

Status CKernelTrampoline(gert::KernelContext& ctx) {
  CFunctions fns;
  if (!LookUp(ctx.GetNodeType(), &fns) || fns.kernel == nullptr) {
    return ctx.ErrorWithCode(ErrorCode::kInternal, "no C kernel registered for the op type");
  }
  absl::InlinedVector<GeCTensor, 8> ins(ctx.GetInputNum());
  absl::InlinedVector<GeCTensor, 4> outs(ctx.GetOutputNum());
  for (size_t i = 0; i < ins.size(); ++i) TensorToC(ctx.GetInputTensor(i), &ins[i]);
  for (size_t i = 0; i < outs.size(); ++i) TensorToC(ctx.GetOutputTensor(i), &outs[i]);
  const gert::KernelContext* prev = t_kernel_ctx;
  t_kernel_ctx = &ctx;
  const int rc = fns.kernel(ins.data(), ins.size(), outs.data(), outs.size(), fns.kernel_user);
  t_kernel_ctx = prev;
  if (rc != 0) return ctx.ErrorWithCode(ErrorCode::kFailed, "C kernel returned ", rc);
  return OkStatus();
}

Status CInferTrampoline(gert::InferShapeContext& ctx) {
  CFunctions fns;
  if (!LookUp(ctx.GetNodeType(), &fns) || fns.infer == nullptr) {
    return ctx.ErrorWithCode(ErrorCode::kInternal, "no C infer shape function registered");
  }
  absl::InlinedVector<GeCTensor, 8> ins(ctx.GetInputNum());
  absl::InlinedVector<GeCTensor, 4> outs(ctx.GetOutputNum());
  for (size_t i = 0; i < ins.size(); ++i) {
    const gert::Shape* s = ctx.GetInputShape(i);
    const gert::Tensor* value = ctx.GetInputTensor(i);
    ins[i].dtype = ctx.GetInputDataType(i);
    ins[i].shape.dim_num = 0;
    if (s != nullptr) ToC(*s, &ins[i].shape);
    ins[i].data = value == nullptr ? nullptr : const_cast<void*>(value->GetAddr());
    ins[i].size = value == nullptr ? 0 : value->GetSize();
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    outs[i].dtype = ctx.GetOutputDataType(i);
    ToC(*ctx.GetOutputShape(i), &outs[i].shape);
    outs[i].data = nullptr;
    outs[i].size = 0;
  }
  const int rc = fns.infer(ins.data(), ins.size(), outs.data(), outs.size(), fns.infer_user);
  if (rc != 0) return ctx.ErrorWithCode(ErrorCode::kFailed, "C infer shape function returned ", rc);
  for (size_t i = 0; i < outs.size(); ++i) {
    if (outs[i].shape.dim_num > GE_C_MAX_DIMS) {
      return ctx.Error("C infer shape function set output ", i, " rank ", outs[i].shape.dim_num,
                       " above ", GE_C_MAX_DIMS);
    }
    if (!TypeUtils::IsDataTypeValid(outs[i].dtype)) {
      return ctx.Error("C infer shape function set output ", i, " data type ", outs[i].dtype,
                       ", which is not a valid data type");
    }
    gert::Shape* s = ctx.GetOutputShape(i);
    s->SetDimNum(0);
    for (size_t d = 0; d < outs[i].shape.dim_num; ++d) s->AppendDim(outs[i].shape.dims[d]);
    ctx.SetOutputDataType(i, static_cast<DataType>(outs[i].dtype));
  }
  return OkStatus();
}

template <typename T>
int AddAttr(GeCOpReg* reg, const char* name, T value) {
  if (reg == nullptr) return Fail(ParamInvalid("null C op registration"));
  const Status st = CheckName(reg, name, "attribute");
  if (!st.ok()) return FailBuilder(reg, st);
  reg->reg.Attr(name, AttrValue::CreateFrom<T>(std::move(value)));
  return Ok();
}

int AddIo(GeCOpReg* reg, const char* name, GeCIoKind kind, const int32_t* dtypes, size_t n,
          bool input) {
  if (reg == nullptr) return Fail(ParamInvalid("null C op registration"));
  const char* what = input ? "input" : "output";
  Status st = CheckName(reg, name, what);
  if (!st.ok()) return FailBuilder(reg, st);
  StatusOr<TensorType> types = ToTensorType(reg, name, dtypes, n);
  if (!types.ok()) return FailBuilder(reg, types.status());
  switch (kind) {
    case GE_C_IO_REQUIRED:
      if (input) {
        reg->reg.Input(name, *types);
      } else {
        reg->reg.Output(name, *types);
      }
      return Ok();
    case GE_C_IO_OPTIONAL:
      if (!input) {
        return FailBuilder(reg,
                           ParamInvalid(RegName(reg), ": output '", name, "' cannot be optional"));
      }
      reg->reg.OptionalInput(name, *types);
      return Ok();
    case GE_C_IO_DYNAMIC:
      if (input) {
        reg->reg.DynamicInput(name, *types);
      } else {
        reg->reg.DynamicOutput(name, *types);
      }
      return Ok();
  }
  return FailBuilder(reg, ParamInvalid(RegName(reg), ": ", what, " '", name, "' has kind ",
                                       static_cast<int>(kind), ", which is not a GeCIoKind"));
}

}  // namespace
}  // namespace ge

extern "C" {

GeCOpReg* GeCOpRegCreate(const char* op_type) {
  if (op_type == nullptr || op_type[0] == '\0') {
    ge::Fail(ge::ParamInvalid("C op registration: op type is null or empty"));
    return nullptr;
  }
  ge::Ok();
  return new GeCOpReg(op_type);
}

int GeCOpRegAddInput(GeCOpReg* reg, const char* name, GeCIoKind kind, const int32_t* dtypes,
                     size_t n_dtypes) {
  return ge::AddIo(reg, name, kind, dtypes, n_dtypes, true);
}

int GeCOpRegAddOutput(GeCOpReg* reg, const char* name, GeCIoKind kind, const int32_t* dtypes,
                      size_t n_dtypes) {
  return ge::AddIo(reg, name, kind, dtypes, n_dtypes, false);
}

int GeCOpRegAddAttrInt(GeCOpReg* reg, const char* name, int64_t default_value) {
  return ge::AddAttr<int64_t>(reg, name, default_value);
}

int GeCOpRegAddAttrFloat(GeCOpReg* reg, const char* name, float default_value) {
  return ge::AddAttr<float>(reg, name, default_value);
}

int GeCOpRegAddAttrBool(GeCOpReg* reg, const char* name, int default_value) {
  return ge::AddAttr<bool>(reg, name, default_value != 0);
}

int GeCOpRegAddAttrString(GeCOpReg* reg, const char* name, const char* default_value) {
  if (default_value == nullptr) {
    if (reg == nullptr) return ge::Fail(ge::ParamInvalid("null C op registration"));
    return ge::FailBuilder(
        reg, ge::ParamInvalid(ge::RegName(reg), ": attribute '", name == nullptr ? "" : name,
                              "' has a null default string"));
  }
  return ge::AddAttr<std::string>(reg, name, std::string(default_value));
}

int GeCOpRegAddRequiredAttr(GeCOpReg* reg, const char* name, GeCAttrType type) {
  if (reg == nullptr) return ge::Fail(ge::ParamInvalid("null C op registration"));
  const ge::Status st = ge::CheckName(reg, name, "attribute");
  if (!st.ok()) return ge::FailBuilder(reg, st);
  switch (type) {
    case GE_C_ATTR_STRING:
    case GE_C_ATTR_FLOAT:
    case GE_C_ATTR_BOOL:
    case GE_C_ATTR_INT:
    case GE_C_ATTR_DATA_TYPE:
    case GE_C_ATTR_LIST_FLOAT:
    case GE_C_ATTR_LIST_INT:
      reg->reg.RequiredAttr(name, static_cast<ge::AttrValue::ValueType>(type));
      return ge::Ok();
  }
  return ge::FailBuilder(reg,
                         ge::ParamInvalid(ge::RegName(reg), ": attribute '", name, "' has type ",
                                          static_cast<int>(type), ", which is not a GeCAttrType"));
}

int GeCOpRegSetInferShape(GeCOpReg* reg, GeCInferShapeFn fn, void* user) {
  if (reg == nullptr) return ge::Fail(ge::ParamInvalid("null C op registration"));
  if (fn == nullptr) {
    return ge::FailBuilder(reg, ge::ParamInvalid(ge::RegName(reg), ": null infer shape function"));
  }
  reg->infer = fn;
  reg->infer_user = user;
  return ge::Ok();
}

int GeCOpRegSetKernel(GeCOpReg* reg, const char* engine, GeCKernelFn fn, void* user) {
  if (reg == nullptr) return ge::Fail(ge::ParamInvalid("null C op registration"));
  if (fn == nullptr) {
    return ge::FailBuilder(reg, ge::ParamInvalid(ge::RegName(reg), ": null kernel function"));
  }
  if (reg->kernel != nullptr) {
    return ge::FailBuilder(reg, ge::ParamInvalid(ge::RegName(reg),
                                                 ": a C op has one kernel; already set for "
                                                 "engine '",
                                                 reg->engine, "'"));
  }
  reg->engine = engine == nullptr || engine[0] == '\0' ? ge::kEngineHostCpu : engine;
  reg->kernel = fn;
  reg->kernel_user = user;
  return ge::Ok();
}

int GeCOpRegSetPriority(GeCOpReg* reg, int32_t priority) {
  if (reg == nullptr) return ge::Fail(ge::ParamInvalid("null C op registration"));
  reg->reg.Priority(priority);
  return ge::Ok();
}

int GeCOpRegAddTraits(GeCOpReg* reg, uint32_t traits) {
  if (reg == nullptr) return ge::Fail(ge::ParamInvalid("null C op registration"));
  constexpr uint32_t kKnown =
      GE_C_TRAIT_SIDE_EFFECT | GE_C_TRAIT_RANDOM | GE_C_TRAIT_DATA_DEPENDENT_OUTPUT_SHAPE;
  static_assert(GE_C_TRAIT_SIDE_EFFECT == ge::kOpTraitSideEffect &&
                    GE_C_TRAIT_RANDOM == ge::kOpTraitRandom &&
                    GE_C_TRAIT_DATA_DEPENDENT_OUTPUT_SHAPE == ge::kOpTraitDataDependentOutputShape,
                "C trait bits are the OpTraitFlag bits");
  if ((traits & ~kKnown) != 0) {
    return ge::FailBuilder(reg, ge::ParamInvalid(ge::RegName(reg), ": unknown trait bits 0x",
                                                 absl::Hex(traits & ~kKnown)));
  }
  if ((traits & GE_C_TRAIT_SIDE_EFFECT) != 0) reg->reg.SideEffect();
  if ((traits & GE_C_TRAIT_RANDOM) != 0) reg->reg.Random();
  if ((traits & GE_C_TRAIT_DATA_DEPENDENT_OUTPUT_SHAPE) != 0) reg->reg.DataDependentOutputShape();
  return ge::Ok();
}

int GeCOpRegAddValueDependentInput(GeCOpReg* reg, const char* name) {
  if (reg == nullptr) return ge::Fail(ge::ParamInvalid("null C op registration"));
  if (name == nullptr) {
    return ge::FailBuilder(reg,
                           ge::ParamInvalid(ge::RegName(reg), ": null value-dependent input name"));
  }
  const std::vector<ge::OpIoDef>& inputs = reg->reg.data().inputs;
  for (const ge::OpIoDef& io : inputs) {
    if (io.name == name) {
      reg->reg.ValueDependentInput(absl::string_view(name));
      return ge::Ok();
    }
  }
  return ge::FailBuilder(reg, ge::ParamInvalid(ge::RegName(reg), ": value-dependent input '", name,
                                               "' is not declared"));
}

int GeCOpRegCommit(GeCOpReg* reg) {
  if (reg == nullptr) return ge::Fail(ge::ParamInvalid("null C op registration"));
  if (!reg->first_error.empty()) {
    const ge::Status st = ge::ParamInvalid(ge::RegName(reg), " not committed: ", reg->first_error);
    delete reg;
    return ge::Fail(st);
  }
  static std::atomic<int> counter{0};
  const std::string source = absl::StrCat("c_api#", ++counter);
  const std::string type = reg->type;
  const std::string engine = reg->engine;
  const bool has_kernel = reg->kernel != nullptr;
  if (reg->infer != nullptr) reg->reg.InferShape(&ge::CInferTrampoline);
  ge::CFunctions fns{reg->kernel, reg->kernel_user, reg->infer, reg->infer_user};

  ge::OpRegistry& registry = ge::OpRegistry::Instance();  // commits earlier registrations
  { ge::OpReceiver receiver(reg->reg); }
  delete reg;
  const ge::Status st = registry.CommitPending(source);
  const ge::OpRegistrationData* d = registry.Find(type);
  if (d != nullptr && d->source == source) {
    ge::CTable& table = ge::Table();
    absl::MutexLock lock(&table.mu);
    table.by_type[type] = fns;
  }
  if (!st.ok()) return ge::Fail(st);
  if (has_kernel && d != nullptr && d->source == source) {
    // The committed registration's kernel replaces any earlier one of the
    // type on this engine (as the op registration replaced its op).
    ge::KernelRegistry& kernels = ge::KernelRegistry::Instance();
    kernels.Unregister(type, engine);
    const ge::Status kst = kernels.Register(
        ge::KernelReg(type, engine).Fn(&ge::CKernelTrampoline).Source(source).Release());
    if (!kst.ok()) return ge::Fail(kst);
  }
  return ge::Ok();
}

void GeCOpRegDestroy(GeCOpReg* reg) { delete reg; }

const char* GeCGetLastError(void) { return ge::t_last_error.c_str(); }

int GeCKernelGetAttrInt(const char* name, int64_t* value) {
  if (ge::t_kernel_ctx == nullptr) {
    return ge::Fail(ge::ParamInvalid("GeCKernelGetAttrInt called outside a C kernel"));
  }
  if (name == nullptr || value == nullptr) {
    return ge::Fail(ge::ParamInvalid("GeCKernelGetAttrInt: null name or value"));
  }
  ge::StatusOr<int64_t> v = ge::t_kernel_ctx->GetInt(name);
  if (!v.ok()) return ge::Fail(v.status());
  *value = *v;
  return ge::Ok();
}

int GeCKernelGetAttrFloat(const char* name, float* value) {
  if (ge::t_kernel_ctx == nullptr) {
    return ge::Fail(ge::ParamInvalid("GeCKernelGetAttrFloat called outside a C kernel"));
  }
  if (name == nullptr || value == nullptr) {
    return ge::Fail(ge::ParamInvalid("GeCKernelGetAttrFloat: null name or value"));
  }
  ge::StatusOr<float> v = ge::t_kernel_ctx->GetFloat(name);
  if (!v.ok()) return ge::Fail(v.status());
  *value = *v;
  return ge::Ok();
}

}  // extern "C"
