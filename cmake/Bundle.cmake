# `cmake --build build --target bundle`: everything the GPU machines need,
# packed into .bundle/hetero-bundle.tar.xz (see tools/make-bundle.sh).
set(HETERO_BUNDLE_ARCH sm_90 CACHE STRING "GPU architecture of the bundle's prebuilt tests")
add_custom_target(bundle
  COMMAND ${CMAKE_SOURCE_DIR}/tools/make-bundle.sh ${CMAKE_BINARY_DIR}
          ${CMAKE_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/.bundle ${HETERO_BUNDLE_ARCH}
  DEPENDS examples offload hetero-info
  USES_TERMINAL)

# LLVM's own offload test suite, stock host plugin vs hetero, side by side
# (slow: not part of the default test command).
add_custom_target(upstream-offload-tests
  COMMAND ${CMAKE_SOURCE_DIR}/tools/upstream-offload-suite.sh ${CMAKE_BINARY_DIR} -j${HETERO_NPROC}
  DEPENDS offload
  USES_TERMINAL)
