// compiler/passes/testing/pass_test_util.cc
#include "compiler/passes/testing/pass_test_util.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_framework/ge_pass.h"
#include "compiler/passes/pass_framework/graph_verifier.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/utils/graph_utils.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "runtime/reference/reference_interpreter.h"

namespace ge {
namespace passtest {
namespace {

struct OutputMeta {
  DataType dtype;
  std::vector<int64_t> dims;
};

std::string Describe(const gert::Tensor& t) {
  return absl::StrCat(TypeUtils::DataTypeToSerialString(t.GetDataType()), " ",
                      t.GetShape().ToString());
}

}  // namespace

Status InferDescsByRunning(const ComputeGraphPtr& graph,
                           const std::vector<gert::HostTensor>& inputs) {
  std::map<const Node*, std::vector<OutputMeta>> seen;
  ReferenceInterpreter::Options opts;
  opts.node_callback = [&seen](const ReferenceNodeRunInfo& info) {
    std::vector<OutputMeta>& metas = seen[info.node];
    metas.clear();
    for (const gert::Tensor* t : info.outputs) {
      metas.push_back({t == nullptr ? DT_UNDEFINED : t->GetDataType(),
                       t == nullptr ? std::vector<int64_t>{} : t->GetShape().ToVector()});
    }
    return OkStatus();
  };
  ASSIGN_OR_RETURN(std::vector<gert::HostTensor> outputs,
                   ReferenceInterpreter::Run(*graph, CloneAll(inputs), opts));
  (void)outputs;
  for (const auto& [node, metas] : seen) {
    OpDesc* op = node->GetOpDescBarePtr();
    for (size_t i = 0; i < metas.size(); ++i) {
      GeTensorDescPtr out = op->MutableOutputDesc(static_cast<uint32_t>(i));
      if (out == nullptr) continue;
      out->SetDataType(metas[i].dtype);
      out->SetOriginDataType(metas[i].dtype);
      out->SetShape(GeShape(metas[i].dims));
      out->SetOriginShape(GeShape(metas[i].dims));
      const OutDataAnchor* anchor = node->GetOutDataAnchorBarePtr(static_cast<int32_t>(i));
      if (anchor == nullptr) continue;
      for (const Anchor* peer : anchor->PeerAnchors()) {
        if (!peer->IsInData()) continue;
        GeTensorDescPtr in = peer->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->MutableInputDesc(
            static_cast<uint32_t>(peer->GetIdx()));
        if (in == nullptr) continue;
        in->SetDataType(metas[i].dtype);
        in->SetOriginDataType(metas[i].dtype);
        in->SetShape(GeShape(metas[i].dims));
        in->SetOriginShape(GeShape(metas[i].dims));
      }
    }
  }
  return OkStatus();
}

std::vector<gert::HostTensor> CloneAll(const std::vector<gert::HostTensor>& tensors) {
  std::vector<gert::HostTensor> out;
  for (const gert::HostTensor& t : tensors) {
    StatusOr<gert::HostTensor> copy = t.Clone();
    if (!copy.ok()) {
      ADD_FAILURE() << "cannot clone an input: " << copy.status();
      out.emplace_back();
      continue;
    }
    out.push_back(std::move(copy).value());
  }
  return out;
}

::testing::AssertionResult SameResults(const ComputeGraph& before, const ComputeGraph& after,
                                       const std::vector<gert::HostTensor>& inputs) {
  StatusOr<std::vector<gert::HostTensor>> want =
      ReferenceInterpreter::Run(before, CloneAll(inputs));
  if (!want.ok())
    return ::testing::AssertionFailure() << "graph before the pass: " << want.status();
  StatusOr<std::vector<gert::HostTensor>> got = ReferenceInterpreter::Run(after, CloneAll(inputs));
  if (!got.ok()) return ::testing::AssertionFailure() << "graph after the pass: " << got.status();
  if (want->size() != got->size()) {
    return ::testing::AssertionFailure()
           << "output count " << got->size() << " != " << want->size();
  }
  for (size_t i = 0; i < want->size(); ++i) {
    const gert::Tensor& w = (*want)[i].tensor();
    const gert::Tensor& g = (*got)[i].tensor();
    if (w.GetDataType() != g.GetDataType() || w.GetShape() != g.GetShape()) {
      return ::testing::AssertionFailure()
             << "output " << i << " is " << Describe(g) << ", expected " << Describe(w);
    }
    StatusOr<int64_t> bytes = TypeUtils::GetSizeInBytes(w.GetDataType(), w.GetShapeSize());
    if (!bytes.ok())
      return ::testing::AssertionFailure() << "output " << i << ": " << bytes.status();
    const size_t n = static_cast<size_t>(*bytes);
    if (w.GetSize() < n || g.GetSize() < n) {
      return ::testing::AssertionFailure()
             << "output " << i << " holds fewer than " << n << " bytes";
    }
    if (n != 0 && std::memcmp(w.GetAddr(), g.GetAddr(), n) != 0) {
      return ::testing::AssertionFailure()
             << "output " << i << " (" << Describe(w) << ") differs in its values";
    }
  }
  return ::testing::AssertionSuccess() << want->size() << " outputs agree";
}

size_t CountType(const ComputeGraph& graph, const std::string& type) {
  size_t n = 0;
  for (const NodePtr& node : graph.GetAllNodes()) n += node->GetType() == type ? 1 : 0;
  return n;
}

ComputeGraphPtr Snapshot(const ComputeGraphPtr& graph) {
  StatusOr<ComputeGraphPtr> copy = GraphUtils::CopyGraph(graph);
  if (!copy.ok()) {
    ADD_FAILURE() << "cannot copy graph '" << graph->GetName() << "': " << copy.status();
    return std::make_shared<ComputeGraph>("copy_failed");
  }
  return *copy;
}

StatusOr<bool> RunNodePass(const ComputeGraphPtr& graph, BaseNodePass& pass) {
  ASSIGN_OR_RETURN(bool changed,
                   GEPass(graph).Run({{std::string(pass.name()), &pass}}));
  RETURN_IF_ERROR(GraphVerifier::Verify(*graph));
  return changed;
}

}  // namespace passtest
}  // namespace ge
