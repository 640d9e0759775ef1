#!/usr/bin/env python3
"""Benchmark harness: each example under the stock plugin and under hetero,
in the same invocation on the same machine, repeated; prints a table (median
rate, spread, ratio to stock, whether the answers agree), writes bench.csv
and, with --plot, bench.png (matplotlib, when installed).

  bench.py [--bin DIR] [--out DIR] [--reps N] [--cases jacobi,cg,...]
           [--configs stock,hetero,...] [--plot]

Configurations:
  stock        the stock plugin: LLVM's cuda plugin on a GPU machine, else
               the host plugin (device 0 of a hetero binary without
               LIBOMPTARGET_PLUGIN)
  hetero       hetero, default pool (every GPU and the CPU cores)
  hetero-gpus  hetero over the GPUs only (HETERO_MEMBERS)
  hetero-cpu   hetero, the CPU pool only
The rate is the example's own (stderr); the answer is its stdout line, which
must be the same under every configuration except for the fields named in
REDUCTION_FIELDS (results of floating-point reductions)."""
import argparse
import csv
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from same_answers import same  # noqa: E402

# name -> (arguments, rate regex on stderr, unit, higher is better)
CASES = {
    "jacobi": (["4096", "100"], r"([\d.]+) Mpoint-updates/s", "Mpoint/s", True),
    "himeno": (["M", "40"], r"([\d.]+) MFLOPS", "MFLOPS", True),
    "nbody": (["32768", "5"], r"([\d.]+) G interactions/s", "Ginter/s", True),
    "cg": (["1024", "100"], r"([\d.]+) ms per iteration", "ms/iter", False),
}
CPU_CASES = {
    "jacobi": ["1024", "50"],
    "himeno": ["S", "20"],
    "nbody": ["4096", "2"],
    "cg": ["256", "50"],
}
REDUCTION_FIELDS = {"gosa": 1e-6, "rnorm": 1e-6}


def gpu_count():
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return 0
    return sum(1 for line in out.splitlines() if line.startswith("GPU "))


def config_env(name, gpus):
    env = dict(os.environ)
    for var in ("LIBOMPTARGET_PLUGIN", "HETERO_MEMBERS", "HETERO_MEMBER"):
        env.pop(var, None)
    if name == "stock":
        if gpus:
            env["LIBOMPTARGET_PLUGIN"] = "cuda"
        return env
    env["LIBOMPTARGET_PLUGIN"] = "hetero"
    if name == "hetero-gpus":
        env["HETERO_MEMBERS"] = ",".join("cuda:%d" % g for g in range(gpus))
    elif name == "hetero-cpu":
        env["HETERO_MEMBERS"] = "cpu"
    elif name != "hetero":
        sys.exit("bench: unknown configuration " + name)
    return env


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default=None,
                   help="examples directory (default: build/examples/bin, "
                   "or the bundle's bin/)")
    p.add_argument("--out", default="bench-results")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--cases", default=",".join(CASES))
    p.add_argument("--configs", default=None)
    p.add_argument("--plot", action="store_true")
    a = p.parse_args()
    bin_dir = a.bin
    if not bin_dir:
        for cand in (os.path.join(here, "..", "bin"),
                     os.path.join(here, "..", "build", "examples", "bin")):
            if os.path.isdir(cand):
                bin_dir = cand
                break
    if not bin_dir:
        sys.exit("bench: no examples directory; pass --bin")
    gpus = gpu_count()
    configs = a.configs.split(",") if a.configs else (
        ["stock", "hetero", "hetero-gpus"] if gpus else ["stock", "hetero"])
    os.makedirs(a.out, exist_ok=True)
    print("bench: %d GPU(s); %d repetitions; examples from %s"
          % (gpus, a.reps, bin_dir))

    rows = []
    for case in a.cases.split(","):
        if case not in CASES:
            sys.exit("bench: unknown case " + case)
        args, rate_re, unit, higher = CASES[case]
        if not gpus:
            args = CPU_CASES[case]
        answers = {}
        for cfg in configs:
            env = config_env(cfg, gpus)
            rates = []
            for _ in range(a.reps):
                r = subprocess.run([os.path.join(bin_dir, case)] + args,
                                   env=env, capture_output=True, text=True)
                m = re.search(rate_re, r.stderr)
                if r.returncode != 0 or not m:
                    sys.stderr.write(r.stderr[-2000:])
                    sys.exit("bench: %s %s failed (status %d)"
                             % (case, cfg, r.returncode))
                rates.append(float(m.group(1)))
                answers.setdefault(cfg, r.stdout.strip())
            rows.append({"case": case, "args": " ".join(args), "config": cfg,
                         "unit": unit, "higher_is_better": higher,
                         "median": statistics.median(rates),
                         "min": min(rates), "max": max(rates),
                         "answer": answers[cfg]})
        for row in rows:
            if row["case"] == case:
                row["same_answer"] = same(answers[configs[0]], row["answer"],
                                          REDUCTION_FIELDS)
                stock = next(r for r in rows
                             if r["case"] == case and r["config"] == configs[0])
                speed = (row["median"] / stock["median"] if higher
                         else stock["median"] / row["median"])
                row["speedup_vs_" + configs[0]] = speed

    key = "speedup_vs_" + configs[0]
    head = "%-7s %-16s %-12s %12s %12s %12s %9s %7s" % (
        "case", "args", "config", "median", "min", "max", "vs " + configs[0],
        "answer")
    print(head)
    print("-" * len(head))
    for r in rows:
        print("%-7s %-16s %-12s %12.3f %12.3f %12.3f %8.3fx %7s  %s" % (
            r["case"], r["args"], r["config"], r["median"], r["min"],
            r["max"], r[key], "same" if r["same_answer"] else "DIFF",
            r["unit"]))
    with open(os.path.join(a.out, "bench.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print("bench: %s" % os.path.join(a.out, "bench.csv"))
    if a.plot:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("bench: matplotlib not installed; no plot")
        else:
            cases = list(dict.fromkeys(r["case"] for r in rows))
            width = 0.8 / len(configs)
            fig, ax = plt.subplots(figsize=(8, 4))
            for i, cfg in enumerate(configs):
                ys = [next(r[key] for r in rows
                           if r["case"] == c and r["config"] == cfg)
                      for c in cases]
                ax.bar([x + i * width for x in range(len(cases))], ys, width,
                       label=cfg)
            ax.set_xticks([x + width * (len(configs) - 1) / 2
                           for x in range(len(cases))])
            ax.set_xticklabels(cases)
            ax.set_ylabel("speed relative to " + configs[0])
            ax.axhline(1.0, color="black", linewidth=0.5)
            ax.legend()
            fig.tight_layout()
            fig.savefig(os.path.join(a.out, "bench.png"), dpi=100)
            print("bench: %s" % os.path.join(a.out, "bench.png"))
    return 0 if all(r["same_answer"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
