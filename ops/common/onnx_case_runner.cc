// ops/common/onnx_case_runner.cc: see onnx_case_runner.h.
#include "ops/common/onnx_case_runner.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <type_traits>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/op_infer_runner.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/dtype_dispatch.h"
#include "ops/common/element_types.h"
#include "ops/common/tensor_values.h"

namespace ops {
namespace testing {

ge::StatusOr<std::string> HexDecode(absl::string_view s) {
  if (s.empty() || s[0] != 'x') return ge::ParseFailed("string value must start with 'x': ", s);
  s.remove_prefix(1);
  if (s.size() % 2 != 0) return ge::ParseFailed("odd hex length: ", s);
  std::string out;
  for (size_t i = 0; i < s.size(); i += 2) {
    int v = 0;
    for (size_t k = 0; k < 2; ++k) {
      const char c = s[i + k];
      int d;
      if (c >= '0' && c <= '9') {
        d = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        d = c - 'a' + 10;
      } else {
        return ge::ParseFailed("bad hex digit in ", s);
      }
      v = v * 16 + d;
    }
    out.push_back(static_cast<char>(v));
  }
  return out;
}

namespace {

ge::StatusOr<double> ParseDouble(const std::string& s) {
  if (s == "nan") return std::nan("");
  if (s == "inf") return HUGE_VAL;
  if (s == "-inf") return -HUGE_VAL;
  double d;
  if (!absl::SimpleAtod(s, &d)) return ge::ParseFailed("bad number ", s);
  return d;
}

// "in DT_FLOAT 2 3 4 | v v v"
ge::StatusOr<OnnxTensor> ParseTensor(absl::string_view rest) {
  OnnxTensor t;
  if (rest == "absent") {
    t.absent = true;
    return t;
  }
  std::vector<std::string> halves = absl::StrSplit(rest, absl::MaxSplits('|', 1));
  if (halves.size() != 2) return ge::ParseFailed("tensor needs '|': ", rest);
  std::vector<std::string> head = absl::StrSplit(halves[0], ' ', absl::SkipEmpty());
  if (head.size() < 2) return ge::ParseFailed("tensor header too short: ", halves[0]);
  ASSIGN_OR_RETURN(t.dtype, ge::TypeUtils::SerialStringToDataType(head[0]));
  int64_t rank;
  if (!absl::SimpleAtoi(head[1], &rank) || rank < 0 ||
      static_cast<size_t>(rank) + 2 != head.size()) {
    return ge::ParseFailed("bad rank / dims: ", halves[0]);
  }
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t d;
    if (!absl::SimpleAtoi(head[2 + i], &d)) return ge::ParseFailed("bad dim ", head[2 + i]);
    dims.push_back(d);
  }
  ASSIGN_OR_RETURN(t.shape, gert::Shape::FromDims(dims));
  t.values = absl::StrSplit(halves[1], ' ', absl::SkipEmpty());
  if (static_cast<int64_t>(t.values.size()) != t.shape.GetShapeSize()) {
    return ge::ParseFailed("shape ", t.shape.ToString(), " but ", t.values.size(), " values");
  }
  return t;
}

ge::StatusOr<std::pair<std::string, ge::AttrValue>> ParseAttr(absl::string_view rest) {
  std::vector<std::string> f = absl::StrSplit(rest, ' ', absl::SkipEmpty());
  if (f.size() < 3) return ge::ParseFailed("attr needs name kind value: ", rest);
  const std::string& name = f[0];
  const std::string& kind = f[1];
  if (kind == "i") {
    int64_t v;
    if (!absl::SimpleAtoi(f[2], &v)) return ge::ParseFailed("bad int attr ", rest);
    return std::make_pair(name, ge::AttrValue::CreateFrom<int64_t>(v));
  }
  if (kind == "f") {
    ASSIGN_OR_RETURN(double v, ParseDouble(f[2]));
    return std::make_pair(name, ge::AttrValue::CreateFrom<float>(static_cast<float>(v)));
  }
  if (kind == "s") {
    ASSIGN_OR_RETURN(std::string v, HexDecode(f[2]));
    return std::make_pair(name, ge::AttrValue::CreateFrom<std::string>(v));
  }
  if (kind == "dt") {
    ASSIGN_OR_RETURN(ge::DataType v, ge::TypeUtils::SerialStringToDataType(f[2]));
    return std::make_pair(name, ge::AttrValue::CreateFrom<ge::DataType>(v));
  }
  if (kind == "ints" || kind == "floats") {
    size_t n;
    if (!absl::SimpleAtoi(f[2], &n) || n + 3 != f.size()) return ge::ParseFailed("bad list ", rest);
    if (kind == "ints") {
      std::vector<int64_t> v(n);
      for (size_t i = 0; i < n; ++i) {
        if (!absl::SimpleAtoi(f[3 + i], &v[i])) return ge::ParseFailed("bad int ", f[3 + i]);
      }
      return std::make_pair(name, ge::AttrValue::CreateFrom<std::vector<int64_t>>(v));
    }
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) {
      ASSIGN_OR_RETURN(double d, ParseDouble(f[3 + i]));
      v[i] = static_cast<float>(d);
    }
    return std::make_pair(name, ge::AttrValue::CreateFrom<std::vector<float>>(v));
  }
  return ge::ParseFailed("unknown attr kind ", kind);
}

// Holds a case's attributes (AttrHolder's destructor is protected).
class CaseAttrs : public ge::AttrHolder {};

class HeapAllocator : public gert::OutputAllocator {
 public:
  ge::Status Allocate(size_t, gert::Tensor* tensor) override {
    ASSIGN_OR_RETURN(gert::HostTensor t,
                     gert::HostTensor::Create(tensor->GetDataType(), tensor->GetShape()));
    held_.push_back(std::move(t));
    tensor->SetData(held_.back().tensor().GetAddr(), held_.back().tensor().GetSize());
    return ge::OkStatus();
  }

