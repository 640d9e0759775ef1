#!/usr/bin/env python3
"""hetero_fuzz.py -- random differential testing of hetero's split launches.

    hetero_fuzz.py --build BUILD --seeds FIRST:COUNT [--jobs N] [--keep DIR]
                   [--time-budget SECONDS] [--modes cpu,sim3,sim3c3,uneven,tight,rounds,sole]
                   [--x86-only | --arch sm_90] [--reduce] [--verbose]

For each seed, gen.py writes a random OpenMP offload program. It is built
twice: with hetero (`BUILD/bin/clang -O2 -fopenmp -fopenmp-targets=hetero`)
and as the reference, host-only (`clang-19 -O2 -fopenmp -mfma`: target
regions run on the host; -mfma because hetero fuses every a*b+c like a GPU).
The hetero binary then runs under several pool set-ups (modes) with
HETERO_STATS=1, and its standard output must equal the reference's byte for
byte. A mismatch, a crash, a non-zero exit, a timeout or a `hetero: error:`
line is a failure. Failing seeds are triaged (a --diag build hashes every
array after each kernel: the first wrong kernel and its shape tags give the
failure's class) and, with --keep, saved with a reproduce script.

Exit status: 0 when every run agreed, 1 on any failure, 2 on a usage or
set-up error. Python 3.11 standard library only.
"""

import argparse
import collections
import concurrent.futures as cf
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

REF_CC = "clang-19"
CFLAGS = ["-O2", "-fopenmp"]
X86 = "x86_64-unknown-linux-gnu"

# Pool set-ups. "uneven" gets random member weights and chunk counts per
# seed (uneven_env); the others are fixed.
MODES = {
    "cpu": {"LIBOMPTARGET_PLUGIN": "hetero"},
    "sim3": {"LIBOMPTARGET_PLUGIN": "hetero", "HETERO_SIMULATE": "3"},
    "sim3c3": {"LIBOMPTARGET_PLUGIN": "hetero", "HETERO_SIMULATE": "3",
               "HETERO_CHUNKS": "3"},
    "uneven": None,
    # One accelerator offered, not the first (where map-time data lands):
    # its launches run as one chunk in place, not whole.
    "sole": {"LIBOMPTARGET_PLUGIN": "hetero", "HETERO_SIMULATE": "2",
             "HETERO_MEMBERS": "sim:1"},
    # not in the default set:
    "whole-sim": {"LIBOMPTARGET_PLUGIN": "hetero", "HETERO_SIMULATE": "2",
                  "HETERO_MEMBER": "sim:1"},
    "sim1": {"LIBOMPTARGET_PLUGIN": "hetero", "HETERO_SIMULATE": "1",
             "HETERO_CHUNKS": "2"},
    "fallback": {"OMP_TARGET_OFFLOAD": "DISABLED"},
    # Members of 512 KiB (eight 64 KiB granules): the programs' arrays often
    # do not fit, so members evict between launches or leave launches to
    # others.
    "tight": {"LIBOMPTARGET_PLUGIN": "hetero", "HETERO_SIMULATE": "3",
              "HETERO_SIMULATE_MEMORY": "512K"},
    # The same members without the CPU pool: what they cannot hold runs in
    # rounds through their memory (Engine.h), first round staying.
    "rounds": {"LIBOMPTARGET_PLUGIN": "hetero", "HETERO_SIMULATE": "2",
               "HETERO_MEMBERS": "sim:0,sim:1",
               "HETERO_SIMULATE_MEMORY": "512K"},
}
DEFAULT_MODES = ["cpu", "sim3", "sim3c3", "uneven", "tight", "rounds", "sole"]
# Modes whose statistics say whether kernels split (more than one member).
SPLIT_MODES = ["sim3", "sim3c3", "uneven", "sim1", "tight", "rounds"]

# Subscript shapes that the known bug class (truncating casts and unsigned
# wrap treated as exact arithmetic in the section analysis) is about.
WRAP_TAGS = re.compile(r"^(read|write)-(trunc\d+|wrap\d+|signchange)$")

STATS_RE = re.compile(
    r"^hetero-stats kernel=(\S+) launches=(\d+) "
    r"split=(yes|settled-one\(\S+\)|no\((.*)\)) "
    r"split_launches=(\d+) members=(\S+)")


