#!/usr/bin/env python3
"""same-kernels.py HETERO.s PLAIN.s: every kernel (.entry) of the plain
build's PTX must be in the hetero build's PTX, instruction for instruction,
and its windowed copy, if it has one, must keep the kernel's launch bounds
(.maxntid and the like). The plain build's module-scope variables must come
in the same order in the hetero build's (their order is the kernels' shared
memory layout). Prints one line per kernel and one for the variables; exits
1 when something differs or is missing, or when the plain build has no
kernel."""
import re
import sys


def kernels(text):
    return {m.group(1): m.group(0) for m in
            re.finditer(r"\.entry (\S+)\(.*?\n\}\n", text, re.S)}


def bounds(body):
    head = body[:body.index("{")]
    return re.findall(r"^\.(?:maxntid|reqntid|minnctapersm|maxnreg)\b.*?(?=\s*//|$)",
                      head, re.M)


def variables(text):
    return [m.group(0) for m in re.finditer(
        r"^(?:\.(?:visible|weak|extern) )?\.(?:global|shared|const)\b.*?"
        r"(\S+?)(?:\[\d*\])?(?: =.*)?;$", text, re.M)]


def name(line):
    return re.search(r"(\S+?)(?:\[\d*\])?(?: =.*)?;$", line).group(1)


htext, ptext = open(sys.argv[1]).read(), open(sys.argv[2]).read()
hetero, plain = kernels(htext), kernels(ptext)
bad = not plain
for kernel, body in sorted(plain.items()):
    copy = hetero.get(kernel + "_hetero_windowed")
    if kernel not in hetero:
        state, bad = "missing", True
    elif hetero[kernel] != body:
        state, bad = "differs", True
    elif copy is not None and bounds(copy) != bounds(body):
        state, bad = "same, but its copy lost its launch bounds", True
    else:
        state = "same"
    print("%s: %s (%s a windowed copy)" %
          (kernel, state, "with" if copy is not None else "without"))
pvars = variables(ptext)
known = {name(v) for v in pvars}
hvars = [v for v in variables(htext) if name(v) in known]
if hvars == pvars:
    print("module-scope variables: same, in the same order")
else:
    print("module-scope variables: differ or are in another order")
    bad = True
sys.exit(1 if bad else 0)
