#!/usr/bin/env bash
# start-together.sh <rounds> <processes> <homes-dir> <command...>
# Runs <processes> copies of <command> at once, <rounds> times, each round
# with a fresh, empty STARPU_HOME under <homes-dir>. A run passes when it
# exits 0 and prints "ok"; the failures' outputs go to stderr.
set -uo pipefail
rounds=$1 procs=$2 homes=$3
shift 3
rm -rf "$homes"
passed=0
for r in $(seq "$rounds"); do
  home="$homes/$r"
  mkdir -p "$home"
  for p in $(seq "$procs"); do
    (STARPU_HOME="$home" timeout -k 5 120 "$@" >"$home/out.$p" 2>"$home/err.$p"
     echo $? >"$home/rc.$p") &
  done
  wait
  for p in $(seq "$procs"); do
    if [ "$(cat "$home/rc.$p")" = 0 ] && grep -qx ok "$home/out.$p"; then
      passed=$((passed + 1))
    else
      echo "start-together: round $r process $p: status $(cat "$home/rc.$p")" >&2
      tail -n 5 "$home/out.$p" "$home/err.$p" >&2
    fi
  done
done
echo "start-together: $passed of $((rounds * procs)) runs ok"
