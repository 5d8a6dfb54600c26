// graph/inc/graph/op_desc.h
//
// OpDesc: the operator descriptor of the AscendIR graph (seed 000, section 4):
// name, type, input / output tensor descriptions addressable by index and by
// name, attributes, IR metadata, subgraph instance names, the compile-state
// fields that later stages fill in, and the infer / verify function slots.
//
// Ports
//   * Inputs and outputs are ordered slots; each slot has a GeTensorDesc
//     owned by the OpDesc and a port name unique among the inputs (resp.
//     outputs). AddInputDesc without a name uses "__input<index>"
//     ("__output<index>" for outputs).
//   * Descriptions are stable: a GeTensorDescPtr keeps pointing at the same
//     description when other slots are added, inserted or removed, and a
//     removed description stays valid until the OpDesc dies. A
//     GeTensorDescPtr shares ownership of the OpDesc (it keeps it alive)
//     when the OpDesc is owned by a shared_ptr; for an OpDesc on the stack
//     it is a non-owning pointer.
//   * Storage: equal descriptions added in a row (the same desc added to
//     many ports / ops, as parsers and deserialization do) and the ports of
//     a copied OpDesc share one pooled object copy-on-write. Sharing is
//     invisible: the first pointer handed out for a port (Mutable*Desc,
//     Get*DescPtr, Get*DescBarePtr, GetAll*DescPtr) gives the port its own
//     description first and pins it there. Peek*Desc reads without pinning
//     (for bulk readers such as serialization and the sorts): its pointer is
//     valid only until the next change to, or pointer handed out by, any
//     OpDesc.
//   * AddDynamicInputDesc("x", 3) adds x0, x1, x2. AddInputDescMiddle /
//     AddInputDescForward insert slots and shift the later ones: the name ->
//     index map is renumbered, the names stay with their descriptions.
//   * An optional input is a slot flagged optional (AddOptionalInputDesc). A
//     slot whose desc is invalid (DT_UNDEFINED + FORMAT_RESERVED) is an
//     absent optional input: it counts in GetAllInputsSize() but not in
//     GetInputsSize() / GetAllInputsDesc().
//   * UpdateInputName replaces names (e.g. the op factory's IR names over the
//     parser's names) without touching indices or descriptions.
//
// IR metadata (from the op registry, shared copy-on-write between instances):
// IR input / output names with their kind (required / optional / dynamic),
// IR attribute names, IR subgraph names with their kind (static / dynamic).
//
// Subgraphs: AddSubgraphName(ir_name) registers an IR subgraph slot and
// appends an empty instance name; SetSubgraphInstanceName(index, name) binds
// the slot to a graph registered at the root ComputeGraph under that name.
//
// Compile state: id (topological position), stream id, input / output
// offsets, workspace offsets and bytes, engine name, kernel lib name, source
// / destination names and indices, is-input-const flags.
//
// Storage: the OpDesc object itself is small (attributes, the shared_ptr
// bookkeeping and one pointer); its state lives in a body taken from the
// graph layer's small-object pool, so std::make_shared<OpDesc> puts little
// on the malloc heap and costs about as much as OpDesc::Create.
//
// Functions: InferShapeFunc / InferFormatFunc / VerifyFunc are
// std::function<Status(OpDesc&)>; the op library (layer 3) installs them, the
// graph layer only stores and calls them. Call* on an empty slot is NotFound.
//
// All errors are Status values naming the op, the index or the name.
//
// Example
//   auto op = OpDesc::Create("conv1", "Conv2D");   // or std::make_shared<OpDesc>
//   RETURN_IF_ERROR(op->AddInputDesc("x", GeTensorDesc(GeShape({1, 3, 8, 8}))));
//   RETURN_IF_ERROR(op->AddDynamicInputDesc("w", 2));          // w0, w1
//   RETURN_IF_ERROR(op->AddOutputDesc("y", GeTensorDesc()));
//   op->GetInputIndexByName("w1") == 2;
#ifndef GRAPH_INC_GRAPH_OP_DESC_H_
#define GRAPH_INC_GRAPH_OP_DESC_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/graph_fwd.h"
#include "graph/inc/graph/pool_allocator.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// Kind of an IR input / output.
enum IrInputType : int32_t { kIrInputRequired = 0, kIrInputOptional = 1, kIrInputDynamic = 2 };
enum IrOutputType : int32_t { kIrOutputRequired = 0, kIrOutputDynamic = 2 };
// Kind of an IR subgraph: one instance, or a dynamic number (name0, name1, ...).
enum SubgraphType : int32_t { kStatic = 0, kDynamic = 1 };

