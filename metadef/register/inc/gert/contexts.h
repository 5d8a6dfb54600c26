// metadef/register/inc/gert/contexts.h
//
// The contexts an op's functions receive (gert style, seed 003):
//   InferShapeContext  infer shape and infer data type (compile and run time)
//   TilingContext      tiling: kernel parameters chosen from shapes
//   KernelContext      kernel execution
// and their builders. A context is a set of spans over storage owned by its
// builder (or by an executor that prepared it once): calling an op's function
// through a prepared context allocates nothing.
//
// Attributes come from the node's ge::AttrHolder (its OpDesc) through the
// typed accessors of ContextBase: Get* fails with NotFound / TypeMismatch
// naming the node and attribute; Get*Or returns the default when absent (a
// present value of the wrong type is still an error).
//
// Errors from op functions should name the node: use ctx.Error(...) which
// prefixes "node <name> (<type>): ".
//
// Example (an infer shape function)
//   ge::Status InferRelu(gert::InferShapeContext& ctx) {
//     const gert::Shape* x = ctx.GetInputShape(0);
//     if (x == nullptr) return ctx.Error("input 0 missing");
//     *ctx.GetOutputShape(0) = *x;
//     return ge::OkStatus();
//   }
#ifndef METADEF_REGISTER_INC_GERT_CONTEXTS_H_
#define METADEF_REGISTER_INC_GERT_CONTEXTS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/tensor.h"

namespace gert {

// Attribute access + node identity shared by every context.
class ContextBase {
 public:
  absl::string_view GetNodeName() const { return node_name_; }
  absl::string_view GetNodeType() const { return node_type_; }
  const ge::AttrHolder* GetAttrHolder() const { return attrs_; }

  const ge::AttrValue* GetAttr(absl::string_view name) const;
  bool HasAttr(absl::string_view name) const { return GetAttr(name) != nullptr; }

  ge::StatusOr<int64_t> GetInt(absl::string_view name) const;
  ge::StatusOr<int64_t> GetIntOr(absl::string_view name, int64_t dflt) const;
  ge::StatusOr<float> GetFloat(absl::string_view name) const;
  ge::StatusOr<float> GetFloatOr(absl::string_view name, float dflt) const;
  ge::StatusOr<bool> GetBool(absl::string_view name) const;  // also accepts int 0/1
  ge::StatusOr<bool> GetBoolOr(absl::string_view name, bool dflt) const;
  ge::StatusOr<std::string> GetStr(absl::string_view name) const;
  ge::StatusOr<std::string> GetStrOr(absl::string_view name, absl::string_view dflt) const;
  ge::StatusOr<ge::DataType> GetDataType(absl::string_view name) const;
  ge::StatusOr<std::vector<int64_t>> GetListInt(absl::string_view name) const;
  ge::StatusOr<std::vector<int64_t>> GetListIntOr(absl::string_view name,
                                                  std::vector<int64_t> dflt) const;
  ge::StatusOr<std::vector<float>> GetListFloat(absl::string_view name) const;
  ge::StatusOr<std::vector<float>> GetListFloatOr(absl::string_view name,
                                                  std::vector<float> dflt) const;
  ge::StatusOr<std::vector<std::string>> GetListStr(absl::string_view name) const;
  ge::StatusOr<std::vector<std::string>> GetListStrOr(absl::string_view name,
                                                      std::vector<std::string> dflt) const;
  // Allocation-free views of list attributes (for kernels on the run path);
  // the span points into the attribute store and lives as long as it does.
  ge::StatusOr<absl::Span<const int64_t>> GetListIntView(absl::string_view name) const;
  ge::StatusOr<absl::Span<const float>> GetListFloatView(absl::string_view name) const;
  // A tensor-valued attribute (e.g. Constant's value); nullptr when absent.
  const ge::GeTensor* GetTensorAttr(absl::string_view name) const;

