#!/usr/bin/env bash
# Writes every distinct descriptor the compiler gives the lit suite's
# programs (HETERO_DESC_DEBUG=1, x86_64 image compile) to one file, separated
# by blank lines: the corpus of tests/unit/DescriptorWriterTest.cpp's
# round trip (tests/unit/Inputs/lit-descriptors.txt).
#
#   descriptor-corpus.sh <build-dir> > tests/unit/Inputs/lit-descriptors.txt
set -euo pipefail
build=$(realpath "$1")
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$src"/tests/lit/*.c "$src"/tests/lit/*.cpp "$src"/tests/lit/split/*.c \
  "$src"/tests/lit/split/*.cpp "$src"/examples/*.c; do
  cc=$build/bin/clang
  [[ $f == *.cpp ]] && cc=$build/bin/clang++
  HETERO_DESC_DEBUG=1 HETERO_OFFLOAD_ARCH=sm_90 "$cc" -O2 -fopenmp \
    -fopenmp-targets=hetero -I"$src/examples" -c "$f" -o "$tmp/o.o" \
    2>>"$tmp/desc.txt" >/dev/null || true
done
python3 - "$tmp/desc.txt" <<'PY'
import sys
words = {"hetero-kernel", "split", "nest", "loop", "var", "read", "write",
         "readall", "readany", "reduce", "host-only", "one-kind", "source"}
seen, out, cur = set(), [], None
for line in open(sys.argv[1]):
    if line.startswith("hetero-desc "):
        cur = []
        out.append(cur)
    elif cur is not None and line.split(" ")[0].strip() in words:
        cur.append(line.rstrip("\n"))
    else:
        cur = None
for d in out:
    t = "\n".join(d)
    if t.startswith("hetero-kernel") and t not in seen:
        seen.add(t)
        print(t + "\n")
PY
