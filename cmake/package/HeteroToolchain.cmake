# -DCMAKE_TOOLCHAIN_FILE=<prefix>/lib/cmake/Hetero/HeteroToolchain.cmake:
# hetero's clang and clang++ as the project's C and C++ compilers.
get_filename_component(_hetero_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(CMAKE_C_COMPILER "${_hetero_prefix}/bin/clang")
set(CMAKE_CXX_COMPILER "${_hetero_prefix}/bin/clang++")
list(APPEND CMAKE_PREFIX_PATH "${_hetero_prefix}")
