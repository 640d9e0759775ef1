#!/usr/bin/env bash
# Installs hetero from a build tree and uses it as a user would:
#   1. `cmake --install <build> --prefix <work>/prefix`;
#   2. moves the prefix (relocatable) and runs its hetero-info;
#   3. builds tests/install/project (find_package(Hetero), Hetero::offload)
#      against the moved prefix and runs it on the CPU pool with simulated
#      accelerators: both loops split, the host fallback's answer;
#   4. builds tests/install/findopenmp (FindOpenMP, CXX=<build>/bin/clang++):
#      hetero's libomptarget comes first in its RUNPATH and the program runs
#      on hetero; with Debian's libomptarget forced first by LD_LIBRARY_PATH
#      it says so and stops;
#   5. find_package(Hetero) with another C++ compiler fails, naming it.
# One PASS:/FAIL: line per check; exit 0 when all pass.
#
#   run-install-test.sh <build-dir> <work-dir>
set -euo pipefail
build=$(cd "$1" && pwd)
mkdir -p "$2"
work=$(cd "$2" && pwd)
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
failures=0
pass() { echo "PASS: $*"; }
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
check() { # check DESCRIPTION COMMAND...: PASS when the command succeeds
  local what=$1
  shift
  if "$@" >"$work/last.log" 2>&1; then pass "$what"; else
    fail "$what"
    tail -20 "$work/last.log" | sed 's/^/  /'
  fi
}
export HETERO_SHARES_FILE=none HETERO_SHARES=fixed
export STARPU_HOME=$work/starpu-home
unset LIBOMPTARGET_PLUGIN

rm -rf "$work/prefix" "$work/moved" "$work/project" "$work/findopenmp" "$work/wrong"
check "cmake --install to a prefix" cmake --install "$build" --prefix "$work/prefix"
mv "$work/prefix" "$work/moved"
prefix=$work/moved
check "the moved prefix's hetero-info starts a pool" \
  env HETERO_SIMULATE=2 "$prefix/bin/hetero-info"
# (The work directory may lie inside the build tree, as under ctest.)
# libomptarget is linked; StarPU, and the CUDA runtime it links, are loaded
# when the pool starts, and hetero-info says from where.
from_elsewhere=""
while read -r lib _ path _; do
  [[ "$(readlink -f "$path")" == "$prefix/lib/"* ]] || from_elsewhere+=" $lib=$path"
done < <(ldd "$prefix/bin/hetero-info" | grep -E "libomptarget|libstarpu")
libs=$(HETERO_SIMULATE=1 "$prefix/bin/hetero-info" | sed -n 's/^libraries: //p')
for lib in libstarpu-1.3.so.9 libcudart.so; do
  path=$(tr ',' '\n' <<<"$libs" | sed 's/^ *//' | grep "/$lib" || true)
  [[ "$(readlink -f "$path")" == "$prefix/lib/"* ]] || from_elsewhere+=" $lib=${path:-not loaded}"
done
if [[ -n "$from_elsewhere" ]]; then
  fail "the installed hetero-info loads hetero's libraries from outside the prefix: $from_elsewhere"
else
  pass "the installed hetero-info loads libomptarget, StarPU and the CUDA runtime from the prefix"
fi
# What a hetero program needs at run time, beside the prefix: no CUDA
# toolkit library (the driver's libcuda is loaded when present).
needed=$(for f in "$prefix"/lib/*.so*; do readelf -d "$f" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p'; done |
  sort -u | grep -E "^lib(cu|nv)" | grep -v "^libcudart" || true)
if [[ -n "$needed" ]]; then
  fail "the prefix's libraries need CUDA toolkit libraries: $needed"
else
  pass "the prefix's libraries need no CUDA toolkit library but the CUDA runtime it carries"
fi

check "configure the out-of-tree project with find_package(Hetero)" \
  cmake -S "$src/project" -B "$work/project" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$prefix/bin/clang++" -DCMAKE_BUILD_TYPE=Release
check "build it" cmake --build "$work/project"
app=$work/project/saxpy-dot
ref=$(OMP_TARGET_OFFLOAD=DISABLED "$app" || true)
out=$(env LIBOMPTARGET_PLUGIN=hetero HETERO_SIMULATE=2 HETERO_STATS=1 "$app" 2>"$work/project.stats" || true)
if [[ -n "$ref" && "$out" == "$ref" ]]; then pass "it gives the host's answer ($out)"; else
  fail "answer '$out', host '$ref'"
fi
if [[ $(grep -c 'split=yes' "$work/project.stats") == 2 ]]; then
  pass "both loops split over the pool"
else
  fail "loops not split: $(cat "$work/project.stats")"
fi
if ldd "$app" | grep "libomptarget" | grep -q "$prefix/lib"; then
  pass "it loads the prefix's libomptarget"
else
  fail "it loads $(ldd "$app" | grep libomptarget)"
fi

check "configure an existing FindOpenMP project with CXX=build/bin/clang++" \
  cmake -S "$src/findopenmp" -B "$work/findopenmp" \
  -DCMAKE_CXX_COMPILER="$build/bin/clang++" -DCMAKE_BUILD_TYPE=Release
check "build it" cmake --build "$work/findopenmp"
app=$work/findopenmp/app
runpath=$(readelf -d "$app" | sed -n 's/.*R\(UN\)\{0,1\}PATH.*\[\(.*\)\]/\2/p')
first_dir=""
IFS=: read -ra dirs <<<"$runpath"
for d in "${dirs[@]}"; do
  d=${d//\$ORIGIN/$(dirname "$app")}
  if [[ -e "$d/libomptarget.so.19.1" ]]; then first_dir=$d; break; fi
done
if [[ "$first_dir" -ef "$build/lib" ]]; then
  pass "hetero's lib comes before every other libomptarget in the RUNPATH ($runpath)"
else
  fail "the first libomptarget in the RUNPATH ($runpath) is in '$first_dir'"
fi
out=$(env LIBOMPTARGET_PLUGIN=hetero HETERO_SIMULATE=2 HETERO_INFO=1 "$app" 2>&1 || true)
if grep -q "hetero: pool:" <<<"$out" && grep -q "^sum=" <<<"$out"; then
  pass "it runs on hetero"
else
  fail "it did not run on hetero: $out"
fi
set +e
out=$(env LD_LIBRARY_PATH=/usr/lib/llvm-19/lib LIBOMPTARGET_PLUGIN=hetero "$app" 2>&1)
rc=$?
set -e
if [[ $rc != 0 ]] && grep -q "hetero: error: LIBOMPTARGET_PLUGIN=hetero, but this program loaded .*, which is not hetero's libomptarget" <<<"$out" &&
  ! grep -q "^sum=" <<<"$out"; then
  pass "on another libomptarget it says so and stops ($(head -c 160 <<<"$out")...)"
else
  fail "on another libomptarget: status $rc, output: $out"
fi

set +e
out=$(cmake -S "$src/project" -B "$work/wrong" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER=/usr/bin/g++ 2>&1)
rc=$?
set -e
if [[ $rc != 0 ]] && grep -q "not hetero's" <<<"$out"; then
  pass "find_package(Hetero) with g++ fails, naming the compiler to use"
else
  fail "find_package(Hetero) with g++: status $rc"
fi

if [[ $failures == 0 ]]; then echo "PASS: all checks passed"; else
  echo "FAIL: $failures check(s) failed (logs in $work)"
  exit 1
fi
