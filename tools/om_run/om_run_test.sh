#!/usr/bin/env bash
# om_run as a user drives it: .npy and .pb inputs, generated inputs, --loop,
# top-5, --output_dir, and errors (bad flags, wrong input count / dtype /
# shape, missing or corrupt model).
# Args: atc om_run tensor_compare small_cnn.onnx small_cnn_input.npy
#       small_cnn_input.pb small_cnn_output.pb
set -u
ATC="$1"; OM_RUN="$2"; COMPARE="$3"; MODEL="$4"; INPUT_NPY="$5"; INPUT_PB="$6"; EXPECTED="$7"
T="${TEST_TMPDIR:-$(mktemp -d)}/om_run_test"
rm -rf "$T"; mkdir -p "$T/npy" "$T/pb" "$T/gen"
fails=0
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
expect_exit() {
  local want="$1" name="$2"; shift 2
  "$@" >"$T/out" 2>&1
  local got=$?
  if [ "$got" -eq "$want" ]; then pass "$name (exit $got)"; else
    fail "$name: exit $got, want $want"; cat "$T/out"; fi
}
expect_out() {
  if grep -qF -- "$2" "$T/out"; then pass "$1"; else fail "$1: no '$2' in:"; cat "$T/out"; fi
}

"$ATC" --model="$MODEL" --framework=5 --output="$T/cnn" --log=error || { echo "atc failed"; exit 1; }

expect_exit 0 "--help" "$OM_RUN" --help
expect_out "help names --loop" "--loop"
expect_exit 2 "no --model" "$OM_RUN"
expect_out "missing model named" "--model"
expect_exit 2 "unknown flag" "$OM_RUN" --model="$T/cnn.om" --speed=11
expect_out "unknown flag named" "--speed"
expect_exit 2 "bad --loop" "$OM_RUN" --model="$T/cnn.om" --loop=0
expect_out "bad loop named" "'0'"
expect_exit 2 "bad --loop text" "$OM_RUN" --model="$T/cnn.om" --loop=abc
expect_exit 1 "missing model file" "$OM_RUN" --model="$T/nope.om"
expect_out "missing file named" "nope.om"
head -c 300 "$T/cnn.om" >"$T/trunc.om"
expect_exit 1 "truncated model" "$OM_RUN" --model="$T/trunc.om"
expect_out "truncated file named" "trunc.om"

# .npy input, output compared with the NumPy oracle.
expect_exit 0 "npy input" "$OM_RUN" --model="$T/cnn.om" --input="$INPUT_NPY" --output_dir="$T/npy"
expect_out "default top-5 printed" "top-5"
expect_out "top-1 is class 8" "#1  index 8"
expect_out "latency printed" "latency over 1 run(s): min"
expect_exit 0 "npy output matches NumPy" "$COMPARE" "$T/npy/output_0.pb" "$EXPECTED" 1e-4 1e-6
# .pb input gives the same answer.
expect_exit 0 "pb input" "$OM_RUN" --model="$T/cnn.om" --input="$INPUT_PB" --output_dir="$T/pb"
expect_exit 0 "pb output matches NumPy" "$COMPARE" "$T/pb/output_0.pb" "$EXPECTED" 1e-4 1e-6
# Generated inputs are deterministic.
expect_exit 0 "generated input" "$OM_RUN" --model="$T/cnn.om" --output_dir="$T/gen" --loop=5
expect_out "generated noted" "generated values"
expect_out "loop latency" "latency over 5 run(s): min"
cp "$T/gen/output_0.pb" "$T/gen/first.pb"
expect_exit 0 "generated again" "$OM_RUN" --model="$T/cnn.om" --output_dir="$T/gen" --log=error
cmp -s "$T/gen/output_0.pb" "$T/gen/first.pb" && pass "generated inputs deterministic" \
  || fail "generated outputs differ"
grep -q '^\[om_run\]' "$T/out" && fail "--log=error still logs info" || pass "--log=error quiet"

# Threads: the same output at 1 and 2 threads; out-of-range counts refused.
expect_exit 0 "one thread" "$OM_RUN" --model="$T/cnn.om" --input="$INPUT_NPY" --threads=1 \
  --output_dir="$T/npy"
expect_exit 0 "threads-1 output matches NumPy" "$COMPARE" "$T/npy/output_0.pb" "$EXPECTED" 1e-4 1e-6
expect_exit 0 "two threads" "$OM_RUN" --model="$T/cnn.om" --input="$INPUT_NPY" --threads=2 \
  --output_dir="$T/npy"
expect_exit 0 "threads-2 output matches NumPy" "$COMPARE" "$T/npy/output_0.pb" "$EXPECTED" 1e-4 1e-6
expect_exit 2 "bad --threads" "$OM_RUN" --model="$T/cnn.om" --threads=-1
expect_out "bad threads named" "--threads value '-1'"
# Profile: time per task and per op type.
expect_exit 0 "profile" "$OM_RUN" --model="$T/cnn.om" --loop=3 --profile
expect_out "profile header" "profile over 3 run(s)"
expect_out "slowest tasks" "slowest tasks (ms per run, share):"
expect_out "op types" "op types by total time"
expect_out "conv in the profile" "Conv ("

# Wrong inputs.
expect_exit 1 "two inputs for a one-input model" "$OM_RUN" --model="$T/cnn.om" \
  --input="$INPUT_NPY,$INPUT_PB"
expect_out "input count named" "2 file(s), the model has 1 input(s)"
printf '\x93NUMPY\x01\x00\x43\x00{'"'"'descr'"'"': '"'"'<i8'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': (1, 3, 32, 32), }' >"$T/int.npy"
head -c $((3072 * 8)) /dev/zero >>"$T/int.npy"
expect_exit 1 "int64 input for a float model" "$OM_RUN" --model="$T/cnn.om" --input="$T/int.npy"
expect_out "dtype named" "data type DT_INT64"
printf '\x93NUMPY\x01\x00\x43\x00{'"'"'descr'"'"': '"'"'<f4'"'"', '"'"'fortran_order'"'"': False, '"'"'shape'"'"': (1, 3, 16, 64), }' >"$T/shape.npy"
head -c $((3072 * 4)) /dev/zero >>"$T/shape.npy"
expect_exit 1 "wrong shape" "$OM_RUN" --model="$T/cnn.om" --input="$T/shape.npy"
expect_out "shape named" "[1,3,16,64]"
printf 'garbage' >"$T/garbage.pb"
expect_exit 1 "garbage input" "$OM_RUN" --model="$T/cnn.om" --input="$T/garbage.pb"
expect_out "garbage file named" "garbage.pb"
expect_exit 1 "missing input file" "$OM_RUN" --model="$T/cnn.om" --input="$T/none.npy"
expect_out "missing input named" "none.npy"
expect_exit 1 "unwritable output dir" "$OM_RUN" --model="$T/cnn.om" --output_dir="$T/no/such"
expect_out "output path named" "no/such"

echo "failures: $fails"
[ "$fails" -eq 0 ]
