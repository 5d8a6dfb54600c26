// ops/common/op_test_harness.h (testonly)
//
// Runs one registered op the way the framework does: the test runner every
// op family's tests use (a family adds only helpers specific to its ops):
//   Infer()      verify, infer data type (default: input 0's type) and infer
//                shape through an InferShapeContextBuilder; inputs may carry
//                shape ranges (Ranged), results hold the output ranges.
//   RunKernel()  the host-CPU kernel with outputs of unknown shape, so the
//                kernel allocates them through a TestAllocator.
//   OpTester     the whole executor path for one node (verify, infer with
//                input values, output allocation, kernel; absent inputs and
//                outputs, dynamic inputs), plus shape-only InferShapes.
//   Tensor makers T / F32 / F64 / I64 / I32 / Str, Make, Iota; matchers Near
//   (tolerance) and ErrorContains (message and node name).
//
// Example
//   InferResult r = Infer("MatMul", {{gert::Shape{2, 3}}, {gert::Shape{3, 4}}});
//   KernelRun run;
//   RunKernel("Relu", {&x}, &run);
//   EXPECT_EQ(run.Values(), (std::vector<double>{0, 1}));
#ifndef OPS_COMMON_OP_TEST_HARNESS_H_
#define OPS_COMMON_OP_TEST_HARNESS_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "graph/inc/graph/attr_value.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_infer_runner.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"

// Status assertions (also used by the array / control family helpers).
#ifndef ASSERT_OK
#define ASSERT_OK(expr)                     \
  do {                                      \
    const ::ge::Status st_ = (expr);        \
    ASSERT_TRUE(st_.ok()) << st_.message(); \
  } while (false)
#endif
#ifndef EXPECT_OK
#define EXPECT_OK(expr)                     \
  do {                                      \
    const ::ge::Status st_ = (expr);        \
    EXPECT_TRUE(st_.ok()) << st_.message(); \
  } while (false)
#endif

namespace ops {
namespace op_test {

inline gert::Shape UnknownRank() { return gert::Shape{ge::UNKNOWN_RANK}; }

class Attrs {
 public:
  template <typename T>
  Attrs& Set(const char* name, T value) {
    EXPECT_TRUE(attrs_.SetAttr(name, ge::AttrValue::CreateFrom<T>(std::move(value))).ok());
    return *this;
  }
  const ge::AttrHolder* get() const { return &attrs_; }

