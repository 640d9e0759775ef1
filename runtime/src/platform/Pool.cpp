//===- Pool.cpp - The members of the hetero device ------------------------===//
#include "hetero/Pool.h"

namespace hetero {

std::string Member::name() const {
  switch (Kind) {
  case MemberKind::CpuPool:
    return "cpu";
  case MemberKind::Gpu:
    return "cuda:" + std::to_string(Device < 0 ? Index : Device) +
           (Part < 0 ? "" : "." + std::to_string(Part));
  case MemberKind::Simulated:
    return "sim:" + std::to_string(Index);
  }
  return "?";
}

} // namespace hetero
