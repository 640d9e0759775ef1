//===- KernelNames.h - Kernels as their source names them -------*- C++ -*-===//
//
// clang names an offloaded region's kernel after the function it is in and
// the directive's line (device and file ids in hex, the function's mangled
// name, the line):
//   __omp_offloading_fe00_a7c3c9__Z5axpbyIfEviT_PKS0_S0_PS0__l7
// Messages, HETERO_INFO, HETERO_STATS and the trace show it as the source
// does: "axpby<float>(...) at templ.cpp:7". The symbol stays where a tool
// reads it (HETERO_STATS' kernel=, the trace's "kernel" argument).
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_KERNELNAMES_H
#define HETERO_KERNELNAMES_H

#include <string>

namespace hetero {

/// "axpby<float>(...) at templ.cpp:7": the function the region is in,
/// demangled and without its parameters, and Source ("file:line", the
/// descriptor's) or else the symbol's line ("... line 7"). A name that is not
/// clang's kernel naming comes back as it is.
std::string kernelDisplayName(const std::string &Symbol,
                              const std::string &Source);

/// The function part of a demangled name: "axpby<float>" of
/// "void axpby<float>(int, float, float const*, float*)" (return type,
/// parameters and qualifiers go; template arguments and scopes stay).
std::string functionOfDemangled(const std::string &Demangled);

} // namespace hetero

#endif // HETERO_KERNELNAMES_H
