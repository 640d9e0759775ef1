//===- ImageSymbols.cpp - Symbols of an offload image ---------------------===//
#include "ImageSymbols.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

namespace hetero {

namespace {

/// The symbols Img defines (static and dynamic tables).
llvm::StringSet<> definedSymbols(const __tgt_device_image *Img) {
  llvm::StringSet<> Out;
  const char *Begin = static_cast<const char *>(Img->ImageStart);
  const char *End = static_cast<const char *>(Img->ImageEnd);
  llvm::MemoryBufferRef Buf(llvm::StringRef(Begin, End - Begin), "image");
  auto Obj = llvm::object::ObjectFile::createELFObjectFile(Buf);
  if (!Obj) {
    llvm::consumeError(Obj.takeError());
    return Out;
  }
  auto *Elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(Obj->get());
  if (!Elf)
    return Out;
  auto Add = [&](auto Symbols) {
    for (const llvm::object::ELFSymbolRef &S : Symbols) {
      auto Flags = S.getFlags();
      if (!Flags) {
        llvm::consumeError(Flags.takeError());
        continue;
      }
      if (*Flags & llvm::object::SymbolRef::SF_Undefined)
        continue;
      auto N = S.getName();
      if (!N) {
        llvm::consumeError(N.takeError());
        continue;
      }
      Out.insert(*N);
    }
  };
  Add(Elf->symbols());
  Add(Elf->getDynamicSymbolIterators());
  return Out;
}

} // namespace

bool ImageSymbols::defines(const __tgt_device_image *Img,
                           llvm::StringRef Name) {
  if (!Img)
    return false;
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = Defined.find(Img);
  if (It == Defined.end())
    It = Defined.emplace(Img, definedSymbols(Img)).first;
  return It->second.contains(Name);
}

} // namespace hetero
