# The LLVM 19.1.7 offload runtime (libomptarget with the cuda, host and hetero
# plugins) from Debian's source package llvm-toolchain-19, patched by
# clang-patches/llvm/*.patch. Our plugin (plugin/) is compiled into
# libomptarget.so like the upstream ones.
set(HETERO_LLVM_SRC ${CMAKE_BINARY_DIR}/_deps/llvm-src)
set(HETERO_LIT ${HETERO_LLVM_SRC}/llvm/utils/lit/lit.py)
file(GLOB HETERO_LLVM_PATCHES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/clang-patches/llvm/*.patch)

ExternalProject_Add(offload
  PREFIX ${CMAKE_BINARY_DIR}/_deps/offload
  SOURCE_DIR ${HETERO_LLVM_SRC}
  SOURCE_SUBDIR offload
  BINARY_DIR ${CMAKE_BINARY_DIR}/_deps/offload-build
  DOWNLOAD_COMMAND ${CMAKE_SOURCE_DIR}/cmake/fetch-debian-source.sh
                   llvm-toolchain-19 ${HETERO_DOWNLOADS}/llvm
  UPDATE_COMMAND ""
  CMAKE_GENERATOR Ninja
  CMAKE_ARGS
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_C_COMPILER=${HETERO_clang-19_EXE}
    -DCMAKE_CXX_COMPILER=${HETERO_clang++-19_EXE}
    -DLLVM_DIR=${HETERO_LLVM_PREFIX}/lib/cmake/llvm
    -DLIBOMPTARGET_LLVM_INCLUDE_DIRS=${HETERO_LLVM_PREFIX}/include
    -DLIBOMPTARGET_PLUGINS_TO_BUILD=cuda|host|hetero
    -DLIBOMPTARGET_EXTERNAL_PLUGIN_DIR_hetero=${CMAKE_SOURCE_DIR}/plugin
    -DLIBOMPTARGET_BUILD_DEVICERTL_BCLIB=OFF
    -DOPENMP_LLVM_LIT_EXECUTABLE=${HETERO_LIT}
    -DOPENMP_LLVM_TOOLS_DIR=${HETERO_LLVM_PREFIX}/bin
    -DHETERO_RUNTIME_DIR=${CMAKE_SOURCE_DIR}/runtime
    -DHETERO_STARPU_PREFIX=${HETERO_STARPU_PREFIX}
    -DHETERO_CUDA_PATH=${HETERO_CUDA_PATH}
    -DHETERO_VERSION=${PROJECT_VERSION}
  LIST_SEPARATOR |
  # Our plugin and runtime sources live outside the external project: let
  # ninja decide what is stale on every build.
  BUILD_ALWAYS ON
  INSTALL_COMMAND ${CMAKE_COMMAND} -E copy_if_different
                  <BINARY_DIR>/libomptarget.so.19.1 ${HETERO_LIB_DIR}/
          COMMAND ${CMAKE_COMMAND} -E create_symlink libomptarget.so.19.1
                  ${HETERO_LIB_DIR}/libomptarget.so
  DEPENDS starpu
  USES_TERMINAL_BUILD ON)

ExternalProject_Add_Step(offload prepare
  COMMAND ${CMAKE_SOURCE_DIR}/cmake/extract-source.sh ${HETERO_DOWNLOADS}/llvm
          llvm-toolchain-19 <SOURCE_DIR> ${CMAKE_SOURCE_DIR}/clang-patches/llvm
          offload cmake openmp llvm/utils/lit
  DEPENDEES download
  DEPENDERS configure
  DEPENDS ${HETERO_LLVM_PATCHES} ${CMAKE_SOURCE_DIR}/cmake/extract-source.sh)