 private:
  std::vector<gert::HostTensor> held_;
};

ge::Status CompareTensor(size_t index, const gert::Tensor& got, const gert::HostTensor& want,
                         const CompareOptions& opts) {
  if (got.GetDataType() != want.GetDataType()) {
    return ge::Internal("output ", index, " dtype ", DataTypeName(got.GetDataType()),
                        " != ", DataTypeName(want.GetDataType()));
  }
  if (got.GetShape() != want.GetShape()) {
    return ge::Internal("output ", index, " shape ", got.GetShape().ToString(),
                        " != ", want.GetShape().ToString());
  }
  const int64_t n = want.GetShape().GetShapeSize();
  const ge::DataType dt = want.GetDataType();
  if (dt == ge::DT_STRING) {
    for (int64_t i = 0; i < n; ++i) {
      const std::string& g = got.GetData<std::string>()[i];
      const std::string& w = want.GetData<std::string>()[i];
      if (g != w) {
        return ge::Internal("output ", index, " element ", i, ": got \"", g, "\" want \"", w, "\"");
      }
    }
    return ge::OkStatus();
  }
  ASSIGN_OR_RETURN(std::vector<double> g, ReadAsDoubles(got));
  ASSIGN_OR_RETURN(std::vector<double> w, ReadAsDoubles(want.tensor()));
  const bool is_float = IsInGroups(dt, kTgAllFloat);
  double rtol = opts.rtol, atol = opts.atol;
  if (dt == ge::DT_FLOAT16) {
    rtol = opts.half_rtol;
    atol = opts.half_atol;
  } else if (dt == ge::DT_BF16) {
    rtol = opts.bf16_rtol;
    atol = opts.half_atol;
  }
  for (int64_t i = 0; i < n; ++i) {
    bool ok;
    if (!is_float) {
      // Exact, but compare integers without the double's rounding.
      ok = g[i] == w[i];
      if (ok && (dt == ge::DT_INT64 || dt == ge::DT_UINT64)) {
        ok = std::memcmp(static_cast<const char*>(got.GetAddr()) + i * 8,
                         static_cast<const char*>(want.tensor().GetAddr()) + i * 8, 8) == 0;
      }
    } else if (std::isnan(w[i])) {
      ok = std::isnan(g[i]);
    } else if (std::isinf(w[i])) {
      ok = g[i] == w[i];
    } else {
      ok = std::fabs(g[i] - w[i]) <= atol + rtol * std::fabs(w[i]);
    }
    if (!ok) {
      return ge::Internal("output ", index, " element ", i, ": got ", g[i], " want ", w[i]);
    }
  }
  return ge::OkStatus();
}

}  // namespace

