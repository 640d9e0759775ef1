# Clear messages for what the machine must provide (tools/install-deps.sh
# installs all of it on Debian 12).
foreach(tool clang-19 clang++-19 FileCheck)
  find_program(HETERO_${tool}_EXE ${tool} HINTS ${HETERO_LLVM_PREFIX}/bin)
  if(NOT HETERO_${tool}_EXE)
    message(FATAL_ERROR "hetero: '${tool}' not found under ${HETERO_LLVM_PREFIX}/bin; "
                        "run tools/install-deps.sh (clang-19, llvm-19-tools)")
  endif()
endforeach()
if(NOT EXISTS ${HETERO_LLVM_PREFIX}/lib/cmake/llvm/LLVMConfig.cmake)
  message(FATAL_ERROR "hetero: llvm-19-dev is missing (no LLVMConfig.cmake under "
                      "${HETERO_LLVM_PREFIX}); run tools/install-deps.sh")
endif()
if(NOT EXISTS ${HETERO_CUDA_PATH}/bin/nvcc)
  message(FATAL_ERROR "hetero: no CUDA toolkit at ${HETERO_CUDA_PATH} "
                      "(set -DHETERO_CUDA_PATH=...)")
endif()
find_program(HETERO_PYTHON_EXE python3 REQUIRED)
