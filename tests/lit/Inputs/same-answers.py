#!/usr/bin/env python3
"""same-answers.py <file-a> <file-b> [field=rel-tolerance ...]

Compares two runs' outputs line by line: every `key=value` token must be
equal as text, except the fields named on the command line (results of
floating-point reductions, which a split combines in a different order),
which must agree within the given relative tolerance. Prints the compared
fields; exits non-zero on the first difference."""
import re
import sys

a_path, b_path = sys.argv[1:3]
tol = {}
for arg in sys.argv[3:]:
    key, rel = arg.split("=")
    tol[key] = float(rel)
a = open(a_path).read().splitlines()
b = open(b_path).read().splitlines()
if len(a) != len(b):
    sys.exit("same-answers: %d lines against %d" % (len(a), len(b)))
for la, lb in zip(a, b):
    ta = re.findall(r"(\w+)=(\S+)", la)
    tb = re.findall(r"(\w+)=(\S+)", lb)
    if [k for k, _ in ta] != [k for k, _ in tb]:
        sys.exit("same-answers: fields differ:\n  %s\n  %s" % (la, lb))
    for (k, va), (_, vb) in zip(ta, tb):
        if k in tol:
            x, y = float(va), float(vb)
            ok = abs(x - y) <= tol[k] * max(abs(x), abs(y))
        else:
            ok = va == vb
        print("%s: %s %s %s" % (k, va, "==" if ok else "!=", vb))
        if not ok:
            sys.exit("same-answers: %s differs" % k)