  // ParamInvalid("node <name> (<type>): " + args...).
  template <typename... Args>
  ge::Status Error(const Args&... args) const {
    return ge::ParamInvalid("node ", node_name_, " (", node_type_, "): ", args...);
  }
  // Same prefix with another code.
  template <typename... Args>
  ge::Status ErrorWithCode(ge::ErrorCode code, const Args&... args) const {
    return ge::MakeStatus(code,
                          absl::StrCat("node ", node_name_, " (", node_type_, "): ", args...));
  }

  // Set by builders / executors.
  void SetNode(absl::string_view name, absl::string_view type) {
    node_name_ = name;
    node_type_ = type;
  }
  void SetAttrHolder(const ge::AttrHolder* attrs) { attrs_ = attrs; }

 private:
  absl::string_view node_name_;
  absl::string_view node_type_;
  const ge::AttrHolder* attrs_ = nullptr;
};

// Where a context's input index `i` comes from in the op's IR: dynamic
// inputs (e.g. Concat's x0..xN) expand to several instances.
struct IrInstance {
  size_t start = 0;  // first input index of the IR input
  size_t count = 0;  // number of instances (0 for an absent optional)
};

// Makes input values on first read, for values too costly to make for every
// call (e.g. a constant in a mapped model file that needs an aligned copy).
// An input whose tensor is pending (GetAddr() null, GetSize() non-zero) is
// given to Load by InferShapeContext::GetInputTensor.
class InputValueLoader {
 public:
  virtual ~InputValueLoader() = default;
  // Input i's tensor with its data, or nullptr when it cannot be made.
  virtual const Tensor* Load(size_t i) const = 0;
};

class InferShapeContext : public ContextBase {
 public:
  size_t GetInputNum() const { return input_shapes_.size(); }
  // nullptr when i is out of range or the (optional) input is absent.
  const Shape* GetInputShape(size_t i) const {
    return i < input_shapes_.size() ? input_shapes_[i] : nullptr;
  }
  ge::DataType GetInputDataType(size_t i) const {
    return i < input_dtypes_.size() ? input_dtypes_[i] : ge::DT_UNDEFINED;
  }
  // The input's value when known (a constant at compile time, every input at
  // run time); nullptr otherwise. Data-dependent ops (Reshape, Expand, Tile,
  // Range, ...) produce -1 dims when the value is unknown.
  // A pending input (see InputValueLoader) is loaded here; without a loader
  // its value is unknown (nullptr).
  const Tensor* GetInputTensor(size_t i) const {
    const Tensor* t = i < input_tensors_.size() ? input_tensors_[i] : nullptr;
    if (t != nullptr && t->GetAddr() == nullptr && t->GetSize() != 0) {
      t = value_loader_ == nullptr ? nullptr : value_loader_->Load(i);
    }
    if (t != nullptr) input_values_read_ |= uint64_t{1} << (i < 63 ? i : 63);
    return t;
  }
  // True once GetInputTensor has returned a value: the op's functions then
  // may depend on input values, not only on shapes, types and attributes
  // (a caller that caches verdicts keys them on the values only then).
  bool InputValuesRead() const { return input_values_read_ != 0; }
  // Which inputs' values GetInputTensor has returned: bit i for input i,
  // bit 63 for input 63 and every later one.
  uint64_t InputValuesReadMask() const { return input_values_read_; }
  // Shape range of input i, or nullptr when none is recorded.
  const ShapeRange* GetInputShapeRange(size_t i) const {
    return i < input_ranges_.size() ? input_ranges_[i] : nullptr;
  }
  // IR view of dynamic inputs; ir_index out of range gives {0, 0}.
  IrInstance GetIrInputInstance(size_t ir_index) const {
    return ir_index < ir_inputs_.size() ? ir_inputs_[ir_index] : IrInstance{};
  }

