#!/usr/bin/env python3
"""binary-weight.py <stock binary> <hetero binary>

What a hetero-built program costs: run without hetero (the libomptarget
stock clang-19 links, Debian's, against hetero's), and under hetero on a
machine where the pool has no GPU (HETERO_DISABLE_CUDA=1). Runs each way 7
times, interleaved; compares medians of peak RSS (the child's ru_maxrss)
and wall time. Prints one PASS:/FAIL: line per check, and the figures."""
import os
import statistics
import subprocess
import sys
import time

stock, hetero = sys.argv[1], sys.argv[2]
llvm_lib = os.environ.get("HETERO_LLVM_LIB", "/usr/lib/llvm-19/lib")


def run(argv, env_extra, drop=()):
    env = dict(os.environ)
    for k in drop:
        env.pop(k, None)
    env.update(env_extra)
    start = time.monotonic()
    p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    out, err = p.communicate()
    return out.decode(), err.decode(), p.returncode, time.monotonic() - start


def measured(argv, env_extra, drop=()):
    """Runs argv under a tiny wrapper that reports the child's peak RSS."""
    code = ("import os,resource,subprocess,sys,time;"
            "t=time.monotonic();r=subprocess.run(sys.argv[1:],capture_output=True);"
            "w=time.monotonic()-t;"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,w,r.returncode);"
            "sys.stdout.write(r.stdout.decode())")
    out, err, status, _ = run([sys.executable, "-c", code] + argv, env_extra,
                              drop)
    first, _, rest = out.partition("\n")
    rss, wall, rc = first.split()
    return int(rss), float(wall), int(rc), rest, err


cases = {
    "stock": ([stock], {"LD_LIBRARY_PATH": llvm_lib},
              ("LIBOMPTARGET_PLUGIN",)),
    "without hetero": ([hetero], {}, ("LIBOMPTARGET_PLUGIN",)),
    "under hetero": ([hetero], {"LIBOMPTARGET_PLUGIN": "hetero",
                                "HETERO_DISABLE_CUDA": "1"}, ()),
}
rss = {k: [] for k in cases}
wall = {k: [] for k in cases}
outputs = {}
for _ in range(7):
    for name, (argv, extra, drop) in cases.items():
        r, w, rc, out, err = measured(argv, extra, drop)
        if rc != 0:
            print("FAIL: %s exited with %d: %s" % (name, rc, err.strip()))
            sys.exit(1)
        rss[name].append(r)
        wall[name].append(w)
        outputs[name] = out
med_rss = {k: statistics.median(v) / 1024 for k, v in rss.items()}
med_ms = {k: statistics.median(v) * 1000 for k, v in wall.items()}
for k in cases:
    print("%s: peak RSS %.1f MiB, wall %.1f ms" % (k, med_rss[k], med_ms[k]))


def check(ok, what):
    print(("PASS: " if ok else "FAIL: ") + what)
    return ok


ok = check(med_rss["without hetero"] <= med_rss["stock"] + 10,
           "without hetero, peak RSS at most 10 MiB over stock")
ok &= check(med_ms["without hetero"] <= med_ms["stock"] + 10,
            "without hetero, wall time at most 10 ms over stock")
ok &= check(med_rss["under hetero"] <= 100,
            "under hetero without GPUs, peak RSS at most 100 MiB")
toolkit = [l for l in outputs["under hetero"].splitlines()
           if l.startswith("mapped: libcu") or l.startswith("mapped: libnv")]
toolkit = [l for l in toolkit if not l.startswith("mapped: libcudart")]
# (libcuda, the driver, is no toolkit library: loaded where a GPU may be.)
toolkit = [l for l in toolkit if not l.startswith("mapped: libcuda.")]
ok &= check(not toolkit, "under hetero, no CUDA toolkit library mapped but "
            "the CUDA runtime" + (": " + ", ".join(toolkit) if toolkit else ""))
hetero_libs = [l for l in outputs["without hetero"].splitlines()
               if l.startswith("mapped:")]
ok &= check(not hetero_libs, "without hetero, neither StarPU nor a CUDA "
            "library mapped" + (": " + ", ".join(hetero_libs) if hetero_libs
                               else ""))
sys.exit(0 if ok else 1)
