// Launches that stream through a member's memory in rounds (issue 39: two
// lines of 32 MB on one simulated accelerator of 46 MiB) keep the data of
// their first round on the member from launch to launch and stream the rest
// through a window, each window's data given back as it ends: only what
// does not fit moves, once each way. Bit for bit the CPU pool's answer; the
// extra two sweeps of the second run move at most 50 MB a sweep between the
// member and the host (46 MB; 74 MB with rounds of all the room, going up
// and down in turn; 84 MB with every launch's rounds going up).
// RUN: %clang-hetero %S/../../../examples/stencil1d.c -o %t
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_MEMBER=cpu %t 4000000 4 >%t.whole
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_SHARES_FILE=none HETERO_SIMULATE=1 HETERO_MEMBERS=sim:0 HETERO_SIMULATE_MEMORY=46M HETERO_STATS=1 %t 4000000 2 >%t.2 2>%t.2.err
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_SHARES_FILE=none HETERO_SIMULATE=1 HETERO_MEMBERS=sim:0 HETERO_SIMULATE_MEMORY=46M HETERO_STATS=1 %t 4000000 4 >%t.4 2>%t.4.err
// RUN: %same-answers %t.whole %t.4
// RUN: %FileCheck %s < %t.4.err
// RUN: python3 %S/Inputs/halo-bytes.py %t.2.err %t.4.err 2 --at-most 50000000 | %FileCheck %s --check-prefix=BYTES
//
// CHECK: hetero-stats kernel={{.*}} launches=4 split=yes split_launches=4 members=sim:0:{{.*}} round_launches=4 rounds={{[1-9][0-9]+}}
// CHECK: hetero-stats kernel={{.*}} launches=4 split=yes split_launches=4 members=sim:0:{{.*}} round_launches=4 rounds={{[1-9][0-9]+}}
// BYTES: halo: ok
