//===- HostMappings.cpp - Protection of this process's memory -------------===//
#include "HostMappings.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>

namespace hetero {

bool isHostMemoryWritable(const void *P, size_t Size) {
  uintptr_t Lo = reinterpret_cast<uintptr_t>(P), Hi = Lo + (Size ? Size : 1);
  FILE *F = fopen("/proc/self/maps", "r");
  if (!F)
    return false;
  // Mappings are sorted and may be adjacent: walk them while they cover
  // [Lo, Hi) without a gap.
  uintptr_t Covered = Lo;
  bool Writable = true;
  char Line[512];
  while (Covered < Hi && fgets(Line, sizeof(Line), F)) {
    uintptr_t Start, End;
    char Perms[5] = {};
    if (sscanf(Line, "%" SCNxPTR "-%" SCNxPTR " %4s", &Start, &End, Perms) != 3)
      continue;
    if (End <= Covered || Start > Covered)
      continue;
    Writable &= Perms[1] == 'w';
    Covered = End;
  }
  fclose(F);
  return Writable && Covered >= Hi;
}

} // namespace hetero
