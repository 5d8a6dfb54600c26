#!/usr/bin/env bash
# Runs onnx_mutation_fuzz with fixed seeds over every conformance case,
# mutating the ONNX models, the built models behind an OM file and atc's
# options: the mutations that once crashed atc or the runtime (and any new
# crash these seeds reach) fail the test. Usage: fuzz_smoke_test.sh <fuzzer> [flags...]
set -euo pipefail
fuzzer="$1"
shift
for target in onnx om options; do
  out=$("$fuzzer" --target="$target" "$@") || {
    echo "$out"
    echo "FAIL: the fuzzer reported findings (--target=$target)"
    exit 1
  }
  echo "--target=$target: $(echo "$out" | tail -1)"
done
