//===- HostMappings.h - Protection of this process's memory -----*- C++ -*-===//
//
// Globals of a loaded x86_64 image that the program declared const live in
// read-only pages (.rodata, or .data.rel.ro once relocated). The data layer
// must never copy into such a global: it asks here whether the host copy of a
// global is writable.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_HOSTMAPPINGS_H
#define HETERO_PLUGIN_HOSTMAPPINGS_H

#include <cstddef>

namespace hetero {

/// Whether every byte of [P, P + Size) lies in a writable mapping of this
/// process (/proc/self/maps). False when it cannot be told.
bool isHostMemoryWritable(const void *P, size_t Size);

} // namespace hetero

#endif // HETERO_PLUGIN_HOSTMAPPINGS_H
