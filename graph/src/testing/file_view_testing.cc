// graph/src/testing/file_view_testing.cc
#include "graph/src/testing/file_view_testing.h"

#include <algorithm>
#include <vector>

#include "graph/inc/graph/attr_value.h"

namespace ge {
namespace testing {

std::shared_ptr<AlignedBuffer> UnalignedFileView(absl::Span<const uint8_t> bytes, size_t skew,
                                                 FileExtent extent) {
  auto storage = std::make_shared<std::vector<uint8_t>>(bytes.size() + 32);
  const uintptr_t base = reinterpret_cast<uintptr_t>(storage->data());
  uint8_t* at = storage->data() + (16 - base % 16) % 16 + skew % 16;
  std::copy(bytes.begin(), bytes.end(), at);
  return AlignedBuffer::FileView(at, bytes.size(), std::move(storage), extent);
}

std::shared_ptr<AlignedBuffer> ViewTensorAttrAsUnalignedFile(OpDesc* op, const std::string& attr) {
  const AttrValue* value = op == nullptr ? nullptr : op->GetAttr(attr);
  const GeTensor* tensor = value == nullptr ? nullptr : value->Get<GeTensor>();
  if (tensor == nullptr) return nullptr;
  GeTensor copy = *tensor;
  std::shared_ptr<AlignedBuffer> view = UnalignedFileView(copy.GetBytes());
  copy.SetData(view);
  if (!op->SetAttr(attr, AttrValue::CreateFrom<GeTensor>(std::move(copy))).ok()) return nullptr;
  return view;
}

}  // namespace testing
}  // namespace ge
