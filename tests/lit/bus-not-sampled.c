// A program does not benchmark StarPU's bus: hetero never reads those
// figures, and on four H100s measuring them took about 2 s of a first start
// (clang-patches/starpu/0005, STARPU_BUS_SAMPLING=0 unless the user set it).
// It writes no bus files, so a later process finds none it could mistake for
// a measurement. hetero-info measures the bus for its report and writes the
// files, and a program started after it runs with them.
// RUN: %clang-hetero %S/Inputs/fill-and-check.c -o %t
// RUN: rm -rf %t.home && mkdir -p %t.home
// RUN: env STARPU_HOME=%t.home %run-hetero %t | %FileCheck %s
// RUN: find %t.home -name '*.config' | wc -l | %FileCheck %s --check-prefix=NONE
// RUN: env STARPU_HOME=%t.home %hetero-info | %FileCheck %s --check-prefix=INFO
// RUN: find %t.home -name '*.config' | wc -l | %FileCheck %s --check-prefix=ONE
// RUN: env STARPU_HOME=%t.home %run-hetero %t | %FileCheck %s
// CHECK: ok
// NONE: {{^}}0{{$}}
// INFO: bandwidth (StarPU's bus calibration
// INFO: STARPU_BUS_SAMPLING=1
// ONE: {{^}}1{{$}}
