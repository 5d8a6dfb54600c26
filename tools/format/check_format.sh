#!/usr/bin/env bash
# Checks C++ formatting against the root .clang-format (CI runs it).
#
#   bash tools/format/check_format.sh           # every tracked C++ file
#   bash tools/format/check_format.sh REV       # the files changed since REV
#   bash tools/format/check_format.sh --fix ... # reformat them in place
#
# Exits 1 naming each file clang-format would change (with its diff), 0 when
# all are formatted. third_party/ is left as it is.
set -euo pipefail
cd "$(dirname "$0")/../.."
fix=0
if [ "${1:-}" = "--fix" ]; then fix=1; shift; fi
if [ $# -gt 0 ]; then
  mapfile -t files < <(git diff --name-only --diff-filter=ACMR "$1" -- '*.cc' '*.h' '*.c' |
                       grep -v '^third_party/' || true)
else
  mapfile -t files < <(git ls-files -- '*.cc' '*.h' '*.c' | grep -v '^third_party/')
fi
if [ "${#files[@]}" -eq 0 ]; then
  echo "check_format: no C++ files to check"
  exit 0
fi
if [ "$fix" -eq 1 ]; then
  clang-format -i "${files[@]}"
  echo "check_format: formatted ${#files[@]} files"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! out=$(clang-format "$f" | diff -u "$f" - --label "$f" --label "$f (formatted)"); then
    echo "$out" | head -40
    bad=$((bad + 1))
  fi
done
if [ "$bad" -ne 0 ]; then
  echo "check_format: $bad of ${#files[@]} files are not formatted" \
       "(bash tools/format/check_format.sh --fix)"
  exit 1
fi
echo "check_format: OK (${#files[@]} files)"
