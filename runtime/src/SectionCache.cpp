//===- SectionCache.cpp - Sections of recent split plans ------------------===//
#include "hetero/SectionCache.h"

#include "hetero/DataLayer.h"

#include <algorithm>

namespace hetero {

namespace {

bool sameBuffer(const std::optional<BufferInfo> &A,
                const std::optional<BufferInfo> &B) {
  if (!A || !B)
    return !A && !B;
  return A->Id == B->Id && A->Size == B->Size && A->External == B->External &&
         A->ReadOnly == B->ReadOnly && A->HostResident == B->HostResident;
}

} // namespace

bool SectionCache::Key::operator==(const Key &O) const {
  return Desc == O.Desc && Args == O.Args && Offsets == O.Offsets &&
         Trips == O.Trips && Chunks == O.Chunks;
}

bool SectionCache::find(const Key &K, const DataLayer &Layer, Shared &Out) {
  std::lock_guard<std::mutex> L(Mutex);
  auto It = std::find_if(Entries.begin(), Entries.end(),
                         [&](const Entry &E) { return E.K == K; });
  if (It == Entries.end())
    return false;
  auto Alike = [&](const SectionLookup &Look) {
    return sameBuffer(Look.Found, Look.ForPointer
                                      ? Layer.findForPointer(Look.Addr)
                                      : Layer.find(Look.Addr));
  };
  auto Unwritten = [&](const MemoryRead &R) {
    std::optional<BufferInfo> B = Layer.find(R.Id);
    return B && B->Id == R.Id && B->Generation == R.Generation;
  };
  if (!std::all_of(It->Lookups.begin(), It->Lookups.end(), Alike) ||
      !std::all_of(It->Reads.begin(), It->Reads.end(), Unwritten)) {
    Entries.erase(It);
    return false;
  }
  Entries.splice(Entries.begin(), Entries, It);
  Out = Entries.front().Sections;
  return true;
}

void SectionCache::store(Key K, std::vector<SectionLookup> Lookups,
                         std::vector<MemoryRead> Reads, Shared Sections) {
  std::lock_guard<std::mutex> L(Mutex);
  auto It = std::find_if(Entries.begin(), Entries.end(),
                         [&](const Entry &E) { return E.K == K; });
  if (It != Entries.end())
    Entries.erase(It);
  Entries.push_front({std::move(K), std::move(Lookups), std::move(Reads),
                      std::move(Sections)});
  if (Entries.size() > Capacity)
    Entries.pop_back();
}

size_t SectionCache::size() const {
  std::lock_guard<std::mutex> L(Mutex);
  return Entries.size();
}

} // namespace hetero
