// graph/inc/graph/graph_fwd.h
//
// Forward declarations of the AscendIR graph objects and the GE-style pointer
// aliases (NodePtr, OpDescPtr, ComputeGraphPtr, ...). Include this instead of
// the full headers when only the names are needed.
//
// Ownership (see compute_graph.h for the full contract):
//   * ComputeGraph owns its nodes (an intrusive NodeList) and, for the root
//     graph, every subgraph (std::vector<ComputeGraphPtr>).
//   * Node owns its OpDesc (shared) and its anchors (allocated together with
//     the node); anchors hold raw pointers to their peers, and a node unlinks
//     every anchor when it is destroyed, so a live anchor never points to a
//     dead one.
//   * An AnchorPtr is an aliasing shared_ptr that keeps the owning Node alive.
//
// Example
//   #include "graph/inc/graph/graph_fwd.h"
//   void Visit(const ge::NodePtr& node);
#ifndef GRAPH_INC_GRAPH_GRAPH_FWD_H_
#define GRAPH_INC_GRAPH_GRAPH_FWD_H_

#include <memory>

namespace ge {

class Anchor;
class DataAnchor;
class ControlAnchor;
class InDataAnchor;
class OutDataAnchor;
class InControlAnchor;
class OutControlAnchor;
class Node;
class OpDesc;
class ComputeGraph;
class GeShape;
class GeTensorDesc;
class GeTensor;
class AttrValue;
class NamedAttrs;
class AttrHolder;

using AnchorPtr = std::shared_ptr<Anchor>;
using ConstAnchorPtr = std::shared_ptr<const Anchor>;
using InDataAnchorPtr = std::shared_ptr<InDataAnchor>;
using OutDataAnchorPtr = std::shared_ptr<OutDataAnchor>;
using InControlAnchorPtr = std::shared_ptr<InControlAnchor>;
using OutControlAnchorPtr = std::shared_ptr<OutControlAnchor>;

using NodePtr = std::shared_ptr<Node>;
using ConstNodePtr = std::shared_ptr<const Node>;
using NodeWeakPtr = std::weak_ptr<Node>;

using OpDescPtr = std::shared_ptr<OpDesc>;
using ConstOpDescPtr = std::shared_ptr<const OpDesc>;

using ComputeGraphPtr = std::shared_ptr<ComputeGraph>;
using ConstComputeGraphPtr = std::shared_ptr<const ComputeGraph>;
using ComputeGraphWeakPtr = std::weak_ptr<ComputeGraph>;

using GeTensorDescPtr = std::shared_ptr<GeTensorDesc>;
using ConstGeTensorDescPtr = std::shared_ptr<const GeTensorDesc>;
using GeTensorPtr = std::shared_ptr<GeTensor>;
using ConstGeTensorPtr = std::shared_ptr<const GeTensor>;

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_GRAPH_FWD_H_
