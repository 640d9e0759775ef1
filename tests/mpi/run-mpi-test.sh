#!/usr/bin/env bash
# run-mpi-test.sh - why this file exists: hetero must work inside MPI ranks.
# Several ranks of one program on one node each start their own hetero pool
# (here with simulated accelerators, so no GPU is needed), exchange halos by
# MPI, and must compute bit for bit what one rank computes; and the ranks of
# a node should not fight over its cores.  This script builds
# tests/mpi/mpi-jacobi.c with hetero's clang and Open MPI's flags, runs it
# with one rank (hetero and the host fallback) and with two ranks (Open MPI's
# default binding, and --bind-to none), and checks:
#   - every run exits 0;
#   - every run's final grid is bytewise the one-rank hetero run's (cmp);
#   - in every hetero rank, HETERO_STATS shows the stencil and copy kernels
#     with split=yes and both simulated accelerators taking iterations;
#   - the two ranks' CPU sets (read by the program after hetero started) are
#     disjoint, with and without --bind-to none: hetero splits a node's
#     cores among the node's ranks when the launcher does not
#     (runtime/include/hetero/NodeShare.h).
# One PASS:/FAIL: line per check; exit 0 when all pass, 1 when one fails,
# 77 (SKIP:) when Open MPI's mpirun/mpicc are not installed, 2 on bad usage.
#
# Usage: tests/mpi/run-mpi-test.sh <build-dir> <work-dir>
#   Debian: apt-get install -y --no-install-recommends openmpi-bin libopenmpi-dev
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <build-dir> <work-dir>" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
mkdir -p "$2"
work=$(cd "$2" && pwd)
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/mpi-jacobi.c
clang="$build/bin/clang"

for tool in mpirun mpicc; do
  if ! command -v "$tool" > /dev/null 2>&1; then
    echo "SKIP: $tool is not installed (Debian: apt-get install openmpi-bin libopenmpi-dev)"
    exit 77
  fi
done
if ! mpicc -showme:compile > /dev/null 2>&1; then
  echo "SKIP: mpicc is not Open MPI's wrapper (no -showme:compile)"
  exit 77
fi
if [[ ! -x "$clang" ]]; then
  echo "FAIL: no hetero clang at $clang"
  exit 1
fi

timeout_s=120 # per run: a hang fails instead of blocking CI
sweeps=50
failures=0
pass() { echo "PASS: $*"; }
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# Open MPI 4.1 in a container, root or not: start the ranks here without ssh
# (plm isolated: one node only), talk through shared memory only (no TCP,
# InfiniBand or libfabric probing), without the single-copy (CMA) mechanism
# that a container's seccomp profile often forbids. mpirun itself still needs
# the loopback interface up (its PMIx server listens on it).
export OMPI_MCA_plm=isolated
export OMPI_MCA_btl=self,vader
export OMPI_MCA_pml=ob1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# hetero: no measured shares from earlier runs, static shares (so the split
# checks do not depend on this machine's speed), a StarPU home of our own
# (the ranks start on an empty one together, as on a fresh node).
export HETERO_SHARES_FILE=none
export HETERO_SHARES=fixed
export STARPU_HOME="$work/starpu-home"
rm -rf "$STARPU_HOME"
mkdir -p "$STARPU_HOME"

# --- build ----------------------------------------------------------------
read -r -a mpi_compile <<< "$(mpicc -showme:compile)"
read -r -a mpi_link <<< "$(mpicc -showme:link)"
exe="$work/mpi-jacobi"
rm -f "$exe"
if "$clang" -O2 -fopenmp -fopenmp-targets=hetero "${mpi_compile[@]}" \
  "$src" "${mpi_link[@]}" -o "$exe" > "$work/build.log" 2>&1; then
  pass "build mpi-jacobi with $clang and Open MPI's flags"
else
  sed 's/^/  /' "$work/build.log"
  fail "build mpi-jacobi (log: $work/build.log)"
  echo "FAIL: $failures check(s) failed"
  exit 1
fi