ge::StatusOr<std::vector<OnnxCase>> LoadOnnxCases(const std::string& path) {
  std::ifstream in(path);
  if (!in) return ge::NotFound("cannot open ", path);
  std::vector<OnnxCase> cases;
  OnnxCase cur;
  bool open = false;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    const size_t sp = line.find(' ');
    const std::string key = line.substr(0, sp);
    const absl::string_view rest =
        sp == std::string::npos ? absl::string_view() : absl::string_view(line).substr(sp + 1);
    ge::Status st;
    if (key == "case") {
      cur = OnnxCase();
      cur.name = std::string(rest);
      open = true;
    } else if (!open) {
      st = ge::ParseFailed("'", key, "' outside a case");
    } else if (key == "op") {
      cur.op = std::string(rest);
    } else if (key == "attr") {
      auto a = ParseAttr(rest);
      if (a.ok()) cur.attrs.push_back(std::move(*a));
      st = a.status();
    } else if (key == "in" || key == "out") {
      auto t = ParseTensor(rest);
      if (t.ok()) (key == "in" ? cur.inputs : cur.outputs).push_back(std::move(*t));
      st = t.status();
    } else if (key == "end") {
      cases.push_back(std::move(cur));
      open = false;
    } else {
      st = ge::ParseFailed("unknown key '", key, "'");
    }
    if (!st.ok()) return ge::Annotate(st, path, ":", line_no, ": ");
  }
  if (open) return ge::ParseFailed(path, ": last case has no 'end'");
  return cases;
}

std::vector<OnnxCase> LoadOnnxCasesOrDie(const std::string& workspace_path) {
  std::string path = workspace_path;
  if (const char* srcdir = std::getenv("TEST_SRCDIR")) {
    path = absl::StrCat(srcdir, "/ge/", workspace_path);
  }
  auto cases = LoadOnnxCases(path);
  if (!cases.ok()) {
    std::fprintf(stderr, "LoadOnnxCasesOrDie: %s\n", std::string(cases.status().message()).c_str());
    std::abort();  // test-only: a missing data file is a broken build
  }
  return *std::move(cases);
}

ge::StatusOr<gert::HostTensor> MakeTensor(const OnnxTensor& t) {
  ASSIGN_OR_RETURN(gert::HostTensor h, gert::HostTensor::Create(t.dtype, t.shape));
  const size_t n = t.values.size();
  RETURN_IF_ERROR(DispatchType<kTgRealBool | kTgString>(
      t.dtype,
      [&](auto tag) -> ge::Status {
        using T = typename decltype(tag)::type;
        T* p = h.MutableData<T>();
        for (size_t i = 0; i < n; ++i) {
          const std::string& s = t.values[i];
          if constexpr (std::is_same_v<T, std::string>) {
            ASSIGN_OR_RETURN(p[i], HexDecode(s));
          } else if constexpr (kIsFloatLike<T>) {
            ASSIGN_OR_RETURN(double d, ParseDouble(s));
            p[i] = ConvertElement<T>(d);
          } else if constexpr (std::is_same_v<T, bool>) {
            p[i] = s != "0";
          } else if constexpr (std::is_signed_v<T>) {
            int64_t v;
            if (!absl::SimpleAtoi(s, &v)) return ge::ParseFailed("bad integer ", s);
            p[i] = static_cast<T>(v);
          } else {
            uint64_t v;
            if (!absl::SimpleAtoi(s, &v)) return ge::ParseFailed("bad integer ", s);
            p[i] = static_cast<T>(v);
          }
        }
        return ge::OkStatus();
      },
      "onnx case tensors"));
  return h;
}