// Increments whenever the id of an OpDesc that belongs to a node is set
// (or a node gets another OpDesc); a graph's topological sort uses it to
// know that the ids still equal the positions it gave them, without
// reading every OpDesc.
uint64_t GetOpDescIdEpoch();
void BumpOpDescIdEpoch();

class OpDesc : public AttrHolder, public std::enable_shared_from_this<OpDesc> {
 public:
  using InferShapeFunc = std::function<Status(OpDesc&)>;
  using InferFormatFunc = std::function<Status(OpDesc&)>;
  using VerifyFunc = std::function<Status(OpDesc&)>;

  OpDesc();
  OpDesc(const std::string& name, const std::string& type);
  // Shared OpDescs whose object and control block live in the graph layer's
  // small-object pool (pool_allocator.h): same as std::make_shared<OpDesc>
  // but cheaper in time and memory for large graphs. Prefer these when
  // building graphs in bulk (parsers, deserialization, graph copies).
  static OpDescPtr Create(const std::string& name, const std::string& type);
  static OpDescPtr Create(const OpDesc& other);  // deep copy
  // Deep copy: new GeTensorDesc objects, attributes, compile state, function
  // slots. IR metadata and the extension state (function slots, subgraph
  // names, compile-state vectors) are shared copy-on-write: copying a
  // prototype op costs no std::function / map / vector copies until one
  // side writes such a field.
  OpDesc(const OpDesc& other);
  OpDesc& operator=(const OpDesc& other);
  ~OpDesc();

  // ---- identity
  const std::string& GetName() const { return b_->name_; }
  void SetName(const std::string& name);
  // Types are interned (one copy per distinct type in the process): equal
  // types have equal GetInternedType() pointers.
  const std::string& GetType() const { return *b_->type_; }
  const std::string* GetInternedType() const { return b_->type_; }
  void SetType(const std::string& type);

  // ---- inputs
  Status AddInputDesc(const GeTensorDesc& desc);  // named "__input<index>"
  Status AddInputDesc(const std::string& name, const GeTensorDesc& desc);
  Status AddOptionalInputDesc(const std::string& name, const GeTensorDesc& desc);
  // Appends name0..name{num-1} (default descs).
  Status AddDynamicInputDesc(const std::string& name, uint32_t num, bool is_push_back = true);
  // Inserts name0..name{num-1} before input `index` (index <= size).
  Status AddDynamicInputDescByIndex(const std::string& name, uint32_t num, size_t index);
  Status AddInputDescMiddle(const std::string& name, uint32_t num, size_t index);
  Status AddInputDescForward(const std::string& name, uint32_t num);
  Status UpdateInputDesc(uint32_t index, const GeTensorDesc& desc);
  Status UpdateInputDesc(const std::string& name, const GeTensorDesc& desc);
  // Removes input `index`, shifting the later ones.
  Status RemoveInputDesc(uint32_t index);

  bool InputIsSet(const std::string& name) const;
  // A copy of the desc; a default desc when index is out of range.
  GeTensorDesc GetInputDesc(uint32_t index) const;
  GeTensorDesc GetInputDesc(const std::string& name) const;
  // nullptr when out of range / absent.
  GeTensorDescPtr MutableInputDesc(uint32_t index) const;
  GeTensorDescPtr MutableInputDesc(const std::string& name) const;
  ConstGeTensorDescPtr GetInputDescPtr(uint32_t index) const { return MutableInputDesc(index); }
  const GeTensorDesc* GetInputDescBarePtr(uint32_t index) const;
  // A transient read-only view (see the file comment); nullptr when out of
  // range.
  const GeTensorDesc* PeekInputDesc(uint32_t index) const;
  // Valid inputs only (see IsValid).
  std::vector<GeTensorDesc> GetAllInputsDesc() const;
  std::vector<GeTensorDescPtr> GetAllInputsDescPtr() const;
  size_t GetInputsSize() const;                                // valid inputs
  size_t GetAllInputsSize() const { return b_->num_inputs_; }  // every slot

