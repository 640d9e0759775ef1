//===- DescriptorRegistry.h - Kernel descriptors, AST to IR -----*- C++ -*-===//
//
// The section analysis runs on the AST (it sees loops, subscripts, clauses
// and captures as written) and the loop-window pass runs on the IR of the
// same clang process (it sees the kernels clang generated). Both live in one
// shared object, loaded once as -fplugin and once as -fpass-plugin: this
// registry hands the descriptors from the first to the second, keyed by the
// kernel's parent function (mangled) and the line of its directive, which is
// how clang names offloaded kernels (__omp_offloading_<id>_<id>_<parent>_l<N>).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_DESCRIPTORREGISTRY_H
#define HETERO_DESCRIPTORREGISTRY_H

#include <string>

namespace hetero {

/// Key of a kernel: "<mangled parent>:<line>".
std::string kernelKey(const std::string &Parent, unsigned Line);

/// Records the descriptor of the kernel at Key. A second kernel with the same
/// key (two directives on one line) makes the key ambiguous: both are dropped.
void recordDescriptor(const std::string &Key, const std::string &Text);

/// The descriptor recorded for Key; false when there is none (or ambiguous).
bool lookupDescriptor(const std::string &Key, std::string &Text);

/// The section analysis ran in this process (on an OpenMP translation unit).
/// When the pass runs without it (-save-temps compiles the AST and the IR in
/// separate processes; an IR input), no kernel has a descriptor.
void noteAnalysisRan();
bool analysisRan();

} // namespace hetero

#endif // HETERO_DESCRIPTORREGISTRY_H
