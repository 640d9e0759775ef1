#!/usr/bin/env bash
# pack-perf.sh OUT.tar.xz: this machine's perf with the libraries it needs
# beyond the C and C++ runtimes, for a GPU machine whose image has no perf
# (carry the tarball; profile.sh unpacks it). About 6.6 MB on Debian 12.
set -euo pipefail
out=$(realpath -m "$1")
perf=$(command -v perf) || { echo "pack-perf: no perf on this machine" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/perf/lib"
cp "$perf" "$tmp/perf/perf"
ldd "$perf" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
  case $lib in */libc.so*|*/libm.so*|*/libstdc++*|*/libgcc_s*) ;;
  *) cp -L "$lib" "$tmp/perf/lib/" ;; esac
done
tar cJf "$out" -C "$tmp" perf
echo "pack-perf: $out"
