#!/usr/bin/env python3
"""Checks a HETERO_TRACE file against the run's HETERO_STATS lines.

trace-check.py TRACE.json STATS.txt

The trace must be valid Chrome trace JSON with named lanes; per kernel, the
chunk events' iterations per member must be the statistics' (members=
<name>:<iterations>:...), and the copy events' bytes per direction the
statistics' totals (hetero-stats total bytes_h2d= bytes_d2d= bytes_d2h=).
Prints what it compared; exit 1 on the first difference.
"""
import collections
import json
import re
import sys


def fail(msg):
    print("trace-check: FAIL: " + msg)
    sys.exit(1)


def main():
    trace = json.load(open(sys.argv[1]))
    stats = open(sys.argv[2]).read()
    events = trace["traceEvents"]
    lanes = {e["tid"]: e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    if trace.get("otherData", {}).get("dropped_events", 0):
        fail("events were dropped")
    iters = collections.Counter()  # (kernel, member) -> iterations
    copies = collections.Counter()
    cats = collections.Counter()
    for e in events:
        if e.get("ph") != "X":
            continue
        cats[e["cat"]] += 1
        if e["dur"] < 0 or e["ts"] < 0:
            fail("negative time in %r" % e)
        if e["tid"] not in lanes:
            fail("event on an unnamed lane: %r" % e)
        if e["cat"] == "chunk" and "iterations" in e["args"]:
            iters[(e["args"]["kernel"], lanes[e["tid"]])] += e["args"]["iterations"]
        if e["cat"] == "copy":
            copies[e["name"][:3]] += e["args"]["bytes"]
    for kernel, members in re.findall(r"hetero-stats kernel=(\S+) .*?split=yes .*?members=(\S+)", stats):
        for m in members.split(","):
            # <member>:<iterations>:<busy>; cuda:<n>[.<p>] and sim:<n>
            # have a colon of their own.
            parts = m.split(":")
            if parts[0] in ("cuda", "sim"):
                name, n = parts[0] + ":" + parts[1], int(parts[2])
            else:
                name, n = parts[0], int(parts[1])
            if iters[(kernel, name)] != n:
                fail("%s on %s: trace %d iterations, statistics %d"
                     % (kernel, name, iters[(kernel, name)], n))
            print("trace-check: %s %s %d iterations" % (kernel, name, n))
    total = re.search(r"hetero-stats total bytes_h2d=(\d+) bytes_d2d=(\d+) bytes_d2h=(\d+)", stats)
    if not total:
        fail("no hetero-stats total line")
    for d, v in zip(("h2d", "d2d", "d2h"), map(int, total.groups())):
        if copies[d] != v:
            fail("%s: trace %d bytes, statistics %d" % (d, copies[d], v))
        print("trace-check: %s %d bytes" % (d, v))
    for c in ("chunk", "copy", "wait", "launch"):
        if not cats[c]:
            fail("no %s event" % c)
    print("trace-check: lanes " + ", ".join(sorted(lanes.values())))


if __name__ == "__main__":
    main()