def uneven_env(seed):
    """Random member shares (HETERO_MEMBERS) and chunk count for a seed."""
    r = random.Random(seed * 7919 + 17)
    while True:
        w = [r.choice([0, 1, 1, 2, 3, 5, 7, 9]) for _ in range(4)]
        if sum(1 for x in w if x) >= 2:
            break
    names = ["sim:0", "sim:1", "sim:2", "cpu"]
    members = ",".join("%s=%d" % (n, x) for n, x in zip(names, w)
                       if x or r.random() < 0.5)
    env = {"LIBOMPTARGET_PLUGIN": "hetero", "HETERO_SIMULATE": "3",
           "HETERO_MEMBERS": members,
           "HETERO_CHUNKS": str(r.choice([1, 1, 2, 3, 4]))}
    if r.random() < 0.4:
        # At most the cores this process may use (hetero refuses more).
        cores = len(os.sched_getaffinity(0))
        env["HETERO_CPU_THREADS"] = str(r.choice([1, 2, 3][:max(1, cores)]))
    return env


def mode_env(mode, seed):
    e = uneven_env(seed) if mode == "uneven" else dict(MODES[mode])
    e["HETERO_STATS"] = "1"
    return e


def clean_env():
    """The caller's environment without any hetero/libomptarget settings."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HETERO_", "LIBOMPTARGET_", "OMP_TARGET"))}
    return env


# ---------------------------------------------------------------------------
# Compiling
# ---------------------------------------------------------------------------


def driver_settings(build):
    """What the hetero clang entry point passes to clang-19 (read from the
    generated script itself): clang-19's path, the compiler plugin, the
    library directory."""
    path = os.path.join(build, "bin", "clang")
    text = open(path).read()
    # The script finds its library directory at run time ($libdir: ../lib
    # next to it), so a path read from it may name that variable.
    lib = os.path.join(os.path.dirname(os.path.realpath(path)), "..", "lib")
    lib = os.path.normpath(lib)

    def expand(p):
        return p.replace('"', "").replace("${libdir}", lib).replace(
            "$libdir", lib)
    clang = re.search(r"^clang=(\S+)", text, re.M)
    plugin = re.search(r"HETERO_COMPILER_PLUGIN:-([^}]+)\}", text)
    return {
        "driver": path,
        "clang": clang.group(1) if clang else "clang-19",
        "plugin": expand(plugin.group(1)) if plugin else
        os.path.join(lib, "libHeteroCompilerPlugin.so"),
        "libdir": lib,
    }


def lang_args(src):
    """(before, after) src on a compile line: a program whose first line is
    gen.CXX_MARKER is C++ (its .c name notwithstanding), linked with the C++
    library."""
    try:
        with open(src) as f:
            first = f.readline().strip()
    except OSError:
        first = ""
    if first == gen.CXX_MARKER:
        return ["-x", "c++"], ["-x", "none", "-lstdc++"]
    return [], []


def hetero_compile_cmd(cfg, src, exe):
    """(argv, extra environment) of the hetero build of src."""
    pre, post = lang_args(src)
    if cfg["x86_only"]:
        # What the driver does, less the NVPTX images: the compiler plugin
        # in every compile job, an x86_64 offload image with -mfma, hetero's
        # libomptarget through an rpath. The driver itself always adds the
        # NVPTX images (one per --offload-arch).
        d = cfg["driver_settings"]
        argv = [d["clang"]] + CFLAGS + [
            "-fopenmp-targets=" + X86,
            "-fplugin=" + d["plugin"], "-fpass-plugin=" + d["plugin"],
            "-Xopenmp-target=" + X86, "-mfma",
            *pre, src, *post, "-o", exe, "-lm",
            "-L" + d["libdir"], "-Wl,-rpath," + d["libdir"],
            "-Wl,-rpath,/usr/lib/llvm-19/lib"]
        return argv, {}
    argv = [os.path.join(cfg["build"], "bin", "clang")] + CFLAGS + [
        "-fopenmp-targets=hetero", *pre, src, *post, "-o", exe, "-lm"]
    return argv, {"HETERO_OFFLOAD_ARCH": cfg["arch"]}


def ref_compile_cmd(src, exe):
    pre, post = lang_args(src)
    return [REF_CC] + CFLAGS + ["-mfma", *pre, src, *post, "-o", exe, "-lm"]


def san_compile_cmd(src, exe):
    pre, post = lang_args(src)
    return [REF_CC, "-O1", "-g", "-fopenmp", "-mfma",
            "-fsanitize=address,undefined", "-fno-sanitize=vla-bound",
            "-fno-sanitize-recover=all",
            *pre, src, *post, "-o", exe, "-lm"]


def sanitizer_report(err):
    lines = [l for l in err.splitlines()
             if "runtime error" in l or "ERROR: AddressSanitizer" in l or
             "SUMMARY" in l or l.strip().startswith("#")]
    return "\n".join(lines[:12]) or err[-1000:]


def run(argv, env, timeout, cwd=None):
    """(returncode or 'timeout', stdout, stderr, seconds)."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, env=env, cwd=cwd, capture_output=True,
                           timeout=timeout)
        rc = p.returncode
        out, err = p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = "timeout", e.stdout or b"", e.stderr or b""
    return rc, out, err, time.monotonic() - t0


