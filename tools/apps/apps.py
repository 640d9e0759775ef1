#!/usr/bin/env python3
"""Public OpenMP offload applications, unchanged, under hetero: the evidence
that real codes split (issue 12), and the ones that must scale over several
GPUs (CloverLeaf, TeaLeaf: issue 38). Each app is pinned to a commit; it is
built twice, by hetero's clang (`-fopenmp-targets=hetero`) and by plain
clang-19 for nvptx64 and x86_64 (what the user would otherwise run, as
examples/CMakeLists.txt builds bench.py's baseline); an app with a CMake
build of its own is configured by it, with only the compiler and its offload
flags set.

  apps.py fetch --src DIR                 git clone + checkout of each app
  apps.py build --src DIR --out BIN [--build BUILD] [--apps a,b]
  apps.py sim   --bin BIN [--apps a,b]    HETERO_SIMULATE=3, small inputs:
                                          verification and each kernel's
                                          split status with its reasons
  apps.py run   --bin BIN [--reps N] [--out DIR] [--apps a,b]
                                          on a GPU machine: the plain build
                                          under the stock cuda plugin against
                                          the hetero build (default pool, GPU
                                          only), repetitions interleaved;
                                          wall, peak RSS, verification; the
                                          bytes copied between members
                                          against what the chunks' reads
                                          needed (the exact halo); the
                                          app's own timer where it has one;
                                          every run in apps-runs.csv.
                                          --configs stock,hetero-gpus4,...,
                                          --args (another input),
                                          --first-runs (no shares file),
                                          --kernels (each kernel's time on
                                          the GPU under ncu, stock against
                                          hetero on cuda:0 alone:
                                          kernels.csv; bench.py's check)

An app is verified when it exits 0, its own check line matches and no
failure line appears. The apps write files into their working directory
(iso2dfd), so each run gets a fresh one."""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import bench_kernels  # noqa: E402

HECBENCH = ("zjin-lcf/HeCBench", "f27000a5188f8ac79bd43fc95a1b3f890c18823d")


class App:
    def __init__(self, name, repo, commit, subdir, cc, sources, flags, small,
                 gpu, verify, checksum=None, cmake=None, timer=None):
        self.name, self.repo, self.commit = name, repo, commit
        self.subdir, self.cc, self.sources = subdir, cc, sources
        self.flags, self.small, self.gpu, self.verify = flags, small, gpu, verify
        # Small inputs the app cannot check itself (XSBench and RSBench know
        # the checksums of their default inputs only): the checksum must be
        # the plain build's on the host.
        self.checksum = checksum
        # (the app's CMake options, the executable it builds) for an app
        # built by its own CMake; {offload} is the offload flags.
        self.cmake = cmake
        # The app's own timed region: a regex whose group 1 is seconds (the
        # last match counts: TeaLeaf prints its running total each step).
        self.timer = timer

    def checkout(self, src):
        return os.path.join(src, self.repo.split("/")[1])


def hec(name, sources, flags, small, gpu, verify):
    return App(name, HECBENCH[0], HECBENCH[1], "src/" + name, "clang++",
               sources, ["-std=c++17"] + flags, small, gpu, verify)


# A check line of the app's own: a regex on stdout+stderr, or a function of
# that text.
def md_error(text):
    m = re.search(r"Max error between host and device: (\S+)", text)
    return bool(m) and float(m.group(1)) < 1e-3


APPS = [
    App("xsbench", "ANL-CESAR/XSBench",
        "ba08e5221af6106252b866e50ea123c69d31a4e2", "openmp-offload", "clang",
        ["Main.c", "io.c", "Simulation.c", "GridInit.c", "XSutils.c",
         "Materials.c"], [], ["-m", "event", "-s", "small", "-l", "200000"],
        ["-m", "event"], r"\(Valid\)",
        checksum=r"Verification checksum: (\d+)"),
    App("rsbench", "ANL-CESAR/RSBench",
        "34b644787ea9af4fb188e1253da72e09bbed9989", "openmp-offload", "clang",
        ["main.c", "io.c", "init.c", "material.c", "utils.c", "simulation.c"],
        [], ["-m", "event", "-s", "small", "-l", "200000"], ["-m", "event"],
        r"\(Valid\)", checksum=r"Verification checksum: (\d+)"),
    App("babelstream", "UoB-HPC/BabelStream",
        "57637d572532fc028b6c0964944f1afc27ff5436", "src", "clang++",
        ["main.cpp", "omp/OMPStream.cpp"],
        ["-std=c++17", "-DOMP", "-DOMP_TARGET_GPU", "-I.", "-Iomp"],
        ["-s", "1048576", "-n", "10"], ["-s", "33554432", "-n", "50"],
        r"Triad"),
    App("minibude", "UoB-HPC/miniBUDE",
        "570f66c1fd0c29b7f3ab6fa96fba87f4561aa44c", "src", "clang++",
        ["main.cpp"],
        ["-std=c++17", "-DOMP", "-DOMP_TARGET", "-DUSE_PPWI=4",
         "-Wno-missing-template-arg-list-after-template-kw", "-I."],
        ["--deck", "{checkout}/data/bm1", "-i", "2"],
        ["--deck", "{checkout}/data/bm1", "-i", "8"], r"(?i)ppwi"),
    hec("laplace3d-omp", ["main.cpp"], ["-I../laplace3d-cuda"],
        ["128", "64", "64", "20", "1"], ["256", "256", "256", "100", "1"],
        r"PASS"),
    hec("heat-omp", ["heat.cpp"], [], ["512", "100"], ["4096", "1000"],
        r"Error \(L2norm\)"),
    hec("heat2d-omp", ["main.cpp"], [], ["512", "512", "100"],
        ["4096", "4096", "1000"], r"PASS"),
    hec("iso2dfd-omp", ["iso2dfd.cpp"], [], ["512", "512", "100"],
        ["1024", "1024", "500"], r"(?i)success|pass"),
    hec("md-omp", ["main.cpp"], ["-I../md-cuda", "-DSINGLE_PRECISION"],
        ["0", "10"], ["3", "1000"], md_error),
    hec("rtm8-omp", ["rtm8.cpp"], [], ["2"], ["100"], r"PASS"),
    App("cloverleaf", "UoB-HPC/CloverLeaf",
        "ba256dccb033d385c23a4a02983b2d137eebeca4", "", "clang++", [], [],
        ["--file", "{checkout}/InputDecks/clover_bm_short.in"],
        ["--file", "{checkout}/InputDecks/clover_bm16_short.in"],
        r"Outcome: PASSED",
        cmake=(["-DMODEL=omp-target", "-DOFFLOAD=ON",
                "-DOFFLOAD_FLAGS={offload}"], "omp-target-cloverleaf"),
        timer=r"Wall clock ([0-9.eE+-]+)"),
    App("tealeaf", "UoB-HPC/TeaLeaf",
        "e70261c0be40537da75b258108ed2898f84f3c58", "", "clang++", [], [],
        ["--file", "{checkout}/tea.in", "--problems",
         "{checkout}/tea.problems"],
        ["--file", "{checkout}/Benchmarks/tea_bm_5.in", "--problems",
         "{checkout}/tea.problems"],
        r"PASSED",
        cmake=(["-DMODEL=omp", "-DOFFLOAD=ON", "-DOFFLOAD_FLAGS={offload}"],
               "omp-tealeaf"),
        timer=r"Wallclock:\s+([0-9.eE+-]+)s"),
]
# "error:" followed by a number is a residual (TeaLeaf's "Error: 7.8e-31").
FAILRE = (r"(?i)\bFAIL|Validation failed|\(INVALID\)|error:(?!\s*[-+0-9.])"
          r"|Verification failed")


def chosen(names):
    if not names:
        return APPS
    known = {a.name: a for a in APPS}
    bad = [n for n in names.split(",") if n not in known]
    if bad:
        sys.exit("apps: unknown app(s) %s (known: %s)"
                 % (",".join(bad), ",".join(known)))
    return [known[n] for n in names.split(",")]


def args_of(app, which, src):
    return [a.replace("{checkout}", app.checkout(src)) for a in which]


def verified(app, rc, text):
    ok = (app.verify(text) if callable(app.verify)
          else re.search(app.verify, text) is not None)
    return rc == 0 and ok and not re.search(FAILRE, text)


