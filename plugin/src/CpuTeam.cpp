//===- CpuTeam.cpp - Size of the CPU members' OpenMP teams ----------------===//
#include "CpuTeam.h"

#include <atomic>
#include <dlfcn.h>
#include <thread>

namespace hetero {

namespace {
// libomp's entry points (kmp_csupport.cpp, kmp_ftn_entry.h), found at run
// time: the plugin does not link libomp itself.
using SetThreadLimitFn = void (*)(void *Loc, int Gtid, int ThreadLimit);
using GlobalThreadNumFn = int (*)(void *Loc);
using GetThreadLimitFn = int (*)();
using SetBlocktimeFn = void (*)(int Ms);
using GetBlocktimeFn = int (*)();

struct LibOmp {
  SetThreadLimitFn SetLimit = reinterpret_cast<SetThreadLimitFn>(
      dlsym(RTLD_DEFAULT, "__kmpc_set_thread_limit"));
  GlobalThreadNumFn Gtid = reinterpret_cast<GlobalThreadNumFn>(
      dlsym(RTLD_DEFAULT, "__kmpc_global_thread_num"));
  GetThreadLimitFn GetLimit = reinterpret_cast<GetThreadLimitFn>(
      dlsym(RTLD_DEFAULT, "omp_get_thread_limit"));
  SetBlocktimeFn SetBlocktime = reinterpret_cast<SetBlocktimeFn>(
      dlsym(RTLD_DEFAULT, "kmp_set_blocktime"));
  GetBlocktimeFn GetBlocktime = reinterpret_cast<GetBlocktimeFn>(
      dlsym(RTLD_DEFAULT, "kmp_get_blocktime"));
  bool usable() const { return SetLimit && Gtid && GetLimit; }
  bool blocktimeUsable() const { return SetBlocktime && GetBlocktime; }
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

namespace {
std::atomic<bool> CpuKernelRan{false};
} // namespace

void noteCpuKernelRan() { CpuKernelRan.store(true, std::memory_order_relaxed); }

void retireOpenMPHelpers() {
  if (!CpuKernelRan.exchange(false) || !libOmp().Gtid)
    return;
  // Registered as a root, then gone: libomp's destructor of this thread's
  // data is the one teardown, and the join orders it before the workers'.
  std::thread Root([] { (void)libOmp().Gtid(nullptr); });
  Root.join();
}

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

ScopedBlocktime::ScopedBlocktime(int Ms) {
  if (Ms < 0 || !libOmp().blocktimeUsable())
    return;
  // Set even when it reads Ms already: libomp reports 0 while it is
  // oversubscribed and no blocktime was set, and forks with its default
  // once it no longer is.
  Saved = libOmp().GetBlocktime();
  libOmp().SetBlocktime(Ms);
}

ScopedBlocktime::~ScopedBlocktime() {
  if (Saved >= 0)
    libOmp().SetBlocktime(Saved);
}

} // namespace hetero
