#!/usr/bin/env bash
# Sets up the benchmark environment (not needed by the build or the tests):
# Debian's PyTorch and torchvision (to export the benchmark models with
# ../shared/bench/make_models.py) and onnxruntime-node (ONNX Runtime, what
# tools/bench/om_vs_ort.py and atc_vs_ort.py compare against) in a folder
# given as the argument. Idempotent and non-interactive: what is present is
# skipped, so a second run only checks.
#
#   bash tools/bench/setup_bench.sh ORT_DIR
#
# Afterwards ORT_DIR/node_modules is what --ort_modules (and NODE_PATH) take.
set -euo pipefail

ORT_VERSION=1.30.0

if [ "$#" -ne 1 ] || [ -z "$1" ]; then
  echo "usage: bash tools/bench/setup_bench.sh ORT_DIR" >&2
  exit 2
fi
ort_dir=$1

# The model export needs these; python3-onnx and python3-numpy are in
# tools/setup.sh's list too. Node and npm (for ort_bench.js) come from
# Debian's nodejs / npm only when no node / npm is on PATH (a Node.js build
# that bundles npm conflicts with Debian's npm package).
PACKAGES=(python3-torch python3-torchvision python3-onnx python3-numpy)
command -v node >/dev/null 2>&1 || PACKAGES+=(nodejs)
command -v npm >/dev/null 2>&1 || PACKAGES+=(npm)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "setup_bench: all ${#PACKAGES[@]} Debian packages present"
else
  echo "setup_bench: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# onnxruntime-node ships its CPU library in the package; its install script
# only fetches GPU extras (and fails offline), hence --ignore-scripts.
pkg_json="$ort_dir/node_modules/onnxruntime-node/package.json"
have=""
if [ -f "$pkg_json" ]; then
  have=$(node -p "require(process.argv[1]).version" "$pkg_json" 2>/dev/null || true)
fi
if [ "$have" = "$ORT_VERSION" ]; then
  echo "setup_bench: onnxruntime-node@$ORT_VERSION present in $ort_dir/node_modules"
else
  echo "setup_bench: installing onnxruntime-node@$ORT_VERSION into $ort_dir"
  mkdir -p "$ort_dir"
  npm install --prefix "$ort_dir" --ignore-scripts --no-audit --no-fund \
    "onnxruntime-node@$ORT_VERSION"
fi

# Check that it loads (the native binding for this platform is in the package).
NODE_PATH="$ort_dir/node_modules" node -e \
  "const o = require('onnxruntime-node'); if (!o.InferenceSession) process.exit(1);" \
  || { echo "setup_bench: onnxruntime-node does not load from $ort_dir/node_modules" >&2; exit 1; }
echo "setup_bench: done (ORT modules: $ort_dir/node_modules)"
