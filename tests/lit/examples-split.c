// The examples, unchanged programs (no FP_CONTRACT pragma: clang's default
// contraction), give the same answers split as run whole on one member:
// split over the CPU pool in 5 chunks per member, over 3 simulated
// accelerators and the CPU pool, and on a GPU machine over GPUs and CPU
// cores, against a whole run on the CPU pool (on cuda:0 on a GPU machine)
// and, on a GPU machine, against the stock cuda plugin. Exact, except the
// results of floating-point reductions (himeno's gosa, cg's rnorm), which a
// split combines in another order: relative 1e-6.
// RUN: %clang-hetero %S/../../examples/jacobi.c -o %t.jacobi -lm
// RUN: %clang-hetero %S/../../examples/himeno.c -o %t.himeno -lm
// RUN: %clang-hetero %S/../../examples/cg.c -o %t.cg -lm
// RUN: %clang-hetero %S/../../examples/nbody.c -o %t.nbody -lm
// RUN: %if gpu %{ echo "HETERO_MEMBER=%gpu0" >%t.whole-env %} %else %{ echo "HETERO_MEMBER=cpu" >%t.whole-env %}
// RUN: for ex in "jacobi 300 20" "himeno S 4" "cg 48 25" "nbody 3000 2"; do \
// RUN:   set -- $ex; p=%t.$1; shift; \
// RUN:   env LIBOMPTARGET_PLUGIN=hetero $(cat %t.whole-env) $p "$@" >$p.whole || exit 1; \
// RUN:   env LIBOMPTARGET_PLUGIN=hetero HETERO_CHUNKS=5 $p "$@" >$p.chunks || exit 1; \
// RUN:   env LIBOMPTARGET_PLUGIN=hetero HETERO_SIMULATE=3 HETERO_STATS=1 $p "$@" >$p.sim 2>$p.stats || exit 1; \
// RUN:   for run in chunks sim; do \
// RUN:     %same-answers $p.whole $p.$run gosa=1e-6 rnorm=1e-6 || exit 1; \
// RUN:   done; \
// RUN:   grep -q "split=yes" $p.stats || { echo "$p: nothing split" >&2; exit 1; }; \
// RUN: done
// RUN: %if gpu %{ for ex in "jacobi 300 20" "himeno S 4" "cg 48 25" "nbody 3000 2"; do set -- $ex; p=%t.$1; shift; env LIBOMPTARGET_PLUGIN=cuda $p "$@" >$p.cuda || exit 1; %same-answers $p.cuda $p.chunks gosa=1e-6 rnorm=1e-6 || exit 1; done %}
// RUN: cat %t.jacobi.sim %t.himeno.sim %t.cg.sim %t.nbody.sim | %FileCheck %s
// CHECK: jacobi: n=300 iters=20 checksum=
// CHECK: himeno: size=S iters=4 gosa=
// CHECK: cg: n={{[0-9]+}} iters=25 rnorm={{.*}} xsum=
// CHECK: nbody: n=3000 steps=2 checksum=
