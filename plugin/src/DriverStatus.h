//===- DriverStatus.h - LLVM plugins' errors as a Status --------*- C++ -*-===//
//
// Where an error of LLVM's plugins (an llvm::Error carrying the CUDA driver's
// words) enters the runtime: it becomes a Status (hetero/Status.h) whose
// message says what was asked, then the driver's reason, as the cuda
// plugin's own Plugin::check turns each driver result into an error with
// context. The plugin calls the devices' methods that return llvm::Error
// rather than the plugin's int entry points, which print their failures
// themselves: a failure is reported once, by the engine, with its context.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_PLUGIN_DRIVERSTATUS_H
#define HETERO_PLUGIN_DRIVERSTATUS_H

#include "hetero/Status.h"

#include "llvm/Support/Error.h"

#include <string>

namespace hetero {

/// Ok without Err; else Code with "What(): the driver's reason". What is
/// called only on failure: a launch makes several of these calls, and
/// building their messages every time cost TeaLeaf 2% of its run.
template <typename WhatFn>
Status statusOf(llvm::Error Err, StatusCode Code, WhatFn &&What) {
  if (!Err)
    return Status();
  return Status::error(Code, std::string(What()) + ": " +
                                 llvm::toString(std::move(Err)));
}

} // namespace hetero

#endif // HETERO_PLUGIN_DRIVERSTATUS_H
