// ops/control/control_test_util.h
//
// Test helpers for the control, sequence and internal op families: tensor
// makers (including sequences and optional values), a fake SubgraphRunner
// calling a lambda, and OpRunner, which runs a registered op's verify / infer
// data type / infer shape and its kernel the way an executor would (outputs
// preallocated with gert::HostTensor::Create when the inferred shape and
// dtype are known, otherwise allocated by the kernel through an allocator
// that also uses HostTensor::Create, so DT_VARIANT elements are constructed).
//
// Example
//   FakeSubgraphRunner body([](size_t index, auto inputs, auto* outputs) { ... });
//   OpRunner r("If");
//   r.Input(Bool({}, {1})).Outputs(1).Subgraphs(&body);
//   ASSERT_OK(r.Run());
//   EXPECT_THAT(r.Values<float>(0), ElementsAre(1, 2));
#ifndef OPS_CONTROL_CONTROL_TEST_UTIL_H_
#define OPS_CONTROL_CONTROL_TEST_UTIL_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_infer_runner.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/op_util.h"

namespace ops {
namespace test {

inline constexpr char kNodeName[] = "ctl_node";

// ------------------------------------------------------------ tensors

// Shared pieces (ops/common/op_test_harness.h): status macros, tensor makers
// from storage-type values, ValuesOf, the allocator, infer inputs.
using op_test::AbsentIn;
using op_test::In;
using op_test::TestAllocator;
using op_test::Val;
using op_test::typed::Bool;
using op_test::typed::F32;
using op_test::typed::I32;
using op_test::typed::I64;
using op_test::typed::Make;
using op_test::typed::Str;
using op_test::typed::ValuesOf;

// A sequence of the given tensors.
inline gert::HostTensor Seq(std::vector<gert::HostTensor> elems) {
  auto r = gert::HostTensor::CreateSequence(std::move(elems));
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : gert::HostTensor();
}
template <typename... Ts>
gert::HostTensor SeqOf(Ts&&... elems) {
  std::vector<gert::HostTensor> v;
  (v.push_back(std::forward<Ts>(elems)), ...);
  return Seq(std::move(v));
}
inline gert::HostTensor Opt(gert::HostTensor elem) {
  auto r = gert::HostTensor::CreateOptional(std::move(elem));
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : gert::HostTensor();
}
inline gert::HostTensor EmptyOpt() {
  auto r = gert::HostTensor::CreateEmptyOptional();
  EXPECT_TRUE(r.ok());
  return r.ok() ? std::move(r).value() : gert::HostTensor();
}

// The elements of a DT_VARIANT tensor (empty span on error, with a failure).
inline absl::Span<const gert::HostTensor> ElementsOf(const gert::Tensor& t) {
  auto r = gert::VariantElements(t);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : absl::Span<const gert::HostTensor>();
}

// ------------------------------------------------------------ runner parts

using SubgraphFn = std::function<ge::Status(size_t index, absl::Span<const gert::Tensor* const>,
                                            std::vector<gert::HostTensor>*)>;

// Runs subgraphs by calling a lambda; records the indices it was asked for.
class FakeSubgraphRunner : public gert::SubgraphRunner {
 public:
  explicit FakeSubgraphRunner(SubgraphFn fn) : fn_(std::move(fn)) {}
  ge::Status Run(size_t subgraph_index, absl::Span<const gert::Tensor* const> inputs,
                 std::vector<gert::HostTensor>* outputs) override {
    calls_.push_back(subgraph_index);
    return fn_(subgraph_index, inputs, outputs);
  }
  const std::vector<size_t>& calls() const { return calls_; }

 private:
  SubgraphFn fn_;
  std::vector<size_t> calls_;
};

// Deep copy of a body input (for fake bodies that return their inputs).
inline gert::HostTensor CopyOf(const gert::Tensor* t) {
  auto r = gert::HostTensor::CopyFrom(*t);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : gert::HostTensor();
}

// ------------------------------------------------------------ infer / run

class OpRunner {
 public:
  explicit OpRunner(std::string type) : type_(std::move(type)), attrs_("attrs") {}

  template <typename T>
  OpRunner& Attr(const std::string& name, T value) {
    const ge::Status st = attrs_.SetAttr(name, ge::AttrValue::CreateFrom<T>(std::move(value)));
    EXPECT_TRUE(st.ok()) << st.message();
    return *this;
  }
  OpRunner& Input(gert::HostTensor t) {
    auto in = std::make_unique<Slot>();
    in->owned = std::move(t);
    in->view = in->owned.tensor();
    inputs_.push_back(std::move(in));
    return *this;
  }
  OpRunner& AbsentInput() {
    inputs_.push_back(nullptr);
    return *this;
  }
  // An input with a shape and dtype but no data (a dead Switch output).
  OpRunner& DeadInput(const gert::Shape& s, ge::DataType dt) {
    auto in = std::make_unique<Slot>();
    in->view = gert::Tensor(s, dt, nullptr, 0);
    inputs_.push_back(std::move(in));
    return *this;
  }
  OpRunner& Outputs(size_t n) {
    n_out_ = n;
    return *this;
  }
  OpRunner& Subgraphs(gert::SubgraphRunner* r) {
    runner_ = r;
    return *this;
  }
  // Presets output i's shape / dtype before infer (as a node's output desc
  // would).
  OpRunner& PresetOutput(size_t i, const gert::Shape& s, ge::DataType dt) {
    presets_.push_back({i, s, dt});
    return *this;
  }
  // When false, infer sees shapes / dtypes only (no input values).
  OpRunner& InferWithValues(bool v) {
    infer_values_ = v;
    return *this;
  }

