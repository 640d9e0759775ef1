#!/usr/bin/env bash
# run-exit-stress.sh <build dir> <runs> [<seconds>]
# Runs a `target nowait` program split over 4 CPU-side members <runs>
# times, each under a timeout: a run that does not end is a hang at exit
# (CpuTeam.h: libomp's hidden-helper teardown raced between StarPU workers,
# 0.1-0.2% of runs). Half of the runs preload exit-race-amplifier.c, which
# lines exiting libomp root threads up at libomp's thread-data destructor:
# without hetero's fix about 7% of those runs hung. Fails on any hang or
# wrong answer. Stops early, with what it ran, after <seconds> (default:
# no limit), so that a slow machine still ends in its budget.
set -uo pipefail
build=$1 runs=$2 budget=${3:-0}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/clang" -O2 -fopenmp -fopenmp-targets=hetero \
  "$here/exit-nowait.c" -o "$work/exit-nowait" || exit 1
cc -shared -fPIC -O2 "$here/exit-race-amplifier.c" -o "$work/amplifier.so" \
  -ldl -lpthread || exit 1
want=$(OMP_TARGET_OFFLOAD=DISABLED "$work/exit-nowait") || exit 1
export LIBOMPTARGET_PLUGIN=hetero HETERO_SIMULATE=3 HETERO_CHUNKS=2
export HETERO_SHARES=fixed HETERO_SHARES_FILE=none
# Every launch must reach every member (each StarPU worker a libomp root).
split=$(HETERO_STATS=1 "$work/exit-nowait" 2>&1 >/dev/null |
  grep -c "split=yes .*members=[^ ,]*,[^ ,]*,[^ ,]*,[^ ,]* ")
if [ "$split" -lt 2 ]; then
  echo "exit stress: the kernels did not split over every member" >&2
  HETERO_STATS=1 "$work/exit-nowait" >&2
  exit 1
fi
start=$SECONDS hangs=0 wrong=0 done=0
for ((i = 0; i < runs; ++i)); do
  if [ "$budget" -gt 0 ] && [ $((SECONDS - start)) -ge "$budget" ]; then
    echo "exit stress: time budget of ${budget} s spent after $done runs"
    break
  fi
  pre=""
  [ $((i % 2)) -eq 1 ] && pre="$work/amplifier.so"
  got=$(LD_PRELOAD=$pre timeout -k 5 10 "$work/exit-nowait" 2>"$work/err")
  rc=$?
  done=$((done + 1))
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    hangs=$((hangs + 1))
    echo "exit stress: run $i hung at exit${pre:+ (amplified)}" >&2
  elif [ $rc -ne 0 ] || [ "$got" != "$want" ]; then
    wrong=$((wrong + 1))
    echo "exit stress: run $i: status $rc, output '$got' (want '$want')" >&2
    cat "$work/err" >&2
  fi
done
echo "exit stress: $done runs ($((done / 2)) amplified), $hangs hangs," \
  "$wrong failures, $((SECONDS - start)) s"
[ "$hangs" -eq 0 ] && [ "$wrong" -eq 0 ] && [ "$done" -gt 0 ]