  // -1 when absent.
  int32_t GetInputIndexByName(const std::string& name) const;
  // "" when out of range.
  std::string GetInputNameByIndex(uint32_t index) const;
  const std::string* GetInputNamePtr(uint32_t index) const;
  std::map<std::string, uint32_t> GetAllInputName() const;
  std::vector<std::string> GetAllInputNames() const;  // in index order
  // Renames inputs: every entry is name -> existing index; other indices
  // keep their names; the result must stay unique. Nothing changes on error.
  Status UpdateInputName(const std::map<std::string, uint32_t>& input_name_idx);
  bool IsOptionalInput(const std::string& name) const;
  bool IsOptionalInput(uint32_t index) const;
  std::vector<std::string> GetOptionalInputNames() const;

  // ---- outputs
  Status AddOutputDesc(const GeTensorDesc& desc);  // named "__output<index>"
  Status AddOutputDesc(const std::string& name, const GeTensorDesc& desc);
  Status AddDynamicOutputDesc(const std::string& name, uint32_t num, bool is_push_back = true);
  Status AddOutputDescMiddle(const std::string& name, uint32_t num, size_t index);
  Status AddOutputDescForward(const std::string& name, uint32_t num);
  Status UpdateOutputDesc(uint32_t index, const GeTensorDesc& desc);
  Status UpdateOutputDesc(const std::string& name, const GeTensorDesc& desc);
  Status RemoveOutputDesc(uint32_t index);

  GeTensorDesc GetOutputDesc(uint32_t index) const;
  GeTensorDesc GetOutputDesc(const std::string& name) const;
  GeTensorDescPtr MutableOutputDesc(uint32_t index) const;
  GeTensorDescPtr MutableOutputDesc(const std::string& name) const;
  ConstGeTensorDescPtr GetOutputDescPtr(uint32_t index) const { return MutableOutputDesc(index); }
  const GeTensorDesc* GetOutputDescBarePtr(uint32_t index) const;
  const GeTensorDesc* PeekOutputDesc(uint32_t index) const;  // see PeekInputDesc
  std::vector<GeTensorDesc> GetAllOutputsDesc() const;
  std::vector<GeTensorDescPtr> GetAllOutputsDescPtr() const;
  size_t GetOutputsSize() const { return b_->ports_.size() - b_->num_inputs_; }
  size_t GetAllOutputsDescSize() const { return b_->ports_.size() - b_->num_inputs_; }

  int32_t GetOutputIndexByName(const std::string& name) const;
  std::string GetOutputNameByIndex(uint32_t index) const;
  const std::string* GetOutputNamePtr(uint32_t index) const;
  std::map<std::string, uint32_t> GetAllOutputName() const;
  std::vector<std::string> GetAllOutputNames() const;
  Status UpdateOutputName(const std::map<std::string, uint32_t>& output_name_idx);

  // ---- IR metadata
  Status AppendIrInput(const std::string& name, IrInputType type);
  Status AppendIrOutput(const std::string& name, IrOutputType type);
  // GE spellings.
  Status RegisterIrInput(const std::string& name, IrInputType type) {
    return AppendIrInput(name, type);
  }
  Status RegisterIrOutput(const std::string& name, IrOutputType type) {
    return AppendIrOutput(name, type);
  }
  const std::vector<std::pair<std::string, IrInputType>>& GetIrInputs() const;
  const std::vector<std::pair<std::string, IrOutputType>>& GetIrOutputs() const;
  Status AppendIrAttrName(const std::string& name);
  const std::vector<std::string>& GetIrAttrNames() const;
  // IR subgraph names in registration order.
  Status RegisterSubgraphIrName(const std::string& name, SubgraphType type);
  const std::vector<std::pair<std::string, SubgraphType>>& GetOrderedSubgraphIrNames() const;
  std::map<std::string, SubgraphType> GetSubgraphIrNames() const;
  StatusOr<SubgraphType> GetSubgraphTypeByIrName(const std::string& name) const;
  // The IR metadata is shared between instances copied from one prototype.
  bool SharesIrMetaWith(const OpDesc& other) const {
    return b_->ir_meta_ != nullptr && b_->ir_meta_ == other.b_->ir_meta_;
  }
  // Replaces this op's IR metadata by other's, shared copy-on-write (bulk
  // builders give every op of a type one copy).
  void ShareIrMetaFrom(const OpDesc& other);

