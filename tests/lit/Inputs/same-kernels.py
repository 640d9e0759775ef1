#!/usr/bin/env python3
"""same-kernels.py HETERO.s PLAIN.s: every kernel (.entry) of the plain
build's PTX must be in the hetero build's PTX, instruction for instruction.
Prints one line per kernel; exits 1 when one differs or is missing, or when
the plain build has none."""
import re
import sys


def kernels(path):
    text = open(path).read()
    return {m.group(1): m.group(0) for m in
            re.finditer(r"\.entry (\S+)\(.*?\n\}\n", text, re.S)}


hetero, plain = kernels(sys.argv[1]), kernels(sys.argv[2])
bad = not plain
for name, body in sorted(plain.items()):
    if name not in hetero:
        state, bad = "missing", True
    elif hetero[name] != body:
        state, bad = "differs", True
    else:
        state = "same"
    copy = "with" if name + "_hetero_windowed" in hetero else "without"
    print("%s: %s (%s a windowed copy)" % (name, state, copy))
sys.exit(1 if bad else 0)
