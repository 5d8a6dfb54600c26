#!/usr/bin/env bash
# Installs every Debian package the project needs. Idempotent and
# non-interactive: packages already present are skipped, so a second run only
# checks (no apt-get update) and takes well under a second.
#
#   sudo-less root shell:  bash tools/setup.sh
set -euo pipefail

PACKAGES=(
  # Build system (Debian's Bazel 4.2.3 and its platforms repository).
  bazel-bootstrap
  bazel-platforms
  # Toolchain and libraries.
  g++
  pkg-config
  protobuf-compiler
  libprotobuf-dev
  libabsl-dev
  libre2-dev
  libgtest-dev
  libgmock-dev
  googletest
  libbenchmark-dev
  # ONNX protobuf classes, checker and version converter; the ONNX backend
  # conformance cases; oneDNN for fast kernels.
  libonnx-dev
  libonnx-testdata
  libdnnl-dev
  # SHA-256 (libcrypto) for the model cache key.
  libssl-dev
  # XXH3 (the OM file checksum, weight dedup hashing).
  libxxhash-dev
  # tcmalloc for the command line tools (//third_party:malloc).
  libgoogle-perftools-dev
  # The C++ format check (tools/format/check_format.sh).
  clang-format
  # Scripts (model generation, checks).
  python3
  python3-numpy
  python3-onnx
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
