// ops/compute/rnn/rnn_kernels_test.cc
//
// LSTM, GRU (both linear_before_reset modes) and RNN (Tanh, Relu) on the
// compute engine against the host-CPU reference kernels: sequence lengths 1
// and > 1, batch 1 and 3, odd hidden sizes, every direction, with and
// without B / initial states / peepholes, constant and runtime weights,
// 1 and 2 threads; every subset of the optional outputs (outputs left
// unused at Prepare and Run); BF16 tensors natively and through the FLOAT
// decorator; that Run allocates nothing; the host kernel's ONNX cases
// (taken or rejected); and what Supports rejects.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "metadef/register/inc/register/op_registry.h"
#include "metadef/register/testing/alloc_counter.h"
#include "ops/common/onnx_case_runner.h"
#include "ops/common/op_util.h"
#include "ops/compute/common/compute_kernel_tester.h"
#include "ops/compute/common/dnnl_common.h"
#include "ops/rnn/case_loader.h"

namespace ops {
namespace compute {
namespace {

using testing::ComputeKernelTester;
using testing::RandomTensor;
using Dims = std::vector<int64_t>;

constexpr double kF32Tol = 1e-5;
// bf16 rounds h at every step (the host keeps it in float): a few
// roundings of 2^-8 apart.
constexpr double kBf16Tol = 3e-2;

struct RnnCase {
  std::string op = "LSTM";  // LSTM, GRU, RNN
  std::string direction = "forward";
  int64_t seq = 2, batch = 3, input = 4, hidden = 5;
  bool bias = true;
  bool init_h = false, init_c = false;  // initial_c, P: LSTM only
  bool peephole = false;
  bool weights_const = true;             // W, R, B, P
  int64_t lbr = 0;                       // GRU linear_before_reset
  std::vector<std::string> activations;  // empty: not set
  ge::DataType dt = ge::DT_FLOAT;
};

int64_t Gates(const RnnCase& c) { return c.op == "LSTM" ? 4 : (c.op == "GRU" ? 3 : 1); }
int64_t Dirs(const RnnCase& c) { return c.direction == "bidirectional" ? 2 : 1; }

std::string Describe(const RnnCase& c) {
  std::string s = c.op + " " + c.direction + " seq " + std::to_string(c.seq) + " batch " +
                  std::to_string(c.batch) + " input " + std::to_string(c.input) + " hidden " +
                  std::to_string(c.hidden);
  if (c.bias) s += " B";
  if (c.init_h) s += " initial_h";
  if (c.init_c) s += " initial_c";
  if (c.peephole) s += " P";
  if (!c.weights_const) s += " runtime weights";
  if (c.lbr) s += " linear_before_reset";
  for (const std::string& a : c.activations) s += " " + a;
  if (c.dt == ge::DT_BF16) s += " bf16";
  return s;
}

// The node's inputs: tensors, which are constants, which are absent
// (optional inputs between present ones).
struct CaseInputs {
  std::vector<gert::HostTensor> tensors;
  std::vector<bool> constant, absent;
};

CaseInputs MakeInputs(const RnnCase& c) {
  const int64_t g = Gates(c), d = Dirs(c), h = c.hidden;
  // Relu RNNs grow with the sequence: smaller weights keep values moderate.
  const double wr = c.op == "RNN" ? 0.5 : 1.0;
  CaseInputs in;
  auto add = [&in](gert::HostTensor t, bool constant) {
    in.tensors.push_back(std::move(t));
    in.constant.push_back(constant);
    in.absent.push_back(false);
  };
  add(RandomTensor(c.dt, {c.seq, c.batch, c.input}, 1, -1, 1), false);
  add(RandomTensor(c.dt, {d, g * h, c.input}, 2, -wr, wr), c.weights_const);
  add(RandomTensor(c.dt, {d, g * h, h}, 3, -wr, wr), c.weights_const);
  const bool lstm = c.op == "LSTM";
  // Optional inputs 3.. (B, sequence_lens, initial_h, initial_c, P).
  const std::vector<bool> present = {c.bias, false, c.init_h, lstm && c.init_c, lstm && c.peephole};
  size_t last = 0;
  for (size_t i = 0; i < present.size(); ++i) {
    if (present[i]) last = i + 1;
  }
  for (size_t i = 0; i < last; ++i) {
    if (!present[i]) {
      in.tensors.emplace_back();
      in.constant.push_back(false);
      in.absent.push_back(true);
      continue;
    }
    switch (i) {
      case 0:
        add(RandomTensor(c.dt, {d, 2 * g * h}, 4, -wr, wr), c.weights_const);
        break;
      case 2:
        add(RandomTensor(c.dt, {d, c.batch, h}, 5), false);
        break;
      case 3:
        add(RandomTensor(c.dt, {d, c.batch, h}, 6), false);
        break;
      case 4:
        add(RandomTensor(c.dt, {d, 3 * h}, 7), c.weights_const);
        break;
      default:
        break;
    }
  }
  return in;
}

// Sets the attributes and inputs of `c` on `t`.
void AddCase(ComputeKernelTester& t, const RnnCase& c) {
  t.Attr("direction", c.direction).Attr("hidden_size", c.hidden);
  if (c.op == "GRU") t.Attr("linear_before_reset", c.lbr);
  if (!c.activations.empty()) t.Attr("activations", c.activations);
  CaseInputs in = MakeInputs(c);
  for (size_t i = 0; i < in.tensors.size(); ++i) {
    if (in.absent[i]) {
      t.Absent();
    } else if (in.constant[i]) {
      t.Const(std::move(in.tensors[i]));
    } else {
      t.Input(std::move(in.tensors[i]));
    }
  }
}

double Tol(const RnnCase& c) { return c.dt == ge::DT_BF16 ? kBf16Tol : kF32Tol; }

::testing::AssertionResult Matches(const RnnCase& c) {
  ComputeKernelTester t(c.op);
  AddCase(t, c);
  return t.MatchesReference(Tol(c), Tol(c), {1, 2});
}

const char* const kDirections[] = {"forward", "reverse", "bidirectional"};

struct Shape4 {
  int64_t seq, batch, input, hidden;
};
const Shape4 kShapes[] = {{1, 1, 3, 5}, {1, 3, 4, 17}, {4, 1, 6, 17}, {5, 3, 2, 5}};

void ForShapesAndDirections(const RnnCase& base, void (*check)(RnnCase)) {
  for (const Shape4& s : kShapes) {
    for (const char* dir : kDirections) {
      RnnCase c = base;
      c.seq = s.seq;
      c.batch = s.batch;
      c.input = s.input;
      c.hidden = s.hidden;
      c.direction = dir;
      check(c);
    }
  }
}

// ---------------------------------------------------------------- LSTM

TEST(DnnlLstmTest, ShapesDirectionsBiasAndStates) {
  ForShapesAndDirections(RnnCase{}, [](RnnCase c) {
    for (bool bias : {false, true}) {
      for (int states = 0; states < 4; ++states) {
        c.bias = bias;
        c.init_h = states & 1;
        c.init_c = states & 2;
        EXPECT_TRUE(Matches(c)) << Describe(c);
      }
    }
  });
}

TEST(DnnlLstmTest, Peepholes) {
  ForShapesAndDirections(RnnCase{}, [](RnnCase c) {
    c.peephole = true;
    c.init_h = c.init_c = true;
    EXPECT_TRUE(Matches(c)) << Describe(c);
    c.init_h = c.init_c = false;
    c.bias = false;
    EXPECT_TRUE(Matches(c)) << Describe(c);
  });
}

TEST(DnnlLstmTest, RuntimeWeights) {
  for (const char* dir : kDirections) {
    for (bool peephole : {false, true}) {
      RnnCase c;
      c.direction = dir;
      c.seq = 3;
      c.hidden = 17;
      c.weights_const = false;
      c.peephole = peephole;
      c.init_h = true;
      EXPECT_TRUE(Matches(c)) << Describe(c);
      c.bias = false;
      EXPECT_TRUE(Matches(c)) << Describe(c);
    }
  }
}

// The default activations spelled out (any case) are the defaults.
TEST(DnnlLstmTest, ExplicitDefaultActivations) {
  RnnCase c;
  c.activations = {"Sigmoid", "TANH", "tanh"};
  EXPECT_TRUE(Matches(c)) << Describe(c);
  c.direction = "bidirectional";
  EXPECT_TRUE(Matches(c)) << Describe(c);
  c.activations = {"Sigmoid", "Tanh", "Tanh", "sigmoid", "tanh", "Tanh"};
  EXPECT_TRUE(Matches(c)) << Describe(c);
}

// ---------------------------------------------------------------- GRU

TEST(DnnlGruTest, ShapesDirectionsBiasAndStates) {
  for (int64_t lbr : {0, 1}) {
    RnnCase base;
    base.op = "GRU";
    base.lbr = lbr;
    ForShapesAndDirections(base, [](RnnCase c) {
      for (bool bias : {false, true}) {
        for (bool init_h : {false, true}) {
          c.bias = bias;
          c.init_h = init_h;
          EXPECT_TRUE(Matches(c)) << Describe(c);
        }
      }
    });
  }
}

TEST(DnnlGruTest, RuntimeWeightsAndActivations) {
  for (int64_t lbr : {0, 1}) {
    for (const char* dir : kDirections) {
      RnnCase c;
      c.op = "GRU";
      c.lbr = lbr;
      c.direction = dir;
      c.seq = 3;
      c.hidden = 17;
      c.init_h = true;
      c.weights_const = false;
      EXPECT_TRUE(Matches(c)) << Describe(c);
      c.weights_const = true;
      c.activations = {"sigmoid", "Tanh"};
      EXPECT_TRUE(Matches(c)) << Describe(c);
    }
  }
}

// ---------------------------------------------------------------- RNN

TEST(DnnlRnnTest, ShapesDirectionsBiasAndStates) {
  for (const char* act : {"Tanh", "Relu"}) {
    RnnCase base;
    base.op = "RNN";
    base.activations = {act};
    ForShapesAndDirections(base, [](RnnCase c) {
      for (bool bias : {false, true}) {
        for (bool init_h : {false, true}) {
          c.bias = bias;
          c.init_h = init_h;
          EXPECT_TRUE(Matches(c)) << Describe(c);
        }
      }
    });
  }
}

// The op's default (activations unset: {Tanh, Tanh}), one activation per
// direction, runtime weights.
TEST(DnnlRnnTest, ActivationsAndRuntimeWeights) {
  for (const char* dir : kDirections) {
    RnnCase c;
    c.op = "RNN";
    c.direction = dir;
    c.seq = 4;
    c.hidden = 17;
    c.init_h = true;
    EXPECT_TRUE(Matches(c)) << Describe(c);
    c.weights_const = false;
    c.activations = {"relu"};
    EXPECT_TRUE(Matches(c)) << Describe(c);
  }
  for (const std::vector<std::string>& acts :
       std::vector<std::vector<std::string>>{{"Relu", "Tanh"}, {"Tanh", "Relu"}}) {
    RnnCase c;
    c.op = "RNN";
    c.direction = "bidirectional";
    c.seq = 3;
    c.activations = acts;
    EXPECT_TRUE(Matches(c)) << Describe(c);
  }
}

// ---------------------------------------------------------------- direct runs

// The node of `c` run directly, as the executor runs it: the host kernel
// with every output, the compute kernel (through the BF16 decorator when
// `emulate`) with the outputs of `mask` only, the others null at Prepare
// and at Run (outputs nothing consumes); each output it wrote must match.
// The node is built and checked (CheckSupported) as FLOAT: the ops' type
// sets have no BF16 (ops/rnn/rnn_ops.cc), so a BF16 case runs BF16 tensors
// through kernels prepared on a FLOAT desc; both kernels read types from
// the tensors.
// With `run_allocations`, one more Run counts the heap allocations of the
// kernel's own code (oneDNN's execute is counted apart).
::testing::AssertionResult DirectMatches(const RnnCase& c, unsigned mask, bool emulate = false,
                                         int64_t* run_allocations = nullptr) {
  RnnCase as_float = c;
  as_float.dt = ge::DT_FLOAT;
  ComputeKernelTester t(c.op);
  AddCase(t, as_float);
  ge::Status st = t.Supported();
  if (!st.ok()) return ::testing::AssertionFailure() << "CheckSupported: " << st;
  const ge::OpDesc& op = *t.op();
  const size_t n_out = op.GetOutputsSize();
  const CaseInputs inputs = MakeInputs(c);
  const size_t n_in = inputs.tensors.size();
  ge::StatusOr<std::vector<gert::IrInstance>> ir =
      ge::MapInputSlotsToIr(op, *ge::OpRegistry::Instance().Find(c.op), n_in);
  if (!ir.ok()) return ::testing::AssertionFailure() << ir.status();
  std::vector<gert::HostTensor> want, got;
  for (size_t o = 0; o < n_out; ++o) {
    const ge::GeTensorDesc* d = op.GetOutputDescBarePtr(static_cast<uint32_t>(o));
    gert::Shape s = *gert::Shape::FromDims(d->GetShape().GetDims());
    want.push_back(*gert::HostTensor::Create(c.dt, s));
    got.push_back(*gert::HostTensor::Create(c.dt, s));
  }
  std::vector<const gert::Tensor*> in_ptrs;
  for (size_t i = 0; i < n_in; ++i) {
    in_ptrs.push_back(inputs.absent[i] ? nullptr : &inputs.tensors[i].tensor());
  }
  {
    std::vector<gert::Tensor*> outs;
    for (gert::HostTensor& w : want) outs.push_back(w.MutableTensor());
    gert::KernelRunContextBuilder b;
    b.Node(op.GetName(), c.op).Attrs(&op).Inputs(in_ptrs).Outputs(outs).IrInputs(*ir);
    st = ge::FindKernel(c.op, ge::kEngineHostCpu)->shared_kernel()->Run(*b.Build());
    if (!st.ok()) return ::testing::AssertionFailure() << "host kernel: " << st;
  }
  const ge::KernelDef* def = ge::FindKernel(c.op, ge::kEngineAiCore);
  std::unique_ptr<ge::OpKernel> k =
      emulate ? NewBf16Emulated(*def, Bf16Emulation::kAlways) : def->NewKernel();
  // Prepare's facts: data for constants only.
  std::vector<gert::Tensor> facts(n_in);
  std::vector<const gert::Tensor*> fact_ptrs(n_in, nullptr);
  for (size_t i = 0; i < n_in; ++i) {
    if (inputs.absent[i]) continue;
    facts[i] = inputs.tensors[i].tensor();
    if (!inputs.constant[i]) facts[i].SetData(nullptr, 0);
    fact_ptrs[i] = &facts[i];
  }
  std::vector<gert::Tensor> out_facts;
  for (const gert::HostTensor& g : got) {
    out_facts.push_back(g.tensor());
    out_facts.back().SetData(nullptr, 0);
  }
  std::vector<const gert::Tensor*> out_fact_ptrs;
  for (size_t o = 0; o < n_out; ++o) {
    out_fact_ptrs.push_back((mask >> o) & 1 ? &out_facts[o] : nullptr);
  }
  gert::TilingContextBuilder tb;
  gert::TilingContext* tctx =
      tb.Node(op.GetName(), c.op).Attrs(&op).Inputs(fact_ptrs).Outputs(out_fact_ptrs).Build();
  st = k->Prepare(*tctx);
  if (!st.ok()) return ::testing::AssertionFailure() << "Prepare: " << st;
  if (emulate != IsBf16Emulating(*k)) {
    return ::testing::AssertionFailure() << "emulating: " << IsBf16Emulating(*k);
  }
  std::vector<std::unique_ptr<AlignedBuffer>> ws;
  std::vector<void*> ws_ptrs;
  for (size_t bytes : tctx->GetWorkspaceSizes()) {
    ge::StatusOr<AlignedBuffer> buf = AlignedBuffer::Allocate(bytes);
    if (!buf.ok()) return ::testing::AssertionFailure() << buf.status();
    ws.push_back(std::make_unique<AlignedBuffer>(std::move(*buf)));
    ws_ptrs.push_back(ws.back()->data());
  }
  std::vector<gert::Tensor*> outs;
  for (size_t o = 0; o < n_out; ++o) {
    outs.push_back((mask >> o) & 1 ? got[o].MutableTensor() : nullptr);
  }
  for (int threads : {1, 2}) {
    SetIntraOpThreads(threads);
    gert::KernelRunContextBuilder b;
    b.Node(op.GetName(), c.op)
        .Attrs(&op)
        .Inputs(in_ptrs)
        .Outputs(outs)
        .IrInputs(*ir)
        .Workspaces(ws_ptrs);
    st = k->Run(*b.Build());
    SetIntraOpThreads(1);
    if (!st.ok()) return ::testing::AssertionFailure() << "Run: " << st;
    for (size_t o = 0; o < n_out; ++o) {
      if (((mask >> o) & 1) == 0) continue;
      const std::vector<double> g = *ReadAsDoubles(got[o].tensor());
      const std::vector<double> w = *ReadAsDoubles(want[o].tensor());
      for (size_t i = 0; i < w.size(); ++i) {
        if (!(std::fabs(g[i] - w[i]) <= Tol(c) * (1 + std::fabs(w[i])))) {
          return ::testing::AssertionFailure()
                 << "output " << o << " element " << i << ": " << g[i] << " vs reference " << w[i]
                 << " (" << threads << " threads)";
        }
      }
    }
  }
  if (run_allocations != nullptr) {
    gert::KernelRunContextBuilder b;
    b.Node(op.GetName(), c.op)
        .Attrs(&op)
        .Inputs(in_ptrs)
        .Outputs(outs)
        .IrInputs(*ir)
        .Workspaces(ws_ptrs);
    gert::KernelContext* kctx = b.Build();
    alloc_counter::AllocCountingScope scope;
    st = k->Run(*kctx);
    *run_allocations = scope.count();
    if (!st.ok()) return ::testing::AssertionFailure() << "Run: " << st;
  }
  return ::testing::AssertionSuccess();
}

unsigned AllOutputs(const RnnCase& c) { return c.op == "LSTM" ? 7u : 3u; }

TEST(DnnlRnnOutputsTest, EverySubset) {
  for (const char* op : {"LSTM", "GRU", "RNN"}) {
    const unsigned n_out = std::string(op) == "LSTM" ? 3 : 2;
    for (const char* dir : kDirections) {
      for (bool weights_const : {true, false}) {
        // Initial states: none, initial_h, initial_c, both (LSTM).
        for (int states = 0; states < (n_out == 3 ? 4 : 2); ++states) {
          RnnCase c;
          c.op = op;
          c.direction = dir;
          c.seq = 3;
          c.hidden = 5;
          c.weights_const = weights_const;
          c.init_h = states & 1;
          c.init_c = states & 2;
          for (unsigned mask = 1; mask < (1u << n_out); ++mask) {
            EXPECT_TRUE(DirectMatches(c, mask)) << Describe(c) << " outputs mask " << mask;
          }
        }
      }
    }
  }
}

// A prepared kernel's Run allocates nothing (oneDNN 2.6's execute builds a
// map of its arguments per call: counted apart, see dnnl_common.cc).
TEST(DnnlRnnOutputsTest, RunAllocatesNothing) {
  std::vector<std::pair<RnnCase, unsigned>> cases;
  for (const char* op : {"LSTM", "GRU", "RNN"}) {
    for (bool weights_const : {true, false}) {
      RnnCase c;
      c.op = op;
      c.direction = "bidirectional";
      c.seq = 3;
      c.init_h = c.init_c = true;
      c.peephole = true;
      c.lbr = 1;
      c.weights_const = weights_const;
      cases.push_back({c, AllOutputs(c)});
      cases.push_back({c, 2u});  // Y_h only: Y (and Y_c) in the workspace
    }
  }
  for (const auto& [c, mask] : cases) {
    int64_t allocations = -1;
    EXPECT_TRUE(DirectMatches(c, mask, false, &allocations)) << Describe(c);
    EXPECT_EQ(allocations, 0) << Describe(c) << " outputs mask " << mask;
  }
}

// ---------------------------------------------------------------- BF16

// BF16 tensors (see DirectMatches), natively and through the FLOAT
// decorator the compute engine uses on CPUs without a BF16 primitive.
TEST(DnnlRnnBf16Test, EveryCell) {
  std::vector<RnnCase> cases;
  for (const char* dir : kDirections) {
    for (bool weights_const : {true, false}) {
      RnnCase c;
      c.dt = ge::DT_BF16;
      c.direction = dir;
      c.seq = 3;
      c.hidden = 17;
      c.init_h = true;
      c.weights_const = weights_const;
      RnnCase lstm = c;
      lstm.init_c = true;
      cases.push_back(lstm);
      lstm.peephole = true;
      cases.push_back(lstm);
      for (int64_t lbr : {0, 1}) {
        RnnCase gru = c;
        gru.op = "GRU";
        gru.lbr = lbr;
        cases.push_back(gru);
      }
      for (const char* act : {"Tanh", "Relu"}) {
        RnnCase rnn = c;
        rnn.op = "RNN";
        rnn.activations = {act};
        cases.push_back(rnn);
      }
    }
  }
  for (const RnnCase& c : cases) {
    EXPECT_TRUE(DirectMatches(c, AllOutputs(c))) << Describe(c);
    EXPECT_TRUE(DirectMatches(c, AllOutputs(c), true)) << Describe(c) << " emulated";
  }
  // Output subsets, with and without initial states.
  for (const char* op : {"LSTM", "GRU", "RNN"}) {
    for (bool init : {false, true}) {
      RnnCase c;
      c.op = op;
      c.dt = ge::DT_BF16;
      c.direction = "bidirectional";
      c.init_h = c.init_c = init;
      for (unsigned mask = 1; mask <= AllOutputs(c); ++mask) {
        EXPECT_TRUE(DirectMatches(c, mask)) << Describe(c) << " outputs mask " << mask;
      }
    }
  }
}

// ---------------------------------------------------------------- ONNX cases

// The ONNX node tests and numpy reference cases of the host kernel
// (ops/rnn/testdata/onnx_cases.txt) on the compute engine: W, R, B and P
// constant. The ones the kernel takes must match the host kernel; the
// others must be rejected.
TEST(DnnlRnnOnnxCasesTest, TakenOrRejected) {
  const std::vector<std::string> taken = {
      "test_gru_defaults",           "test_gru_seq_length",
      "test_gru_with_initial_bias",  "test_lstm_defaults",
      "test_lstm_with_initial_bias", "test_rnn_seq_length",
      "test_simple_rnn_defaults",    "test_simple_rnn_with_initial_bias",
      "rnn_reverse_bias_h0"};
  // Under bazel the file needs to be a data dependency of this test, which
  // takes exports_files in ops/rnn; without it the test is skipped (run the
  // binary from the workspace root to read it from the source tree).
  std::string path = "ops/rnn/testdata/onnx_cases.txt";
  if (const char* srcdir = std::getenv("TEST_SRCDIR")) path = std::string(srcdir) + "/ge/" + path;
  ge::StatusOr<std::vector<ops::testing::OnnxCase>> loaded = ops::optest::LoadCases(path);
  ASSERT_TRUE(loaded.ok()) << path << " is not readable: " << loaded.status();
  const std::vector<ops::testing::OnnxCase>& cases = *loaded;
  size_t matched = 0;
  for (const ops::testing::OnnxCase& oc : cases) {
    ComputeKernelTester t(oc.op);
    for (const auto& [name, value] : oc.attrs) {
      if (const auto* i = value.Get<int64_t>()) {
        t.Attr(name, *i);
      } else if (const auto* f = value.Get<float>()) {
        t.Attr(name, *f);
      } else if (const auto* str = value.Get<std::string>()) {
        t.Attr(name, *str);
      } else if (const auto* strs = value.Get<std::vector<std::string>>()) {
        t.Attr(name, *strs);
      } else if (const auto* floats = value.Get<std::vector<float>>()) {
        t.Attr(name, *floats);
      } else {
        FAIL() << oc.name << ": attribute " << name << " of an unexpected type";
      }
    }
    for (size_t i = 0; i < oc.inputs.size(); ++i) {
      if (oc.inputs[i].absent) {
        t.Absent();
        continue;
      }
      ge::StatusOr<gert::HostTensor> v = ops::testing::MakeTensor(oc.inputs[i]);
      ASSERT_TRUE(v.ok()) << oc.name << ": " << v.status();
      if (i == 1 || i == 2 || i == 3 || i == 7) {
        t.Const(std::move(*v));
      } else {
        t.Input(std::move(*v));
      }
    }
    const bool expect_taken = std::find(taken.begin(), taken.end(), oc.name) != taken.end();
    if (expect_taken) {
      EXPECT_TRUE(t.MatchesReference(kF32Tol, kF32Tol, {1, 2})) << oc.name;
      ++matched;
    } else {
      ge::Status st = t.Supported();
      EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << oc.name << ": " << st;
    }
  }
  EXPECT_EQ(matched, taken.size());
}

// ---------------------------------------------------------------- rejections

void ExpectRejected(ComputeKernelTester& t, const std::string& what, const std::string& reason) {
  ge::Status st = t.Supported();
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << what << ": " << st;
  EXPECT_NE(st.message().find(reason), std::string::npos) << what << ": " << st;
}

TEST(DnnlRnnRejectTest, SequenceLens) {
  for (const char* op : {"LSTM", "GRU", "RNN"}) {
    RnnCase c;
    c.op = op;
    ComputeKernelTester t(op);
    AddCase(t, c);  // X, W, R, B
    t.Input(*MakeHostTensor<int32_t>(ge::DT_INT32, *gert::Shape::FromDims({c.batch}), {2, 1, 2}));
    // The declared data types reject the INT32 input before Supports.
    ExpectRejected(t, op, "input 4");
  }
}

TEST(DnnlRnnRejectTest, Attributes) {
  struct Reject {
    std::string op;
    std::string attr;
    std::string reason;
    void (*set)(ComputeKernelTester&);
  };
  const std::vector<Reject> cases = {
      {"LSTM", "layout 1", "layout", [](ComputeKernelTester& t) { t.Attr("layout", int64_t{1}); }},
      {"LSTM", "clip", "clip", [](ComputeKernelTester& t) { t.Attr("clip", 2.0f); }},
      {"GRU", "clip", "clip", [](ComputeKernelTester& t) { t.Attr("clip", 2.0f); }},
      {"RNN", "clip", "clip", [](ComputeKernelTester& t) { t.Attr("clip", 2.0f); }},
      {"LSTM", "input_forget", "input_forget",
       [](ComputeKernelTester& t) { t.Attr("input_forget", int64_t{1}); }},
      {"LSTM", "activations", "activations",
       [](ComputeKernelTester& t) {
         t.Attr("activations", std::vector<std::string>{"Sigmoid", "Tanh", "Relu"});
       }},
      {"GRU", "activations", "activations",
       [](ComputeKernelTester& t) {
         t.Attr("activations", std::vector<std::string>{"HardSigmoid", "Tanh"});
       }},
      {"RNN", "Sigmoid", "Tanh or Relu",
       [](ComputeKernelTester& t) { t.Attr("activations", std::vector<std::string>{"Sigmoid"}); }},
      {"RNN", "LeakyRelu", "Tanh or Relu",
       [](ComputeKernelTester& t) {
         t.Attr("activations", std::vector<std::string>{"LeakyRelu"});
       }},
      {"LSTM", "activation_alpha", "activation_alpha",
       [](ComputeKernelTester& t) { t.Attr("activation_alpha", std::vector<float>{0.5f}); }},
      {"GRU", "activation_beta", "activation_beta",
       [](ComputeKernelTester& t) { t.Attr("activation_beta", std::vector<float>{0.5f}); }},
  };
  for (const Reject& r : cases) {
    RnnCase c;
    c.op = r.op;
    ComputeKernelTester t(r.op);
    r.set(t);
    AddCase(t, c);
    ExpectRejected(t, r.op + " " + r.attr, r.reason);
  }
}

TEST(DnnlRnnRejectTest, DataTypes) {
  for (const char* op : {"LSTM", "GRU", "RNN"}) {
    for (ge::DataType dt : {ge::DT_DOUBLE, ge::DT_FLOAT16}) {
      RnnCase c;
      c.op = op;
      c.dt = dt;
      ComputeKernelTester t(op);
      AddCase(t, c);
      ExpectRejected(t, op, "data type");
    }
  }
}

// Unknown dims: the declaration takes static shapes only.
TEST(DnnlRnnRejectTest, UnknownDims) {
  ge::StatusOr<ge::OpDescPtr> op = ge::OperatorFactory::CreateOpDesc("lstm", "LSTM");
  ASSERT_TRUE(op.ok()) << op.status();
  auto desc = [](Dims d) { return ge::GeTensorDesc(ge::GeShape(d), ge::FORMAT_ND, ge::DT_FLOAT); };
  *(*op)->MutableInputDesc(0) = desc({-1, 2, 3});
  *(*op)->MutableInputDesc(1) = desc({1, 20, 3});
  *(*op)->MutableInputDesc(2) = desc({1, 20, 5});
  *(*op)->MutableOutputDesc(0) = desc({-1, 1, 2, 5});
  const ge::KernelDef* def = ge::FindKernel("LSTM", ge::kEngineAiCore);
  ASSERT_NE(def, nullptr);
  EXPECT_EQ(ge::GetErrorCode(def->CheckSupported(**op)), ge::ErrorCode::kNotSupported);
}

}  // namespace
}  // namespace compute
}  // namespace ops
