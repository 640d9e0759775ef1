#!/usr/bin/env python3
"""Benchmark harness: each example under what the user would otherwise run
and under hetero, in the same invocation on the same machine, repeated. For
every run it records the example's own timed region (its rate on stderr), the
whole process's wall time and its peak RSS; prints a table of medians and
ratios to the baseline, checks the answers agree, writes bench.csv and, with
--plot, bench.svg (bar_plot.py); with --trace, one HETERO_TRACE
timeline per case and hetero configuration (trace-plot.py draws it); with
--kernels, each kernel's time on the GPU under stock and under hetero on one
GPU, from Nsight Compute (bench_kernels.py: kernels.csv).

  bench.py [--bin DIR] [--plain-bin DIR] [--out DIR] [--reps N]
           [--cases jacobi,cg,...] [--configs stock,hetero,...] [--plot]
           [--trace] [--kernels]

Configurations:
  stock        the baseline: the example built by plain clang-19 (nvptx64 and
               x86_64 images, examples/bin-plain) under LLVM's stock plugin:
               cuda on a GPU machine, host without a GPU
  stock-instr  the hetero-built example (loop windows, descriptors) under the
               same stock plugin: what the instrumentation costs
  hetero       hetero, default pool (every GPU and the CPU cores)
  hetero-gpus  hetero over the GPUs only (HETERO_MEMBERS)
  hetero-gpus<n>  hetero over the first n GPUs only (speed-up against the
               GPU count: with two or more such configurations, --plot also
               draws scaling.svg)
  hetero-cpu   hetero, the CPU pool only
  <hetero config>-split<k>  the same with each GPU presented as k members
               (HETERO_GPU_SPLIT=k; hetero-gpus-split2 lists cuda:<n>.<p>)
The answer is the example's stdout line, which must be the same under every
configuration except for the fields named in REDUCTION_FIELDS (results of
floating-point reductions). Ratios are "speed relative to stock": above 1 is
faster (timed, wall) or, for RSS, more memory. The checks after the table are
issue 11's targets; they are printed, and only a wrong answer fails the run."""
import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bar_plot  # noqa: E402
import bench_kernels  # noqa: E402
from same_answers import same  # noqa: E402

# name -> (program, GPU arguments, CPU arguments, rate regex on stderr, unit,
#          higher is better)
CASES = {
    "jacobi": ("jacobi", ["4096", "100"], ["1024", "50"],
               r"([\d.]+) Mpoint-updates/s", "Mpoint/s", True),
    "jacobi-16k": ("jacobi", ["16384", "100", "collapse"],
                   ["2048", "20", "collapse"],
                   r"([\d.]+) Mpoint-updates/s", "Mpoint/s", True),
    "jacobi-rows": ("jacobi", ["8192", "50", "rows"], ["2048", "20", "rows"],
                    r"([\d.]+) Mpoint-updates/s", "Mpoint/s", True),
    "himeno": ("himeno", ["L", "40"], ["S", "20"], r"([\d.]+) MFLOPS",
               "MFLOPS", True),
    "nbody": ("nbody", ["262144", "3"], ["4096", "2"],
              r"([\d.]+) G interactions/s", "Ginter/s", True),
    "cg": ("cg", ["1024", "100"], ["256", "50"], r"([\d.]+) ms per iteration",
           "ms/iter", False),
    "stream": ("stream", ["134217728", "20"], ["8388608", "10"],
               r"([\d.]+) GB/s", "GB/s", True),
    "launch": ("launch", ["plain", "5000"], ["plain", "2000"],
               r"([\d.]+) us per launch", "us/launch", False),
    "launch-red": ("launch", ["reduction", "5000"], ["reduction", "2000"],
                   r"([\d.]+) us per launch", "us/launch", False),
    # The multi-GPU sizes (issue 15); not in the default list.
    "nbody-512k": ("nbody", ["524288", "3"], ["8192", "2"],
                   r"([\d.]+) G interactions/s", "Ginter/s", True),
    "stream-2e28": ("stream", ["268435456", "20"], ["16777216", "10"],
                    r"([\d.]+) GB/s", "GB/s", True),
    # 16.7M rows, 84M nonzeros: past NPB-CG class C (150k rows, ~37M
    # nonzeros); the 1M-row "cg" is latency-bound on one GPU already.
    "cg-4k": ("cg", ["4096", "100"], ["512", "50"],
              r"([\d.]+) ms per iteration", "ms/iter", False),
    # Two lines of 24 GB (issue 39): more than a part of a split GPU holds,
    # or, at 2 x 56 GB, more than one GPU. Not in the default list.
    "stencil1d-24g": ("stencil1d", ["3000000000", "20"], ["16777216", "20"],
                      r"([\d.]+) Mpoint-updates/s", "Mpoint/s", True),
    "stencil1d-56g": ("stencil1d", ["7000000000", "20"], ["16777216", "20"],
                      r"([\d.]+) Mpoint-updates/s", "Mpoint/s", True),
}
DEFAULT_CASES = ["jacobi", "jacobi-16k", "jacobi-rows", "himeno", "nbody",
                 "cg", "stream", "launch", "launch-red"]