  // ---- subgraphs
  // Registers an IR subgraph slot name -> next index, appends "" instance.
  Status AddSubgraphName(const std::string& name);
  std::map<std::string, uint32_t> GetSubgraphNameIndexes() const;
  // Name of the slot at index; NotFound when none.
  StatusOr<std::string> GetSubgraphNameByIndex(uint32_t index) const;
  Status SetSubgraphInstanceName(uint32_t index, const std::string& instance_name);
  void AddSubgraphInstanceName(const std::string& instance_name);
  const std::vector<std::string>& GetSubgraphInstanceNames() const;
  // "" when out of range.
  std::string GetSubgraphInstanceName(uint32_t index) const;
  // Clears (sets to "") every slot bound to instance_name; NotFound if none.
  Status RemoveSubgraphInstanceName(const std::string& instance_name);
  // IR slot name of an instance; NotFound when the instance is not bound.
  StatusOr<std::string> GetSubgraphNameByInstanceName(const std::string& instance_name) const;

  // ---- compile state
  int64_t GetId() const { return b_->id_; }
  void SetId(int64_t id) {
    b_->id_ = id;
    if (b_->attached_to_node_) BumpOpDescIdEpoch();
  }
  int64_t GetStreamId() const { return b_->stream_id_; }
  void SetStreamId(int64_t stream_id) { b_->stream_id_ = stream_id; }
  void SetInputOffset(const std::vector<int64_t>& offsets);
  std::vector<int64_t> GetInputOffset() const;
  void SetOutputOffset(const std::vector<int64_t>& offsets);
  std::vector<int64_t> GetOutputOffset() const;
  void SetWorkspace(const std::vector<int64_t>& workspace);
  std::vector<int64_t> GetWorkspace() const;
  void SetWorkspaceBytes(const std::vector<int64_t>& workspace_bytes);
  std::vector<int64_t> GetWorkspaceBytes() const;
  // Engine and kernel lib names are set on every op of a compiled graph:
  // they live inline (interned) and never create the extension state.
  void SetOpEngineName(const std::string& name);
  const std::string& GetOpEngineName() const { return *b_->engine_name_; }
  void SetOpKernelLibName(const std::string& name);
  const std::string& GetOpKernelLibName() const { return *b_->kernel_lib_name_; }
  void SetSrcName(const std::vector<std::string>& names);
  std::vector<std::string> GetSrcName() const;
  void SetSrcIndex(const std::vector<int64_t>& indices);
  std::vector<int64_t> GetSrcIndex() const;
  void SetDstName(const std::vector<std::string>& names);
  std::vector<std::string> GetDstName() const;
  void SetDstIndex(const std::vector<int64_t>& indices);
  std::vector<int64_t> GetDstIndex() const;
  void SetIsInputConst(const std::vector<bool>& is_input_const);
  std::vector<bool> GetIsInputConst() const;
  // False while no compile-state (other than id, stream id, engine and
  // kernel lib names, which live inline), subgraph, optional-input or
  // function field was ever written: then every accessor of those returns an
  // empty value (serialization skips them all). True once one was written,
  // even if it was set back to empty. An OpDesc copied from one with
  // extension state has it too (shared copy-on-write, see the constructor).
  bool HasExtState() const { return b_->ext_ != nullptr; }

  // ---- bulk building
  // Makes room for `count` more ports (inputs + outputs) in one allocation;
  // a hint for parsers and deserialization, no observable effect.
  void ReservePorts(size_t count);

  // ---- function slots
  void SetInferFunc(InferShapeFunc func);
  const InferShapeFunc& GetInferFunc() const;
  bool HasInferFunc() const;
  Status CallInferFunc();
  void SetInferFormatFunc(InferFormatFunc func);
  const InferFormatFunc& GetInferFormatFunc() const;
  bool HasInferFormatFunc() const;
  Status CallInferFormatFunc();
  void SetVerifyFunc(VerifyFunc func);
  const VerifyFunc& GetVerifyFunc() const;
  bool HasVerifyFunc() const;
  Status CallVerifyFunc();

  std::string DebugString() const;  // "name(type)"