def build_pair(cfg, wd, src_text, tag):
    """Writes src_text and builds the hetero and reference binaries; returns
    (hetero exe, reference exe, error or None, seconds)."""
    src = os.path.join(wd, tag + ".c")
    with open(src, "w") as f:
        f.write(src_text)
    hexe, rexe = os.path.join(wd, tag + ".hetero"), os.path.join(wd, tag + ".ref")
    argv, extra = hetero_compile_cmd(cfg, src, hexe)
    env = clean_env()
    env.update(extra)
    t0 = time.monotonic()
    rc, out, err, _ = run(argv, env, cfg["compile_timeout"])
    if rc != 0:
        return hexe, rexe, ("hetero-compile", err.decode(errors="replace")[-4000:]), 0
    rc, out, err, _ = run(ref_compile_cmd(src, rexe), clean_env(),
                          cfg["compile_timeout"])
    if rc != 0:
        return hexe, rexe, ("ref-compile", err.decode(errors="replace")[-4000:]), 0
    return hexe, rexe, None, time.monotonic() - t0


# ---------------------------------------------------------------------------
# One seed
# ---------------------------------------------------------------------------


def parse_stats(err_text, meta):
    """hetero-stats lines -> {kernel id: (split?, reason, launches)}."""
    by_line = {k["line"]: k["kid"] for k in meta["kernels"]}
    out = {}
    for ln in err_text.splitlines():
        m = STATS_RE.match(ln)
        if not m:
            continue
        name = m.group(1)
        lm = re.search(r"_l(\d+)$", name)
        kid = by_line.get(int(lm.group(1))) if lm else None
        split = m.group(3) == "yes" or m.group(3).startswith("settled-one")
        reason = m.group(4) or ""
        out[kid if kid is not None else name] = (split, reason, int(m.group(2)))
    return out


def hetero_messages(err_text):
    errors = [l for l in err_text.splitlines() if l.startswith("hetero: error:")]
    warnings = [l for l in err_text.splitlines() if l.startswith("hetero: warning:")]
    return errors, warnings


def run_mode(cfg, exe, mode, seed, ref_out):
    env = clean_env()
    menv = mode_env(mode, seed)
    env.update(menv)
    rc, out, err, secs = run([exe], env, cfg["run_timeout"])
    err_text = err.decode(errors="replace")
    errors, warnings = hetero_messages(err_text)
    problem = None
    if rc == "timeout":
        problem = "timeout"
    elif rc != 0:
        problem = "exit %s" % rc if rc > 0 else "signal %d" % -rc
    elif out != ref_out:
        problem = "mismatch"
    elif errors:
        problem = "hetero error"
    return {"mode": mode, "env": menv, "rc": rc, "out": out, "err": err_text,
            "problem": problem, "seconds": secs, "errors": errors,
            "warnings": warnings}


def first_difference(a, b):
    """The first line where two outputs differ (text of the expected one)."""
    la, lb = a.decode(errors="replace").splitlines(), b.decode(errors="replace").splitlines()
    for x, y in zip(la, lb):
        if x != y:
            return x
    return la[len(lb)] if len(la) > len(lb) else (lb[len(la)] if len(lb) > len(la) else None)


