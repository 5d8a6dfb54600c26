// runtime/inc/runtime/session.h
//
// ge::Session: several loaded models addressed by id (GE's session / model
// manager role): LoadModel -> id, RunModel(id, ...), UnloadModel(id).
//
// Contract
//   * Ids are positive, unique within the session and never reused.
//   * An unknown id is NotFound naming it; load errors are those of
//     Model::LoadFromFile / LoadFromBytes.
//   * Thread safe: loads, runs and unloads may come from several threads. A
//     run holds a reference to its model, so UnloadModel during a run of the
//     same id waits for nothing and the model is freed after the run.
//
// Example
//   ge::Session session;
//   ASSIGN_OR_RETURN(uint32_t id, session.LoadModel("/tmp/m.om"));
//   ASSIGN_OR_RETURN(std::vector<gert::HostTensor> out, session.RunModel(id, inputs));
//   RETURN_IF_ERROR(session.UnloadModel(id));
#ifndef RUNTIME_INC_RUNTIME_SESSION_H_
#define RUNTIME_INC_RUNTIME_SESSION_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"
#include "runtime/inc/runtime/model.h"

namespace ge {

class Session {
 public:
  explicit Session(ModelLoadOptions options = ModelLoadOptions()) : options_(std::move(options)) {}

  StatusOr<uint32_t> LoadModel(const std::string& path);
  StatusOr<uint32_t> LoadModelFromBytes(absl::string_view bytes);
  // Takes an already loaded model.
  uint32_t AddModel(Model model);
  Status UnloadModel(uint32_t model_id);

  StatusOr<std::vector<gert::HostTensor>> RunModel(uint32_t model_id,
                                                   const std::vector<gert::HostTensor>& inputs);
  Status RunModel(uint32_t model_id, absl::Span<const gert::Tensor> inputs,
                  absl::Span<gert::Tensor> outputs);

  // The model's descriptions (a shared reference; valid after unload).
  StatusOr<std::shared_ptr<Model>> GetModel(uint32_t model_id) const;
  std::vector<uint32_t> ModelIds() const;  // ascending

 private:
  ModelLoadOptions options_;
  mutable absl::Mutex mu_;
  uint32_t next_id_ ABSL_GUARDED_BY(mu_) = 1;
  std::map<uint32_t, std::shared_ptr<Model>> models_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ge

#endif  // RUNTIME_INC_RUNTIME_SESSION_H_
