#!/usr/bin/env bash
# The README's main job. Sets up the machine, then builds everything. (Once
# atc and the runtime land, this converts the bundled model and runs it.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bazel build //...
echo "main job: build of //... succeeded"
