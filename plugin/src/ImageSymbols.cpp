//===- ImageSymbols.cpp - Symbols of an offload image ---------------------===//
#include "ImageSymbols.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

namespace hetero {

bool imageDefinesSymbol(const __tgt_device_image *Img, llvm::StringRef Name) {
  const char *Begin = static_cast<const char *>(Img->ImageStart);
  const char *End = static_cast<const char *>(Img->ImageEnd);
  llvm::MemoryBufferRef Buf(llvm::StringRef(Begin, End - Begin), "image");
  auto Obj = llvm::object::ObjectFile::createELFObjectFile(Buf);
  if (!Obj) {
    llvm::consumeError(Obj.takeError());
    return false;
  }
  auto *Elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(Obj->get());
  if (!Elf)
    return false;
  auto Defines = [&](auto Symbols) {
    for (const llvm::object::ELFSymbolRef &S : Symbols) {
      auto N = S.getName();
      if (!N) {
        llvm::consumeError(N.takeError());
        continue;
      }
      if (*N != Name)
        continue;
      auto Flags = S.getFlags();
      if (!Flags) {
        llvm::consumeError(Flags.takeError());
        continue;
      }
      if (!(*Flags & llvm::object::SymbolRef::SF_Undefined))
        return true;
    }
    return false;
  };
  return Defines(Elf->symbols()) || Defines(Elf->getDynamicSymbolIterators());
}

} // namespace hetero
