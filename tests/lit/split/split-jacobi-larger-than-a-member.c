// The Jacobi example, unchanged, on two simulated accelerators that each
// hold 60% of its two 2 MiB grids (issue 39): each holds the granules of
// its rows and their halo, so the sweeps split over the two, bit for bit as
// the whole run on the CPU pool, and nothing finds no room. The grids are
// larger than a quarter of a member, so map-time writes spread them over
// the members HETERO_MEMBERS lists: sim:2, left out, holds nothing.
// RUN: %clang-hetero %S/../../../examples/jacobi.c -o %t -lm
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_MEMBER=cpu %t 512 10 >%t.whole
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_SIMULATE=3 HETERO_MEMBERS=sim:0,sim:1 HETERO_SIMULATE_MEMORY=2516582 HETERO_STATS=1 %t 512 10 >%t.sim 2>%t.err
// RUN: %same-answers %t.whole %t.sim
// RUN: %FileCheck %s < %t.err
// CHECK-NOT: no room
// CHECK: hetero-stats kernel={{.*}} launches=10 split=yes split_launches=10 members=sim:0:{{[0-9]+}}:{{[^,]+}},sim:1:{{[0-9]+}}:{{[^ ]+}} bytes_h2d=0
// CHECK-DAG: hetero-stats memory node=sim:0 peak_bytes={{1[0-9][0-9][0-9][0-9][0-9][0-9]|2[0-4][0-9][0-9][0-9][0-9][0-9]}} held_bytes=0
// CHECK-DAG: hetero-stats memory node=sim:1 peak_bytes={{1[0-9][0-9][0-9][0-9][0-9][0-9]|2[0-4][0-9][0-9][0-9][0-9][0-9]}} held_bytes=0
// CHECK-DAG: hetero-stats memory node=sim:2 peak_bytes=0 held_bytes=0
