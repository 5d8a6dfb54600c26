// metadef/register/src/contexts.cc
//
// ContextBase typed attribute accessors, KernelContext::AllocateOutput and
// the three context builders.
#include "metadef/register/inc/gert/contexts.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "metadef/inc/external/base/status.h"

namespace gert {
namespace {

// The attribute `name` as a T, or NotFound / TypeMismatch naming the node.
template <typename T>
ge::StatusOr<const T*> GetTyped(const ContextBase& ctx, absl::string_view name) {
  const ge::AttrValue* v = ctx.GetAttr(name);
  if (v == nullptr) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotFound, "attribute '", name, "' not found");
  }
  const T* p = v->Get<T>();
  if (p == nullptr) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "attribute '", name, "' is ",
                             ge::AttrValue::ValueTypeName(v->GetValueType()), ", expected ",
                             ge::AttrValue::ValueTypeName(ge::AttrValue::TypeOf<T>()));
  }
  return p;
}

// Get with a default: absent -> dflt; present with the wrong type -> error.
template <typename T, typename D>
ge::StatusOr<T> GetTypedOr(const ContextBase& ctx, absl::string_view name, D&& dflt) {
  if (ctx.GetAttr(name) == nullptr) return T(std::forward<D>(dflt));
  ASSIGN_OR_RETURN(const T* p, GetTyped<T>(ctx, name));
  return *p;
}

}  // namespace

// ---------------------------------------------------------------- ContextBase

const ge::AttrValue* ContextBase::GetAttr(absl::string_view name) const {
  return attrs_ == nullptr ? nullptr : attrs_->GetAttr(name);
}

ge::StatusOr<int64_t> ContextBase::GetInt(absl::string_view name) const {
  ASSIGN_OR_RETURN(const int64_t* p, GetTyped<int64_t>(*this, name));
  return *p;
}

ge::StatusOr<int64_t> ContextBase::GetIntOr(absl::string_view name, int64_t dflt) const {
  return GetTypedOr<int64_t>(*this, name, dflt);
}

ge::StatusOr<float> ContextBase::GetFloat(absl::string_view name) const {
  ASSIGN_OR_RETURN(const float* p, GetTyped<float>(*this, name));
  return *p;
}

ge::StatusOr<float> ContextBase::GetFloatOr(absl::string_view name, float dflt) const {
  return GetTypedOr<float>(*this, name, dflt);
}

ge::StatusOr<bool> ContextBase::GetBool(absl::string_view name) const {
  const ge::AttrValue* v = GetAttr(name);
  if (v == nullptr) {
    return ErrorWithCode(ge::ErrorCode::kNotFound, "attribute '", name, "' not found");
  }
  if (const bool* b = v->Get<bool>()) return *b;
  if (const int64_t* i = v->Get<int64_t>()) {
    // Front ends (ONNX) store booleans as ints.
    if (*i == 0 || *i == 1) return *i == 1;
    return ErrorWithCode(ge::ErrorCode::kTypeMismatch, "attribute '", name, "' is int ", *i,
                         ", expected bool (or int 0/1)");
  }
  return ErrorWithCode(ge::ErrorCode::kTypeMismatch, "attribute '", name, "' is ",
                       ge::AttrValue::ValueTypeName(v->GetValueType()),
                       ", expected bool (or int 0/1)");
}

ge::StatusOr<bool> ContextBase::GetBoolOr(absl::string_view name, bool dflt) const {
  if (GetAttr(name) == nullptr) return dflt;
  return GetBool(name);
}

ge::StatusOr<std::string> ContextBase::GetStr(absl::string_view name) const {
  ASSIGN_OR_RETURN(const std::string* p, GetTyped<std::string>(*this, name));
  return *p;
}

ge::StatusOr<std::string> ContextBase::GetStrOr(absl::string_view name,
                                                absl::string_view dflt) const {
  return GetTypedOr<std::string>(*this, name, std::string(dflt));
}

ge::StatusOr<ge::DataType> ContextBase::GetDataType(absl::string_view name) const {
  ASSIGN_OR_RETURN(const ge::DataType* p, GetTyped<ge::DataType>(*this, name));
  return *p;
}

ge::StatusOr<std::vector<int64_t>> ContextBase::GetListInt(absl::string_view name) const {
  ASSIGN_OR_RETURN(const std::vector<int64_t>* p, GetTyped<std::vector<int64_t>>(*this, name));
  return *p;
}

ge::StatusOr<std::vector<int64_t>> ContextBase::GetListIntOr(absl::string_view name,
                                                             std::vector<int64_t> dflt) const {
  return GetTypedOr<std::vector<int64_t>>(*this, name, std::move(dflt));
}

ge::StatusOr<std::vector<float>> ContextBase::GetListFloat(absl::string_view name) const {
  ASSIGN_OR_RETURN(const std::vector<float>* p, GetTyped<std::vector<float>>(*this, name));
  return *p;
}

ge::StatusOr<std::vector<float>> ContextBase::GetListFloatOr(absl::string_view name,
                                                             std::vector<float> dflt) const {
  return GetTypedOr<std::vector<float>>(*this, name, std::move(dflt));
}

ge::StatusOr<std::vector<std::string>> ContextBase::GetListStr(absl::string_view name) const {
  ASSIGN_OR_RETURN(const std::vector<std::string>* p,
                   GetTyped<std::vector<std::string>>(*this, name));
  return *p;
}

ge::StatusOr<std::vector<std::string>> ContextBase::GetListStrOr(
    absl::string_view name, std::vector<std::string> dflt) const {
  return GetTypedOr<std::vector<std::string>>(*this, name, std::move(dflt));
}

ge::StatusOr<absl::Span<const int64_t>> ContextBase::GetListIntView(absl::string_view name) const {
  ASSIGN_OR_RETURN(const std::vector<int64_t>* p, GetTyped<std::vector<int64_t>>(*this, name));
  return absl::MakeConstSpan(*p);
}

ge::StatusOr<absl::Span<const float>> ContextBase::GetListFloatView(absl::string_view name) const {
  ASSIGN_OR_RETURN(const std::vector<float>* p, GetTyped<std::vector<float>>(*this, name));
  return absl::MakeConstSpan(*p);
}

const ge::GeTensor* ContextBase::GetTensorAttr(absl::string_view name) const {
  const ge::AttrValue* v = GetAttr(name);
  return v == nullptr ? nullptr : v->Get<ge::GeTensor>();
}

// ---------------------------------------------------------------- KernelContext

ge::StatusOr<Tensor*> KernelContext::AllocateOutput(size_t i, const Shape& shape,
                                                    ge::DataType dtype) {
  if (i >= outputs_.size()) {
    return ErrorWithCode(ge::ErrorCode::kOutOfRange, "output index ", i,
                         " out of range (the node has ", outputs_.size(), " outputs)");
  }
  Tensor* t = outputs_[i];
  if (t == nullptr) {
    return ErrorWithCode(ge::ErrorCode::kInternal, "output ", i, " has no tensor");
  }
  if (allocator_ == nullptr) {
    return ErrorWithCode(ge::ErrorCode::kNotSupported, "output ", i,
                         " needs allocation but the executor provided no OutputAllocator");
  }
  if (shape.IsUnknownShape()) {
    return ErrorWithCode(ge::ErrorCode::kParamInvalid, "output ", i,
                         " cannot be allocated with unknown shape ", shape.ToString());
  }
  t->SetShape(shape);
  t->SetDataType(dtype);
  const ge::Status st = allocator_->Allocate(i, t);
  if (!st.ok()) return ge::Annotate(st, "node ", GetNodeName(), " (", GetNodeType(), "): ");
  return t;
}

// ---------------------------------------------------------------- builders

InferShapeContextBuilder& InferShapeContextBuilder::Node(std::string name, std::string type) {
  name_ = std::move(name);
  type_ = std::move(type);
  return *this;
}

InferShapeContextBuilder& InferShapeContextBuilder::Attrs(const ge::AttrHolder* attrs) {
  attrs_ = attrs;
  return *this;
}

InferShapeContextBuilder& InferShapeContextBuilder::Input(const Shape& shape, ge::DataType dtype,
                                                          const Tensor* value,
                                                          const ShapeRange* range) {
  in_shapes_.push_back(shape);
  in_present_.push_back(true);
  in_dtypes_.push_back(dtype);
  in_tensors_.push_back(value);
  in_ranges_.push_back(range);
  return *this;
}

InferShapeContextBuilder& InferShapeContextBuilder::AbsentInput() {
  in_shapes_.emplace_back();
  in_present_.push_back(false);
  in_dtypes_.push_back(ge::DT_UNDEFINED);
  in_tensors_.push_back(nullptr);
  in_ranges_.push_back(nullptr);
  return *this;
}

