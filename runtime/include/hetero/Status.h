//===- Status.h - What went wrong, for whoever decides ----------*- C++ -*-===//
//
// The one error type of the runtime. A function that can fail returns a
// Status: ok, or a code and a one-line message that says what failed. The
// runtime prints nothing where a failure happens: the caller that decides
// what it means prints it, once. The engine does so for launches (a failure
// it recovers from, such as a member without room, is a warning that says
// what happens instead; one it cannot is an error), the plugin for
// libomptarget's entry points.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_STATUS_H
#define HETERO_STATUS_H

#include <string>
#include <utility>

namespace hetero {

enum class StatusCode {
  Ok,
  NoRoom,       // a memory node cannot hold the data
  CopyFailed,   // a back end failed to move bytes
  NotMapped,    // an address outside every hetero buffer
  ReadOnly,     // a write to a const global of the images
  KernelFailed, // a kernel failed on a member
  Invalid,      // anything else the caller asked that cannot be
};

class [[nodiscard]] Status {
public:
  Status() = default;
  static Status error(StatusCode Code, std::string Message) {
    Status S;
    S.Code = Code;
    S.Message = std::move(Message);
    return S;
  }
  bool ok() const { return Code == StatusCode::Ok; }
  explicit operator bool() const { return ok(); }
  StatusCode code() const { return Code; }
  const std::string &message() const { return Message; }

private:
  StatusCode Code = StatusCode::Ok;
  std::string Message;
};

} // namespace hetero

#endif // HETERO_STATUS_H