  size_t GetOutputNum() const { return output_shapes_.size(); }
  Shape* GetOutputShape(size_t i) {
    return i < output_shapes_.size() ? output_shapes_[i] : nullptr;
  }
  ge::DataType GetOutputDataType(size_t i) const {
    return i < output_dtypes_.size() ? *output_dtypes_[i] : ge::DT_UNDEFINED;
  }
  void SetOutputDataType(size_t i, ge::DataType dt) {
    if (i < output_dtypes_.size()) *output_dtypes_[i] = dt;
  }
  // nullptr when the caller does not track output ranges.
  ShapeRange* GetOutputShapeRange(size_t i) {
    return i < output_ranges_.size() ? output_ranges_[i] : nullptr;
  }

  // Wiring (builders / executors).
  void SetInputs(absl::Span<const Shape* const> shapes, absl::Span<const ge::DataType> dtypes,
                 absl::Span<const Tensor* const> tensors,
                 absl::Span<const ShapeRange* const> ranges = {}) {
    input_shapes_ = shapes;
    input_dtypes_ = dtypes;
    input_tensors_ = tensors;
    input_ranges_ = ranges;
  }
  void SetOutputs(absl::Span<Shape* const> shapes, absl::Span<ge::DataType* const> dtypes,
                  absl::Span<ShapeRange* const> ranges = {}) {
    output_shapes_ = shapes;
    output_dtypes_ = dtypes;
    output_ranges_ = ranges;
  }
  void SetIrInputs(absl::Span<const IrInstance> ir) { ir_inputs_ = ir; }
  // Loads the pending input tensors (may be null; must outlive the context).
  void SetInputValueLoader(const InputValueLoader* loader) { value_loader_ = loader; }

 private:
  const InputValueLoader* value_loader_ = nullptr;
  absl::Span<const Shape* const> input_shapes_;
  absl::Span<const ge::DataType> input_dtypes_;
  absl::Span<const Tensor* const> input_tensors_;
  absl::Span<const ShapeRange* const> input_ranges_;
  absl::Span<Shape* const> output_shapes_;
  absl::Span<ge::DataType* const> output_dtypes_;
  absl::Span<ShapeRange* const> output_ranges_;
  absl::Span<const IrInstance> ir_inputs_;
  mutable uint64_t input_values_read_ = 0;
};

// Tiling: choose kernel parameters from shapes (the compute engine's blocked
// kernels read them back). Tiling data is a fixed-capacity byte buffer.
class TilingContext : public ContextBase {
 public:
  static constexpr size_t kMaxTilingDataBytes = 1024;
  static constexpr size_t kMaxWorkspaces = 8;

  size_t GetInputNum() const { return inputs_.size(); }
  const Tensor* GetInputTensor(size_t i) const {  // shapes/dtypes; data may be null
    return i < inputs_.size() ? inputs_[i] : nullptr;
  }
  size_t GetOutputNum() const { return outputs_.size(); }
  const Tensor* GetOutputTensor(size_t i) const {
    return i < outputs_.size() ? outputs_[i] : nullptr;
  }

  void SetTilingKey(uint64_t key) { tiling_key_ = key; }
  uint64_t GetTilingKey() const { return tiling_key_; }
  void SetBlockDim(uint32_t dim) { block_dim_ = dim; }
  uint32_t GetBlockDim() const { return block_dim_; }
  // Appends a trivially copyable value; OutOfRange when the buffer is full.
  template <typename T>
  ge::Status AppendTilingData(const T& value) {
    if (tiling_size_ + sizeof(T) > kMaxTilingDataBytes) {
      return ge::OutOfRange("node ", GetNodeName(), ": tiling data exceeds ", kMaxTilingDataBytes,
                            " bytes");
    }
    __builtin_memcpy(tiling_data_ + tiling_size_, &value, sizeof(T));
    tiling_size_ += sizeof(T);
    return ge::OkStatus();
  }
  absl::Span<const uint8_t> GetTilingData() const { return {tiling_data_, tiling_size_}; }
  ge::Status SetWorkspaceSize(size_t i, size_t bytes) {
    if (i >= kMaxWorkspaces) return ge::OutOfRange("workspace index ", i);
    if (i >= workspace_num_) workspace_num_ = i + 1;
    workspaces_[i] = bytes;
    return ge::OkStatus();
  }
  absl::Span<const size_t> GetWorkspaceSizes() const { return {workspaces_, workspace_num_}; }