 private:
  ge::NamedAttrs attrs_;
};

struct In {
  gert::Shape shape;
  ge::DataType dtype = ge::DT_FLOAT;
  const gert::Tensor* value = nullptr;
  bool absent = false;
  gert::ShapeRange range;  // empty: none recorded
};
// An input with a recorded shape range.
inline In Ranged(gert::Shape shape, gert::ShapeRange range, ge::DataType dtype = ge::DT_FLOAT) {
  return In{shape, dtype, nullptr, false, std::move(range)};
}
inline In Absent() { return In{gert::Shape{}, ge::DT_UNDEFINED, nullptr, true}; }
inline In AbsentIn() { return Absent(); }
// An input whose value is known (t must outlive the call).
inline In Val(const gert::HostTensor& t) { return In{t.GetShape(), t.GetDataType(), &t.tensor()}; }

struct InferResult {
  ge::Status status;
  std::vector<gert::Shape> shapes;
  std::vector<ge::DataType> dtypes;
  std::vector<gert::ShapeRange> ranges;  // empty when the op set none
};

inline const ge::OpRegistrationData* Reg(const std::string& type) {
  const ge::OpRegistrationData* r = ge::OpRegistry::Instance().Find(type);
  EXPECT_NE(r, nullptr) << type << " is not registered";
  return r;
}

// The registration of `type`; fails the test (returning an empty
// registration) when it is not registered.
inline const ge::OpRegistrationData& RegRef(const std::string& type) {
  static const ge::OpRegistrationData kNone;
  const ge::OpRegistrationData* r = Reg(type);
  return r != nullptr ? *r : kNone;
}

// How the harnesses run an op's functions: as the framework does, and a
// function reading an input value the registration does not declare
// value-dependent fails the test.
inline ge::OpInferOptions HarnessInferOptions() {
  ge::OpInferOptions options;
  options.check_value_reads = true;
  return options;
}

// Runs verify, infer data type and infer shape like the framework does, for
// node `node_name` with attributes `attrs` (may be null).
inline InferResult InferOp(const std::string& type, const ge::AttrHolder* attrs,
                           const std::vector<In>& ins, size_t num_out,
                           const std::string& node_name) {
  InferResult res;
  const ge::OpRegistrationData* r = ge::OpRegistry::Instance().Find(type);
  if (r == nullptr) {
    res.status = ge::NotFound("op ", type, " is not registered");
    return res;
  }
  gert::InferShapeContextBuilder b;
  b.Node(node_name, type).Attrs(attrs);
  for (const In& in : ins) {
    if (in.absent) {
      b.AbsentInput();
    } else {
      b.Input(in.shape, in.dtype, in.value, in.range.empty() ? nullptr : &in.range);
    }
  }
  b.Outputs(num_out);
  gert::InferShapeContext* ctx = b.Build();
  res.status = ge::RunOpInfer(*r, *ctx, HarnessInferOptions());
  for (size_t i = 0; i < num_out; ++i) {
    res.shapes.push_back(b.OutputShape(i));
    res.dtypes.push_back(b.OutputDataType(i));
    res.ranges.push_back(b.OutputShapeRange(i));
  }
  return res;
}

// InferOp for node "node_<type>"; fails the test when `type` is unknown.
inline InferResult Infer(const std::string& type, const std::vector<In>& ins, size_t num_out = 1,
                         const Attrs& attrs = Attrs()) {
  if (Reg(type) == nullptr) return InferResult{ge::NotFound(type), {}, {}, {}};
  return InferOp(type, attrs.get(), ins, num_out, "node_" + type);
}

// Owns what kernels allocate through ctx.AllocateOutput; counts the calls.
class TestAllocator : public gert::OutputAllocator {
 public:
  ge::Status Allocate(size_t, gert::Tensor* tensor) override {
    ASSIGN_OR_RETURN(gert::HostTensor t,
                     gert::HostTensor::Create(tensor->GetDataType(), tensor->GetShape()));
    tensor->SetData(t.MutableTensor()->GetAddr(), t.tensor().GetSize());
    owned_.push_back(std::make_unique<gert::HostTensor>(std::move(t)));
    ++calls_;
    return ge::OkStatus();
  }
  int calls() const { return calls_; }

 private:
  std::vector<std::unique_ptr<gert::HostTensor>> owned_;
  int calls_ = 0;
};

// Runs the host kernel; outputs start with unknown shape so the kernel
// allocates them (the test then checks the shape the kernel computed).
struct KernelRun {
  ge::Status status;
  std::vector<gert::Tensor> outs;
  TestAllocator alloc;