def classify(meta, kid):
    """'wrap/trunc' when the first wrong kernel has a subscript with a
    truncating cast or unsigned wrap (the known bug class), else 'other'."""
    for k in meta["kernels"]:
        if k["kid"] == kid:
            if any(WRAP_TAGS.match(t) for t in k["tags"]):
                return "wrap/trunc"
            return "other"
    return "unknown"


def classify_set(meta, kids):
    """The class of a reduced program: wrap/trunc when any kernel left has
    such a subscript (and the reduction still failed), else other."""
    classes = {classify(meta, k) for k in kids}
    if "wrap/trunc" in classes:
        return "wrap/trunc (reduced)"
    return "other (reduced)" if classes else "unknown"


def triage(cfg, seed, wd, failing):
    """Builds the --diag variant of the program (hashes after each kernel)
    and runs the first failing mode: the first differing diag line names the
    first kernel that went wrong."""
    src, meta = gen.generate(seed, diag=True)
    hexe, rexe, err, _ = build_pair(cfg, wd, src, "diag")
    if err:
        return {"note": "diag build failed: " + err[0]}
    rc, ref_out, _, _ = run([rexe], clean_env(), cfg["run_timeout"])
    if rc != 0:
        return {"note": "diag reference failed (%s)" % rc, "kernel": None, "class": "unknown"}
    res = run_mode(cfg, hexe, failing["mode"], seed, ref_out)
    line = first_difference(ref_out, res["out"]) if res["out"] != ref_out else None
    kid = None
    if line:
        m = re.match(r"diag k(\d+) ", line)
        if m:
            kid = int(m.group(1))
    if kid is None:
        # a crash or hang (no differing diag line), or the diag variant
        # does not fail: no kernel to blame
        return {"note": "diag run: %s; first difference: %r" % (res["problem"], line),
                "kernel": None, "class": "unknown"}
    return {"kernel": kid, "class": classify(meta, kid), "line": line}


def reduce_program(cfg, seed, wd, failing, meta):
    """Drops kernels one at a time (last first) while the failure stays;
    returns the smallest program that still fails and the kernels kept."""
    keep = [k["kid"] for k in meta["kernels"]
            if "producer-kernel" not in k["tags"] and "fill-kernel" not in k["tags"]]
    tries = 0

    def fails(kset):
        nonlocal tries
        tries += 1
        src, _ = gen.generate(seed, keep=set(kset))
        hexe, rexe, err, _ = build_pair(cfg, wd, src, "reduce")
        if err:
            return False
        rc, ref_out, _, _ = run([rexe], clean_env(), cfg["run_timeout"])
        if rc != 0:
            return False
        return run_mode(cfg, hexe, failing["mode"], seed, ref_out)["problem"] is not None

    for kid in list(reversed(keep)):
        if len(keep) == 1:
            break
        trial = [k for k in keep if k != kid]
        if fails(trial):
            keep = trial
    src, _ = gen.generate(seed, keep=set(keep))
    return keep, src, tries