# Issue 15's targets: timed speed against stock on one GPU, per GPU count.
SCALING_TARGETS = {
    "jacobi-16k": {2: 1.9, 4: 3.7, 8: 7.0},
    "himeno": {2: 1.85, 4: 3.7, 8: 7.0},
    "nbody-512k": {2: 1.95, 4: 3.9, 8: 7.6},
    "stream-2e28": {2: 1.9, 4: 3.7, 8: 7.0},
    "cg": {2: 1.6, 4: 3.2, 8: 5.5},
    "cg-4k": {2: 1.6, 4: 3.2, 8: 5.5},
}
REDUCTION_FIELDS = {"gosa": 1e-6, "rnorm": 1e-6, "dot": 1e-9}
BASELINE = "stock"


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
    if name in ("stock", "stock-instr"):
        env["LIBOMPTARGET_PLUGIN"] = "cuda" if gpus else "host"
        return env
    env["LIBOMPTARGET_PLUGIN"] = "hetero"
    env.pop("HETERO_GPU_SPLIT", None)
    m = re.fullmatch(r"(.*)-split([1-8])", name)
    parts = int(m.group(2)) if m else 1
    if m:
        name = m.group(1)
        env["HETERO_GPU_SPLIT"] = str(parts)
    used = gpus_used(name, gpus)
    if used is not None:
        if used > gpus:
            sys.exit("bench: %s needs %d GPUs; this machine has %d"
                     % (name, used, gpus))
        env["HETERO_MEMBERS"] = ",".join(
            "cuda:%d" % g if parts == 1 else "cuda:%d.%d" % (g, p)
            for g in range(used) for p in range(parts))
    elif name == "hetero-cpu":
        env["HETERO_MEMBERS"] = "cpu"
    elif name != "hetero":
        sys.exit("bench: unknown configuration " + name)
    return env