  std::vector<double> Values(size_t i = 0) const {
    auto v = ReadAsDoubles(outs[i]);
    EXPECT_TRUE(v.ok()) << v.status();
    return v.ok() ? *v : std::vector<double>{};
  }
  const gert::Shape& Shape(size_t i = 0) const { return outs[i].GetShape(); }
};

inline void RunKernel(const std::string& type, const std::vector<const gert::HostTensor*>& ins,
                      KernelRun* run, size_t num_out = 1, const Attrs& attrs = Attrs()) {
  const ge::OpRegistrationData* r = Reg(type);
  ASSERT_NE(r, nullptr);
  const ge::OpKernelDef* k = r->FindKernel(ge::kEngineHostCpu);
  ASSERT_NE(k, nullptr);
  std::vector<const gert::Tensor*> in_ptrs;
  for (const gert::HostTensor* t : ins) in_ptrs.push_back(t == nullptr ? nullptr : &t->tensor());
  run->outs.assign(num_out, gert::Tensor(gert::Shape{-1}, ge::DT_UNDEFINED, nullptr, 0));
  std::vector<gert::Tensor*> out_ptrs;
  for (gert::Tensor& t : run->outs) out_ptrs.push_back(&t);
  gert::KernelRunContextBuilder b;
  b.Node("node_" + type, type)
      .Attrs(attrs.get())
      .Inputs(in_ptrs)
      .Outputs(out_ptrs)
      .Allocator(&run->alloc);
  run->status = k->fn(*b.Build());
}

// ---- Tensor makers (fail the current test on error).

// A host tensor of `dt` from doubles.
inline gert::HostTensor T(ge::DataType dt, const gert::Shape& shape,
                          const std::vector<double>& values) {
  ge::StatusOr<gert::HostTensor> t = MakeHostTensorFromDoubles(dt, shape, values);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : gert::HostTensor();
}
inline gert::HostTensor F32(const gert::Shape& shape, const std::vector<double>& values) {
  return T(ge::DT_FLOAT, shape, values);
}
inline gert::HostTensor F64(const gert::Shape& shape, const std::vector<double>& values) {
  return T(ge::DT_DOUBLE, shape, values);
}
inline gert::HostTensor I64(const gert::Shape& shape, const std::vector<double>& values) {
  return T(ge::DT_INT64, shape, values);
}
inline gert::HostTensor I32(const gert::Shape& shape, const std::vector<double>& values) {
  return T(ge::DT_INT32, shape, values);
}
inline gert::HostTensor Str(const gert::Shape& shape, const std::vector<std::string>& values) {
  ge::StatusOr<gert::HostTensor> t =
      MakeHostTensor<std::string>(ge::DT_STRING, shape, absl::MakeConstSpan(values));
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : gert::HostTensor();
}

// Tensor makers from values of the storage type (array / control tests).
namespace typed {
template <typename T>
gert::HostTensor Make(ge::DataType dt, const gert::Shape& s, const std::vector<T>& v) {
  auto r = MakeHostTensor<T>(dt, s, absl::Span<const T>(v.data(), v.size()));
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : gert::HostTensor();
}
inline gert::HostTensor F32(const gert::Shape& s, const std::vector<float>& v) {
  return Make<float>(ge::DT_FLOAT, s, v);
}
inline gert::HostTensor F64(const gert::Shape& s, const std::vector<double>& v) {
  return Make<double>(ge::DT_DOUBLE, s, v);
}
inline gert::HostTensor I64(const gert::Shape& s, const std::vector<int64_t>& v) {
  return Make<int64_t>(ge::DT_INT64, s, v);
}
inline gert::HostTensor I32(const gert::Shape& s, const std::vector<int32_t>& v) {
  return Make<int32_t>(ge::DT_INT32, s, v);
}
inline gert::HostTensor U8(const gert::Shape& s, const std::vector<uint8_t>& v) {
  return Make<uint8_t>(ge::DT_UINT8, s, v);
}
inline gert::HostTensor Str(const gert::Shape& s, const std::vector<std::string>& v) {
  return Make<std::string>(ge::DT_STRING, s, v);
}
// BOOL from ints (non-zero is true).
inline gert::HostTensor Bool(const gert::Shape& s, const std::vector<int>& v) {
  auto r = gert::HostTensor::Create(ge::DT_BOOL, s);
  EXPECT_TRUE(r.ok());
  if (!r.ok()) return gert::HostTensor();
  EXPECT_EQ(static_cast<int64_t>(v.size()), s.GetShapeSize());
  bool* p = r->MutableData<bool>();
  for (size_t i = 0; i < v.size() && static_cast<int64_t>(i) < s.GetShapeSize(); ++i) {
    p[i] = v[i] != 0;
  }
  return std::move(r).value();
}
// The elements of t as T (empty when t has none or no data).
template <typename T>
std::vector<T> ValuesOf(const gert::Tensor& t) {
  const int64_t n = t.GetShapeSize();
  if (n <= 0 || t.GetAddr() == nullptr) return {};
  const T* p = t.GetData<T>();
  return std::vector<T>(p, p + n);
}
}  // namespace typed

// ---- OpTester: a registered op run like an executor runs it.
//
// Verify -> infer data type -> infer shape (input values visible unless
// HideInputValues) -> output allocation -> host-CPU kernel. IR instances of
// dynamic inputs are derived from the registration (a dynamic input takes
// every input the fixed ones leave). Outputs whose inferred shape has
// unknown dims are allocated by the kernel through a TestAllocator.
//
//   OpTester t("Conv");
//   t.AttrInts("pads", {1, 1, 1, 1}).Input(F32({1, 1, 3, 3}, {...})).Input(...);
//   ASSERT_TRUE(t.Run(1).ok());
//   EXPECT_TRUE(Near(t.OutValues(0), {...}));
//   // Shape-only inference (-1 dims, unknown rank {-2}):
//   ASSERT_TRUE(t.InferShapes({{-1, 3, 8, 8}, {16, 3, 3, 3}}, ge::DT_FLOAT, 1).ok());
//   t.InferredShape(0);

class OpTester {
 public:
  explicit OpTester(std::string type, std::string name = "n1")
      : type_(std::move(type)), name_(std::move(name)) {}

