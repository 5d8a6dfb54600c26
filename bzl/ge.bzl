"""Project macros: every C++ target gets the project copts; tests get gtest_main.

    load("//bzl:ge.bzl", "ge_cc_library", "ge_cc_test", "ge_cc_binary", "ge_cc_benchmark")
"""

load("//bzl:copts.bzl", "GE_DEFAULT_COPTS", "GE_KERNEL_COPTS", "GE_TEST_COPTS")

def ge_cc_library(name, copts = [], **kwargs):
    native.cc_library(name = name, copts = GE_DEFAULT_COPTS + copts, **kwargs)

def ge_kernel_library(name, copts = [], **kwargs):
    """A library of host kernels (ops/): loops vectorised as in copts.bzl's GE_KERNEL_COPTS."""
    native.cc_library(name = name, copts = GE_DEFAULT_COPTS + GE_KERNEL_COPTS + copts, **kwargs)

def ge_cc_binary(name, copts = [], **kwargs):
    native.cc_binary(name = name, copts = GE_DEFAULT_COPTS + copts, **kwargs)

def ge_cc_test(name, copts = [], deps = [], main = True, **kwargs):
    """A gtest/gmock test; links gtest_main unless main = False."""
    extra = ["@system//:gtest_main"] if main else ["@system//:gtest"]
    native.cc_test(name = name, copts = GE_TEST_COPTS + copts, deps = deps + extra, **kwargs)

def ge_cc_benchmark(name, copts = [], deps = [], tags = [], **kwargs):
    """A Google Benchmark binary, tagged `benchmark`; run it with `bazel run -c opt`."""
    native.cc_binary(
        name = name,
        copts = GE_DEFAULT_COPTS + copts,
        deps = deps + ["@system//:benchmark_main"],
        tags = tags + ["benchmark"],
        testonly = True,
        **kwargs
    )
