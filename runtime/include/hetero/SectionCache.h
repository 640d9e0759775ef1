//===- SectionCache.h - Sections of recent split plans ----------*- C++ -*-===//
//
// Resolving a split's sections evaluates every access of the descriptor over
// every box of every chunk's window, on the launching thread before the
// first chunk starts: for a stencil of tens of accesses, a noticeable part
// of a short iteration (docs/measurements.md#sections). A loop launched
// again and again touches the same sections each time, so the engine keeps
// the answers.
//
// Contract:
//   - An entry answers a launch only when everything its sections came from
//     is the same: the descriptor, the arguments it uses (argsUsed) and
//     their offsets, the trip counts, the chunks (member, window) in order, and
//     every buffer lookup the resolution made (SectionLookup), asked again of
//     the layer: buffers mapped and freed meanwhile elsewhere (a reduction
//     variable each launch) do not matter, one of its own that changed does.
//   - The descriptor is compared by address: the plugin keeps every
//     kernel's descriptor until the pool ends (PluginBackend::Kernels), so one
//     address names one descriptor for the cache's life.
//   - Sections whose bounds came from memory (a CSR row's extent, the
//     inspector's least and greatest column, a pointer kept in a buffer)
//     hold only while that memory does: the caller names each buffer it
//     read and the generation it read (BufferInfo::Generation, taken before
//     the read), and an entry answers only while every one of them is
//     unwritten (a CSR matrix that is never written). The caller stores
//     nothing where a read failed or the inspector had no answer (the whole
//     buffer read meanwhile, the answer may narrow later).
//   - At most Capacity entries; the least recently used goes first. Two
//     entries per kernel are the common case (Jacobi's two arrays trade
//     places every sweep); an application's step launches many kernels,
//     and one cycling through more than Capacity entries misses every time
//     under LRU (an application with more kernels than entries, whose
//     launches then resolve their sections every time). Entries are found
//     by descriptor, so a launch compares only its own kernel's.
//   - Thread-safe: launches from several host threads share one cache.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_SECTIONCACHE_H
#define HETERO_SECTIONCACHE_H

#include "hetero/ChunkPlan.h"
#include "hetero/DataLayer.h"
#include "hetero/HeldMutex.h"

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace hetero {

class KernelDescriptor;

class SectionCache {
public:
  static constexpr size_t Capacity = 1024;

  struct Key {
    const KernelDescriptor *Desc = nullptr;
    /// Of the arguments Desc uses, in the order of argsUsed().
    std::vector<uintptr_t> Args;
    std::vector<ptrdiff_t> Offsets;
    std::vector<uint64_t> Trips;
    std::vector<ChunkSpec> Chunks;
    bool operator==(const Key &O) const;
  };

  /// Per chunk, its sections: shared, not copied (a launch only reads
  /// them).
  using Shared = std::vector<std::shared_ptr<const ChunkSections>>;
  /// A buffer whose contents the sections depend on, as it was read.
  struct MemoryRead {
    BufferId Id = 0;
    uint64_t Generation = 0;
  };

  /// The sections stored under K, where Layer still answers each of their
  /// lookups alike and holds each buffer read unwritten; an entry it
  /// answers otherwise is dropped.
  bool find(const Key &K, const DataLayer &Layer, Shared &Out);
  void store(Key K, std::vector<SectionLookup> Lookups,
             std::vector<MemoryRead> Reads, Shared Sections);
  size_t size() const;

private:
  struct Entry {
    Key K;
    std::vector<SectionLookup> Lookups;
    std::vector<MemoryRead> Reads;
    Shared Sections;
  };
  mutable HeldMutex Mutex;
  std::list<Entry> Entries; // most recently used first
  /// Entries' places in Entries, by descriptor.
  std::unordered_map<const KernelDescriptor *,
                     std::vector<std::list<Entry>::iterator>>
      ByDesc;
  std::list<Entry>::iterator findLocked(const Key &K);
  void eraseLocked(std::list<Entry>::iterator It);
};

} // namespace hetero

#endif // HETERO_SECTIONCACHE_H
