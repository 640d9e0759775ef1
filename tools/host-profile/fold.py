#!/usr/bin/env python3
"""fold.py: `perf script -F comm,tid,time,ip,sym` output (with call chains)
on standard input, one line per sample on standard output:
'<tid> <time> frame;frame;...;leaf' (outermost frame first), for
host-profile.py. Python 3.11 standard library only."""
import sys


def fold(lines):
    """Yields the folded line of each sample in perf script's text."""
    head, frames = None, []
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            if head is not None:
                yield head + " " + ";".join(reversed(frames))
            head, frames = None, []
            continue
        if not line.startswith((" ", "\t")):
            if head is not None:
                yield head + " " + ";".join(reversed(frames))
            parts = line.split()
            tid = next((p for p in parts if p.isdigit()), "0")
            time = next((p.rstrip(":") for p in parts
                         if "." in p and p.rstrip(":").replace(".", "").isdigit()),
                        "0")
            head, frames = tid + " " + time, []
            continue
        sym = line.split(None, 1)
        sym = sym[1] if len(sym) > 1 else "?"
        sym = sym.rsplit(" (", 1)[0].split("+0x")[0]
        frames.append(sym.replace(" ", "_").replace(";", ","))
    if head is not None:
        yield head + " " + ";".join(reversed(frames))


if __name__ == "__main__":
    for folded in fold(sys.stdin):
        sys.stdout.write(folded + "\n")