  // verify -> infer data type (default: input 0's) -> infer shape.
  ge::Status Infer() {
    reg_ = ge::OpRegistry::Instance().Find(type_);
    if (reg_ == nullptr) return ge::NotFound("op ", type_, " is not registered");
    builder_ = std::make_unique<gert::InferShapeContextBuilder>();
    builder_->Node(kNodeName, type_).Attrs(&attrs_).Outputs(n_out_);
    for (const auto& t : inputs_) {
      if (t == nullptr) {
        builder_->AbsentInput();
      } else {
        const bool value = infer_values_ && t->view.GetAddr() != nullptr;
        builder_->Input(t->view.GetShape(), t->view.GetDataType(), value ? &t->view : nullptr);
      }
    }
    for (const Preset& p : presets_) builder_->OutputShape(p.index) = p.shape;
    gert::InferShapeContext* ctx = builder_->Build();
    for (size_t i = 0; i < n_out_; ++i) ctx->SetOutputDataType(i, ge::DT_UNDEFINED);
    for (const Preset& p : presets_) ctx->SetOutputDataType(p.index, p.dt);
    ge::OpInferOptions infer_options;
    infer_options.missing_infer_shape = ge::OpInferOptions::MissingInferShape::kSkip;
    infer_options.check_value_reads = true;  // undeclared value reads fail the test
    const ge::Status st = ge::RunOpInfer(*reg_, *ctx, infer_options);
    shapes_.clear();
    dtypes_.clear();
    for (size_t i = 0; i < n_out_; ++i) {
      shapes_.push_back(builder_->OutputShape(i));
      dtypes_.push_back(ctx->GetOutputDataType(i));
    }
    return st;
  }

  // Infer, then the kernel of `engine`.
  ge::Status Run(absl::string_view engine = ge::kEngineHostCpu) {
    RETURN_IF_ERROR(Infer());
    const ge::OpKernelDef* k = reg_->FindKernel(engine);
    if (k == nullptr) return ge::NotFound("no ", engine, " kernel for ", type_);
    return RunKernelOnly(k->fn);
  }

  // The kernel with the shapes / dtypes of the last Infer() (without one:
  // the presets, other outputs unknown).
  ge::Status RunKernelOnly(ge::KernelFn fn) {
    if (shapes_.size() != n_out_) {
      shapes_.assign(n_out_, gert::Shape{ge::UNKNOWN_RANK});
      dtypes_.assign(n_out_, ge::DT_UNDEFINED);
      for (const Preset& p : presets_) {
        shapes_.at(p.index) = p.shape;
        dtypes_.at(p.index) = p.dt;
      }
    }
    outputs_.clear();
    views_.assign(n_out_, gert::Tensor());
    std::vector<gert::Tensor*> outs;
    for (size_t i = 0; i < n_out_; ++i) {
      const gert::Shape& s = shapes_.at(i);
      views_[i].SetShape(s);
      views_[i].SetDataType(dtypes_.at(i));
      if (!s.IsUnknownShape() && dtypes_[i] != ge::DT_UNDEFINED) {
        auto h = gert::HostTensor::Create(dtypes_[i], s);
        if (h.ok()) {
          auto owned = std::make_unique<gert::HostTensor>(std::move(h).value());
          views_[i].SetData(owned->tensor().GetAddr(), owned->tensor().GetSize());
          outputs_.push_back(std::move(owned));
        }
      }
      outs.push_back(&views_[i]);
    }
    std::vector<const gert::Tensor*> ins;
    for (const auto& t : inputs_) ins.push_back(t == nullptr ? nullptr : &t->view);
    gert::KernelRunContextBuilder b;
    b.Node(kNodeName, type_).Attrs(&attrs_).Inputs(ins).Outputs(outs).Allocator(&allocator_);
    if (runner_ != nullptr) b.Subgraphs(runner_);
    return fn(*b.Build());
  }

  const gert::Shape& InferredShape(size_t i) const { return shapes_.at(i); }
  ge::DataType InferredType(size_t i) const { return dtypes_.at(i); }
  const gert::Tensor& Out(size_t i) const { return views_.at(i); }
  const gert::Shape& OutShape(size_t i) const { return views_.at(i).GetShape(); }
  ge::DataType OutType(size_t i) const { return views_.at(i).GetDataType(); }
  template <typename T>
  std::vector<T> Values(size_t i) const {
    return ValuesOf<T>(views_.at(i));
  }
  absl::Span<const gert::HostTensor> Elements(size_t i) const { return ElementsOf(views_.at(i)); }
  const ge::NamedAttrs& attrs() const { return attrs_; }
  int allocations() const { return allocator_.calls(); }

 private:
  struct Slot {
    gert::HostTensor owned;
    gert::Tensor view;
  };
  struct Preset {
    size_t index;
    gert::Shape shape;
    ge::DataType dt;
  };
  std::string type_;
  ge::NamedAttrs attrs_;
  std::vector<std::unique_ptr<Slot>> inputs_;
  size_t n_out_ = 1;
  gert::SubgraphRunner* runner_ = nullptr;
  std::vector<Preset> presets_;
  bool infer_values_ = true;
  const ge::OpRegistrationData* reg_ = nullptr;
  std::unique_ptr<gert::InferShapeContextBuilder> builder_;
  std::vector<gert::Shape> shapes_;
  std::vector<ge::DataType> dtypes_;
  std::vector<std::unique_ptr<gert::HostTensor>> outputs_;
  std::vector<gert::Tensor> views_;
  TestAllocator allocator_;
};

// The status is an error whose message names the test node and contains
// `needle`.
inline ::testing::AssertionResult IsNodeError(const ge::Status& st, const std::string& needle) {
  return op_test::ErrorContains(st, needle, kNodeName);
}

}  // namespace test
}  // namespace ops

#endif  // OPS_CONTROL_CONTROL_TEST_UTIL_H_
