#!/usr/bin/env python3
#===- tools/launch-costs.py - Where a launch's host time goes ------------===#
#
# On several GPUs an application with many short kernels (CloverLeaf,
# TeaLeaf) is bound by the host's time per launch, not by the GPUs: the
# question is which part of a launch costs what. hetero's HETERO_TRACE
# records each launch and its parts on the host's track (the shares, the
# plan's sections and prepare steps, orders between GPU queues, the chunks'
# starts or waits, settles), and on each member's track its chunks and the
# copies it issued. This script sums them over the steady state (by default
# the second half of the launches) and prints one table: per part, its
# total, count and average per occurrence and per launch; then the share of
# launches that ran ahead, what issuing N copies cost, and each member's
# track's busy time. Trace files are large and GPU machines have no
# browser; this needs nothing beyond the Python 3 standard library.
#
#===----------------------------------------------------------------------===#
"""Sum a hetero trace's host time per launch, by part.

usage: launch-costs.py TRACE.json [--from-launch N] [--csv OUT.csv]
       launch-costs.py --self-test

TRACE.json: the file HETERO_TRACE wrote (the JSON object form, or the bare
array form; a missing closing bracket is tolerated, as trace-plot.py does).
--from-launch N: start the window at the Nth launch (default: half of them).
Exit status: 0 on success, 2 for a usage error or an unreadable, empty or
malformed trace (one line on stderr), 1 when the self-test fails.
"""

import argparse
import collections
import csv
import json
import sys


def load(path):
    """The trace's complete events, and the names of its tracks by tid."""
    with open(path, encoding="utf-8") as f:
        text = f.read().strip()
    if not text:
        raise ValueError("empty trace")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = json.loads(text.rstrip(",") + "]")  # an unterminated array
    events = data["traceEvents"] if isinstance(data, dict) else data
    if not isinstance(events, list):
        raise ValueError("no trace events")
    names = {e.get("tid"): e.get("args", {}).get("name", "")
             for e in events if e.get("ph") == "M" and
             e.get("name") == "thread_name"}
    spans = [e for e in events if e.get("ph") == "X" and "dur" in e]
    return spans, names


def part(e):
    """The row a host event counts in: its category, and for plan spans
    and the like the first word of its name."""
    cat = e.get("cat", "")
    name = e.get("name", "")
    if cat == "plan":
        return "plan:" + name.split(" ")[0]
    if cat == "wait" and name.startswith("settle"):
        return "wait:settle"
    if cat == "wait" and " chunk" in name:
        return "wait:chunks"
    if cat == "wait":
        return "wait:copies"
    return cat


def summarize(spans, names, from_launch=None):
    host = [tid for tid, n in names.items() if n == "host"]
    host_tid = host[0] if host else 0
    launches = sorted((e for e in spans if e.get("cat") == "launch" and
                       e.get("tid") == host_tid), key=lambda e: e["ts"])
    if not launches:
        raise ValueError("no launches in the trace")
    first = len(launches) // 2 if from_launch is None else from_launch
    first = max(0, min(first, len(launches) - 1))
    t0 = launches[first]["ts"]
    t1 = max(e["ts"] + e["dur"] for e in launches[first:])
    n = len(launches) - first
    total = collections.Counter()
    count = collections.Counter()
    for e in spans:
        if e.get("tid") == host_tid and t0 <= e["ts"] < t1:
            p = part(e)
            total[p] += e["dur"]
            count[p] += 1
    issue = collections.defaultdict(list)
    busy = collections.Counter()
    for e in spans:
        if e.get("tid") == host_tid or not t0 <= e["ts"] < t1:
            continue
        name = e.get("name", "")
        if name.startswith("issue "):
            issue[int(name.split()[1])].append(e["dur"])
        elif e.get("cat") == "chunk":
            busy[names.get(e.get("tid"), str(e.get("tid")))] += e["dur"]
    return {"launches": n, "window_us": t1 - t0, "total": total,
            "count": count, "issue": issue, "busy": busy}


def report(s, out=sys.stdout):
    n = s["launches"]
    print("launch-costs: %d launches in %.1f ms: %.1f us a launch" %
          (n, s["window_us"] / 1e3, s["window_us"] / n), file=out)
    print("%-16s %12s %8s %10s %10s" %
          ("part", "total us", "count", "us each", "us/launch"), file=out)
    for p, t in sorted(s["total"].items(), key=lambda kv: -kv[1]):
        c = s["count"][p]
        print("%-16s %12.0f %8d %10.1f %10.1f" % (p, t, c, t / c, t / n),
              file=out)
    queued = s["count"].get("queue", 0)
    print("ran ahead: %d of %d launches" % (queued, n), file=out)
    for k in sorted(s["issue"]):
        v = sorted(s["issue"][k])
        print("issue %d copies: %d times, median %.1f us" %
              (k, len(v), v[len(v) // 2]), file=out)
    for member, t in sorted(s["busy"].items()):
        print("%s: chunk starts and waits %.0f us (%.1f us a launch)" %
              (member, t, t / n), file=out)


def write_csv(s, path):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["part", "total_us", "count", "per_launch_us"])
        for p, t in sorted(s["total"].items()):
            w.writerow([p, "%.1f" % t, s["count"][p],
                        "%.2f" % (t / s["launches"])])


def self_test():
    def x(name, cat, ts, dur, tid=0):
        return {"name": name, "cat": cat, "ph": "X", "ts": ts, "dur": dur,
                "pid": 1, "tid": tid}
    events = [{"name": "thread_name", "ph": "M", "pid": 1, "tid": 0,
               "args": {"name": "host"}},
              {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1,
               "args": {"name": "cuda:0"}}]
    for i in range(4):
        t = 100 * i
        events += [x("launch k", "launch", t, 80),
                   x("plan", "plan", t + 1, 30),
                   x("sections", "plan", t + 1, 10),
                   x("prepare", "plan", t + 12, 18),
                   x("queue 1 chunks", "queue", t + 40, 20),
                   x("k [0,8)", "chunk", t + 40, 20, tid=1),
                   x("issue 2 copies", "copy", t + 41, 12, tid=1)]
    s = summarize([e for e in events if e["ph"] == "X"],
                  {0: "host", 1: "cuda:0"})
    ok = (s["launches"] == 2 and s["count"]["plan:prepare"] == 2 and
          s["total"]["plan:sections"] == 20 and s["count"]["queue"] == 2 and
          s["issue"][2] == [12, 12] and s["busy"]["cuda:0"] == 40)
    print("launch-costs: self-test %s" % ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def main(argv):
    parser = argparse.ArgumentParser(
        description="Sum a hetero trace's host time per launch, by part.")
    parser.add_argument("trace", nargs="?", metavar="TRACE.json")
    parser.add_argument("--from-launch", type=int, metavar="N")
    parser.add_argument("--csv", metavar="OUT.csv")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    if not args.trace:
        parser.print_usage(sys.stderr)
        return 2
    try:
        spans, names = load(args.trace)
        s = summarize(spans, names, args.from_launch)
    except (OSError, ValueError, KeyError, TypeError) as err:
        print("launch-costs: %s: %s" % (args.trace, err), file=sys.stderr)
        return 2
    report(s)
    if args.csv:
        write_csv(s, args.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
