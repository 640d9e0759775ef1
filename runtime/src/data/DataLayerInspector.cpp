//===- DataLayerInspector.cpp - Index values for the inspector ------------===//
#include "DataLayerBuffer.h"
#include "hetero/DescriptorEval.h"
#include "hetero/Log.h"
#include "hetero/Trace.h"

#include <algorithm>
#include <memory>

namespace hetero {

//===--- Values for the inspector -----------------------------------------===//

bool DataLayer::loadRange(uintptr_t Addr, unsigned Bytes, uint64_t Stride,
                          uint64_t Count, bool Signed, int64_t &Min,
                          int64_t &Max) {
  std::unique_lock<HeldMutex> L(Mutex);
  uint64_t Span;
  if (Scanning == ScanMode::Off || !Count ||
      (Bytes != 1 && Bytes != 2 && Bytes != 4 && Bytes != 8) ||
      __builtin_mul_overflow(Stride, Count - 1, &Span) ||
      __builtin_add_overflow(Span, Bytes, &Span))
    return false;
  Buffer *B = lookup(Addr);
  if (!B || B->HostResident || Addr + Span > B->Base + B->Size ||
      Addr + Span < Addr)
    return false;
  ScanJob J{B->Base, B->Generation, Addr - B->Base, Stride,
            Count,   Bytes,         Signed};
  if (auto It = B->Scans.find(scanKey(J)); It != B->Scans.end()) {
    if (It->second)
      std::tie(Min, Max) = *It->second;
    return It->second.has_value();
  }
  // A node that reads the values where they lie (a GPU's kernel: 30 to 70 us
  // a scan for CG's 336 MB of column indices, where copying them to the host
  // and scanning them there held the first SpMV up for about 0.1 s) answers
  // at once, in every mode that gets here (all but off).
  if (std::optional<bool> Ok = scanInPlace(J, Min, Max))
    return rememberScan(J, *Ok, Min, Max) && *Ok;
  if (Scanning == ScanMode::InPlace)
    return false; // nothing crosses to the host: the caller reads it whole
  if (Scanning == ScanMode::Background) {
    if (ScanQueued.emplace(J.Id, scanKey(J)).second) {
      ScanQueue.push_back(J);
      if (!ScanThread.joinable())
        ScanThread = std::thread([this] { scanLoop(); });
      ScanWake.notify_one();
    }
    return false;
  }
  bool Ok = runScan(J, L, Min, Max);
  // Written meanwhile: the values read may be stale.
  return rememberScan(J, Ok, Min, Max) && Ok;
}

DataLayer::ScanKey DataLayer::scanKey(const ScanJob &J) {
  return std::make_tuple(J.Off, J.Bytes, J.Stride, J.Count, J.Signed);
}

bool DataLayer::rememberScan(const ScanJob &J, bool Ok, int64_t Min,
                             int64_t Max) {
  Buffer *B = byId(J.Id);
  if (!B || B->Generation != J.Generation)
    return false;
  if (B->Scans.size() >= MaxScansPerBuffer)
    B->Scans.clear();
  B->Scans.emplace(scanKey(J), Ok ? std::make_optional(std::make_pair(Min, Max))
                                  : std::nullopt);
  return true;
}

std::optional<bool> DataLayer::scanInPlace(const ScanJob &J, int64_t &Min,
                                           int64_t &Max) {
  Buffer *B = byId(J.Id);
  uint64_t Hi = J.Off + J.Stride * (J.Count - 1) + J.Bytes;
  if (!B || B->Generation != J.Generation || mayHoldPointers(*B, J.Off, Hi))
    return std::nullopt;
  bool Waited = false;
  for (NodeId N = HostNode + 1; N < NodeId(B->NodePtr.size()); ++N) {
    if (!B->NodePtr[N] || !B->Valid[N].contains(J.Off, Hi))
      continue;
    if (!Waited && !waitAllQueuedLocked())
      return std::nullopt;
    Waited = true;
    if (!settleLocked(N, "values scanned"))
      return std::nullopt;
    double TraceBegin = trace::on() ? trace::now() : 0;
    NodeOps::Scan R =
        Nodes[N]->scanValues(static_cast<const char *>(B->NodePtr[N]) + J.Off,
                             J.Bytes, J.Stride, J.Count, J.Signed, Min, Max);
    if (R == NodeOps::Scan::NotHere)
      continue;
    if (trace::on())
      trace::event(Nodes[N]->name(), "inspect",
                   "inspect " + binaryBytesText(Hi - J.Off), TraceBegin,
                   trace::now(), "\"bytes\":" + std::to_string(Hi - J.Off));
    return R == NodeOps::Scan::Found;
  }
  return std::nullopt;
}

bool DataLayer::readForScan(Buffer &B, uint64_t Off, unsigned char *Dst,
                            uint64_t Len) {
  Status Read;
  return readDirect(B, Off, Dst, Len, Read) && Read.ok();
}

bool DataLayer::runScan(const ScanJob &J, std::unique_lock<HeldMutex> &L,
                        int64_t &Min, int64_t &Max) {
  // In pieces of ScanPiece bytes: the lock is held while one is copied (a
  // few hundred microseconds from a GPU), not while it is scanned.
  constexpr uint64_t ScanPiece = uint64_t(4) << 20;
  uint64_t PerPiece =
      std::max<uint64_t>(1, ScanPiece / std::max<uint64_t>(J.Stride, 1));
  // Not zeroed: every byte is copied in before it is scanned.
  std::unique_ptr<unsigned char[]> Piece(new unsigned char[std::min<uint64_t>(
      J.Stride * (J.Count - 1) + J.Bytes,
      J.Stride * (PerPiece - 1) + J.Bytes)]);
  Min = INT64_MAX;
  Max = INT64_MIN;
  for (uint64_t First = 0; First < J.Count; First += PerPiece) {
    uint64_t N = std::min(PerPiece, J.Count - First);
    Buffer *B = byId(J.Id);
    if (!waitAllQueuedLocked() || !B || B->Generation != J.Generation ||
        !readForScan(*B, J.Off + First * J.Stride, Piece.get(),
                     J.Stride * (N - 1) + J.Bytes))
      return false;
    L.unlock();
    int64_t PieceMin, PieceMax;
    bool Ok = scanLoadedValues(Piece.get(), J.Bytes, J.Stride, N, J.Signed,
                               PieceMin, PieceMax);
    L.lock();
    if (!Ok)
      return false;
    Min = std::min(Min, PieceMin);
    Max = std::max(Max, PieceMax);
  }
  return true;
}

void DataLayer::scanLoop() {
  std::unique_lock<HeldMutex> L(Mutex);
  for (;;) {
    ScanWake.wait(L, [&] { return ScanStop || !ScanQueue.empty(); });
    if (ScanStop)
      return;
    ScanJob J = ScanQueue.front();
    ScanQueue.erase(ScanQueue.begin());
    ScanBusy = true;
    int64_t Min, Max;
    bool Ok = runScan(J, L, Min, Max);
    // A buffer written (or freed) meanwhile is read again at its next use.
    (void)rememberScan(J, Ok, Min, Max);
    ScanQueued.erase({J.Id, scanKey(J)});
    ScanBusy = false;
    if (ScanQueue.empty())
      ScanIdle.notify_all();
  }
}

void DataLayer::setScanMode(ScanMode M) {
  Lock L(Mutex);
  Scanning = M;
}

void DataLayer::waitForScans() {
  std::unique_lock<HeldMutex> L(Mutex);
  ScanIdle.wait(L, [&] { return ScanQueue.empty() && !ScanBusy; });
}

} // namespace hetero
