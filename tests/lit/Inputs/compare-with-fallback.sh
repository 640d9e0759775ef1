#!/usr/bin/env bash
# compare-with-fallback.sh <exe> [args...]
# Runs <exe> on the hetero device and with offload disabled (host fallback);
# fails when their standard outputs differ, else prints the hetero output
# (for FileCheck). Extra environment for the hetero run comes from the caller.
# Each run gets COMPARE_TIMEOUT seconds (default 300): LLVM 19's host
# fallback itself sometimes aborts or stalls on nowait regions (seen 1 in 60
# runs of nowait-depend), and a stall must fail the test, not the suite.
set -uo pipefail
out_hetero=$(mktemp) out_fallback=$(mktemp)
trap 'rm -f "$out_hetero" "$out_fallback"' EXIT
limit=${COMPARE_TIMEOUT:-300}
LIBOMPTARGET_PLUGIN=hetero timeout -k 5 "$limit" "$@" >"$out_hetero"
rc_h=$?
[ $rc_h -eq 124 ] && echo "compare-with-fallback: the hetero run stalled (${limit} s)" >&2
# The fallback is only the reference: when LLVM's libomp kills it (an
# assertion's abort, a signal, a stall) it is run again, at most twice, and
# said so; the hetero run is never rerun.
for attempt in 1 2 3; do
  env -u LIBOMPTARGET_PLUGIN OMP_TARGET_OFFLOAD=DISABLED timeout -k 5 "$limit" "$@" >"$out_fallback"
  rc_f=$?
  [ $rc_f -eq 124 ] && echo "compare-with-fallback: the host fallback run stalled (${limit} s)" >&2
  [ $rc_f -lt 124 ] && break
  echo "compare-with-fallback: the host fallback run died (status $rc_f, attempt $attempt of 3)" >&2
done
if [ $rc_h -ne $rc_f ]; then
  echo "compare-with-fallback: exit status $rc_h under hetero, $rc_f in fallback" >&2
  diff -u "$out_fallback" "$out_hetero" >&2
  exit 1
fi
if ! diff -u "$out_fallback" "$out_hetero" >&2; then
  echo "compare-with-fallback: hetero output differs from the host fallback" >&2
  exit 1
fi
cat "$out_hetero"
exit $rc_h
