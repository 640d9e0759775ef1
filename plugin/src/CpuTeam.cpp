//===- CpuTeam.cpp - Size of the CPU members' OpenMP teams ----------------===//
#include "CpuTeam.h"

#include <dlfcn.h>

namespace hetero {

namespace {
// libomp's entry points (kmp_csupport.cpp, kmp_ftn_entry.h), found at run
// time: the plugin does not link libomp itself.
using SetThreadLimitFn = void (*)(void *Loc, int Gtid, int ThreadLimit);
using GlobalThreadNumFn = int (*)(void *Loc);
using GetThreadLimitFn = int (*)();

struct LibOmp {
  SetThreadLimitFn SetLimit = reinterpret_cast<SetThreadLimitFn>(
      dlsym(RTLD_DEFAULT, "__kmpc_set_thread_limit"));
  GlobalThreadNumFn Gtid = reinterpret_cast<GlobalThreadNumFn>(
      dlsym(RTLD_DEFAULT, "__kmpc_global_thread_num"));
  GetThreadLimitFn GetLimit = reinterpret_cast<GetThreadLimitFn>(
      dlsym(RTLD_DEFAULT, "omp_get_thread_limit"));
  bool usable() const { return SetLimit && Gtid && GetLimit; }
};

const LibOmp &libOmp() {
  static const LibOmp L;
  return L;
}

void setLimit(int Threads) {
  const LibOmp &L = libOmp();
  L.SetLimit(nullptr, L.Gtid(nullptr), Threads);
}
} // namespace

ScopedThreadLimit::ScopedThreadLimit(int Threads) {
  if (Threads <= 0 || !libOmp().usable())
    return;
  Saved = libOmp().GetLimit();
  if (Saved == Threads) {
    Saved = 0;
    return;
  }
  setLimit(Threads);
}

ScopedThreadLimit::~ScopedThreadLimit() {
  if (Saved > 0)
    setLimit(Saved);
}

} // namespace hetero
