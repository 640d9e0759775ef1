// Several processes of one program start at the same moment on a machine
// whose StarPU home is still empty (MPI ranks on a fresh node; a test suite
// run in parallel in CI): each must start, run and get the right answer. Each
// round gets a fresh STARPU_HOME, so every round races on writing the bus
// sampling files (StarPU 1.3.10 aborted in check_bus_affinity_file about 1
// process in 50 before clang-patches/starpu/0003).
// Programs leave the bus unmeasured (STARPU_BUS_SAMPLING=0, clang-patches/
// starpu/0005): these ask for the measurement, as hetero-info does and as a
// user may. On a GPU machine every fresh home benchmarks the bus again
// (seconds a round); the race and the lock are the same code with or without
// a GPU.
// UNSUPPORTED: gpu
// RUN: %clang-hetero %S/Inputs/fill-and-check.c -o %t
// RUN: %S/Inputs/start-together.sh 24 4 %t.homes env STARPU_BUS_SAMPLING=1 LIBOMPTARGET_PLUGIN=hetero %t | %FileCheck %s
// CHECK: start-together: 96 of 96 runs ok