def run_once(argv, env):
    """Runs one process; returns (status, stdout, stderr, wall s, peak RSS
    in MiB). The RSS is the kernel's high-water mark for the child alone."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (proc.returncode, out.read().decode(errors="replace"),
                err.read().decode(errors="replace"), wall,
                usage.ru_maxrss / 1024.0)


def measure_one(case, cfg, argv, env, rate_re, into):
    st, out, err, wall, peak = run_once(argv, env)
    m = re.search(rate_re, err)
    if st != 0 or not m:
        sys.stderr.write(err[-2000:])
        sys.exit("bench: %s %s failed (status %d): %s"
                 % (case, cfg, st, " ".join(argv)))
    into["rates"].append(float(m.group(1)))
    into["walls"].append(wall)
    into["rss"].append(peak)
    into.setdefault("answer", out.strip())


def ratio(x, base, higher_is_better):
    if x <= 0 or base <= 0:
        return float("nan")
    return x / base if higher_is_better else base / x


def gpus_used(config, gpus):
    """How many GPUs a GPUs-only configuration runs on, else None."""
    m = re.fullmatch(r"hetero-gpus([1-9][0-9]*)?(-split[1-8])?", config)
    if not m:
        return None
    return int(m.group(1)) if m.group(1) else gpus


def checks(rows, gpus):
    """Issue 11's targets, one line each: PASS or FAIL with the worst case."""
    by = {(r["case"], r["config"]): r for r in rows}
    cases = list(dict.fromkeys(r["case"] for r in rows))
    lines = []

    def check(what, cfgs, ok, show):
        bad = [(c, cfg) for c in cases for cfg in cfgs
               if (c, cfg) in by and not ok(by[(c, cfg)])]
        seen = [(c, cfg) for c in cases for cfg in cfgs if (c, cfg) in by]
        if not seen:
            return
        lines.append("%s %s%s" % ("PASS" if not bad else "FAIL", what,
                                  "" if not bad else ": " + ", ".join(
                                      "%s/%s %s" % (c, cfg, show(by[(c, cfg)]))
                                      for c, cfg in bad)))

    hetero = ["hetero", "hetero-gpus"] if gpus else ["hetero"]
    check("timed region >= 0.98x stock", hetero,
          lambda r: r["timed_vs_stock"] >= 0.98,
          lambda r: "%.3fx" % r["timed_vs_stock"])
    check("process wall >= 0.98x stock", hetero,
          lambda r: r["wall_vs_stock"] >= 0.98,
          lambda r: "%.3fx" % r["wall_vs_stock"])
    check("peak RSS <= max(1.05x, +100 MiB) of stock", hetero,
          lambda r: r["rss_mib"] <= max(1.05 * r["stock_rss_mib"],
                                        r["stock_rss_mib"] + 100),
          lambda r: "%.0f/%.0f MiB" % (r["rss_mib"], r["stock_rss_mib"]))
    check("instrumented build under stock within 0.5%", ["stock-instr"],
          lambda r: r["timed_vs_stock"] >= 0.995,
          lambda r: "%.3fx" % r["timed_vs_stock"])
    if gpus and ("himeno", "hetero") in by:
        r = by[("himeno", "hetero")]
        lines.append("%s himeno with the default pool >= 1.15x stock (%.3fx)"
                     % ("PASS" if r["timed_vs_stock"] >= 1.15 else "FAIL",
                        r["timed_vs_stock"]))
    for r in rows:
        used = gpus_used(r["config"], gpus)
        target = SCALING_TARGETS.get(r["case"], {}).get(used)
        if target:
            lines.append("%s %s on %d GPUs >= %.2fx stock on one (%s %.3fx)"
                         % ("PASS" if r["timed_vs_stock"] >= target else
                            "FAIL", r["case"], used, target, r["config"],
                            r["timed_vs_stock"]))
    if gpus > 1:
        # Speeds against stock share one baseline, so their ratio is the
        # default pool's speed against all the GPUs alone.
        alone = {r["case"]: r for r in rows
                 if gpus_used(r["config"], gpus) == gpus and
                 "-split" not in r["config"]}
        check("default pool >= 0.98x the GPUs alone",
              ["hetero"] if alone else [],
              lambda r: r["case"] not in alone or
              r["timed_vs_stock"] >= 0.98 * alone[r["case"]]["timed_vs_stock"],
              lambda r: "%.3fx against %.3fx" % (
                  r["timed_vs_stock"], alone[r["case"]]["timed_vs_stock"]))
    check("answers agree", list(dict.fromkeys(r["config"] for r in rows)),
          lambda r: r["same_answer"], lambda r: "DIFF")
    return lines


def wall_noise(rows):
    """What the process-wall ratios can tell apart: the spread of
    stock-instr's paired ratios (the same stock plugin, plain clang's
    kernels), and each configuration's median paired ratio."""
    lines = []
    instr = [r for r in rows if r["config"] == "stock-instr"]
    if instr:
        lines.append("noise: stock-instr's process wall, paired with stock "
                     "per repetition, spans %.3fx-%.3fx (same plugin, same "
                     "kernels)" % (min(r["wall_paired_min"] for r in instr),
                                   max(r["wall_paired_max"] for r in instr)))
    for r in rows:
        if r["config"] != BASELINE:
            lines.append("  %-11s %-13s wall paired %.3fx (%.3fx-%.3fx)"
                         % (r["case"], r["config"], r["wall_paired"],
                            r["wall_paired_min"], r["wall_paired_max"]))
    return lines


def plot(rows, configs, path):
    """Speed (timed, wall) and peak RSS against stock, per case and
    configuration (bar_plot.py: the standard library alone)."""
    cases = list(dict.fromkeys(r["case"] for r in rows))
    shown = [c for c in configs if c != BASELINE]
    panel_rows = []
    for key, label in (("timed_vs_stock", "timed region, speed vs stock"),
                       ("wall_vs_stock", "process wall, speed vs stock"),
                       ("rss_vs_stock", "peak RSS vs stock")):
        values = {cfg: {r["case"]: r[key] for r in rows
                        if r["config"] == cfg} for cfg in shown}
        panel_rows.append((label, values, 1.0))
    bar_plot.panels(path, "hetero against the stock plugin", cases, shown,
                    panel_rows)
    print("bench: %s" % path)