  OpTester& Attr(const std::string& name, ge::AttrValue v) {
    EXPECT_TRUE(attrs_.SetAttr(name, std::move(v)).ok());
    return *this;
  }
  // Any type AttrValue holds: Attr("axis", int64_t{1}), Attr("perm", std::vector<int64_t>{...}).
  template <typename T>
  OpTester& Attr(const std::string& name, T v) {
    return Attr(name, ge::AttrValue::CreateFrom<T>(std::move(v)));
  }
  OpTester& AttrInt(const std::string& name, int64_t v) {
    return Attr(name, ge::AttrValue::CreateFrom<int64_t>(v));
  }
  OpTester& AttrInts(const std::string& name, std::vector<int64_t> v) {
    return Attr(name, ge::AttrValue::CreateFrom<std::vector<int64_t>>(std::move(v)));
  }
  OpTester& AttrFloat(const std::string& name, float v) {
    return Attr(name, ge::AttrValue::CreateFrom<float>(v));
  }
  OpTester& AttrFloats(const std::string& name, std::vector<float> v) {
    return Attr(name, ge::AttrValue::CreateFrom<std::vector<float>>(std::move(v)));
  }
  OpTester& AttrStr(const std::string& name, std::string v) {
    return Attr(name, ge::AttrValue::CreateFrom<std::string>(std::move(v)));
  }
  OpTester& AttrStrs(const std::string& name, std::vector<std::string> v) {
    return Attr(name, ge::AttrValue::CreateFrom<std::vector<std::string>>(std::move(v)));
  }
  OpTester& AttrDtype(const std::string& name, ge::DataType dt) {
    return Attr(name, ge::AttrValue::CreateFrom<ge::DataType>(dt));
  }

  OpTester& Input(gert::HostTensor t) {
    inputs_.push_back(std::make_unique<gert::HostTensor>(std::move(t)));
    return *this;
  }
  OpTester& Absent() {
    inputs_.push_back(nullptr);
    return *this;
  }
  OpTester& AbsentInput() { return Absent(); }
  void ClearInputs() { inputs_.clear(); }
  const ge::NamedAttrs& attrs() const { return attrs_; }

  // Outputs declared up front, for Infer() / Run() without arguments.
  OpTester& Outputs(size_t n) {
    num_outputs_ = n;
    return *this;
  }
  // Output i is not requested: the kernel gets a null output tensor.
  OpTester& AbsentOutput(size_t i) {
    absent_outputs_.push_back(i);
    return *this;
  }
  // When false, inferred shapes are not used to preallocate outputs (the
  // kernel allocates every output through the allocator).
  OpTester& Preallocate(bool p) {
    preallocate_ = p;
    return *this;
  }
  // Infer shape in Run() sees only shapes (as at compile time); outputs with
  // unknown dims are then allocated by the kernel through the allocator.
  OpTester& HideInputValues() {
    hide_values_ = true;
    return *this;
  }

  // Verify + infer data type + infer shape over the stored inputs (values
  // visible), then the kernel with `num_outputs` outputs. `absent_outputs`
  // lists outputs the node does not produce (null output tensors).
  ge::Status Run(size_t num_outputs, std::vector<size_t> absent_outputs = {}) {
    ASSIGN_OR_RETURN(const ge::OpRegistrationData* reg, ge::OpRegistry::Instance().Get(type_));
    RETURN_IF_ERROR(InferStored(*reg, num_outputs));
    return RunKernel(*reg, num_outputs, absent_outputs);
  }
  // Run / infer with the outputs given by Outputs() and AbsentOutput().
  ge::Status Run() { return Run(num_outputs_, absent_outputs_); }
  ge::Status Infer() {
    ASSIGN_OR_RETURN(const ge::OpRegistrationData* reg, ge::OpRegistry::Instance().Get(type_));
    return InferStored(*reg, num_outputs_);
  }

