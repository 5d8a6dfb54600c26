#!/usr/bin/env bash
# Runs onnx_mutation_fuzz with fixed seeds over every conformance case: the
# mutations that once crashed atc or the runtime (and any new crash these
# seeds reach) fail the test. Usage: fuzz_smoke_test.sh <fuzzer> [flags...]
set -euo pipefail
fuzzer="$1"
shift
out=$("$fuzzer" "$@") || { echo "$out"; echo "FAIL: the fuzzer reported findings"; exit 1; }
echo "$out" | tail -1
