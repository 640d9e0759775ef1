//===- KernelNamesTest.cpp - Kernels as their source names them -----------===//
#include "hetero/KernelNames.h"

#include <gtest/gtest.h>

using namespace hetero;

TEST(KernelNames, CKernelsKeepTheirFunctionName) {
  EXPECT_EQ(
      kernelDisplayName("__omp_offloading_fe00_510992_main_l38", "jacobi.c:38"),
      "main(...) at jacobi.c:38");
  EXPECT_EQ(kernelDisplayName("__omp_offloading_fe00_510992_main_l38", ""),
            "main(...) line 38");
  // A function whose name holds "_l".
  EXPECT_EQ(kernelDisplayName("__omp_offloading_10302_abc_calc_lhs_l7", ""),
            "calc_lhs(...) line 7");
}

TEST(KernelNames, CxxKernelsAreDemangled) {
  EXPECT_EQ(kernelDisplayName(
                "__omp_offloading_fe00_a7c3c9__Z5axpbyIfEviT_PKS0_S0_PS0__l7",
                "templ.cpp:7"),
            "axpby<float>(...) at templ.cpp:7");
  EXPECT_EQ(kernelDisplayName("__omp_offloading_fe00_1_"
                              "_ZN5Model5groupEllPK4AtomPKfS4_Pf_l30",
                              "bude.cpp:30"),
            "Model::group(...) at bude.cpp:30");
}

TEST(KernelNames, OtherNamesStayAsTheyAre) {
  EXPECT_EQ(kernelDisplayName("stencil", "x.c:1"), "stencil");
  EXPECT_EQ(kernelDisplayName("__omp_offloading_fe00_1_main", ""),
            "__omp_offloading_fe00_1_main");
}

TEST(KernelNames, FunctionOfDemangled) {
  EXPECT_EQ(functionOfDemangled("void axpby<float>(int, float, float "
                                "const*, float*)"),
            "axpby<float>");
  EXPECT_EQ(functionOfDemangled("ns::C<std::pair<int, int> >::run(int) const"),
            "ns::C<std::pair<int, int> >::run");
  EXPECT_EQ(functionOfDemangled("main"), "main");
  EXPECT_EQ(functionOfDemangled("void (anonymous namespace)::f(int)"),
            "(anonymous namespace)::f");
  EXPECT_EQ(functionOfDemangled("bool operator< <int>(X<int> const&, X<int> "
                                "const&)"),
            "operator< <int>");
}
