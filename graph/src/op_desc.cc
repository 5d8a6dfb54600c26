// graph/src/op_desc.cc
//
// OpDesc: ports (shared descs + names), IR metadata (copy-on-write), the
// lazily allocated compile-state / subgraph / function extension.
#include "graph/inc/graph/op_desc.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/src/string_interner.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace {
std::atomic<uint64_t> g_rename_epoch{0};
std::atomic<uint64_t> g_id_epoch{0};
}  // namespace

uint64_t GetOpDescRenameEpoch() { return g_rename_epoch.load(std::memory_order_relaxed); }
void BumpOpDescRenameEpoch() { g_rename_epoch.fetch_add(1, std::memory_order_relaxed); }
uint64_t GetOpDescIdEpoch() { return g_id_epoch.load(std::memory_order_relaxed); }
void BumpOpDescIdEpoch() { g_id_epoch.fetch_add(1, std::memory_order_relaxed); }

// A port's description. refs counts the ports (of any OpDesc) and the
// thread's share cache holding it; a pinned block has had a pointer handed
// out and is never shared again (OwnDescAt, the copy constructor).
struct OpDesc::DescBlock {
  explicit DescBlock(const GeTensorDesc& d) : desc(d) {}
  std::atomic<uint32_t> refs{1};
  std::atomic<bool> pinned{false};
  GeTensorDesc desc;

  static void Release(DescBlock* block) {
    if (block != nullptr && block->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      internal::PoolDelete(block);
    }
  }
  static DescBlock* Share(DescBlock* block) {
    block->refs.fetch_add(1, std::memory_order_relaxed);
    return block;
  }
  static bool Pinned(const DescBlock* block) {
    return block->pinned.load(std::memory_order_relaxed);
  }

  // The last block made by this thread (holding one reference): consecutive
  // equal descriptions share it.
  struct Cache {
    DescBlock* last = nullptr;
    Cache() = default;
    Cache(const Cache&) = delete;
    Cache& operator=(const Cache&) = delete;
    ~Cache() {
      Release(last);
      last = nullptr;
    }
  };
  static Cache& ThreadCache() {
    static thread_local Cache cache;
    return cache;
  }

  // A block holding `desc` with one reference for the caller: the cached
  // block when equal, else a new one that becomes the cached block.
  static DescBlock* Acquire(const GeTensorDesc& desc) {
    Cache& cache = ThreadCache();
    DescBlock* last = cache.last;
    if (last != nullptr && last->desc == desc) return Share(last);
    DescBlock* block = internal::PoolNew<DescBlock>(desc);
    cache.last = Share(block);
    Release(last);
    return block;
  }
  static DescBlock* AcquireDefault() {
    static const GeTensorDesc* const kDefault = new GeTensorDesc();
    return Acquire(*kDefault);
  }
};

struct OpDesc::IrMeta {
  std::vector<std::pair<std::string, IrInputType>> inputs;
  std::vector<std::pair<std::string, IrOutputType>> outputs;
  std::vector<std::string> attr_names;
  std::vector<std::pair<std::string, SubgraphType>> subgraphs;
};

struct OpDesc::Ext {
  std::vector<int64_t> input_offsets;
  std::vector<int64_t> output_offsets;
  std::vector<int64_t> workspace;
  std::vector<int64_t> workspace_bytes;
  std::vector<std::string> src_name;
  std::vector<int64_t> src_index;
  std::vector<std::string> dst_name;
  std::vector<int64_t> dst_index;
  std::vector<bool> is_input_const;
  std::map<std::string, uint32_t> subgraph_name_to_index;
  std::vector<std::string> subgraph_instance_names;
  InferShapeFunc infer_func;
  InferFormatFunc infer_format_func;
  VerifyFunc verify_func;
  // Optional flags of the inputs (empty when no input is optional).
  std::vector<uint8_t> optional_inputs;
  // Pinned descriptions of removed ports (one reference each): kept alive
  // for outstanding pointers.
  std::vector<DescBlock*> retired_descs;

  // Shared copy-on-write between an OpDesc and its copies (the parsers copy
  // one prototype per op type); MutableExt unshares before any write.
  Ext() = default;
  Ext& operator=(const Ext&) = delete;
  ~Ext() {
    for (DescBlock* b : retired_descs) DescBlock::Release(b);
  }
  // Copies everything but the retired descriptions.
  Ext(const Ext& o)
      : input_offsets(o.input_offsets),
        output_offsets(o.output_offsets),
        workspace(o.workspace),
        workspace_bytes(o.workspace_bytes),
        src_name(o.src_name),
        src_index(o.src_index),
        dst_name(o.dst_name),
        dst_index(o.dst_index),
        is_input_const(o.is_input_const),
        subgraph_name_to_index(o.subgraph_name_to_index),
        subgraph_instance_names(o.subgraph_instance_names),
        infer_func(o.infer_func),
        infer_format_func(o.infer_format_func),
        verify_func(o.verify_func),
        optional_inputs(o.optional_inputs) {}
};

OpDesc::Body::Body(const std::string& name, const std::string* type)
    : type_(type),
      name_(name),
      engine_name_(internal::EmptyInternedString()),
      kernel_lib_name_(internal::EmptyInternedString()) {}
OpDesc::Body::~Body() {
  for (Port& p : ports_) DescBlock::Release(p.block);
}

