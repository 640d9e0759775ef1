//===- Pool.cpp - The members of the hetero device ------------------------===//
#include "hetero/Pool.h"

namespace hetero {

std::string Member::name() const {
  switch (Kind) {
  case MemberKind::CpuPool:
    return "cpu";
  case MemberKind::Gpu:
    return "cuda:" + std::to_string(Index);
  case MemberKind::Simulated:
    return "sim:" + std::to_string(Index);
  }
  return "?";
}

} // namespace hetero
