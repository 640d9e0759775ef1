# build/bin/clang and build/bin/clang++: the entry points a user puts first on
# PATH. See clang-patches/driver/hetero-clang.in.
# The section analysis / loop window plugin the entry points load.
add_subdirectory(${CMAKE_SOURCE_DIR}/clang-patches/analysis
                 ${CMAKE_BINARY_DIR}/clang-patches/analysis)
set(HETERO_COMPILER_PLUGIN ${HETERO_LIB_DIR}/libHeteroCompilerPlugin.so)

string(REPLACE ";" "," HETERO_GPU_ARCHS_COMMA "${HETERO_GPU_ARCHS}")
foreach(pair "clang;clang-19" "clang++;clang++")
  list(GET pair 0 HETERO_DRIVER_NAME)
  list(GET pair 1 HETERO_CLANG_TOOL)
  configure_file(${CMAKE_SOURCE_DIR}/clang-patches/driver/hetero-clang.in
                 ${HETERO_BIN_DIR}/${HETERO_DRIVER_NAME} @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
                                  GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()
set(HETERO_CLANG ${HETERO_BIN_DIR}/clang)
set(HETERO_CLANGXX ${HETERO_BIN_DIR}/clang++)