OpDesc::OpDesc()
    : b_(internal::PoolNewIn<Body>(internal::PoolRegion::kBodies, std::string(),
                                   internal::EmptyInternedString())) {}
OpDesc::OpDesc(const std::string& name, const std::string& type)
    : b_(internal::PoolNewIn<Body>(internal::PoolRegion::kBodies, name,
                                   internal::InternString(type))) {}

OpDescPtr OpDesc::Create(const std::string& name, const std::string& type) {
  return std::allocate_shared<OpDesc>(internal::PoolStdAllocator<OpDesc>(), name, type);
}

OpDescPtr OpDesc::Create(const OpDesc& other) {
  return std::allocate_shared<OpDesc>(internal::PoolStdAllocator<OpDesc>(), other);
}

OpDesc::OpDesc(const OpDesc& other)
    : AttrHolder(other),
      std::enable_shared_from_this<OpDesc>(),
      b_(internal::PoolNewIn<Body>(internal::PoolRegion::kBodies, other.b_->name_,
                                   other.b_->type_)) {
  const Body& o = *other.b_;
  b_->id_ = o.id_;
  b_->stream_id_ = o.stream_id_;
  b_->engine_name_ = o.engine_name_;
  b_->kernel_lib_name_ = o.kernel_lib_name_;
  b_->ir_meta_ = o.ir_meta_;
  // Shared until either side writes (MutableExt). Retired descriptions in
  // it then live until both are done with it, which is only longer.
  b_->ext_ = o.ext_;
  b_->num_inputs_ = o.num_inputs_;
  b_->ports_.reserve(o.ports_.size());
  for (const Port& p : o.ports_) {
    DescBlock* b = __atomic_load_n(&p.block, __ATOMIC_ACQUIRE);
    // A pinned description may be written through outstanding pointers:
    // copy it; share the others.
    b_->ports_.push_back(
        Port{DescBlock::Pinned(b) ? DescBlock::Acquire(b->desc) : DescBlock::Share(b), p.name});
  }
}

OpDesc& OpDesc::operator=(const OpDesc& other) {
  if (this == &other) return *this;
  OpDesc copy(other);
  AttrHolder::operator=(std::move(static_cast<AttrHolder&>(copy)));
  b_->type_ = copy.b_->type_;
  // Keep the old pinned descriptions alive: pointers to them may be held.
  for (Port& p : b_->ports_) RetirePort(p);
  b_->ports_.clear();
  std::vector<DescBlock*> retired;
  if (b_->ext_ != nullptr) {
    if (b_->ext_.use_count() == 1) {
      retired = std::move(b_->ext_->retired_descs);
    } else {
      // Still shared: take references, the other owners keep theirs.
      for (DescBlock* d : b_->ext_->retired_descs) retired.push_back(DescBlock::Share(d));
    }
  }
  b_->ports_ = std::move(copy.b_->ports_);
  b_->num_inputs_ = copy.b_->num_inputs_;
  b_->id_ = copy.b_->id_;
  if (b_->attached_to_node_) BumpOpDescIdEpoch();
  b_->stream_id_ = copy.b_->stream_id_;
  b_->engine_name_ = copy.b_->engine_name_;
  b_->kernel_lib_name_ = copy.b_->kernel_lib_name_;
  b_->ir_meta_ = std::move(copy.b_->ir_meta_);
  b_->ext_ = std::move(copy.b_->ext_);
  if (!retired.empty()) {
    auto& keep = MutableExt().retired_descs;
    keep.insert(keep.end(), retired.begin(), retired.end());
  }
  SetName(copy.b_->name_);
  return *this;
}

OpDesc::~OpDesc() { internal::PoolDelete(b_, internal::PoolRegion::kBodies); }

void OpDesc::SetName(const std::string& name) {
  if (name == b_->name_) return;
  if (b_->attached_to_node_) BumpOpDescRenameEpoch();
  b_->name_ = name;
}

void OpDesc::SetType(const std::string& type) { b_->type_ = internal::InternString(type); }

OpDesc::Ext& OpDesc::MutableExt() {
  if (b_->ext_ == nullptr) {
    b_->ext_ = std::allocate_shared<Ext>(internal::PoolStdAllocator<Ext>());
  } else if (b_->ext_.use_count() > 1) {
    // Copies everything but the retired descriptions, which stay with the
    // shared state.
    b_->ext_ = std::allocate_shared<Ext>(internal::PoolStdAllocator<Ext>(), *b_->ext_);
  }
  return *b_->ext_;
}

OpDesc::IrMeta& OpDesc::MutableIrMeta() {
  if (b_->ir_meta_ == nullptr) {
    b_->ir_meta_ = std::allocate_shared<IrMeta>(internal::PoolStdAllocator<IrMeta>());
  } else if (b_->ir_meta_.use_count() > 1) {
    b_->ir_meta_ =
        std::allocate_shared<IrMeta>(internal::PoolStdAllocator<IrMeta>(), *b_->ir_meta_);
  }
  return *b_->ir_meta_;
}

void OpDesc::ShareIrMetaFrom(const OpDesc& other) {
  if (this != &other) b_->ir_meta_ = other.b_->ir_meta_;
}

void OpDesc::ReservePorts(size_t count) {
  if (b_->ports_.size() + count > b_->ports_.capacity())
    b_->ports_.reserve(b_->ports_.size() + count);
}

std::string OpDesc::DebugString() const { return absl::StrCat(b_->name_, "(", *b_->type_, ")"); }