InferShapeContextBuilder& InferShapeContextBuilder::Outputs(size_t n) {
  out_shapes_.assign(n, Shape());
  out_dtypes_.assign(n, ge::DT_UNDEFINED);
  out_ranges_.assign(n, ShapeRange());
  return *this;
}

InferShapeContextBuilder& InferShapeContextBuilder::IrInputs(std::vector<IrInstance> ir) {
  ir_ = std::move(ir);
  return *this;
}

InferShapeContext* InferShapeContextBuilder::Build() {
  in_shape_ptrs_.clear();
  for (size_t i = 0; i < in_shapes_.size(); ++i) {
    in_shape_ptrs_.push_back(in_present_[i] ? &in_shapes_[i] : nullptr);
  }
  out_shape_ptrs_.clear();
  out_dtype_ptrs_.clear();
  out_range_ptrs_.clear();
  for (size_t i = 0; i < out_shapes_.size(); ++i) {
    out_shape_ptrs_.push_back(&out_shapes_[i]);
    out_dtype_ptrs_.push_back(&out_dtypes_[i]);
    out_range_ptrs_.push_back(&out_ranges_[i]);
  }
  ctx_ = InferShapeContext();
  ctx_.SetNode(name_, type_);
  ctx_.SetAttrHolder(attrs_);
  ctx_.SetInputs(in_shape_ptrs_, in_dtypes_, in_tensors_, in_ranges_);
  ctx_.SetOutputs(out_shape_ptrs_, out_dtype_ptrs_, out_range_ptrs_);
  ctx_.SetIrInputs(ir_);
  return &ctx_;
}

KernelRunContextBuilder& KernelRunContextBuilder::Node(std::string name, std::string type) {
  name_ = std::move(name);
  type_ = std::move(type);
  return *this;
}

KernelRunContextBuilder& KernelRunContextBuilder::Attrs(const ge::AttrHolder* attrs) {
  attrs_ = attrs;
  return *this;
}

KernelRunContextBuilder& KernelRunContextBuilder::Inputs(std::vector<const Tensor*> inputs) {
  inputs_ = std::move(inputs);
  return *this;
}

KernelRunContextBuilder& KernelRunContextBuilder::Outputs(std::vector<Tensor*> outputs) {
  outputs_ = std::move(outputs);
  return *this;
}

KernelRunContextBuilder& KernelRunContextBuilder::IrInputs(std::vector<IrInstance> ir) {
  ir_ = std::move(ir);
  return *this;
}

KernelRunContextBuilder& KernelRunContextBuilder::Allocator(OutputAllocator* allocator) {
  allocator_ = allocator;
  return *this;
}

KernelRunContextBuilder& KernelRunContextBuilder::Subgraphs(SubgraphRunner* runner) {
  runner_ = runner;
  return *this;
}

KernelRunContextBuilder& KernelRunContextBuilder::Workspaces(std::vector<void*> workspaces) {
  workspaces_ = std::move(workspaces);
  return *this;
}

KernelContext* KernelRunContextBuilder::Build() {
  ctx_ = KernelContext();
  ctx_.SetNode(name_, type_);
  ctx_.SetAttrHolder(attrs_);
  ctx_.SetTensors(inputs_, outputs_);
  ctx_.SetIrInputs(ir_);
  ctx_.SetOutputAllocator(allocator_);
  ctx_.SetSubgraphRunner(runner_);
  ctx_.SetWorkspaces(workspaces_);
  return &ctx_;
}

TilingContextBuilder& TilingContextBuilder::Node(std::string name, std::string type) {
  name_ = std::move(name);
  type_ = std::move(type);
  return *this;
}

TilingContextBuilder& TilingContextBuilder::Attrs(const ge::AttrHolder* attrs) {
  attrs_ = attrs;
  return *this;
}

TilingContextBuilder& TilingContextBuilder::Inputs(std::vector<const Tensor*> inputs) {
  inputs_ = std::move(inputs);
  return *this;
}

TilingContextBuilder& TilingContextBuilder::Outputs(std::vector<const Tensor*> outputs) {
  outputs_ = std::move(outputs);
  return *this;
}

TilingContext* TilingContextBuilder::Build() {
  ctx_ = TilingContext();
  ctx_.SetNode(name_, type_);
  ctx_.SetAttrHolder(attrs_);
  ctx_.SetTensors(inputs_, outputs_);
  return &ctx_;
}

}  // namespace gert
