// The stencil1d example, unchanged, over two 8 MB lines on simulated
// accelerators of 6 MiB that cannot hold them (issue 39), each run bit for
// bit as the whole run on the CPU pool:
//  - one member and the CPU pool: the member keeps the share of the
//    iterations its memory holds (room[...]) and the CPU pool computes the
//    rest in place, every launch split, nothing without room;
//  - one member alone: every launch goes through its memory in rounds,
//    giving back what each streaming round used;
//  - the case, three members of 24 MiB under two 32 MB lines: the
//    sweeps split over the three.
// RUN: %clang-hetero %S/../../../examples/stencil1d.c -o %t
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_MEMBER=cpu %t 1000000 6 >%t.whole
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_SHARES_FILE=none HETERO_SIMULATE=1 HETERO_MEMBERS=sim:0,cpu HETERO_SIMULATE_MEMORY=6M HETERO_STATS=1 %t 1000000 6 >%t.cpu 2>%t.cpu.err
// RUN: %same-answers %t.whole %t.cpu
// RUN: %FileCheck %s --check-prefix=CPU < %t.cpu.err
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_SHARES_FILE=none HETERO_SIMULATE=1 HETERO_MEMBERS=sim:0 HETERO_SIMULATE_MEMORY=6M HETERO_STATS=1 %t 1000000 6 >%t.one 2>%t.one.err
// RUN: %same-answers %t.whole %t.one
// RUN: %FileCheck %s --check-prefix=ONE < %t.one.err
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_MEMBER=cpu %t 4000000 3 >%t.whole4
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_SHARES_FILE=none HETERO_SIMULATE=3 HETERO_MEMBERS=sim:0,sim:1,sim:2 HETERO_SIMULATE_MEMORY=24M HETERO_STATS=1 %t 4000000 3 >%t.three 2>%t.three.err
// RUN: %same-answers %t.whole4 %t.three
// RUN: %FileCheck %s --check-prefix=THREE < %t.three.err
//
// CPU-NOT: no room
// CPU: hetero-stats kernel={{.*}} launches=6 split=yes split_launches=6 members=sim:0:{{[1-9][0-9]*}}:{{[^,]+}},cpu:{{[1-9][0-9]*}}:{{[^ ]+}} {{.*}} room[sim:0<={{[0-9.]+}}%]
// CPU: hetero-stats kernel={{.*}} launches=6 split=yes split_launches=6 {{.*}} room[sim:0<=
//
// ONE-NOT: fits on no member
// ONE: hetero-stats kernel={{.*}} launches=6 split=yes split_launches=6 members=sim:0:5999988:{{.*}} room[sim:0<={{[0-9.]+}}%] round_launches=6 rounds={{[1-9][0-9]+}}
// ONE: hetero-stats memory node=sim:0 peak_bytes={{[0-9]+}} held_bytes=0 evicted_bytes={{[1-9][0-9]+}}
//
// THREE-NOT: no room
// THREE: hetero-stats kernel={{.*}} launches=3 split=yes split_launches=3 members=sim:0:{{[1-9][0-9]*}}:{{[^,]+}},sim:1:{{[1-9][0-9]*}}:{{[^,]+}},sim:2:{{[1-9][0-9]*}}:
