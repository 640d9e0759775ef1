//===- IndirectCalls.h - Per-member addresses of indirect functions -*- C++
//-*-===//
//
// A kernel may call through a pointer to a `declare target ... indirect`
// function. libomptarget maps the host function to one device address,
// which it reads from the global that names the function in the image
// (get_global, then data_retrieve): for the hetero device that is the
// function in the x86_64 image the CPU pool runs. Every other member runs its
// own image (each GPU's cubin, each simulated accelerator's copy of the
// x86_64 image) with its own copy of the function, so a kernel argument
// holding that address is rewritten for the member that runs the kernel.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_INDIRECTCALLS_H
#define HETERO_INDIRECTCALLS_H

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace hetero {

class IndirectFunctions {
public:
  /// Key: the address libomptarget hands kernels (the CPU pool image's
  /// function); PerMember[m]: member m's own address, 0 when m's image lacks
  /// the function.
  void add(uintptr_t Key, std::vector<uintptr_t> PerMember);
  /// Whether member M can run a kernel with these arguments: it has its own
  /// copy of every indirect function they name.
  bool covers(size_t M, const std::vector<uintptr_t> &Args) const;
  /// Rewrites the arguments that name indirect functions for member M.
  void translate(size_t M, std::vector<uintptr_t> &Args) const;

private:
  mutable std::mutex Mutex;
  std::unordered_map<uintptr_t, std::vector<uintptr_t>> Functions;
};

} // namespace hetero

#endif // HETERO_INDIRECTCALLS_H
