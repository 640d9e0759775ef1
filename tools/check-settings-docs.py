#!/usr/bin/env python3
"""Checks that every place hetero's run-time settings are listed agrees.

The settings are named in runtime/include/hetero/SettingNames.def (the one
list the plugin checks the environment against), tabled with their defaults
in runtime/include/hetero/Settings.h, and documented by hand in the README
and in docs/user-guide.md; hetero-info prints the ones in force. This
fails, naming what differs, when:

  - a setting is missing from, or extra in, any of those lists;
  - a default in Settings.h's table or the user guide's differs from what
    hetero-info reports for a clean environment (with --hetero-info), or
    the README's "(default X)" differs from the user guide's.

Usage: check-settings-docs.py SOURCE_DIR [--hetero-info PATH]
Exit status 0 when all agree, 1 otherwise (one line per difference).
"""
import argparse
import os
import re
import subprocess
import sys

# Defaults that the tables word differently from hetero-info: the words
# a table may use for what hetero-info prints.
SAME_DEFAULT = {
    "none": {"none", "unset"},
    "unlimited": {"none", "unset"},
    "all": {"all"},
}
# Defaults that depend on the machine or the user: not compared.
MACHINE_DEFAULTS = {"HETERO_CPU_THREADS", "HETERO_SHARES_FILE"}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def def_names(src):
    text = read(os.path.join(src, "runtime/include/hetero/SettingNames.def"))
    return re.findall(r"^HETERO_SETTING\((HETERO_\w+)\)", text, re.M)


def header_table(src):
    """Settings.h's table: name -> default."""
    text = read(os.path.join(src, "runtime/include/hetero/Settings.h"))
    rows = re.findall(r"^// \| (HETERO_\w+)\s*\|.*\|\s*([^|]*?)\s*\|\s*$",
                      text, re.M)
    return dict(rows)


def markdown_rows(text, heading):
    """Rows of the first table after `heading` whose first cell is a
    setting: name -> the list of cells after it."""
    at = text.find(heading)
    if at < 0:
        return None
    rows, started = {}, False
    for line in text[at:].splitlines():
        m = re.match(r"^\| `(HETERO_\w+)` \|(.*)\|\s*$", line)
        if m:
            started = True
            rows[m.group(1)] = [c.strip() for c in m.group(2).split(" | ")]
        elif started and not line.startswith("|"):
            break
    return rows


def first_word(cell):
    cell = cell.replace("`", "").strip()
    m = re.match(r"[\w./$-]+", cell)
    return m.group(0) if m else cell


def info_defaults(path):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "HOME": os.environ.get("HOME", "/tmp"),
           "HETERO_DISABLE_CUDA": "1"}
    if "LD_LIBRARY_PATH" in os.environ:
        env["LD_LIBRARY_PATH"] = os.environ["LD_LIBRARY_PATH"]
    out = subprocess.run([path], env=env, capture_output=True, text=True,
                         timeout=300).stdout
    found = dict(re.findall(r"^  (HETERO_\w+)=(.*?)(?: \(default\))?$", out,
                            re.M))
    found.pop("HETERO_DISABLE_CUDA", None)  # set above, so not the default
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("--hetero-info")
    args = ap.parse_args()
    src = args.source
    problems = []

    names = def_names(src)
    lists = {
        "Settings.h": header_table(src),
        "README.md": markdown_rows(read(os.path.join(src, "README.md")),
                                   "| variable | accepted | effect |"),
        "docs/user-guide.md": markdown_rows(
            read(os.path.join(src, "docs/user-guide.md")), "## Settings"),
    }
    if args.hetero_info:
        lists["hetero-info"] = info_defaults(args.hetero_info)
        lists["hetero-info"]["HETERO_DISABLE_CUDA"] = "0"
    for where, rows in lists.items():
        if rows is None:
            problems.append("%s: no settings table found" % where)
            continue
        for n in names:
            if n not in rows:
                problems.append("%s: %s is missing" % (where, n))
        for n in rows:
            if n not in names:
                problems.append("%s: %s is not in SettingNames.def" % (where, n))

    guide = lists["docs/user-guide.md"] or {}
    readme = lists["README.md"] or {}
    for n in names:
        if n in MACHINE_DEFAULTS:
            continue
        told = {}
        if n in lists["Settings.h"]:
            told["Settings.h"] = first_word(lists["Settings.h"][n])
        if n in guide and len(guide[n]) >= 2:
            told["docs/user-guide.md"] = first_word(guide[n][1])
        if n in readme:
            m = re.search(r"\(default ([^)]*?)\)", " ".join(readme[n]))
            if m:
                told["README.md"] = first_word(m.group(1))
        truth = (lists.get("hetero-info") or {}).get(n)
        if truth is not None:
            accepted = SAME_DEFAULT.get(truth, {truth})
            for where, word in told.items():
                if word not in accepted:
                    problems.append("%s: %s defaults to %s, hetero-info says %s"
                                    % (where, n, word, truth))
        elif "README.md" in told and "docs/user-guide.md" in told and \
                told["README.md"] != told["docs/user-guide.md"]:
            problems.append("README.md: %s defaults to %s, the user guide "
                            "says %s" % (n, told["README.md"],
                                         told["docs/user-guide.md"]))
    for p in problems:
        print("check-settings-docs: " + p)
    if not problems:
        print("check-settings-docs: %d settings agree in %s" %
              (len(names), ", ".join(lists)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
