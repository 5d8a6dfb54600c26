"""cc_headers_only: the headers (compilation context) of C++ targets without their code.

An op plugin library (a cc_binary with linkshared = True) includes the registry
headers but must not carry a copy of the registry: its registry symbols stay
undefined and resolve, when the host dlopens it, to the host's one registry.
Depending on `cc_headers_only(deps = [":op_registry"])` gives exactly that: the
include paths, defines and headers of the deps (transitively) and no link
inputs.

    load("//metadef/register:cc_headers_only.bzl", "cc_headers_only")
    cc_headers_only(name = "op_registry_headers", deps = [":op_registry"])
"""

def _cc_headers_only_impl(ctx):
    merged = cc_common.merge_cc_infos(cc_infos = [d[CcInfo] for d in ctx.attr.deps])
    return [CcInfo(compilation_context = merged.compilation_context)]

cc_headers_only = rule(
    implementation = _cc_headers_only_impl,
    attrs = {
        "deps": attr.label_list(providers = [CcInfo]),
    },
    provides = [CcInfo],
    doc = "Forwards the compilation context of `deps` and drops their linking context.",
)
