// dynamic, guided, auto and runtime schedules in target regions (schedules.c built with
// -DDYNAMIC_SCHEDULES), under hetero and in the host fallback.
//
// LLVM 19.1.7's NVPTX device runtime faults ("illegal memory access") on
// these schedules with the stock cuda plugin alone (LIBOMPTARGET_PLUGIN=cuda)
// on an H200, now and then: the compiler plugin marks such kernels host-only
// and hetero keeps them on its CPU members, GPUs present or not.
// RUN: %clang-hetero -DDYNAMIC_SCHEDULES %S/schedules.c -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: %FileCheck %s --check-prefix=HOSTONLY --implicit-check-not="on cuda:" < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// Several CPU-side members at once oversubscribe the cores, under which
// libomp's work stealing for schedule(dynamic) asserted now and then (an H200
// pair, 32 cores: llvm-project issue 86995): hetero programs take dynamic
// loops monotonic (hetero-startup.c), unless the user says otherwise; a run
// that does not select hetero is left alone.
// RUN: env KMP_SETTINGS=1 LIBOMPTARGET_PLUGIN=hetero %t 2>&1 >/dev/null | %FileCheck %s --check-prefix=MONOTONIC
// RUN: env KMP_SETTINGS=1 LIBOMPTARGET_PLUGIN=hetero KMP_FORCE_MONOTONIC_DYNAMIC_SCHEDULE=0 %t 2>&1 >/dev/null | %FileCheck %s --check-prefix=ASKED --implicit-check-not=DYNAMIC_SCHEDULE=true
// RUN: env KMP_SETTINGS=1 OMP_TARGET_OFFLOAD=DISABLED %t 2>&1 >/dev/null | %FileCheck %s --check-prefix=ASKED --implicit-check-not=DYNAMIC_SCHEDULE=true
// MONOTONIC: KMP_FORCE_MONOTONIC_DYNAMIC_SCHEDULE=true
// ASKED: KMP_FORCE_MONOTONIC_DYNAMIC_SCHEDULE=
// HOSTONLY: hetero: launch {{.*}}: CPU members only (schedule(dynamic) faults in LLVM 19's NVPTX runtime)
// CHECK: static: ok
// CHECK: dynamic: ok
// CHECK: dynamic,13: ok
// CHECK: guided: ok
// CHECK: guided,5: ok
// CHECK: auto: ok
// CHECK: runtime: ok
// CHECK: teams dynamic,7: ok
// CHECK: teams guided: ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} on cpu (whole kernel:
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