// -------------------------------------------------------------------- ports

const GeTensorDesc& OpDesc::DescAt(size_t pos) const { return BodyDescAt(*b_, pos); }
const GeTensorDesc& OpDesc::BodyDescAt(const Body& body, size_t pos) {
  return __atomic_load_n(&body.ports_[pos].block, __ATOMIC_ACQUIRE)->desc;
}

GeTensorDesc* OpDesc::OwnDescAt(size_t pos) const {
  DescBlock** slot = &b_->ports_[pos].block;
  DescBlock* b = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  while (true) {
    if (b->refs.load(std::memory_order_acquire) == 1) {
      if (!DescBlock::Pinned(b)) b->pinned.store(true, std::memory_order_relaxed);
      return &b->desc;
    }
    DescBlock* own = internal::PoolNew<DescBlock>(b->desc);
    own->pinned.store(true, std::memory_order_relaxed);
    // Racing const readers of this OpDesc: one copy wins, the others use it.
    if (__atomic_compare_exchange_n(slot, &b, own, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      DescBlock::Release(b);
      return &own->desc;
    }
    internal::PoolDelete(own);  // b is now the winner's block
  }
}

void OpDesc::RetirePort(Port& port) {
  DescBlock* b = port.block;
  port.block = nullptr;
  if (b == nullptr) return;
  if (DescBlock::Pinned(b)) {
    MutableExt().retired_descs.push_back(b);
  } else {
    DescBlock::Release(b);  // no pointer to it was handed out from this port
  }
}

GeTensorDescPtr OpDesc::DescPtr(GeTensorDesc* desc) const {
  std::shared_ptr<const OpDesc> self = weak_from_this().lock();
  if (self == nullptr) return GeTensorDescPtr(GeTensorDescPtr(), desc);  // non-owning
  return GeTensorDescPtr(std::move(self), desc);
}

void OpDesc::ReserveFor(size_t more) {
  const size_t need = b_->ports_.size() + more;
  if (need <= b_->ports_.capacity()) return;
  // Most ops have an input and an output: start with two slots, then grow
  // tightly (ops have few ports), geometrically for large dynamic ports.
  b_->ports_.reserve(need < 2   ? 2
                     : need < 4 ? need
                                : std::max(need, b_->ports_.size() + b_->ports_.size() / 2));
}

void OpDesc::SetOptional(size_t input_index, bool optional) {
  if (!optional && (b_->ext_ == nullptr || b_->ext_->optional_inputs.empty())) return;
  std::vector<uint8_t>& flags = MutableExt().optional_inputs;
  if (flags.size() < b_->num_inputs_) flags.resize(b_->num_inputs_, 0);
  flags[input_index] = optional ? 1 : 0;
}

int32_t OpDesc::FindPort(Dir dir, absl::string_view name) const {
  const size_t n = Count(dir);
  for (size_t i = 0; i < n; ++i) {
    if (*PortAt(dir, i).name == name) return static_cast<int32_t>(i);
  }
  return -1;
}

Status OpDesc::AddPort(Dir dir, const std::string& name, const GeTensorDesc& desc, bool optional) {
  if (name.empty()) {
    return ParamInvalid("op ", DebugString(), ": ", DirName(dir), " name must not be empty");
  }
  const int32_t existing = FindPort(dir, name);
  if (existing >= 0) {
    return AlreadyExists("op ", DebugString(), " already has an ", DirName(dir), " named '", name,
                         "' (index ", existing, ")");
  }
  ReserveFor(1);
  const size_t pos = Begin(dir) + Count(dir);
  b_->ports_.insert(b_->ports_.begin() + static_cast<std::ptrdiff_t>(pos),
                    Port{DescBlock::Acquire(desc), internal::InternString(name)});
  if (dir == Dir::kInput) {
    ++b_->num_inputs_;
    SetOptional(pos, optional);
  }
  return OkStatus();
}

Status OpDesc::InsertPorts(Dir dir, const std::string& name, uint32_t num, size_t index,
                           bool numbered) {
  if (index > Count(dir)) {
    return OutOfRange("op ", DebugString(), ": cannot insert ", DirName(dir), "s at index ", index,
                      ", the op has ", Count(dir), " ", DirName(dir), "s");
  }
  std::vector<std::string> names;
  names.reserve(num);
  for (uint32_t i = 0; i < num; ++i) {
    std::string n = numbered ? absl::StrCat(name, i) : name;
    if (n.empty()) {
      return ParamInvalid("op ", DebugString(), ": ", DirName(dir), " name must not be empty");
    }
    if (FindPort(dir, n) >= 0 || std::find(names.begin(), names.end(), n) != names.end()) {
      return AlreadyExists("op ", DebugString(), " already has an ", DirName(dir), " named '", n,
                           "'");
    }
    names.push_back(std::move(n));
  }
  std::vector<Port> added;
  added.reserve(num);
  for (std::string& n : names) {
    added.push_back(Port{DescBlock::AcquireDefault(), internal::InternString(n)});
  }
  ReserveFor(num);
  b_->ports_.insert(b_->ports_.begin() + static_cast<std::ptrdiff_t>(Begin(dir) + index),
                    std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
  if (dir == Dir::kInput) {
    if (b_->ext_ != nullptr && !b_->ext_->optional_inputs.empty()) {
      auto& flags = MutableExt().optional_inputs;
      if (flags.size() < b_->num_inputs_) flags.resize(b_->num_inputs_, 0);
      flags.insert(flags.begin() + static_cast<std::ptrdiff_t>(index), num, 0);
    }
    b_->num_inputs_ += num;
  }
  return OkStatus();
}

Status OpDesc::UpdatePort(Dir dir, uint32_t index, const GeTensorDesc& desc) {
  if (index >= Count(dir)) {
    return OutOfRange("op ", DebugString(), ": ", DirName(dir), " index ", index,
                      " is out of range (", Count(dir), " ", DirName(dir), "s)");
  }
  const size_t pos = Begin(dir) + index;
  DescBlock* b = b_->ports_[pos].block;
  if (DescBlock::Pinned(b)) {
    b->desc = desc;  // outstanding pointers see the update
  } else {
    b_->ports_[pos].block = DescBlock::Acquire(desc);
    DescBlock::Release(b);
  }
  return OkStatus();
}

Status OpDesc::RemovePort(Dir dir, uint32_t index) {
  if (index >= Count(dir)) {
    return OutOfRange("op ", DebugString(), ": ", DirName(dir), " index ", index,
                      " is out of range (", Count(dir), " ", DirName(dir), "s)");
  }
  const size_t pos = Begin(dir) + index;
  RetirePort(b_->ports_[pos]);
  b_->ports_.erase(b_->ports_.begin() + static_cast<std::ptrdiff_t>(pos));
  if (dir == Dir::kInput) {
    --b_->num_inputs_;
    if (b_->ext_ == nullptr || pos >= b_->ext_->optional_inputs.size()) return OkStatus();
    auto& flags = MutableExt().optional_inputs;
    flags.erase(flags.begin() + static_cast<std::ptrdiff_t>(pos));
  }
  return OkStatus();
}

Status OpDesc::UpdateNames(Dir dir, const std::map<std::string, uint32_t>& name_idx) {
  const size_t count = Count(dir);
  std::vector<std::string> names = Names(dir);
  std::vector<bool> assigned(count, false);
  for (const auto& [name, index] : name_idx) {
    if (index >= count) {
      return OutOfRange("op ", DebugString(), ": ", DirName(dir), " name '", name,
                        "' maps to index ", index, ", the op has ", count, " ", DirName(dir), "s");
    }
    if (name.empty()) {
      return ParamInvalid("op ", DebugString(), ": ", DirName(dir), " name must not be empty");
    }
    if (assigned[index]) {
      return ParamInvalid("op ", DebugString(), ": two names map to ", DirName(dir), " index ",
                          index, " (one of them is '", name, "')");
    }
    assigned[index] = true;
    names[index] = name;
  }
  absl::flat_hash_set<absl::string_view> seen;
  for (const std::string& n : names) {
    if (!seen.insert(n).second) {
      return AlreadyExists("op ", DebugString(), ": renaming would give two ", DirName(dir),
                           "s named '", n, "'");
    }
  }
  for (size_t i = 0; i < count; ++i) PortAt(dir, i).name = internal::InternString(names[i]);
  return OkStatus();
}

std::map<std::string, uint32_t> OpDesc::NameIndexMap(Dir dir) const {
  std::map<std::string, uint32_t> m;
  for (size_t i = 0; i < Count(dir); ++i) m.emplace(*PortAt(dir, i).name, static_cast<uint32_t>(i));
  return m;
}

std::vector<std::string> OpDesc::Names(Dir dir) const {
  std::vector<std::string> names;
  names.reserve(Count(dir));
  for (size_t i = 0; i < Count(dir); ++i) names.push_back(*PortAt(dir, i).name);
  return names;
}

// ---- inputs

Status OpDesc::AddInputDesc(const GeTensorDesc& desc) {
  return AddPort(Dir::kInput, absl::StrCat("__input", b_->num_inputs_), desc, false);
}
Status OpDesc::AddInputDesc(const std::string& name, const GeTensorDesc& desc) {
  return AddPort(Dir::kInput, name, desc, false);
}
Status OpDesc::AddOptionalInputDesc(const std::string& name, const GeTensorDesc& desc) {
  return AddPort(Dir::kInput, name, desc, true);
}
Status OpDesc::AddDynamicInputDesc(const std::string& name, uint32_t num, bool is_push_back) {
  return InsertPorts(Dir::kInput, name, num, is_push_back ? b_->num_inputs_ : 0, true);
}
Status OpDesc::AddDynamicInputDescByIndex(const std::string& name, uint32_t num, size_t index) {
  return InsertPorts(Dir::kInput, name, num, index, true);
}
Status OpDesc::AddInputDescMiddle(const std::string& name, uint32_t num, size_t index) {
  return InsertPorts(Dir::kInput, name, num, index, true);
}
Status OpDesc::AddInputDescForward(const std::string& name, uint32_t num) {
  return InsertPorts(Dir::kInput, name, num, 0, true);
}
Status OpDesc::UpdateInputDesc(uint32_t index, const GeTensorDesc& desc) {
  return UpdatePort(Dir::kInput, index, desc);
}
Status OpDesc::UpdateInputDesc(const std::string& name, const GeTensorDesc& desc) {
  const int32_t index = FindPort(Dir::kInput, name);
  if (index < 0) return NotFound("op ", DebugString(), " has no input named '", name, "'");
  return UpdatePort(Dir::kInput, static_cast<uint32_t>(index), desc);
}
Status OpDesc::RemoveInputDesc(uint32_t index) { return RemovePort(Dir::kInput, index); }

bool OpDesc::InputIsSet(const std::string& name) const {
  const int32_t index = FindPort(Dir::kInput, name);
  return index >= 0 && DescAt(static_cast<size_t>(index)).IsValid();
}

GeTensorDesc OpDesc::GetInputDesc(uint32_t index) const {
  return index < b_->num_inputs_ ? DescAt(index) : GeTensorDesc();
}
GeTensorDesc OpDesc::GetInputDesc(const std::string& name) const {
  const int32_t index = FindPort(Dir::kInput, name);
  return index < 0 ? GeTensorDesc() : DescAt(static_cast<size_t>(index));
}
GeTensorDescPtr OpDesc::MutableInputDesc(uint32_t index) const {
  return index < b_->num_inputs_ ? DescPtr(OwnDescAt(index)) : nullptr;
}
GeTensorDescPtr OpDesc::MutableInputDesc(const std::string& name) const {
  const int32_t index = FindPort(Dir::kInput, name);
  return index < 0 ? nullptr : DescPtr(OwnDescAt(static_cast<size_t>(index)));
}
const GeTensorDesc* OpDesc::GetInputDescBarePtr(uint32_t index) const {
  return index < b_->num_inputs_ ? OwnDescAt(index) : nullptr;
}
const GeTensorDesc* OpDesc::PeekInputDesc(uint32_t index) const {
  return index < b_->num_inputs_ ? &DescAt(index) : nullptr;
}
std::vector<GeTensorDesc> OpDesc::GetAllInputsDesc() const {
  std::vector<GeTensorDesc> descs;
  for (uint32_t i = 0; i < b_->num_inputs_; ++i) {
    if (DescAt(i).IsValid()) descs.push_back(DescAt(i));
  }
  return descs;
}
std::vector<GeTensorDescPtr> OpDesc::GetAllInputsDescPtr() const {
  std::vector<GeTensorDescPtr> descs;
  for (uint32_t i = 0; i < b_->num_inputs_; ++i) {
    if (DescAt(i).IsValid()) descs.push_back(DescPtr(OwnDescAt(i)));
  }
  return descs;
}
size_t OpDesc::GetInputsSize() const {
  size_t n = 0;
  for (uint32_t i = 0; i < b_->num_inputs_; ++i) n += DescAt(i).IsValid() ? 1 : 0;
  return n;
}

int32_t OpDesc::GetInputIndexByName(const std::string& name) const {
  return FindPort(Dir::kInput, name);
}
std::string OpDesc::GetInputNameByIndex(uint32_t index) const {
  return index < b_->num_inputs_ ? *b_->ports_[index].name : std::string();
}
const std::string* OpDesc::GetInputNamePtr(uint32_t index) const {
  return index < b_->num_inputs_ ? b_->ports_[index].name : nullptr;
}
std::map<std::string, uint32_t> OpDesc::GetAllInputName() const {
  return NameIndexMap(Dir::kInput);
}
std::vector<std::string> OpDesc::GetAllInputNames() const { return Names(Dir::kInput); }
Status OpDesc::UpdateInputName(const std::map<std::string, uint32_t>& input_name_idx) {
  return UpdateNames(Dir::kInput, input_name_idx);
}
bool OpDesc::IsOptionalInput(const std::string& name) const {
  const int32_t index = FindPort(Dir::kInput, name);
  return index >= 0 && IsOptionalInput(static_cast<uint32_t>(index));
}
bool OpDesc::IsOptionalInput(uint32_t index) const {
  return index < b_->num_inputs_ && b_->ext_ != nullptr &&
         index < b_->ext_->optional_inputs.size() && b_->ext_->optional_inputs[index] != 0;
}
std::vector<std::string> OpDesc::GetOptionalInputNames() const {
  std::vector<std::string> names;
  for (uint32_t i = 0; i < b_->num_inputs_; ++i) {
    if (IsOptionalInput(i)) names.push_back(*b_->ports_[i].name);
  }
  return names;
}

// ---- outputs

Status OpDesc::AddOutputDesc(const GeTensorDesc& desc) {
  return AddPort(Dir::kOutput, absl::StrCat("__output", GetOutputsSize()), desc, false);
}
Status OpDesc::AddOutputDesc(const std::string& name, const GeTensorDesc& desc) {
  return AddPort(Dir::kOutput, name, desc, false);
}
Status OpDesc::AddDynamicOutputDesc(const std::string& name, uint32_t num, bool is_push_back) {
  return InsertPorts(Dir::kOutput, name, num, is_push_back ? GetOutputsSize() : 0, true);
}
Status OpDesc::AddOutputDescMiddle(const std::string& name, uint32_t num, size_t index) {
  return InsertPorts(Dir::kOutput, name, num, index, true);
}
Status OpDesc::AddOutputDescForward(const std::string& name, uint32_t num) {
  return InsertPorts(Dir::kOutput, name, num, 0, true);
}
Status OpDesc::UpdateOutputDesc(uint32_t index, const GeTensorDesc& desc) {
  return UpdatePort(Dir::kOutput, index, desc);
}
Status OpDesc::UpdateOutputDesc(const std::string& name, const GeTensorDesc& desc) {
  const int32_t index = FindPort(Dir::kOutput, name);
  if (index < 0) return NotFound("op ", DebugString(), " has no output named '", name, "'");
  return UpdatePort(Dir::kOutput, static_cast<uint32_t>(index), desc);
}
Status OpDesc::RemoveOutputDesc(uint32_t index) { return RemovePort(Dir::kOutput, index); }

GeTensorDesc OpDesc::GetOutputDesc(uint32_t index) const {
  return index < GetOutputsSize() ? DescAt(b_->num_inputs_ + index) : GeTensorDesc();
}
GeTensorDesc OpDesc::GetOutputDesc(const std::string& name) const {
  const int32_t index = FindPort(Dir::kOutput, name);
  return index < 0 ? GeTensorDesc() : DescAt(b_->num_inputs_ + static_cast<size_t>(index));
}
GeTensorDescPtr OpDesc::MutableOutputDesc(uint32_t index) const {
  return index < GetOutputsSize() ? DescPtr(OwnDescAt(b_->num_inputs_ + index)) : nullptr;
}
GeTensorDescPtr OpDesc::MutableOutputDesc(const std::string& name) const {
  const int32_t index = FindPort(Dir::kOutput, name);
  return index < 0 ? nullptr : DescPtr(OwnDescAt(b_->num_inputs_ + static_cast<size_t>(index)));
}
const GeTensorDesc* OpDesc::GetOutputDescBarePtr(uint32_t index) const {
  return index < GetOutputsSize() ? OwnDescAt(b_->num_inputs_ + index) : nullptr;
}
const GeTensorDesc* OpDesc::PeekOutputDesc(uint32_t index) const {
  return index < GetOutputsSize() ? &DescAt(b_->num_inputs_ + index) : nullptr;
}
std::vector<GeTensorDesc> OpDesc::GetAllOutputsDesc() const {
  std::vector<GeTensorDesc> descs;
  descs.reserve(GetOutputsSize());
  for (size_t i = b_->num_inputs_; i < b_->ports_.size(); ++i) descs.push_back(DescAt(i));
  return descs;
}
std::vector<GeTensorDescPtr> OpDesc::GetAllOutputsDescPtr() const {
  std::vector<GeTensorDescPtr> descs;
  descs.reserve(GetOutputsSize());
  for (size_t i = b_->num_inputs_; i < b_->ports_.size(); ++i)
    descs.push_back(DescPtr(OwnDescAt(i)));
  return descs;
}
int32_t OpDesc::GetOutputIndexByName(const std::string& name) const {
  return FindPort(Dir::kOutput, name);
}
std::string OpDesc::GetOutputNameByIndex(uint32_t index) const {
  return index < GetOutputsSize() ? *PortAt(Dir::kOutput, index).name : std::string();
}
const std::string* OpDesc::GetOutputNamePtr(uint32_t index) const {
  return index < GetOutputsSize() ? PortAt(Dir::kOutput, index).name : nullptr;
}
std::map<std::string, uint32_t> OpDesc::GetAllOutputName() const {
  return NameIndexMap(Dir::kOutput);
}
std::vector<std::string> OpDesc::GetAllOutputNames() const { return Names(Dir::kOutput); }
Status OpDesc::UpdateOutputName(const std::map<std::string, uint32_t>& output_name_idx) {
  return UpdateNames(Dir::kOutput, output_name_idx);
}

// ------------------------------------------------------------- IR metadata

namespace {
template <typename Vec>
bool HasName(const Vec& v, const std::string& name) {
  for (const auto& e : v) {
    if (e.first == name) return true;
  }
  return false;
}

template <typename T>
const std::vector<T>& EmptyVector() {
  static const std::vector<T>* const kEmpty = new std::vector<T>();
  return *kEmpty;
}
}  // namespace

Status OpDesc::AppendIrInput(const std::string& name, IrInputType type) {
  if (name.empty()) return ParamInvalid("op ", DebugString(), ": IR input name must not be empty");
  if (b_->ir_meta_ != nullptr && HasName(b_->ir_meta_->inputs, name)) {
    return AlreadyExists("op ", DebugString(), " already has an IR input named '", name, "'");
  }
  MutableIrMeta().inputs.emplace_back(name, type);
  return OkStatus();
}
Status OpDesc::AppendIrOutput(const std::string& name, IrOutputType type) {
  if (name.empty()) return ParamInvalid("op ", DebugString(), ": IR output name must not be empty");
  if (b_->ir_meta_ != nullptr && HasName(b_->ir_meta_->outputs, name)) {
    return AlreadyExists("op ", DebugString(), " already has an IR output named '", name, "'");
  }
  MutableIrMeta().outputs.emplace_back(name, type);
  return OkStatus();
}
const std::vector<std::pair<std::string, IrInputType>>& OpDesc::GetIrInputs() const {
  return b_->ir_meta_ == nullptr ? EmptyVector<std::pair<std::string, IrInputType>>()
                                 : b_->ir_meta_->inputs;
}
const std::vector<std::pair<std::string, IrOutputType>>& OpDesc::GetIrOutputs() const {
  return b_->ir_meta_ == nullptr ? EmptyVector<std::pair<std::string, IrOutputType>>()
                                 : b_->ir_meta_->outputs;
}
Status OpDesc::AppendIrAttrName(const std::string& name) {
  if (name.empty()) return ParamInvalid("op ", DebugString(), ": IR attr name must not be empty");
  if (b_->ir_meta_ != nullptr &&
      std::find(b_->ir_meta_->attr_names.begin(), b_->ir_meta_->attr_names.end(), name) !=
          b_->ir_meta_->attr_names.end()) {
    return AlreadyExists("op ", DebugString(), " already has an IR attribute named '", name, "'");
  }
  MutableIrMeta().attr_names.push_back(name);
  return OkStatus();
}
const std::vector<std::string>& OpDesc::GetIrAttrNames() const {
  return b_->ir_meta_ == nullptr ? EmptyVector<std::string>() : b_->ir_meta_->attr_names;
}
Status OpDesc::RegisterSubgraphIrName(const std::string& name, SubgraphType type) {
  if (name.empty()) {
    return ParamInvalid("op ", DebugString(), ": IR subgraph name must not be empty");
  }
  if (b_->ir_meta_ != nullptr && HasName(b_->ir_meta_->subgraphs, name)) {
    return AlreadyExists("op ", DebugString(), " already has an IR subgraph named '", name, "'");
  }
  MutableIrMeta().subgraphs.emplace_back(name, type);
  return OkStatus();
}
const std::vector<std::pair<std::string, SubgraphType>>& OpDesc::GetOrderedSubgraphIrNames() const {
  return b_->ir_meta_ == nullptr ? EmptyVector<std::pair<std::string, SubgraphType>>()
                                 : b_->ir_meta_->subgraphs;
}
std::map<std::string, SubgraphType> OpDesc::GetSubgraphIrNames() const {
  std::map<std::string, SubgraphType> m;
  for (const auto& e : GetOrderedSubgraphIrNames()) m.emplace(e.first, e.second);
  return m;
}
StatusOr<SubgraphType> OpDesc::GetSubgraphTypeByIrName(const std::string& name) const {
  for (const auto& e : GetOrderedSubgraphIrNames()) {
    if (e.first == name) return e.second;
  }
  return NotFound("op ", DebugString(), " has no IR subgraph named '", name, "'");
}

// ---------------------------------------------------------------- subgraphs

Status OpDesc::AddSubgraphName(const std::string& name) {
  if (name.empty()) return ParamInvalid("op ", DebugString(), ": subgraph name must not be empty");
  Ext& ext = MutableExt();
  if (ext.subgraph_name_to_index.count(name) != 0) {
    return AlreadyExists("op ", DebugString(), " already has a subgraph named '", name, "'");
  }
  ext.subgraph_name_to_index.emplace(name,
                                     static_cast<uint32_t>(ext.subgraph_instance_names.size()));
  ext.subgraph_instance_names.emplace_back();
  return OkStatus();
}
std::map<std::string, uint32_t> OpDesc::GetSubgraphNameIndexes() const {
  return b_->ext_ == nullptr ? std::map<std::string, uint32_t>() : b_->ext_->subgraph_name_to_index;
}
StatusOr<std::string> OpDesc::GetSubgraphNameByIndex(uint32_t index) const {
  if (b_->ext_ != nullptr) {
    for (const auto& [name, i] : b_->ext_->subgraph_name_to_index) {
      if (i == index) return name;
    }
  }
  return NotFound("op ", DebugString(), " has no subgraph slot at index ", index);
}
Status OpDesc::SetSubgraphInstanceName(uint32_t index, const std::string& instance_name) {
  const size_t n = b_->ext_ == nullptr ? 0 : b_->ext_->subgraph_instance_names.size();
  if (index >= n) {
    return OutOfRange("op ", DebugString(), ": subgraph index ", index, " is out of range (", n,
                      " subgraph slots)");
  }
  MutableExt().subgraph_instance_names[index] = instance_name;
  return OkStatus();
}
void OpDesc::AddSubgraphInstanceName(const std::string& instance_name) {
  MutableExt().subgraph_instance_names.push_back(instance_name);
}
const std::vector<std::string>& OpDesc::GetSubgraphInstanceNames() const {
  return b_->ext_ == nullptr ? EmptyVector<std::string>() : b_->ext_->subgraph_instance_names;
}
std::string OpDesc::GetSubgraphInstanceName(uint32_t index) const {
  const auto& names = GetSubgraphInstanceNames();
  return index < names.size() ? names[index] : std::string();
}
Status OpDesc::RemoveSubgraphInstanceName(const std::string& instance_name) {
  bool found = false;
  if (!instance_name.empty()) {
    const auto& names = GetSubgraphInstanceNames();
    found = std::find(names.begin(), names.end(), instance_name) != names.end();
  }
  if (found) {
    for (std::string& n : MutableExt().subgraph_instance_names) {
      if (n == instance_name) n.clear();
    }
  }
  if (!found) {
    return NotFound("op ", DebugString(), " has no subgraph instance named '", instance_name, "'");
  }
  return OkStatus();
}
StatusOr<std::string> OpDesc::GetSubgraphNameByInstanceName(
    const std::string& instance_name) const {
  const auto& names = GetSubgraphInstanceNames();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] != instance_name || instance_name.empty()) continue;
    for (const auto& [name, index] : b_->ext_->subgraph_name_to_index) {
      if (index == i) return name;
    }
  }
  return NotFound("op ", DebugString(), " has no subgraph slot bound to instance '", instance_name,
                  "'");
}

