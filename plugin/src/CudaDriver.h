//===- CudaDriver.h - Entry points of the CUDA driver ------------*- C++
//-*-===//
//
// The cuda plugin loads libcuda itself (dlopen, where LLVM was built without
// the CUDA toolkit) and keeps its entry points to itself. The driver calls
// hetero makes beyond the plugin's (virtual memory, batched copies, pinned
// host memory) are looked up here, in the libcuda the plugin loaded.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_CUDADRIVER_H
#define HETERO_PLUGIN_CUDADRIVER_H

namespace hetero {

/// The driver's entry point Name, from the libcuda this process loaded;
/// nullptr where none is loaded or it lacks Name (an older driver).
void *cudaDriverSymbol(const char *Name);

} // namespace hetero

#endif // HETERO_PLUGIN_CUDADRIVER_H
