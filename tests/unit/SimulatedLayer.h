//===- SimulatedLayer.h - A data layer over simulated nodes, for tests -*-===//
//
// The fixture the data layer's tests share: a DataLayer with three
// simulated accelerators (nodes A, B and C after the host), and views of a
// buffer's storage on a node.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_TESTS_SIMULATEDLAYER_H
#define HETERO_TESTS_SIMULATEDLAYER_H

#include "hetero/DataLayer.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace hetero {

struct SimulatedLayer : ::testing::Test {
  DataLayer L;
  NodeId A = L.addNode(std::make_unique<SimulatedNodeOps>(0));
  NodeId B = L.addNode(std::make_unique<SimulatedNodeOps>(1));
  NodeId C = L.addNode(std::make_unique<SimulatedNodeOps>(2));

  static std::vector<int> iota(size_t N, int Start = 0) {
    std::vector<int> V(N);
    std::iota(V.begin(), V.end(), Start);
    return V;
  }
  /// Buffer P's storage on node N (allocated on first use).
  int *nodeView(NodeId N, void *P) {
    uintptr_t Out = 0;
    EXPECT_TRUE(L.translate(N, reinterpret_cast<uintptr_t>(P), Out));
    return reinterpret_cast<int *>(Out);
  }
  BufferId id(void *P) {
    std::optional<BufferInfo> Info = L.find(reinterpret_cast<uintptr_t>(P));
    EXPECT_TRUE(Info.has_value());
    return Info ? Info->Id : 0;
  }
};

} // namespace hetero

#endif // HETERO_TESTS_SIMULATEDLAYER_H
