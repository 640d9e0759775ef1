#!/usr/bin/env bash
# Runs the C and C++ offload tests of the OpenMP Validation & Verification
# suite (SOLLVE/sollve_vv, github.com/SOLLVE/sollve_vv; not part of this
# repository: pass a checkout) built with hetero's clang, under several
# plugins, and compares them.
#
#   openmp-vv.sh [options] <suite-dir> <build-dir>         build and run
#   openmp-vv.sh --build-only [options] <suite-dir> <build-dir>
#   openmp-vv.sh --prebuilt <dir> [options]                 run only (no compiler)
#
# Selection: every *.c / *.cpp under <suite>/tests/<version>/ (versions: all
# present, or --versions) that contains "omp target" (any spacing), less
# 4.5/application_kernels/qmcpack_target_static_lib.c, which the suite's
# Makefile also leaves out unless LINK_OMPVV_LIB=1 (it needs libompvv.a).
#
# Compilation mimics the suite's Makefile for CC=clang / CXX=clang++
# (sys/make/make.def) with the offload flags replaced:
#   <build>/bin/clang   -I<suite>/ompvv -O2 -fopenmp -fopenmp-targets=hetero
#                       [-fopenmp-version=50|51|52 for tests/5.0|5.1|5.2]
#                       -DVERBOSE_MODE=1 <test>.c -o <bin> -lm
#   <build>/bin/clang++ ... -std=c++11 ...          (C++ tests)
# (-DVERBOSE_MODE=1 is the Makefile's VERBOSE_TESTS=1: the tests print what
# they check; the OMPVV_NUM_* defaults of ompvv.h are kept, as the Makefile
# does unless NUM_THREADS_DEVICE/NUM_TEAMS_DEVICE/NUM_THREADS_HOST are set.)
# HETERO_OFFLOAD_ARCH (default here: sm_90) picks the NVPTX images.
# A test that does not compile is recorded as compile-error in every mode
# (compile.csv keeps the compiler's verdict; the log is in compile-logs/).
#
# Running mimics sys/scripts/run_test.sh: a timeout per run (SOLLVE_TIMELIMIT
# there, -t here, default 60 s), pass = exit status 0. run_test.sh also
# exports OMP_THREAD_LIMIT=<number of CPUs>; that is left out unless
# --thread-limit is given: with LLVM 19's stock host plugin every
# "target ... nowait depend(...)" test then deadlocks (target tasks wait for
# threads the limit forbids; seen with OMP_THREAD_LIMIT=2 and 4).
# Modes (-m, comma list, default stock,hetero,hetero-sim):
#   stock       LIBOMPTARGET_PLUGIN=host        LLVM's stock host (x86_64) plugin
#   hetero      LIBOMPTARGET_PLUGIN=hetero      hetero (CPU pool; + GPUs if any)
#   hetero-sim  LIBOMPTARGET_PLUGIN=hetero HETERO_SIMULATE=3
#   cuda        LIBOMPTARGET_PLUGIN=cuda        LLVM's stock cuda plugin (GPU machines)
#   hetero-gpu  LIBOMPTARGET_PLUGIN=hetero HETERO_MEMBERS=cuda:0 (every kernel on GPU 0's share)
#   NAME@VAR=VAL@VAR=VAL...                     any other environment
# Status: pass (0), timeout (timeout expired), crash (killed by a signal:
# exit status > 128, e.g. abort from a libomptarget fatal error),
# fail (other non-zero status), compile-error.
#
# Options:
#   -o DIR           results (default ./openmp-vv-results): results.csv
#                    (test,mode,status,exit_code), compile.csv, summary.txt,
#                    tests.txt (selected), run-tests.txt (run: --filter),
#                    logs/<mode>/<test>.log, compile-logs/
#   -j N             tests in parallel (compile and run; default 2)
#   -t SEC           timeout per run (default 60)
#   -m MODES         modes, see above
#   --versions LIST  e.g. 4.5,5.0 (default: every tests/<version> present)
#   --filter REGEX   only tests whose path (e.g. 5.0/target/test_x.c) matches
#   --build-only     compile only; binaries go to <out>/bin (one per test,
#                    named <version>__<dir>__<file>.bin) with tests.txt and
#                    compile.csv: carry <out> and use --prebuilt <out> there
#   --prebuilt DIR   run DIR/bin/*.bin (from --build-only), no compiler needed;
#                    compile errors are taken from DIR/compile.csv
#   --lib DIR        prepend DIR to LD_LIBRARY_PATH when running (e.g. the
#                    lib/ of hetero-bundle, where the build's rpath is absent;
#                    a binary also looks in $ORIGIN/../lib)
#   --thread-limit   export OMP_THREAD_LIMIT=<CPUs> as run_test.sh does
#   --env VAR=VAL    extra environment for every run (repeatable)
set -uo pipefail

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-2}"; }

