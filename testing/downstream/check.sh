#!/usr/bin/env bash
# Builds and runs the downstream program against the public targets, then
# checks that reaching an internal target fails Bazel's visibility check.
set -uo pipefail
cd "$(dirname "$0")"
fail() { echo "downstream: $*"; bazel shutdown >/dev/null 2>&1; exit 1; }
bazel build //:use_public || fail "building against the public targets failed"
./bazel-bin/use_public || fail "the program built against the public targets failed"
out=$(bazel build //:reach_internal 2>&1) && fail "//:reach_internal built, but it depends on an internal target"
grep -q "is not visible from target" <<<"$out" || {
  echo "$out" | tail -20; fail "//:reach_internal failed for a reason other than visibility"; }
echo "downstream: internal target correctly rejected by visibility"
bazel shutdown >/dev/null 2>&1 || true
