// runtime/api/session.cc
#include "runtime/inc/runtime/session.h"

#include <utility>

namespace ge {

uint32_t Session::AddModel(Model model) {
  auto shared = std::make_shared<Model>(std::move(model));
  absl::MutexLock lock(&mu_);
  const uint32_t id = next_id_++;
  models_.emplace(id, std::move(shared));
  return id;
}

StatusOr<uint32_t> Session::LoadModel(const std::string& path) {
  ASSIGN_OR_RETURN(Model m, Model::LoadFromFile(path, options_));
  return AddModel(std::move(m));
}

StatusOr<uint32_t> Session::LoadModelFromBytes(absl::string_view bytes) {
  ASSIGN_OR_RETURN(Model m, Model::LoadFromBytes(bytes, options_));
  return AddModel(std::move(m));
}

Status Session::UnloadModel(uint32_t model_id) {
  std::shared_ptr<Model> doomed;  // freed outside the lock
  {
    absl::MutexLock lock(&mu_);
    auto it = models_.find(model_id);
    if (it == models_.end()) return NotFound("session: no model with id ", model_id);
    doomed = std::move(it->second);
    models_.erase(it);
  }
  return OkStatus();
}

StatusOr<std::shared_ptr<Model>> Session::GetModel(uint32_t model_id) const {
  absl::MutexLock lock(&mu_);
  auto it = models_.find(model_id);
  if (it == models_.end()) return NotFound("session: no model with id ", model_id);
  return it->second;
}

std::vector<uint32_t> Session::ModelIds() const {
  absl::MutexLock lock(&mu_);
  std::vector<uint32_t> ids;
  ids.reserve(models_.size());
  for (const auto& kv : models_) ids.push_back(kv.first);
  return ids;
}

StatusOr<std::vector<gert::HostTensor>> Session::RunModel(
    uint32_t model_id, const std::vector<gert::HostTensor>& inputs) {
  ASSIGN_OR_RETURN(std::shared_ptr<Model> m, GetModel(model_id));
  return m->Run(inputs);
}

Status Session::RunModel(uint32_t model_id, absl::Span<const gert::Tensor> inputs,
                         absl::Span<gert::Tensor> outputs) {
  ASSIGN_OR_RETURN(std::shared_ptr<Model> m, GetModel(model_id));
  return m->Run(inputs, outputs);
}

}  // namespace ge