  // The kernel only, with outputs of the given shapes / dtypes (a shape with
  // -1 dims is allocated by the kernel), bypassing inference: for kernel
  // input validation.
  ge::Status RunKernelOnly(const std::vector<gert::Shape>& out_shapes,
                           const std::vector<ge::DataType>& out_dtypes) {
    ASSIGN_OR_RETURN(const ge::OpRegistrationData* reg, ge::OpRegistry::Instance().Get(type_));
    inferred_shapes_ = out_shapes;
    inferred_dtypes_ = out_dtypes;
    return RunKernel(*reg, out_shapes.size(), {});
  }

  // Shape-only inference: no input values; input i gets dtypes[i] (the last
  // dtype repeats); inputs listed in `absent_inputs` are omitted.
  ge::Status InferShapes(const std::vector<gert::Shape>& shapes,
                         const std::vector<ge::DataType>& dtypes, size_t num_outputs,
                         std::vector<size_t> absent_inputs = {}) {
    ASSIGN_OR_RETURN(const ge::OpRegistrationData* reg, ge::OpRegistry::Instance().Get(type_));
    gert::InferShapeContextBuilder ib;
    ib.Node(name_, type_).Attrs(&attrs_).IrInputs(IrFor(*reg, shapes.size()));
    for (size_t i = 0; i < shapes.size(); ++i) {
      bool absent = false;
      for (size_t a : absent_inputs) absent = absent || a == i;
      if (absent) {
        ib.AbsentInput();
      } else {
        const ge::DataType dt =
            dtypes.empty() ? ge::DT_FLOAT : dtypes[i < dtypes.size() ? i : dtypes.size() - 1];
        ib.Input(shapes[i], dt);
      }
    }
    ib.Outputs(num_outputs);
    return InferWith(*reg, ib);
  }

  // Shape-only inference with every input of `dtype` unless `dtypes` gives
  // input i's type.
  ge::Status InferShapes(const std::vector<gert::Shape>& shapes, ge::DataType dtype,
                         size_t num_outputs, std::vector<ge::DataType> dtypes = {},
                         std::vector<size_t> absent_inputs = {}) {
    if (dtypes.size() < shapes.size()) dtypes.resize(shapes.size(), dtype);
    return InferShapes(shapes, std::vector<ge::DataType>(dtypes), num_outputs,
                       std::move(absent_inputs));
  }

  const gert::Shape& InferredShape(size_t i) const { return inferred_shapes_.at(i); }
  ge::DataType InferredDtype(size_t i) const { return inferred_dtypes_.at(i); }
  ge::DataType InferredType(size_t i) const { return InferredDtype(i); }

  bool HasOut(size_t i) const { return i < out_.size() && out_[i] != nullptr; }
  const gert::HostTensor& Out(size_t i) const { return *out_.at(i); }
  // Output i converted to doubles.
  std::vector<double> OutValues(size_t i) const {
    if (!HasOut(i)) {
      ADD_FAILURE() << "output " << i << " was not produced";
      return {};
    }
    ge::StatusOr<std::vector<double>> v = ReadAsDoubles(Out(i).tensor());
    EXPECT_TRUE(v.ok()) << v.status();
    return v.ok() ? *v : std::vector<double>();
  }
  std::vector<std::string> OutStrings(size_t i) const {
    if (!HasOut(i) || Out(i).GetDataType() != ge::DT_STRING) {
      ADD_FAILURE() << "output " << i << " is not a produced STRING tensor";
      return {};
    }
    const std::string* p = Out(i).GetData<std::string>();
    return std::vector<std::string>(p, p + Out(i).GetShape().GetShapeSize());
  }
  // Shape / type of produced output i.
  const gert::Shape& OutShape(size_t i) const { return Out(i).GetShape(); }
  ge::DataType OutType(size_t i) const { return Out(i).GetDataType(); }
  // Output i as its storage type T (empty when not produced or empty).
  template <typename T>
  std::vector<T> Values(size_t i) const {
    if (!HasOut(i)) {
      ADD_FAILURE() << "output " << i << " was not produced";
      return {};
    }
    const int64_t n = Out(i).GetShape().GetShapeSize();
    if (n <= 0) return {};
    const T* p = Out(i).GetData<T>();
    return std::vector<T>(p, p + n);
  }
  // FLOAT16 output i as floats.
  std::vector<float> HalfValues(size_t i) const {
    std::vector<float> out;
    for (uint16_t b : Values<uint16_t>(i)) out.push_back(Fp16ToFloat(b));
    return out;
  }
  int allocator_calls() const { return allocator_.calls(); }
  int allocations() const { return allocator_calls(); }

