#include "compiler/passes/const_value_util.h"

#include <memory>
#include <utility>

#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"

namespace ge {

bool IsConstNode(const Node& node) {
  // An ONNX "Constant" node holding value_float / value_ints / ... (not yet
  // converted to a tensor) is not a constant here.
  return (node.GetType() == CONSTANT || node.GetType() == CONSTANTOP) &&
         node.GetOpDescBarePtr()->GetAttr(ATTR_NAME_WEIGHTS) != nullptr;
}

StatusOr<gert::HostTensor> GetConstNodeValue(const Node& node) {
  if (!IsConstNode(node)) return NotFound("node ", node.GetName(), " is not a Const");
  const AttrValue* attr = node.GetOpDescBarePtr()->GetAttr(ATTR_NAME_WEIGHTS);
  if (attr == nullptr) {
    return NotFound("Const node ", node.GetName(), " has no '", ATTR_NAME_WEIGHTS, "' attribute");
  }
  const GeTensor* value = attr->Get<GeTensor>();
  if (value == nullptr) {
    return TypeMismatch("Const node ", node.GetName(), ": attribute '", ATTR_NAME_WEIGHTS,
                        "' is not a tensor");
  }
  const GeTensorDesc& desc = value->GetTensorDesc();
  StatusOr<gert::Shape> shape = gert::Shape::FromDims(desc.GetShape().GetDimsSpan());
  if (!shape.ok()) return Annotate(shape.status(), "Const node ", node.GetName(), ": ");
  if (shape->IsUnknownShape()) {
    return GraphInvalid("Const node ", node.GetName(), " has unknown value shape ",
                        desc.GetShape().ToString());
  }
  absl::Span<const uint8_t> data = value->GetData();
  StatusOr<gert::HostTensor> t =
      gert::HostTensor::CreateFrom(desc.GetDataType(), *shape, data.data(), data.size());
  if (!t.ok()) return Annotate(t.status(), "Const node ", node.GetName(), ": ");
  return t;
}

namespace {

// The node feeding input `in_index` of `node`.
StatusOr<const Node*> InputProducer(const Node& node, int32_t in_index) {
  InDataAnchor* in = node.GetInDataAnchorBarePtr(in_index);
  if (in == nullptr) return NotFound("node ", node.GetName(), " has no input ", in_index);
  OutDataAnchor* peer = in->GetPeerOutAnchorPtr();
  if (peer == nullptr) {
    return NotFound("input ", in_index, " of node ", node.GetName(), " is not connected");
  }
  return peer->GetOwnerNodeBarePtr();
}

}  // namespace

StatusOr<gert::HostTensor> GetConstInputValue(const Node& node, int32_t in_index) {
  ASSIGN_OR_RETURN(const Node* producer, InputProducer(node, in_index));
  return GetConstNodeValue(*producer);
}

namespace {

StatusOr<gert::Tensor> ConstInputView(const Node& node, int32_t in_index, bool allow_pending) {
  ASSIGN_OR_RETURN(const Node* producer_ptr, InputProducer(node, in_index));
  const Node& producer = *producer_ptr;
  if (!IsConstNode(producer)) return NotFound("node ", producer.GetName(), " is not a Const");
  const GeTensor* value = producer.GetOpDescBarePtr()->GetAttr(ATTR_NAME_WEIGHTS)->Get<GeTensor>();
  if (value == nullptr) {
    return TypeMismatch("Const node ", producer.GetName(), ": attribute '", ATTR_NAME_WEIGHTS,
                        "' is not a tensor");
  }
  const GeTensorDesc& desc = value->GetTensorDesc();
  const DataType dtype = desc.GetDataType();
  if (dtype == DT_STRING || dtype == DT_VARIANT) {
    return NotSupported("Const node ", producer.GetName(), ": a ", static_cast<int32_t>(dtype),
                        " value has no raw-byte view");
  }
  StatusOr<gert::Shape> shape = gert::Shape::FromDims(desc.GetShape().GetDimsSpan());
  if (!shape.ok()) return Annotate(shape.status(), "Const node ", producer.GetName(), ": ");
  if (shape->IsUnknownShape()) {
    return GraphInvalid("Const node ", producer.GetName(), " has unknown value shape ",
                        desc.GetShape().ToString());
  }
  StatusOr<size_t> bytes = gert::HostStorageBytes(dtype, shape->GetShapeSize());
  if (!bytes.ok()) return Annotate(bytes.status(), "Const node ", producer.GetName(), ": ");
  const bool pending =
      allow_pending && value->GetBuffer() != nullptr && !value->GetBuffer()->data_in_place();
  absl::Span<const uint8_t> data = pending ? value->GetBytes() : value->GetData();
  if (data.size() != *bytes || (data.empty() ? false : data.data() == nullptr)) {
    return ParamInvalid("Const node ", producer.GetName(), ": value of shape ",
                        desc.GetShape().ToString(), " needs ", *bytes, " bytes, holds ",
                        data.size());
  }
  // Readers take it as const gert::Tensor*: the bytes are never written.
  return gert::Tensor(*shape, dtype, pending ? nullptr : const_cast<uint8_t*>(data.data()),
                      data.size());
}

}  // namespace

StatusOr<gert::Tensor> GetConstInputView(const Node& node, int32_t in_index) {
  return ConstInputView(node, in_index, /*allow_pending=*/false);
}

StatusOr<gert::Tensor> GetConstInputViewOrPending(const Node& node, int32_t in_index) {
  return ConstInputView(node, in_index, /*allow_pending=*/true);
}

GeTensor HostTensorToGeTensor(const gert::HostTensor& t) {
  GeTensorDesc desc(GeShape(t.GetShape().ToVector()), FORMAT_ND, t.GetDataType());
  return GeTensor(desc, static_cast<const uint8_t*>(t.tensor().GetAddr()), t.tensor().GetSize());
}

StatusOr<OpDescPtr> MakeConstOpDesc(const std::string& name, const gert::HostTensor& value) {
  auto op = std::make_shared<OpDesc>(name, CONSTANT);
  GeTensor t = HostTensorToGeTensor(value);
  RETURN_IF_ERROR(op->AddOutputDesc("y", t.GetTensorDesc()));
  RETURN_IF_ERROR(op->SetAttr(ATTR_NAME_WEIGHTS, AttrValue::CreateFrom<GeTensor>(t)));
  return op;
}

}  // namespace ge
