#!/usr/bin/env bash
# On a GPU machine, from the bundle (tools/make-bundle.sh puts this script at
# its root): runs the lit suite (prebuilt programs) and/or the examples, each
# under the stock cuda plugin and under hetero in the same invocation.
#
#   run-gpu-tests.sh [results-dir] [lit|examples|all|stress|bench|split|scaling|weight]
#
# split: the multi-GPU paths on this machine's GPUs, each presented as
# GPU_SPLIT (default 2) members (HETERO_GPU_SPLIT): the lit suite, the
# examples against the stock cuda plugin, and the halo check over the
# parts' device-to-device copies.
#
# examples: every example under both plugins (answers must agree), then the
# 2-D Jacobi halo check: 16384 x 16384 doubles split over the GPUs only
# (HETERO_MEMBERS), 20 and 40 sweeps; the difference of the two runs'
# HETERO_STATS byte counts is what 20 sweeps move.
# bench: bench.py (tables, bench.csv, bench.svg) over the examples.
# scaling: bench.py at the multi-GPU sizes over the first 1..n GPUs and the
# default pool (the multi-GPU issue's targets; scaling.svg).
# stress: split-nowait 100 times (STRESS_RUNS), 4 at a time; stalls are
# caught and their threads' stacks kept.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
res=${1:-results}
what=${2:-all}
mkdir -p "$res"
export LD_LIBRARY_PATH=$here/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export HETERO_LIT_PREBUILT=$here/lit/prebuilt
export PATH=$here/lit/tools:$PATH
nvidia-smi -L | tee "$res/gpus.txt"
rc=0

# run_lit TAG: the lit suite (outputs under lit/out-TAG, results
# lit-TAG.txt, split-stats-TAG.txt), with the caller's environment.
run_lit() {
  local tag=$1 out="$here/lit/out-$1"
  cat >"$here/lit/suite/lit.site.cfg.py" <<CFG
config.hetero_bin_dir = "$here/bin"
config.hetero_lib_dir = "$here/lib"
config.hetero_llvm_bin_dir = "$here/lit/tools"
config.hetero_source_dir = "$here"
config.hetero_cuda_path = "/usr/local/cuda"
config.test_exec_root = "$out"
lit_config.load_config(config, "$here/lit/suite/lit.cfg.py")
CFG
  python3 "$here/lit/lit/lit.py" -v -j4 --order=lexical "$here/lit/suite" \
    >"$res/lit-$tag.txt" 2>&1
  local lrc=$?
  [ $lrc -ne 0 ] && rc=$lrc
  tail -30 "$res/lit-$tag.txt"
  # The failed tests' outputs (their programs' stderr goes to files).
  grep -o "^FAIL: hetero :: .*(" "$res/lit-$tag.txt" | sed 's/^FAIL: hetero :: //; s/ ($//' |
    while read -r t; do
      for f in "$out/$(dirname "$t")/Output/$(basename "$t")".tmp.*; do
        [ -f "$f" ] && [ "$(stat -c %s "$f")" -lt 1000000 ] &&
          grep -Iq . "$f" && cp "$f" "$res/$tag.$(basename "$f")"
      done
    done
  # What the split tests' statistics say about who took chunks.
  find "$out" -name '*.tmp.cpu' -o -name '*.tmp.sim' | sort |
    while read -r f; do echo "== ${f#$out/}"; grep hetero-stats "$f"; done \
      >"$res/split-stats-$tag.txt" 2>/dev/null
}

# halo_check MEMBERS [ENV...]: 16384^2 Jacobi over MEMBERS, 20 and 40
# sweeps; 20 sweeps must move 1.0x-1.1x the exact halo, all device to
# device.
halo_check() {
  local members=$1
  shift
  for it in 20 40; do
    echo "-- stock cuda plugin, $it sweeps"
    LIBOMPTARGET_PLUGIN=cuda "$here/bin/jacobi" 16384 $it collapse 2>&1
    echo "-- hetero over $members, $it sweeps"
    env "$@" LIBOMPTARGET_PLUGIN=hetero HETERO_STATS=1 HETERO_MEMBERS=$members \
      HETERO_SHARES=fixed "$here/bin/jacobi" 16384 $it collapse 2>&1 |
      tee "$res/jacobi16k.$it.txt"
  done
  python3 - "$res/jacobi16k.20.txt" "$res/jacobi16k.40.txt" "$members" <<'PY'
import re, sys
def total(path):
    for line in open(path):
        if line.startswith("hetero-stats total"):
            return {k: int(v) for k, v in re.findall(r"bytes_(\w+)=(\d+)", line)}
a, b = total(sys.argv[1]), total(sys.argv[2])
n = 16384
# One interior row each way per sweep across each boundary between two
# members' rows (k members: k - 1 boundaries).
boundaries = len(sys.argv[3].split(",")) - 1
halo = boundaries * 2 * (n - 2) * 8
d = {k: b[k] - a[k] for k in a}
print("per 20 sweeps: d2d=%d h2d=%d d2h=%d; exact halo %d; ratio %.4f"
      % (d["d2d"], d["h2d"], d["d2h"], 20 * halo, d["d2d"] / (20 * halo)))
ok = 20 * halo <= d["d2d"] <= 1.1 * 20 * halo and d["h2d"] == 0 and d["d2h"] == 0
print("halo check:", "PASS" if ok else "FAIL")
PY
}