def run_one(argv, env):
    """(exit status, stdout+stderr, wall s, peak RSS MiB) in a fresh
    working directory."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryDirectory() as wd:
        t0 = time.monotonic()
        p = subprocess.Popen(argv, env=env, stdout=out,
                             stderr=subprocess.STDOUT, cwd=wd)
        _, st, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        out.seek(0)
        return (os.waitstatus_to_exitcode(st),
                out.read().decode(errors="replace"), wall,
                ru.ru_maxrss / 1024.0)


def fetch(a):
    for app in chosen(a.apps):
        dest = app.checkout(a.src)
        if not os.path.isdir(dest):
            subprocess.check_call(["git", "clone", "-q",
                                   "https://github.com/" + app.repo, dest])
        subprocess.check_call(["git", "-C", dest, "checkout", "-q",
                               app.commit])
        print("fetched %s at %s" % (app.repo, app.commit))


def build(a):
    build_dir = os.path.abspath(a.build)
    llvm = a.llvm_prefix
    os.makedirs(a.out, exist_ok=True)
    out = os.path.abspath(a.out)
    failed = 0
    for app in chosen(a.apps):
        where = os.path.join(app.checkout(a.src), app.subdir)
        head = subprocess.run(["git", "-C", app.checkout(a.src), "rev-parse",
                               "HEAD"], capture_output=True, text=True)
        if head.returncode == 0 and head.stdout.strip() != app.commit:
            print("apps: %s is at %s, not the pinned %s"
                  % (app.name, head.stdout.strip()[:12], app.commit[:12]))
        hetero = [os.path.join(build_dir, "bin", app.cc), "-O3", "-fopenmp",
                  "-fopenmp-targets=hetero"]
        plain = [os.path.join(llvm, "bin", app.cc), "-O3", "-fopenmp",
                 "-fopenmp-targets=nvptx64-nvidia-cuda,x86_64-unknown-linux-gnu",
                 "-Xopenmp-target=nvptx64-nvidia-cuda",
                 "--offload-arch=" + a.arch,
                 "-Xopenmp-target=x86_64-unknown-linux-gnu", "-mfma",
                 "--cuda-path=" + a.cuda_path,
                 "--libomptarget-nvptx-bc-path=" + os.path.join(llvm, "lib"),
                 "-L" + os.path.join(build_dir, "lib"),
                 "-Wl,-rpath," + os.path.join(build_dir, "lib")]
        env = dict(os.environ, HETERO_OFFLOAD_ARCH=a.arch)
        if app.cmake:
            failed += cmake_build(app, where, hetero, plain, out, env)
            continue
        for kind, cmd in (("hetero", hetero), ("plain", plain)):
            argv = (cmd + app.flags + app.sources
                    + ["-o", os.path.join(out, "%s.%s" % (app.name, kind)),
                       "-lm"])
            r = subprocess.run(argv, cwd=where, env=env, capture_output=True,
                               text=True)
            print("%s %-14s %s" % ("built " if r.returncode == 0 else "FAILED",
                                   app.name, kind))
            if r.returncode != 0:
                failed += 1
                sys.stdout.write(r.stderr[-2000:])
    return 1 if failed else 0


def cmake_build(app, where, hetero, plain, out, env):
    """Configures and builds an app by its own CMake, once per compiler
    line (the compiler, then its offload and link flags), into
    out/<app>.<kind>. Returns the number of failed builds."""
    options, exe = app.cmake
    failed = 0
    for kind, cmd in (("hetero", hetero), ("plain", plain)):
        build = os.path.join(out, "%s.%s.build" % (app.name, kind))
        flags = " ".join(f for f in cmd[1:] if not f.startswith(("-L", "-Wl")))
        link = " ".join(f for f in cmd[1:] if f.startswith(("-L", "-Wl")))
        steps = [["cmake", "-S", where, "-B", build,
                  "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_COMPILER=" + cmd[0],
                  "-DCXX_EXTRA_LINK_FLAGS=" + link]
                 + [o.replace("{offload}", flags) for o in options],
                 ["cmake", "--build", build, "-j", str(os.cpu_count() or 2)]]
        r = None
        for step in steps:
            r = subprocess.run(step, env=env, capture_output=True, text=True)
            if r.returncode != 0:
                break
        if r.returncode == 0:
            shutil.copy(os.path.join(build, exe),
                        os.path.join(out, "%s.%s" % (app.name, kind)))
        print("%s %-14s %s" % ("built " if r.returncode == 0 else "FAILED",
                               app.name, kind))
        if r.returncode != 0:
            failed += 1
            sys.stdout.write((r.stdout + r.stderr)[-2000:])
    return failed


def moved_lines(text):
    """The bytes copied between members against what the chunks' reads
    needed from other members (HETERO_STATS: the exact halo)."""
    total = re.search(r"hetero-stats total .*bytes_d2d=(\d+)", text)
    needed = sum(int(n) for n in re.findall(r" bytes_needed=(\d+)", text))
    if not total:
        return []
    d2d = int(total.group(1))
    return ["  between members %.3f GB; the chunks' reads needed %.3f GB "
            "(%s)" % (d2d / 1e9, needed / 1e9,
                      "%.2fx" % (d2d / needed) if needed else "-")]


def kernel_lines(text):
    """One line per kernel of HETERO_STATS: its short name, launches and
    split status with the reasons."""
    out = []
    for m in re.finditer(r"hetero-stats kernel=__omp_offloading_[0-9a-f]+_"
                         r"[0-9a-f]+_(\S+) launches=(\d+) split=(\S+?)"
                         r"(?:\((.*?)\))? split_launches=(\d+)", text):
        name, launches, split, why, split_launches = m.groups()
        out.append("  %-40s launches=%-5s split=%s%s (split launches %s)"
                   % (name, launches, split, "(%s)" % why if why else "",
                      split_launches))
    return out


def sim(a):
    bad = 0
    for app in chosen(a.apps):
        env = dict(os.environ, LIBOMPTARGET_PLUGIN="hetero",
                   HETERO_SIMULATE="3", HETERO_STATS="1",
                   HETERO_SHARES_FILE="none")
        argv = ([os.path.join(a.bin, app.name + ".hetero")]
                + args_of(app, app.small, a.src))
        rc, text, wall, _ = run_one(argv, env)
        if app.checksum:
            host = dict(os.environ, LIBOMPTARGET_PLUGIN="host")
            prc, plain, _, _ = run_one([os.path.join(a.bin, app.name +
                                                     ".plain")] + argv[1:],
                                       host)
            mine = re.search(app.checksum, text)
            theirs = re.search(app.checksum, plain)
            # Their exit status says whether the checksum is the default
            # input's: not asked here.
            ok = (mine is not None and theirs is not None and
                  mine.group(1) == theirs.group(1))
            rc = 0 if ok else rc
            print("%-14s checksum %s, plain build on the host %s" % (
                app.name, mine.group(1) if mine else "none",
                theirs.group(1) if theirs else "none"))
        else:
            ok = verified(app, rc, text)
        bad += not ok
        print("%-14s %s  %.1f s  %s" % (app.name, "verified" if ok else
                                        "NOT VERIFIED (status %d)" % rc, wall,
                                        " ".join(argv[1:])))
        for line in kernel_lines(text):
            print(line)
    return 1 if bad else 0


CONFIGS = ["stock", "hetero", "hetero-gpus"]


def config_env(cfg, shares):
    e = dict(os.environ)
    for v in ("LIBOMPTARGET_PLUGIN", "HETERO_MEMBERS", "HETERO_MEMBER"):
        e.pop(v, None)
    if cfg == "stock":
        e["LIBOMPTARGET_PLUGIN"] = "cuda"
        return e
    e["LIBOMPTARGET_PLUGIN"] = "hetero"
    e["HETERO_SHARES_FILE"] = shares
    if cfg == "hetero-gpus":
        e["HETERO_MEMBERS"] = "cuda:0"
    elif cfg.startswith("hetero-gpus"):  # hetero-gpus<n>: the first n GPUs
        e["HETERO_MEMBERS"] = ",".join(
            "cuda:%d" % g for g in range(int(cfg[len("hetero-gpus"):])))
    return e


def timed(app, text):
    """The app's own timed region in seconds, or None."""
    found = re.findall(app.timer, text) if app.timer else []
    return float(found[-1]) if found else None


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def kernel_times(ncu, app, bin_dir, args, shares):
    """bench.py --kernels for an app: its plain build under the stock cuda
    plugin and its hetero build on cuda:0 alone, each once under ncu (the
    first bench_kernels.LAUNCH_COUNT launches), per kernel; [] when ncu
    failed."""
    shapes = ({}, {})
    times = []
    for i, (kind, cfg) in enumerate((("plain", "stock"),
                                     ("hetero", "hetero-gpus"))):
        with tempfile.TemporaryDirectory() as wd:
            times.append(bench_kernels.kernel_durations(
                ncu, [os.path.join(bin_dir, "%s.%s" % (app.name, kind))]
                + args, config_env(cfg, shares), shapes[i], cwd=wd))
    stock, hetero = times
    if stock is None or hetero is None:
        print("apps: %s: ncu failed; no kernel times" % app.name, flush=True)
        return []
    return bench_kernels.compare(app.name, stock, hetero, *shapes)