def do_seed(seed, cfg):
    """Everything about one seed; returns a JSON-able result."""
    t0 = time.monotonic()
    res = {"seed": seed, "runs": 0, "failures": [], "stats": {}, "warnings": []}
    try:
        src, meta = gen.generate(seed)
    except Exception as e:  # a generator bug: report, do not hide
        res["gen_error"] = "%s: %s" % (type(e).__name__, e)
        return res
    res["gen_seconds"] = time.monotonic() - t0
    res["meta"] = meta
    wd = tempfile.mkdtemp(prefix="hfz%d-" % seed, dir=cfg["workdir"])
    try:
        hexe, rexe, err, csecs = build_pair(cfg, wd, src, "prog")
        res["compile_seconds"] = csecs
        if err:
            res["failures"].append({"mode": "-", "problem": err[0], "detail": err[1]})
            if cfg["keep"]:
                keep_failure(cfg, seed, src, meta, None, None, res["failures"][-1], wd)
            return res
        rc, ref_out, ref_err, rsecs = run([rexe], clean_env(), cfg["run_timeout"])
        if rc != 0:
            # the reference itself fails: the generated program is not valid
            res["invalid"] = "reference %s: %s" % (rc, ref_err.decode(errors="replace")[-500:])
            if cfg["keep"]:
                keep_failure(cfg, seed, src, meta, ref_out, None,
                             {"mode": "ref", "problem": "invalid program",
                              "detail": res["invalid"]}, wd)
            return res
        if cfg["sanitize_ref"]:
            # the generator's promises (in bounds, no UB) checked on the
            # program itself: the reference again under ASan + UBSan
            sexe = os.path.join(wd, "prog.asan")
            rc, _, err, _ = run(san_compile_cmd(os.path.join(wd, "prog.c"), sexe),
                                clean_env(), cfg["compile_timeout"])
            if rc == 0:
                env = clean_env()
                env["ASAN_OPTIONS"] = "detect_leaks=0"
                rc, sout, err, _ = run([sexe], env, max(60, 40 * rsecs))
                if rc != 0 or sout != ref_out:
                    res["invalid"] = "sanitized reference %s: %s" % (
                        rc, sanitizer_report(err.decode(errors="replace")))
                    if cfg["keep"]:
                        keep_failure(cfg, seed, src, meta, ref_out, None,
                                     {"mode": "ref", "problem": "invalid program",
                                      "detail": res["invalid"]}, wd)
                    return res
        # a hang is a failure; a slow machine is not: scale with the reference
        cfg = dict(cfg, run_timeout=max(cfg["run_timeout"], 20 * rsecs))
        for mode in cfg["modes"]:
            r = run_mode(cfg, hexe, mode, seed, ref_out)
            res["runs"] += 1
            res["stats"][mode] = {str(k): v for k, v in parse_stats(r["err"], meta).items()}
            res["warnings"] += r["warnings"]
            if r["problem"]:
                f = {"mode": mode, "problem": r["problem"], "env": r["env"],
                     "first_diff": first_difference(ref_out, r["out"]),
                     "errors": r["errors"][:5]}
                res["failures"].append(f)
                if cfg["keep"]:
                    keep_failure(cfg, seed, src, meta, ref_out, r, f, wd)
        if res["failures"] and cfg["triage"]:
            fail = next(f for f in res["failures"] if f["mode"] in cfg["modes"])
            fail_run = {"mode": fail["mode"]}
            res["triage"] = triage(cfg, seed, wd, fail_run)
            if res["triage"].get("kernel") is None and not cfg["reduce"]:
                # the diag variant moves data differently and may not fail:
                # drop kernels instead, and classify by those left
                kept, rsrc, tries = reduce_program(cfg, seed, wd, fail_run, meta)
                res["triage"].update(reduced_kernels=kept, reduce_tries=tries,
                                     **{"class": classify_set(meta, kept)})
                if cfg["keep"]:
                    d = os.path.join(cfg["keep"], "seed-%d" % seed)
                    with open(os.path.join(d, "reduced.c"), "w") as f:
                        f.write(rsrc)
            if cfg["reduce"]:
                kept, rsrc, tries = reduce_program(cfg, seed, wd, fail_run, meta)
                if res["triage"].get("kernel") is None:
                    res["triage"]["class"] = classify_set(meta, kept)
                res["triage"]["reduced_kernels"] = kept
                res["triage"]["reduce_tries"] = tries
                if cfg["keep"]:
                    d = os.path.join(cfg["keep"], "seed-%d" % seed)
                    with open(os.path.join(d, "reduced.c"), "w") as f:
                        f.write(rsrc)
            if cfg["keep"]:
                d = os.path.join(cfg["keep"], "seed-%d" % seed)
                with open(os.path.join(d, "triage.json"), "w") as f:
                    json.dump(res["triage"], f, indent=1)
    finally:
        shutil.rmtree(wd, ignore_errors=True)
    res["seconds"] = time.monotonic() - t0
    return res


