//===- CudaDriver.cpp - Entry points of the CUDA driver -------------------===//
#include "CudaDriver.h"

#include <dlfcn.h>
#include <initializer_list>

namespace hetero {

void *cudaDriverSymbol(const char *Name) {
  for (const char *Lib : {"libcuda.so.1", "libcuda.so"})
    if (void *Handle = dlopen(Lib, RTLD_LAZY | RTLD_NOLOAD)) {
      void *Symbol = dlsym(Handle, Name);
      dlclose(Handle); // the cuda plugin keeps it loaded
      return Symbol;
    }
  return nullptr;
}

} // namespace hetero
