#!/usr/bin/env bash
# Stands in for the compiler on a machine that has none (the GPU machines):
#   prebuilt-clang.sh <dir> <compiler and args...>
# copies <dir>/<basename of the -o file> (made by tools/prebuild-lit.py) to
# the -o file.
set -euo pipefail
dir=$1
shift
out="" prev=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out=$a
  prev=$a
done
[ -n "$out" ] || { echo "prebuilt-clang: no -o in: $*" >&2; exit 1; }
src="$dir/$(basename "$out")"
[ -f "$src" ] || { echo "prebuilt-clang: $src was not prebuilt" >&2; exit 1; }
cp "$src" "$out"
