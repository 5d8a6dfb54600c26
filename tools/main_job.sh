#!/usr/bin/env bash
# The README's main job: set up the machine, build atc and om_run (optimised),
# convert the bundled small CNN (tools/models/small_cnn.onnx, 1x3x32x32 -> 10
# classes) to an OM file and run it 20 times, printing the top-5 classes and
# the latency.
#
#   bash tools/main_job.sh            # OM and outputs under /tmp/ge_main_job
#   OUT=/some/dir bash tools/main_job.sh
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/ge_main_job}"

bash tools/setup.sh
# The tools a user runs are built optimised (-c opt, no -march=native: the
# binaries run on any x86-64 machine and write the same OM bytes).
bazel build -c opt //tools/atc:atc //tools/om_run:om_run
BIN="$(bazel info -c opt bazel-bin 2>/dev/null)"

mkdir -p "$OUT"
echo "== atc: tools/models/small_cnn.onnx -> $OUT/small_cnn.om"
"$BIN/tools/atc/atc" --model=tools/models/small_cnn.onnx --framework=5 \
  --output="$OUT/small_cnn" --input_shape="input:1,3,32,32" --soc_version=HostCpu
echo "== om_run: $OUT/small_cnn.om, 20 runs"
"$BIN/tools/om_run/om_run" --model="$OUT/small_cnn.om" \
  --input=tools/models/small_cnn_input.npy --output_dir="$OUT" --loop=20 --top5
echo "main job: converted and ran the small CNN (output in $OUT/output_0.pb)"
