#!/usr/bin/env python3
"""Compiles the lit suite's programs ahead of time for a machine without a
compiler (the GPU machines): runs every RUN-line command that starts with
%clang-hetero / %clangxx-hetero, with %s and %t substituted the way lit does,
and stores each output under <out-dir>/<basename of the -o file>. The lit
suite replays them there with HETERO_LIT_PREBUILT=replay:<dir>.

usage: prebuild-lit.py <tests/lit dir> <build/bin dir> <out-dir> [arch]
"""
import os
import re
import shlex
import subprocess
import sys

src_root, bin_dir, out_dir = sys.argv[1:4]
arch = sys.argv[4] if len(sys.argv) > 4 else "sm_90"
os.makedirs(out_dir, exist_ok=True)
flags = "-O2 -fopenmp -fopenmp-targets=hetero"
subs = {"%clangxx-hetero": os.path.join(bin_dir, "clang++") + " " + flags,
        "%clang-hetero": os.path.join(bin_dir, "clang") + " " + flags}
env = dict(os.environ, HETERO_OFFLOAD_ARCH=arch)
failed = 0
count = 0
for dirpath, _, files in os.walk(src_root):
    if "Inputs" in dirpath.split(os.sep):
        continue
    for name in sorted(files):
        if not name.endswith((".c", ".cpp")):
            continue
        path = os.path.join(dirpath, name)
        # Tests of the compiler itself are unsupported where there is none.
        if re.search(r"REQUIRES:.*\bcompiler\b", open(path, encoding="utf-8").read()):
            continue
        rel = os.path.relpath(path, src_root)
        tmp = os.path.join(out_dir, "Output", rel + ".tmp")
        os.makedirs(os.path.dirname(tmp), exist_ok=True)
        for line in open(path, encoding="utf-8"):
            m = re.search(r"RUN:\s*(%clang(xx)?-hetero\b.*)$", line)
            if not m:
                continue
            cmd = m.group(1)
            for k, v in subs.items():
                cmd = cmd.replace(k, v)
            cmd = (cmd.replace("%s", path).replace("%S", os.path.dirname(path))
                   .replace("%t", tmp))
            args = shlex.split(cmd)
            out = args[args.index("-o") + 1]
            count += 1
            r = subprocess.run(cmd, shell=True, env=env)
            if r.returncode != 0:
                print("prebuild-lit: failed: " + cmd, file=sys.stderr)
                failed += 1
                continue
            os.replace(out, os.path.join(out_dir, os.path.basename(out)))
print("prebuild-lit: %d programs, %d failed" % (count, failed))
sys.exit(1 if failed else 0)
