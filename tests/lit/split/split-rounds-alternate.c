// Launches that stream through a member's memory in rounds (issue 39: two
// lines of 32 MB on one simulated accelerator of 46 MiB) go up and down in
// turn, each launch's rounds the last one's in reverse: the first round
// finds what the last round of the launch before left on the member. Bit
// for bit the CPU pool's answer; the extra two sweeps of the second run
// move at most 80 MB a sweep between the member and the host (74 MB; 84 MB
// with every launch's rounds going up; 126 MB when, in addition, the member
// also received the ranges its chunks overwrite whole).
// RUN: %clang-hetero %S/../../../examples/stencil1d.c -o %t
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_MEMBER=cpu %t 4000000 4 >%t.whole
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_SHARES_FILE=none HETERO_SIMULATE=1 HETERO_MEMBERS=sim:0 HETERO_SIMULATE_MEMORY=46M HETERO_STATS=1 %t 4000000 2 >%t.2 2>%t.2.err
// RUN: env LIBOMPTARGET_PLUGIN=hetero HETERO_SHARES_FILE=none HETERO_SIMULATE=1 HETERO_MEMBERS=sim:0 HETERO_SIMULATE_MEMORY=46M HETERO_STATS=1 %t 4000000 4 >%t.4 2>%t.4.err
// RUN: %same-answers %t.whole %t.4
// RUN: %FileCheck %s < %t.4.err
// RUN: python3 %S/Inputs/halo-bytes.py %t.2.err %t.4.err 2 --at-most 80000000 | %FileCheck %s --check-prefix=BYTES
//
// CHECK: hetero-stats kernel={{.*}} launches=4 split=yes split_launches=4 members=sim:0:{{.*}} round_launches=4 rounds=8
// CHECK: hetero-stats kernel={{.*}} launches=4 split=yes split_launches=4 members=sim:0:{{.*}} round_launches=4 rounds=8
// BYTES: halo: ok
