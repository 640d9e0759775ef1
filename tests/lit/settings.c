// Every HETERO_ setting is checked when the plugin starts: a value that is
// not accepted stops the program before any kernel runs, with one line that
// names the variable, the value and what is accepted; checks that need the
// pool list its members, also before main. A single-member HETERO_MEMBERS
// runs every kernel there. Every unknown HETERO_ name is named, with the
// nearest setting where there is one. HETERO_ settings in a run that does
// not select hetero (LIBOMPTARGET_PLUGIN unset or misspelt) get one warning,
// unless offload is disabled.
// RUN: %clang-hetero %s -o %t
// RUN: %not env HETERO_SIMULATE=abc %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=SIM-ABC
// RUN: %not env HETERO_SIMULATE=-1 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=SIM-NEG
// RUN: %not env HETERO_SIMULATE=3x %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=SIM-3X
// RUN: %not env HETERO_SIMULATE=9 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=SIM-MANY
// RUN: %not env HETERO_CHUNKS=0 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=CHUNKS-0
// RUN: %not env HETERO_CHUNKS=-5 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=CHUNKS-NEG
// RUN: %not env HETERO_CHUNKS=abc %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=CHUNKS-ABC
// RUN: %not env HETERO_CHUNKS=1e9 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=CHUNKS-1E9
// RUN: %not env HETERO_CHUNKS=100000 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=CHUNKS-BIG
// RUN: %not env HETERO_SHARES=static %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=SHARES
// RUN: %not env HETERO_HOST_COPY=yes %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=HOST-COPY
// SHARES: hetero: error: HETERO_SHARES=static: expected measured or fixed
// HOST-COPY: hetero: error: HETERO_HOST_COPY=yes: expected 0 or 1
// RUN: %not env HETERO_SIMULATE=1 HETERO_SIMULATE_MEMORY=0 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=MEM-0
// RUN: %not env HETERO_SIMULATE=1 HETERO_SIMULATE_MEMORY=-5 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=MEM-NEG
// RUN: %not env HETERO_SIMULATE=1 HETERO_SIMULATE_MEMORY=junk %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=MEM-JUNK
// RUN: %not env HETERO_CPU_THREADS=0 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=THREADS-0
// RUN: %not env HETERO_CPU_THREADS=-1 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=THREADS-NEG
// RUN: %not env HETERO_CPU_THREADS=abc %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=THREADS-ABC
// RUN: %not env HETERO_CPU_THREADS=999 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=THREADS-999
// RUN: %not env HETERO_SIMULATE=2 HETERO_MEMBERS=cuda:7 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=MEMBERS-UNKNOWN
// RUN: %not env HETERO_MEMBERS=cpu=x %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=MEMBERS-WEIGHT
// RUN: %not env HETERO_CHUNKS=0 HETERO_SIMULATE=x %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=TWO
// RUN: env HETERO_SIMULATE=3 HETERO_MEMBERS=cpu HETERO_INFO=1 HETERO_STATS=1 %compare-fallback %t 2>%t.cpu | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=ONE-CPU < %t.cpu
// RUN: env HETERO_SIMULATE=3 HETERO_MEMBERS=sim:1 HETERO_INFO=1 HETERO_STATS=1 %compare-fallback %t 2>%t.sim | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=ONE-SIM < %t.sim
// RUN: env HETERO_CHUNK=4 HETERO_SIMULATE= HETERO_SIMULATION=3 HETERO_NUM_CHUNKS=2 HETERO_SOMETHING_ELSE=1 %compare-fallback %t 2>%t.typo | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=TYPO < %t.typo
// RUN: %not env HETERO_SIMULATE=1 HETERO_MEMBER=sim:5 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=BEFORE-MAIN
// RUN: %not env HETERO_MEMBERS=cpu,sim:0 %run-hetero %t 2>&1 | %FileCheck %s --check-prefix=BEFORE-MAIN-MEMBERS
// RUN: env -u LIBOMPTARGET_PLUGIN HETERO_SIMULATE=3 %t 2>&1 | %FileCheck %s --check-prefix=UNSET
// RUN: env LIBOMPTARGET_PLUGIN=heter HETERO_SIMULATE=3 %t 2>&1 | %FileCheck %s --check-prefix=MISSPELT
// RUN: env LIBOMPTARGET_PLUGIN=host,cuda HETERO_SIMULATE=3 %t 2>&1 | %FileCheck %s --check-prefix=OTHERS
// RUN: env -u LIBOMPTARGET_PLUGIN -u HETERO_SHARES -u HETERO_SHARES_FILE -u HETERO_GPU_SPLIT %t 2>&1 | %FileCheck %s --check-prefix=QUIET --implicit-check-not=warning
// RUN: env -u LIBOMPTARGET_PLUGIN OMP_TARGET_OFFLOAD=DISABLED HETERO_SIMULATE=3 %t 2>&1 | %FileCheck %s --check-prefix=QUIET --implicit-check-not=warning
// CHECK: sum=49995000
// SIM-ABC: hetero: error: HETERO_SIMULATE=abc: expected an integer from 0 to 64
// SIM-ABC-NOT: sum=
// SIM-NEG: hetero: error: HETERO_SIMULATE=-1: expected an integer from 0 to 64
// SIM-3X: hetero: error: HETERO_SIMULATE=3x: expected an integer from 0 to 64
// SIM-MANY: hetero: error: HETERO_SIMULATE=9: expected an integer from 0 to {{[0-9]+}} (the host back end's devices less the CPU pool's)
// CHUNKS-0: hetero: error: HETERO_CHUNKS=0: expected an integer from 1 to 256
// CHUNKS-NEG: hetero: error: HETERO_CHUNKS=-5: expected an integer from 1 to 256
// CHUNKS-ABC: hetero: error: HETERO_CHUNKS=abc: expected an integer from 1 to 256
// CHUNKS-1E9: hetero: error: HETERO_CHUNKS=1e9: expected an integer from 1 to 256
// CHUNKS-BIG: hetero: error: HETERO_CHUNKS=100000: expected an integer from 1 to 256
// MEM-0: hetero: error: HETERO_SIMULATE_MEMORY=0: expected a byte count of at least 1, optionally with K, M, G or T (unset: unlimited)
// MEM-NEG: hetero: error: HETERO_SIMULATE_MEMORY=-5: expected a byte count
// MEM-JUNK: hetero: error: HETERO_SIMULATE_MEMORY=junk: expected a byte count
// MEM-JUNK-NOT: HETERO_SIMULATE_MEMORY
// THREADS-0: hetero: error: HETERO_CPU_THREADS=0: expected an integer from 1 to
// THREADS-NEG: hetero: error: HETERO_CPU_THREADS=-1: expected an integer from 1 to
// THREADS-ABC: hetero: error: HETERO_CPU_THREADS=abc: expected an integer from 1 to
// THREADS-999: hetero: error: HETERO_CPU_THREADS=999: expected an integer from 1 to {{[0-9]+}} (the cores available to this process)
// MEMBERS-UNKNOWN: hetero: error: HETERO_MEMBERS=cuda:7: the pool has no member cuda:7; its members: {{.*}}sim:0, sim:1, cpu
// MEMBERS-WEIGHT: hetero: error: HETERO_MEMBERS=cpu=x: 'cpu=x' has no valid weight
// TWO: hetero: error: HETERO_SIMULATE=x: expected an integer from 0 to 64
// TWO-NEXT: hetero: error: HETERO_CHUNKS=0: expected an integer from 1 to 256
// ONE-CPU: hetero: launch {{.*}} on cpu (whole kernel: no accelerator: CPU pool), not split: one member, one chunk
// ONE-CPU: members=cpu:10000:
// ONE-SIM: hetero: launch {{.*}} on sim:1 (one chunk, in place), not split: one member, one chunk
// ONE-SIM: members=sim:1:10000:
// TYPO-DAG: hetero: warning: HETERO_CHUNK is not a hetero setting, and has no effect; did you mean HETERO_CHUNKS?
// TYPO-DAG: hetero: warning: HETERO_SIMULATION is not a hetero setting, and has no effect; did you mean HETERO_SIMULATE?
// TYPO-DAG: hetero: warning: HETERO_NUM_CHUNKS is not a hetero setting, and has no effect; did you mean HETERO_CHUNKS?
// TYPO-DAG: hetero: warning: HETERO_SOMETHING_ELSE is not a hetero setting, and has no effect{{$}}
// BEFORE-MAIN: hetero: error: HETERO_MEMBER=sim:5: the pool has no such member; its members: {{.*}}sim:0, cpu
// BEFORE-MAIN-NOT: main started
// BEFORE-MAIN-MEMBERS: hetero: error: HETERO_MEMBERS=cpu,sim:0: the pool has no member sim:0
// BEFORE-MAIN-MEMBERS-NOT: main started
// UNSET: hetero: warning: HETERO_{{[A-Z_]+}} is set (and {{[0-9]+}} more HETERO_ settings), but LIBOMPTARGET_PLUGIN is unset: this run does not use hetero, and ignores its settings (run it with LIBOMPTARGET_PLUGIN=hetero)
// UNSET: main started
// MISSPELT: hetero: warning: HETERO_{{[A-Z_]+}} is set (and {{[0-9]+}} more HETERO_ settings), but LIBOMPTARGET_PLUGIN=heter does not select hetero: this run does not use hetero
// MISSPELT: main started
// OTHERS: but LIBOMPTARGET_PLUGIN=host,cuda does not select hetero
// QUIET: main started
// QUIET: sum=49995000
#include <stdio.h>

int main(void) {
  printf("main started\n");
  fflush(stdout);
  long sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum)
  for (int i = 0; i < 10000; ++i)
    sum += i;
  printf("sum=%ld\n", sum);
  return 0;
}