 private:
  // A dynamic IR input takes whatever the fixed ones leave.
  static std::vector<gert::IrInstance> IrFor(const ge::OpRegistrationData& reg, size_t n) {
    size_t fixed = 0;
    for (const auto& io : reg.inputs) fixed += io.kind == ge::IoKind::kDynamic ? 0 : 1;
    std::vector<gert::IrInstance> ir;
    size_t next = 0;
    for (const auto& io : reg.inputs) {
      size_t count = 1;
      if (io.kind == ge::IoKind::kDynamic) {
        count = n >= fixed ? n - fixed : 0;
      } else if (next >= n) {
        count = 0;
      }
      ir.push_back({next, count});
      next += count;
    }
    return ir;
  }

  // Verify + infer over the stored inputs (values visible unless hidden).
  ge::Status InferStored(const ge::OpRegistrationData& reg, size_t num_outputs) {
    gert::InferShapeContextBuilder ib;
    ib.Node(name_, type_).Attrs(&attrs_).IrInputs(IrFor(reg, inputs_.size()));
    for (const auto& in : inputs_) {
      if (in == nullptr) {
        ib.AbsentInput();
      } else {
        ib.Input(in->GetShape(), in->GetDataType(), hide_values_ ? nullptr : &in->tensor());
      }
    }
    ib.Outputs(num_outputs);
    return InferWith(reg, ib);
  }

  ge::Status InferWith(const ge::OpRegistrationData& reg, gert::InferShapeContextBuilder& ib) {
    gert::InferShapeContext* ctx = ib.Build();
    ge::InferStep step = ge::InferStep::kNone;
    if (ge::Status st = ge::RunOpInfer(reg, *ctx, HarnessInferOptions(), &step); !st.ok()) {
      if (step == ge::InferStep::kNoInferShape) return ge::NotFound("no infer shape for ", type_);
      return st;
    }
    inferred_shapes_.clear();
    inferred_dtypes_.clear();
    for (size_t i = 0; i < ctx->GetOutputNum(); ++i) {
      inferred_shapes_.push_back(ib.OutputShape(i));
      inferred_dtypes_.push_back(ib.OutputDataType(i));
    }
    return ge::OkStatus();
  }

