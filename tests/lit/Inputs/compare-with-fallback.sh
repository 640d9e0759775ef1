#!/usr/bin/env bash
# compare-with-fallback.sh <exe> [args...]
# Runs <exe> on the hetero device and with offload disabled (host fallback);
# fails when their standard outputs differ, else prints the hetero output
# (for FileCheck). Extra environment for the hetero run comes from the caller.
set -uo pipefail
out_hetero=$(mktemp) out_fallback=$(mktemp)
trap 'rm -f "$out_hetero" "$out_fallback"' EXIT
LIBOMPTARGET_PLUGIN=hetero "$@" >"$out_hetero"
rc_h=$?
env -u LIBOMPTARGET_PLUGIN OMP_TARGET_OFFLOAD=DISABLED "$@" >"$out_fallback"
rc_f=$?
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
