// compiler/passes/pass_framework/node_pass.h
//
// BaseNodePass: a pass over one node at a time (seed 002, section 2.1; GE's
// passes/base_pass.h), driven over a whole graph by GEPass (ge_pass.h).
//
// A node pass implements RunImpl(node) and changes the graph only through
// rewriter() (graph_rewriter.h). The rewriter reports to the pass's
// bookkeeping, which the driver reads after each Run:
//   added node              -> re-pass (next round)
//   node whose edges / desc changed (producers, consumers, MarkChanged)
//                           -> re-pass (next round)
//   removed node            -> deleted (the driver skips it from then on)
// and the pass may add its own requests:
//   AddRePassNode(n)           re-visit n after the current round (a node
//                              not yet visited in this round is visited
//                              anyway, so the request is dropped);
//   AddRePassNodesWithInOut(n) the same for n's input and output nodes;
//   AddImmediateRePassNode(n)  re-visit n within the current round, right
//                              after the current node, by every pass, so
//                              passes later in the round see the result
//                              without another round;
//   AddNodeDeleted(n)          n is gone (only needed for removals made
//                              without the rewriter).
//
// Contract
//   * Run(node) clears the records of the previous Run, then runs RunImpl;
//     ParamInvalid for a null node or a node in no graph. Errors come back
//     prefixed "pass '<name>' on node '<node>': ".
//   * changed() is true when the last Run changed the graph (any rewriter
//     edit or MarkChanged).
//   * rewriter() is valid only during RunImpl; it edits the graph that owns
//     the node being run.
//   * Run can be called directly (tests, one-off use); the records then
//     show what a driver would have scheduled.
//
// Example
//   class DropIdentity : public BaseNodePass {
//    public:
//     absl::string_view name() const override { return "DropIdentity"; }
//    protected:
//     Status RunImpl(const NodePtr& node) override {
//       if (node->GetType() != "Identity") return OkStatus();
//       return rewriter().RemoveNode(node);   // consumers get re-passed
//     }
//   };
#ifndef COMPILER_PASSES_PASS_FRAMEWORK_NODE_PASS_H_
#define COMPILER_PASSES_PASS_FRAMEWORK_NODE_PASS_H_

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/passes/pass_framework/graph_rewriter.h"
#include "graph/inc/graph/graph_fwd.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class BaseNodePass {
 public:
  BaseNodePass() = default;
  BaseNodePass(const BaseNodePass&) = delete;
  BaseNodePass& operator=(const BaseNodePass&) = delete;
  virtual ~BaseNodePass() = default;

  virtual absl::string_view name() const = 0;

  // The op types this pass can change (empty: any). A NodePassGroup whose
  // passes all list types skips graphs without such nodes.
  virtual absl::Span<const char* const> TargetTypes() const { return {}; }

  [[nodiscard]] Status Run(const NodePtr& node);

  // Records of the last Run (GE's GetNodesNeedRePass / ...), each node once,
  // in request order.
  const std::vector<NodePtr>& GetNodesNeedRePass() const { return re_pass_; }
  const std::vector<NodePtr>& GetNodesNeedRePassImmediately() const { return re_pass_now_; }
  const std::vector<NodePtr>& GetNodesDeleted() const { return deleted_; }
  bool changed() const { return changed_; }

 protected:
  virtual Status RunImpl(const NodePtr& node) = 0;

  GraphRewriter& rewriter();

  void AddRePassNode(const NodePtr& node);
  void AddRePassNodesWithInOut(const NodePtr& node);
  void AddImmediateRePassNode(const NodePtr& node);
  void AddNodeDeleted(const NodePtr& node);

 private:
  // Routes rewriter events into the records.
  class Recorder : public RewriteListener {
   public:
    explicit Recorder(BaseNodePass* pass) : pass_(pass) {}
    void OnNodeAdded(const NodePtr& node) override;
    void OnNodeChanged(const NodePtr& node) override;
    void OnNodeRemoved(const NodePtr& node) override;

   private:
    BaseNodePass* pass_;
  };

  void ClearRecords();

  std::vector<NodePtr> re_pass_;
  std::vector<NodePtr> re_pass_now_;
  std::vector<NodePtr> deleted_;
  absl::flat_hash_set<const Node*> re_pass_set_;
  absl::flat_hash_set<const Node*> re_pass_now_set_;
  absl::flat_hash_set<const Node*> deleted_set_;
  bool changed_ = false;
  GraphRewriter* rewriter_ = nullptr;
  GraphRewriter detached_{nullptr};
};

}  // namespace ge

#endif  // COMPILER_PASSES_PASS_FRAMEWORK_NODE_PASS_H_