out=$PWD/openmp-vv-results jobs=2 tmo=60 modes=stock,hetero,hetero-sim
versions="" filter="" build_only=0 prebuilt="" libdir="" thread_limit=0
extra_env=()
pos=()
while [ $# -gt 0 ]; do
  case "$1" in
  -o) out=$2; shift 2 ;;
  -j) jobs=$2; shift 2 ;;
  -t) tmo=$2; shift 2 ;;
  -m) modes=$2; shift 2 ;;
  --versions) versions=$2; shift 2 ;;
  --filter) filter=$2; shift 2 ;;
  --build-only) build_only=1; shift ;;
  --prebuilt) prebuilt=$(realpath "$2"); shift 2 ;;
  --lib) libdir=$(realpath "$2"); shift 2 ;;
  --thread-limit) thread_limit=1; shift ;;
  --env) extra_env+=("$2"); shift 2 ;;
  -h | --help) usage 0 ;;
  -*) echo "openmp-vv: unknown option $1" >&2; usage ;;
  *) pos+=("$1"); shift ;;
  esac
done

mkdir -p "$out"
out=$(realpath "$out")

# ---------------------------------------------------------------- helpers
# Interrupted: end this script's own descendants (compilers, tests).
descendants() {
  local c
  for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do descendants "$c"; echo "$c"; done
}
trap 'trap - INT TERM; kill $(descendants $$) 2>/dev/null; exit 130' INT TERM

