#!/usr/bin/env bash
# profile.sh PERF.tar.xz OUT TAG command...: runs the command under perf
# (software cpu-clock samples, DWARF call chains: the GPU machines run in
# VMs without hardware events) and leaves OUT/TAG.threads (samples per
# thread) and OUT/TAG.folded.xz (one line per sample, "tid time
# frame;...;leaf"), which host-profile.py reads anywhere. The command keeps
# its own LD_LIBRARY_PATH; perf gets its carried libraries.
set -uo pipefail
pack=$1 out=$2 tag=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" /tmp/hetero-perf
tar xJf "$pack" -C /tmp/hetero-perf
P="env LD_LIBRARY_PATH=/tmp/hetero-perf/perf/lib /tmp/hetero-perf/perf/perf"
data=/tmp/hetero-perf/$tag.data
$P record -e cpu-clock -F "${PROFILE_HZ:-2000}" --call-graph dwarf,6144 -o "$data" \
  env LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" "$@" >"$out/$tag.stdout" 2>"$out/$tag.stderr"
rc=$?
$P report -i "$data" --sort pid,comm --stdio -g none 2>/dev/null | grep -v '^#' |
  head -40 >"$out/$tag.threads"
$P script -i "$data" -F comm,tid,time,ip,sym 2>/dev/null | python3 "$here/fold.py" |
  xz -T4 >"$out/$tag.folded.xz"
rm -f "$data"
echo "profile.sh: $tag exit status $rc; $out/$tag.folded.xz"
