# lit suite of hetero: every case is compiled with build/bin/clang
# -fopenmp -fopenmp-targets=hetero, run under LIBOMPTARGET_PLUGIN=hetero and
# compared with the host-fallback run of the same binary
# (OMP_TARGET_OFFLOAD=DISABLED), then FileCheck'ed.
import os
import shutil
import subprocess

import lit.formats

config.name = "hetero"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".cpp"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)


for var in ["HOME", "PATH", "TMPDIR", "CUDA_VISIBLE_DEVICES", "HETERO_INFO",
            "STARPU_HOME", "LD_LIBRARY_PATH", "HETERO_LIT_PREBUILT",
            "HETERO_GPU_SPLIT"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

# One GPU architecture is enough for the tests and halves compile time; the
# GPU machine's own architecture is probed when it has one.
def gpu_archs():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return []
    try:
        out = subprocess.run([smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=60).stdout
    except Exception:
        return []
    return ["sm_" + line.strip().replace(".", "") for line in out.splitlines() if line.strip()]

archs = gpu_archs()
if archs:
    config.available_features.add("gpu")
    lit_config.note("GPU tests enabled: %s" % ", ".join(sorted(set(archs))))
else:
    lit_config.note("no GPU on this machine: tests marked REQUIRES: gpu are skipped")
# Every descriptor the compiler writes must read back through the runtime's
# parser as the same descriptor: here a failure is a compile error.
config.environment["HETERO_DESC_STRICT"] = "1"
# Measured shares of earlier runs would make a test's splits depend on what
# ran before it: none are kept (shares-persisted.c tests keeping them).
config.environment["HETERO_SHARES_FILE"] = "none"
# The tests check how kernels split, which measured shares would make depend
# on this machine's GPU/CPU speed ratio (a GPU ten times faster takes every
# iteration): shares are fixed unless a test asks for measured ones.
config.environment["HETERO_SHARES"] = "fixed"
config.environment["HETERO_OFFLOAD_ARCH"] = os.environ.get(
    "HETERO_OFFLOAD_ARCH", ",".join(sorted(set(archs))) or "sm_90")

clang = os.path.join(config.hetero_bin_dir, "clang")
clangxx = os.path.join(config.hetero_bin_dir, "clang++")
flags = "-O2 -fopenmp -fopenmp-targets=hetero"
# On a machine without a compiler (the GPU machines, from the bundle) the
# programs come prebuilt: HETERO_LIT_PREBUILT=<dir> (tools/prebuild-lit.py).
prebuilt = os.environ.get("HETERO_LIT_PREBUILT", "")
wrap = ""
if prebuilt:
    wrap = "%s %s " % (os.path.join(config.test_source_root, "Inputs", "prebuilt-clang.sh"), prebuilt)
    lit_config.note("programs are prebuilt, from %s" % prebuilt)
if not prebuilt:
    config.available_features.add("compiler")
config.substitutions.append(("%llvm-objdump", os.path.join(config.hetero_llvm_bin_dir, "llvm-objdump")))
config.substitutions.append(("%clangxx-hetero", "%s%s %s" % (wrap, clangxx, flags)))
config.substitutions.append(("%clang-hetero", "%s%s %s" % (wrap, clang, flags)))
config.substitutions.append(("%clang-driver", clang))
# The same source built by plain clang-19 for NVPTX (what bench.py's stock
# builds are): the reference for the kernels of a hetero build.
config.substitutions.append(("%clang-plain-nvptx", (
    "%s -O2 -fopenmp -fopenmp-targets=nvptx64-nvidia-cuda --cuda-path=%s "
    "--libomptarget-nvptx-bc-path=%s") % (
        os.path.join(config.hetero_llvm_bin_dir, "clang"),
        config.hetero_cuda_path,
        os.path.join(os.path.dirname(config.hetero_llvm_bin_dir), "lib"))))
# hetero's libomptarget, for programs built by plain clang-19 that run on it.
config.substitutions.append(("%hetero-lib", config.hetero_lib_dir))
config.substitutions.append(("%examples", os.path.join(config.hetero_source_dir, "examples")))
config.substitutions.append(
    ("%device-ptx", "python3 " + os.path.join(config.test_source_root, "Inputs", "device-ptx.py")))
config.substitutions.append(
    ("%same-kernels", "python3 " + os.path.join(config.test_source_root, "Inputs", "same-kernels.py")))
config.substitutions.append(("%run-hetero", "env LIBOMPTARGET_PLUGIN=hetero"))
# Upstream behaviour (no selection): with a hetero fat binary the x86_64
# image registers first, so device 0 is the host plugin.
config.substitutions.append(("%run-stock", "env -u LIBOMPTARGET_PLUGIN"))
# The stock cuda plugin alone: the GPU reference for hetero.
config.substitutions.append(("%run-cuda", "env LIBOMPTARGET_PLUGIN=cuda"))
config.substitutions.append(("%run-fallback", "env OMP_TARGET_OFFLOAD=DISABLED"))
config.substitutions.append(
    ("%compare-fallback", os.path.join(config.test_source_root, "Inputs", "compare-with-fallback.sh")))
config.substitutions.append(
    ("%same-answers", "python3 " + os.path.join(config.hetero_source_dir, "tools", "same_answers.py")))
config.substitutions.append(
    ("%desc-summary", os.path.join(config.test_source_root, "Inputs", "desc-summary.sh")))
# The suite also runs with each GPU split in parts (HETERO_GPU_SPLIT=k, the
# multi-GPU paths on one GPU): the first GPU member is then cuda:0.0. Tests
# name it %gpu0 on RUN lines and [[GPU0]] in FileCheck patterns.
gpu_split = os.environ.get("HETERO_GPU_SPLIT", "1")
gpu0 = "cuda:0.0" if gpu_split not in ("", "1") else "cuda:0"
if gpu0 != "cuda:0":
    lit_config.note("each GPU is %s members (HETERO_GPU_SPLIT)" % gpu_split)
config.substitutions.append(("%gpu0", gpu0))
config.substitutions.append(("%FileCheck", "%s -DGPU0=%s" % (
    os.path.join(config.hetero_llvm_bin_dir, "FileCheck"), gpu0)))
config.substitutions.append(("%not", os.path.join(config.hetero_llvm_bin_dir, "not")))
config.substitutions.append(("%hetero-info", os.path.join(config.hetero_bin_dir, "hetero-info")))
config.substitutions.append(
    ("%trace-plot", "python3 " + os.path.join(config.hetero_source_dir, "tools", "trace-plot.py")))
config.substitutions.append(
    ("%launch-costs", "python3 " + os.path.join(config.hetero_source_dir, "tools", "launch-costs.py")))
config.substitutions.append(
    ("%host-profile", "python3 " + os.path.join(config.hetero_source_dir, "tools", "host-profile", "host-profile.py")))
config.substitutions.append(
    ("%trace-check", "python3 " + os.path.join(config.test_source_root, "Inputs", "trace-check.py")))
