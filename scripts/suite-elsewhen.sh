#!/usr/bin/env bash
# Runs the whole suite (npm test) as another machine would see it: with the system date moved a
# year ahead (Debian's faketime) and with both cores kept busy (stress-ng beside it), ROUNDS times
# each (3 by default). Prints one line per run and ends with "N passed, N failed" (runs, not tests).
# Needs: apt-get install -y faketime stress-ng. Usage: bash scripts/suite-elsewhen.sh [ROUNDS]
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
rounds=${1:-3}
for tool in faketime stress-ng; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install -y faketime stress-ng" >&2; exit 2; }
done
logs=$(mktemp -d)
ok=0
bad=0
run() { # name, command...
  local name=$1 log="$logs/$1.log"
  shift
  local start=$SECONDS
  "$@" >"$log" 2>&1
  local status=$?
  local summary
  summary=$(grep -E '^ *[0-9]+ (pass|fail)$' "$log" | tr -s ' \n' ' ')
  if [ "$status" -eq 0 ]; then ok=$((ok + 1)); else bad=$((bad + 1)); fi
  printf '%-14s exit %s  %s (%ss)  %s\n' "$name" "$status" "$summary" "$((SECONDS - start))" "$log"
  [ "$status" -eq 0 ] || grep -E '^\(fail\)' "$log" | sort -u | sed 's/^/    /'
}
for i in $(seq 1 "$rounds"); do
  run "year-ahead-$i" faketime -f '+365d' npm test
  stress-ng --cpu "$(nproc)" --timeout 0 --quiet &
  stress=$!
  run "busy-cores-$i" npm test
  kill "$stress" 2>/dev/null
  wait "$stress" 2>/dev/null
done
echo
echo "$ok passed, $bad failed"
[ "$bad" -eq 0 ]
