#!/usr/bin/env bash
# Runs onnx_mutation_fuzz with fixed seeds over every conformance case,
# mutating the ONNX models (compiled from bytes and from a file), the built
# models behind an OM file and atc's options: the mutations that once
# crashed atc or the runtime (and any new crash these seeds reach) fail the
# test. Usage: fuzz_smoke_test.sh <fuzzer> [flags...]
set -euo pipefail
fuzzer="$1"
shift
for run in "--target=onnx" "--target=om" "--target=options" "--target=onnx --from_file"; do
  # shellcheck disable=SC2086  # $run is two flags at most
  out=$("$fuzzer" $run "$@") || {
    echo "$out"
    echo "FAIL: the fuzzer reported findings ($run)"
    exit 1
  }
  echo "$run: $(echo "$out" | tail -1)"
done
