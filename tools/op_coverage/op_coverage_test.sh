#!/usr/bin/env bash
# The table prints its three figures, and every op type used by the ONNX node
# tests is defined with a host kernel.
set -u
out=$("$1" --onnx_ops="$2") || { echo "op_coverage failed"; echo "$out"; exit 1; }
echo "$out"
for line in '^op types defined: [0-9]+$' '^op types with host kernels: [0-9]+$' \
            '^ONNX node-test op types covered: [0-9]+ of [0-9]+ \([0-9.]+%\)$' '^missing op types:'; do
  grep -Eq "$line" <<<"$out" || { echo "FAIL: no line matching $line"; exit 1; }
done
[ "$(wc -l <<<"$out")" -eq 4 ] || { echo "FAIL: expected exactly 4 lines"; exit 1; }
defined=$(sed -n 's/^op types defined: //p' <<<"$out")
host=$(sed -n 's/^op types with host kernels: //p' <<<"$out")
[ "$host" -le "$defined" ] || { echo "FAIL: more host kernels ($host) than op types ($defined)"; exit 1; }
total=$(grep -cv '^\s*$' "$2")
grep -q "covered: [0-9]* of $total " <<<"$out" || { echo "FAIL: expected $total ONNX op types"; exit 1; }
missing=$(sed -n 's/^missing op types: *//p' <<<"$out")
if [ "$missing" != "none" ]; then echo "FAIL: missing op types: $missing"; exit 1; fi
# A bad path is an error, not a silent empty table.
if "$1" --onnx_ops=/nonexistent/ops.txt >/dev/null 2>&1; then echo "FAIL: bad path accepted"; exit 1; fi
echo "op coverage OK"
