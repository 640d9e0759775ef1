#!/usr/bin/env bash
# Extracts parts of a Debian .orig tarball into a directory and applies our
# patches in order. Idempotent through a stamp file.
#
#   extract-source.sh <download-dir> <package> <dest-dir> <patch-dir> [members...]
set -euo pipefail
dl=$1 pkg=$2 dest=$3 patches=$4
shift 4
stamp="$dest/.hetero-extracted"
# The stamp records the patches applied: changing a patch re-extracts.
want=$(cat "$patches"/*.patch 2>/dev/null | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "extract-source: $dest already prepared"
  exit 0
fi
orig=$(compgen -G "$dl/${pkg}_*.orig.tar.*" | head -n1)
[ -n "$orig" ] || { echo "extract-source: no orig tarball for $pkg in $dl" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$dest"
top=$(set +o pipefail; tar -tf "$orig" | head -n1 | cut -d/ -f1)
members=()
[ $# -gt 0 ] || set -- .  # no list: the whole tarball
for m in "$@"; do
  if [ "$m" = . ]; then members+=("$top"); else members+=("$top/$m"); fi
done
tar -xf "$orig" -C "$dest" --strip-components=1 "${members[@]}"
for p in "$patches"/*.patch; do
  [ -f "$p" ] || continue
  echo "extract-source: applying $(basename "$p")"
  patch -d "$dest" -p1 --forward --quiet <"$p"
done
echo "$want" >"$stamp"
