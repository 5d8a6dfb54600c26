#!/usr/bin/env bash
# atc as a user drives it: flags, conversion of the bundled small CNN, the
# inspection modes, pre-check, and no partial .om after a failed conversion.
# Args: atc om_run tensor_compare small_cnn.onnx unknown_ops.onnx
#       small_cnn_input.npy small_cnn_output.pb
set -u
ATC="$1"; OM_RUN="$2"; COMPARE="$3"; MODEL="$4"; UNKNOWN="$5"; INPUT_NPY="$6"; EXPECTED="$7"
T="${TEST_TMPDIR:-$(mktemp -d)}/atc_test"
rm -rf "$T"; mkdir -p "$T"
fails=0
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

# expect_exit CODE NAME CMD...: runs CMD (stdout+stderr in $T/out) and checks its status.
expect_exit() {
  local want="$1" name="$2"; shift 2
  "$@" >"$T/out" 2>&1
  local got=$?
  if [ "$got" -eq "$want" ]; then pass "$name (exit $got)"; else
    fail "$name: exit $got, want $want"; cat "$T/out"; fi
}
expect_out() {  # expect_out NAME TEXT: $T/out contains TEXT
  if grep -qF -- "$2" "$T/out"; then pass "$1"; else fail "$1: no '$2' in:"; cat "$T/out"; fi
}

# ---- command line errors
expect_exit 0 "--help" "$ATC" --help
expect_out "help lists --input_shape" "--input_shape"
expect_exit 2 "no flags" "$ATC"
expect_exit 2 "unknown flag" "$ATC" --model="$MODEL" --framework=5 --output="$T/x" --bogus=1
expect_out "unknown flag named" "--bogus"
expect_exit 2 "bad mode" "$ATC" --mode=7 --model="$MODEL"
expect_out "bad mode named" "'7'"
expect_exit 2 "bad log level" "$ATC" --log=loud --model="$MODEL" --framework=5 --output="$T/x"
expect_out "bad log named" "'loud'"
expect_exit 2 "bad input_shape" "$ATC" --model="$MODEL" --framework=5 --output="$T/x" \
  --input_shape="input:1,x,32,32"
expect_out "bad dim named" "dim 'x'"
expect_exit 2 "bad out_nodes" "$ATC" --model="$MODEL" --framework=5 --output="$T/x" \
  --out_nodes="relu1:-1"
expect_out "bad out node named" "relu1:-1"
expect_exit 2 "bad disable_reuse_memory" "$ATC" --model="$MODEL" --framework=5 --output="$T/x" \
  --disable_reuse_memory=2
expect_exit 2 "bad input_format" "$ATC" --model="$MODEL" --framework=5 --output="$T/x" \
  --input_format=HWCN
expect_out "bad format named" "HWCN"
expect_exit 2 "bad onnx_converter" "$ATC" --model="$MODEL" --framework=5 --output="$T/x" \
  --onnx_converter=fast
expect_out "bad converter named" "'fast'"
expect_exit 2 "missing --output" "$ATC" --model="$MODEL" --framework=5
expect_out "missing output named" "--output"
expect_exit 2 "flag without value" "$ATC" --model
for fw in 0 1 3; do
  expect_exit 1 "framework $fw" "$ATC" --model="$MODEL" --framework=$fw --output="$T/fw$fw"
  expect_out "framework $fw not supported yet" "not supported yet"
  [ ! -e "$T/fw$fw.om" ] && pass "framework $fw wrote nothing" || fail "framework $fw wrote an OM"
done
expect_exit 1 "framework 9" "$ATC" --model="$MODEL" --framework=9 --output="$T/fw9"
expect_out "framework 9 named" "framework 9"
expect_exit 1 "missing model file" "$ATC" --model="$T/nope.onnx" --framework=5 --output="$T/nope"
expect_out "missing file named" "nope.onnx"

# ---- conversion
expect_exit 0 "convert small CNN" "$ATC" --model="$MODEL" --framework=5 --output="$T/cnn" \
  --soc_version=TestSoc910 --input_shape="input:1,3,32,32" --input_format=NCHW --log=info
