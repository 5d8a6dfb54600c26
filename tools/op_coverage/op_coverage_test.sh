#!/usr/bin/env bash
# Every op type used by the ONNX node tests must be defined with a host kernel.
set -u
out=$("$1" --onnx_ops="$2") || { echo "op_coverage failed"; echo "$out"; exit 1; }
echo "$out"
missing=$(grep '^  missing:' <<<"$out" | sed 's/^  missing://')
nokernel=$(grep '^  defined without host kernel:' <<<"$out" | sed 's/^  defined without host kernel://')
if [ -n "${missing// /}" ]; then echo "FAIL: missing op types:$missing"; exit 1; fi
if [ -n "${nokernel// /}" ]; then echo "FAIL: without host kernel:$nokernel"; exit 1; fi
echo "op coverage OK"