  void SetTensors(absl::Span<const Tensor* const> inputs, absl::Span<const Tensor* const> outputs) {
    inputs_ = inputs;
    outputs_ = outputs;
  }

 private:
  absl::Span<const Tensor* const> inputs_;
  absl::Span<const Tensor* const> outputs_;
  uint64_t tiling_key_ = 0;
  uint32_t block_dim_ = 1;
  size_t tiling_size_ = 0;
  uint8_t tiling_data_[kMaxTilingDataBytes] = {};
  size_t workspace_num_ = 0;
  size_t workspaces_[kMaxWorkspaces] = {};
};

// Supplies memory for outputs whose shape is only known inside the kernel
// (NonZero, Unique, Compress, ...). Implemented by executors.
class OutputAllocator {
 public:
  virtual ~OutputAllocator() = default;
  // Points `tensor` at memory for its (already set) shape and dtype.
  virtual ge::Status Allocate(size_t output_index, Tensor* tensor) = 0;
};

// Runs one of the node's subgraphs (If branches, Loop / Scan bodies).
// Implemented by executors; outputs are owned by the caller afterwards.
class SubgraphRunner {
 public:
  virtual ~SubgraphRunner() = default;
  // subgraph_index follows the OpDesc's subgraph instance names.
  virtual ge::Status Run(size_t subgraph_index, absl::Span<const Tensor* const> inputs,
                         std::vector<HostTensor>* outputs) = 0;
};

class KernelContext : public ContextBase {
 public:
  size_t GetInputNum() const { return inputs_.size(); }
  // nullptr for an absent optional input.
  const Tensor* GetInputTensor(size_t i) const { return i < inputs_.size() ? inputs_[i] : nullptr; }
  IrInstance GetIrInputInstance(size_t ir_index) const {
    return ir_index < ir_inputs_.size() ? ir_inputs_[ir_index] : IrInstance{};
  }
  size_t GetOutputNum() const { return outputs_.size(); }
  // Shape and dtype are set (from infer shape). Data is allocated unless the
  // shape has unknown dims; then the kernel sets the shape and calls
  // AllocateOutput.
  Tensor* GetOutputTensor(size_t i) { return i < outputs_.size() ? outputs_[i] : nullptr; }

  // Sets output i's shape / dtype and obtains memory from the executor.
  ge::StatusOr<Tensor*> AllocateOutput(size_t i, const Shape& shape, ge::DataType dtype);

  SubgraphRunner* GetSubgraphRunner() const { return subgraph_runner_; }
  OutputAllocator* GetOutputAllocator() const { return allocator_; }
  absl::Span<void* const> GetWorkspaces() const { return workspaces_; }
  absl::Span<const IrInstance> GetIrInputs() const { return ir_inputs_; }

  void SetTensors(absl::Span<const Tensor* const> inputs, absl::Span<Tensor* const> outputs) {
    inputs_ = inputs;
    outputs_ = outputs;
  }
  void SetIrInputs(absl::Span<const IrInstance> ir) { ir_inputs_ = ir; }
  void SetOutputAllocator(OutputAllocator* a) { allocator_ = a; }
  void SetSubgraphRunner(SubgraphRunner* r) { subgraph_runner_ = r; }
  void SetWorkspaces(absl::Span<void* const> w) { workspaces_ = w; }

