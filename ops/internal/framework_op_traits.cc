// ops/internal/framework_op_traits.cc
//
// Traits of op types this library does not define but a graph may carry
// (TensorFlow-style variables and assignment, collective communication,
// host printing, further stream / label control, random ops, dynamic-shape
// ops of other front ends): REG_OP_TRAITS declarations, which OpTraitsOf
// answers for and which are not ops (no factory, no infer, no kernel).
// A library that defines one of these types with REG_OP owns its traits.
#include "metadef/register/inc/register/op_registry.h"

namespace ops {
namespace {

// ------------------------------------------------------------ side effects

// Collective communication.
REG_OP_TRAITS(HcomAllReduce).SideEffect();
REG_OP_TRAITS(HcomAllGather).SideEffect();
REG_OP_TRAITS(HcomBroadcast).SideEffect();
REG_OP_TRAITS(HcomReduceScatter).SideEffect();
REG_OP_TRAITS(HcomSend).SideEffect();
REG_OP_TRAITS(HcomReceive).SideEffect();
REG_OP_TRAITS(HcomAllToAllV).SideEffect();

// State: variables hold it, assignment writes it.
REG_OP_TRAITS(Variable).SideEffect();
REG_OP_TRAITS(VariableV2).SideEffect();
REG_OP_TRAITS(VarHandleOp).SideEffect();
REG_OP_TRAITS(Assign).SideEffect();
REG_OP_TRAITS(AssignAdd).SideEffect();
REG_OP_TRAITS(AssignSub).SideEffect();
REG_OP_TRAITS(AssignVariableOp).SideEffect();
REG_OP_TRAITS(ScatterUpdate).SideEffect();

// Host I/O.
REG_OP_TRAITS(Print).SideEffect();
REG_OP_TRAITS(PrintV2).SideEffect();
REG_OP_TRAITS(Assert).SideEffect();

// Stream / label control.
REG_OP_TRAITS(StreamSwitchN).SideEffect();
REG_OP_TRAITS(LabelGotoEx).SideEffect();

// ------------------------------------------------------------ random

REG_OP_TRAITS(RandomStandardNormal).Random();
REG_OP_TRAITS(TruncatedNormal).Random();
REG_OP_TRAITS(RandomShuffle).Random();
REG_OP_TRAITS(DropOutGenMask).Random();
REG_OP_TRAITS(DropOutDoMask).Random();

// ------------------------------------------------------------ data-dependent output shapes

REG_OP_TRAITS(StringSplit).DataDependentOutputShape();
REG_OP_TRAITS(TopKV2Dynamic).DataDependentOutputShape();
REG_OP_TRAITS(RegexFullMatch).DataDependentOutputShape();
REG_OP_TRAITS(StringConcat).DataDependentOutputShape();
REG_OP_TRAITS(While).DataDependentOutputShape();
REG_OP_TRAITS(Case).DataDependentOutputShape();

}  // namespace
}  // namespace ops
