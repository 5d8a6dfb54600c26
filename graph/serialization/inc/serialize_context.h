// graph/serialization/inc/serialize_context.h
//
// SerializeContext / DeserializeContext: the state threaded through the
// proto-level serializers (ModelSerializeImp, GeTensorSerializeUtils and the
// AttrSerializer objects): the options and the current nesting depths, so
// that deeply nested attribute values (a graph in an attribute of a node of a
// graph in an attribute ...) fail with a Status instead of exhausting the
// stack.
//
// Contract
//   * Enter a nested attribute value with AttrDepthGuard and a nested graph
//     with GraphDepthGuard; the guard's status() is OutOfRange when the limit
//     is exceeded (the message names the limit), and the depth is restored
//     when the guard dies.
//   * Serialization enforces the DeserializeOptions defaults, so that what is
//     written can be read back.
//
// Example
//   AttrDepthGuard guard(ctx);
//   RETURN_IF_ERROR(guard.status());
#ifndef GRAPH_SERIALIZATION_INC_SERIALIZE_CONTEXT_H_
#define GRAPH_SERIALIZATION_INC_SERIALIZE_CONTEXT_H_

#include <cstdint>

#include "graph/serialization/inc/model_serialize.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

struct SerializeContext {
  SerializeOptions options;
  // Limits (the reader's defaults).
  DeserializeOptions limits;
  int32_t attr_depth = 0;
  int32_t graph_depth = 0;

  int32_t max_attr_nesting() const { return limits.max_attr_nesting; }
  int32_t max_graph_nesting() const { return limits.max_graph_nesting; }
};

struct DeserializeContext {
  DeserializeOptions options;
  int32_t attr_depth = 0;
  int32_t graph_depth = 0;

  int32_t max_attr_nesting() const { return options.max_attr_nesting; }
  int32_t max_graph_nesting() const { return options.max_graph_nesting; }
};

// Enters one level of attribute nesting for the guard's lifetime.
template <typename Context>
class AttrDepthGuard {
 public:
  explicit AttrDepthGuard(Context& ctx) : ctx_(ctx) { ++ctx_.attr_depth; }
  ~AttrDepthGuard() { --ctx_.attr_depth; }
  AttrDepthGuard(const AttrDepthGuard&) = delete;
  AttrDepthGuard& operator=(const AttrDepthGuard&) = delete;

  Status status() const {
    if (ctx_.attr_depth > ctx_.max_attr_nesting()) {
      return OutOfRange("attribute values are nested more than ", ctx_.max_attr_nesting(),
                        " levels deep");
    }
    return OkStatus();
  }

 private:
  Context& ctx_;
};

// Enters one level of graph nesting (a graph-valued attribute).
template <typename Context>
class GraphDepthGuard {
 public:
  explicit GraphDepthGuard(Context& ctx) : ctx_(ctx) { ++ctx_.graph_depth; }
  ~GraphDepthGuard() { --ctx_.graph_depth; }
  GraphDepthGuard(const GraphDepthGuard&) = delete;
  GraphDepthGuard& operator=(const GraphDepthGuard&) = delete;

  Status status() const {
    if (ctx_.graph_depth > ctx_.max_graph_nesting()) {
      return OutOfRange("graph-valued attributes are nested more than ", ctx_.max_graph_nesting(),
                        " levels deep (a graph holding itself?)");
    }
    return OkStatus();
  }

 private:
  Context& ctx_;
};

}  // namespace ge

#endif  // GRAPH_SERIALIZATION_INC_SERIALIZE_CONTEXT_H_