for stage in parse prepare optimize build serialize write; do
  grep -qE "^\[atc\] $stage +[0-9.]+ ms" "$T/out" && pass "stage $stage timed" \
    || { fail "stage $stage not reported"; cat "$T/out"; }
done
[ -s "$T/cnn.om" ] && pass "cnn.om written (.om appended)" || fail "no $T/cnn.om"
ls "$T" | grep -q '\.tmp\.' && fail "temp file left behind" || pass "no temp file"
expect_exit 0 "convert quietly, name ending in .om" "$ATC" --model="$MODEL" --framework=5 \
  --output="$T/cnn2.om" --log=null
[ -s "$T/cnn2.om" ] && [ ! -e "$T/cnn2.om.om" ] && pass "no double .om" || fail "cnn2.om"
grep -q '^\[atc\]' "$T/out" && fail "--log=null still logged" || pass "--log=null is quiet"
cmp -s "$T/cnn.om" "$T/cnn2.om" && fail "soc_version not recorded (files equal)" \
  || pass "soc_version changes the OM"
expect_exit 0 "deterministic conversion" "$ATC" --model="$MODEL" --framework=5 \
  --output="$T/cnn3" --log=null
cmp -s "$T/cnn2.om" "$T/cnn3.om" && pass "same model, same bytes" || fail "OM not deterministic"

expect_exit 0 "builtin converter" "$ATC" --model="$MODEL" --framework=5 --output="$T/cnn4" \
  --onnx_converter=builtin --log=null
cmp -s "$T/cnn2.om" "$T/cnn4.om" && pass "opset-17 model: converter irrelevant" \
  || fail "builtin converter changed an opset-17 model"

# ---- --mode 6
expect_exit 0 "mode 6" "$ATC" --mode=6 --om="$T/cnn.om"
for text in "magic:" "op count:" "soc version:      TestSoc910" "partition MODEL_DEF" \
            "partition WEIGHTS_DATA" "partition TASK_INFO" "memory size:" "weight size:" \
            "input 0:" "output 0:"; do
  expect_out "mode 6 shows '$text'" "$text"
done
expect_exit 2 "mode 6 without --om" "$ATC" --mode=6
printf 'DOMI garbage' >"$T/bad.om"
expect_exit 1 "mode 6 on a corrupt OM" "$ATC" --mode=6 --om="$T/bad.om"
expect_out "corrupt OM named" "bad.om"

# ---- --mode 1
expect_exit 0 "mode 1 OM -> JSON" "$ATC" --mode=1 --om="$T/cnn.om" --json="$T/cnn.json"
for key in '"header"' '"partitions"' '"model_def"' '"task_info"' '"TestSoc910"'; do
  grep -qF "$key" "$T/cnn.json" && pass "OM JSON has $key" || fail "OM JSON lacks $key"
done
expect_exit 0 "mode 1 ONNX -> JSON" "$ATC" --mode=1 --framework=5 --om="$MODEL" \
  --json="$T/onnx.json"
grep -qF '"GlobalAveragePool"' "$T/onnx.json" && pass "ONNX JSON has the ops" \
  || fail "ONNX JSON lacks GlobalAveragePool"
expect_exit 2 "mode 1 without --json" "$ATC" --mode=1 --om="$T/cnn.om"

# ---- a failing conversion leaves no .om (and keeps an existing one intact)
expect_exit 1 "unknown ops fail" "$ATC" --model="$UNKNOWN" --framework=5 --output="$T/unk"
expect_out "FooOp named" "FooOp"
[ ! -e "$T/unk.om" ] && pass "no partial .om" || fail "unk.om left behind"
cp "$T/cnn.om" "$T/keep.om"
expect_exit 1 "failing over an existing OM" "$ATC" --model="$UNKNOWN" --framework=5 \
  --output="$T/keep"
cmp -s "$T/cnn.om" "$T/keep.om" && pass "existing OM untouched" || fail "existing OM changed"
ls "$T" | grep -q '\.tmp\.' && fail "temp file left behind" || pass "no temp file after failure"
expect_exit 1 "unknown input name" "$ATC" --model="$MODEL" --framework=5 --output="$T/badname" \
  --input_shape="nosuch:1,3,32,32"
expect_out "input name named" "nosuch"
[ ! -e "$T/badname.om" ] && pass "no .om after a bad input name" || fail "badname.om exists"

