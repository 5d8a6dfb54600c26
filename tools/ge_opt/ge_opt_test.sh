#!/usr/bin/env bash
# ge_opt as a user runs it: output on stdout, errors on stderr, exit codes.
set -u
GE_OPT="$1"
DIR="${TEST_TMPDIR:-/tmp}"
fail() { echo "FAIL: $*"; exit 1; }

cat > "$DIR/g.getxt" <<'GRAPH'
graph g {
  %x = Data() {index = 0} : () -> (float[2])
  %dead = Neg(%x:0) : (float[2]) -> (float[2])
  %out = NetOutput(%x:0) : (float[2]) -> ()
}
GRAPH
out=$("$GE_OPT" "$DIR/g.getxt" --passes=DeadCodeEliminationPass) || fail "good run exited $?"
grep -q '%out = NetOutput' <<<"$out" || fail "no graph on stdout: $out"
grep -q '%dead' <<<"$out" && fail "DeadCodeEliminationPass did not run: $out"

"$GE_OPT" "$DIR/g.getxt" --output="$DIR/out.getxt" >"$DIR/stdout" || fail "--output run failed"
[ -s "$DIR/stdout" ] && fail "--output also printed on stdout"
grep -q '%dead' "$DIR/out.getxt" || fail "--output file misses the graph"

"$GE_OPT" "$DIR/g.getxt" --passes=NoSuchPass 2>"$DIR/err" && fail "unknown pass exited 0"
grep -q "unknown pass 'NoSuchPass'; known passes: .*DeadCodeEliminationPass" "$DIR/err" ||
  fail "unknown pass message: $(cat "$DIR/err")"

printf 'graph g {\n  %%a = Relu(%%b:0) : (float[1]) -> (float[1])\n}\n' > "$DIR/bad.getxt"
"$GE_OPT" "$DIR/bad.getxt" 2>"$DIR/err" && fail "malformed file exited 0"
grep -q "bad.getxt: line 2, column 13: unknown node %b" "$DIR/err" ||
  fail "malformed file message: $(cat "$DIR/err")"
echo "ge_opt_test: 1 passed, 0 failed"
