#!/usr/bin/env python3
"""same_answers.py <file-a> <file-b> [field=rel-tolerance ...]

Compares two runs' outputs line by line: every `key=value` token must be
equal as text, except the fields given tolerances (results of floating-point
reductions, which a split combines in a different order), which must agree
within that relative tolerance. As a program it prints the compared fields
and exits non-zero on the first difference; tools/bench.py imports it."""
import re
import sys


def differences(a_text, b_text, tolerances):
    """Yields (key, value-a, value-b, ok) for each field in turn, then stops;
    raises ValueError when the outputs do not have the same shape."""
    a, b = a_text.splitlines(), b_text.splitlines()
    if len(a) != len(b):
        raise ValueError("%d lines against %d" % (len(a), len(b)))
    for la, lb in zip(a, b):
        ta = re.findall(r"(\w+)=(\S+)", la)
        tb = re.findall(r"(\w+)=(\S+)", lb)
        if [k for k, _ in ta] != [k for k, _ in tb]:
            raise ValueError("fields differ:\n  %s\n  %s" % (la, lb))
        for (k, va), (_, vb) in zip(ta, tb):
            if k in tolerances:
                x, y = float(va), float(vb)
                ok = abs(x - y) <= tolerances[k] * max(abs(x), abs(y))
            else:
                ok = va == vb
            yield k, va, vb, ok


def same(a_text, b_text, tolerances):
    try:
        return all(ok for *_, ok in differences(a_text, b_text, tolerances))
    except ValueError:
        return False


def main():
    a_path, b_path = sys.argv[1:3]
    tolerances = {}
    for arg in sys.argv[3:]:
        key, rel = arg.split("=")
        tolerances[key] = float(rel)
    try:
        for k, va, vb, ok in differences(open(a_path).read(),
                                         open(b_path).read(), tolerances):
            print("%s: %s %s %s" % (k, va, "==" if ok else "!=", vb))
            if not ok:
                sys.exit("same-answers: %s differs" % k)
    except ValueError as e:
        sys.exit("same-answers: %s" % e)


if __name__ == "__main__":
    main()
