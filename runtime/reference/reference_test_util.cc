// runtime/reference/reference_test_util.cc
#include "runtime/reference/reference_test_util.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "graph/inc/graph/utils/node_utils.h"
#include "metadef/register/inc/register/op_registry.h"

namespace ge {
namespace reftest {

void CheckOk(const Status& status, const std::string& what) {
  if (status.ok()) return;
  std::fprintf(stderr, "reftest: %s failed: %s\n", what.c_str(),
               std::string(status.message()).c_str());
  std::abort();
}

namespace {

template <typename T>
T Must(StatusOr<T> v, const std::string& what) {
  CheckOk(v.status(), what);
  return std::move(v).value();
}

gert::Shape ShapeOf(std::initializer_list<int64_t> dims) {
  return Must(gert::Shape::FromDims(std::vector<int64_t>(dims)), "shape");
}

}  // namespace

TestGraph::TestGraph(const std::string& name) : graph_(std::make_shared<ComputeGraph>(name)) {}

TestGraph::TestGraph(const std::string& name, const NodePtr& parent_node, uint32_t slot)
    : graph_(std::make_shared<ComputeGraph>(name)) {
  CheckOk(NodeUtils::SetSubgraph(*parent_node, slot, graph_), "SetSubgraph " + name);
}

NodePtr TestGraph::Add(const OpDescPtr& op) {
  return Must(graph_->AddNode(op), "AddNode " + op->GetName());
}

void TestGraph::Link(const Out& src, const NodePtr& dst, int32_t in) {
  if (src.node == nullptr) return;
  OutDataAnchorPtr out = src.node->GetOutDataAnchor(src.index);
  InDataAnchorPtr to = dst->GetInDataAnchor(in);
  if (out == nullptr || to == nullptr) {
    CheckOk(ParamInvalid("no anchor ", src.node->GetName(), ":", src.index, " -> ", dst->GetName(),
                         ":", in),
            "Link");
  }
  CheckOk(out->LinkTo(to), "Link to " + dst->GetName());
}

void TestGraph::Control(const NodePtr& src, const NodePtr& dst) {
  CheckOk(src->GetOutControlAnchor()->LinkTo(dst->GetInControlAnchor()), "Control");
}

NodePtr TestGraph::Data(const std::string& name, int64_t index, int64_t parent_index) {
  auto op = std::make_shared<OpDesc>(name, DATA);
  CheckOk(op->AddInputDesc("x", GeTensorDesc()), "Data input");
  CheckOk(op->AddOutputDesc("y", GeTensorDesc()), "Data output");
  if (index >= 0) {
    CheckOk(op->SetAttr("index", AttrValue::CreateFrom<int64_t>(index)), "Data index");
  }
  if (parent_index >= 0) {
    CheckOk(op->SetAttr(ATTR_NAME_PARENT_NODE_INDEX, AttrValue::CreateFrom<int64_t>(parent_index)),
            "Data parent index");
  }
  return Add(op);
}

NodePtr TestGraph::TypedData(const std::string& name, int64_t index,
                             const std::vector<int64_t>& dims, DataType dt) {
  NodePtr d = Data(name, index);
  const GeTensorDesc desc(GeShape(dims), FORMAT_ND, dt);
  CheckOk(d->GetOpDescBarePtr()->UpdateInputDesc(0, desc), "Data input desc");
  CheckOk(d->GetOpDescBarePtr()->UpdateOutputDesc(0, desc), "Data output desc");
  return d;
}

NodePtr TestGraph::Const(const std::string& name, const gert::HostTensor& value) {
  return ConstTensor(name, ToGeTensor(value));
}

NodePtr TestGraph::ConstTensor(const std::string& name, const GeTensor& t) {
  auto op = std::make_shared<OpDesc>(name, CONSTANT);
  CheckOk(op->AddOutputDesc("y", t.GetTensorDesc()), "Const output");
  CheckOk(op->SetAttr(ATTR_NAME_WEIGHTS, AttrValue::CreateFrom<GeTensor>(t)), "Const value");
  return Add(op);
}

NodePtr TestGraph::Op(const std::string& name, const std::string& type,
                      const std::vector<Out>& inputs, const Attrs& attrs,
                      const std::map<std::string, uint32_t>& dynamic_counts) {
  OpDescPtr op =
      Must(OperatorFactory::CreateOpDesc(name, type, dynamic_counts), "CreateOpDesc " + type);
  for (const auto& [attr, value] : attrs) CheckOk(op->SetAttr(attr, value), "SetAttr " + attr);
  if (inputs.size() > op->GetAllInputsSize()) {
    CheckOk(
        ParamInvalid(name, " has ", op->GetAllInputsSize(), " inputs, ", inputs.size(), " given"),
        "Op");
  }
  NodePtr node = Add(op);
  for (size_t i = 0; i < inputs.size(); ++i) Link(inputs[i], node, static_cast<int32_t>(i));
  return node;
}

NodePtr TestGraph::RawOp(const std::string& name, const std::string& type,
                         const std::vector<Out>& inputs, int n_in, int n_out) {
  auto op = std::make_shared<OpDesc>(name, type);
  for (int i = 0; i < n_in; ++i) CheckOk(op->AddInputDesc(GeTensorDesc()), "RawOp input");
  for (int i = 0; i < n_out; ++i) CheckOk(op->AddOutputDesc(GeTensorDesc()), "RawOp output");
  NodePtr node = Add(op);
  for (size_t i = 0; i < inputs.size(); ++i) Link(inputs[i], node, static_cast<int32_t>(i));
  return node;
}

NodePtr TestGraph::NetOutput(const std::vector<Out>& outputs, const std::string& name) {
  return RawOp(name, NETOUTPUT, outputs, static_cast<int>(outputs.size()), 0);
}

gert::HostTensor F32(std::initializer_list<int64_t> shape, std::vector<float> values) {
  gert::HostTensor t = Must(gert::HostTensor::Create(DT_FLOAT, ShapeOf(shape)), "F32");
  if (static_cast<int64_t>(values.size()) != t.GetShape().GetShapeSize()) {
    CheckOk(ParamInvalid("F32: ", values.size(), " values for ", t.GetShape().ToString()), "F32");
  }
  if (!values.empty()) std::memcpy(t.MutableData<float>(), values.data(), values.size() * 4);
  return t;
}

gert::HostTensor I64(std::initializer_list<int64_t> shape, std::vector<int64_t> values) {
  gert::HostTensor t = Must(gert::HostTensor::Create(DT_INT64, ShapeOf(shape)), "I64");
  if (static_cast<int64_t>(values.size()) != t.GetShape().GetShapeSize()) {
    CheckOk(ParamInvalid("I64: ", values.size(), " values for ", t.GetShape().ToString()), "I64");
  }
  if (!values.empty()) std::memcpy(t.MutableData<int64_t>(), values.data(), values.size() * 8);
  return t;
}

gert::HostTensor Bool(std::initializer_list<int64_t> shape, std::vector<bool> values) {
  gert::HostTensor t = Must(gert::HostTensor::Create(DT_BOOL, ShapeOf(shape)), "Bool");
  if (static_cast<int64_t>(values.size()) != t.GetShape().GetShapeSize()) {
    CheckOk(ParamInvalid("Bool: ", values.size(), " values for ", t.GetShape().ToString()), "Bool");
  }
  for (size_t i = 0; i < values.size(); ++i) t.MutableData<bool>()[i] = values[i];
  return t;
}

gert::HostTensor F32Fill(std::initializer_list<int64_t> shape, float value) {
  gert::HostTensor t = Must(gert::HostTensor::Create(DT_FLOAT, ShapeOf(shape)), "F32Fill");
  for (int64_t i = 0; i < t.GetShape().GetShapeSize(); ++i) t.MutableData<float>()[i] = value;
  return t;
}

std::vector<float> ToF32(const gert::Tensor& t) {
  if (t.GetDataType() != DT_FLOAT || t.GetShapeSize() < 0) return {};
  const float* p = t.GetData<float>();
  return std::vector<float>(p, p + t.GetShapeSize());
}

std::vector<int64_t> ToI64(const gert::Tensor& t) {
  if (t.GetDataType() != DT_INT64 || t.GetShapeSize() < 0) return {};
  const int64_t* p = t.GetData<int64_t>();
  return std::vector<int64_t>(p, p + t.GetShapeSize());
}

std::vector<int64_t> Dims(const gert::HostTensor& t) { return t.GetShape().ToVector(); }

std::vector<uint8_t> EncodeGeStrings(const std::vector<std::string>& strings) {
  const size_t n = strings.size();
  size_t pos = n * 2 * sizeof(int64_t);
  size_t total = pos;
  for (const std::string& s : strings) total += s.size() + 1;
  std::vector<uint8_t> out(total, 0);
  for (size_t i = 0; i < n; ++i) {
    const int64_t head[2] = {static_cast<int64_t>(pos), static_cast<int64_t>(strings[i].size())};
    std::memcpy(out.data() + i * sizeof(head), head, sizeof(head));
    if (!strings[i].empty()) std::memcpy(out.data() + pos, strings[i].data(), strings[i].size());
    pos += strings[i].size() + 1;
  }
  return out;
}

GeTensor ToGeTensor(const gert::HostTensor& t) {
  GeTensorDesc desc(GeShape(t.GetShape().ToVector()), FORMAT_ND, t.GetDataType());
  if (t.GetDataType() == DT_STRING) {
    const std::string* p = t.GetData<std::string>();
    const std::vector<std::string> strings(p, p + t.tensor().GetShapeSize());
    const std::vector<uint8_t> bytes = EncodeGeStrings(strings);
    return GeTensor(desc, bytes.data(), bytes.size());
  }
  return GeTensor(desc, static_cast<const uint8_t*>(t.tensor().GetAddr()), t.tensor().GetSize());
}

}  // namespace reftest
}  // namespace ge
