#!/usr/bin/env bash
# Packs what the GPU machines need to run hetero programs and tests, where
# nothing can be installed and no compiler exists:
#   bin/      the examples, built for hetero, and hetero-info
#   bin-plain/  the same examples built by plain clang-19 (bench.py's stock)
#   lib/      libomptarget (with the hetero plugin), StarPU (which it loads
#             when hetero is selected) and the rest of the runtime closure
#             (CUDA's own libraries are on those machines)
#   lit/      lit, the lit suite with its programs prebuilt, FileCheck, not
#   run-gpu-tests.sh
#   tools/    bench.py, bench_kernels.py, same_answers.py, trace-plot.py,
#             launch-costs.py, bar_plot.py and host-profile/ (perf itself is carried apart:
#             tools/host-profile/pack-perf.sh)
# into <out-dir>/hetero-bundle.tar.xz (at most 64 MiB, checked).
#
#   make-bundle.sh <build-dir> <source-dir> <out-dir> [gpu-arch]
set -euo pipefail
build=$(realpath "$1") src=$(realpath "$2") out=$3 arch=${4:-sm_90}
mkdir -p "$out"
out=$(realpath "$out")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
b=$stage/hetero-bundle
mkdir -p "$b/bin" "$b/bin-plain" "$b/lib" "$b/lit/tools" "$b/lit/prebuilt"

cp "$build"/examples/bin/* "$build/bin/hetero-info" "$b/bin/"
cp "$build"/examples/bin-plain/* "$b/bin-plain/"
cp -P "$build"/lib/libomptarget.so* "$b/lib/"
cp /usr/lib/llvm-19/bin/FileCheck /usr/lib/llvm-19/bin/not "$b/lit/tools/"
cp -r "$build/_deps/llvm-src/llvm/utils/lit" "$b/lit/lit"
cp -r "$src/tests/lit" "$b/lit/suite"
"$src/tools/prebuild-lit.py" "$src/tests/lit" "$build/bin" "$b/lit/prebuilt" "$arch"

# The runtime closure, minus glibc/libstdc++ (newer on the GPU machines) and
# CUDA's libraries (installed there).
skip='^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|librt\.|libpthread\.|libgcc_s\.|libstdc\+\+\.|libcuda|libcublas|libcusparse|libcudart|libnvJitLink|libnvidia)'
declare -A seen
collect() {
  local f=$1
  while read -r name arrow path _; do
    [ "$arrow" = "=>" ] || continue
    [[ $name =~ $skip ]] && continue
    [ -n "${seen[$name]:-}" ] && continue
    [ -f "$path" ] || { echo "make-bundle: $name not found (needed by $f)" >&2; exit 1; }
    seen[$name]=1
    cp -L "$path" "$b/lib/$name"
    collect "$path"
  done < <(LD_LIBRARY_PATH="$build/lib:$build/third_party/starpu/lib" ldd "$f")
}
# StarPU, which libomptarget loads when hetero is selected (not linked).
cp -L "$build/third_party/starpu/lib/libstarpu-1.3.so.9" "$b/lib/"
for f in "$b"/lib/libomptarget.so.19.1 "$b"/lib/libstarpu-1.3.so.9 "$b"/lit/tools/* "$b"/bin/* "$b"/bin-plain/*; do collect "$f"; done
# libomptarget's libomp must be LLVM 19's, not an older system one.
cp -L /usr/lib/llvm-19/lib/libomp.so.5 "$b/lib/libomp.so.5"

mkdir -p "$b/tools"
cp "$src/tools/run-gpu-tests.sh" "$b/"
cp "$src/tools/bench.py" "$src/tools/same_answers.py" "$src/tools/trace-plot.py" \
  "$src/tools/launch-costs.py" "$src/tools/bar_plot.py" \
  "$src/tools/bench_kernels.py" "$b/tools/"
mkdir -p "$b/tools/host-profile"
cp "$src"/tools/host-profile/*.py "$src"/tools/host-profile/*.sh "$b/tools/host-profile/"
chmod +x "$b/run-gpu-tests.sh" "$b"/tools/*.py "$b"/tools/host-profile/*
tar -C "$stage" -cJf "$out/hetero-bundle.tar.xz" hetero-bundle
size=$(stat -c %s "$out/hetero-bundle.tar.xz")
echo "make-bundle: $out/hetero-bundle.tar.xz ($((size / 1024 / 1024)) MiB)"
[ "$size" -le $((64 * 1024 * 1024)) ] || { echo "make-bundle: bundle over 64 MiB" >&2; exit 1; }