// ------------------------------------------------------------ compile state

void OpDesc::SetInputOffset(const std::vector<int64_t>& offsets) {
  MutableExt().input_offsets = offsets;
}
std::vector<int64_t> OpDesc::GetInputOffset() const {
  return b_->ext_ == nullptr ? std::vector<int64_t>() : b_->ext_->input_offsets;
}
void OpDesc::SetOutputOffset(const std::vector<int64_t>& offsets) {
  MutableExt().output_offsets = offsets;
}
std::vector<int64_t> OpDesc::GetOutputOffset() const {
  return b_->ext_ == nullptr ? std::vector<int64_t>() : b_->ext_->output_offsets;
}
void OpDesc::SetWorkspace(const std::vector<int64_t>& workspace) {
  MutableExt().workspace = workspace;
}
std::vector<int64_t> OpDesc::GetWorkspace() const {
  return b_->ext_ == nullptr ? std::vector<int64_t>() : b_->ext_->workspace;
}
void OpDesc::SetWorkspaceBytes(const std::vector<int64_t>& workspace_bytes) {
  MutableExt().workspace_bytes = workspace_bytes;
}
std::vector<int64_t> OpDesc::GetWorkspaceBytes() const {
  return b_->ext_ == nullptr ? std::vector<int64_t>() : b_->ext_->workspace_bytes;
}
void OpDesc::SetOpEngineName(const std::string& name) {
  if (name != *b_->engine_name_) b_->engine_name_ = internal::InternString(name);
}
void OpDesc::SetOpKernelLibName(const std::string& name) {
  if (name != *b_->kernel_lib_name_) b_->kernel_lib_name_ = internal::InternString(name);
}
void OpDesc::SetSrcName(const std::vector<std::string>& names) { MutableExt().src_name = names; }
std::vector<std::string> OpDesc::GetSrcName() const {
  return b_->ext_ == nullptr ? std::vector<std::string>() : b_->ext_->src_name;
}
void OpDesc::SetSrcIndex(const std::vector<int64_t>& indices) { MutableExt().src_index = indices; }
std::vector<int64_t> OpDesc::GetSrcIndex() const {
  return b_->ext_ == nullptr ? std::vector<int64_t>() : b_->ext_->src_index;
}
void OpDesc::SetDstName(const std::vector<std::string>& names) { MutableExt().dst_name = names; }
std::vector<std::string> OpDesc::GetDstName() const {
  return b_->ext_ == nullptr ? std::vector<std::string>() : b_->ext_->dst_name;
}
void OpDesc::SetDstIndex(const std::vector<int64_t>& indices) { MutableExt().dst_index = indices; }
std::vector<int64_t> OpDesc::GetDstIndex() const {
  return b_->ext_ == nullptr ? std::vector<int64_t>() : b_->ext_->dst_index;
}
void OpDesc::SetIsInputConst(const std::vector<bool>& is_input_const) {
  MutableExt().is_input_const = is_input_const;
}
std::vector<bool> OpDesc::GetIsInputConst() const {
  return b_->ext_ == nullptr ? std::vector<bool>() : b_->ext_->is_input_const;
}

