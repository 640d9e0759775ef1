//===- NodeShareTest.cpp - MPI ranks sharing a node -----------------------===//
#include "hetero/NodeShare.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace hetero;

namespace {
NodeRank rankOf(std::map<std::string, std::string> Env) {
  return nodeRankFromEnv([&](const char *Name) -> const char * {
    auto It = Env.find(Name);
    return It == Env.end() ? nullptr : It->second.c_str();
  });
}
std::vector<int> range(int Lo, int Hi) {
  std::vector<int> V;
  for (int I = Lo; I < Hi; ++I)
    V.push_back(I);
  return V;
}
} // namespace

TEST(NodeShare, TheLaunchersVariables) {
  EXPECT_FALSE(rankOf({}).shared());
  NodeRank R = rankOf({{"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                       {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}});
  EXPECT_EQ(R.Rank, 1u);
  EXPECT_EQ(R.Size, 2u);
  EXPECT_EQ(R.Source, "OMPI_COMM_WORLD_LOCAL_RANK");
  R = rankOf({{"MPI_LOCALRANKID", "3"}, {"MPI_LOCALNRANKS", "4"}});
  EXPECT_EQ(R.Rank, 3u);
  EXPECT_EQ(R.Size, 4u);
  R = rankOf({{"SLURM_LOCALID", "0"}, {"SLURM_NTASKS_PER_NODE", "8"}});
  EXPECT_EQ(R.Size, 8u);
  // Nonsense is no launcher: alone on the node.
  EXPECT_FALSE(
      rankOf({{"MPI_LOCALRANKID", "4"}, {"MPI_LOCALNRANKS", "4"}}).shared());
  EXPECT_FALSE(
      rankOf({{"MPI_LOCALRANKID", "x"}, {"MPI_LOCALNRANKS", "2"}}).shared());
  EXPECT_FALSE(rankOf({{"MPI_LOCALRANKID", "0"}}).shared());
}

TEST(NodeShare, UnboundRanksTakeDisjointSlices) {
  std::vector<int> Node = range(0, 16);
  NodeRank R;
  R.Size = 3;
  std::vector<int> All;
  for (unsigned K = 0; K < 3; ++K) {
    R.Rank = K;
    std::vector<int> Mine = rankCores(Node, Node, R);
    EXPECT_GE(Mine.size(), 5u);
    All.insert(All.end(), Mine.begin(), Mine.end());
  }
  EXPECT_EQ(All, Node); // every core once, in order
}

TEST(NodeShare, BoundRanksKeepTheirBinding) {
  NodeRank R;
  R.Rank = 1;
  R.Size = 2;
  EXPECT_EQ(rankCores({1}, range(0, 2), R), std::vector<int>({1}));
  EXPECT_EQ(rankCores(range(8, 16), range(0, 16), R), range(8, 16));
  // Alone: the whole mask.
  EXPECT_EQ(rankCores(range(0, 4), range(0, 4), NodeRank()), range(0, 4));
}

TEST(NodeShare, MoreRanksThanCoresShareRoundRobin) {
  NodeRank R;
  R.Size = 4;
  R.Rank = 3;
  EXPECT_EQ(rankCores(range(0, 2), range(0, 2), R), std::vector<int>({1}));
}

TEST(NodeShare, GpusByRank) {
  NodeRank R;
  R.Size = 2;
  R.Rank = 1;
  EXPECT_EQ(rankGpus(4, R), std::vector<int>({1, 3}));
  EXPECT_EQ(rankGpus(1, R), std::vector<int>({0})); // shared
  EXPECT_EQ(rankGpus(3, NodeRank()), range(0, 3));
  EXPECT_TRUE(rankGpus(0, R).empty());
}

TEST(NodeShare, IdLists) {
  EXPECT_EQ(idListText({0, 1, 2, 3, 6}), "0-3,6");
  EXPECT_EQ(idListText({5}), "5");
  EXPECT_EQ(idListText({}), "none");
  EXPECT_EQ(idListText({1, 3, 4}), "1,3-4");
}
