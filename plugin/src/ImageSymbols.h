//===- ImageSymbols.h - Symbols of an offload image -------------*- C++ -*-===//
//
// Whether an image (an x86_64 shared object or a cubin, both ELF) defines a
// symbol. The plugin asks before looking a global up through a back end,
// whose failed lookups print errors: hetero's own globals (descriptors and
// loop windows) are optional.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_IMAGESYMBOLS_H
#define HETERO_PLUGIN_IMAGESYMBOLS_H

#include "Shared/APITypes.h"

#include "llvm/ADT/StringRef.h"

namespace hetero {

bool imageDefinesSymbol(const __tgt_device_image *Img, llvm::StringRef Name);

} // namespace hetero

#endif // HETERO_PLUGIN_IMAGESYMBOLS_H