  ge::Status RunKernel(const ge::OpRegistrationData& reg, size_t num_outputs,
                       const std::vector<size_t>& absent_outputs) {
    out_.clear();
    out_tensors_.assign(num_outputs, gert::Tensor());
    std::vector<gert::Tensor*> outs;
    for (size_t i = 0; i < num_outputs; ++i) {
      bool absent = false;
      for (size_t a : absent_outputs) absent = absent || a == i;
      out_.push_back(nullptr);
      if (absent) {
        outs.push_back(nullptr);
        continue;
      }
      const gert::Shape& s = inferred_shapes_.at(i);
      if (preallocate_ && !s.IsUnknownShape()) {
        ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(inferred_dtypes_.at(i), s));
        out_[i] = std::make_unique<gert::HostTensor>(std::move(t));
        outs.push_back(out_[i]->MutableTensor());
      } else {
        out_tensors_[i].SetShape(s);
        out_tensors_[i].SetDataType(inferred_dtypes_.at(i));
        outs.push_back(&out_tensors_[i]);
      }
    }
    std::vector<const gert::Tensor*> ins;
    for (const auto& in : inputs_) ins.push_back(in == nullptr ? nullptr : &in->tensor());
    const ge::OpKernelDef* k = reg.FindKernel(ge::kEngineHostCpu);
    if (k == nullptr || k->fn == nullptr) return ge::NotFound("no host kernel for ", type_);
    gert::KernelRunContextBuilder kb;
    kb.Node(name_, type_)
        .Attrs(&attrs_)
        .Inputs(ins)
        .Outputs(outs)
        .IrInputs(IrFor(reg, inputs_.size()))
        .Allocator(&allocator_);
    RETURN_IF_ERROR(k->fn(*kb.Build()));
    for (size_t i = 0; i < num_outputs; ++i) {
      if (out_[i] == nullptr && outs[i] != nullptr) {
        // Allocated through the allocator: deep-copy into an owned tensor.
        const gert::Tensor& t = out_tensors_[i];
        if (t.GetAddr() == nullptr && t.GetShapeSize() != 0) {
          return ge::Internal("kernel left output ", i, " unallocated");
        }
        ASSIGN_OR_RETURN(gert::HostTensor h, gert::HostTensor::Create(t.GetDataType(), t.GetShape()));
        const int64_t n = t.GetShapeSize();
        if (t.GetDataType() == ge::DT_STRING) {
          for (int64_t j = 0; j < n; ++j)
            h.MutableData<std::string>()[j] = t.GetData<std::string>()[j];
        } else if (n > 0) {
          std::memcpy(h.MutableTensor()->GetAddr(), t.GetAddr(), h.tensor().GetSize());
        }
        out_[i] = std::make_unique<gert::HostTensor>(std::move(h));
      }
    }
    return ge::OkStatus();
  }

  std::string type_;
  std::string name_;
  ge::NamedAttrs attrs_;
  std::vector<std::unique_ptr<gert::HostTensor>> inputs_;
  std::vector<std::unique_ptr<gert::HostTensor>> out_;
  std::vector<gert::Tensor> out_tensors_;
  std::vector<gert::Shape> inferred_shapes_;
  std::vector<ge::DataType> inferred_dtypes_;
  TestAllocator allocator_;
  bool hide_values_ = false;
  size_t num_outputs_ = 1;
  std::vector<size_t> absent_outputs_;
  bool preallocate_ = true;
};

// Element-wise comparison: |got - want| <= tol * (1 + |want|).
inline ::testing::AssertionResult Near(const std::vector<double>& got,
                                       const std::vector<double>& want, double tol = 1e-5) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << "size " << got.size() << " != expected " << want.size();
  }
  for (size_t i = 0; i < got.size(); ++i) {
    const double diff = std::fabs(got[i] - want[i]);
    if (!(diff <= tol * (1.0 + std::fabs(want[i])))) {
      return ::testing::AssertionFailure()
             << "element " << i << ": got " << got[i] << ", expected " << want[i];
    }
  }
  return ::testing::AssertionSuccess();
}

// The status is an error whose message contains `needle` and names the node.
inline ::testing::AssertionResult ErrorContains(const ge::Status& s, const std::string& needle,
                                                const std::string& node = "n1") {
  if (s.ok()) return ::testing::AssertionFailure() << "status is OK, expected an error";
  const std::string msg(s.message());
  if (msg.find(needle) == std::string::npos) {
    return ::testing::AssertionFailure() << "message \"" << msg << "\" lacks \"" << needle << "\"";
  }
  if (msg.find("node " + node) == std::string::npos) {
    return ::testing::AssertionFailure() << "message \"" << msg << "\" does not name node " << node;
  }
  return ::testing::AssertionSuccess();
}

inline gert::HostTensor Make(ge::DataType dt, const gert::Shape& shape,
                             std::vector<double> values) {
  auto t = MakeHostTensorFromDoubles(dt, shape, values);
  EXPECT_TRUE(t.ok()) << t.status();
  return std::move(t).value();
}

inline std::vector<double> Iota(int64_t n, double start = 1.0) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = start + static_cast<double>(i);
  return v;
}

inline std::string Msg(const ge::Status& s) { return std::string(s.message()); }

}  // namespace op_test
}  // namespace ops

#endif  // OPS_COMMON_OP_TEST_HARNESS_H_
