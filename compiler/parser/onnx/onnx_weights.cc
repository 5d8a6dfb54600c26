// compiler/parser/onnx/onnx_weights.cc
#include "compiler/parser/onnx/onnx_weights.h"

#include <cstdint>
#include <cstring>
#include <utility>

#include "compiler/parser/onnx/onnx_tensor.h"
#include "metadef/inc/base/wire_format.h"

// After the ONNX headers (onnx_tensor.h): <sys/mman.h> defines MAP_TYPE, an
// enumerator name in onnx/defs/parser.h.
#include <sys/mman.h>

namespace ge {
namespace onnx_parser {

namespace {

// A TensorProto without its raw_data when that is large and the tensor is a
// plain numeric one; false (keep it as is) otherwise.
bool StripTensor(absl::string_view bytes, std::string* out, std::string* name,
                 absl::string_view* raw) {
  wire::WireReader r(bytes);
  int raw_count = 0;
  uint64_t data_type = 0;
  bool external = false;
  absl::string_view raw_field;
  const char* raw_begin = nullptr;
  const char* raw_end = nullptr;
  while (!r.AtEnd()) {
    const char* field_begin = r.pos();
    uint32_t number;
    wire::WireType type;
    absl::string_view payload;
    if (!r.Field(&number, &type, &payload)) return false;
    if (number == 9 && type == wire::kLen) {
      ++raw_count;
      raw_field = payload;
      raw_begin = field_begin;
      raw_end = r.pos();
    } else if (number == 8 && type == wire::kLen) {
      name->assign(payload.data(), payload.size());
    } else if (number == 2 && type == wire::kVarint) {
      wire::WireReader v(payload);
      if (!v.ReadVarint(&data_type)) return false;
    } else if (number == 14 || number == 13 || number == 3) {
      external = true;  // data_location / external_data / segment: keep as is
    }
  }
  // STRING (8) and BOOL (9) tensors and unknown types stay in the message.
  if (raw_count != 1 || external || raw_field.size() < kHoldOutMinBytes || name->empty() ||
      data_type == 0 || data_type == 8 || data_type == 9 || data_type > 16) {
    return false;
  }
  out->assign(bytes.data(), static_cast<size_t>(raw_begin - bytes.data()));
  out->append(raw_end, static_cast<size_t>(bytes.data() + bytes.size() - raw_end));
  *raw = raw_field;
  return true;
}

// The GraphProto with its big initializers' raw_data held out; false when
// nothing was held out or the bytes are malformed.
bool StripGraph(absl::string_view bytes, std::string* out, HeldWeights* held) {
  wire::WireReader r(bytes);
  bool any = false;
  std::string tensor;
  std::string name;
  const char* copied = bytes.data();  // bytes before this are in *out
  out->reserve(bytes.size() / 8);
  while (!r.AtEnd()) {
    const char* field_begin = r.pos();
    uint32_t number;
    wire::WireType type;
    absl::string_view payload;
    if (!r.Field(&number, &type, &payload)) return false;
    if (number != 5 || type != wire::kLen) continue;
    absl::string_view raw;
    name.clear();
    if (!StripTensor(payload, &tensor, &name, &raw)) continue;
    if (!held->raw.emplace(name, raw).second) return false;  // duplicate names: keep all
    out->append(copied, static_cast<size_t>(field_begin - copied));
    wire::AppendLenField(5, tensor, out);
    copied = r.pos();
    any = true;
  }
  if (!any) return false;
  out->append(copied, static_cast<size_t>(bytes.data() + bytes.size() - copied));
  return true;
}

}  // namespace

bool HoldOutWeights(absl::string_view bytes, std::string* out, HeldWeights* held) {
  if (bytes.size() < kHoldOutMinBytes) return false;
  wire::WireReader r(bytes);
  const char* graph_begin = nullptr;
  const char* graph_end = nullptr;
  absl::string_view graph;
  int graphs = 0;
  while (!r.AtEnd()) {
    const char* field_begin = r.pos();
    uint32_t number;
    wire::WireType type;
    absl::string_view payload;
    if (!r.Field(&number, &type, &payload)) return false;
    if (number == 7 && type == wire::kLen) {
      ++graphs;
      graph = payload;
      graph_begin = field_begin;
      graph_end = r.pos();
    }
  }
  if (graphs != 1) return false;  // repeated graph fields merge: leave to protobuf
  std::string stripped;
  if (!StripGraph(graph, &stripped, held)) {
    held->raw.clear();
    return false;
  }
  out->reserve(bytes.size() - graph.size() + stripped.size() + 16);
  out->assign(bytes.data(), static_cast<size_t>(graph_begin - bytes.data()));
  wire::AppendLenField(7, stripped, out);
  out->append(graph_end, static_cast<size_t>(bytes.data() + bytes.size() - graph_end));
  return true;
}

Status MaterializeHeldWeights(const std::string& source, HeldWeights* held) {
  constexpr size_t kSlot = AlignedBuffer::kAlignment;
  size_t total = 0;
  for (const auto& [name, raw] : held->raw) total += (raw.size() + kSlot - 1) / kSlot * kSlot;
  if (total == 0) return OkStatus();
  void* addr = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (addr == MAP_FAILED) {
    return Internal("ONNX model '", source, "': cannot allocate ", total, " bytes for weights");
  }
  ::madvise(addr, total, MADV_HUGEPAGE);  // best effort
  std::shared_ptr<const void> arena(
      addr, [total](const void* p) { ::munmap(const_cast<void*>(p), total); });
  char* base = static_cast<char*>(addr);
  size_t offset = 0;
  for (auto& [name, raw] : held->raw) {
    char* dst = base + offset;
    std::memcpy(dst, raw.data(), raw.size());
    raw = absl::string_view(dst, raw.size());
    offset += (raw.size() + kSlot - 1) / kSlot * kSlot;
  }
  held->owner = std::move(arena);
  return OkStatus();
}
}  // namespace onnx_parser
}  // namespace ge
