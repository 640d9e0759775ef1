#!/usr/bin/env python3
"""device-ptx.py OUT.s ARCH -- COMPILER ARGS...: the PTX that a normal
compile of ARGS (with its device runtime linked in, as a build links it)
hands to ptxas for ARCH. Runs the compile's host IR job and its NVPTX job
for ARCH as the driver plans them (-###), with the NVPTX job's output
redirected to OUT.s. (--offload-device-only -S would plan the device job
without the device runtime, so its kernels are not a build's.)"""
import os
import shlex
import subprocess
import sys

out, arch, sep = sys.argv[1], sys.argv[2], sys.argv[3]
assert sep == "--"
plan = subprocess.run(sys.argv[4:] + ["-###"], capture_output=True,
                      text=True)
jobs = [shlex.split(line) for line in plan.stderr.splitlines()
        if line.startswith(' "')]


def has(job, *pair):
    return any(job[i:i + 2] == list(pair) for i in range(len(job) - 1))


host = next((j for j in jobs if "-cc1" in j and "-emit-llvm-bc" in j
             and has(j, "-triple", "x86_64-pc-linux-gnu")), None)
device = next((j for j in jobs if "-cc1" in j
               and has(j, "-triple", "nvptx64-nvidia-cuda")
               and has(j, "-target-cpu", arch)), None)
if host is None or device is None:
    sys.exit("device-ptx.py: the compile plans no %s job for %s (see its "
             "-### output)" % ("host IR" if host is None else "NVPTX", arch))
device[device.index("-o") + 1] = out
temps = [host[host.index("-o") + 1]]
try:
    for job in (host, device):
        subprocess.run(job, check=True)
finally:
    for t in temps:
        if os.path.exists(t):
            os.remove(t)
