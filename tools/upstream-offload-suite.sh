#!/usr/bin/env bash
# Runs LLVM 19.1.7's own offload test suite (offload/test, x86_64 offload
# target) three times on this machine: with the stock host plugin, with hetero
# (CPU pool) and with hetero over simulated accelerators (private memories,
# so every map and update crosses the data layer), and prints their
# pass/fail/unsupported counts side by side and every test that fails only
# under hetero.
#
#   upstream-offload-suite.sh <build-dir> [lit args...]
set -uo pipefail
build=$(realpath "$1")
shift
suite=$build/_deps/offload-build/test/x86_64-pc-linux-gnu
lit=$build/_deps/llvm-src/llvm/utils/lit/lit.py
out=$build/upstream-offload
mkdir -p "$out"
# Every RUN line links libomptarget.devicertl.a, the GPU device runtime that
# our build leaves out (LIBOMPTARGET_BUILD_DEVICERTL_BCLIB=OFF: Debian's
# per-arch bitcode is used instead). x86_64 offload images take nothing from
# it, so an empty archive stands in.
rtl=$build/_deps/offload-build/libomptarget.devicertl.a
[ -f "$rtl" ] || ar rcs "$rtl"
declare -A modes=(
  [host]="LIBOMPTARGET_PLUGIN=host"
  [hetero]="LIBOMPTARGET_PLUGIN=hetero"
  [hetero-sim]="LIBOMPTARGET_PLUGIN=hetero HETERO_SIMULATE=3")
for mode in host hetero hetero-sim; do
  echo "upstream-offload-suite: running with ${modes[$mode]}"
  CHECK_OPENMP_ENV="${modes[$mode]}" python3 "$lit" -sv "$@" \
    --xunit-xml-output "$out/$mode.xml" "$suite" >"$out/$mode.log" 2>&1
done
python3 - "$out" <<'PY'
import sys, xml.etree.ElementTree as ET
out = sys.argv[1]
modes = ("host", "hetero", "hetero-sim")
res = {}
for plugin in modes:
    r = {}
    for tc in ET.parse("%s/%s.xml" % (out, plugin)).getroot().iter("testcase"):
        name = tc.get("classname", "") + "/" + tc.get("name", "")
        if tc.find("failure") is not None:
            r[name] = "fail"
        elif tc.find("skipped") is not None:
            r[name] = "unsupported"
        else:
            r[name] = "pass"
    res[plugin] = r
print("%-12s %8s %8s %12s" % ("plugin", "pass", "fail", "unsupported"))
for plugin in modes:
    v = list(res[plugin].values())
    print("%-12s %8d %8d %12d" % (plugin, v.count("pass"), v.count("fail"), v.count("unsupported")))
for mode in modes[1:]:
    only = sorted(n for n, s in res[mode].items() if s == "fail" and res["host"].get(n) != "fail")
    print("\nfailing under %s only (%d):" % (mode, len(only)))
    for n in only:
        print("  " + n)
both = sorted(n for n, s in res["hetero"].items() if s == "fail" and res["host"].get(n) == "fail")
print("\nfailing under the stock host plugin and hetero (%d):" % len(both))
for n in both:
    print("  " + n)
PY
