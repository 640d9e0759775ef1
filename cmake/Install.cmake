# `cmake --install build --prefix <dir>`: the entry points, hetero-info and
# hetero-trace-plot (bin/), hetero's libomptarget with its plugin, the
# compiler plugin, the start-up check and StarPU (lib/), the CMake package
# (lib/cmake/Hetero: find_package(Hetero), Hetero::offload, a toolchain
# file) and the documentation. Relocatable: the entry points find ../lib
# from where they are, the libraries each other through $ORIGIN.
include(CMakePackageConfigHelpers)

install(PROGRAMS ${HETERO_BIN_DIR}/clang ${HETERO_BIN_DIR}/clang++
                 ${HETERO_BIN_DIR}/hetero-info DESTINATION bin)
install(PROGRAMS ${CMAKE_SOURCE_DIR}/tools/trace-plot.py DESTINATION bin
        RENAME hetero-trace-plot)
install(FILES ${HETERO_LIB_DIR}/libomptarget.so.19.1
              ${HETERO_LIB_DIR}/libHeteroCompilerPlugin.so
              ${HETERO_STARTUP_OBJECT}
        DESTINATION lib)
install(FILES ${HETERO_LIB_DIR}/libomptarget.so DESTINATION lib)
# StarPU's library under its soname (the build has it as a symlink chain).
install(FILES ${HETERO_STARPU_PREFIX}/lib/libstarpu-1.3.so.9.0.0
        DESTINATION lib RENAME libstarpu-1.3.so.9)
# The CUDA runtime StarPU's CUDA workers use, under its soname: the one
# library of the toolkit the pool needs (StarPU loads cuBLAS and cuSPARSE
# only if asked, which hetero never does), redistributable with the
# application (NVIDIA's CUDA EULA, Attachment A). A compute node then needs
# the NVIDIA driver for its GPUs, and no CUDA toolkit.
get_filename_component(HETERO_CUDART ${HETERO_CUDA_PATH}/lib64/libcudart.so
                       REALPATH)
get_filename_component(HETERO_CUDART_SONAME ${HETERO_CUDART} NAME)
string(REGEX REPLACE "^(libcudart\\.so\\.[0-9]+).*$" "\\1" HETERO_CUDART_SONAME
       "${HETERO_CUDART_SONAME}")
install(FILES ${HETERO_CUDART} DESTINATION lib RENAME ${HETERO_CUDART_SONAME})

configure_file(${CMAKE_SOURCE_DIR}/cmake/package/FixInstalledRpaths.cmake.in
               ${CMAKE_BINARY_DIR}/package/FixInstalledRpaths.cmake @ONLY)
install(SCRIPT ${CMAKE_BINARY_DIR}/package/FixInstalledRpaths.cmake)

configure_file(${CMAKE_SOURCE_DIR}/cmake/package/HeteroConfig.cmake.in
               ${CMAKE_BINARY_DIR}/package/HeteroConfig.cmake @ONLY)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/package/HeteroConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/HeteroConfig.cmake
              ${CMAKE_BINARY_DIR}/package/HeteroConfigVersion.cmake
              ${CMAKE_SOURCE_DIR}/cmake/package/HeteroToolchain.cmake
        DESTINATION lib/cmake/Hetero)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/docs/user-guide.md
        DESTINATION share/doc/hetero)
