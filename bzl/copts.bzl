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

GE_C_COPTS = [
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wno-unused-parameter",
]