def keep_failure(cfg, seed, src, meta, ref_out, r, f, wd):
    """Saves a failing seed: program, outputs, environment, statistics and
    a reproduce script."""
    d = os.path.join(cfg["keep"], "seed-%d" % seed)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "prog.c"), "w") as fh:
        fh.write(src)
    with open(os.path.join(d, "prog.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
    if ref_out is not None:
        with open(os.path.join(d, "ref.out"), "wb") as fh:
            fh.write(ref_out)
    mode = f["mode"]
    if r is not None:
        with open(os.path.join(d, mode + ".out"), "wb") as fh:
            fh.write(r["out"])
        with open(os.path.join(d, mode + ".err"), "w") as fh:
            fh.write(r["err"])
        with open(os.path.join(d, mode + ".env"), "w") as fh:
            fh.write("".join("%s=%s\n" % kv for kv in sorted(r["env"].items())))
    elif "detail" in f:
        with open(os.path.join(d, "problem.txt"), "w") as fh:
            fh.write(f["problem"] + "\n" + f.get("detail", ""))
    # Built for the saved file (its first line says its language), run from
    # its directory.
    src_path = os.path.join(d, "prog.c")
    here = lambda argv: ["prog.c" if a == src_path else a for a in argv]
    hargv, hextra = hetero_compile_cmd(cfg, src_path, "prog.hetero")
    hargv = here(hargv)
    envs = " ".join("%s=%s" % kv for kv in sorted(r["env"].items())) if r else ""
    script = [
        "#!/bin/sh",
        "# seed %d, mode %s: %s" % (seed, mode, f["problem"]),
        "cd \"$(dirname \"$0\")\"",
        " ".join(["%s=%s" % kv for kv in hextra.items()] + [shlex.quote(a) for a in hargv]),
        " ".join(shlex.quote(a)
                 for a in here(ref_compile_cmd(src_path, "prog.ref"))),
        "./prog.ref > ref.txt",
        "env %s ./prog.hetero > hetero.txt" % envs,
        "cmp ref.txt hetero.txt && echo same || { echo DIFFERENT; diff ref.txt hetero.txt | head; }",
    ]
    path = os.path.join(d, "repro.sh")
    with open(path, "w") as fh:
        fh.write("\n".join(script) + "\n")
    os.chmod(path, 0o755)
    with open(os.path.join(cfg["keep"], "INDEX"), "a") as fh:
        fh.write("seed %d mode %s %s: sh %s\n" % (seed, mode, f["problem"], path))


# ---------------------------------------------------------------------------
# Summary
# ---------------------------------------------------------------------------


def norm_reason(r):
    """A refusal reason without its numbers (for grouping)."""
    r = re.sub(r"\b\d+\b", "N", r)
    return r[:110]


def summarize(results, cfg, elapsed):
    progs = [r for r in results if "meta" in r]
    runs = sum(r["runs"] for r in results)
    fails = [(r, f) for r in results for f in r["failures"]]
    failing_seeds = sorted({r["seed"] for r, _ in fails})
    invalid = [r for r in results if "invalid" in r]
    gen_errors = [r for r in results if "gen_error" in r]
    out = []
    p = out.append
    p("")
    p("== hetero_fuzz summary ==")
    p("programs: %d   runs: %d   failing seeds: %d   failed runs: %d   "
      "invalid programs: %d   generator errors: %d" % (
          len(progs), runs, len(failing_seeds), len(fails), len(invalid),
          len(gen_errors)))
    p("elapsed: %.0f s with %d job(s): %.1f programs/minute" % (
        elapsed, cfg["jobs"], 60.0 * len(progs) / max(elapsed, 1e-9)))
    if progs:
        p("mean per program: generate %.2f s, compile (both) %.2f s, total %.2f s" % (
            sum(r.get("gen_seconds", 0) for r in progs) / len(progs),
            sum(r.get("compile_seconds", 0) for r in progs) / len(progs),
            sum(r.get("seconds", 0) for r in progs) / len(progs)))

    # split statistics: a kernel counts as split when it split in any of the
    # multi-member modes that ran
    split_modes = [m for m in cfg["modes"] if m in SPLIT_MODES]
    nk = nsplit = 0
    reasons = collections.Counter()
    tag_total = collections.Counter()
    tag_split = collections.Counter()
    for r in progs:
        if not r["stats"]:
            continue  # did not run (build failure, invalid program)
        for k in r["meta"]["kernels"]:
            nk += 1
            st = [r["stats"].get(m, {}).get(str(k["kid"])) for m in split_modes]
            st = [s for s in st if s]
            did = any(s[0] for s in st)
            nsplit += did
            if not did and st:
                reasons[norm_reason(st[0][1])] += 1
            elif not st:
                reasons["(no statistics line)"] += 1
            for t in k["tags"]:
                tag_total[t] += 1
                tag_split[t] += did
    p("kernels: %d   split (in %s): %d (%.0f%%)   not split: %d" % (
        nk, "/".join(split_modes) or "-", nsplit, 100.0 * nsplit / max(nk, 1),
        nk - nsplit))
    if reasons:
        p("top refusal reasons:")
        for why, n in reasons.most_common(12):
            p("  %5d  %s" % (n, why))
    warn = collections.Counter(norm_reason(re.sub(r"kernel \S+", "kernel K", w))
                               for r in results for w in r["warnings"])
    if warn:
        p("hetero warnings:")
        for w, n in warn.most_common(6):
            p("  %5d  %s" % (n, w))

    if tag_total:
        p("shape coverage (kernels with the shape / of them split):")
        groups = collections.OrderedDict([
            ("construct", lambda t: t.startswith(("dir-", "collapse", "schedule",
                                                  "dist-", "nowait", "relaunch",
                                                  "zero-trip", "producer",
                                                  "fallback", "separate", "sep-"))),
            ("loops", lambda t: t.startswith(("counter", "loop-", "inner", "step-",
                                              "bound-"))),
            ("calls", lambda t: t.startswith("call-")),
            ("subscripts", lambda t: t.startswith(("read-", "write-")) or t in (
                "cast", "cast-noop", "signchange", "div", "mod", "shl", "shr",
                "and", "or", "xor", "not", "cond", "minmax", "negcoef", "gather",
                "loaded", "loaded-prm", "loaded-pp", "loaded-meta", "loaded-mw",
                "ld", "local", "index-local", "deref-form", "swapped-subscript",
                "div-by-counter", "maybe-overflow", "wrap32", "wrap64",
                "implicit-trunc", "trunc8", "trunc16", "trunc32", "arg",
                "conditional-write", "in-place")
                or t.startswith("arg-")),
            ("reductions", lambda t: t.startswith("red-")),
            ("values", lambda t: t.startswith(("fp-", "fma", "pure"))),
            ("c++", lambda t: t in ("cxx-lambda", "cxx-capture",
                                    "cxx-functor", "cxx-member",
                                    "cxx-view", "cxx-checked-view",
                                    "cxx-view2", "cxx-made-view",
                                    "std-minmax")),
        ])
        seen = set()
        for g, pred in groups.items():
            tags = sorted(t for t in tag_total if pred(t) and t not in seen)
            if not tags:
                continue
            seen |= set(tags)
            p("  [%s]" % g)
            line = ""
            for t in tags:
                cell = "%s %d/%d" % (t, tag_total[t], tag_split[t])
                if len(line) + len(cell) > 100:
                    p("    " + line)
                    line = ""
                line += cell + "   "
            if line:
                p("    " + line)
        ptags = collections.Counter(t for r in progs for t in r["meta"]["program_tags"])
        if ptags:
            p("  [program] " + "   ".join("%s %d" % kv for kv in sorted(ptags.items())))

    if fails:
        p("failures:")
        classes = collections.Counter()
        for r in results:
            if not r["failures"]:
                continue
            tri = r.get("triage", {})
            cls = tri.get("class", "-")
            classes[cls] += 1
            modes = ",".join("%s:%s" % (f["mode"], f["problem"]) for f in r["failures"])
            p("  seed %d  [%s]  first bad kernel %s  %s%s" % (
                r["seed"], cls, tri.get("kernel"), modes,
                ("  reduced to kernels %s" % tri["reduced_kernels"])
                if "reduced_kernels" in tri else ""))
        p("failure classes: " + ", ".join("%s %d" % kv for kv in classes.most_common()))
    if invalid:
        p("invalid programs (the reference failed: a generator bug): seeds %s" % (
            " ".join(str(r["seed"]) for r in invalid)))
    if gen_errors:
        for r in gen_errors[:10]:
            p("generator error: seed %d: %s" % (r["seed"], r["gen_error"]))
    return "\n".join(out)


# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(
        description="Random differential tester for hetero (see README.md).")
    ap.add_argument("--build", required=True, help="hetero build directory (has bin/clang)")
    ap.add_argument("--seeds", required=True, help="FIRST:COUNT, e.g. 1:200")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="directory for failing reproducers")
    ap.add_argument("--time-budget", type=float, default=None,
                    help="start no new seed after this many seconds")
    ap.add_argument("--modes", default=",".join(DEFAULT_MODES),
                    help="comma list of %s" % ", ".join(MODES))
    ap.add_argument("--arch", default="sm_90",
                    help="HETERO_OFFLOAD_ARCH for the driver (one arch is faster)")
    ap.add_argument("--x86-only", action="store_true",
                    help="build without NVPTX images (bypasses the driver with its "
                    "own clang-19 command; about 2x faster; no GPU use possible)")
    ap.add_argument("--run-timeout", type=float, default=20.0,
                    help="seconds per run (at least 20x the reference's time)")
    ap.add_argument("--compile-timeout", type=float, default=300.0)
    ap.add_argument("--no-triage", action="store_true",
                    help="do not rebuild failing seeds with --diag")
    ap.add_argument("--no-sanitize-ref", action="store_true",
                    help="skip the ASan+UBSan run of the reference (which checks "
                    "that the generated program is valid)")
    ap.add_argument("--reduce", action="store_true",
                    help="also drop kernels of failing programs while they fail")
    ap.add_argument("--workdir", default=None, help="scratch directory (default: TMPDIR)")
    ap.add_argument("--json", help="write all results (without outputs) here")
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args()

    try:
        first, count = (int(x) for x in args.seeds.split(":"))
    except ValueError:
        ap.error("--seeds wants FIRST:COUNT")
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    for m in modes:
        if m not in MODES:
            ap.error("unknown mode %r" % m)
    build = os.path.abspath(args.build)
    if not os.path.exists(os.path.join(build, "bin", "clang")):
        print("hetero_fuzz: %s/bin/clang not found" % build, file=sys.stderr)
        return 2
    if shutil.which(REF_CC) is None:
        print("hetero_fuzz: %s not found" % REF_CC, file=sys.stderr)
        return 2
    cfg = {
        "build": build, "jobs": max(1, args.jobs), "keep": args.keep and os.path.abspath(args.keep),
        "modes": modes, "arch": args.arch, "x86_only": args.x86_only,
        "run_timeout": args.run_timeout, "compile_timeout": args.compile_timeout,
        "triage": not args.no_triage, "reduce": args.reduce,
        "sanitize_ref": not args.no_sanitize_ref,
        "workdir": args.workdir, "driver_settings": driver_settings(build),
    }
    for d in (cfg["keep"], cfg["workdir"]):
        if d:
            os.makedirs(d, exist_ok=True)

    t0 = time.monotonic()
    results = []
    seeds = iter(range(first, first + count))
    with cf.ProcessPoolExecutor(max_workers=cfg["jobs"]) as pool:
        pending = set()

        def submit():
            if args.time_budget is not None and time.monotonic() - t0 > args.time_budget:
                return False
            s = next(seeds, None)
            if s is None:
                return False
            pending.add(pool.submit(do_seed, s, cfg))
            return True

        for _ in range(cfg["jobs"]):
            if not submit():
                break
        while pending:
            done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for fut in done:
                pending.discard(fut)
                r = fut.result()
                results.append(r)
                status = "ok"
                if "gen_error" in r:
                    status = "GENERATOR ERROR " + r["gen_error"]
                elif "invalid" in r:
                    status = "INVALID " + r["invalid"][:200]
                elif r["failures"]:
                    status = "FAIL " + ", ".join("%s:%s" % (f["mode"], f["problem"])
                                                 for f in r["failures"])
                    if "triage" in r:
                        status += "  [%s, kernel %s]" % (r["triage"].get("class"),
                                                         r["triage"].get("kernel"))
                if args.verbose or status != "ok":
                    ks = r.get("meta", {}).get("kernels", [])
                    nsplit = sum(1 for k in ks if any(
                        r["stats"].get(m, {}).get(str(k["kid"]), (False,))[0]
                        for m in SPLIT_MODES))
                    print("seed %d: %s (%d kernels, %d split, %.1f s)" % (
                        r["seed"], status, len(ks), nsplit, r.get("seconds", 0)),
                        flush=True)
                submit()
    elapsed = time.monotonic() - t0
    results.sort(key=lambda r: r["seed"])
    print(summarize(results, cfg, elapsed))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, default=str)
    bad = any(r["failures"] or "invalid" in r or "gen_error" in r for r in results)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
