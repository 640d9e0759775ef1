//===- IndirectCalls.cpp - Per-member addresses of indirect functions -----===//
#include "hetero/IndirectCalls.h"

namespace hetero {

void IndirectFunctions::add(uintptr_t Key, std::vector<uintptr_t> PerMember) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Functions[Key] = std::move(PerMember);
}

bool IndirectFunctions::covers(size_t M,
                               const std::vector<uintptr_t> &Args) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  for (uintptr_t A : Args)
    if (auto It = Functions.find(A); It != Functions.end())
      if (M >= It->second.size() || It->second[M] == 0)
        return false;
  return true;
}

void IndirectFunctions::translate(size_t M,
                                  std::vector<uintptr_t> &Args) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Functions.empty())
    return;
  for (uintptr_t &A : Args)
    if (auto It = Functions.find(A);
        It != Functions.end() && M < It->second.size() && It->second[M])
      A = It->second[M];
}

} // namespace hetero