 private:
  friend class Node;
  friend class ComputeGraph;  // prefetching in the topological sort
  // A pooled, reference-counted description, shared copy-on-write between
  // ports until pinned (see the file comment and op_desc.cc).
  struct DescBlock;
  // 16 bytes: the desc is pooled (one reference to `block`, accessed
  // atomically), the name interned (names repeat across ops).
  struct Port {
    DescBlock* block;
    const std::string* name;
  };
  struct IrMeta;
  struct Ext;

  enum class Dir { kInput, kOutput };
  size_t Begin(Dir dir) const { return dir == Dir::kInput ? 0 : b_->num_inputs_; }
  size_t Count(Dir dir) const {
    return dir == Dir::kInput ? b_->num_inputs_ : b_->ports_.size() - b_->num_inputs_;
  }
  const Port& PortAt(Dir dir, size_t i) const { return b_->ports_[Begin(dir) + i]; }
  Port& PortAt(Dir dir, size_t i) { return b_->ports_[Begin(dir) + i]; }
  int32_t FindPort(Dir dir, absl::string_view name) const;
  Status AddPort(Dir dir, const std::string& name, const GeTensorDesc& desc, bool optional);
  Status InsertPorts(Dir dir, const std::string& name, uint32_t num, size_t index, bool numbered);
  Status UpdatePort(Dir dir, uint32_t index, const GeTensorDesc& desc);
  Status UpdateNames(Dir dir, const std::map<std::string, uint32_t>& name_idx);
  Status RemovePort(Dir dir, uint32_t index);
  const char* DirName(Dir dir) const { return dir == Dir::kInput ? "input" : "output"; }
  std::map<std::string, uint32_t> NameIndexMap(Dir dir) const;
  std::vector<std::string> Names(Dir dir) const;
  // Grows ports_ tightly (ops have few ports).
  void ReserveFor(size_t more);
  void SetOptional(size_t input_index, bool optional);
  // A GeTensorDescPtr aliasing this OpDesc (owning when shared).
  GeTensorDescPtr DescPtr(GeTensorDesc* desc) const;
  // The description of ports_[pos] for reading (never unshares).
  const GeTensorDesc& DescAt(size_t pos) const;
  // The port's own description: unshares it if shared, pins it.
  GeTensorDesc* OwnDescAt(size_t pos) const;
  // Drops the port's reference (keeping pinned descriptions alive in Ext).
  void RetirePort(Port& port);

  Ext& MutableExt();        // creates or unshares
  IrMeta& MutableIrMeta();  // unshares

  // The state of an OpDesc, pooled (see the file comment). Constructors and
  // destructor are defined in op_desc.cc, where IrMeta and Ext are complete.
  struct Body {
    Body(const std::string& name, const std::string* type);
    ~Body();
    Body(const Body&) = delete;
    Body& operator=(const Body&) = delete;
    // First what a topological sort reads (the type of a source node, the
    // id when it may not match; the memory-priority sorts the ports and the
    // name of every node): a 1M-node sort is bound by the lines it touches.
    const std::string* type_;  // interned
    int64_t id_ = 0;
    uint32_t num_inputs_ = 0;
    // Set once a Node holds this OpDesc; renames then invalidate name
    // indexes.
    bool attached_to_node_ = false;
    // ports_[0, num_inputs_) are the inputs, the rest are the outputs.
    // Const accessors that hand out pointers unshare descriptions through
    // the (non-const) body pointer.
    std::vector<Port, internal::PoolStdAllocator<Port>> ports_;
    std::string name_;
    int64_t stream_id_ = 0;
    const std::string* engine_name_;      // interned
    const std::string* kernel_lib_name_;  // interned
    std::shared_ptr<IrMeta> ir_meta_;     // copy-on-write
    std::shared_ptr<Ext> ext_;            // lazily allocated; copy-on-write
  };
  Body* b_;  // never null; owned

  // DescAt from a body alone (the topological sort reads bodies through
  // Node's cached pointer, without the OpDesc object's cache line).
  static const GeTensorDesc& BodyDescAt(const Body& body, size_t pos);
};

// Increments whenever an OpDesc that belongs to a node is renamed (or a node
// gets another OpDesc); graphs use it to invalidate their name -> node index.
uint64_t GetOpDescRenameEpoch();
void BumpOpDescRenameEpoch();

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_OP_DESC_H_
