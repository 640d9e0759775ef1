//===- ImageSymbols.h - Symbols of an offload image -------------*- C++ -*-===//
//
// Whether an image (an x86_64 shared object or a cubin, both ELF) defines a
// symbol. The plugin asks before looking a global up through a back end,
// whose failed lookups print errors: hetero's own globals (descriptors and
// loop windows) are optional.
//
// Each image's symbol table is read once, on the first question: every
// kernel asks for its descriptor and its loop window on every member, and a
// scan of the whole table per question cost about 1.3e9 instructions at
// CloverLeaf's start (three members, a hundred kernels).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_IMAGESYMBOLS_H
#define HETERO_PLUGIN_IMAGESYMBOLS_H

#include "Shared/APITypes.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <mutex>

namespace hetero {

/// The symbols the images of one binary define; safe to ask from any thread.
class ImageSymbols {
public:
  /// Whether Img defines Name (false for an image that is not ELF).
  bool defines(const __tgt_device_image *Img, llvm::StringRef Name);

private:
  std::mutex Mutex;
  std::map<const __tgt_device_image *, llvm::StringSet<>> Defined;
};

} // namespace hetero

#endif // HETERO_PLUGIN_IMAGESYMBOLS_H
