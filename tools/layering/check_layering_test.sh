#!/usr/bin/env bash
# The layering checker must pass clean graphs and fail planted violations.
set -u
checker="$1"
data="$(dirname "$checker")/testdata"
fail=0
expect() {  # expect <exit code> <file> [<text that must appear>]
  local want="$1" file="$2" text="${3:-}" out rc
  out=$(python3 "$checker" "$data/$file" 2>&1); rc=$?
  if [ "$rc" != "$want" ]; then
    echo "FAIL: $file exited $rc, want $want"; echo "$out"; fail=1; return
  fi
  if [ -n "$text" ] && ! grep -qF -- "$text" <<<"$out"; then
    echo "FAIL: $file output lacks '$text'"; echo "$out"; fail=1; return
  fi
  echo "ok: $file -> $rc"
}
expect 0 clean_edges.dot "OK"
expect 1 violating_edges.dot "//graph:compute_graph (layer 1, graph IR) depends on //compiler/passes:constant_folding_pass (layer 4, compiler)"
# metadef types (layer 0) and registries (layer 2) share a visibility group;
# only the checker can catch this one.
expect 1 violating_same_package_tree.txt "//metadef:tensor_desc (layer 0"
expect 2 does_not_exist.dot "cannot read"
exit $fail