def run(a):
    os.makedirs(a.out, exist_ok=True)
    # Measured shares start from this invocation's own runs, as in bench.py;
    # with --first-runs every run measures afresh (no shares file).
    shares = os.path.join(os.path.abspath(a.out), "apps-shares.txt")
    if os.path.exists(shares):
        os.remove(shares)
    if a.first_runs:
        shares = "none"
    csv_rows = ["app,config,rep,wall_s,timer_s,rss_mib,verified"]
    bad = 0
    kernel_rows = []
    ncu = bench_kernels.find_ncu() if a.kernels else None
    if a.kernels and not ncu:
        print("apps: kernel times skipped: no ncu", flush=True)
    for app in chosen(a.apps):
        args = (args_of(app, a.args.split(), a.src) if a.args
                else args_of(app, app.gpu, a.src))
        configs = a.configs.split(",")
        res = {c: {"wall": [], "timer": [], "rss": [], "ok": []}
               for c in configs}
        for r in range(a.reps):
            for cfg in configs:
                exe = os.path.join(a.bin, app.name + (
                    ".plain" if cfg == "stock" else ".hetero"))
                rc, text, wall, rss = run_one([exe] + args,
                                              config_env(cfg, shares))
                ok = verified(app, rc, text)
                res[cfg]["wall"].append(wall)
                res[cfg]["timer"].append(timed(app, text))
                res[cfg]["rss"].append(rss)
                res[cfg]["ok"].append(ok)
                csv_rows.append("%s,%s,%d,%.3f,%s,%.0f,%d" % (
                    app.name, cfg, r + 1, wall,
                    "" if res[cfg]["timer"][-1] is None
                    else "%.3f" % res[cfg]["timer"][-1], rss, ok))
                if r == 0:
                    with open(os.path.join(a.out, "%s.%s.txt"
                                           % (app.name, cfg)), "w") as f:
                        f.write(text)
        env = config_env("hetero", shares)
        env["HETERO_STATS"] = "1"
        _, text, _, _ = run_one([os.path.join(a.bin, app.name + ".hetero")]
                                + args, env)
        base = statistics.median(res[configs[0]]["wall"])
        base_timer = median_or_none(res[configs[0]]["timer"])
        for cfg in configs:
            w = statistics.median(res[cfg]["wall"])
            t = median_or_none(res[cfg]["timer"])
            timer = ("  timer %7.3f s  %.3fx" % (t, base_timer / t)
                     if t and base_timer else "")
            bad += sum(res[cfg]["ok"]) != a.reps
            print("%-14s %-12s wall %7.3f s  %.3fx%s  RSS %6.0f MiB  "
                  "verified %d/%d" % (app.name, cfg, w, base / w, timer,
                                      statistics.median(res[cfg]["rss"]),
                                      sum(res[cfg]["ok"]), a.reps),
                  flush=True)
        for line in kernel_lines(text) + moved_lines(text):
            print(line)
        if ncu:
            kernel_rows += kernel_times(ncu, app, a.bin, args, shares)
    with open(os.path.join(a.out, "apps-runs.csv"), "w") as f:
        f.write("\n".join(csv_rows) + "\n")
    if kernel_rows:
        bench_kernels.write_csv(kernel_rows,
                                os.path.join(a.out, "kernels.csv"))
        for line in bench_kernels.report(kernel_rows):
            print(line)
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("fetch", "build", "sim", "run"):
        s = sub.add_parser(name)
        s.add_argument("--apps", default="")
        s.add_argument("--src", default=os.path.join(here, "src"),
                       help="where the apps' checkouts are")
        if name == "build":
            s.add_argument("--out", required=True)
            s.add_argument("--build", default=os.path.join(here, "..", "..",
                                                           "build"))
            s.add_argument("--llvm-prefix", default="/usr/lib/llvm-19")
            s.add_argument("--cuda-path", default="/usr/local/cuda")
            s.add_argument("--arch", default="sm_90")
        if name in ("sim", "run"):
            s.add_argument("--bin", required=True)
        if name == "run":
            s.add_argument("--reps", type=int, default=3)
            s.add_argument("--out", default="apps-results")
            s.add_argument("--configs", default=",".join(CONFIGS),
                           help="stock, hetero, hetero-gpus (cuda:0 alone) "
                           "or hetero-gpus<n> (the first n GPUs); ratios "
                           "are to the first")
            s.add_argument("--args", default="",
                           help="the app's arguments instead of its GPU "
                           "input ({checkout} is its checkout)")
            s.add_argument("--first-runs", action="store_true",
                           help="no shares file: every run measures afresh")
            s.add_argument("--kernels", action="store_true",
                           help="after the timed runs, each app once under "
                           "ncu, stock and hetero on cuda:0 alone: per-kernel "
                           "GPU times, kernels.csv in --out (not timed)")
    a = p.parse_args()
    # The apps run in fresh working directories.
    a.src = os.path.abspath(a.src)
    if getattr(a, "bin", None):
        a.bin = os.path.abspath(a.bin)
    return {"fetch": fetch, "build": build, "sim": sim, "run": run}[a.what](a)


if __name__ == "__main__":
    sys.exit(main() or 0)
