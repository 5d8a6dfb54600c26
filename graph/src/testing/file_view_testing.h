// graph/src/testing/file_view_testing.h
//
// Test helpers for AlignedBuffer::FileView: views of bytes at an address that
// is not AlignedBuffer::kMinViewAlignment aligned, as the weights of a mapped
// ONNX file usually are. Tests use them to check that a reader takes the
// bytes in place (has_copy() stays false) or gets aligned data.
#ifndef GRAPH_SRC_TESTING_FILE_VIEW_TESTING_H_
#define GRAPH_SRC_TESTING_FILE_VIEW_TESTING_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/types/span.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"

namespace ge {
namespace testing {

// A FileView of a copy of `bytes` placed `skew` (1 to 15) bytes past a
// 16-byte boundary, claiming to mirror `extent`; the view owns the copy.
std::shared_ptr<AlignedBuffer> UnalignedFileView(absl::Span<const uint8_t> bytes, size_t skew = 1,
                                                 FileExtent extent = FileExtent{0, 1});

// Replaces the tensor attribute `attr` of `op` by the same tensor over an
// UnalignedFileView of its bytes; returns the view (null when `op` has no
// tensor attribute `attr`).
std::shared_ptr<AlignedBuffer> ViewTensorAttrAsUnalignedFile(OpDesc* op, const std::string& attr);

}  // namespace testing
}  // namespace ge

#endif  // GRAPH_SRC_TESTING_FILE_VIEW_TESTING_H_