def plot_scaling(rows, gpus, path):
    """Timed speed against stock on one GPU, per case and GPU count, from
    the GPUs-only configurations; the grey line is one GPU's stock speed."""
    points = {}
    for r in rows:
        used = gpus_used(r["config"], gpus)
        if used and "-split" not in r["config"]:
            points.setdefault(used, {})[r["case"]] = r["timed_vs_stock"]
    if len(points) < 2:
        return
    cases = list(dict.fromkeys(r["case"] for r in rows))
    counts = sorted(points)
    series = ["%d GPU%s" % (n, "" if n == 1 else "s") for n in counts]
    values = {name: points[n] for name, n in zip(series, counts)}
    bar_plot.panels(path, "speed-up against the GPU count (hetero, GPUs "
                    "only)", cases, series,
                    [("timed region, speed vs stock on one GPU", values,
                      1.0)])
    print("bench: %s" % path)


def trace_case(case, configs, argv, gpus, out, here):
    """One untimed run per hetero configuration with HETERO_TRACE, drawn
    with trace-plot.py (beside this script) when it is there."""
    plotter = os.path.join(here, "trace-plot.py")
    for cfg in configs:
        if not cfg.startswith("hetero"):
            continue
        env = config_env(cfg, gpus)
        path = os.path.join(os.path.abspath(out),
                            "trace-%s-%s.json" % (case, cfg))
        env["HETERO_TRACE"] = path
        st, _, err, _, _ = run_once(argv, env)
        if st != 0:
            sys.stderr.write(err[-2000:])
            sys.exit("bench: traced run of %s %s failed" % (case, cfg))
        if os.path.exists(plotter):
            subprocess.run([sys.executable, plotter, path,
                            path[:-len(".json")] + ".svg", "--title",
                            "%s, %s" % (case, cfg)], check=False)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default=None,
                   help="hetero-built examples (default: the bundle's bin/, "
                   "or build/examples/bin)")
    p.add_argument("--plain-bin", default=None,
                   help="plain clang-19 builds (default: bin-plain beside "
                   "--bin)")
    p.add_argument("--out", default="bench-results")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--cases", default=",".join(DEFAULT_CASES),
                   help="default: %s; also: %s" % (
                       ",".join(DEFAULT_CASES),
                       ",".join(c for c in CASES if c not in DEFAULT_CASES)))
    p.add_argument("--configs", default=None)
    p.add_argument("--plot", action="store_true")
    p.add_argument("--trace", action="store_true",
                   help="after the timed repetitions, one more run of each "
                   "case per hetero configuration with HETERO_TRACE: "
                   "trace-<case>-<config>.json and .svg in --out (not timed)")
    p.add_argument("--kernels", action="store_true",
                   help="after the timed repetitions, each case once under "
                   "ncu with stock and with hetero on one GPU: per-kernel "
                   "GPU times, kernels.csv in --out (not timed)")
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
    plain_dir = a.plain_bin or os.path.join(os.path.dirname(
        os.path.abspath(bin_dir)), "bin-plain")
    if not os.path.isdir(plain_dir):
        sys.exit("bench: no plain clang-19 builds in %s; pass --plain-bin"
                 % plain_dir)
    gpus = gpu_count()
    configs = a.configs.split(",") if a.configs else (
        ["stock", "stock-instr", "hetero", "hetero-gpus"] if gpus
        else ["stock", "stock-instr", "hetero"])
    if configs[0] != BASELINE:
        configs.insert(0, BASELINE)
    for case in a.cases.split(","):
        if case not in CASES:
            sys.exit("bench: unknown case %s (known: %s)"
                     % (case, ",".join(CASES)))
    os.makedirs(a.out, exist_ok=True)
    # hetero's measured shares start from this invocation's own runs (the
    # first repetition learns, the later ones start settled), not from
    # whatever an earlier build left in ~/.cache.
    if "HETERO_SHARES_FILE" not in os.environ:
        shares = os.path.join(os.path.abspath(a.out), "shares.txt")
        if os.path.exists(shares):
            os.remove(shares)
        os.environ["HETERO_SHARES_FILE"] = shares
    print("bench: %d GPU(s); %d repetitions; hetero builds from %s, plain "
          "from %s" % (gpus, a.reps, bin_dir, plain_dir), flush=True)

    rows, kernel_rows = [], []
    ncu = bench_kernels.find_ncu() if a.kernels and gpus else None
    if a.kernels and not ncu:
        print("bench: kernel times skipped: %s" % (
            "no GPU" if not gpus else "no ncu"), flush=True)
    for case in a.cases.split(","):
        prog, gpu_args, cpu_args, rate_re, unit, higher = CASES[case]
        args = gpu_args if gpus else cpu_args
        # Repetitions interleave the configurations, so that a drift of the
        # machine (clocks, page cache, another tenant) touches them alike.
        runs = {cfg: {"rates": [], "walls": [], "rss": []} for cfg in configs}
        for _ in range(a.reps):
            for cfg in configs:
                exe = os.path.join(plain_dir if cfg == BASELINE else bin_dir,
                                   prog)
                measure_one(case, cfg, [exe] + args, config_env(cfg, gpus),
                            rate_re, runs[cfg])
        if a.trace:
            trace_case(case, configs, [os.path.join(bin_dir, prog)] + args,
                       gpus, a.out, here)
        if ncu:
            shapes = ({}, {})
            stock = bench_kernels.kernel_durations(
                ncu, [os.path.join(plain_dir, prog)] + args,
                config_env(BASELINE, gpus), shapes[0])
            hetero = bench_kernels.kernel_durations(
                ncu, [os.path.join(bin_dir, prog)] + args,
                config_env("hetero-gpus1", gpus), shapes[1])
            if stock is None or hetero is None:
                print("bench: %s: ncu failed; no kernel times" % case)
            else:
                kernel_rows += bench_kernels.compare(case, stock, hetero,
                                                     *shapes)
        case_rows = []
        for cfg in configs:
            rates, walls, rss = (runs[cfg]["rates"], runs[cfg]["walls"],
                                 runs[cfg]["rss"])
            answer = runs[cfg]["answer"]
            case_rows.append({
                "case": case, "args": " ".join(args), "config": cfg,
                "unit": unit, "higher_is_better": higher,
                "timed": statistics.median(rates), "timed_min": min(rates),
                "timed_max": max(rates),
                "wall_s": statistics.median(walls),
                "rss_mib": statistics.median(rss), "answer": answer})
        base = case_rows[0]
        for row in case_rows:
            row["timed_vs_stock"] = ratio(row["timed"], base["timed"], higher)
            row["wall_vs_stock"] = ratio(row["wall_s"], base["wall_s"], False)
            # Each repetition runs every configuration back to back: the
            # ratio within one repetition leaves out a drift of the machine
            # between repetitions. Their spread is the measurement's noise.
            paired = [ratio(w, b, False) for w, b in
                      zip(runs[row["config"]]["walls"],
                          runs[BASELINE]["walls"])]
            row["wall_paired"] = statistics.median(paired)
            row["wall_paired_min"] = min(paired)
            row["wall_paired_max"] = max(paired)
            row["rss_vs_stock"] = row["rss_mib"] / base["rss_mib"]
            row["stock_rss_mib"] = base["rss_mib"]
            row["same_answer"] = same(base["answer"], row["answer"],
                                      REDUCTION_FIELDS)
            print("  %-11s %-12s %10.3f %s, wall %.2f s, RSS %.0f MiB"
                  % (case, row["config"], row["timed"], unit, row["wall_s"],
                     row["rss_mib"]), flush=True)
        rows += case_rows

    head = "%-11s %-20s %-12s %11s %9s %8s %8s %8s %7s %6s" % (
        "case", "args", "config", "timed", "unit", "vs stock", "wall s",
        "vs stock", "RSS MiB", "answer")
    print(head)
    print("-" * len(head))
    for r in rows:
        print("%-11s %-20s %-12s %11.3f %9s %7.3fx %8.2f %7.3fx %7.0f %6s" % (
            r["case"], r["args"], r["config"], r["timed"], r["unit"],
            r["timed_vs_stock"], r["wall_s"], r["wall_vs_stock"],
            r["rss_mib"], "same" if r["same_answer"] else "DIFF"))
    print()
    for line in checks(rows, gpus):
        print(line)
    for line in wall_noise(rows):
        print(line)
    if kernel_rows:
        for line in bench_kernels.report(kernel_rows):
            print(line)
        bench_kernels.write_csv(kernel_rows, os.path.join(a.out,
                                                          "kernels.csv"))
    with open(os.path.join(a.out, "bench.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print("bench: %s" % os.path.join(a.out, "bench.csv"))
    if a.plot:
        plot(rows, configs, os.path.join(a.out, "bench.svg"))
        plot_scaling(rows, gpus, os.path.join(a.out, "scaling.svg"))
    return 0 if all(r["same_answer"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
