// compiler/passes/pass_framework/node_pass.cc
#include "compiler/passes/pass_framework/node_pass.h"

#include <string>

namespace ge {

void BaseNodePass::Recorder::OnNodeAdded(const NodePtr& node) {
  pass_->changed_ = true;
  pass_->AddRePassNode(node);
}

void BaseNodePass::Recorder::OnNodeChanged(const NodePtr& node) {
  pass_->changed_ = true;
  pass_->AddRePassNode(node);
}

void BaseNodePass::Recorder::OnNodeRemoved(const NodePtr& node) {
  pass_->changed_ = true;
  pass_->AddNodeDeleted(node);
}

void BaseNodePass::ClearRecords() {
  // Most runs record nothing: skip the set clears then.
  if (!re_pass_.empty()) {
    re_pass_.clear();
    re_pass_set_.clear();
  }
  if (!re_pass_now_.empty()) {
    re_pass_now_.clear();
    re_pass_now_set_.clear();
  }
  if (!deleted_.empty()) {
    deleted_.clear();
    deleted_set_.clear();
  }
  changed_ = false;
}

Status BaseNodePass::Run(const NodePtr& node) {
  ClearRecords();
  if (node == nullptr) return ParamInvalid("pass '", name(), "': cannot run on a null node");
  const NodePtr keep = node;  // RunImpl may remove it from its graph
  ComputeGraphPtr graph = keep->GetOwnerComputeGraph();
  if (graph == nullptr) {
    return ParamInvalid("pass '", name(), "': node '", keep->GetName(), "' belongs to no graph");
  }
  Recorder recorder(this);
  GraphRewriter rw(graph, &recorder);
  rewriter_ = &rw;
  Status st = RunImpl(keep);
  rewriter_ = nullptr;
  return Annotate(st, "pass '", name(), "' on node '", keep->GetName(), "': ");
}

GraphRewriter& BaseNodePass::rewriter() {
  // Outside RunImpl there is no graph to edit: every edit of the detached
  // rewriter fails with ParamInvalid instead of crashing.
  return rewriter_ != nullptr ? *rewriter_ : detached_;
}

void BaseNodePass::AddRePassNode(const NodePtr& node) {
  if (node == nullptr || deleted_set_.contains(node.get())) return;
  if (re_pass_set_.insert(node.get()).second) re_pass_.push_back(node);
}

void BaseNodePass::AddRePassNodesWithInOut(const NodePtr& node) {
  if (node == nullptr) return;
  AddRePassNode(node);
  for (const NodePtr& in : node->GetInAllNodes()) AddRePassNode(in);
  for (const NodePtr& out : node->GetOutAllNodes()) AddRePassNode(out);
}

void BaseNodePass::AddImmediateRePassNode(const NodePtr& node) {
  if (node == nullptr || deleted_set_.contains(node.get())) return;
  if (re_pass_now_set_.insert(node.get()).second) re_pass_now_.push_back(node);
}

void BaseNodePass::AddNodeDeleted(const NodePtr& node) {
  if (node == nullptr) return;
  if (deleted_set_.insert(node.get()).second) deleted_.push_back(node);
}

}  // namespace ge
