#!/usr/bin/env bash
# desc-summary.sh <file>: from HETERO_DESC_DEBUG output (every compile of a
# source: host, x86_64, NVPTX), one line per distinct descriptor head, the
# "hetero-desc <kernel>:" line and the two after it joined by tabs (the
# directive's "source" line left out). When the compiles agree, each kernel
# gives exactly one line.
set -euo pipefail
grep -v '^source ' "$1" | grep -A2 '^hetero-desc' | grep -v '^--' | paste - - - | sort -u