// ----------------------------------------------------------- function slots

namespace {
const OpDesc::InferShapeFunc& EmptyFunc() {
  static const OpDesc::InferShapeFunc* const kEmpty = new OpDesc::InferShapeFunc();
  return *kEmpty;
}
}  // namespace

void OpDesc::SetInferFunc(InferShapeFunc func) { MutableExt().infer_func = std::move(func); }
const OpDesc::InferShapeFunc& OpDesc::GetInferFunc() const {
  return b_->ext_ == nullptr ? EmptyFunc() : b_->ext_->infer_func;
}
bool OpDesc::HasInferFunc() const { return b_->ext_ != nullptr && b_->ext_->infer_func != nullptr; }
Status OpDesc::CallInferFunc() {
  if (!HasInferFunc()) return NotFound("op ", DebugString(), " has no infer-shape function");
  // Copy: the function may replace itself through this OpDesc.
  InferShapeFunc func = b_->ext_->infer_func;
  return func(*this);
}
void OpDesc::SetInferFormatFunc(InferFormatFunc func) {
  MutableExt().infer_format_func = std::move(func);
}
const OpDesc::InferFormatFunc& OpDesc::GetInferFormatFunc() const {
  return b_->ext_ == nullptr ? EmptyFunc() : b_->ext_->infer_format_func;
}
bool OpDesc::HasInferFormatFunc() const {
  return b_->ext_ != nullptr && b_->ext_->infer_format_func != nullptr;
}
Status OpDesc::CallInferFormatFunc() {
  if (!HasInferFormatFunc()) return NotFound("op ", DebugString(), " has no infer-format function");
  InferFormatFunc func = b_->ext_->infer_format_func;
  return func(*this);
}
void OpDesc::SetVerifyFunc(VerifyFunc func) { MutableExt().verify_func = std::move(func); }
const OpDesc::VerifyFunc& OpDesc::GetVerifyFunc() const {
  return b_->ext_ == nullptr ? EmptyFunc() : b_->ext_->verify_func;
}
bool OpDesc::HasVerifyFunc() const {
  return b_->ext_ != nullptr && b_->ext_->verify_func != nullptr;
}
Status OpDesc::CallVerifyFunc() {
  if (!HasVerifyFunc()) return NotFound("op ", DebugString(), " has no verify function");
  VerifyFunc func = b_->ext_->verify_func;
  return func(*this);
}

}  // namespace ge
