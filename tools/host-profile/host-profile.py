#!/usr/bin/env python3
"""host-profile.py -- where a thread's host time goes, from profile.sh.

    host-profile.py FOLDED.xz [--tid TID] [--root SYMBOL] [--top N]
    host-profile.py FOLDED.xz --callers SYMBOL [--tid TID]
    host-profile.py --self-test

FOLDED is profile.sh's TAG.folded.xz (or a plain folded file). Without
--tid, the thread whose stacks start in main() most often. With
--root (default hetero::Engine::launch: one launch), the samples whose
stack holds it, and for each frame below it the share of them it is in
(inclusive) and the share it is the leaf of (self). --callers: the four
frames above SYMBOL, by count. Exit status 0; 2 on a usage error or an
unreadable file; 1 when the self-test fails. Python 3.11 standard library.
"""
import argparse
import collections
import lzma
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fold  # noqa: E402


def samples(path):
    """(tid, [frames outermost first]) of each sample."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        for line in f:
            parts = line.rstrip("\n").split(" ", 2)
            if len(parts) == 3:
                yield parts[0], parts[2].split(";")


def main_tid(path):
    """The thread whose stacks start in main() most often."""
    starts = collections.Counter(t for t, f in samples(path)
                                 if "main" in f or "__libc_start_main" in f)
    return starts.most_common(1)[0][0] if starts else None


def breakdown(rows, root, top):
    """(samples under root, [(share, frame)] inclusive, [(share, frame)] self)."""
    inclusive, leaf, n = collections.Counter(), collections.Counter(), 0
    for frames in rows:
        at = [i for i, f in enumerate(frames) if root in f]
        if not at:
            continue
        below = frames[at[-1] + 1:]
        n += 1
        for f in set(below):
            inclusive[f] += 1
        leaf[below[-1] if below else frames[at[-1]]] += 1
    share = lambda c: [(v / n, k) for k, v in c.most_common(top)] if n else []
    return n, share(inclusive), share(leaf)


def callers(rows, symbol, depth=4):
    out = collections.Counter()
    for frames in rows:
        at = [i for i, f in enumerate(frames) if symbol in f]
        if at:
            out[" <- ".join(reversed(frames[max(0, at[0] - depth):at[0]]))] += 1
    return out


def self_test():
    text = (
        "prog  10 1.000001: \n"
        "\tffff leaf_a\n\tffff hetero::Engine::launch\n\tffff main\n\n"
        "prog  10 1.000002: \n"
        "\tffff leaf_b (/lib/x.so)\n\tffff mid+0x10\n"
        "\tffff hetero::Engine::launch\n\tffff main\n\n"
        "prog  10 1.000003: \n\tffff other\n\tffff main\n\n"
        "prog  11 1.000004: \n\tffff helper_loop\n")
    folded = list(fold.fold(text.splitlines(True)))
    rows = [line.split(" ", 2)[2].split(";") for line in folded
            if line.startswith("10 ")]
    n, inc, own = breakdown(rows, "hetero::Engine::launch", 10)
    ok = (len(folded) == 4 and folded[1] ==
          "10 1.000002 main;hetero::Engine::launch;mid;leaf_b" and n == 2 and
          dict((k, v) for v, k in inc) == {"leaf_a": 0.5, "leaf_b": 0.5,
                                           "mid": 0.5} and
          dict((k, v) for v, k in own) == {"leaf_a": 0.5, "leaf_b": 0.5} and
          callers(rows, "leaf_b") ==
          collections.Counter({"mid <- hetero::Engine::launch <- main": 1}))
    print("host-profile: self-test %s" % ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folded", nargs="?")
    ap.add_argument("--tid")
    ap.add_argument("--root", default="hetero::Engine::launch")
    ap.add_argument("--callers")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.folded:
        ap.print_usage(sys.stderr)
        return 2
    try:
        tid = a.tid or main_tid(a.folded)
        rows = [f for t, f in samples(a.folded) if t == tid]
    except (OSError, EOFError, lzma.LZMAError) as e:
        print("host-profile: %s: %s" % (a.folded, e), file=sys.stderr)
        return 2
    if a.callers:
        c = callers(rows, a.callers)
        print("host-profile: %d samples of thread %s hold %s" %
              (sum(c.values()), tid, a.callers))
        for k, v in c.most_common(a.top):
            print("%6d  %s" % (v, k))
        return 0
    n, inc, own = breakdown(rows, a.root, a.top)
    print("host-profile: thread %s, %d samples, %d under %s" %
          (tid, len(rows), n, a.root))
    print("inclusive:")
    for s, k in inc:
        print("  %5.1f%%  %s" % (100 * s, k[:140]))
    print("self:")
    for s, k in own:
        print("  %5.1f%%  %s" % (100 * s, k[:140]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
