#!/usr/bin/env bash
# Packs what the GPU machines need to run hetero programs and tests, where
# nothing can be installed and no compiler exists:
#   bin/      the examples
#   lib/      libomptarget (with the hetero plugin), StarPU and the rest of
#             the runtime closure (CUDA's own libraries are on those machines)
#   lit/      lit, the lit suite with its programs prebuilt, FileCheck, not
#   run-gpu-tests.sh
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
mkdir -p "$b/bin" "$b/lib" "$b/lit/tools" "$b/lit/prebuilt"

cp "$build"/examples/bin/* "$b/bin/"
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
for f in "$b"/lib/libomptarget.so.19.1 "$b"/lit/tools/* "$b"/bin/*; do collect "$f"; done
# libomptarget's libomp must be LLVM 19's, not an older system one.
cp -L /usr/lib/llvm-19/lib/libomp.so.5 "$b/lib/libomp.so.5"

cat >"$b/run-gpu-tests.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the lit suite (prebuilt programs) and the examples against the stock
# cuda plugin, on this machine's GPUs. Results under $1 (default: ./results).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
res=${1:-results}
mkdir -p "$res"
export LD_LIBRARY_PATH=$here/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export HETERO_LIT_PREBUILT=$here/lit/prebuilt
export PATH=$here/lit/tools:$PATH
cat >"$here/lit/suite/lit.site.cfg.py" <<CFG
config.hetero_bin_dir = "$here/bin"
config.hetero_lib_dir = "$here/lib"
config.hetero_llvm_bin_dir = "$here/lit/tools"
config.hetero_source_dir = "$here"
config.hetero_cuda_path = "/usr/local/cuda"
config.test_exec_root = "$here/lit/out"
lit_config.load_config(config, "$here/lit/suite/lit.cfg.py")
CFG
nvidia-smi -L | tee "$res/gpus.txt"
python3 "$here/lit/lit/lit.py" -v --order=lexical "$here/lit/suite" 2>&1 | tee "$res/lit.txt"
lit_rc=${PIPESTATUS[0]}
{
  for ex in "jacobi 2048 50" "himeno S 20" "nbody 16384 5" "cg 256 50"; do
    set -- $ex
    echo "== $ex"
    echo "-- stock cuda plugin"; LIBOMPTARGET_PLUGIN=cuda "$here/bin/$1" "${@:2}"
    echo "-- hetero (launches per member below)"
    LIBOMPTARGET_PLUGIN=hetero HETERO_INFO=1 "$here/bin/$1" "${@:2}" 2>"$res/$1.info"
    grep -v "hetero: launch" "$res/$1.info"
    grep -o "hetero: launch .* on [a-z:0-9]*" "$res/$1.info" | awk '{print $NF}' | sort | uniq -c
  done
} >"$res/examples.txt" 2>&1
cat "$res/examples.txt"
exit $lit_rc
RUN
chmod +x "$b/run-gpu-tests.sh"
tar -C "$stage" -cJf "$out/hetero-bundle.tar.xz" hetero-bundle
size=$(stat -c %s "$out/hetero-bundle.tar.xz")
echo "make-bundle: $out/hetero-bundle.tar.xz ($((size / 1024 / 1024)) MiB)"
[ "$size" -le $((64 * 1024 * 1024)) ] || { echo "make-bundle: bundle over 64 MiB" >&2; exit 1; }
