// build/model/build_test_util.cc
#include "build/model/build_test_util.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/op_desc.h"

namespace ge {
namespace buildtest {
namespace {

void Check(const Status& st, const std::string& what) {
  if (!st.ok()) {
    std::cerr << "build_test_util: " << what << ": " << st.ToString() << "\n";
    std::abort();  // test helper only: a broken fixture is a test bug
  }
}

}  // namespace

GraphMaker::GraphMaker(const std::string& name) : graph_(std::make_shared<ComputeGraph>(name)) {}

NodePtr GraphMaker::Add(const OpDescPtr& op, const std::vector<Src>& inputs) {
  StatusOr<NodePtr> node = graph_->AddNode(op);
  Check(node.status(), absl::StrCat("AddNode ", op->GetName()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].first == nullptr) continue;  // absent optional input
    OutDataAnchor* src = inputs[i].first->GetOutDataAnchorBarePtr(inputs[i].second);
    Check(src == nullptr ? NotFound("no output") : OkStatus(), "source anchor");
    Check((*node)->GetInDataAnchorBarePtr(static_cast<int32_t>(i))->LinkFrom(src), "link");
  }
  return *node;
}

NodePtr GraphMaker::Data(const std::string& name, int64_t index, const std::vector<int64_t>& dims,
                         DataType dt) {
  auto op = std::make_shared<OpDesc>(name, "Data");
  GeTensorDesc d(GeShape(dims), FORMAT_ND, dt);
  Check(op->AddInputDesc("x", d), "data input");
  Check(op->AddOutputDesc("y", d), "data output");
  Check(op->SetAttr("index", AttrValue::CreateFrom<int64_t>(index)), "index");
  NodePtr n = Add(op, {});
  Check(graph_->AddInputNode(n), "input node");
  return n;
}

NodePtr GraphMaker::ConstBytes(const std::string& name, const std::vector<int64_t>& dims,
                               DataType dt, const std::vector<uint8_t>& bytes) {
  auto op = std::make_shared<OpDesc>(name, "Const");
  GeTensorDesc d(GeShape(dims), FORMAT_ND, dt);
  Check(op->AddOutputDesc("y", d), "const output");
  Check(op->SetAttr("value", AttrValue::CreateFrom<GeTensor>(GeTensor(d, bytes))), "value");
  return Add(op, {});
}

NodePtr GraphMaker::ConstF32(const std::string& name, const std::vector<int64_t>& dims,
                             const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return ConstBytes(name, dims, DT_FLOAT, bytes);
}

NodePtr GraphMaker::Op(const std::string& name, const std::string& type,
                       const std::vector<Src>& inputs, const std::vector<GeTensorDesc>& outputs) {
  auto op = std::make_shared<OpDesc>(name, type);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].first == nullptr) {
      Check(op->AddOptionalInputDesc(absl::StrCat("x", i), GeTensorDesc()), "optional input");
      continue;
    }
    Check(op->AddInputDesc(absl::StrCat("x", i), inputs[i].first->GetOpDesc()->GetOutputDesc(
                                                     static_cast<uint32_t>(inputs[i].second))),
          "input");
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    Check(op->AddOutputDesc(absl::StrCat("y", k), outputs[k]), "output");
  }
  return Add(op, inputs);
}

NodePtr GraphMaker::Unary(const std::string& name, const std::string& type, const NodePtr& x) {
  return Op(name, type, {{x, 0}}, {x->GetOpDesc()->GetOutputDesc(0)});
}

NodePtr GraphMaker::Binary(const std::string& name, const std::string& type, const NodePtr& a,
                           const NodePtr& b) {
  return Op(name, type, {{a, 0}, {b, 0}}, {a->GetOpDesc()->GetOutputDesc(0)});
}

NodePtr GraphMaker::NetOutput(const std::vector<Src>& inputs, const std::string& name) {
  return Op(name, "NetOutput", inputs, {});
}

ComputeGraphPtr MakeAddReluChain(size_t num_nodes, const std::vector<int64_t>& dims,
                                 bool shared_const) {
  GraphMaker g("chain");
  int64_t elems = 1;
  for (int64_t d : dims) elems *= d;
  NodePtr x = g.Data("x", 0, dims);
  NodePtr shared;
  if (shared_const) shared = g.ConstF32("c", dims, std::vector<float>(elems, 0.5f));
  size_t count = 2;
  for (size_t i = 0; count + 3 <= num_nodes; ++i) {
    NodePtr c = shared;
    if (!shared_const) {
      std::vector<float> v(elems, static_cast<float>(i));
      c = g.ConstF32(absl::StrCat("c", i), dims, v);
      ++count;
    }
    x = g.Binary(absl::StrCat("add", i), "Add", x, c);
    x = g.Unary(absl::StrCat("relu", i), "Relu", x);
    count += 2;
  }
  g.NetOutput({{x, 0}});
  return g.graph();
}

ComputeGraphPtr MakeLadder(size_t num_ops) {
  GraphMaker g("ladder");
  const std::vector<int64_t> dims = {1, 16};
  NodePtr a = g.Data("a", 0, dims);
  NodePtr b = g.Data("b", 1, dims);
  NodePtr t;
  NodePtr c;
  size_t muls = 0;
  for (size_t i = 0; i < num_ops; ++i) {
    const size_t step = i % 6;
    const std::string name = absl::StrCat("v", i);
    if (step == 0 || step == 3) {
      t = step == 0 ? g.Binary(name, "Add", a, b) : g.Binary(name, "Add", b, a);
    } else if (step == 1 || step == 4) {
      if (muls % 4 == 0) {
        c = g.ConstF32(absl::StrCat("c", muls / 4), dims,
                       std::vector<float>(16, 0.5f + 1e-4f * static_cast<float>(muls / 4)));
      }
      t = g.Binary(name, "Mul", t, c);
      ++muls;
    } else {
      t = g.Unary(name, "Relu", t);
      (step == 2 ? a : b) = t;
    }
  }
  g.NetOutput({{t == nullptr ? a : t, 0}});
  return g.graph();
}

}  // namespace buildtest
}  // namespace ge