# ---- --mode 3
expect_exit 1 "pre-check unknown ops" "$ATC" --mode=3 --model="$UNKNOWN" --framework=5 \
  --check_report="$T/report.json"
grep -qF '"FooOp"' "$T/report.json" && grep -qF '"BarOp"' "$T/report.json" \
  && pass "report lists every unsupported op" || { fail "report incomplete"; cat "$T/report.json"; }
grep -qF '"result": "failed"' "$T/report.json" && pass "report says failed" || fail "report result"
grep -qF '"Relu"' "$T/report.json" && fail "supported Relu reported" || pass "Relu not reported"
expect_exit 0 "pre-check small CNN" "$ATC" --mode=3 --model="$MODEL" --framework=5 \
  --check_report="$T/ok.json"
grep -qF '"result": "success"' "$T/ok.json" && pass "small CNN passes pre-check" \
  || { fail "small CNN pre-check"; cat "$T/ok.json"; }

# ---- --out_nodes: cut the graph after relu1, run it
expect_exit 0 "convert with --out_nodes" "$ATC" --model="$MODEL" --framework=5 \
  --output="$T/cut" --out_nodes="relu1:0" --log=error
expect_exit 0 "run the cut model" "$OM_RUN" --model="$T/cut.om" --input="$INPUT_NPY" \
  --output_dir="$T"
expect_out "cut model output shape" "[1,8,32,32]"

# ---- the converted model gives the NumPy oracle's answer
expect_exit 0 "run cnn.om" "$OM_RUN" --model="$T/cnn.om" --input="$INPUT_NPY" \
  --output_dir="$T"
expect_exit 0 "output matches NumPy" "$COMPARE" "$T/output_0.pb" "$EXPECTED" 1e-4 1e-6
expect_exit 0 "disable_reuse_memory + single stream" "$ATC" --model="$MODEL" --framework=5 \
  --output="$T/noreuse" --disable_reuse_memory=1 --enable_single_stream=true \
  --op_select_implmode=high_precision --log=error
expect_exit 0 "run noreuse.om" "$OM_RUN" --model="$T/noreuse.om" --input="$INPUT_NPY" \
  --output_dir="$T"
expect_exit 0 "noreuse output matches NumPy" "$COMPARE" "$T/output_0.pb" "$EXPECTED" 1e-4 1e-6

# ---- precision modes: BF16 convolutions, results within BF16 tolerance
expect_exit 0 "allow_mix_precision" "$ATC" --model="$MODEL" --framework=5 \
  --output="$T/mix" --precision_mode=allow_mix_precision --log=error
expect_exit 0 "run mix.om" "$OM_RUN" --model="$T/mix.om" --input="$INPUT_NPY" --output_dir="$T"
expect_exit 0 "mix output near NumPy" "$COMPARE" "$T/output_0.pb" "$EXPECTED" 5e-2 5e-2
printf 'OpType::Conv\nOpType::Gemm\n' >"$T/keep.cfg"
expect_exit 0 "keep_dtype" "$ATC" --model="$MODEL" --framework=5 --output="$T/kept" \
  --precision_mode=allow_mix_precision --keep_dtype="$T/keep.cfg" --log=error
expect_exit 0 "run kept.om" "$OM_RUN" --model="$T/kept.om" --input="$INPUT_NPY" --output_dir="$T"
expect_exit 0 "kept output matches NumPy" "$COMPARE" "$T/output_0.pb" "$EXPECTED" 1e-4 1e-6
expect_exit 1 "bad precision_mode" "$ATC" --model="$MODEL" --framework=5 --output="$T/badpm" \
  --precision_mode=fp8
expect_out "bad precision_mode named" "'fp8'"
if [ -e "$T/badpm.om" ]; then fail "bad precision_mode left an OM"; else pass "no OM left"; fi
expect_exit 1 "missing keep_dtype file" "$ATC" --model="$MODEL" --framework=5 \
  --output="$T/badkeep" --precision_mode=allow_mix_precision --keep_dtype="$T/none.cfg"
expect_out "missing keep_dtype file named" "none.cfg"

echo "failures: $fails"
[ "$fails" -eq 0 ]
