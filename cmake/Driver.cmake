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
# Linked into every hetero program: stops one that loaded another
# libomptarget under LIBOMPTARGET_PLUGIN=hetero (hetero-startup.c).
set(HETERO_STARTUP_OBJECT ${HETERO_LIB_DIR}/hetero-startup.o)
add_custom_command(OUTPUT ${HETERO_STARTUP_OBJECT}
  COMMAND ${HETERO_clang-19_EXE} -O2 -fPIC -Wall -Wextra -Werror
          -I${CMAKE_SOURCE_DIR}/runtime/include -c
          ${CMAKE_SOURCE_DIR}/clang-patches/driver/hetero-startup.c
          -o ${HETERO_STARTUP_OBJECT}
  DEPENDS ${CMAKE_SOURCE_DIR}/clang-patches/driver/hetero-startup.c
          ${CMAKE_SOURCE_DIR}/runtime/include/hetero/SettingNames.def
  COMMENT "Building hetero-startup.o")
add_custom_target(hetero_startup ALL DEPENDS ${HETERO_STARTUP_OBJECT})
set(HETERO_CLANG ${HETERO_BIN_DIR}/clang)
set(HETERO_CLANGXX ${HETERO_BIN_DIR}/clang++)


# hetero-info (tools/hetero-info): the pool report, from hetero's
# libomptarget, found through the same rpaths as a hetero-built program.
add_executable(hetero-info ${CMAKE_SOURCE_DIR}/tools/hetero-info/hetero-info.c)
add_dependencies(hetero-info offload)
target_compile_options(hetero-info PRIVATE -Wall -Wextra -Werror)
target_link_options(hetero-info PRIVATE -L${HETERO_LIB_DIR})
target_link_libraries(hetero-info PRIVATE omptarget)
set_target_properties(hetero-info PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${HETERO_BIN_DIR}
  BUILD_WITH_INSTALL_RPATH ON
  INSTALL_RPATH "$ORIGIN/../lib;${HETERO_LIB_DIR};${HETERO_LLVM_PREFIX}/lib")
