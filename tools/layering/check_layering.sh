#!/usr/bin/env bash
# Runs the layering check over the real build graph: the dependencies of every
# non-test target (tests may use helpers from //testing). CI runs this.
set -euo pipefail
cd "$(dirname "$0")/../.."
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
bazel query --noshow_progress --noimplicit_deps --output=graph --nograph:factored \
  'deps(//... except attr(testonly, 1, //...))' > "$edges"
python3 tools/layering/check_layering.py "$edges"
