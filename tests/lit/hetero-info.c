// hetero-info: the pool this machine gives (members with their memory and
// cores), the versions, every setting in force and what was left out; exit
// status 1 when the pool cannot start (here: a setting that is not
// accepted).
// RUN: %hetero-info --version | %FileCheck %s --check-prefix=VERSION
// VERSION: hetero {{[0-9]+\.[0-9]+\.[0-9]+}}
// RUN: env HETERO_SIMULATE=2 HETERO_CHUNKS=3 %hetero-info | %FileCheck %s
// CHECK: versions: hetero {{.*}}, LLVM offload runtime 19.1.7, StarPU 1.3.10, CUDA driver
// CHECK: pool: {{[0-9]+}} members (one OpenMP device)
// CHECK-DAG: sim:0 {{ *}}simulated accelerator (a CPU worker with private memory); memory node {{[0-9]+}}, StarPU worker {{[0-9]+}}
// CHECK-DAG: sim:1 {{ *}}simulated accelerator
// CHECK-DAG: cpu {{ *}}CPU pool, {{.*}}, cores {{[0-9,-]+}} ({{[0-9]+}}), kernels on {{[0-9]+}} threads, {{.*}} GiB host memory
// CHECK: bandwidth (StarPU's bus calibration
// CHECK: settings in force:
// CHECK-DAG: HETERO_SIMULATE=2{{$}}
// CHECK-DAG: HETERO_CHUNKS=3{{$}}
// CHECK-DAG: HETERO_PROBE_AFTER=50 (default)
// CHECK-DAG: HETERO_NODE_SPLIT=auto (default)
// CHECK-DAG: HETERO_TEAMS=measured (default)
// CHECK: left out:
// The accelerators' memory, in all; accelerators hold the parts of buffers
// their chunks touch (GPUs through the driver's virtual memory management;
// without it, whole buffers, and one launch's data must fit the smallest).
// RUN: env HETERO_SIMULATE=2 HETERO_SIMULATE_MEMORY=64M %hetero-info | %FileCheck %s --check-prefix=MEM
// MEM: sim:1 {{ *}}simulated accelerator (a CPU worker with private memory, 64.0 MiB)
// MEM: accelerator memory: {{.*}} in all over {{[0-9]+}}; {{simulated accelerators hold the parts of buffers their chunks touch|each GPU holds the parts of buffers its chunks touch, in granules of .*, so a buffer larger than one GPU is held across them|each GPU holds whole buffers, so the data one launch touches must fit in .* \(the smallest GPU\) to run on the GPUs}}
// RUN: env HETERO_CHUNKS=0 %not %hetero-info 2>&1 | %FileCheck %s --check-prefix=BAD
// BAD: hetero: error: HETERO_CHUNKS=0: expected an integer from 1 to 256
int main(void) { return 0; }
