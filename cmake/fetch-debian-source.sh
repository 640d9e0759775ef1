#!/usr/bin/env bash
# Downloads a Debian source package with a private apt configuration derived
# from this machine's own apt sources (deb -> deb-src), so nothing outside the
# build tree changes and no registry host is written into the repository.
#
#   fetch-debian-source.sh <package> <download-dir>
#
# Leaves the .dsc, .orig.tar.* and .debian.tar.* in <download-dir>. Idempotent:
# a directory that already holds the package's .dsc is left alone.
set -euo pipefail
pkg=$1
dir=$2
mkdir -p "$dir"
if compgen -G "$dir/${pkg}_*.dsc" >/dev/null; then
  echo "fetch-debian-source: $pkg already in $dir"
  exit 0
fi
apt_dir="$dir/apt"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/sources.list.d"
: >"$apt_dir/sources.list"
# One-line sources.
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
  [ -f "$f" ] || continue
  sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >>"$apt_dir/sources.list"
done
# deb822 sources.
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  sed 's/^Types:.*/Types: deb-src/' "$f" >"$apt_dir/sources.list.d/$(basename "$f")"
done
opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list"
      -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
      -o "Dir::State::Lists=$apt_dir/lists"
      -o "APT::Sandbox::User=root")
# A third-party repository without sources must not stop us: the download
# below is what has to succeed.
apt-get "${opts[@]}" -qq update || echo "fetch-debian-source: apt-get update reported errors; trying the download anyway"
(cd "$dir" && apt-get "${opts[@]}" source --download-only "$pkg")
compgen -G "$dir/${pkg}_*.dsc" >/dev/null || {
  echo "fetch-debian-source: could not download the source package '$pkg'" >&2
  exit 1
}
