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

std::list<SectionCache::Entry>::iterator
SectionCache::findLocked(const Key &K) {
  assert(Mutex.heldHere() && "SectionCache::findLocked without its Mutex");
  auto Of = ByDesc.find(K.Desc);
  if (Of == ByDesc.end())
    return Entries.end();
  for (std::list<Entry>::iterator It : Of->second)
    if (It->K == K)
      return It;
  return Entries.end();
}

void SectionCache::eraseLocked(std::list<Entry>::iterator It) {
  assert(Mutex.heldHere() && "SectionCache::eraseLocked without its Mutex");
  auto Of = ByDesc.find(It->K.Desc);
  std::vector<std::list<Entry>::iterator> &Places = Of->second;
  Places.erase(std::find(Places.begin(), Places.end(), It));
  if (Places.empty())
    ByDesc.erase(Of);
  Entries.erase(It);
}

bool SectionCache::find(const Key &K, const DataLayer &Layer, Shared &Out) {
  std::lock_guard<HeldMutex> L(Mutex);
  auto It = findLocked(K);
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
    eraseLocked(It);
    return false;
  }
  // splice keeps iterators valid: ByDesc still points at the entry.
  Entries.splice(Entries.begin(), Entries, It);
  Out = Entries.front().Sections;
  return true;
}

void SectionCache::store(Key K, std::vector<SectionLookup> Lookups,
                         std::vector<MemoryRead> Reads, Shared Sections) {
  std::lock_guard<HeldMutex> L(Mutex);
  if (auto It = findLocked(K); It != Entries.end())
    eraseLocked(It);
  const KernelDescriptor *Desc = K.Desc;
  Entries.push_front({std::move(K), std::move(Lookups), std::move(Reads),
                      std::move(Sections)});
  ByDesc[Desc].push_back(Entries.begin());
  if (Entries.size() > Capacity)
    eraseLocked(std::prev(Entries.end()));
}

size_t SectionCache::size() const {
  std::lock_guard<HeldMutex> L(Mutex);
  return Entries.size();
}

} // namespace hetero