ge::Status RunOnnxCase(const OnnxCase& c, const CompareOptions& opts) {
  ASSIGN_OR_RETURN(const ge::OpRegistrationData* reg, ge::OpRegistry::Instance().Get(c.op));
  CaseAttrs attrs;
  for (const auto& [name, value] : c.attrs) RETURN_IF_ERROR(attrs.SetAttr(name, value));

  // Inputs (values known, as at run time).
  std::vector<gert::HostTensor> in_tensors;
  in_tensors.reserve(c.inputs.size());
  std::vector<const gert::Tensor*> in_ptrs;
  for (const OnnxTensor& t : c.inputs) {
    if (t.absent) {
      in_tensors.emplace_back();
      in_ptrs.push_back(nullptr);
      continue;
    }
    ASSIGN_OR_RETURN(gert::HostTensor h, MakeTensor(t));
    in_tensors.push_back(std::move(h));
    in_ptrs.push_back(&in_tensors.back().tensor());
  }
  // IR instances: a dynamic input takes whatever the fixed ones leave.
  std::vector<gert::IrInstance> ir;
  {
    size_t fixed = 0;
    for (const auto& io : reg->inputs) fixed += io.kind == ge::IoKind::kDynamic ? 0 : 1;
    size_t next = 0;
    for (const auto& io : reg->inputs) {
      size_t count = 1;
      if (io.kind == ge::IoKind::kDynamic) {
        count = c.inputs.size() >= fixed ? c.inputs.size() - fixed : 0;
      } else if (next >= c.inputs.size()) {
        count = 0;
      }
      ir.push_back({next, count});
      next += count;
    }
  }

  // Verify, infer data type, infer shape.
  gert::InferShapeContextBuilder ib;
  ib.Node("onnx_case", c.op).Attrs(&attrs).IrInputs(ir);
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    if (c.inputs[i].absent) {
      ib.AbsentInput();
    } else {
      ib.Input(c.inputs[i].shape, c.inputs[i].dtype, in_ptrs[i]);
    }
  }
  ib.Outputs(c.outputs.size());
  gert::InferShapeContext* ictx = ib.Build();
  ge::OpInferOptions infer_options;
  infer_options.check_value_reads = true;  // undeclared value reads fail the case
  ge::InferStep step = ge::InferStep::kNone;
  if (ge::Status st = ge::RunOpInfer(*reg, *ictx, infer_options, &step); !st.ok()) {
    if (step == ge::InferStep::kNoInferShape) {
      return ge::Internal(c.op, " has no infer shape function");
    }
    return st;
  }
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    if (ib.OutputDataType(i) != c.outputs[i].dtype) {
      return ge::Internal("inferred output ", i, " dtype ", DataTypeName(ib.OutputDataType(i)),
                          " != expected ", DataTypeName(c.outputs[i].dtype));
    }
    if (ib.OutputShape(i) != c.outputs[i].shape) {
      return ge::Internal("inferred output ", i, " shape ", ib.OutputShape(i).ToString(),
                          " != expected ", c.outputs[i].shape.ToString());
    }
  }

  // Kernel: outputs prepared from the inferred shapes, as an executor does.
  const ge::OpKernelDef* k = reg->FindKernel(ge::kEngineHostCpu);
  if (k == nullptr || k->fn == nullptr) return ge::Internal(c.op, " has no host CPU kernel");
  std::vector<gert::HostTensor> out_tensors;
  std::vector<gert::Tensor> unknown_outs(c.outputs.size());
  std::vector<gert::Tensor*> out_ptrs;
  out_tensors.reserve(c.outputs.size());
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    const gert::Shape& s = ib.OutputShape(i);
    if (s.IsUnknownShape()) {
      unknown_outs[i] = gert::Tensor(s, ib.OutputDataType(i), nullptr, 0);
      out_tensors.emplace_back();
      out_ptrs.push_back(&unknown_outs[i]);
    } else {
      ASSIGN_OR_RETURN(gert::HostTensor h, gert::HostTensor::Create(ib.OutputDataType(i), s));
      out_tensors.push_back(std::move(h));
      out_ptrs.push_back(out_tensors.back().MutableTensor());
    }
  }
  HeapAllocator alloc;
  gert::KernelRunContextBuilder kb;
  kb.Node("onnx_case", c.op)
      .Attrs(&attrs)
      .Inputs(in_ptrs)
      .Outputs(out_ptrs)
      .IrInputs(ir)
      .Allocator(&alloc);
  RETURN_IF_ERROR(k->fn(*kb.Build()));
  for (size_t i = 0; i < c.outputs.size(); ++i) {
    ASSIGN_OR_RETURN(gert::HostTensor want, MakeTensor(c.outputs[i]));
    RETURN_IF_ERROR(CompareTensor(i, *out_ptrs[i], want, opts));
  }
  return ge::OkStatus();
}

}  // namespace testing
}  // namespace ops
