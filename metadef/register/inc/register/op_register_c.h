/* metadef/register/inc/register/op_register_c.h
 *
 * C interface to op registration (seed 003: "C接口层", for ops written in
 * plain C). A C caller builds a registration step by step and commits it to
 * the same OpRegistry that REG_OP uses; the C++ side then finds the op like
 * any other (OperatorFactory, InferShapeAndTypeForOpDesc, kernels).
 *
 * Kernels and infer functions are C function pointers with a user pointer:
 *   int kernel(const GeCTensor* inputs, size_t n_in,
 *              GeCTensor* outputs, size_t n_out, void* user);
 * Return 0 on success; any other value fails the call (the C++ status names
 * the node and the value). Inputs follow the node's input slots; an absent
 * optional input has data == NULL and dtype DT_UNDEFINED (28). Kernel outputs
 * arrive allocated (shape, dtype, data, size set); the kernel fills data.
 * An infer function sees input shapes / dtypes (data only when the value is
 * known) and sets each output's shape and dtype (pre-set to input 0's dtype).
 * While a kernel runs, GeCKernelGetAttr* read the node's attributes.
 *
 * Every function returns 0 on success or a nonzero GE error code
 * (ge::ErrorCode, e.g. 145000 PARAM_INVALID); GeCGetLastError() returns the
 * calling thread's last error message. A builder with an error is poisoned:
 * GeCOpRegCommit reports the first error and registers nothing.
 *
 * Example
 *   const int32_t f32[] = {0};  // DT_FLOAT
 *   GeCOpReg* reg = GeCOpRegCreate("CScale");
 *   GeCOpRegAddInput(reg, "x", GE_C_IO_REQUIRED, f32, 1);
 *   GeCOpRegAddOutput(reg, "y", GE_C_IO_REQUIRED, f32, 1);
 *   GeCOpRegAddAttrFloat(reg, "scale", 1.0f);
 *   GeCOpRegSetInferShape(reg, InferSame, NULL);
 *   GeCOpRegSetKernel(reg, NULL, ScaleKernel, NULL);   // host CPU engine
 *   if (GeCOpRegCommit(reg) != 0) puts(GeCGetLastError());
 */
#ifndef METADEF_REGISTER_INC_REGISTER_OP_REGISTER_C_H_
#define METADEF_REGISTER_INC_REGISTER_OP_REGISTER_C_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GE_C_MAX_DIMS 25

typedef enum GeCIoKind {
  GE_C_IO_REQUIRED = 0,
  GE_C_IO_OPTIONAL = 1, /* inputs only */
  GE_C_IO_DYNAMIC = 2
} GeCIoKind;

/* Attribute value types (ge::AttrValue::ValueType numbering). */
typedef enum GeCAttrType {
  GE_C_ATTR_STRING = 1,
  GE_C_ATTR_FLOAT = 2,
  GE_C_ATTR_BOOL = 3,
  GE_C_ATTR_INT = 4,
  GE_C_ATTR_DATA_TYPE = 11,
  GE_C_ATTR_LIST_FLOAT = 1002,
  GE_C_ATTR_LIST_INT = 1004
} GeCAttrType;

typedef struct GeCShape {
  size_t dim_num; /* 0 = scalar */
  int64_t dims[GE_C_MAX_DIMS];
} GeCShape;

typedef struct GeCTensor {
  int32_t dtype; /* a ge::DataType value */
  GeCShape shape;
  void* data;  /* NULL: absent (or value unknown in an infer function) */
  size_t size; /* bytes at data */
} GeCTensor;

typedef int (*GeCKernelFn)(const GeCTensor* inputs, size_t n_in, GeCTensor* outputs, size_t n_out,
                           void* user);
typedef int (*GeCInferShapeFn)(const GeCTensor* inputs, size_t n_in, GeCTensor* outputs,
                               size_t n_out, void* user);

typedef struct GeCOpReg GeCOpReg; /* opaque builder */

/* NULL (with the last error set) for a NULL or empty type. */
GeCOpReg* GeCOpRegCreate(const char* op_type);
/* dtypes: ge::DataType values (n_dtypes >= 1). */
int GeCOpRegAddInput(GeCOpReg* reg, const char* name, GeCIoKind kind, const int32_t* dtypes,
                     size_t n_dtypes);
int GeCOpRegAddOutput(GeCOpReg* reg, const char* name, GeCIoKind kind, const int32_t* dtypes,
                      size_t n_dtypes);
int GeCOpRegAddAttrInt(GeCOpReg* reg, const char* name, int64_t default_value);
int GeCOpRegAddAttrFloat(GeCOpReg* reg, const char* name, float default_value);
int GeCOpRegAddAttrBool(GeCOpReg* reg, const char* name, int default_value);
int GeCOpRegAddAttrString(GeCOpReg* reg, const char* name, const char* default_value);
int GeCOpRegAddRequiredAttr(GeCOpReg* reg, const char* name, GeCAttrType type);
int GeCOpRegSetInferShape(GeCOpReg* reg, GeCInferShapeFn fn, void* user);
/* engine: NULL = the host CPU engine ("DNN_VM_HOST_CPU"). */
int GeCOpRegSetKernel(GeCOpReg* reg, const char* engine, GeCKernelFn fn, void* user);
int GeCOpRegSetPriority(GeCOpReg* reg, int32_t priority);
/* Traits (ge::OpTraits): GE_C_TRAIT_* bits, ORed into what is set. */
#define GE_C_TRAIT_SIDE_EFFECT 1u                 /* kOpTraitSideEffect */
#define GE_C_TRAIT_RANDOM 2u                      /* kOpTraitRandom */
#define GE_C_TRAIT_DATA_DEPENDENT_OUTPUT_SHAPE 4u /* kOpTraitDataDependentOutputShape */
int GeCOpRegAddTraits(GeCOpReg* reg, uint32_t traits);
/* The infer function reads the value of the input named `name` (declared
 * before this call). */
int GeCOpRegAddValueDependentInput(GeCOpReg* reg, const char* name);
/* Commits the registration to the op registry and frees `reg` (always). */
int GeCOpRegCommit(GeCOpReg* reg);
/* Frees `reg` without registering. NULL is allowed. */
void GeCOpRegDestroy(GeCOpReg* reg);

/* The calling thread's last error message ("" when none). */
const char* GeCGetLastError(void);

/* Attribute access for the running kernel (only valid inside a kernel call). */
int GeCKernelGetAttrInt(const char* name, int64_t* value);
int GeCKernelGetAttrFloat(const char* name, float* value);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* METADEF_REGISTER_INC_REGISTER_OP_REGISTER_C_H_ */
