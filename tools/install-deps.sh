#!/usr/bin/env bash
# Installs the Debian 12 packages hetero builds with (needs root or sudo).
# Idempotent: nothing is installed when everything is already there.
set -euo pipefail
pkgs=(clang-19 clang-tools-19 libclang-rt-19-dev libomp-19-dev llvm-19-dev llvm-19-tools libclang-19-dev
      libhwloc-dev libffi-dev libzstd-dev libgtest-dev uthash-dev
      ninja-build cmake make patch xz-utils pkg-config python3 dpkg-dev
      clang-format-19 openmpi-bin libopenmpi-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