# test path (5.0/target/x.c) -> binary name (5.0__target__x.c.bin)
binname() { local n=${1//\//__}; echo "$n.bin"; }

# Runs "$@" for every line of stdin, at most $jobs at a time.
pool() {
  local line n=0
  while IFS= read -r line; do
    if [ $n -ge "$jobs" ]; then wait -n; n=$((n - 1)); fi
    "$@" "$line" &
    n=$((n + 1))
  done
  wait
}

# -------------------------------------------------------------- selection
if [ -n "$prebuilt" ]; then
  [ ${#pos[@]} -eq 0 ] || { echo "openmp-vv: --prebuilt takes no suite/build arguments" >&2; usage; }
  [ -f "$prebuilt/tests.txt" ] && [ -f "$prebuilt/compile.csv" ] ||
    { echo "openmp-vv: $prebuilt has no tests.txt/compile.csv (not from --build-only?)" >&2; exit 2; }
  bindir=$prebuilt/bin
  grep -E "${filter:-.}" "$prebuilt/tests.txt" >"$out/run-tests.txt"
  if [ "$prebuilt" != "$out" ]; then
    { head -1 "$prebuilt/compile.csv"; tail -n +2 "$prebuilt/compile.csv" | grep -E "${filter:-.}"; } >"$out/compile.csv"
  fi
else
  [ ${#pos[@]} -eq 2 ] || usage
  suite=$(realpath "${pos[0]}") build=$(realpath "${pos[1]}")
  [ -f "$suite/ompvv/ompvv.h" ] || { echo "openmp-vv: $suite is not a sollve_vv checkout" >&2; exit 2; }
  [ -x "$build/bin/clang" ] || { echo "openmp-vv: $build/bin/clang not found" >&2; exit 2; }
  if [ -z "$versions" ]; then
    versions=$(cd "$suite/tests" && ls -d [0-9]* | tr '\n' ,)
  fi
  : >"$out/tests.txt"
  for v in ${versions//,/ }; do
    [ -d "$suite/tests/$v" ] || { echo "openmp-vv: no tests/$v in $suite" >&2; exit 2; }
    (cd "$suite/tests" && find "$v" -type f \( -name '*.c' -o -name '*.cpp' \) | LC_ALL=C sort |
      while IFS= read -r f; do
        [ "$f" = 4.5/application_kernels/qmcpack_target_static_lib.c ] && continue
        grep -qE 'omp[[:space:]]+target' "$f" && echo "$f"
      done) >>"$out/tests.txt"
  done
  if [ -n "$filter" ]; then
    grep -E "$filter" "$out/tests.txt" >"$out/tests.txt.f"
    mv "$out/tests.txt.f" "$out/tests.txt"
  fi
  bindir=$out/bin
  cp "$out/tests.txt" "$out/run-tests.txt"
fi
ntests=$(wc -l <"$out/run-tests.txt")
echo "openmp-vv: $ntests tests selected ($out/run-tests.txt)"

# ------------------------------------------------------------ compilation
compile_one() {
  local t=$1 src=$suite/tests/$1 bin log cc std=() ver=() rc status
  bin=$bindir/$(binname "$t")
  log=$out/compile-logs/$(binname "$t" | sed 's/\.bin$/.log/')
  case "$t" in
  *.cpp) cc=$build/bin/clang++; std=(-std=c++11) ;;
  *) cc=$build/bin/clang ;;
  esac
  case "$t" in
  5.0/*) ver=(-fopenmp-version=50) ;;
  5.1/*) ver=(-fopenmp-version=51) ;;
  5.2/*) ver=(-fopenmp-version=52) ;;
  esac
  local cmd=("$cc" -I"$suite/ompvv" "${std[@]}" -O2 -fopenmp -fopenmp-targets=hetero
    "${ver[@]}" -DVERBOSE_MODE=1 "$src" -o "$bin" -lm)
  { echo "${cmd[*]}"; timeout -k 10 600 "${cmd[@]}"; } >"$log" 2>&1
  rc=$?
  status=ok
  [ $rc -eq 0 ] && [ -x "$bin" ] || { status=compile-error; rm -f "$bin"; }
  echo "$t,$status,$rc" >"$out/.compile/$(binname "$t")"
}

if [ -z "$prebuilt" ]; then
  export HETERO_OFFLOAD_ARCH=${HETERO_OFFLOAD_ARCH:-sm_90}
  rm -rf "$out/.compile" "$out/compile-logs"
  mkdir -p "$bindir" "$out/.compile" "$out/compile-logs"
  echo "openmp-vv: compiling with $build/bin/clang (HETERO_OFFLOAD_ARCH=$HETERO_OFFLOAD_ARCH, -j$jobs)"
  pool compile_one <"$out/tests.txt"
  {
    echo "test,status,exit_code"
    while IFS= read -r t; do cat "$out/.compile/$(binname "$t")"; done <"$out/tests.txt"
  } >"$out/compile.csv"
  rm -rf "$out/.compile"
  nok=$(grep -c ',ok,' "$out/compile.csv")
  echo "openmp-vv: $nok of $ntests compiled ($out/compile.csv)"
  size=$(du -cb "$bindir"/*.bin 2>/dev/null | tail -1 | cut -f1)
  echo "openmp-vv: binaries: $((${size:-0} / 1024)) KiB in $bindir"
  [ $build_only = 1 ] && exit 0
fi

# ---------------------------------------------------------------- running
mode_env() {
  case "$1" in
  stock) echo "LIBOMPTARGET_PLUGIN=host" ;;
  hetero) echo "LIBOMPTARGET_PLUGIN=hetero" ;;
  hetero-sim) echo "LIBOMPTARGET_PLUGIN=hetero HETERO_SIMULATE=3" ;;
  cuda) echo "LIBOMPTARGET_PLUGIN=cuda" ;;
  hetero-gpu) echo "LIBOMPTARGET_PLUGIN=hetero HETERO_MEMBERS=cuda:0" ;;
  *@*) echo "${1#*@}" | tr @ ' ' ;;
  *) echo "openmp-vv: unknown mode $1" >&2; return 1 ;;
  esac
}
mode_name() { echo "${1%%@*}"; }

if [ $thread_limit = 1 ]; then export OMP_THREAD_LIMIT=$(nproc --all); fi
[ -n "$libdir" ] && export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

run_one() {
  local t=$1 bin log rc status envs
  bin=$bindir/$(binname "$t")
  log=$out/logs/$mname/$(binname "$t" | sed 's/\.bin$/.log/')
  read -r -a envs <<<"$menv"
  if [ ! -x "$bin" ]; then
    echo "$t,$mname,compile-error," >"$out/.run/$mname/$(binname "$t")"
    return
  fi
  # (the outer subshell keeps bash's "Segmentation fault" notices out of the way)
  { (cd "$out/work/$mname" && exec env "${envs[@]}" "${extra_env[@]}" timeout -k 5 "$tmo" "$bin") >"$log" 2>&1 </dev/null; } 2>/dev/null
  rc=$?
  if [ $rc -eq 0 ]; then status=pass
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then status=timeout
  elif [ $rc -gt 128 ]; then status=crash
  else status=fail
  fi
  echo "$t,$mname,$status,$rc" >"$out/.run/$mname/$(binname "$t")"
}

names=()
for m in ${modes//,/ }; do
  mname=$(mode_name "$m")
  menv=$(mode_env "$m") || exit 2
  names+=("$mname")
  rm -rf "$out/logs/$mname" "$out/.run/$mname" "$out/work/$mname"
  mkdir -p "$out/logs/$mname" "$out/.run/$mname" "$out/work/$mname"
  echo "openmp-vv: mode $mname ($menv${OMP_THREAD_LIMIT:+ OMP_THREAD_LIMIT=$OMP_THREAD_LIMIT}), timeout ${tmo}s, -j$jobs"
  start=$SECONDS
  pool run_one <"$out/run-tests.txt"
  echo "openmp-vv: mode $mname done in $((SECONDS - start)) s"
done

{
  echo "test,mode,status,exit_code"
  for mname in "${names[@]}"; do
    while IFS= read -r t; do cat "$out/.run/$mname/$(binname "$t")"; done <"$out/run-tests.txt"
  done
} >"$out/results.csv"
rm -rf "$out/.run" "$out/work"

# ---------------------------------------------------------------- summary
python3 - "$out" "${names[@]}" <<'PY' | tee "$out/summary.txt"
import csv, sys
out, modes = sys.argv[1], sys.argv[2:]
tests = [l.strip() for l in open(out + "/run-tests.txt") if l.strip()]
comp = {r["test"]: r["status"] for r in csv.DictReader(open(out + "/compile.csv"))}
res = {}
for r in csv.DictReader(open(out + "/results.csv")):
    res[(r["test"], r["mode"])] = r["status"]
ncomp = sum(1 for t in tests if comp.get(t) == "ok")
print("tests selected: %d, compiled: %d, compile errors: %d" % (len(tests), ncomp, len(tests) - ncomp))
kinds = ["pass", "fail", "crash", "timeout", "compile-error"]
print()
print("%-12s" % "mode" + "".join("%15s" % k for k in kinds))
for m in modes:
    v = [res.get((t, m)) for t in tests]
    print("%-12s" % m + "".join("%15d" % v.count(k) for k in kinds))
refs = [m for m in ("stock", "cuda") if m in modes]
for ref in refs:
    for m in modes:
        if m in refs:
            continue
        bad = [t for t in tests if res.get((t, ref)) == "pass" and res.get((t, m)) != "pass"]
        good = [t for t in tests if res.get((t, ref)) not in ("pass", "compile-error") and res.get((t, m)) == "pass"]
        print("\npass under %s, not under %s (%d):" % (ref, m, len(bad)))
        for t in bad:
            print("  %-70s %s" % (t, res.get((t, m))))
        if good:
            print("\npass under %s, not under %s (%d):" % (m, ref, len(good)))
            for t in good:
                print("  %-70s %s" % (t, res.get((t, ref))))
allbad = [t for t in tests if comp.get(t) == "ok" and all(res.get((t, m)) != "pass" for m in modes)]
print("\nfail under every mode (%d):" % len(allbad))
for t in allbad:
    print("  %-70s %s" % (t, " ".join(res.get((t, m)) for m in modes)))
ce = [t for t in tests if comp.get(t) != "ok"]
print("\ncompile errors (%d):" % len(ce))
for t in ce:
    print("  " + t)
PY
