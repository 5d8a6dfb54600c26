/* metadef/register/src/op_register_c_test_ops.c
 *
 * C side of op_register_c_test: registers ops through the C interface and
 * checks its error handling, in plain C. Each function returns 0 on success
 * and the number of the failing step otherwise.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "metadef/register/inc/register/op_register_c.h"

enum { kDtFloat = 0, kDtFloat16 = 1, kDtInt32 = 3 };

typedef struct ScaleConfig {
  float offset;
  int calls;
} ScaleConfig;

static ScaleConfig g_scale_config = {0.5f, 0};

/* y has x's shape and dtype. */
static int InferSameAsX(const GeCTensor* inputs, size_t n_in, GeCTensor* outputs, size_t n_out,
                        void* user) {
  (void)user;
  if (n_in < 1 || n_out != 1) return 1;
  outputs[0].shape = inputs[0].shape;
  outputs[0].dtype = inputs[0].dtype;
  return 0;
}

/* y = x * scale + offset (+ bias when present); fails with 42 when x[0] < 0. */
static int ScaleKernel(const GeCTensor* inputs, size_t n_in, GeCTensor* outputs, size_t n_out,
                       void* user) {
  ScaleConfig* cfg = (ScaleConfig*)user;
  float scale = 0.0f;
  size_t n, i;
  const float* x;
  const float* bias;
  float* y;
  if (GeCKernelGetAttrFloat("scale", &scale) != 0) return 2;
  if (n_in != 2 || n_out != 1) return 3;
  if (inputs[0].dtype != kDtFloat) return 4;
  n = inputs[0].size / sizeof(float);
  if (outputs[0].size < n * sizeof(float)) return 5;
  x = (const float*)inputs[0].data;
  bias = (const float*)inputs[1].data; /* NULL when the optional input is absent */
  y = (float*)outputs[0].data;
  for (i = 0; i < n; ++i) y[i] = x[i] * scale + cfg->offset + (bias != NULL ? bias[i] : 0.0f);
  cfg->calls++;
  if (n > 0 && x[0] < 0.0f) return 42;
  return 0;
}

int GeCTestScaleCalls(void) { return g_scale_config.calls; }

int GeCTestRegisterOps(void) {
  const int32_t floats[] = {kDtFloat, kDtFloat16};
  GeCOpReg* reg = GeCOpRegCreate("CScale");
  if (reg == NULL) return 1;
  if (GeCOpRegAddInput(reg, "x", GE_C_IO_REQUIRED, floats, 2) != 0) return 2;
  if (GeCOpRegAddInput(reg, "bias", GE_C_IO_OPTIONAL, floats, 2) != 0) return 3;
  if (GeCOpRegAddOutput(reg, "y", GE_C_IO_REQUIRED, floats, 2) != 0) return 4;
  if (GeCOpRegAddAttrFloat(reg, "scale", 2.0f) != 0) return 5;
  if (GeCOpRegAddAttrString(reg, "note", "from C") != 0) return 6;
  if (GeCOpRegAddRequiredAttr(reg, "axis", GE_C_ATTR_INT) != 0) return 7;
  if (GeCOpRegSetInferShape(reg, InferSameAsX, NULL) != 0) return 8;
  if (GeCOpRegSetKernel(reg, NULL, ScaleKernel, &g_scale_config) != 0) return 9;
  if (GeCOpRegAddTraits(reg, GE_C_TRAIT_SIDE_EFFECT) != 0) return 12;
  if (GeCOpRegAddValueDependentInput(reg, "bias") != 0) return 13;
  if (GeCOpRegCommit(reg) != 0) return 10;
  if (strlen(GeCGetLastError()) != 0) return 11;
  return 0;
}

int GeCTestBadRegistrations(void) {
  const int32_t bad_types[] = {kDtFloat, 999};
  const int32_t ints[] = {kDtInt32};
  GeCOpReg* reg;
  int64_t v = 0;

  if (GeCOpRegCreate(NULL) != NULL) return 1;
  if (strstr(GeCGetLastError(), "op type is null") == NULL) return 2;
  if (GeCOpRegCreate("") != NULL) return 3;

  /* An invalid data type poisons the builder: nothing is registered. */
  reg = GeCOpRegCreate("CBadTypes");
  if (GeCOpRegAddInput(reg, "x", GE_C_IO_REQUIRED, bad_types, 2) != 145000) return 4;
  if (strstr(GeCGetLastError(), "999") == NULL) return 5;
  if (GeCOpRegAddOutput(reg, "y", GE_C_IO_REQUIRED, ints, 1) != 0) return 6;
  if (GeCOpRegCommit(reg) == 0) return 7;
  if (strstr(GeCGetLastError(), "not committed") == NULL) return 8;

  reg = GeCOpRegCreate("CBadKinds");
  if (GeCOpRegAddOutput(reg, "y", GE_C_IO_OPTIONAL, ints, 1) == 0) return 9;
  if (GeCOpRegAddInput(reg, "x", (GeCIoKind)7, ints, 1) == 0) return 10;
  if (GeCOpRegAddInput(reg, NULL, GE_C_IO_REQUIRED, ints, 1) == 0) return 11;
  if (GeCOpRegAddInput(reg, "z", GE_C_IO_REQUIRED, NULL, 0) == 0) return 12;
  if (GeCOpRegSetKernel(reg, NULL, NULL, NULL) == 0) return 13;
  if (GeCOpRegAddRequiredAttr(reg, "a", (GeCAttrType)77) == 0) return 14;
  if (GeCOpRegAddAttrString(reg, "s", NULL) == 0) return 15;
  if (GeCOpRegAddTraits(reg, 0x100u) == 0) return 23;
  if (strstr(GeCGetLastError(), "unknown trait bits") == NULL) return 24;
  if (GeCOpRegAddValueDependentInput(reg, "nope") == 0) return 25;
  if (GeCOpRegAddValueDependentInput(reg, NULL) == 0) return 26;
  GeCOpRegDestroy(reg);
  GeCOpRegDestroy(NULL);

  /* Same type, same priority as CScale: a conflict (145003), CScale stays. */
  reg = GeCOpRegCreate("CScale");
  if (GeCOpRegAddInput(reg, "other", GE_C_IO_REQUIRED, ints, 1) != 0) return 16;
  if (GeCOpRegCommit(reg) != 145003) return 17;
  if (strstr(GeCGetLastError(), "CScale") == NULL) return 18;

  /* Attribute access outside a kernel. */
  if (GeCKernelGetAttrInt("axis", &v) == 0) return 19;
  if (strstr(GeCGetLastError(), "outside a C kernel") == NULL) return 20;

  if (GeCOpRegAddInput(NULL, "x", GE_C_IO_REQUIRED, ints, 1) == 0) return 21;
  if (GeCOpRegCommit(NULL) == 0) return 22;
  return 0;
}
