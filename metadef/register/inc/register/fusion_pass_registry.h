// metadef/register/inc/register/fusion_pass_registry.h
//
// Fusion passes registered by the op library or plugins (GE's
// REGISTER_PASS / FusionPassRegistry): a name, a pass type (graph fusion on
// the whole graph, buffer fusion on scheduled buffers), a priority and a
// factory creating an instance of a FusionPassBase subclass.
//
//   class ConvBnFusion : public ge::FusionPassBase {
//    public:
//     ge::StatusOr<bool> Run(ge::ComputeGraph& graph) override;  // changed?
//   };
//   REG_FUSION_PASS("ConvBnFusion", ge::FusionPassType::kGraphFusion, ConvBnFusion);
//   REG_FUSION_PASS_WITH_PRIORITY("Late", ge::FusionPassType::kGraphFusion, LateFusion, 100);
//
// Order: GetPassNames(type) lists the passes of a type by ascending priority
// (a lower value runs earlier), ties by name, so the order does not depend on
// static-initialisation or link order.
//
// A registration with an empty name, no creator or an already registered
// name is an error (Register returns it; a static registrar keeps it for
// GetRegistrationErrors). CreatePass returns a fresh instance per call.
//
// Thread safety: every member takes the registry mutex; creators run
// without it.
#ifndef METADEF_REGISTER_INC_REGISTER_FUSION_PASS_REGISTRY_H_
#define METADEF_REGISTER_INC_REGISTER_FUSION_PASS_REGISTRY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

enum class FusionPassType : int32_t {
  kGraphFusion = 0,   // pattern rewrites on the compute graph
  kBufferFusion = 1,  // fusion of scheduled kernels sharing buffers
};

// "GraphFusion" / "BufferFusion"; "FusionPassType(<n>)" otherwise.
std::string FusionPassTypeName(FusionPassType type);

class FusionPassBase {
 public:
  virtual ~FusionPassBase() = default;
  // Applies the pass; returns whether the graph changed.
  virtual StatusOr<bool> Run(ComputeGraph& graph) = 0;
};

using FusionPassCreator = std::function<std::unique_ptr<FusionPassBase>()>;

struct FusionPassRegistrationData {
  std::string name;
  FusionPassType type = FusionPassType::kGraphFusion;
  int32_t priority = 0;
  FusionPassCreator creator;
};

class FusionPassRegistry {
 public:
  static FusionPassRegistry& Instance();

  Status Register(FusionPassRegistrationData data);

  // Names of the passes of `type`: ascending priority, then name.
  std::vector<std::string> GetPassNames(FusionPassType type) const;
  // A copy of the registration; NotFound (with suggestions) when unknown.
  StatusOr<FusionPassRegistrationData> Get(absl::string_view name) const;
  bool Has(absl::string_view name) const;
  // A new instance; NotFound when unknown, Internal when the creator
  // returns null.
  StatusOr<std::unique_ptr<FusionPassBase>> CreatePass(absl::string_view name) const;

  std::vector<std::string> GetRegistrationErrors() const;
  bool UnregisterForTest(absl::string_view name);

 private:
  friend class FusionPassRegistrar;
  FusionPassRegistry() = default;
  void Receive(FusionPassRegistrationData&& data);
  struct Impl;
  Impl& impl() const;
};

// Registers at construction (static initialisation or library load).
class FusionPassRegistrar {
 public:
  FusionPassRegistrar(std::string name, FusionPassType type, FusionPassCreator creator,
                      int32_t priority = 0);
};

}  // namespace ge

#define GE_FUSION_PASS_CONCAT_INNER_(a, b) a##b
#define GE_FUSION_PASS_CONCAT_(a, b) GE_FUSION_PASS_CONCAT_INNER_(a, b)

#define REG_FUSION_PASS_WITH_PRIORITY(name, type, cls, priority)                             \
  static ::ge::FusionPassRegistrar GE_FUSION_PASS_CONCAT_(g_ge_fusion_pass_registrar_,       \
                                                          __COUNTER__)                       \
      __attribute__((unused)) (                                                              \
          name, type,                                                                        \
          []() -> std::unique_ptr<::ge::FusionPassBase> { return std::make_unique<cls>(); }, \
          priority)

#define REG_FUSION_PASS(name, type, cls) REG_FUSION_PASS_WITH_PRIORITY(name, type, cls, 0)

#endif  // METADEF_REGISTER_INC_REGISTER_FUSION_PASS_REGISTRY_H_