# run_examples TAG WHAT [ENV...]: each example under the stock cuda plugin
# and under hetero with ENV (stderr kept in <example>.cuda.err, .TAG.err).
run_examples() {
  local tag=$1 label=$2
  shift 2
  local envs=("$@")
  for ex in "jacobi 4096 100" "himeno L 20" "cg 1024 100" "nbody 32768 5"; do
    set -- $ex
    echo "== $ex"
    echo "-- stock cuda plugin"
    LIBOMPTARGET_PLUGIN=cuda "$here/bin/$1" "${@:2}" 2>"$res/$1.cuda.err"
    grep -E "time|s$|/s" "$res/$1.cuda.err"
    echo "-- hetero ($label)"
    env "${envs[@]}" LIBOMPTARGET_PLUGIN=hetero HETERO_STATS=1 \
      "$here/bin/$1" "${@:2}" 2>"$res/$1.$tag.err"
    grep -v "^hetero-stats" "$res/$1.$tag.err"
    grep "^hetero-stats" "$res/$1.$tag.err" | cut -c1-400
  done
}

if [ "$what" = lit ] || [ "$what" = all ]; then
  run_lit plain
fi

if [ "$what" = examples ] || [ "$what" = all ]; then
  {
    run_examples hetero "all GPUs + CPU cores"
    echo "== jacobi halo check: 16384 x 16384, GPUs only"
    ngpu=$(grep -c "^GPU " "$res/gpus.txt")
    if [ "$ngpu" -lt 2 ]; then
      echo "halo check: SKIPPED ($ngpu GPU: it needs two GPUs splitting the sweeps; 'split' runs it over the parts of one)"
    else
      halo_check "$(seq -s, -f 'cuda:%g' 0 $((ngpu - 1)))"
    fi
  } >"$res/examples.txt" 2>&1
  cat "$res/examples.txt"
fi

if [ "$what" = split ]; then
  k=${GPU_SPLIT:-2}
  ngpu=$(grep -c "^GPU " "$res/gpus.txt")
  parts=$(for g in $(seq 0 $((ngpu - 1))); do for p in $(seq 0 $((k - 1))); do
    printf 'cuda:%d.%d,' "$g" "$p"; done; done)
  parts=${parts%,}
  HETERO_GPU_SPLIT=$k run_lit split$k
  {
    run_examples split "each GPU as $k members, with the CPU cores" \
      HETERO_GPU_SPLIT=$k
    echo "== jacobi halo check: 16384 x 16384 over $parts"
    halo_check "$parts" HETERO_GPU_SPLIT=$k
  } >"$res/examples-split$k.txt" 2>&1
  cat "$res/examples-split$k.txt"
fi
if [ "$what" = bench ]; then
  # The benchmark harness: stock cuda plugin against hetero, same invocation.
  python3 "$here/tools/bench.py" --bin "$here/bin" --out "$res" --plot \
    ${BENCH_ARGS:-} | tee "$res/bench.txt"
  rc=${PIPESTATUS[0]}
fi

if [ "$what" = scaling ]; then
  # The multi-GPU targets: each program at its multi-GPU size over the first
  # 1, 2, ... n GPUs alone and the default pool, against stock on one GPU;
  # scaling.svg plots speed against the GPU count.
  ngpu=$(grep -c "^GPU " "$res/gpus.txt")
  configs=stock
  for g in $(seq 1 "$ngpu"); do configs=$configs,hetero-gpus$g; done
  python3 "$here/tools/bench.py" --bin "$here/bin" --out "$res" --plot \
    --cases jacobi-16k,himeno,nbody-512k,stream-2e28,cg,cg-4k \
    --configs "$configs,hetero" ${BENCH_ARGS:-} | tee "$res/scaling.txt"
  rc=${PIPESTATUS[0]}