 private:
  absl::Span<const Tensor* const> inputs_;
  absl::Span<Tensor* const> outputs_;
  absl::Span<const IrInstance> ir_inputs_;
  absl::Span<void* const> workspaces_;
  OutputAllocator* allocator_ = nullptr;
  SubgraphRunner* subgraph_runner_ = nullptr;
};

// ---- Builders: own the storage a context points into. ----

// Builds an InferShapeContext from shapes / dtypes / optional values.
//   InferShapeContextBuilder b;
//   b.Node("add1", "Add").Attrs(&op_desc)
//    .Input(Shape{2, 3}, ge::DT_FLOAT).Input(Shape{3}, ge::DT_FLOAT)
//    .Outputs(1);
//   InferShapeContext* ctx = b.Build();
class InferShapeContextBuilder {
 public:
  InferShapeContextBuilder& Node(std::string name, std::string type);
  InferShapeContextBuilder& Attrs(const ge::AttrHolder* attrs);
  // value may be null (unknown at compile time).
  InferShapeContextBuilder& Input(const Shape& shape, ge::DataType dtype,
                                  const Tensor* value = nullptr, const ShapeRange* range = nullptr);
  InferShapeContextBuilder& AbsentInput();  // an omitted optional input
  InferShapeContextBuilder& Outputs(size_t n);
  InferShapeContextBuilder& IrInputs(std::vector<IrInstance> ir);
  // The returned context lives as long as the builder and is invalidated by
  // further builder calls.
  InferShapeContext* Build();
  Shape& OutputShape(size_t i) { return out_shapes_.at(i); }
  ge::DataType OutputDataType(size_t i) const { return out_dtypes_.at(i); }
  ShapeRange& OutputShapeRange(size_t i) { return out_ranges_.at(i); }

 private:
  std::string name_, type_;
  const ge::AttrHolder* attrs_ = nullptr;
  std::vector<Shape> in_shapes_;
  std::vector<bool> in_present_;
  std::vector<ge::DataType> in_dtypes_;
  std::vector<const Tensor*> in_tensors_;
  std::vector<const ShapeRange*> in_ranges_;
  std::vector<IrInstance> ir_;
  std::vector<Shape> out_shapes_;
  std::vector<ge::DataType> out_dtypes_;
  std::vector<ShapeRange> out_ranges_;
  std::vector<const Shape*> in_shape_ptrs_;
  std::vector<Shape*> out_shape_ptrs_;
  std::vector<ge::DataType*> out_dtype_ptrs_;
  std::vector<ShapeRange*> out_range_ptrs_;
  InferShapeContext ctx_;
};

// Builds a KernelContext over caller-owned tensors.
class KernelRunContextBuilder {
 public:
  KernelRunContextBuilder& Node(std::string name, std::string type);
  KernelRunContextBuilder& Attrs(const ge::AttrHolder* attrs);
  KernelRunContextBuilder& Inputs(std::vector<const Tensor*> inputs);  // nullptr = absent
  KernelRunContextBuilder& Outputs(std::vector<Tensor*> outputs);
  KernelRunContextBuilder& IrInputs(std::vector<IrInstance> ir);
  KernelRunContextBuilder& Allocator(OutputAllocator* allocator);
  KernelRunContextBuilder& Subgraphs(SubgraphRunner* runner);
  KernelRunContextBuilder& Workspaces(std::vector<void*> workspaces);
  KernelContext* Build();

 private:
  std::string name_, type_;
  const ge::AttrHolder* attrs_ = nullptr;
  std::vector<const Tensor*> inputs_;
  std::vector<Tensor*> outputs_;
  std::vector<IrInstance> ir_;
  std::vector<void*> workspaces_;
  OutputAllocator* allocator_ = nullptr;
  SubgraphRunner* runner_ = nullptr;
  KernelContext ctx_;
};

class TilingContextBuilder {
 public:
  TilingContextBuilder& Node(std::string name, std::string type);
  TilingContextBuilder& Attrs(const ge::AttrHolder* attrs);
  TilingContextBuilder& Inputs(std::vector<const Tensor*> inputs);
  TilingContextBuilder& Outputs(std::vector<const Tensor*> outputs);
  TilingContext* Build();

 private:
  std::string name_, type_;
  const ge::AttrHolder* attrs_ = nullptr;
  std::vector<const Tensor*> inputs_;
  std::vector<const Tensor*> outputs_;
  TilingContext ctx_;
};

}  // namespace gert

#endif  // METADEF_REGISTER_INC_GERT_CONTEXTS_H_
