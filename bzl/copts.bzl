"""Compiler flags for every target of the project (abseil's ABSL_DEFAULT_COPTS pattern).

Project code is compiled with warnings as errors; system headers are exempt
because the toolchain passes them with -isystem.
"""

GE_DEFAULT_COPTS = [
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wnon-virtual-dtor",
    "-Wvla",
    "-Wwrite-strings",
    "-Wpointer-arith",
    "-Wno-unused-parameter",
    "-Wno-missing-field-initializers",
    # GCC 12 at -O2 reports false positives on absl::InlinedVector storage
    # (inlined_vector_internal::Storage), so -c opt builds failed under -Werror.
    "-Wno-maybe-uninitialized",
]

GE_TEST_COPTS = GE_DEFAULT_COPTS

# Host kernels (ops/): GCC 12's -O2 vectorises a loop only when no scalar
# remainder is needed ("very cheap"), which leaves the elementwise loops
# (trip count known at run time) scalar; "cheap" vectorises them. Per
# element results are the same (no reassociation: float reductions stay
# scalar without -ffast-math). resnet50's Relu went from ~18 to ~3 ms per
# run on the build VM (a branch per element before).
GE_KERNEL_COPTS = ["-fvect-cost-model=cheap"]

GE_C_COPTS = [
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wno-unused-parameter",
]
