# StarPU 1.3.10 from Debian's source package, built with CUDA and hwloc.
# Debian's binary libstarpu-dev has no CUDA. See clang-patches/starpu/.
include(ExternalProject)
include(ProcessorCount)
ProcessorCount(HETERO_NPROC)
if(HETERO_NPROC EQUAL 0)
  set(HETERO_NPROC 2)
endif()

set(HETERO_STARPU_PREFIX ${HETERO_THIRD_PARTY}/starpu)
file(GLOB HETERO_STARPU_PATCHES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/clang-patches/starpu/*.patch)

ExternalProject_Add(starpu
  PREFIX ${CMAKE_BINARY_DIR}/_deps/starpu
  SOURCE_DIR ${CMAKE_BINARY_DIR}/_deps/starpu-src
  INSTALL_DIR ${HETERO_STARPU_PREFIX}
  DOWNLOAD_COMMAND ${CMAKE_SOURCE_DIR}/cmake/fetch-debian-source.sh starpu
                   ${HETERO_DOWNLOADS}/starpu
  UPDATE_COMMAND ""
  CONFIGURE_COMMAND <SOURCE_DIR>/configure --prefix=<INSTALL_DIR>
    # Defaults follow the build machine (2 cores) and would ignore the rest
    # of a 32-core GPU host.
    --enable-maxcpus=512 --enable-maxcudadev=16 --enable-maxnodes=32
    # Idle workers sleep instead of polling: a polling worker per GPU (and
    # per CPU member) would take cores from the CPU pool's OpenMP threads.
    # Chunks run synchronously (STARPU_CUDA_PIPELINE=0), which blocking
    # CUDA drivers require.
    --enable-blocking-drivers
    --with-cuda-dir=${HETERO_CUDA_PATH}
    --disable-opencl --disable-fortran --disable-build-examples
    --disable-build-tests --disable-build-doc --disable-mpi --disable-socl
    --disable-starpufft --disable-starpurm --disable-mlr --disable-glpk
    --disable-fxt --disable-openmp --disable-hdf5 --disable-leveldb
    --disable-opengl-render --disable-sc-hypervisor --without-mpicc
    # --as-needed: cuBLAS and cuSPARSE, loaded when used (0004), are not
    # needed: libstarpu needs the CUDA runtime alone of the toolkit.
    CC=gcc "LDFLAGS=-Wl,--as-needed -Wl,-rpath,${HETERO_CUDA_PATH}/lib64"
  BUILD_COMMAND make -j${HETERO_NPROC}
  INSTALL_COMMAND make install
  LOG_CONFIGURE ON LOG_BUILD ON LOG_INSTALL ON LOG_OUTPUT_ON_FAILURE ON)

# Unpack and patch after the download; re-run when a patch changes.
ExternalProject_Add_Step(starpu prepare
  COMMAND ${CMAKE_SOURCE_DIR}/cmake/extract-source.sh ${HETERO_DOWNLOADS}/starpu
          starpu <SOURCE_DIR> ${CMAKE_SOURCE_DIR}/clang-patches/starpu
  DEPENDEES download
  DEPENDERS configure
  DEPENDS ${HETERO_STARPU_PATCHES} ${CMAKE_SOURCE_DIR}/cmake/extract-source.sh)