# --- runs -----------------------------------------------------------------
# run_case NAME NP MPIRUN-ARGS... -- ENV=VALUE...: runs the program under
# mpirun with --tag-output; stdout/stderr in $work/NAME.out/.err, grid in
# $work/NAME.bin. Checks the exit status.
run_case() {
  local name=$1 np=$2
  shift 2
  local mpiargs=() envargs=()
  while [[ $# -gt 0 && $1 != -- ]]; do
    mpiargs+=("$1")
    shift
  done
  [[ $# -gt 0 ]] && shift
  for kv in "$@"; do
    envargs+=(-x "$kv")
  done
  rm -f "$work/$name.bin"
  local rc=0
  timeout -k 10 "$timeout_s" mpirun --allow-run-as-root --oversubscribe \
    --tag-output -np "$np" "${mpiargs[@]}" "${envargs[@]}" \
    -x HETERO_SHARES_FILE -x HETERO_SHARES -x STARPU_HOME \
    "$exe" "$work/$name.bin" "$sweeps" > "$work/$name.out" \
    2> "$work/$name.err" || rc=$?
  sed 's/^/  /' "$work/$name.out"
  grep -E 'hetero-stats kernel=|error|warning' "$work/$name.err" |
    sed 's/^/  /' || true
  if [[ $rc -eq 0 ]]; then
    pass "$name: exit 0"
  elif [[ $rc -eq 124 || $rc -eq 137 ]]; then
    fail "$name: timed out after ${timeout_s}s (stderr: $work/$name.err)"
  else
    tail -n 20 "$work/$name.err" | sed 's/^/  /'
    fail "$name: exit $rc (stderr: $work/$name.err)"
  fi
  return 0
}

# The grid of run NAME must be bytewise the reference's.
check_grid() {
  local name=$1 ref=$2
  if [[ ! -s "$work/$ref.bin" ]]; then
    fail "$name: no reference grid ($ref.bin)"
  elif [[ ! -s "$work/$name.bin" ]]; then
    fail "$name: wrote no grid"
  elif cmp -s "$work/$ref.bin" "$work/$name.bin"; then
    pass "$name: grid bitwise equal to $ref ($(stat -c %s "$work/$name.bin") bytes)"
  else
    fail "$name: grid differs from $ref: $(cmp "$work/$ref.bin" "$work/$name.bin" 2>&1 | head -n 1)"
  fi
}

# Each of NP ranks of run NAME: kernels sweep_stencil and sweep_copy split,
# sim:0 and sim:1 both with iterations.
check_stats() {
  local name=$1 np=$2 r kernel line members s0 s1
  for ((r = 0; r < np; r++)); do
    for kernel in sweep_stencil sweep_copy; do
      line=$(grep -E "^\[[0-9]+,$r\]<stderr>:hetero-stats kernel=[^ ]*_${kernel}_l[0-9]+ " \
        "$work/$name.err" | head -n 1 || true)
      if [[ -z $line ]]; then
        fail "$name: rank $r: no HETERO_STATS line for $kernel"
        continue
      fi
      members=$(sed -n 's/.* members=\([^ ]*\).*/\1/p' <<< "$line")
      s0=$(tr ',' '\n' <<< "$members" | awk -F: '$1 == "sim" && $2 == "0" { print $3 }')
      s1=$(tr ',' '\n' <<< "$members" | awk -F: '$1 == "sim" && $2 == "1" { print $3 }')
      if [[ $line != *" split=yes "* ]]; then
        fail "$name: rank $r: $kernel not split: $(grep -o 'split=[^ ]*' <<< "$line" | head -n 1)"
      elif [[ ${s0:-0} -gt 0 && ${s1:-0} -gt 0 ]]; then
        pass "$name: rank $r: $kernel split=yes, sim:0 $s0 and sim:1 $s1 iterations"
      else
        fail "$name: rank $r: $kernel split=yes but not both sims took iterations: members=$members"
      fi
    done
  done
}

# "0-3,6" -> "0 1 2 3 6"
expand_cpus() {
  tr ',' '\n' <<< "$1" | awk -F- 'NF == 1 { print $1 } NF == 2 { for (c = $1; c <= $2; c++) print c }'
}
# "0 1 2" -> "0-2"
compress_cpus() {
  awk 'NR == 1 { lo = hi = $1; next }
       $1 == hi + 1 { hi = $1; next }
       { out = out (out ? "," : "") (lo == hi ? lo : lo "-" hi); lo = hi = $1 }
       END { if (NR) print out (out ? "," : "") (lo == hi ? lo : lo "-" hi) }'
}

# The NP ranks of run NAME have pairwise disjoint CPU sets.
check_disjoint() {
  local name=$1 np=$2 r q ok=1
  local -a cpus
  for ((r = 0; r < np; r++)); do
    cpus[r]=$(sed -n "s/^\[[0-9]*,$r\]<stdout>:rank $r of $np: cpus \(.*\)$/\1/p" \
      "$work/$name.out" | head -n 1)
    if [[ -z ${cpus[r]} ]]; then
      fail "$name: rank $r printed no cpus line"
      return 0
    fi
  done
  for ((r = 0; r < np; r++)); do
    for ((q = r + 1; q < np; q++)); do
      local shared
      shared=$(comm -12 <(expand_cpus "${cpus[r]}" | sort) \
        <(expand_cpus "${cpus[q]}" | sort) | sort -n | compress_cpus)
      if [[ -n $shared ]]; then
        fail "$name: ranks $r and $q share cpus $shared (rank $r: ${cpus[r]}, rank $q: ${cpus[q]})"
        ok=0
      fi
    done
  done
  if [[ $ok -eq 1 ]]; then
    local list=""
    for ((r = 0; r < np; r++)); do
      list+="${list:+, }rank $r: ${cpus[r]}"
    done
    pass "$name: the ranks' cpus are disjoint ($list)"
  fi
}

hetero_env=(LIBOMPTARGET_PLUGIN=hetero HETERO_SIMULATE=2 HETERO_STATS=1)

echo "== one rank, hetero (the reference)"
run_case one-rank 1 -- "${hetero_env[@]}"
check_stats one-rank 1

echo "== one rank, host fallback"
run_case one-rank-fallback 1 -- OMP_TARGET_OFFLOAD=DISABLED
check_grid one-rank-fallback one-rank

echo "== two ranks, Open MPI's default binding"
run_case two-ranks-bound 2 -- "${hetero_env[@]}"
check_grid two-ranks-bound one-rank
check_stats two-ranks-bound 2
check_disjoint two-ranks-bound 2

echo "== two ranks, --bind-to none (hetero should split the node's cores)"
run_case two-ranks-unbound 2 --bind-to none -- "${hetero_env[@]}"
check_grid two-ranks-unbound one-rank
check_stats two-ranks-unbound 2
check_disjoint two-ranks-unbound 2

if [[ $failures -eq 0 ]]; then
  echo "PASS: all checks passed"
  exit 0
fi
echo "FAIL: $failures check(s) failed (logs in $work)"
exit 1
