// hetero-info: what the hetero device is made of on this machine, like
// LLVM's llvm-omp-device-info: the pool's members with their memory,
// compute capability and cores, which GPUs reach each other directly, the
// measured host<->GPU and GPU<->GPU bandwidths, the StarPU and CUDA
// versions, the settings in force and anything that keeps a member out.
// Exit status 1 when the pool cannot start. The work is done by hetero's
// libomptarget (__hetero_info, plugin/src/PoolReport.cpp), which this
// program loads through its rpath, as hetero-built programs do.
#include <stdio.h>
#include <string.h>

int __hetero_info(FILE *Out);
const char *__hetero_runtime_version(void);

int main(int argc, char **argv) {
  for (int I = 1; I < argc; ++I) {
    if (!strcmp(argv[I], "--version")) {
      printf("%s\n", __hetero_runtime_version());
      return 0;
    }
    fprintf(stderr,
            "usage: hetero-info [--version]\n"
            "  prints the hetero pool of this machine; the HETERO_* settings "
            "of the environment apply\n");
    return strcmp(argv[I], "--help") && strcmp(argv[I], "-h") ? 2 : 0;
  }
  return __hetero_info(stdout);
}
