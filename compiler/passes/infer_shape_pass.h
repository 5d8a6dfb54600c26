// InferShapePass (seed 002 sections 2.2 and 8): shape and data type inference
// over a whole graph.
//
// Contract: nodes are visited in stable topological order. Each node's input
// descs are refreshed from its producers' output descs; Const nodes take
// their output desc from their "value"; registered ops run
// ge::InferShapeAndTypeForOpDesc with the values of Const producers passed
// as const inputs (so Reshape with a Const shape infers statically). Nodes
// of unregistered types keep their output descs. If nodes recurse: each
// branch's Data nodes (ATTR_NAME_PARENT_NODE_INDEX = the If's input index, cond = 0)
// get the parent's input desc, the branches are inferred, and output k of
// the If is the branches' NetOutput input k when both agree, else the same
// rank with -1 in the differing dims (unknown rank when ranks differ).
// Loop nodes (ONNX: inputs [M, cond, v...], body inputs [iter, cond, v...]
// by parent index, body outputs [cond, v..., scans...]) iterate: the body is
// inferred with the carried descs, each carried desc is merged with the
// body's output (dims that change become -1), until stable (cap
// kMaxLoopIterations); Loop outputs are the carried descs and [-1] + the
// scan element shapes.
// Other subgraph owners (While / Case ...) get their subgraphs'
// Data descs refreshed and inferred the same way, outputs via their own
// infer function. Run() returns true when any desc changed.
// Shape ranges travel with the shapes: producer output -> consumer input,
// parent input -> subgraph Data, If branches -> If outputs (MergeDescs:
// union per dim), Loop carried values (WidenDescs: a moving bound becomes
// unbounded so the fixed point ends); a range is part of "changed".
// Cost: input descs are compared in place and only written (pinned) when
// they differ; a registered op is inferred through a context wired to
// per-run scratch storage (registry entry per interned type, IR input
// mapping per type and port names, no per-node strings or vectors; output
// descs written only where they change), with the same checks, functions
// and results as InferShapeAndTypeForOpDesc, which still runs (for its
// messages) when a strict run's node fails; a lenient run skips such a node
// without building the message. An InferShapeMemo (if a scope is open)
// skips unchanged nodes; in a TopoOrderCache scope a graph unedited since a
// complete run is skipped (a run that changed a desc advances the graph
// edit epoch), and a complete walk records the graph's Const nodes, the
// nodes fed only by them (TopoOrderCache::ConstUses) and, for a graph
// without subgraphs, its op types, for the passes after it.
//
// Example:
//   InferShapePass pass;
//   ASSIGN_OR_RETURN(bool changed, pass.Run(graph));
#ifndef COMPILER_PASSES_INFER_SHAPE_PASS_H_
#define COMPILER_PASSES_INFER_SHAPE_PASS_H_

#include <cstdint>
#include <functional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// What the last inference of each node saw, so that a later InferShapePass
// over an unchanged node skips its op's infer function (the compile runs
// inference in prepare and again in every ShapeOptimization round; most
// nodes do not change in between).
//
// A node's signature hashes its type, each input's producer (node and
// output index) and input desc (shape, data type, range), and its output
// descs as the inference left them. A run whose signature matches the memo
// keeps the node's outputs as they are. Not covered: an attribute or Const
// value edited in place between runs; whoever does that (custom passes)
// must Clear() the memo. Nodes with subgraphs are never memoised.
//
// Use: an InferShapeMemo::Scope makes a memo current for this thread; every
// InferShapePass run inside the scope uses it (CompilerStages::Compile
// opens one per compile).
//   InferShapeMemo memo;
//   InferShapeMemo::Scope scope(&memo);
//   ... passes ...
class InferShapeMemo {
 public:
  class Scope {
   public:
    explicit Scope(InferShapeMemo* memo);
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope();

   private:
    InferShapeMemo* saved_;
  };

  // The memo of the innermost open Scope on this thread, or null.
  static InferShapeMemo* Current();

  void Clear() { entries_.clear(); }
  // While off, runs read the memo but record nothing (CompilerStages turns
  // it on after prepare: the first inference of a graph is rarely repeated
  // unchanged, and the whole-graph skip covers that case).
  void set_recording(bool on) { recording_ = on; }
  bool recording() const { return recording_; }
  void Reserve(size_t n) { entries_.reserve(n); }
  // Whether `op` has a record at all.
  bool Has(const OpDesc* op) const { return entries_.contains(op); }
  size_t size() const { return entries_.size(); }
  // Inference runs the memo saved (tests, statistics).
  int64_t hits() const { return hits_; }

  // Whether `op` was inferred with signature `sig` (counts a hit).
  bool Matches(const OpDesc* op, uint64_t sig);
  // Records `sig` for `op` (keeps `op` alive so its address is not reused).
  void Record(const OpDescPtr& op, uint64_t sig);

 private:
  struct Entry {
    OpDescPtr op;
    uint64_t sig = 0;
  };
  absl::flat_hash_map<const OpDesc*, Entry> entries_;
  int64_t hits_ = 0;
  bool recording_ = true;
};

class InferShapePass : public GraphPass {
 public:
  // Cap of the Loop body shape fixed point (merging only widens shapes, so
  // rank + 2 rounds always suffice).
  static constexpr int32_t kMaxLoopIterations = 32;

  absl::string_view name() const override { return "InferShapePass"; }
  // Reads settings.lenient_infer.
  void Configure(const PassSettings& settings) override { lenient_ = settings.lenient_infer; }

  // Lenient: a node whose inference fails (unsupported input type, an input
  // desc without a data type, ...) keeps its output descs instead of failing
  // the pass (the compile pipeline uses this: the executors infer at run
  // time). Subgraph structure errors still fail. Default: strict.
  void set_lenient(bool lenient) { lenient_ = lenient; }
  bool lenient() const { return lenient_; }

  // Called for every direct node of the graph Run() is given, right after
  // the node was inferred (or kept), in topological order: a caller's
  // per-node work over the output descs while they are in cache (prepare
  // marks dynamic shapes so, instead of another walk over the graph). An
  // error stops the run and is its error. Not called for subgraph nodes, nor
  // when the run is skipped (see walked()).
  using NodeHook = std::function<Status(Node&)>;
  void set_node_hook(NodeHook hook) { node_hook_ = std::move(hook); }
  // Whether the last Run() visited every direct node of the graph (it did
  // not skip an unedited graph and did not fail).
  bool walked() const { return walked_; }

  // Infers one graph (and, recursively, its nodes' subgraphs); true when a
  // desc changed. Used by the Loop body fixed point too.
  static StatusOr<bool> InferGraph(ComputeGraph& graph, int32_t depth = 0);

  // Merges two descs of the same value: equal dims stay, differing dims
  // become -1, differing ranks give unknown rank. Data type from `a`.
  // Shape ranges: the union per dim when either side records one (a known
  // dim counts as {d, d}); none for an unknown rank.
  static GeTensorDesc MergeDescs(const GeTensorDesc& a, const GeTensorDesc& b);
  // MergeDescs for the Loop fixed point: a range bound that moves from
  // `carried` is dropped (max unbounded, min 0), so iterations end.
  static GeTensorDesc WidenDescs(const GeTensorDesc& carried, const GeTensorDesc& next);

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  bool lenient_ = false;
  bool walked_ = false;
  NodeHook node_hook_;
};

}  // namespace ge

#endif  // COMPILER_PASSES_INFER_SHAPE_PASS_H_