fi

# weight: what a hetero binary costs on a GPU machine, 7 runs each,
# interleaved (medians of peak RSS and wall): the examples' tiny-launch
# program built by plain clang-19 under the stock cuda plugin; the hetero
# build under the stock cuda plugin (hetero not selected: StarPU is not
# loaded); the hetero build under hetero.
if [ "$what" = weight ] || [ "$what" = all ]; then
  python3 - "$here" >"$res/weight.txt" 2>&1 <<'PY'
import os, resource, statistics, subprocess, sys, time
here = sys.argv[1]
args = ["plain", "200", "1024"]
cases = [("stock build, stock cuda plugin", here + "/bin-plain/launch", "cuda"),
         ("hetero build, stock cuda plugin", here + "/bin/launch", "cuda"),
         ("hetero build, hetero", here + "/bin/launch", "hetero")]
code = ("import resource,subprocess,sys,time;t=time.monotonic();"
        "r=subprocess.run(sys.argv[1:],capture_output=True);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,"
        "time.monotonic()-t,r.returncode,r.stdout.decode().strip())")
rss = {c[0]: [] for c in cases}
wall = {c[0]: [] for c in cases}
outs = {}
for _ in range(7):
    for name, exe, plugin in cases:
        env = dict(os.environ, LIBOMPTARGET_PLUGIN=plugin,
                   HETERO_SHARES_FILE="none")
        out = subprocess.run([sys.executable, "-c", code, exe] + args,
                             env=env, capture_output=True).stdout.decode()
        r, w, rc, line = out.split(" ", 3)
        rss[name].append(int(r) / 1024)
        wall[name].append(float(w) * 1000)
        outs[name] = (rc, line.strip())
for name, _, _ in cases:
    print("%-34s peak RSS %7.1f MiB  wall %7.1f ms  (status %s) %s" % (
        name, statistics.median(rss[name]), statistics.median(wall[name]),
        *outs[name]))
PY
  cat "$res/weight.txt"
fi

if [ "$what" = stress ]; then
  # split-nowait (concurrent target nowait kernels) many times, four at a
  # time, under the default pool; a run still going after 120 s is a stall:
  # its threads' kernel wait channels and stacks are kept.
  # Each run takes the next setting in turn: the default pool, 4 chunks per
  # member, and the host fallback (no offload).
  exe=$here/lit/prebuilt/split-nowait.c.tmp
  one() {
    local i=$1 log=$res/stress.$1.txt
    local -a settings=("LIBOMPTARGET_PLUGIN=hetero HETERO_STATS=1"
      "LIBOMPTARGET_PLUGIN=hetero HETERO_STATS=1 HETERO_CHUNKS=4"
      "OMP_TARGET_OFFLOAD=DISABLED")
    local setting=${settings[$((i % 3))]}
    echo "setting: $setting" >"$log"
    env $setting "$exe" >>"$log" 2>&1 &
    local pid=$! t=0
    while kill -0 $pid 2>/dev/null && [ $t -lt 1200 ]; do sleep 0.1; t=$((t + 1)); done
    if kill -0 $pid 2>/dev/null; then
      for task in /proc/$pid/task/*; do
        echo "== $(cat "$task/comm") $(cat "$task/wchan")"
        cat "$task/stack" 2>/dev/null
      done >"$res/stall.$i.txt"
      command -v gdb >/dev/null &&
        gdb -batch -p $pid -ex "thread apply all bt" >>"$res/stall.$i.txt" 2>&1
      kill -9 $pid
      echo "run $i: STALL ($setting)"
      return
    fi
    wait $pid
    local st=$?
    grep -q "done failures=0" "$log" && [ $st = 0 ] && { rm -f "$log"; echo "run $i: ok"; } ||
      echo "run $i: FAIL ($st, $setting)"
  }
  export -f one
  export res exe
  seq 1 ${STRESS_RUNS:-100} | xargs -P 4 -I{} bash -c 'one {}' >"$res/stress.txt"
  cut -d' ' -f3- "$res/stress.txt" | sort | uniq -c
  grep -q -v ": ok" "$res/stress.txt" && rc=1
fi
exit $rc
