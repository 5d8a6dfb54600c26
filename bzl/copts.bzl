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
]

GE_TEST_COPTS = GE_DEFAULT_COPTS

GE_C_COPTS = [
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wno-unused-parameter",
]
