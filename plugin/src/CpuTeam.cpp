//===- CpuTeam.cpp - Size of the CPU pool's OpenMP team -------------------===//
#include "CpuTeam.h"

#include <dlfcn.h>

namespace hetero {

namespace {
// libomp's entry points (kmp_csupport.cpp), found at run time: the plugin
// does not link libomp itself.
using SetThreadLimitFn = void (*)(void *Loc, int Gtid, int ThreadLimit);
using GlobalThreadNumFn = int (*)(void *Loc);
} // namespace

bool limitOpenMPThreads(int Threads) {
  thread_local bool Done = false;
  if (Done || Threads <= 0)
    return Done;
  static auto *SetLimit = reinterpret_cast<SetThreadLimitFn>(
      dlsym(RTLD_DEFAULT, "__kmpc_set_thread_limit"));
  static auto *Gtid = reinterpret_cast<GlobalThreadNumFn>(
      dlsym(RTLD_DEFAULT, "__kmpc_global_thread_num"));
  if (!SetLimit || !Gtid)
    return false;
  SetLimit(nullptr, Gtid(nullptr), Threads);
  Done = true;
  return true;
}

} // namespace hetero
