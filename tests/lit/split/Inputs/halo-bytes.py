#!/usr/bin/env python3
"""halo-bytes.py <stats-a> <stats-b> <sweeps-between> <halo-bytes-per-sweep>
   halo-bytes.py <stats-a> <stats-b> <sweeps-between> --at-most <bytes-per-sweep>
   halo-bytes.py <stats-a> <stats-b> <sweeps-between> --needed <ratio>

Reads the `hetero-stats total` lines of two runs of the same program that
differ only in the number of sweeps, and checks that the extra sweeps moved
at most 1.1x the exact halo between accelerators and nothing to or from the
host. With --needed, checks instead that the extra sweeps moved at most
<ratio> times what their chunks' reads needed from other members (the
kernels' bytes_needed, HETERO_STATS). Prints the measured numbers and
`halo: ok` or `halo: FAIL`."""
import re
import sys


def total(path):
    for line in open(path):
        if line.startswith("hetero-stats total"):
            return {k: int(v) for k, v in re.findall(r"bytes_(\w+)=(\d+)", line)}
    sys.exit("no hetero-stats total line in " + path)


def needed(path):
    return sum(int(v) for line in open(path) if line.startswith("hetero-stats kernel=")
               for v in re.findall(r" bytes_needed=(\d+)", line))


a, b = total(sys.argv[1]), total(sys.argv[2])
sweeps = int(sys.argv[3])
d = {k: b[k] - a[k] for k in a}
if sys.argv[4] == "--needed":
    need = needed(sys.argv[2]) - needed(sys.argv[1])
    ratio = float(sys.argv[5])
    print("extra sweeps moved d2d=%d; their reads needed %d; ratio %.3f"
          % (d["d2d"], need, d["d2d"] / need if need else float("inf")))
    ok = 0 < need and d["d2d"] <= ratio * need
    print("halo: " + ("ok" if ok else "FAIL"))
    sys.exit(0 if ok else 1)
if sys.argv[4] == "--at-most":
    # The bytes a sweep may move at most, between members and to or from
    # the host together (the CPU pool's part is host memory).
    bound = sweeps * int(sys.argv[5])
    moved = d["d2d"] + d["h2d"] + d["d2h"]
    print("extra sweeps moved d2d=%d h2d=%d d2h=%d; at most %d"
          % (d["d2d"], d["h2d"], d["d2h"], bound))
    print("halo: " + ("ok" if moved <= bound else "FAIL"))
    sys.exit(0 if moved <= bound else 1)
halo = int(sys.argv[4])
exact = sweeps * halo
print("extra sweeps moved d2d=%d h2d=%d d2h=%d; exact halo %d; ratio %.3f"
      % (d["d2d"], d["h2d"], d["d2h"], exact, d["d2d"] / exact))
ok = exact <= d["d2d"] <= 1.1 * exact and d["h2d"] == 0 and d["d2h"] == 0
print("halo: " + ("ok" if ok else "FAIL"))
sys.exit(0 if ok else 1)
